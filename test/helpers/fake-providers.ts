/**
 * Fake LLM provider servers for tests: real HTTP servers on 127.0.0.1 speaking the real wire
 * protocols of the Anthropic Messages API and the OpenAI Chat Completions API, so the real SDKs
 * (and everything above them) run unmodified against a scripted model.
 *
 * ```ts
 * const fake = await startFakeProvider('anthropic', { replies: ['!collectBlocks("oak_log", 3)'] });
 * const model = createModel(fake.spec('claude-test'), { env: fake.env });
 * await model.complete({ system: 'You are a bot', turns: [] }); // → '!collectBlocks("oak_log", 3)'
 * fake.requests[0].call.system;                                  // → 'You are a bot'
 * await fake.close();
 * ```
 *
 * Each request takes the next queued reply ({@link FakeProviderServer.enqueue}); when the queue is
 * empty, the handler answers; with neither, the server answers 500 with `x-should-retry: false`
 * and the message "fake provider: no reply scripted", so a missing script fails fast. The OpenAI
 * fake also answers `POST /v1/audio/speech` (text-to-speech) with a silent WAV of
 * {@link FAKE_SPEECH_SECONDS}.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIVE_HEADER } from '../../src/agent/prompt-builder.ts';
import { pcmWav } from '../../src/app/voice.ts';

/** Which wire protocol the fake speaks. */
export type FakeProtocol = 'anthropic' | 'openai';

/** One turn as the fake understood it (text content only; content blocks are joined). */
export interface FakeMessage {
  role: string;
  content: string;
}

/** A request, reduced to what a scripted model needs, the same for both protocols. */
export interface FakeChatCall {
  model: string;
  /** System prompt: Anthropic's `system` field, or OpenAI's system/developer messages joined. */
  system: string;
  /** Conversation turns, without OpenAI system/developer messages. */
  messages: FakeMessage[];
  /** Content of the last user turn (without the live part), or `''`. */
  lastUserMessage: string;
  /**
   * The request's live part (the bot's state, `ChatRequest.live`), which the adapters append to
   * the last user turn; recognised by its first line (`LIVE_HEADER`) and taken out of `messages`
   * and `lastUserMessage`. `''` when the request has none.
   */
  live: string;
  /** Tools offered, from Anthropic's `tools[].input_schema` or OpenAI's `tools[].function.parameters`; `[]` if none. */
  tools: FakeTool[];
  /** The raw JSON body as received. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A recorded HTTP request. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined if it was not JSON). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Parsed view of a chat request; undefined for other paths. */
  call: FakeChatCall | undefined;
  /** `Date.now()` when the body was fully received. */
  receivedAt: number;
  /** `Date.now()` when the answer was fully written; undefined while it is pending (or hangs, or was dropped). */
  answeredAt?: number;
}

