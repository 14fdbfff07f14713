/**
 * Fake vendor servers for the provider presets (src/models/presets.ts): real HTTP servers on
 * 127.0.0.1 that speak one vendor's dialect of the OpenAI-compatible API, so the real `openai`
 * SDK (and our adapters) run unmodified against them. What differs between vendors, and what a
 * fake checks or sends:
 * - the path: the vendor's base path (its preset URL's path, e.g. Gemini `/v1beta/openai`, Groq
 *   `/openai/v1`, DashScope `/compatible-mode/v1`) plus `/chat/completions` or `/embeddings`;
 *   Azure: `/openai/deployments/<deployment>/…?api-version=…`;
 * - the key: `Authorization: Bearer <key>`, Azure's `api-key: <key>`;
 * - the error body, in the vendor's documented shape (see {@link errorBody}).
 * (Anthropic's wire format is `startFakeProvider('anthropic')` in ./fake-providers.ts.)
 *
 * ```ts
 * const fake = await startFakeVendor('google', { reply: () => 'Hi! !stats' });
 * const model = createModel({ model: 'google/gemini-2.5-flash', url: fake.url }, { env: fake.env });
 * await model.complete({ system: 'You are a bot', turns: [] }); // → 'Hi! !stats'
 * fake.requests[0].path; // → '/v1beta/openai/chat/completions'
 * ```
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PRESETS, type ProviderPreset, type ProviderPrefix } from '../../src/models/presets.ts';

/** One request as the fake received it. */
export interface VendorRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The key the request carried (Bearer token, or Azure's `api-key`), if any. */
  key: string | undefined;
}

/** Options of {@link startFakeVendor}. */
export interface FakeVendorOptions {
  /** The key the server accepts (default `'vendor-key'`); null: none checked. */
  apiKey?: string | null;
  /** The reply text to a chat request (default `'ok'`). */
  reply?: (request: VendorRequest) => string;
  /** An error to answer with instead (status and message; the body takes the vendor's shape). */
  fail?: (request: VendorRequest) => { status: number; message: string } | undefined;
  /** A text's embedding (default {@link hashVector}). */
  embed?: (text: string) => number[];
  /** Extra fields of the chat answer's `message` (e.g. DeepSeek's `reasoning_content`). */
  messageExtra?: Record<string, unknown>;
}

/** A running fake vendor. */
export interface FakeVendorServer {
  readonly prefix: ProviderPrefix;
  /** The URL to put in a spec's `url`: the vendor's base path on this server (Azure: the endpoint). */
  readonly url: string;
  /** Environment with the accepted key under the preset's key variable. */
  readonly env: NodeJS.ProcessEnv;
  readonly requests: VendorRequest[];
  close(): Promise<void>;
}

/** A deterministic 8-dimensional vector of a text (from its SHA-256). */
export function hashVector(text: string): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length: 8 }, (_, i) => digest.readInt8(i) / 128);
}

const STATUS_WORDS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/**
 * The error body a vendor sends, as its docs show it:
 * - OpenAI, DeepSeek, Groq, OpenRouter, Ollama, DashScope, Novita, glhf: `{ error: { message, type, code } }`;
 * - Azure: `{ error: { code, message } }`;
 * - xAI: `{ code, error: "<message>" }`; Hugging Face: `{ error: "<message>" }`;
 * - Mistral, vLLM, Hyperbolic, LM Studio: `{ object: "error", message, type, param, code }`;
 * - Gemini: `[{ error: { code, message, status } }]`;
 * - Replicate: `{ title, detail, status }` (problem details).
 */
