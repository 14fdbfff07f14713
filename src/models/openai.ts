/** OpenAI Chat Completions adapter (OpenAI, OpenRouter, Ollama, LM Studio, vLLM), through `openai`. */
import OpenAI from 'openai';
import type { AdapterOptions } from './anthropic.ts';
import type { ResolvedModelSpec } from './spec.ts';
import { errorContext, normalizeTurns, passThroughParams, throwIfAborted, toModelError } from './shared.ts';
import { parseToolArguments, renderReply } from './tools.ts';
import { ModelError, type ChatModel, type ChatRequest, type ChatResult, type ToolCall } from './types.ts';

/** Key sent to local OpenAI-compatible servers that need none (the SDK insists on one). */
export const NO_KEY_PLACEHOLDER = 'no-key';

/**
 * A {@link ChatModel} speaking the OpenAI Chat Completions API (`POST {baseURL}/chat/completions`).
 *
 * The system prompt is the first message (the prefix the provider caches). Consecutive same-role
 * turns are merged (many local chat templates require alternation). `req.maxTokens` is sent as
 * `max_completion_tokens` to OpenAI and as `max_tokens` to compatible servers. Retries and
 * timeouts are the SDK's (honouring `retry-after`). With `req.tools`, they are sent as
 * `tools: [{type:'function', function:{name, description, parameters}}]` and the reply's
 * `tool_calls` come back as tool calls (arguments parsed from their JSON text).
 */
export class OpenAIChatModel implements ChatModel {
  readonly id: string;
  readonly #spec: ResolvedModelSpec;
  readonly #client: OpenAI;
  readonly #options: AdapterOptions;

  /**
   * @param spec resolved spec with `family === 'openai'`.
   * @param apiKey bearer token; undefined for local servers that need none.
   * @param options timeout (ms, per attempt) and retry count.
   */
  constructor(spec: ResolvedModelSpec, apiKey: string | undefined, options: AdapterOptions) {
    this.id = spec.id;
    this.#spec = spec;
    this.#options = options;
    this.#client = new OpenAI({
      apiKey: apiKey ?? NO_KEY_PLACEHOLDER,
      baseURL: spec.baseURL,
      organization: null,
      project: null,
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
    const messages: OpenAI.ChatCompletionMessageParam[] = [];
    if (req.system.trim()) messages.push({ role: 'system', content: req.system });
    messages.push(...normalizeTurns(req.turns));
    const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
      ...(params as Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>),
      model: this.#spec.model,
      messages,
    };
    if (req.maxTokens !== undefined) {
      if (this.#spec.provider === 'openai') {
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
      completion = await this.#client.chat.completions.create(body, { signal: req.signal });
    } catch (err) {
      throw toModelError(err, ctx);
    }
    const choice = completion?.choices?.[0];
    if (!choice || !choice.message) {
      // Some compatible servers answer 200 with an error object instead of choices.
      const err = (completion as unknown as { error?: { message?: unknown } } | undefined)?.error;
      const detail = typeof err?.message === 'string' ? ` (${err.message})` : '';
      throw new ModelError({
        provider: ctx.provider, modelId: this.id, kind: 'bad_response', retryable: false,
        message: `response has no choices${detail} — check the model name and that ${ctx.baseURL} speaks the OpenAI chat API`,
      });
    }
    const toolCalls: ToolCall[] = [];
    for (const call of choice.message.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      const rawArguments = call.function.arguments ?? '';
      toolCalls.push({ id: call.id, name: call.function.name, arguments: parseToolArguments(rawArguments), rawArguments });
    }
    return { text: choice.message.content ?? '', toolCalls };
  }
}
