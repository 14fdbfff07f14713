/**
 * Embedding models, for ranking few-shot examples by meaning: the providers' OpenAI-compatible
 * `POST {baseURL}/embeddings` endpoints (OpenAI, Azure, Gemini, Mistral, DashScope, Novita,
 * Ollama, vLLM, LM Studio; see each preset's `embeddings`), through the `openai` SDK.
 *
 * A profile names one as MINDcraft's `embedding` key does: a provider (`"openai"`, its default
 * embedding model), `"provider/model"`, `"none"`, or `{ api, model?, url?, params? }`.
 */
import type OpenAI from 'openai';
import { canonicalPrefix, isProviderPrefix, PRESET_PREFIXES, PRESETS, type ProviderPreset } from './presets.ts';
import { errorContext, throwIfAborted, toModelError } from './shared.ts';
import { DEFAULT_AZURE_API_VERSION, parseModelSpec, resolveApiKey, resolveBaseURL, type ResolvedModelSpec } from './spec.ts';
import { ModelError } from './types.ts';
import { normalizingFetch } from './vendor-errors.ts';
import { NO_KEY_PLACEHOLDER } from './openai.ts';

/** Embeds texts for the few-shot example search (`src/agent/prompts/examples.ts`). */
export interface Embedder {
  /** Identifies the embedding model, e.g. `openai/text-embedding-3-small`; part of the cache key. */
  readonly id?: string;
  /** @throws anything; selection then falls back to full-text ranking for that call. */
  embed(texts: string[]): Promise<number[][]>;
}

/** An embedding model as a profile writes it (MINDcraft's `embedding`). */
export type EmbeddingSpec =
  string | { api?: string; model?: string; url?: string; params?: Record<string, unknown>; api_version?: string; apiKeyEnv?: string };

/** An embedding spec resolved to its provider, model, URL and key variable. */
export interface ResolvedEmbeddingSpec extends ResolvedModelSpec {
  /** Most texts sent in one request. */
  batch: number;
}

/** Texts per request when the preset names no limit. */
export const DEFAULT_EMBEDDING_BATCH = 256;

/** The providers with an embeddings endpoint, for messages. */
export function embeddingProviders(): string[] {
  return PRESET_PREFIXES.filter((p) => (PRESETS[p] as ProviderPreset).embeddings);
}

function configError(id: string, provider: string, message: string): ModelError {
  return new ModelError({ provider, modelId: id, kind: 'config', retryable: false, message });
}

/**
 * Resolves an embedding spec.
 *
 * @example parseEmbeddingSpec('openai')?.id // → 'openai/text-embedding-3-small'
 * @example parseEmbeddingSpec({ api: 'ollama', model: 'nomic-embed-text', url: 'http://gpu-box:11434/v1' })
 * @returns undefined for `"none"` (no embeddings: examples are ranked by full-text search).
 * @throws {ModelError} kind `'config'` for an unknown provider, one without an embeddings
 *   endpoint (the message lists those that have one), or no model where the provider has no default.
 */
export function parseEmbeddingSpec(spec: EmbeddingSpec): ResolvedEmbeddingSpec | undefined {
  const obj = typeof spec === 'string' ? { model: spec } : spec;
  const text = obj.model?.trim() ?? '';
  if (!obj.api && text.toLowerCase() === 'none') return undefined;
  const slash = text.indexOf('/');
  let provider: string;
  let model: string;
  if (obj.api) {
    provider = canonicalPrefix(obj.api);
    model = slash >= 0 && canonicalPrefix(text.slice(0, slash)) === provider ? text.slice(slash + 1) : text;
  } else if (slash >= 0) {
    provider = canonicalPrefix(text.slice(0, slash));
    model = text.slice(slash + 1);
  } else {
    // MINDcraft's string form names the provider: "embedding": "openai".
    provider = canonicalPrefix(text);
    model = '';
  }
  const id = `${provider}/${model || '(default)'}`;
  const withEmbeddings = embeddingProviders().join(', ');
  if (!isProviderPrefix(provider)) {
    throw configError(
      id,
      provider,
      `unknown embedding provider "${provider}" — use one of ${withEmbeddings}, "<provider>/<model>", or "none"`,
    );
  }
  const info = (PRESETS[provider] as ProviderPreset).embeddings;
  if (!info)
    throw configError(
      id,
      provider,
      `${provider} has no embeddings endpoint — use one of ${withEmbeddings}, or "none" (examples are then ranked by full-text search)`,
    );
  model ||= info.defaultModel ?? '';
  if (!model)
    throw configError(id, provider, `name the embedding model: { "api": "${provider}", "model": "<model>" } or "${provider}/<model>"`);
  const resolved = parseModelSpec({
    model: `${provider}/${model}`,
    ...(obj.url ? { url: obj.url } : {}),
    ...(obj.params ? { params: obj.params } : {}),
    ...(obj.api_version ? { api_version: obj.api_version } : {}),
    ...(obj.apiKeyEnv ? { apiKeyEnv: obj.apiKeyEnv } : {}),
  });
  return { ...resolved, batch: info.batch ?? DEFAULT_EMBEDDING_BATCH };
}

