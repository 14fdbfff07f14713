/** Helpers shared by the provider adapters: turn normalisation and SDK-error translation. */
import { ModelAbortError, ModelError, type ChatTurn, type ModelErrorKind } from './types.ts';

/** Sent as the only user turn when a request has no turns at all. */
export const EMPTY_CONVERSATION_PLACEHOLDER = '(no messages yet)';
/** Replaces an empty turn's content (providers reject empty text). */
export const EMPTY_TURN_PLACEHOLDER = '(empty)';

/** Options of {@link normalizeTurns}. */
export interface NormalizeOptions {
  /** Insert a placeholder user turn if the conversation starts with the assistant. */
  startWithUser?: boolean;
  /** Append a placeholder user turn if the conversation ends with the assistant. */
  endWithUser?: boolean;
}

/** Consecutive turns of one role, kept apart (see {@link groupTurns}). */
export interface TurnGroup {
  role: ChatTurn['role'];
  /** The turns' contents, oldest first; never empty, no empty text. */
  parts: string[];
}

/**
 * Makes a turn list acceptable to strict chat APIs, keeping each turn's text apart: consecutive
 * turns with the same role form one group, empty contents get a placeholder, and an empty list
 * becomes a single user turn {@link EMPTY_CONVERSATION_PLACEHOLDER}. Does not mutate its input.
 *
 * Adapters that can send a message as several text blocks (Anthropic) send one block per part,
 * so an earlier turn stays byte-identical when a turn of the same role is appended after it,
 * and a cache breakpoint set at its end still matches on the next call.
 */
export function groupTurns(turns: readonly ChatTurn[], options: NormalizeOptions = {}): TurnGroup[] {
  const out: TurnGroup[] = [];
  for (const turn of turns) {
    const content = turn.content.trim() === '' ? EMPTY_TURN_PLACEHOLDER : turn.content;
    const last = out.at(-1);
    if (last && last.role === turn.role) last.parts.push(content);
    else out.push({ role: turn.role, parts: [content] });
  }
  if (out.length === 0) return [{ role: 'user', parts: [EMPTY_CONVERSATION_PLACEHOLDER] }];
  if (options.startWithUser && out[0]!.role === 'assistant') {
    out.unshift({ role: 'user', parts: ['(conversation start)'] });
  }
  if (options.endWithUser && out.at(-1)!.role === 'assistant') {
    out.push({ role: 'user', parts: ['(continue)'] });
  }
  return out;
}

/**
 * Makes a turn list acceptable to strict chat APIs: consecutive turns with the same role are
 * merged (joined by a blank line), empty contents get a placeholder, and an empty list becomes a
 * single user turn {@link EMPTY_CONVERSATION_PLACEHOLDER}. Does not mutate its input.
 */
export function normalizeTurns(turns: readonly ChatTurn[], options: NormalizeOptions = {}): ChatTurn[] {
  return groupTurns(turns, options).map((g) => ({ role: g.role, content: g.parts.join('\n\n') }));
}

/**
 * Appends a request's live part (see `ChatRequest.live`) after the conversation: as the last
 * part of the final user group, or as a user group of its own after an assistant turn. Returns
 * `groups` unchanged when `live` is empty. Does not mutate its input.
 */
export function appendLive(groups: readonly TurnGroup[], live: string | undefined): TurnGroup[] {
  const out = groups.map((g) => ({ role: g.role, parts: [...g.parts] }));
  if (!live?.trim()) return out;
  const last = out.at(-1);
  if (last?.role === 'user') last.parts.push(live);
  else out.push({ role: 'user', parts: [live] });
  return out;
}

/** Context for {@link toModelError}. */
export interface ErrorContext {
  provider: string;
  modelId: string;
  baseURL: string;
  /** Variable the key came from, for auth hints. */
  keyEnv: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
}

interface SdkErrorShape {
  status?: unknown;
  message?: unknown;
  apiMessage?: unknown;
  error?: unknown;
  cause?: unknown;
}

/** The provider's own message from an SDK APIError, for either SDK's error body layout. */
function apiMessage(e: SdkErrorShape): string | undefined {
  if (typeof e.apiMessage === 'string' && e.apiMessage) return e.apiMessage;
  const body = e.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  if (body && typeof body === 'object') {
    if (typeof body.error?.message === 'string') return body.error.message; // Anthropic: {type:'error', error:{type, message}}
    if (typeof body.message === 'string') return body.message; // OpenAI: error object itself
  }
  return typeof e.message === 'string' ? e.message.replace(/^\d{3}\s+/, '') : undefined;
}

function causeText(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 4; depth++) {
    const c = cur as { message?: unknown; code?: unknown; cause?: unknown };
    if (typeof c.code === 'string') parts.push(c.code);
    if (typeof c.message === 'string') parts.push(c.message);
    cur = c.cause;
  }
  return parts.join(' ');
}

/** The SDK error classes told apart, by class name (both SDKs name them alike). */
const SDK_ERRORS = new Set(['APIUserAbortError', 'APIConnectionTimeoutError', 'APIConnectionError']);

/**
 * The SDK error class of `err` (the nearest of {@link SDK_ERRORS} up its class chain, so the most
 * specific), or its `name`: the OpenAI SDK does not set `name` on its errors. By class name, not
 * `instanceof`, so that neither SDK is loaded to classify the other's errors.
 */
