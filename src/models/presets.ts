/**
 * Provider presets: one entry per API a profile can name, with everything needed to reach it —
 * the wire protocol (the Anthropic SDK, or the OpenAI SDK against the vendor's OpenAI-compatible
 * endpoint, or its `AzureOpenAI` client), the base URL, the environment variable of the key
 * (MINDcraft's `keys.json` names), how the vendor names its models, and its embeddings endpoint.
 *
 * This table is the one place model names are resolved from: `spec.ts` reads prefixes, aliases
 * and bare-name rules from it, `embeddings.ts` its embedding defaults.
 *
 * | prefix | API | key variable |
 * | --- | --- | --- |
 * | `anthropic` | Anthropic Messages API | `ANTHROPIC_API_KEY` |
 * | `openai` | OpenAI | `OPENAI_API_KEY` |
 * | `azure` | Azure OpenAI (deployment = model name; `url` = resource endpoint) | `AZURE_OPENAI_API_KEY` (or `OPENAI_API_KEY`) |
 * | `google` | Gemini's OpenAI-compatible endpoint | `GEMINI_API_KEY` |
 * | `xai` | xAI | `XAI_API_KEY` |
 * | `deepseek` | DeepSeek | `DEEPSEEK_API_KEY` |
 * | `mistral` | Mistral | `MISTRAL_API_KEY` |
 * | `qwen` | Alibaba DashScope, compatible mode | `QWEN_API_KEY` |
 * | `groq` | GroqCloud | `GROQCLOUD_API_KEY` |
 * | `openrouter` | OpenRouter | `OPENROUTER_API_KEY` |
 * | `huggingface` | Hugging Face inference router | `HUGGINGFACE_API_KEY` |
 * | `novita` | Novita AI | `NOVITA_API_KEY` |
 * | `replicate` | Replicate's OpenAI-compatible proxy | `REPLICATE_API_KEY` |
 * | `glhf` | glhf.chat | `GHLF_API_KEY` (MINDcraft's spelling; `GLHF_API_KEY` too) |
 * | `hyperbolic` | Hyperbolic | `HYPERBOLIC_API_KEY` |
 * | `ollama`, `vllm`, `lmstudio` | local servers | none (`VLLM_API_KEY` if the server wants one) |
 */

/** Wire protocol a provider speaks. */
export type ProviderFamily = 'anthropic' | 'openai';

/** How a vendor names its models: a check on the model part of `provider/model`. */
export interface ModelNameRule {
  /** Matches a valid model name (after {@link ProviderPreset.modelPrefix} was added). */
  readonly pattern: RegExp;
  /** The rule in words, for error messages, e.g. `<vendor>/<model>`. */
  readonly rule: string;
  /** A valid model name. */
  readonly example: string;
}

/** How model names written without a provider prefix resolve to this provider. */
export interface BareNameRule {
  /** Matches the whole bare name from its start (case-insensitive); never a substring elsewhere. */
  readonly pattern: RegExp;
  /** The rule as written in docs, e.g. `gpt-*`. */
  readonly names: string;
}

/** The embeddings endpoint of a provider (`POST {baseURL}/embeddings`, OpenAI's wire format). */
export interface EmbeddingsInfo {
  /** Model used when a profile names the provider only (`"embedding": "openai"`); none: the model must be named. */
  readonly defaultModel?: string;
  /** Most texts the endpoint takes in one request (default 256). */
  readonly batch?: number;
}

/** Static facts about one provider prefix. */
export interface ProviderPreset {
  readonly family: ProviderFamily;
  /** `azure`: the OpenAI SDK's `AzureOpenAI` client (deployment paths, `api-key` header, `api-version`). */
  readonly client?: 'azure';
  /**
   * Base URL used when the spec gives no `url`. For Anthropic it excludes `/v1`; for OpenAI-style
   * it includes the version path. Empty for Azure: the resource endpoint comes from the spec's
   * `url` or `AZURE_OPENAI_ENDPOINT`.
   */
  readonly defaultUrl: string;
  /** Environment variable holding the key (also looked up in keys.json), or undefined if the provider takes none. */
  readonly keyEnv: string | undefined;
  /** Other variables read, in order, when {@link keyEnv} is unset (the vendor's own spelling). */
  readonly altKeyEnvs?: readonly string[];
  /** False for local servers, which work without a key (one is sent when set). */
  readonly keyRequired: boolean;
  /** Other spellings of the prefix (MINDcraft's `gemini/`, `groqcloud/`, `local/`...). */
  readonly aliases?: readonly string[];
  /** Bare model names (no prefix) that resolve here, as MINDcraft's users write them. */
  readonly bareNames?: BareNameRule;
  /** How this vendor's model names look; unchecked when absent. */
  readonly modelName?: ModelNameRule;
  /** Added to a model name that lacks it (glhf.chat's `hf:`). */
  readonly modelPrefix?: string;
  /** Request field for the token cap: OpenAI's newer `max_completion_tokens`, or `max_tokens`. */
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** The embeddings endpoint, when the vendor has one. */
  readonly embeddings?: EmbeddingsInfo;
  /** The API in a few words, for docs and errors. */
  readonly api: string;
}