/** Options of {@link createEmbedder}. */
export interface CreateEmbedderOptions {
  /** Where API keys are read from; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Per-attempt timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Cancels requests in flight. */
  signal?: AbortSignal;
}

/**
 * An {@link Embedder} over a provider's `/embeddings` endpoint: texts go out in batches of the
 * provider's limit (`input: string[]`, `encoding_format: 'float'`); vectors come back in input
 * order. Its `id` (`provider/model`) keys the example-vector cache. Makes no network request
 * until `embed` is called.
 *
 * @returns undefined for the spec `"none"`.
 * @throws {ModelError} kind `'config'` for a bad spec (see {@link parseEmbeddingSpec}), a missing
 *   API key or Azure endpoint. `embed` rejects with a {@link ModelError} when the provider fails,
 *   or answers with a wrong number of vectors or vectors of different lengths.
 */
export function createEmbedder(spec: EmbeddingSpec, options: CreateEmbedderOptions = {}): (Embedder & { readonly id: string }) | undefined {
  const resolved = parseEmbeddingSpec(spec);
  if (!resolved) return undefined;
  const env = options.env ?? process.env;
  const apiKey = resolveApiKey(resolved, env) ?? NO_KEY_PLACEHOLDER;
  const baseURL = resolveBaseURL(resolved, env);
  if (baseURL === undefined)
    throw configError(resolved.id, resolved.provider, 'no Azure endpoint — give the embedding a "url" or set AZURE_OPENAI_ENDPOINT');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 2;
  const common = { timeout: timeoutMs, maxRetries, fetch: normalizingFetch() };
  // The SDK is loaded on the first `embed`, not by a process that never embeds.
  let client: Promise<OpenAI> | undefined;
  const sdk = (): Promise<OpenAI> =>
    (client ??= import('openai').then(({ default: Sdk, AzureOpenAI }) =>
      resolved.client === 'azure'
        ? new AzureOpenAI({
            ...common,
            apiKey,
            endpoint: baseURL,
            deployment: resolved.model,
            apiVersion: resolved.apiVersion ?? (env.OPENAI_API_VERSION?.trim() || DEFAULT_AZURE_API_VERSION),
          })
        : new Sdk({ ...common, apiKey, baseURL, organization: null, project: null }),
    ));
  const ctx = errorContext({ ...resolved, baseURL }, { timeoutMs, maxRetries }, options.signal);
  const bad = (message: string) =>
    new ModelError({ provider: resolved.provider, modelId: resolved.id, kind: 'bad_response', retryable: false, message });
  const one = async (input: string[]): Promise<number[][]> => {
    throwIfAborted(options.signal, resolved.id);
    let answer: OpenAI.CreateEmbeddingResponse;
    try {
      answer = await (
        await sdk()
      ).embeddings.create({ ...resolved.params, model: resolved.model, input, encoding_format: 'float' }, { signal: options.signal });
    } catch (err) {
      throw toModelError(err, ctx);
    }
    const data = Array.isArray(answer?.data) ? [...answer.data].sort((a, b) => a.index - b.index) : [];
    if (data.length !== input.length)
      throw bad(`${data.length} vectors for ${input.length} texts — does ${baseURL} serve embeddings for "${resolved.model}"?`);
    return data.map((d) => {
      if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === 'number'))
        throw bad('an embedding is not a list of numbers');
      return d.embedding;
    });
  };
  return {
    id: resolved.id,
    async embed(texts: string[]): Promise<number[][]> {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += resolved.batch) out.push(...(await one(texts.slice(i, i + resolved.batch))));
      if (out.some((v) => v.length !== out[0]!.length)) throw bad('vectors of different lengths');
      return out;
    },
  };
}
