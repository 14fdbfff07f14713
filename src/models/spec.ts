/**
 * Model specs: how settings and profiles name a model, and how that name is resolved to a
 * provider, a base URL and an API key.
 *
 * A spec is `<provider>/<model>` (the provider by its prefix: one of the presets of `presets.ts`,
 * which own every provider's URL, key variable and model-name rules), or one of
 * the bare names MINDcraft's users write (`gpt-4o`, `claude-sonnet-4-5`, `gemini-2.5-flash`...),
 * resolved by the anchored rules of {@link BARE_MODEL_RULES} — never by a substring anywhere in
 * the name. Anything else is a config error naming the closest valid `provider/model` spellings.
 */
import { z } from 'zod';
import { distance } from 'fastest-levenshtein';
import { ModelError } from './types.ts';
import {
  BARE_MODEL_RULES,
  canonicalPrefix,
  isAllowedKeyEnv,
  isProviderPrefix,
  KEY_ENV_RULE,
  PRESET_ALIASES,
  PRESET_PREFIXES,
  PRESETS,
  presetModelName,
  providerForBareName,
  type ProviderFamily,
  type ProviderPreset,
  type ProviderPrefix,
} from './presets.ts';

export {
  BARE_MODEL_RULES,
  isProviderPrefix,
  providerForBareName,
  type BareModelRule,
  type ProviderFamily,
  type ProviderPrefix,
} from './presets.ts';

/** Static facts about one provider prefix (see `presets.ts` for the whole preset). */
export type ProviderInfo = ProviderPreset;

/** Every provider prefix the factory understands, with its defaults: the presets of `presets.ts`. */
export const PROVIDERS = PRESETS;

/** The known provider prefixes, e.g. for help texts: `['anthropic', 'openai', …]`. */
export const PROVIDER_PREFIXES: readonly ProviderPrefix[] = PRESET_PREFIXES;

/**
 * Other spellings of a provider prefix that MINDcraft's profiles use (`gemini/…`, `groqcloud/…`,
 * `local/…`), mapped to ours (each preset's `aliases`).
 */
export const PROVIDER_ALIASES: Readonly<Record<string, ProviderPrefix>> = PRESET_ALIASES;

/**
 * Well-known model ids, for "did you mean" suggestions only (any model name of a provider is
 * accepted with its prefix).
 */
export const WELL_KNOWN_MODELS: readonly string[] = [
  'anthropic/claude-opus-4-1',
  'anthropic/claude-sonnet-4-5',
  'anthropic/claude-sonnet-4',
  'anthropic/claude-haiku-4-5',
  'anthropic/claude-3-5-haiku-latest',
  'openai/gpt-5',
  'openai/gpt-5-mini',
  'openai/gpt-5-nano',
  'openai/gpt-4.1',
  'openai/gpt-4.1-mini',
  'openai/gpt-4.1-nano',
  'openai/gpt-4o',
  'openai/gpt-4o-mini',
  'openai/o3',
  'openai/o4-mini',
  'google/gemini-2.5-pro',
  'google/gemini-2.5-flash',
  'google/gemini-2.0-flash',
  'xai/grok-4',
  'xai/grok-3',
  'xai/grok-3-mini',
  'deepseek/deepseek-chat',
  'deepseek/deepseek-reasoner',
  'mistral/mistral-large-latest',
  'mistral/mistral-small-latest',
  'qwen/qwen-max',
  'qwen/qwen-plus',
  'ollama/llama3.1',
  'ollama/qwen2.5',
  'openrouter/meta-llama/llama-3.1-8b-instruct',
];

/**
 * Valid `provider/model` spellings close to `text`, for error messages: well-known ids by edit
 * distance, then the name under a local server (`ollama/…`) or OpenRouter when it looks like
 * `<vendor>/<model>`.
 */