const ORG_MODEL = /^[^/\s]+\/[^\s]+$/;

/** Every provider prefix the factory understands, with its defaults. Order: the order prefixes are listed in messages. */
export const PRESETS = {
  anthropic: {
    family: 'anthropic',
    api: 'Anthropic Messages API',
    defaultUrl: 'https://api.anthropic.com',
    keyEnv: 'ANTHROPIC_API_KEY',
    keyRequired: true,
    bareNames: { pattern: /^claude-/i, names: 'claude-*' },
    maxTokensField: 'max_tokens',
  },
  openai: {
    family: 'openai',
    api: 'OpenAI',
    defaultUrl: 'https://api.openai.com/v1',
    keyEnv: 'OPENAI_API_KEY',
    keyRequired: true,
    bareNames: { pattern: /^(gpt-|chatgpt-|o[1-4](-|$))/i, names: 'gpt-*, chatgpt-*, o1, o3, o4 (o4-mini, …)' },
    maxTokensField: 'max_completion_tokens',
    embeddings: { defaultModel: 'text-embedding-3-small', batch: 2048 },
  },
  azure: {
    family: 'openai',
    client: 'azure',
    api: 'Azure OpenAI',
    defaultUrl: '',
    keyEnv: 'AZURE_OPENAI_API_KEY',
    altKeyEnvs: ['OPENAI_API_KEY'],
    keyRequired: true,
    maxTokensField: 'max_completion_tokens',
    embeddings: { batch: 2048 },
  },
  google: {
    family: 'openai',
    api: "Gemini's OpenAI-compatible endpoint",
    defaultUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    keyEnv: 'GEMINI_API_KEY',
    altKeyEnvs: ['GOOGLE_API_KEY'],
    keyRequired: true,
    aliases: ['gemini'],
    bareNames: { pattern: /^(gemini-|gemma-)/i, names: 'gemini-*, gemma-*' },
    maxTokensField: 'max_tokens',
    embeddings: { defaultModel: 'gemini-embedding-001', batch: 100 },
  },
  xai: {
    family: 'openai',
    api: 'xAI',
    defaultUrl: 'https://api.x.ai/v1',
    keyEnv: 'XAI_API_KEY',
    keyRequired: true,
    aliases: ['grok'],
    bareNames: { pattern: /^grok-/i, names: 'grok-*' },
    maxTokensField: 'max_tokens',
  },
  deepseek: {
    family: 'openai',
    api: 'DeepSeek',
    defaultUrl: 'https://api.deepseek.com/v1',
    keyEnv: 'DEEPSEEK_API_KEY',
    keyRequired: true,
    bareNames: { pattern: /^deepseek-/i, names: 'deepseek-*' },
    maxTokensField: 'max_tokens',
  },
  mistral: {
    family: 'openai',
    api: 'Mistral',
    defaultUrl: 'https://api.mistral.ai/v1',
    keyEnv: 'MISTRAL_API_KEY',
    keyRequired: true,
    aliases: ['mistralai'],
    bareNames: {
      pattern: /^(mistral-|ministral-|magistral-|codestral-|pixtral-|open-mistral-|open-mixtral-)/i,
      names: 'mistral-*, ministral-*, magistral-*, codestral-*, pixtral-*',
    },
    maxTokensField: 'max_tokens',
    embeddings: { defaultModel: 'mistral-embed', batch: 128 },
  },
  qwen: {
    family: 'openai',
    api: 'Alibaba DashScope (compatible mode)',
    defaultUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
    keyEnv: 'QWEN_API_KEY',
    altKeyEnvs: ['DASHSCOPE_API_KEY'],
    keyRequired: true,
    bareNames: { pattern: /^(qwen|qwq-)/i, names: 'qwen*, qwq-*' },
    maxTokensField: 'max_tokens',
    embeddings: { defaultModel: 'text-embedding-v3', batch: 10 },
  },
  groq: {
    family: 'openai',
    api: 'GroqCloud',
    defaultUrl: 'https://api.groq.com/openai/v1',
    keyEnv: 'GROQCLOUD_API_KEY',
    altKeyEnvs: ['GROQ_API_KEY'],
    keyRequired: true,
    aliases: ['groqcloud'],
    maxTokensField: 'max_tokens',
  },
  openrouter: {
    family: 'openai',
    api: 'OpenRouter',
    defaultUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    keyRequired: true,
    modelName: { pattern: ORG_MODEL, rule: '<vendor>/<model>', example: 'meta-llama/llama-3.1-8b-instruct' },
    maxTokensField: 'max_tokens',
  },
  huggingface: {
    family: 'openai',
    api: 'Hugging Face inference router',
    defaultUrl: 'https://router.huggingface.co/v1',
    keyEnv: 'HUGGINGFACE_API_KEY',
    altKeyEnvs: ['HF_TOKEN'],
    keyRequired: true,
    modelName: { pattern: ORG_MODEL, rule: '<org>/<model>', example: 'meta-llama/Llama-3.1-8B-Instruct' },
    maxTokensField: 'max_tokens',
  },
  novita: {
    family: 'openai',
    api: 'Novita AI',
    defaultUrl: 'https://api.novita.ai/v3/openai',
    keyEnv: 'NOVITA_API_KEY',
    keyRequired: true,
    modelName: { pattern: ORG_MODEL, rule: '<org>/<model>', example: 'meta-llama/llama-3.1-8b-instruct' },
    maxTokensField: 'max_tokens',
    embeddings: { defaultModel: 'baai/bge-m3' },
  },
  replicate: {
    family: 'openai',
    api: "Replicate's OpenAI-compatible proxy",
    defaultUrl: 'https://openai-proxy.replicate.com/v1',
    keyEnv: 'REPLICATE_API_KEY',
    altKeyEnvs: ['REPLICATE_API_TOKEN'],
    keyRequired: true,
    modelName: { pattern: ORG_MODEL, rule: '<owner>/<model>', example: 'meta/meta-llama-3-70b-instruct' },
    maxTokensField: 'max_tokens',
  },
  glhf: {
    family: 'openai',
    api: 'glhf.chat',
    defaultUrl: 'https://glhf.chat/api/openai/v1',
    keyEnv: 'GHLF_API_KEY',
    altKeyEnvs: ['GLHF_API_KEY'],
    keyRequired: true,
    modelPrefix: 'hf:',
    modelName: { pattern: /^hf:[^/\s]+\/[^\s]+$/, rule: 'hf:<org>/<model>', example: 'hf:meta-llama/Llama-3.3-70B-Instruct' },
    maxTokensField: 'max_tokens',
  },
  hyperbolic: {
    family: 'openai',
    api: 'Hyperbolic',
    defaultUrl: 'https://api.hyperbolic.xyz/v1',
    keyEnv: 'HYPERBOLIC_API_KEY',
    keyRequired: true,
    modelName: { pattern: ORG_MODEL, rule: '<org>/<model>', example: 'deepseek-ai/DeepSeek-V3' },
    maxTokensField: 'max_tokens',
  },
  ollama: {
    family: 'openai',
    api: 'Ollama (local)',
    defaultUrl: 'http://127.0.0.1:11434/v1',
    keyEnv: undefined,
    keyRequired: false,
    aliases: ['local'],
    maxTokensField: 'max_tokens',
    embeddings: { defaultModel: 'nomic-embed-text' },
  },
  vllm: {
    family: 'openai',
    api: 'vLLM (local)',
    defaultUrl: 'http://127.0.0.1:8000/v1',
    keyEnv: 'VLLM_API_KEY',
    keyRequired: false,
    maxTokensField: 'max_tokens',
    embeddings: {},
  },
  lmstudio: {
    family: 'openai',
    api: 'LM Studio (local)',
    defaultUrl: 'http://127.0.0.1:1234/v1',
    keyEnv: undefined,
    keyRequired: false,
    maxTokensField: 'max_tokens',
    embeddings: {},
  },
} as const satisfies Record<string, ProviderPreset>;

