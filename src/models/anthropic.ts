/** Anthropic Messages API adapter, through `@anthropic-ai/sdk`. */
import type Anthropic from '@anthropic-ai/sdk';
import type { ResolvedModelSpec } from './spec.ts';
import { appendLive, errorContext, groupTurns, passThroughParams, preconnect, throwIfAborted, toModelError } from './shared.ts';
import { parseToolArguments, renderReply } from './tools.ts';
import { splitReasoning } from './reasoning.ts';
import { ModelError, type ChatModel, type ChatRequest, type ChatResult, type ChatTurn, type TokenUsage, type ToolCall } from './types.ts';

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
 * Prompt caching (see {@link anthropicMessages}): the cache prefix is tools → system →
 * messages. The static system prompt is one text block and the last tool carries a cache
 * breakpoint (`cache_control: {type: 'ephemeral'}`); every turn is a text block of its own and
 * a rolling breakpoint ends the conversation, with a second one where the previous call's
 * conversation ended (Anthropic's multi-turn caching: the next call reads what this one
 * wrote); the request's live part follows the last breakpoint, in the final user turn. At most
 * 4 breakpoints per request, the API's limit. Prompts shorter than the model's minimum
 * cacheable length (1,024 tokens for Sonnet and Opus, 2,048 for Haiku) are not cached.
 *
 * Turns are normalised to strict alternation, starting and ending with a user turn. Retries and
 * timeouts are the SDK's (honouring `retry-after`). With `req.tools`, they are sent as
 * `tools: [{name, description, input_schema}]` and `tool_use` blocks come back as tool calls.
 */
export class AnthropicChatModel implements ChatModel {
  readonly id: string;
  readonly #spec: ResolvedModelSpec;
  readonly #apiKey: string;
  readonly #options: AdapterOptions;
  /** The SDK's client, made on first use: the SDK is loaded only by a process that talks to Anthropic. */
  #client: Promise<Anthropic> | undefined;

  /**
   * @param spec resolved spec with `family === 'anthropic'`.
   * @param apiKey the key sent as `x-api-key`.
   * @param options timeout (ms, per attempt) and retry count.
   */
  constructor(spec: ResolvedModelSpec, apiKey: string, options: AdapterOptions) {
    this.id = spec.id;
    this.#spec = spec;
    this.#options = options;
    this.#apiKey = apiKey;
  }