export function suggestModelIds(text: string, n = 3): string[] {
  const name = text.trim().toLowerCase();
  const modelPart = (id: string) => id.slice(id.indexOf('/') + 1);
  const bare = name.includes('/') ? modelPart(name) : name;
  const known = WELL_KNOWN_MODELS.map((id) => ({ id, d: Math.min(distance(name, id), distance(bare, modelPart(id))) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, n)
    .map((s) => s.id);
  const local = text.includes('/') ? [`openrouter/${text.trim()}`] : [`ollama/${text.trim()}`];
  return [...new Set([...known, ...local])];
}

/**
 * Zod schema of a model spec, for embedding in settings/profile schemas. Either a string
 * `'<provider>/<model>'` (or a bare name, see {@link BARE_MODEL_RULES}) or an object
 * `{ model, api?, url?, params?, api_version?, apiKeyEnv? }` (MINDcraft's object form; unknown
 * keys are rejected, so typos surface). The schema checks shape only, not the prefix: other
 * modules handle special names such as `'oracle'` before calling `createModel`; use
 * {@link parseModelSpec} to validate a prefix.
 */
export const ModelSpecSchema = z.union([
  z.string().trim().min(1, 'model spec must not be empty'),
  z.strictObject({
    /** `'<provider>/<model>'`, e.g. `'ollama/llama3.1'` or `'openrouter/anthropic/claude-sonnet-4.5'`; or a bare name (see {@link BARE_MODEL_RULES}). */
    model: z.string().trim().min(1, 'model must not be empty'),
    /** MINDcraft's provider field (`"api": "openai"`): the provider of a `model` written without a prefix. */
    api: z.string().trim().min(1).optional(),
    /** Base URL overriding the provider's default (OpenAI-style URLs usually end in `/v1`; Azure: the resource endpoint). */
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }).optional(),
    /** Extra request parameters passed through to the API (temperature, top_p, max_tokens, …). */
    params: z.record(z.string(), z.unknown()).optional(),
    /** Azure OpenAI's `api-version` (MINDcraft's key); default `OPENAI_API_VERSION` or {@link DEFAULT_AZURE_API_VERSION}. */
    api_version: z.string().trim().min(1).optional(),
    /**
     * Name of the environment variable holding the API key, overriding the provider's default: a
     * provider key variable or a name ending in `_API_KEY` ({@link isAllowedKeyEnv}), nothing else.
     */
    apiKeyEnv: z.string().trim().min(1).refine(isAllowedKeyEnv, KEY_ENV_RULE).optional(),
  }),
]);

/** A model spec as written in settings or a profile. */
export type ModelSpec = z.infer<typeof ModelSpecSchema>;

/** Azure OpenAI `api-version` used when neither the spec nor `OPENAI_API_VERSION` names one (the current GA version). */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/** Where the Azure client reads its resource endpoint when a spec gives no `url` (the SDK's variable). */
export const AZURE_ENDPOINT_ENV = 'AZURE_OPENAI_ENDPOINT';

/** A spec resolved to everything a provider needs, except the key's value. */
export interface ResolvedModelSpec {
  /** `'provider/model'`. */
  id: string;
  provider: ProviderPrefix;
  family: ProviderFamily;
  /** `azure`: the OpenAI SDK's Azure client (see the preset). */
  client?: 'azure';
  /** The model name sent to the API (everything after the first `/`, the preset's model prefix added; may itself contain `/`). For Azure, the deployment. */
  model: string;
  /** The API's base URL; for Azure the resource endpoint, '' when it is to come from {@link AZURE_ENDPOINT_ENV}. */
  baseURL: string;
  params: Record<string, unknown>;
  /** Variable the key is read from; undefined when the provider takes none. */
  keyEnv: string | undefined;
  /** Variables read, in order, when {@link keyEnv} is unset. */
  altKeyEnvs: readonly string[];
  /** True if a request cannot be made without a key. */
  keyRequired: boolean;
  /** Request field for the token cap. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Azure's `api-version` from the spec, if it names one. */
  apiVersion?: string;
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
 * The provider is the spec's `api` (MINDcraft's object form), else the prefix before the first
 * `/` (or one of its aliases, e.g. `gemini/`), else the bare-name rule the name matches. The
 * model name must then follow the provider's naming rule (OpenRouter `<vendor>/<model>`, ...).
 *
 * @param spec a {@link ModelSpec} (string or object); anything else is rejected.
 * @returns the resolved spec; reads no environment.
 * @throws {ModelError} kind `'config'` if the spec is malformed, names no provider or an unknown
 *   one (the message lists the valid prefixes and the closest valid spellings), has an empty model
 *   name, or a name that breaks the provider's naming rule.
 */
