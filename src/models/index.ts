/**
 * The model layer's entry point: {@link createModel} turns a {@link ModelSpec} into a
 * {@link ChatModel}. Special names such as `'oracle'` are handled by callers before this.
 */
import { AnthropicChatModel, type AdapterOptions } from './anthropic.ts';
import { OpenAIChatModel } from './openai.ts';
import { AZURE_ENDPOINT_ENV, DEFAULT_AZURE_API_VERSION, parseModelSpec, resolveApiKey, resolveBaseURL, type ModelSpec } from './spec.ts';
import { ModelError, type ChatModel } from './types.ts';

export * from './types.ts';
export {
  ModelSpecSchema,
  PROVIDERS,
  PROVIDER_PREFIXES,
  apiKeyStatus,
  isProviderPrefix,
  parseModelSpec,
  readApiKey,
  resolveBaseURL,
  AZURE_ENDPOINT_ENV,
  DEFAULT_AZURE_API_VERSION,
  type ApiKeyStatus,
  type ModelSpec,
  type ProviderFamily,
  type ProviderInfo,
  type ProviderPrefix,
  type ResolvedModelSpec,
} from './spec.ts';
export { PRESETS, presetOf, type ProviderPreset } from './presets.ts';
export { splitReasoning, type SplitReply } from './reasoning.ts';
export { createEmbedder, parseEmbeddingSpec, type EmbeddingSpec, type ResolvedEmbeddingSpec } from './embeddings.ts';
export { EMPTY_CONVERSATION_PLACEHOLDER, normalizeTurns } from './shared.ts';
export { AnthropicChatModel, ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic.ts';
export { OpenAIChatModel } from './openai.ts';
export { parseToolArguments, renderReply, toolCallToCommand } from './tools.ts';

/** Default per-attempt timeout of {@link createModel}, in ms. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Default number of retries of {@link createModel} (so up to 4 attempts). */
export const DEFAULT_MAX_RETRIES = 3;

/** Options of {@link createModel}. */
export interface CreateModelOptions {
  /** Where API keys are read from; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Per-attempt timeout in ms (default {@link DEFAULT_TIMEOUT_MS}); the worst case of one complete() is about `(maxRetries + 1) × timeoutMs` plus backoff. */
  timeoutMs?: number;
  /** Retries after the first attempt for 429/408/409/5xx, connection errors and timeouts, with exponential backoff or the server's `retry-after` (default {@link DEFAULT_MAX_RETRIES}). */
  maxRetries?: number;
}

/**
 * Creates a chat model from a spec: `<provider>/<model>` with a prefix of `presets.ts`
 * (`anthropic/…`, `openai/…`, `azure/<deployment>`, `google/…`, `openrouter/<vendor>/<model>`,
 * `ollama/…`, …), a bare name such as `gpt-4o`, or MINDcraft's `{ api, model, url, params }`
 * (object specs may add `api_version` for Azure and `apiKeyEnv`). Makes no network request.
 *
 * @param spec string or object {@link ModelSpec}.
 * @param options key environment, per-attempt timeout (ms) and retry count.
 * @throws {ModelError} kind `'config'` for a malformed spec, a missing or unknown provider prefix
 *   (the message lists the valid ones), a model name against the vendor's rule, a missing API key
 *   or Azure endpoint, or invalid options.
 */
export function createModel(spec: ModelSpec, options: CreateModelOptions = {}): ChatModel {
  const env = options.env ?? process.env;
  const parsed = parseModelSpec(spec);
  const apiKey = resolveApiKey(parsed, env);
  const baseURL = resolveBaseURL(parsed, env);
  if (baseURL === undefined) {
    throw new ModelError({
      provider: parsed.provider,
      modelId: parsed.id,
      kind: 'config',
      retryable: false,
      message: `no Azure endpoint — give the model spec a "url" (https://<resource>.openai.azure.com) or set ${AZURE_ENDPOINT_ENV}`,
    });
  }
  const resolved = {
    ...parsed,
    baseURL,
    ...(parsed.client === 'azure'
      ? { apiVersion: parsed.apiVersion ?? (env.OPENAI_API_VERSION?.trim() || DEFAULT_AZURE_API_VERSION) }
      : {}),
  };
  const adapter: AdapterOptions = {
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
  };
  if (!(adapter.timeoutMs > 0) || !Number.isInteger(adapter.maxRetries) || adapter.maxRetries < 0) {
    throw new ModelError({
      provider: resolved.provider,
      modelId: resolved.id,
      kind: 'config',
      retryable: false,
      message: `invalid options (timeoutMs=${adapter.timeoutMs}, maxRetries=${adapter.maxRetries}) — timeoutMs must be > 0 and maxRetries an integer ≥ 0`,
    });
  }
  if (resolved.family === 'anthropic') return new AnthropicChatModel(resolved, apiKey!, adapter);
  return new OpenAIChatModel(resolved, apiKey, adapter);
}