/** A tool as the fake understood it, the same for both protocols. */
export interface FakeTool {
  name: string;
  description: string;
  /** The JSON Schema of the arguments. */
  parameters: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A tool call the fake answers with. */
export interface FakeToolCall {
  name: string;
  /** Arguments: an object, or (OpenAI only) raw argument text, e.g. malformed JSON. */
  input: Record<string, unknown> | string;
}

/** A successful answer with custom extras. */
export interface FakeTextReply {
  text: string;
  /**
   * Tool calls after the text, in the real wire format: Anthropic `tool_use` content blocks
   * (stop_reason `tool_use`), OpenAI `message.tool_calls` (finish_reason `tool_calls`, content
   * null when `text` is empty).
   */
  toolCalls?: FakeToolCall[];
  /** Wait this long (ms) before answering. */
  delayMs?: number;
  /** Anthropic `stop_reason` / OpenAI `finish_reason`; defaults to the protocol's normal stop. */
  stopReason?: string;
}

/** An error answer in the protocol's own error shape. */
export interface FakeErrorReply {
  status: number;
  /** Error message; defaults to a realistic one for the status. */
  message?: string;
  /** Error `type`; defaults to the protocol's type for the status. */
  errorType?: string;
  /** Extra response headers, e.g. `{ 'retry-after': '0' }`. */
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Never answer (until the client gives up or the server closes). */
export interface FakeHangReply {
  hang: true;
}

/** Accept the request, then destroy the socket without answering (a connection error). */
export interface FakeDropReply {
  drop: true;
}

/** What the fake does with one request. A plain string is a normal answer with that text. */
export type FakeReply = string | FakeTextReply | FakeErrorReply | FakeHangReply | FakeDropReply;

/** Computes the reply to a chat request. May be async. Throwing answers 500 with the error's message. */
export type FakeHandler = (call: FakeChatCall, request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** Options of {@link startFakeProvider}. */
export interface FakeProviderOptions {
  /** Replies used first, in order, one per request. */
  replies?: FakeReply[];
  /** Answers requests once the queue is empty. */
  handler?: FakeHandler;
  /** If set, requests must carry this key (Anthropic: `x-api-key` or `Authorization: Bearer`; OpenAI: `Authorization: Bearer`), else 401. Default `'test-key'`. `null` disables the check. */
  apiKey?: string | null;
  /**
   * Simulates the provider's prompt cache and reports it in the usage fields (default off: every
   * prompt token uncached). See {@link PromptCacheSimulator}.
   */
  cache?: boolean | { minTokens?: number };
}

/** One cache hit or miss as the simulated cache counted it (tokens are chars / 4, rounded up, per block). */
export interface CacheUsage {
  /** Every prompt token. */
  input: number;
  /** Read from the cache. */
  read: number;
  /** Written to the cache (Anthropic only). */
  write: number;
}

/**
 * The fake's prompt cache, following each provider's documented rules closely enough to tell
 * whether a request's prefix would hit:
 * - Anthropic (explicit breakpoints): the prompt is a list of blocks in cache order (tools,
 *   system blocks, then every message's content blocks, a string content being one block); a
 *   block with `cache_control` ends a cacheable prefix. A request reads the longest prefix,
 *   ending at a breakpoint or at one of the 20 block boundaries before it, that an earlier
 *   request wrote, and writes the prefixes of its breakpoints past that; prefixes shorter than
 *   `minTokens` are never cached. The key is the prefix's content without `cache_control`.
 * - OpenAI (automatic): the prompt text (system and messages in order) is matched against every
 *   earlier prompt; the longest common prefix counts if it reaches `minTokens`, in 128-token steps
 *   above that; prompts shorter than `minTokens` are not cached.
 * Entries never expire (the providers keep them 5 minutes or more after their last use).
 */
export class PromptCacheSimulator {
  readonly #protocol: FakeProtocol;
  readonly #minTokens: number;
  readonly #anthropic = new Set<string>();
  readonly #openai: string[] = [];

  /** @param minTokens the smallest cacheable prefix (default 1,024 tokens, as Claude Sonnet's and OpenAI's). */
  constructor(protocol: FakeProtocol, minTokens = 1024) {
    this.#protocol = protocol;
    this.#minTokens = minTokens;
  }

  /** Counts one request's prompt against the cache, and updates the cache. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  use(body: any): CacheUsage {
    return this.#protocol === 'anthropic' ? this.#useAnthropic(body) : this.#useOpenAI(body);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  #useAnthropic(body: any): CacheUsage {
    const blocks: Array<{ key: string; tokens: number; breakpoint: boolean }> = [];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const add = (role: string, block: any) => {
      const { cache_control: mark, ...rest } = typeof block === 'string' ? { type: 'text', text: block } : block;
      const text = typeof rest.text === 'string' ? rest.text : JSON.stringify(rest);
      blocks.push({ key: `${role}\u0000${JSON.stringify(rest)}`, tokens: roughTokens(text), breakpoint: Boolean(mark) });
    };
    for (const tool of Array.isArray(body?.tools) ? body.tools : []) add('tool', tool);
    for (const block of typeof body?.system === 'string' ? [body.system] : Array.isArray(body?.system) ? body.system : [])
      add('system', block);
    for (const message of Array.isArray(body?.messages) ? body.messages : []) {
      const content = typeof message.content === 'string' ? [message.content] : Array.isArray(message.content) ? message.content : [];
      content.forEach((block: unknown, i: number) => add(i === 0 ? String(message.role) : '', block));
    }
    const keys: string[] = [];
    const totals: number[] = [];
    let key = '';
    let total = 0;
    for (const b of blocks) {
      key = createHash('sha256').update(key).update(b.key).digest('hex');
      total += b.tokens;
      keys.push(key);
      totals.push(total);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let hit = -1;
    for (const b of breakpoints) {
      for (let j = b; j >= Math.max(0, b - 20); j--) {
        if (this.#anthropic.has(keys[j]!)) {
          hit = Math.max(hit, j);
          break;
        }
      }
    }
    const read = hit >= 0 ? totals[hit]! : 0;
    let written = read;
    for (const b of breakpoints) {
      if (b > hit && totals[b]! >= this.#minTokens) {
        this.#anthropic.add(keys[b]!);
        written = Math.max(written, totals[b]!);
      }
    }
    return { input: total, read, write: written - read };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  #useOpenAI(body: any): CacheUsage {
    const messages: Array<{ role?: unknown; content?: unknown }> = Array.isArray(body?.messages) ? body.messages : [];
    const text = messages.map((m) => `${String(m.role)}\u0000${blockText(m.content)}\u0000`).join('');
    const input = roughTokens(text);
    let common = 0;
    for (const earlier of this.#openai) {
      let n = 0;
      const max = Math.min(earlier.length, text.length);
      while (n < max && earlier.charCodeAt(n) === text.charCodeAt(n)) n++;
      common = Math.max(common, n);
    }
    this.#openai.push(text);
    const prefix = Math.floor(common / 4);
    const read =
      input < this.#minTokens || prefix < this.#minTokens ? 0 : this.#minTokens + Math.floor((prefix - this.#minTokens) / 128) * 128;
    return { input, read: Math.min(read, input), write: 0 };
  }
}

/** A running fake provider. */
export interface FakeProviderServer {
  readonly protocol: FakeProtocol;
  /** Base URL to put in a model spec's `url` (`http://127.0.0.1:PORT` for Anthropic, `…/v1` for OpenAI). */
  readonly url: string;
  readonly port: number;
  /** The key the server expects (or null). */
  readonly apiKey: string | null;
  /** Environment with the expected key under ANTHROPIC_API_KEY, OPENAI_API_KEY and OPENROUTER_API_KEY. */
  readonly env: NodeJS.ProcessEnv;
  /** Every request received, in order (including failed ones), but HEADs. */
  readonly requests: RecordedRequest[];
  /** HEAD requests received, in order: a model's warm-up opening its connection (no model call). */
  readonly heads: RecordedRequest[];
  /** Errors thrown by the handler, in order. */
  readonly handlerErrors: unknown[];
  /** Model spec for this server: `{ model: '<prefix>/<model>', url }`; prefix defaults to the protocol's. */
  spec(model?: string, prefix?: string): { model: string; url: string; params?: Record<string, unknown> };
  /** Queues replies (used before the handler). */
  enqueue(...replies: FakeReply[]): void;
  /** Replaces the handler. */
  setHandler(handler: FakeHandler | undefined): void;
  /** Resolves once at least `count` requests have been received; rejects after `timeoutMs` (default 5000). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Stops the server and drops open connections (including hung requests). */
  close(): Promise<void>;
}

let idCounter = 0;
const nextId = (prefix: string): string =>
  `${prefix}${(++idCounter).toString(36).padStart(8, '0')}${Math.random().toString(36).slice(2, 10)}`;
const roughTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** The text of a content: a string, or its text blocks joined with `separator`. */
function blockText(content: unknown, separator = ''): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''))
      .join(separator);
  }
  return '';
}