/** A known provider prefix. */
export type ProviderPrefix = keyof typeof PRESETS;

/** The known provider prefixes, in {@link PRESETS} order. */
export const PRESET_PREFIXES: readonly ProviderPrefix[] = Object.freeze(Object.keys(PRESETS) as ProviderPrefix[]);

/** True if `prefix` is one of {@link PRESET_PREFIXES}. */
export function isProviderPrefix(prefix: string): prefix is ProviderPrefix {
  return Object.hasOwn(PRESETS, prefix);
}

/** The preset of a prefix. */
export function presetOf(prefix: ProviderPrefix): ProviderPreset {
  return PRESETS[prefix];
}

/** Every alias of {@link PRESETS}, mapped to its prefix (`gemini` → `google`, ...). */
export const PRESET_ALIASES: Readonly<Record<string, ProviderPrefix>> = Object.freeze(
  Object.fromEntries(
    PRESET_PREFIXES.flatMap((prefix) => ((PRESETS[prefix] as ProviderPreset).aliases ?? []).map((alias) => [alias, prefix] as const)),
  ),
);

/**
 * The prefix a provider name or alias stands for, case-insensitive: `"Gemini"` → `google`; the
 * lower-cased input itself when it is neither (for an "unknown prefix" message).
 */
export function canonicalPrefix(name: string): string {
  const lower = name.trim().toLowerCase();
  return isProviderPrefix(lower) ? lower : (PRESET_ALIASES[lower] ?? lower);
}

