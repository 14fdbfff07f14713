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
  /**
   * The static part of the system prompt (role, rules, command docs, fixed examples): the same
   * text on every call of a bot, so it is the start of the prefix providers cache. May be empty.
   */
  system: string;
  /**
   * The live part of the prompt: the bot's state now (stats, inventory, memory, current action,
   * conversation partner, goal, and examples chosen for this call), which changes from call to
   * call. Providers send it after the conversation, as a last text of the final user turn, so the
   * cacheable prefix (tools, `system`, earlier turns) stays byte-identical between calls: with
   * Anthropic a cache breakpoint ends the conversation just before it; OpenAI-compatible servers
   * cache the longest repeated prefix on their own. Omit (or '') when a request has no live part.
   */
  live?: string;
  /**
   * The conversation so far, oldest first. May be empty, may repeat a role: providers normalise
   * it (consecutive same-role turns are merged; an empty list becomes one placeholder user turn).
   */
  turns: ChatTurn[];
  /**
   * An image shown with the final user turn (after its text), e.g. the bot's rendered view for
   * `!lookAtPlayer`. Providers send it as their image content part (OpenAI `image_url` with a
   * data URL, Anthropic an `image` block with a base64 source); the model must accept images.
   */
  image?: ChatImage;
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
  /**
   * Called once per successful provider answer with the tokens it used, read from the provider's
   * usage fields (Anthropic `usage`, OpenAI `usage`). Not called by models that report none (the
   * offline oracle) or when the answer carries no usage. Listeners must not throw.
   */
  onUsage?: (usage: TokenUsage) => void;
  /**
   * Called once per answer that carried reasoning, with that reasoning: the `<think>…</think>`
   * blocks removed from the reply's text before anything parses it (see `src/models/reasoning.ts`),
   * or a reasoning field of the answer (`reasoning_content`, Anthropic `thinking` blocks). For run
   * records; listeners must not throw.
   */
  onReasoning?: (reasoning: string) => void;
  /**
   * What the request is for, for run records and training-data export (providers ignore it):
   * `conversing` (the agent's model loop), `respond` (respond-or-ignore while acting), `memory`
   * (summarising old turns), `coding` (`!newAction`), `vision` (describing the bot's view), or a
   * coordination strategy's role ({@link CoordinationRole}).
   */
  purpose?: 'conversing' | 'respond' | 'memory' | 'coding' | 'vision' | CoordinationRole;
}

/**
 * The LLM roles of the coordination strategies (`src/coordination/roles/`): VillagerAgent's
 * decomposer, controller, reflection and state summaries; CausalMACE's dependency and
 * counterfactual questions; S-Agents' progress monitor, task planner and action planner. Their
 * requests carry the role as their purpose.
 */
export const COORDINATION_ROLES = [
  'decompose',
  'assign',
  'reflect',
  'summarise',
  'dependency',
  'counterfactual',
  'monitor',
  'task_plan',
  'action_plan',
] as const;
export type CoordinationRole = (typeof COORDINATION_ROLES)[number];

/** An image for a model (see {@link ChatRequest.image}). */
export interface ChatImage {
  mediaType: 'image/png' | 'image/jpeg';
  /** The image bytes, base64-encoded. */
  data: string;
}

/**
 * Tokens one request used, as the provider reported them. `input` counts every prompt token,
 * cached or not; `cachedInput` and `cacheWriteInput` are the parts of it read from and written to
 * the provider's prompt cache (priced differently, see `src/tasks/eval/prices.ts`).
 *
 * Sources: Anthropic `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`,
 * `cache_read_input_tokens`, `cache_creation_input_tokens`, `output_tokens`; OpenAI-style
 * `prompt_tokens`, `prompt_tokens_details.cached_tokens`, `completion_tokens`.
 */
export interface TokenUsage {
  /** All prompt tokens (including cached ones). */
  input: number;
  /** Prompt tokens served from the prompt cache (a part of `input`). */
  cachedInput: number;
  /** Prompt tokens written to the prompt cache (a part of `input`; Anthropic only, else 0). */
  cacheWriteInput: number;
  /** Generated tokens (including reasoning tokens where the provider counts them there). */
  output: number;
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
  /** Tokens the request used, when the provider reported them. */
  usage?: TokenUsage;
  /** The reasoning the answer carried, kept apart from `text` (see {@link ChatRequest.onReasoning}). */
  reasoning?: string;
  /** The reply's text as the provider sent it, before reasoning was stripped (only when it differs from `text`). */
  rawText?: string;
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
  /**
   * Gets the first call ready without making one, for a fast first reply: loads what the model
   * loads on first use (the provider's SDK) and opens a connection to its endpoint (a HEAD request
   * without credentials, its answer ignored). Optional: a model with nothing to warm has none.
   * Settles within a few seconds (or when `signal` aborts) and never rejects: a provider that cannot
   * be reached is reported by the first real call.
   */
  warmUp?(signal?: AbortSignal): Promise<void>;

  // Optional capabilities: an agent checks for the member, never for a class.
  /**
   * The model's own respond-or-ignore rule while its bot is acting (e.g. a rule-based policy).
   * Without it the agent asks the model with the profile's `bot_responder` prompt.
   *
   * @param lines the partner's new lines, oldest first.
   * @returns true to interrupt the action and answer now.
   */
  respondWhileBusy?(lines: readonly string[]): boolean;
  /**
   * False for a model that cannot write summaries (a rule-based policy): the agent then drops
   * old turns instead of summarising them into its memory. Absent means true.
   */
  readonly summarises?: boolean;
  /**
   * Set by a policy that has found the running task cannot be done (e.g. an item no agent has and
   * the world cannot give), with the reason it said once in chat; the run's result records it.
   */
  readonly unsolvable?: string;
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