/** Takes the live part (from its header on) out of the last user turn. */
function splitLive(messages: FakeMessage[]): string {
  const last = messages.at(-1);
  const at = last?.role === 'user' ? last.content.indexOf(LIVE_HEADER) : -1;
  if (!last || at < 0) return '';
  const live = last.content.slice(at);
  last.content = last.content.slice(0, at).replace(/\n\n$/, '');
  if (!last.content) messages.pop();
  return live;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function parseCall(protocol: FakeProtocol, body: any): FakeChatCall {
  const rawMessages: Array<{ role?: unknown; content?: unknown }> = Array.isArray(body?.messages) ? body.messages : [];
  let system = '';
  let messages: FakeMessage[];
  if (protocol === 'anthropic') {
    system = blockText(body?.system);
    // A message's blocks are the turns the adapter kept apart: joined as it would merge them.
    messages = rawMessages.map((m) => ({ role: String(m.role), content: blockText(m.content, '\n\n') }));
  } else {
    const sys = rawMessages.filter((m) => m.role === 'system' || m.role === 'developer');
    system = sys.map((m) => blockText(m.content)).join('\n\n');
    messages = rawMessages.filter((m) => !sys.includes(m)).map((m) => ({ role: String(m.role), content: blockText(m.content) }));
  }
  const live = splitLive(messages);
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const rawTools: any[] = Array.isArray(body?.tools) ? body.tools : []; // eslint-disable-line @typescript-eslint/no-explicit-any
  const tools: FakeTool[] = rawTools.map((t) =>
    protocol === 'anthropic'
      ? { name: String(t?.name), description: String(t?.description ?? ''), parameters: t?.input_schema }
      : { name: String(t?.function?.name), description: String(t?.function?.description ?? ''), parameters: t?.function?.parameters },
  );
  return { model: String(body?.model ?? ''), system, messages, lastUserMessage: lastUser?.content ?? '', live, tools, body };
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};
const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
  500: 'server_error',
  503: 'server_error',
};
const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Invalid request.',
  401: 'invalid x-api-key',
  403: 'Your API key does not have permission to use the specified resource.',
  404: 'The requested resource could not be found.',
  429: 'Rate limit exceeded. Please try again later.',
  500: 'Internal server error.',
  503: 'Service unavailable.',
  529: 'Overloaded',
};