export function errorBody(prefix: ProviderPrefix, status: number, message: string): unknown {
  switch (prefix) {
    case 'azure':
      return { error: { code: String(status), message } };
    case 'xai':
      return { code: 'Client specified an invalid argument', error: message };
    case 'huggingface':
      return { error: message };
    case 'mistral':
    case 'vllm':
    case 'hyperbolic':
    case 'lmstudio':
      return {
        object: 'error',
        message,
        type: status === 401 ? 'authentication_error' : 'invalid_request_error',
        param: null,
        code: status,
      };
    case 'google':
      return [{ error: { code: status, message, status: STATUS_WORDS[status] ?? 'UNKNOWN' } }];
    case 'replicate':
      return { title: status === 401 ? 'Unauthenticated' : 'Error', detail: message, status };
    case 'openai':
    case 'anthropic':
    case 'deepseek':
    case 'groq':
    case 'openrouter':
    case 'ollama':
    case 'qwen':
    case 'novita':
    case 'glhf':
      return {
        error: { message, type: status === 401 ? 'invalid_request_error' : 'api_error', code: status === 401 ? 'invalid_api_key' : null },
      };
  }
}

/** The base path of a vendor's OpenAI-compatible API on the fake (its preset URL's path). */
export function vendorBasePath(prefix: ProviderPrefix): string {
  const preset: ProviderPreset = PRESETS[prefix];
  if (preset.client === 'azure') return '/openai';
  return new URL(preset.defaultUrl).pathname.replace(/\/+$/, '');
}

/**
 * Starts a fake of one vendor on 127.0.0.1 (a free port).
 *
 * @param prefix the preset whose dialect it speaks (any OpenAI-family preset).
 */
export async function startFakeVendor(prefix: ProviderPrefix, options: FakeVendorOptions = {}): Promise<FakeVendorServer> {
  const preset: ProviderPreset = PRESETS[prefix];
  if (preset.family !== 'openai') throw new Error(`${prefix} is not an OpenAI-compatible preset; use startFakeProvider('anthropic')`);
  const apiKey = options.apiKey === undefined ? 'vendor-key' : options.apiKey;
  const base = vendorBasePath(prefix);
  const azure = preset.client === 'azure';
  const requests: VendorRequest[] = [];
  const send = (res: import('node:http').ServerResponse, status: number, payload: unknown) => {
    const text = JSON.stringify(payload);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text).toString(),
      ...(status >= 400 ? { 'x-should-retry': 'false' } : {}),
    });
    res.end(text);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const auth = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
      const key = azure ? (req.headers['api-key'] as string | undefined) : auth;
      const request: VendorRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        key,
      };
      requests.push(request);
      const fail = (status: number, message: string) => send(res, status, errorBody(prefix, status, message));
      if (apiKey !== null && key !== apiKey) return fail(401, 'Incorrect API key provided.');
      if (azure && !url.searchParams.get('api-version')) return fail(400, 'Missing api-version query parameter.');
      const model = (body as { model?: string } | undefined)?.model ?? '';
      const route = azure ? url.pathname.match(/^\/openai\/deployments\/([^/]+)(\/chat\/completions|\/embeddings)$/) : null;
      const endpoint = azure ? route?.[2] : url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : undefined;
      if (req.method !== 'POST' || (endpoint !== '/chat/completions' && endpoint !== '/embeddings'))
        return fail(404, `Not found: ${req.method} ${url.pathname}`);
      const scripted = options.fail?.(request);
      if (scripted) return fail(scripted.status, scripted.message);
      if (endpoint === '/embeddings') {
        const input = (body as { input?: unknown }).input;
        const texts = Array.isArray(input) ? input.map(String) : [String(input)];
        const embed = options.embed ?? hashVector;
        return send(res, 200, {
          object: 'list',
          model,
          data: texts.map((t, index) => ({ object: 'embedding', index, embedding: embed(t) })),
          usage: { prompt_tokens: texts.join(' ').length, total_tokens: texts.join(' ').length },
        });
      }
      const text = options.reply?.(request) ?? 'ok';
      return send(res, 200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: azure ? route?.[1] : model,
        choices: [
          { index: 0, message: { role: 'assistant', content: text, ...options.messageExtra }, finish_reason: 'stop', logprobs: null },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keyName = preset.keyEnv;
  return {
    prefix,
    url: azure ? origin : `${origin}${base}`,
    env: keyName && apiKey ? { [keyName]: apiKey } : {},
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