/** A bare-name rule with the provider it resolves to. */
export interface BareModelRule extends BareNameRule {
  readonly provider: ProviderPrefix;
}

/** The presets' bare-name rules, first match wins (see each preset's {@link ProviderPreset.bareNames}). */
export const BARE_MODEL_RULES: readonly BareModelRule[] = Object.freeze(
  PRESET_PREFIXES.flatMap((provider) => {
    const rule = (PRESETS[provider] as ProviderPreset).bareNames;
    return rule ? [{ ...rule, provider }] : [];
  }),
);

/** The provider a bare model name resolves to by {@link BARE_MODEL_RULES}, if any. */
export function providerForBareName(name: string): ProviderPrefix | undefined {
  return BARE_MODEL_RULES.find((rule) => rule.pattern.test(name.trim()))?.provider;
}

/**
 * The model name a provider is sent, and whether it follows the vendor's naming rule.
 *
 * @param prefix the provider.
 * @param model the model part of the spec (after `provider/`).
 * @returns the name to send (the preset's {@link ProviderPreset.modelPrefix} added if missing), or
 *   an error text naming the rule and an example when the name breaks the vendor's rule.
 */
export function presetModelName(prefix: ProviderPrefix, model: string): { model: string } | { error: string } {
  const preset: ProviderPreset = PRESETS[prefix];
  const name = preset.modelPrefix && !model.startsWith(preset.modelPrefix) ? `${preset.modelPrefix}${model}` : model;
  const rule = preset.modelName;
  if (rule && !rule.pattern.test(name)) {
    return { error: `${preset.api} models are named "${rule.rule}" — write "${prefix}/${rule.rule}", e.g. "${prefix}/${rule.example}"` };
  }
  return { model: name };
}

/** Every provider's key variables: each preset's {@link ProviderPreset.keyEnv} and alternatives. */
export const PROVIDER_KEY_ENVS: ReadonlySet<string> = new Set(
  PRESET_PREFIXES.flatMap((prefix) => {
    const preset: ProviderPreset = PRESETS[prefix];
    return [...(preset.keyEnv ? [preset.keyEnv] : []), ...(preset.altKeyEnvs ?? [])];
  }),
);

/**
 * Whether a model spec's `apiKeyEnv` may name `name`: a provider's key variable
 * ({@link PROVIDER_KEY_ENVS}, e.g. `HF_TOKEN`) or any variable whose name ends in `_API_KEY`.
 * Anything else (`HOME`, `AWS_SECRET_ACCESS_KEY`, `REDIS_PASSWORD`) is refused: the key is sent
 * to the model's URL as a bearer token, so a spec naming another variable would send that
 * variable's value to whoever wrote the spec.
 *
 * @example isAllowedKeyEnv('MY_PROXY_API_KEY') // true
 * @example isAllowedKeyEnv('HOME') // false
 */
export function isAllowedKeyEnv(name: string): boolean {
  return PROVIDER_KEY_ENVS.has(name) || /^[A-Z0-9_]+_API_KEY$/.test(name);
}

/** The rule of {@link isAllowedKeyEnv} in words, for error messages. */
export const KEY_ENV_RULE = 'apiKeyEnv must name a provider key variable (e.g. OPENAI_API_KEY, HF_TOKEN) or a variable ending in _API_KEY';