function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text).toString(), ...headers });
  res.end(text);
}

function sendError(protocol: FakeProtocol, res: ServerResponse, reply: FakeErrorReply): void {
  const message = reply.message ?? DEFAULT_MESSAGES[reply.status] ?? `Error ${reply.status}`;
  if (protocol === 'anthropic') {
    const requestId = nextId('req_');
    const type = reply.errorType ?? ANTHROPIC_ERROR_TYPES[reply.status] ?? (reply.status >= 500 ? 'api_error' : 'invalid_request_error');
    sendJson(
      res,
      reply.status,
      { type: 'error', error: { type, message }, request_id: requestId },
      { 'request-id': requestId, ...reply.headers },
    );
  } else {
    const type = reply.errorType ?? OPENAI_ERROR_TYPES[reply.status] ?? (reply.status >= 500 ? 'server_error' : 'invalid_request_error');
    const code = reply.status === 401 ? 'invalid_api_key' : reply.status === 429 ? 'rate_limit_exceeded' : null;
    sendJson(res, reply.status, { error: { message, type, param: null, code } }, { 'x-request-id': nextId('req_'), ...reply.headers });
  }
}

function sendText(protocol: FakeProtocol, res: ServerResponse, call: FakeChatCall, reply: FakeTextReply, cache?: CacheUsage): void {
  const input = cache?.input ?? roughTokens(call.system + call.messages.map((m) => m.content).join(''));
  const output = roughTokens(reply.text);
  const toolCalls = reply.toolCalls ?? [];
  if (protocol === 'anthropic') {
    const requestId = nextId('req_');
    const content: unknown[] = reply.text || toolCalls.length === 0 ? [{ type: 'text', text: reply.text }] : [];
    for (const c of toolCalls) {
      content.push({
        type: 'tool_use',
        id: nextId('toolu_'),
        name: c.name,
        input: typeof c.input === 'string' ? JSON.parse(c.input) : c.input,
      });
    }
    sendJson(
      res,
      200,
      {
        id: nextId('msg_'),
        type: 'message',
        role: 'assistant',
        model: call.model,
        content,
        stop_reason: reply.stopReason ?? (toolCalls.length ? 'tool_use' : 'end_turn'),
        stop_sequence: null,
        usage: {
          input_tokens: input - (cache?.read ?? 0) - (cache?.write ?? 0),
          output_tokens: output,
          cache_creation_input_tokens: cache?.write ?? 0,
          cache_read_input_tokens: cache?.read ?? 0,
        },
      },
      { 'request-id': requestId },
    );
  } else {
    sendJson(
      res,
      200,
      {
        id: nextId('chatcmpl-'),
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: call.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: toolCalls.length && !reply.text ? null : reply.text,
              refusal: null,
              annotations: [],
              ...(toolCalls.length
                ? {
                    tool_calls: toolCalls.map((c) => ({
                      id: nextId('call_'),
                      type: 'function',
                      function: { name: c.name, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) },
                    })),
                  }
                : {}),
            },
            logprobs: null,
            finish_reason: reply.stopReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
          },
        ],
        usage: {
          prompt_tokens: input,
          completion_tokens: output,
          total_tokens: input + output,
          ...(cache ? { prompt_tokens_details: { cached_tokens: cache.read } } : {}),
        },
        system_fingerprint: 'fp_fake',
      },
      { 'x-request-id': nextId('req_') },
    );
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The API key a request carried: `x-api-key` (Anthropic's classic header) or an
 * `Authorization: Bearer` token (OpenAI, and Anthropic's SDK 1.x); undefined if neither.
 */
export function presentedApiKey(request: Pick<RecordedRequest, 'headers'>): string | undefined {
  const xKey = request.headers['x-api-key'];
  if (typeof xKey === 'string' && xKey) return xKey;
  const auth = request.headers.authorization;
  return auth?.match(/^Bearer\s+(.+)$/i)?.[1];
}

/** A scripted reply's latency (`delayMs`): part of the scenario a test sets up, not a wait for something. */
// eslint-disable-next-line no-restricted-syntax -- the provider's scripted latency
const latency = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a fake provider on 127.0.0.1 (a free port).
 *
 * Anthropic: `POST /v1/messages`, key in `x-api-key` or `Authorization: Bearer`, answers `{type:'message', content:[{type:'text'}], …}`
 * with a `request-id` header; errors are `{type:'error', error:{type, message}}`.
 * OpenAI: `POST /v1/chat/completions`, key in `Authorization: Bearer`, answers
 * `{object:'chat.completion', choices:[{message}], …}`; errors are `{error:{message, type, param, code}}`.
 * Streaming (`stream: true`) is not supported and is answered with 400.
 *
 * @param protocol wire protocol to speak.
 * @param options scripted replies, handler, expected API key.
 */
/** Length of the WAV the fake's speech endpoint (`POST /v1/audio/speech`, OpenAI only) answers with, in seconds. */
export const FAKE_SPEECH_SECONDS = 0.5;

/** A silent WAV file (RIFF, PCM, 16-bit mono, 24 000 Hz as OpenAI's `wav` speech) lasting `seconds`. */
export function silentWav(seconds: number): Buffer {
  return pcmWav(Buffer.alloc(Math.round(seconds * 24_000) * 2), 24_000);
}

export async function startFakeProvider(protocol: FakeProtocol, options: FakeProviderOptions = {}): Promise<FakeProviderServer> {
  const queue: FakeReply[] = [...(options.replies ?? [])];
  let handler = options.handler;
  const apiKey = options.apiKey === undefined ? 'test-key' : options.apiKey;
  const requests: RecordedRequest[] = [];
  const heads: RecordedRequest[] = [];
  const handlerErrors: unknown[] = [];
  const chatPath = protocol === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
  const waiters = new Set<() => void>();
  const cache = options.cache
    ? new PromptCacheSimulator(protocol, options.cache === true ? undefined : options.cache.minTokens)
    : undefined;

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req).catch(() => '');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'HEAD') {
      // A warm-up's connection, not a call: kept apart so that request counts stay model calls.
      heads.push({ method: 'HEAD', path, headers: req.headers, body: undefined, call: undefined, receivedAt: Date.now() });
      res.writeHead(404).end();
      return;
    }
    const isChat = req.method === 'POST' && path === chatPath;
    const record: RecordedRequest = {
      method: req.method ?? '',
      path,
      headers: req.headers,
      body,
      call: isChat ? parseCall(protocol, body) : undefined,
      receivedAt: Date.now(),
    };
    requests.push(record);
    res.once('finish', () => {
      record.answeredAt = Date.now();
    });
    for (const w of waiters) w();

    const isSpeech = protocol === 'openai' && req.method === 'POST' && path === '/v1/audio/speech';
    if (!isChat && !isSpeech) return sendError(protocol, res, { status: 404, message: `Not found: ${req.method} ${path}` });
    const presented = presentedApiKey(record);
    if (isSpeech) {
      if (apiKey !== null && presented !== apiKey) return sendError(protocol, res, { status: 401, message: 'Incorrect API key provided.' });
      const input = (body as { input?: unknown } | undefined)?.input;
      if (typeof input !== 'string' || !input)
        return sendError(protocol, res, { status: 400, message: "fake provider: speech needs a non-empty 'input'" });
      const wav = silentWav(FAKE_SPEECH_SECONDS);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length }).end(wav);
      return;
    }
    if (apiKey !== null && presented !== apiKey) {
      return sendError(protocol, res, {
        status: 401,
        message: protocol === 'anthropic' ? 'invalid x-api-key' : 'Incorrect API key provided.',
      });
    }
    if (body === undefined || typeof body !== 'object')
      return sendError(protocol, res, { status: 400, message: 'Request body is not valid JSON.' });
    if ((body as { stream?: unknown }).stream === true)
      return sendError(protocol, res, { status: 400, message: 'fake provider: streaming is not supported' });

    let reply: FakeReply;
    try {
      if (queue.length > 0) reply = queue.shift()!;
      else if (handler) reply = await handler(record.call!, record);
      else reply = { status: 500, message: 'fake provider: no reply scripted', headers: { 'x-should-retry': 'false' } };
    } catch (err) {
      handlerErrors.push(err);
      reply = {
        status: 500,
        message: `fake provider handler threw: ${(err as Error)?.message ?? String(err)}`,
        headers: { 'x-should-retry': 'false' },
      };
    }
    if (typeof reply === 'string') reply = { text: reply };
    if ('hang' in reply) return; // leave the response open; close() drops it
    if ('drop' in reply) {
      req.socket.destroy();
      return;
    }
    if (reply.delayMs) await latency(reply.delayMs);
    if (res.destroyed) return;
    if ('status' in reply) sendError(protocol, res, reply);
    else sendText(protocol, res, record.call!, reply, cache?.use(body));
  };
  // The handler's errors are answered above (500, kept in handlerErrors); a fault of the fake itself
  // is left unhandled, so vitest reports it as an error of the run.
  const server = createServer((req, res) => void answer(req, res));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const url = protocol === 'anthropic' ? origin : `${origin}/v1`;
  const key = apiKey ?? 'unused-key';

  return {
    protocol,
    url,
    port,
    apiKey,
    env: { ANTHROPIC_API_KEY: key, OPENAI_API_KEY: key, OPENROUTER_API_KEY: key },
    requests,
    heads,
    handlerErrors,
    spec(model = 'fake-model', prefix = protocol) {
      return { model: `${prefix}/${model}`, url };
    },
    enqueue(...replies) {
      queue.push(...replies);
    },
    setHandler(h) {
      handler = h;
    },
    waitForRequests(count, timeoutMs = 5000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`fake ${protocol}: ${requests.length}/${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        const check = (): void => {
          if (requests.length >= count) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A fake of Gemini's speech generation: what {@link startFakeGeminiSpeech} gives. */
export interface FakeGeminiSpeech {
  /** The base URL to give @google/genai (`httpOptions.baseUrl`, `GOOGLE_GEMINI_BASE_URL`). */
  url: string;
  /** `GEMINI_API_KEY` and `GOOGLE_GEMINI_BASE_URL` for this fake. */
  env: Record<string, string>;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A fake of Gemini's `POST /v1beta/models/{model}:generateContent` (or `/v1/`, the SDK's choice) with audio out, as speech
 * generation answers it: one candidate whose part is `inlineData` of raw 16-bit mono PCM
 * (`audio/L16;codec=pcm;rate=24000`), {@link FAKE_SPEECH_SECONDS} of silence. Checks the key in
 * `x-goog-api-key` (401 otherwise, Google's error shape) and that the request asks for audio.
 */
export async function startFakeGeminiSpeech(apiKey = 'test-key'): Promise<FakeGeminiSpeech> {
  const requests: RecordedRequest[] = [];
  const error = (res: ServerResponse, code: number, status: string, message: string) =>
    sendJson(res, code, { error: { code, message, status } }, {});
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const path = (req.url ?? '/').split('?')[0]!;
      let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? '', path, headers: req.headers, body, call: undefined, receivedAt: Date.now() });
      if (req.method !== 'POST' || !/^\/v1(beta)?\/models\/[^/:]+:generateContent$/.test(path))
        return error(res, 404, 'NOT_FOUND', `Not found: ${req.method} ${path}`);
      if (req.headers['x-goog-api-key'] !== apiKey) return error(res, 401, 'UNAUTHENTICATED', 'API key not valid.');
      if (!body?.generationConfig?.responseModalities?.includes('AUDIO'))
        return error(res, 400, 'INVALID_ARGUMENT', 'fake gemini: speech needs responseModalities AUDIO');
      const pcm = Buffer.alloc(Math.round(FAKE_SPEECH_SECONDS * 24_000) * 2);
      sendJson(
        res,
        200,
        {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [{ inlineData: { mimeType: 'audio/L16;codec=pcm;rate=24000', data: pcm.toString('base64') } }],
              },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 12, totalTokenCount: 17 },
        },
        {},
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { GEMINI_API_KEY: apiKey, GOOGLE_GEMINI_BASE_URL: url },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
