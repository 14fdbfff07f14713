/**
 * Error bodies of the OpenAI-compatible vendors. They answer errors in their own shapes, and the
 * OpenAI SDK reads only OpenAI's (`{ error: { message, type, code } }`): from any other it keeps
 * just the status ("401 status code (no body)"). {@link normalizingFetch} rewrites an error
 * answer's body into OpenAI's shape before the SDK reads it, so every vendor's own message
 * reaches the {@link ModelError} (and its hint), and the status and headers (`retry-after`,
 * `x-should-retry`) stay as sent.
 *
 * Shapes read, as the vendors document them:
 * - OpenAI, Azure, DeepSeek, Groq, OpenRouter, Ollama, DashScope, Novita: `{ error: { message, type?, code? } }`;
 * - xAI, Hugging Face: `{ error: "text", code?: "..." }`;
 * - Mistral, vLLM, Hyperbolic: `{ object: "error", message, type, code }` (or `{ message }`);
 * - Gemini: `[{ error: { code, message, status } }]` (a list) or the same object unwrapped;
 * - Replicate: `{ detail, title?, status? }` (RFC 7807 problem details);
 * - anything else: the body's text.
 */

/** What an error body says, in OpenAI's fields. */
export interface VendorError {
  message: string;
  type?: string;
  code?: string | number;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const codeOf = (v: unknown): string | number | undefined => (typeof v === 'string' || typeof v === 'number' ? v : undefined);

/**
 * Reads the message (and type and code, when given) of a vendor's error body.
 *
 * @param body the parsed JSON body, or the raw text when it is not JSON.
 * @returns undefined for an empty body.
 */
export function vendorError(body: unknown): VendorError | undefined {
  if (typeof body === 'string') return text(body) ? { message: body.trim().slice(0, 2000) } : undefined;
  if (Array.isArray(body)) return vendorError(body[0]);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const err = b.error;
  if (err && typeof err === 'object' && !Array.isArray(err)) {
    const e = err as Record<string, unknown>;
    const message = text(e.message) ?? text(e.detail) ?? JSON.stringify(e);
    return { message, type: text(e.type) ?? text(e.status), code: codeOf(e.code) };
  }
  if (text(err)) return { message: text(err)!, type: text(b.type), code: codeOf(b.code) };
  const message = text(b.message) ?? text(b.detail) ?? text(b.title) ?? (Array.isArray(b.detail) ? JSON.stringify(b.detail) : undefined);
  if (message) return { message, type: text(b.type) ?? text(b.title), code: codeOf(b.code) ?? codeOf(b.status) };
  return Object.keys(b).length ? { message: JSON.stringify(b).slice(0, 2000) } : undefined;
}

/**
 * A `fetch` that passes successful answers through untouched and rewrites the body of an error
 * answer (status ≥ 400) into OpenAI's `{ error: { message, type, code } }`, keeping its status
 * and headers. For the OpenAI SDK's `fetch` option.
 *
 * @param inner the fetch to wrap (default the global one).
 */
export function normalizingFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status < 400) return response;
    const raw = await response.text().catch(() => '');
    let parsed: unknown = raw;
    try {
      parsed = raw ? JSON.parse(raw) : '';
    } catch {
      /* keep the text */
    }
    const error = vendorError(parsed);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    headers.set('content-type', 'application/json');
    const payload = error ? { error: { message: error.message, type: error.type ?? null, code: error.code ?? null } } : {};
    return new Response(JSON.stringify(payload), { status: response.status, statusText: response.statusText, headers });
  };
}
