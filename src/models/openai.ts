/**
 * OpenAI Chat Completions adapter, through `openai`: OpenAI itself, Azure OpenAI (the SDK's
 * `AzureOpenAI` client) and every vendor's OpenAI-compatible endpoint (see `presets.ts`).
 */
import type OpenAI from 'openai';
import type { AdapterOptions } from './anthropic.ts';
import type { ResolvedModelSpec } from './spec.ts';
import { appendLive, errorContext, groupTurns, passThroughParams, preconnect, throwIfAborted, toModelError } from './shared.ts';
import { parseToolArguments, renderReply } from './tools.ts';
import { splitReasoning } from './reasoning.ts';
import { normalizingFetch } from './vendor-errors.ts';
import {
  ModelError,
  type ChatImage,
  type ChatModel,
  type ChatRequest,
  type ChatResult,
  type ChatTurn,
  type TokenUsage,
  type ToolCall,
} from './types.ts';

/** Key sent to local OpenAI-compatible servers that need none (the SDK insists on one). */
export const NO_KEY_PLACEHOLDER = 'no-key';

/**
 * A {@link ChatModel} speaking the OpenAI Chat Completions API (`POST {baseURL}/chat/completions`).
 *
 * The static system prompt is the first message and the request's live part comes last, in the
 * final user message (see {@link openAITurns}), so the prefix OpenAI's automatic prompt caching
 * matches (prompts of 1,024 tokens or more, cached in 128-token steps; vLLM's and llama.cpp's
 * prefix caches work the same way) grows with the conversation. Consecutive same-role
 * turns are merged (many local chat templates require alternation). `req.maxTokens` is sent as
 * `max_completion_tokens` to OpenAI and Azure and as `max_tokens` to compatible servers (the
 * preset's `maxTokensField`). Retries and timeouts are the SDK's (honouring `retry-after`);
 * vendors' own error bodies are read too (see `vendor-errors.ts`). With `req.tools`, they are sent
 * as `tools: [{type:'function', function:{name, description, parameters}}]` and the reply's
 * `tool_calls` come back as tool calls (arguments parsed from their JSON text). Reasoning
 * (`<think>` blocks, `reasoning_content`) is split off the text (see `reasoning.ts`).
 *
 * Azure (`spec.client === 'azure'`): requests go to
 * `{endpoint}/openai/deployments/{model}/chat/completions?api-version=…` with an `api-key` header.
 */
export class OpenAIChatModel implements ChatModel {
  readonly id: string;
  readonly #spec: ResolvedModelSpec;
  readonly #apiKey: string | undefined;
  readonly #options: AdapterOptions;
  /** The SDK's client, made on first use: the SDK is loaded only by a process that talks to such a server. */
  #client: Promise<OpenAI> | undefined;

  /**
   * @param spec resolved spec with `family === 'openai'`.
   * @param apiKey bearer token; undefined for local servers that need none.
   * @param options timeout (ms, per attempt) and retry count.
   */
  constructor(spec: ResolvedModelSpec, apiKey: string | undefined, options: AdapterOptions) {
    this.id = spec.id;
    this.#spec = spec;
    this.#options = options;
    this.#apiKey = apiKey;
  }

  #sdk(): Promise<OpenAI> {
    return (this.#client ??= import('openai').then(({ default: Sdk, AzureOpenAI }) => {
      const spec = this.#spec;
      const common = { timeout: this.#options.timeoutMs, maxRetries: this.#options.maxRetries, fetch: normalizingFetch() };
      return spec.client === 'azure'
        ? new AzureOpenAI({
            ...common,
            apiKey: this.#apiKey ?? NO_KEY_PLACEHOLDER,
            endpoint: spec.baseURL,
            apiVersion: spec.apiVersion,
            deployment: spec.model,
          })
        : new Sdk({ ...common, apiKey: this.#apiKey ?? NO_KEY_PLACEHOLDER, baseURL: spec.baseURL, organization: null, project: null });
    }));
  }