  #sdk(): Promise<Anthropic> {
    return (this.#client ??= import('@anthropic-ai/sdk').then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: this.#apiKey,
          baseURL: this.#spec.baseURL,
          timeout: this.#options.timeoutMs,
          maxRetries: this.#options.maxRetries,
        }),
    ));
  }

  /** Loads the SDK and opens a connection to the endpoint (see {@link ChatModel.warmUp}); never rejects. */
  async warmUp(signal?: AbortSignal): Promise<void> {
    try {
      await this.#sdk();
      await preconnect(this.#spec.baseURL, signal);
    } catch {
      // best effort: the first real call reports what is wrong
    }
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
      messages: anthropicMessages(req.turns, req.live),
    };
    if (req.image) {
      // After the final user turn's text (Messages API image block, base64 source).
      const last = body.messages.findLast((m) => m.role === 'user');
      const block: Anthropic.ImageBlockParam = {
        type: 'image',
        source: { type: 'base64', media_type: req.image.mediaType, data: req.image.data },
      };
      if (last && Array.isArray(last.content)) last.content.push(block);
      else body.messages.push({ role: 'user', content: [block] });
    }
    if (req.system.trim()) {
      body.system = [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }];
    }
    if (req.tools?.length) {
      body.tools = req.tools.map((t, i) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters,
        ...(i === req.tools!.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
      }));
    }
    const ctx = errorContext(this.#spec, this.#options, req.signal);
    let message: Anthropic.Message;
    try {
      const client = await this.#sdk();
      message = await client.messages.create(body, { signal: req.signal });
    } catch (err) {
      throw toModelError(err, ctx);
    }
    if (!message || !Array.isArray(message.content)) {
      throw new ModelError({
        provider: ctx.provider,
        modelId: this.id,
        kind: 'bad_response',
        retryable: false,
        message: `response has no content array — is ${ctx.baseURL} really an Anthropic Messages API?`,
      });
    }
    const rawText = message.content
      .filter((block): block is Anthropic.TextBlock => block.type === 'text')
      .map((block) => block.text)
      .join('');
    // Extended thinking comes as `thinking` blocks; a `<think>` block in the text is split off too.
    const thinking = message.content
      .filter((block): block is Anthropic.ThinkingBlock => block.type === 'thinking')
      .map((block) => block.thinking.trim())
      .filter(Boolean);
    const split = splitReasoning(rawText);
    const text = split.text;
    const reasoning = [...thinking, split.reasoning].filter(Boolean).join('\n\n');
    if (reasoning) req.onReasoning?.(reasoning);
    const toolCalls: ToolCall[] = message.content
      .filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')
      .map((block) => {
        const input =
          block.input && typeof block.input === 'object' && !Array.isArray(block.input)
            ? (block.input as Record<string, unknown>)
            : undefined;
        const rawArguments = JSON.stringify(block.input ?? {});
        return { id: block.id, name: block.name, arguments: input ?? parseToolArguments(rawArguments), rawArguments };
      });
    const usage = anthropicUsage(message.usage);
    if (usage) req.onUsage?.(usage);
    return {
      text,
      toolCalls,
      ...(usage ? { usage } : {}),
      ...(reasoning ? { reasoning } : {}),
      ...(text !== rawText ? { rawText } : {}),
    };
  }
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * The `messages` of a request: `turns` in strict alternation (starting and ending with a user
 * turn), every turn a text block of its own, then `live` as the final user turn's last block.
 * Cache breakpoints (`cache_control`) mark the conversation's last block before `live` and the
 * last block of the user turn before the last reply (where the previous call of a model loop
 * ended its conversation), so each call reads the prefix the previous call wrote.
 *
 * @param turns the conversation, oldest first (normalised as `groupTurns` does).
 * @param live the request's live part ('' or undefined for none).
 */
export function anthropicMessages(turns: readonly ChatTurn[], live?: string): Anthropic.MessageParam[] {
  const hasLive = Boolean(live?.trim());
  const groups = appendLive(groupTurns(turns, { startWithUser: true, endWithUser: !hasLive }), live);
  const messages = groups.map((g) => ({
    role: g.role,
    content: g.parts.map((text): Anthropic.TextBlockParam => ({ type: 'text', text })),
  }));
  // The conversation's last block: the one before `live`.
  const last = messages.at(-1)!;
  const end = hasLive ? (last.content.length > 1 ? last.content.at(-2) : messages.at(-2)?.content.at(-1)) : last.content.at(-1);
  if (end) end.cache_control = EPHEMERAL;
  // The previous user turn (before the last reply): the previous call's conversation ended there.
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const previousUser = messages.slice(0, Math.max(0, lastUser - 1)).findLastIndex((m) => m.role === 'user');
  const previous = previousUser >= 0 ? messages[previousUser]!.content.at(-1) : undefined;
  if (previous && previous !== end) previous.cache_control = EPHEMERAL;
  return messages;
}

/**
 * The {@link TokenUsage} of an Anthropic answer: its `input_tokens` exclude the cache, so the
 * prompt total is `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`.
 *
 * @returns undefined when the answer has no usage (e.g. a proxy that strips it).
 */
export function anthropicUsage(usage: Partial<Anthropic.Usage> | null | undefined): TokenUsage | undefined {
  if (!usage || typeof usage.input_tokens !== 'number') return undefined;
  const cachedInput = usage.cache_read_input_tokens ?? 0;
  const cacheWriteInput = usage.cache_creation_input_tokens ?? 0;
  return { input: usage.input_tokens + cachedInput + cacheWriteInput, cachedInput, cacheWriteInput, output: usage.output_tokens ?? 0 };
}
