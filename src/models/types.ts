/**
 * Core types of the model layer: what a chat model is asked, what it answers, and how it fails.
 *
 * Every provider (Anthropic, OpenAI, OpenAI-compatible local servers) is wrapped behind
 * {@link ChatModel}, so the agent never sees an SDK type or an SDK error.
 */

/** One turn of a conversation. The system prompt is not a turn: it travels in {@link ChatRequest.system}. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A single completion request. */
export interface ChatRequest {
  /** The system prompt; placed in the provider's cacheable position. May be empty. */
  system: string;
  /**
   * The conversation so far, oldest first. May be empty, may repeat a role: providers normalise
   * it (consecutive same-role turns are merged; an empty list becomes one placeholder user turn).
   */
  turns: ChatTurn[];
  /** Cancels the request (including any retry wait); complete() then rejects with a {@link ModelAbortError}. */
  signal?: AbortSignal;
  /** Upper bound on generated tokens for this request; overrides `params.max_tokens` of the spec. */
  maxTokens?: number;
  /**
   * Native tool calling: tools the model may call (see `src/commands/tools.ts`, `commandTools`). When given,
   * {@link ChatModel.complete} renders the first tool call back into `!name(args)` text after the
   * reply's text, so callers that parse commands need no change. Omit for text-only prompting.
   */
  tools?: readonly ToolSpec[];
}

/** A JSON Schema (the subset tools use: object/property/type/description/range keywords). */
export type JsonSchema = { [key: string]: unknown };

/** A tool the model may call: one command. */
export interface ToolSpec {
  /** `[A-Za-z0-9_-]{1,64}`, e.g. `craftRecipe` (a command's name without the `!`). */
  name: string;
  description: string;
  /** JSON Schema of the arguments object: `{type:'object', properties, required, additionalProperties:false}`; property order = argument order. */
  parameters: JsonSchema & { type: 'object'; properties: Record<string, JsonSchema>; required: string[] };
}

/** A tool call the model made. */
export interface ToolCall {
  /** The provider's call id (`toolu_…`, `call_…`). */
  id: string;
  name: string;
  /** Parsed arguments; undefined when the provider sent arguments that are not a JSON object. */
  arguments: Record<string, unknown> | undefined;
  /** The arguments as sent (JSON text). */
  rawArguments: string;
}

/** A reply with its tool calls kept apart (see {@link ChatModel.respond}). */
export interface ChatResult {
  /** The reply's text (text blocks joined; may be empty). */
  text: string;
  /** Tool calls in the order the model made them; empty without tools. */
  toolCalls: ToolCall[];
}

/** A chat model behind one provider. */
export interface ChatModel {
  /** `'provider/model'`, e.g. `'anthropic/claude-sonnet-4-5'` or `'ollama/llama3.1'`. */
  readonly id: string;
  /**
   * Sends the request and resolves with the assistant's reply text (text blocks joined; may be
   * empty if the model produced no text). With `req.tools`, a tool call is appended as command
   * text: `'Making sticks. !craftRecipe("stick", 4)'`.
   *
   * @throws {ModelError} when the provider fails after the configured retries, or answers
   *   something unusable. Never throws a raw SDK error.
   * @throws {ModelAbortError} when `req.signal` aborts (before or during the request).
   */
  complete(req: ChatRequest): Promise<string>;
  /**
   * Like {@link complete} but keeps tool calls structured instead of rendering them as text.
   * Optional: models without native tool calling (e.g. the oracle) do not have it.
   *
   * @throws the same errors as {@link complete}.
   */
  respond?(req: ChatRequest): Promise<ChatResult>;
}

/** What went wrong, coarsely; lets callers react without parsing messages. */
export type ModelErrorKind =
  | 'config' // bad model spec / unknown provider prefix / missing API key
  | 'auth' // 401 / 403
  | 'not_found' // 404: wrong model name or URL
  | 'bad_request' // 400 / 413 / 422: the request itself was rejected
  | 'rate_limit' // 429 after retries
  | 'server' // 5xx / 408 / 409 after retries
  | 'timeout' // no answer within the timeout, after retries
  | 'connection' // could not reach the server, after retries
  | 'bad_response' // a 2xx answer we could not use
  | 'unknown';

/** Constructor fields of {@link ModelError}. */
export interface ModelErrorInit {
  /** Provider prefix (`'anthropic'`, `'ollama'`, …) or `''` when it could not be determined. */
  provider: string;
  /** Full model id (`'provider/model'`) or the raw spec text when it could not be parsed. */
  modelId: string;
  kind: ModelErrorKind;
  /** HTTP status, when the provider answered with one. */
  status?: number;
  /** True if trying again later might succeed (rate limit, 5xx, timeout, connection). */
  retryable: boolean;
  /** What was wrong and what to do; prefixed with `modelId` by the constructor. */
  message: string;
  cause?: unknown;
}

/**
 * The only error a {@link ChatModel} (or the model factory) throws, apart from
 * {@link ModelAbortError}. Its message reads
 * `"<provider/model>: <what went wrong> — <what to do>"`.
 */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly provider: string;
  readonly modelId: string;
  readonly kind: ModelErrorKind;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(init: ModelErrorInit) {
    super(init.modelId ? `${init.modelId}: ${init.message}` : init.message, { cause: init.cause });
    this.provider = init.provider;
    this.modelId = init.modelId;
    this.kind = init.kind;
    this.status = init.status;
    this.retryable = init.retryable;
  }
}

/**
 * Thrown when a request was cancelled through its AbortSignal. Its `name` is `'AbortError'`, like
 * the DOM's, so generic abort checks work; `cause` is the signal's reason.
 */
export class ModelAbortError extends Error {
  override readonly name = 'AbortError';
  readonly modelId: string;

  constructor(modelId: string, reason?: unknown) {
    super(`${modelId}: request aborted`, { cause: reason });
    this.modelId = modelId;
  }
}

/** True for a {@link ModelAbortError} or any other error named `'AbortError'` (e.g. a DOMException). */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}
