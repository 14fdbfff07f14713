/**
 * Model specs: how settings and profiles name a model, and how that name is resolved to a
 * provider, a base URL and an API key. Providers are chosen ONLY by an explicit prefix.
 */
import { z } from 'zod';
import { ModelError } from './types.ts';

/** Wire protocol a provider speaks. */
export type ProviderFamily = 'anthropic' | 'openai';

/** Static facts about one provider prefix. */
export interface ProviderInfo {
  readonly family: ProviderFamily;
  /** Base URL used when the spec gives no `url`. For Anthropic it excludes `/v1`; for OpenAI-style it includes it. */
  readonly defaultUrl: string;
  /** Environment variable holding the key, or undefined if the provider needs none (local servers). */
  readonly keyEnv: string | undefined;
}

/** Every provider prefix the factory understands, with its defaults. */
export const PROVIDERS = {
  anthropic: { family: 'anthropic', defaultUrl: 'https://api.anthropic.com', keyEnv: 'ANTHROPIC_API_KEY' },
  openai: { family: 'openai', defaultUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY' },
  openrouter: { family: 'openai', defaultUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY' },
  ollama: { family: 'openai', defaultUrl: 'http://127.0.0.1:11434/v1', keyEnv: undefined },
  lmstudio: { family: 'openai', defaultUrl: 'http://127.0.0.1:1234/v1', keyEnv: undefined },
  vllm: { family: 'openai', defaultUrl: 'http://127.0.0.1:8000/v1', keyEnv: undefined },
} as const satisfies Record<string, ProviderInfo>;

/** A known provider prefix. */
export type ProviderPrefix = keyof typeof PROVIDERS;

/** The known provider prefixes, e.g. for help texts: `['anthropic', 'openai', …]`. */
export const PROVIDER_PREFIXES: readonly ProviderPrefix[] = Object.freeze(Object.keys(PROVIDERS) as ProviderPrefix[]);

/** True if `prefix` is one of {@link PROVIDER_PREFIXES}. */
export function isProviderPrefix(prefix: string): prefix is ProviderPrefix {
  return Object.hasOwn(PROVIDERS, prefix);
}

/**
 * Zod schema of a model spec, for embedding in settings/profile schemas. Either a string
 * `'<provider>/<model>'` or an object `{ model, url?, params?, apiKeyEnv? }` (unknown keys are
 * rejected, so typos surface). The schema checks shape only, not the prefix: other modules
 * handle special names such as `'oracle'` before calling {@link createModel}; use
 * {@link parseModelSpec} to validate a prefix.
 */
export const ModelSpecSchema = z.union([
  z.string().trim().min(1, 'model spec must not be empty'),
  z.strictObject({
    /** `'<provider>/<model>'`, e.g. `'ollama/llama3.1'` or `'openrouter/anthropic/claude-sonnet-4.5'`. */
    model: z.string().trim().min(1, 'model must not be empty'),
    /** Base URL overriding the provider's default (OpenAI-style URLs usually end in `/v1`). */
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }).optional(),
    /** Extra request parameters passed through to the API (temperature, top_p, max_tokens, …). */
    params: z.record(z.string(), z.unknown()).optional(),
    /** Name of the environment variable holding the API key, overriding the provider's default. */
    apiKeyEnv: z.string().trim().min(1).optional(),
  }),
]);

/** A model spec as written in settings or a profile. */
export type ModelSpec = z.infer<typeof ModelSpecSchema>;

/** A spec resolved to everything a provider needs, except the key's value. */
export interface ResolvedModelSpec {
  /** `'provider/model'`. */
  id: string;
  provider: ProviderPrefix;
  family: ProviderFamily;
  /** The model name sent to the API (everything after the first `/`; may itself contain `/`). */
  model: string;
  baseURL: string;
  params: Record<string, unknown>;
  /** Variable the key is read from; undefined when none is needed. */
  keyEnv: string | undefined;
  /** True if a request cannot be made without a key. */
  keyRequired: boolean;
}

function specText(spec: unknown): string {
  if (typeof spec === 'string') return spec;
  if (spec && typeof spec === 'object' && typeof (spec as { model?: unknown }).model === 'string') {
    return (spec as { model: string }).model;
  }
  return '';
}

function configError(modelId: string, provider: string, message: string, cause?: unknown): ModelError {
  return new ModelError({ provider, modelId, kind: 'config', retryable: false, message, cause });
}