  /** Loads the SDK and opens a connection to the endpoint (see {@link ChatModel.warmUp}); never rejects. */
  async warmUp(signal?: AbortSignal): Promise<void> {
    try {
      await this.#sdk();
      await preconnect(this.#spec.baseURL, signal, normalizingFetch());
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
    const messages: OpenAI.ChatCompletionMessageParam[] = [];
    if (req.system.trim()) messages.push({ role: 'system', content: req.system });
    messages.push(...openAITurns(req.turns, req.live));
    if (req.image) withImage(messages, req.image);
    const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
      ...(params as Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>),
      model: this.#spec.model,
      messages,
    };
    if (req.maxTokens !== undefined) {
      if (this.#spec.maxTokensField === 'max_completion_tokens') {
        delete body.max_tokens;
        body.max_completion_tokens = req.maxTokens;
      } else {
        body.max_tokens = req.maxTokens;
      }
    }
    if (req.tools?.length) {
      body.tools = req.tools.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    const ctx = errorContext(this.#spec, this.#options, req.signal);
    let completion: OpenAI.ChatCompletion;
    try {
      const client = await this.#sdk();
      completion = await client.chat.completions.create(body, { signal: req.signal });
    } catch (err) {
      throw toModelError(err, ctx);
    }
    const choice = completion?.choices?.[0];
    if (!choice || !choice.message) {
      // Some compatible servers answer 200 with an error object instead of choices.
      const err = (completion as unknown as { error?: { message?: unknown } } | undefined)?.error;
      const detail = typeof err?.message === 'string' ? ` (${err.message})` : '';
      throw new ModelError({
        provider: ctx.provider,
        modelId: this.id,
        kind: 'bad_response',
        retryable: false,
        message: `response has no choices${detail} — check the model name and that ${ctx.baseURL} speaks the OpenAI chat API`,
      });
    }
    const toolCalls: ToolCall[] = [];
    for (const call of choice.message.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      const rawArguments = call.function.arguments ?? '';
      toolCalls.push({ id: call.id, name: call.function.name, arguments: parseToolArguments(rawArguments), rawArguments });
    }
    const usage = openAIUsage(completion.usage);
    if (usage) req.onUsage?.(usage);
    const rawText = choice.message.content ?? '';
    const split = splitReasoning(rawText);
    // DeepSeek's reasoner (`reasoning_content`) and OpenRouter/Groq (`reasoning`) send it apart.
    const extra = choice.message as { reasoning_content?: unknown; reasoning?: unknown };
    const field =
      typeof extra.reasoning_content === 'string' ? extra.reasoning_content : typeof extra.reasoning === 'string' ? extra.reasoning : '';
    const reasoning = [field.trim(), split.reasoning].filter(Boolean).join('\n\n');
    if (reasoning) req.onReasoning?.(reasoning);
    return {
      text: split.text,
      toolCalls,
      ...(usage ? { usage } : {}),
      ...(reasoning ? { reasoning } : {}),
      ...(split.text !== rawText ? { rawText } : {}),
    };
  }
}

/**
 * The conversation messages of a request (after the system message): consecutive same-role
 * turns merged with a blank line, then `live` appended to the final user message after a blank
 * line (or sent as a user message of its own after a reply). Plain string contents: every
 * OpenAI-compatible server accepts them.
 */
export function openAITurns(turns: readonly ChatTurn[], live?: string): ChatTurn[] {
  return appendLive(groupTurns(turns), live).map((g) => ({ role: g.role, content: g.parts.join('\n\n') }));
}

/**
 * The {@link TokenUsage} of a Chat Completions answer: `prompt_tokens` (cached ones included,
 * `prompt_tokens_details.cached_tokens` of them from the cache) and `completion_tokens`.
 *
 * @returns undefined when the answer has no usage (some local servers omit it).
 */
export function openAIUsage(usage: Partial<OpenAI.CompletionUsage> | null | undefined): TokenUsage | undefined {
  if (!usage || typeof usage.prompt_tokens !== 'number') return undefined;
  return {
    input: usage.prompt_tokens,
    cachedInput: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteInput: 0,
    output: usage.completion_tokens ?? 0,
  };
}

/**
 * Adds `image` to the last user message as an `image_url` part with a data URL (the Chat
 * Completions image input; OpenAI-compatible vision servers take the same), after its text.
 */
function withImage(messages: OpenAI.ChatCompletionMessageParam[], image: ChatImage): void {
  let last = messages.findLast((m) => m.role === 'user');
  if (!last) messages.push((last = { role: 'user', content: '' }));
  const text = typeof last.content === 'string' ? last.content : '';
  last.content = [
    ...(text ? [{ type: 'text' as const, text }] : []),
    { type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } },
  ];
}