export function parseModelSpec(spec: ModelSpec): ResolvedModelSpec {
  const parsed = ModelSpecSchema.safeParse(spec);
  const raw = specText(spec);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'spec'}: ${i.message}`).join('; ');
    throw configError(
      raw,
      '',
      `invalid model spec (${issues}) — use "<provider>/<model>" or { model, api?, url?, params?, api_version?, apiKeyEnv? }`,
      parsed.error,
    );
  }
  const value = parsed.data;
  const obj = typeof value === 'string' ? { model: value } : value;
  const text = obj.model;
  const valid = PROVIDER_PREFIXES.join(', ');
  const closest = () =>
    `closest valid spellings: ${suggestModelIds(text)
      .map((id) => `"${id}"`)
      .join(', ')}`;
  const slash = text.indexOf('/');
  const api = 'api' in obj && obj.api ? canonicalPrefix(obj.api) : undefined;
  const givenPrefix = slash < 0 ? undefined : canonicalPrefix(text.slice(0, slash));
  let prefix: string;
  let model: string;
  if (api) {
    // MINDcraft's object form: `api` names the provider, `model` is the provider's own name.
    prefix = api;
    model = givenPrefix === prefix ? text.slice(slash + 1).trim() : text.trim();
  } else if (givenPrefix !== undefined) {
    prefix = givenPrefix;
    model = text.slice(slash + 1).trim();
  } else {
    const bare = providerForBareName(text);
    if (!bare) {
      throw configError(
        text,
        '',
        `unknown model "${text}": a name without a provider prefix resolves only for ${BARE_MODEL_RULES.map((r) => r.names).join('; ')} — write "<provider>/<model>" with provider one of: ${valid}; ${closest()}`,
      );
    }
    prefix = bare;
    model = text.trim();
  }
  if (!isProviderPrefix(prefix)) {
    throw configError(text, prefix, `unknown provider prefix "${prefix}" — valid prefixes: ${valid}; ${closest()}`);
  }
  if (!model) {
    throw configError(text, prefix, `empty model name — write "${prefix}/<model>"`);
  }
  const named = presetModelName(prefix, model);
  if ('error' in named) throw configError(text, prefix, named.error);
  const preset: ProviderPreset = PROVIDERS[prefix];
  const customKeyEnv = 'apiKeyEnv' in obj ? obj.apiKeyEnv : undefined;
  const apiVersion = 'api_version' in obj ? obj.api_version : undefined;
  return {
    id: `${prefix}/${named.model}`,
    provider: prefix,
    family: preset.family,
    ...(preset.client ? { client: preset.client } : {}),
    model: named.model,
    baseURL: ('url' in obj && obj.url ? obj.url : preset.defaultUrl).replace(/\/+$/, ''),
    params: 'params' in obj && obj.params ? { ...obj.params } : {},
    keyEnv: customKeyEnv ?? preset.keyEnv,
    altKeyEnvs: customKeyEnv ? [] : (preset.altKeyEnvs ?? []),
    keyRequired: customKeyEnv !== undefined || preset.keyRequired,
    maxTokensField: preset.maxTokensField,
    ...(apiVersion ? { apiVersion } : {}),
  };
}

/** Whether a spec can be used with the given environment. */
export type ApiKeyStatus =
  | { usable: true; id: string; provider: ProviderPrefix; keyEnv: string | undefined; keyRequired: boolean }
  | { usable: false; id: string; provider: string; keyEnv: string | undefined; reason: string };

/** The key of `resolved` in `env`: its variable, else the alternatives in order; trimmed, undefined when unset or blank. */
export function readApiKey(resolved: Pick<ResolvedModelSpec, 'keyEnv' | 'altKeyEnvs'>, env: NodeJS.ProcessEnv): string | undefined {
  for (const name of [resolved.keyEnv, ...resolved.altKeyEnvs]) {
    const key = name ? env[name]?.trim() : undefined;
    if (key) return key;
  }
  return undefined;
}

/**
 * The base URL a request goes to: the spec's, or for Azure without a `url`, the endpoint in
 * {@link AZURE_ENDPOINT_ENV}.
 *
 * @returns the URL without a trailing `/`, or undefined when Azure has no endpoint.
 */
export function resolveBaseURL(resolved: Pick<ResolvedModelSpec, 'baseURL' | 'client'>, env: NodeJS.ProcessEnv): string | undefined {
  if (resolved.baseURL) return resolved.baseURL;
  if (resolved.client === 'azure') return env[AZURE_ENDPOINT_ENV]?.trim().replace(/\/+$/, '') || undefined;
  return undefined;
}

const keyWhere = (name: string | undefined): string => `set ${name} in the environment or in keys.json`;

/**
 * Tells whether `spec` is usable: it parses, its API key (if the provider needs one) is set and
 * non-empty in `env`, and (Azure) it has an endpoint. Never throws and never contacts the
 * network, so a CLI can use it to fall back to an offline policy when no model is configured.
 *
 * @param spec a model spec (as in settings).
 * @param env environment to read keys from (keys.json's names are added to it at start-up); defaults to `process.env`.
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
  if (keyRequired && keyEnv && !readApiKey(resolved, env)) {
    return { usable: false, id, provider, keyEnv, reason: `${id}: no API key — ${keyWhere(keyEnv)}` };
  }
  if (resolveBaseURL(resolved, env) === undefined) {
    return {
      usable: false,
      id,
      provider,
      keyEnv,
      reason: `${id}: no Azure endpoint — give the model spec a "url" (https://<resource>.openai.azure.com) or set ${AZURE_ENDPOINT_ENV}`,
    };
  }
  return { usable: true, id, provider, keyEnv, keyRequired };
}

/**
 * Reads the API key for a resolved spec.
 *
 * @returns the key, or undefined when the provider needs none and none is set.
 * @throws {ModelError} kind `'config'` if a key is required but missing from `env`.
 */
export function resolveApiKey(resolved: ResolvedModelSpec, env: NodeJS.ProcessEnv): string | undefined {
  const key = readApiKey(resolved, env);
  if (resolved.keyRequired && !key) {
    throw configError(resolved.id, resolved.provider, `no API key — ${keyWhere(resolved.keyEnv)}`);
  }
  return key;
}