/**
 * Validates a spec and resolves its provider, model name, base URL and key variable.
 *
 * @param spec a {@link ModelSpec} (string or object); anything else is rejected.
 * @returns the resolved spec; reads no environment.
 * @throws {ModelError} kind `'config'` if the spec is malformed, has no provider prefix or an
 *   unknown one (the message lists the valid prefixes), or has an empty model name.
 */
export function parseModelSpec(spec: ModelSpec): ResolvedModelSpec {
  const parsed = ModelSpecSchema.safeParse(spec);
  const raw = specText(spec);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'spec'}: ${i.message}`).join('; ');
    throw configError(raw, '', `invalid model spec (${issues}) — use "<provider>/<model>" or { model, url?, params?, apiKeyEnv? }`, parsed.error);
  }
  const value = parsed.data;
  const obj = typeof value === 'string' ? { model: value } : value;
  const text = obj.model;
  const valid = PROVIDER_PREFIXES.join(', ');
  const slash = text.indexOf('/');
  if (slash < 0) {
    throw configError(text, '', `no provider prefix in model "${text}" — write "<provider>/<model>" with provider one of: ${valid}`);
  }
  const prefix = text.slice(0, slash).toLowerCase();
  const model = text.slice(slash + 1).trim();
  if (!isProviderPrefix(prefix)) {
    throw configError(text, prefix, `unknown provider prefix "${prefix}" — valid prefixes: ${valid}`);
  }
  if (!model) {
    throw configError(text, prefix, `empty model name — write "${prefix}/<model>"`);
  }
  if (prefix === 'openrouter' && !model.includes('/')) {
    throw configError(text, prefix, `OpenRouter models are named "<vendor>/<model>" — write "openrouter/<vendor>/<model>", e.g. "openrouter/meta-llama/llama-3.1-8b-instruct"`);
  }
  const info: ProviderInfo = PROVIDERS[prefix];
  const customKeyEnv = 'apiKeyEnv' in obj ? obj.apiKeyEnv : undefined;
  return {
    id: `${prefix}/${model}`,
    provider: prefix,
    family: info.family,
    model,
    baseURL: ('url' in obj && obj.url ? obj.url : info.defaultUrl).replace(/\/+$/, ''),
    params: ('params' in obj && obj.params ? { ...obj.params } : {}),
    keyEnv: customKeyEnv ?? info.keyEnv,
    keyRequired: customKeyEnv !== undefined || info.keyEnv !== undefined,
  };
}

/** Whether a spec can be used with the given environment. */
export type ApiKeyStatus =
  | { usable: true; id: string; provider: ProviderPrefix; keyEnv: string | undefined; keyRequired: boolean }
  | { usable: false; id: string; provider: string; keyEnv: string | undefined; reason: string };

/**
 * Tells whether `spec` is usable: it parses, and its API key (if the provider needs one) is set
 * and non-empty in `env`. Never throws and never contacts the network, so a CLI can use it to
 * fall back to an offline policy when no model is configured.
 *
 * @param spec a model spec (as in settings).
 * @param env environment to read keys from; defaults to `process.env`.
 */
export function apiKeyStatus(spec: ModelSpec, env: NodeJS.ProcessEnv = process.env): ApiKeyStatus {
  let resolved: ResolvedModelSpec;
  try {
    resolved = parseModelSpec(spec);
  } catch (err) {
    const e = err as ModelError;
    return { usable: false, id: specText(spec), provider: e.provider ?? '', keyEnv: undefined, reason: e.message };
  }
  const { id, provider, keyEnv, keyRequired } = resolved;
  if (keyRequired && keyEnv && !env[keyEnv]?.trim()) {
    return { usable: false, id, provider, keyEnv, reason: `${id}: no API key — set ${keyEnv} in the environment` };
  }
  return { usable: true, id, provider, keyEnv, keyRequired };
}

/**
 * Reads the API key for a resolved spec.
 *
 * @returns the key, or undefined when the provider needs none.
 * @throws {ModelError} kind `'config'` if a key is required but missing from `env`.
 */
export function resolveApiKey(resolved: ResolvedModelSpec, env: NodeJS.ProcessEnv): string | undefined {
  const key = resolved.keyEnv ? env[resolved.keyEnv]?.trim() : undefined;
  if (resolved.keyRequired && !key) {
    throw configError(resolved.id, resolved.provider, `no API key — set ${resolved.keyEnv} in the environment`);
  }
  return key || undefined;
}
