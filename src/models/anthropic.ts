/** Anthropic Messages API adapter, through `@anthropic-ai/sdk`. */
import Anthropic from '@anthropic-ai/sdk';
import type { ResolvedModelSpec } from './spec.ts';
import { errorContext, normalizeTurns, passThroughParams, throwIfAborted, toModelError } from './shared.ts';
import { parseToolArguments, renderReply } from './tools.ts';
import { ModelError, type ChatModel, type ChatRequest, type ChatResult, type ToolCall } from './types.ts';

/** `max_tokens` sent when neither the request nor the spec's params give one (the API requires it). */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** Transport options shared by the adapters. */
export interface AdapterOptions {
  /** Per-attempt timeout in ms. */
  timeoutMs: number;
  /** Retries after the first attempt (429, 408, 409, 5xx, connection errors, timeouts). */
  maxRetries: number;
}

/**
 * A {@link ChatModel} speaking the Anthropic Messages API (`POST {baseURL}/v1/messages`).
 *
 * The system prompt is sent as one text block marked `cache_control: {type: 'ephemeral'}` so
 * repeated calls reuse the prompt cache. Turns are normalised to strict alternation, starting
 * and ending with a user turn. Retries and timeouts are the SDK's (honouring `retry-after`).
 * With `req.tools`, they are sent as `tools: [{name, description, input_schema}]` (the last one
 * marked cacheable, as tools precede the system prompt in the cache prefix) and `tool_use`
 * blocks come back as tool calls.
 */
export class AnthropicChatModel implements ChatModel {
  readonly id: string;
  readonly #spec: ResolvedModelSpec;
  readonly #client: Anthropic;
  readonly #options: AdapterOptions;

  /**
   * @param spec resolved spec with `family === 'anthropic'`.
   * @param apiKey the key sent as `x-api-key`.
   * @param options timeout (ms, per attempt) and retry count.
   */
  constructor(spec: ResolvedModelSpec, apiKey: string, options: AdapterOptions) {
    this.id = spec.id;
    this.#spec = spec;
    this.#options = options;
    this.#client = new Anthropic({
      apiKey,
      baseURL: spec.baseURL,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
    });
  }

  async complete(req: ChatRequest): Promise<string> {
    const { text, toolCalls } = await this.respond(req);
    return renderReply(text, toolCalls, req.tools ?? []);
  }

  async respond(req: ChatRequest): Promise<ChatResult> {
    throwIfAborted(req.signal, this.id);
    const params = passThroughParams(this.#spec.params);
    const maxTokens = req.maxTokens ?? (typeof params.max_tokens === 'number' ? params.max_tokens : ANTHROPIC_DEFAULT_MAX_TOKENS);
    const body: Anthropic.MessageCreateParamsNonStreaming = {
      ...(params as Partial<Anthropic.MessageCreateParamsNonStreaming>),
      model: this.#spec.model,
      max_tokens: maxTokens,
      messages: normalizeTurns(req.turns, { startWithUser: true, endWithUser: true }),
    };
    if (req.system.trim()) {
      body.system = [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }];
    }
    if (req.tools?.length) {
      body.tools = req.tools.map((t, i) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters as Anthropic.Tool.InputSchema,
        ...(i === req.tools!.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
      }));
    }
    const ctx = errorContext(this.#spec, this.#options, req.signal);
    let message: Anthropic.Message;
    try {
      message = await this.#client.messages.create(body, { signal: req.signal });
    } catch (err) {
      throw toModelError(err, ctx);
    }
    if (!message || !Array.isArray(message.content)) {
      throw new ModelError({
        provider: ctx.provider, modelId: this.id, kind: 'bad_response', retryable: false,
        message: `response has no content array — is ${ctx.baseURL} really an Anthropic Messages API?`,
      });
    }
    const text = message.content
      .filter((block): block is Anthropic.TextBlock => block.type === 'text')
      .map((block) => block.text)
      .join('');
    const toolCalls: ToolCall[] = message.content
      .filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')
      .map((block) => {
        const input = block.input && typeof block.input === 'object' && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : undefined;
        const rawArguments = JSON.stringify(block.input ?? {});
        return { id: block.id, name: block.name, arguments: input ?? parseToolArguments(rawArguments), rawArguments };
      });
    return { text, toolCalls };
  }
}