function sdkErrorName(err: unknown): string {
  for (let proto = err instanceof Error ? Object.getPrototypeOf(err) : null; proto; proto = Object.getPrototypeOf(proto)) {
    const name = (proto as { constructor?: { name?: string } }).constructor?.name;
    if (name && SDK_ERRORS.has(name)) return name;
  }
  return err instanceof Error ? err.name : '';
}

/** Longest wait for {@link preconnect}'s answer, in ms. */
export const PRECONNECT_TIMEOUT_MS = 5_000;

/**
 * Opens a connection to `url`'s server the way the first request will (Node's fetch: it loads
 * undici and its parser, resolves the name, connects and keeps the connection for the next
 * request): a HEAD request without credentials, whose answer is ignored.
 *
 * @throws whatever fetch throws (refused, unresolvable, aborted, or no answer within
 *   {@link PRECONNECT_TIMEOUT_MS}).
 */
export async function preconnect(url: string, signal?: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<void> {
  const timeout = AbortSignal.timeout(PRECONNECT_TIMEOUT_MS);
  const response = await fetchImpl(url, { method: 'HEAD', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  await response.body?.cancel();
}

const retriesText = (n: number): string => (n === 1 ? '1 retry' : `${n} retries`);

/**
 * Translates anything thrown by an SDK call into a {@link ModelError}, or a {@link ModelAbortError}
 * if the caller's signal has aborted. Classifies by HTTP status when there is one, and by the SDK
 * error's name otherwise (both SDKs use the same names).
 */
/** The error context of one request of a model built from `spec` with `options`. */
export function errorContext(
  spec: { provider: string; id: string; baseURL: string; keyEnv: string | undefined },
  options: { timeoutMs: number; maxRetries: number },
  signal: AbortSignal | undefined,
): ErrorContext {
  return {
    provider: spec.provider,
    modelId: spec.id,
    baseURL: spec.baseURL,
    keyEnv: spec.keyEnv,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    signal,
  };
}

export function toModelError(err: unknown, ctx: ErrorContext): ModelError | ModelAbortError {
  if (err instanceof ModelError || err instanceof ModelAbortError) return err;
  if (ctx.signal?.aborted) return new ModelAbortError(ctx.modelId, ctx.signal.reason);
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as SdkErrorShape;
  const name = sdkErrorName(err);
  const status = typeof e.status === 'number' ? e.status : undefined;
  const base = { provider: ctx.provider, modelId: ctx.modelId, status, cause: err };
  const make = (kind: ModelErrorKind, retryable: boolean, message: string): ModelError =>
    new ModelError({ ...base, kind, retryable, message });
  const tried = `after ${retriesText(ctx.maxRetries)}`;

  if (name === 'APIUserAbortError') return new ModelAbortError(ctx.modelId, err);
  if (name === 'APIConnectionTimeoutError') {
    return make(
      'timeout',
      true,
      `no answer from ${ctx.baseURL} within ${ctx.timeoutMs} ms per attempt, ${tried} — check the server or raise timeoutMs`,
    );
  }
  if (name === 'APIConnectionError' || (status === undefined && /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND/i.test(causeText(err)))) {
    return make(
      'connection',
      true,
      `cannot reach ${ctx.baseURL} (${causeText(e.cause ?? err) || 'connection error'}), ${tried} — is the server running and the url right?`,
    );
  }
  if (status === undefined) {
    return make('unknown', false, `unexpected error: ${causeText(err) || String(err)}`);
  }
  const detail = apiMessage(e) ?? 'no details';
  const keyHint = ctx.keyEnv ? `set ${ctx.keyEnv} in the environment or in keys.json` : 'pass an API key (apiKeyEnv in the model spec)';
  if (status === 401) return make('auth', false, `401 invalid API key (${detail}) — ${keyHint}`);
  if (status === 403) return make('auth', false, `403 permission denied (${detail}) — check that the key may use this model`);
  if (status === 404) return make('not_found', false, `404 not found (${detail}) — check the model name and url (${ctx.baseURL})`);
  if (status === 429)
    return make('rate_limit', true, `429 rate limited ${tried} (${detail}) — wait, lower request rate, or raise the account's limits`);
  if (status === 408 || status === 409 || status >= 500) {
    return make('server', true, `${status} provider error ${tried} (${detail}) — the provider is failing; try again later`);
  }
  if (status === 400 || status === 413 || status === 422) {
    return make('bad_request', false, `${status} request rejected (${detail}) — check params in the model spec and the prompt size`);
  }
  return make('unknown', false, `${status} unexpected response (${detail})`);
}

/** Throws a {@link ModelAbortError} if `signal` has already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, modelId: string): void {
  if (signal?.aborted) throw new ModelAbortError(modelId, signal.reason);
}

/** Keys a spec's `params` may not override, because the adapter owns them. */
export const RESERVED_PARAMS = new Set(['model', 'messages', 'system', 'stream', 'stream_options']);

/** `params` without {@link RESERVED_PARAMS}. */
export function passThroughParams(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => !RESERVED_PARAMS.has(k)));
}
