import { describe, expect, test } from 'vitest';
import {
  apiKeyStatus,
  createModel,
  ModelError,
  ModelSpecSchema,
  normalizeTurns,
  parseModelSpec,
  PROVIDER_PREFIXES,
} from '../../src/models/index.ts';
import { providerForBareName, suggestModelIds } from '../../src/models/spec.ts';
import { isAllowedKeyEnv, PRESETS } from '../../src/models/presets.ts';
import { profileSchema } from '../../src/settings/index.ts';

function thrown(fn: () => unknown): ModelError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return err as ModelError;
  }
  throw new Error('expected a throw');
}

describe('parseModelSpec', () => {
  test('known prefixes resolve to their family, default url and key variable', () => {
    expect(PROVIDER_PREFIXES).toEqual(
      expect.arrayContaining([
        'anthropic',
        'openai',
        'openrouter',
        'ollama',
        'lmstudio',
        'vllm',
        'google',
        'xai',
        'deepseek',
        'mistral',
        'qwen',
        'groq',
      ]),
    );
    expect(parseModelSpec('anthropic/claude-sonnet-4-5')).toMatchObject({
      id: 'anthropic/claude-sonnet-4-5',
      provider: 'anthropic',
      family: 'anthropic',
      model: 'claude-sonnet-4-5',
      baseURL: 'https://api.anthropic.com',
      keyEnv: 'ANTHROPIC_API_KEY',
      keyRequired: true,
    });
    expect(parseModelSpec('openai/gpt-4o-mini')).toMatchObject({
      family: 'openai',
      baseURL: 'https://api.openai.com/v1',
      keyEnv: 'OPENAI_API_KEY',
    });
    expect(parseModelSpec('ollama/llama3.1:8b')).toMatchObject({
      model: 'llama3.1:8b',
      baseURL: 'http://127.0.0.1:11434/v1',
      keyRequired: false,
    });
    expect(parseModelSpec('lmstudio/qwen')).toMatchObject({ baseURL: 'http://127.0.0.1:1234/v1', keyRequired: false });
    expect(parseModelSpec('vllm/Qwen/Qwen2.5-7B')).toMatchObject({ model: 'Qwen/Qwen2.5-7B', baseURL: 'http://127.0.0.1:8000/v1' });
    expect(parseModelSpec('openrouter/anthropic/claude-3.5-haiku')).toMatchObject({
      provider: 'openrouter',
      model: 'anthropic/claude-3.5-haiku',
      baseURL: 'https://openrouter.ai/api/v1',
      keyEnv: 'OPENROUTER_API_KEY',
    });
  });

  test('object spec: url overrides (trailing slash trimmed), params copied, apiKeyEnv makes a key required', () => {
    const r = parseModelSpec({
      model: 'ollama/llama3',
      url: 'http://10.0.0.5:11434/v1/',
      params: { temperature: 0 },
      apiKeyEnv: 'OLLAMA_API_KEY',
    });
    expect(r.baseURL).toBe('http://10.0.0.5:11434/v1');
    expect(r.params).toEqual({ temperature: 0 });
    expect(r).toMatchObject({ keyEnv: 'OLLAMA_API_KEY', keyRequired: true });
  });

  test('apiKeyEnv names only a provider key variable or one ending in _API_KEY, in specs, profiles and settings alike', () => {
    for (const preset of Object.values(PRESETS) as { keyEnv?: string; altKeyEnvs?: readonly string[] }[])
      for (const name of [preset.keyEnv, ...(preset.altKeyEnvs ?? [])]) if (name) expect(isAllowedKeyEnv(name), name).toBe(true);
    expect(isAllowedKeyEnv('HF_TOKEN')).toBe(true);
    expect(isAllowedKeyEnv('MY_PROXY_API_KEY')).toBe(true);
    for (const name of ['HOME', 'PATH', 'AWS_SECRET_ACCESS_KEY', 'REDIS_PASSWORD', 'OPENAI_API_KEY_FILE', 'api_key', 'X_API_KEY_2'])
      expect(isAllowedKeyEnv(name), name).toBe(false);
    expect(() => parseModelSpec({ model: 'openai/gpt-4o', url: 'http://evil.example/v1', apiKeyEnv: 'HOME' })).toThrow(
      /apiKeyEnv must name a provider key variable .* or a variable ending in _API_KEY/,
    );
    expect(profileSchema.safeParse({ name: 'Andy', model: { model: 'openai/gpt-4o', apiKeyEnv: 'HOME' } }).success).toBe(false);
    expect(profileSchema.safeParse({ name: 'Andy', embedding: { api: 'openai', apiKeyEnv: 'HOME' } }).success).toBe(false);
    expect(profileSchema.safeParse({ name: 'Andy', code_model: { model: 'openai/gpt-4o', apiKeyEnv: 'ANTHROPIC_API_KEY' } }).success).toBe(
      true,
    );
  });

  test('bare names resolve by anchored rules, as MINDcraft users write them (documented in BARE_MODEL_RULES)', () => {
    const cases: [string, string][] = [
      ['gpt-4o', 'openai/gpt-4o'],
      ['chatgpt-4o-latest', 'openai/chatgpt-4o-latest'],
      ['o1', 'openai/o1'],
      ['o3-mini', 'openai/o3-mini'],
      ['o4-mini', 'openai/o4-mini'],
      ['claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5'],
      ['gemini-2.5-flash', 'google/gemini-2.5-flash'],
      ['grok-3', 'xai/grok-3'],
      ['deepseek-chat', 'deepseek/deepseek-chat'],
      ['mistral-large-latest', 'mistral/mistral-large-latest'],
      ['qwen-max', 'qwen/qwen-max'],
    ];
    for (const [bare, id] of cases) expect(parseModelSpec(bare).id, bare).toBe(id);
    expect(parseModelSpec('gpt-4o')).toMatchObject({ keyEnv: 'OPENAI_API_KEY', model: 'gpt-4o' });
    expect(providerForBareName('my-gpt')).toBeUndefined();
    expect(providerForBareName('o5')).toBeUndefined();
    // MINDcraft's object form: `api` names the provider; its prefix spellings are aliases.
    expect(parseModelSpec({ api: 'openai', model: 'gpt-4o-mini' }).id).toBe('openai/gpt-4o-mini');
    expect(parseModelSpec({ api: 'vllm', model: 'Qwen/Qwen2.5-7B' }).id).toBe('vllm/Qwen/Qwen2.5-7B');
    expect(parseModelSpec('gemini/gemini-2.0-flash').id).toBe('google/gemini-2.0-flash');
    expect(parseModelSpec('groqcloud/llama-3.3-70b').id).toBe('groq/llama-3.3-70b');
    expect(parseModelSpec('local/llama3').id).toBe('ollama/llama3');
    expect(parseModelSpec({ api: 'GroqCloud', model: 'groq/llama-3.3-70b' }).id).toBe('groq/llama-3.3-70b');
  });

  test("every API of MINDcraft has a preset, and the vendors' model-name rules apply (<org>/<model>, glhf's hf:)", () => {
    for (const api of [
      'openai',
      'google',
      'anthropic',
      'xai',
      'deepseek',
      'ollama',
      'qwen',
      'mistral',
      'replicate',
      'groq',
      'huggingface',
      'novita',
      'openrouter',
      'glhf',
      'hyperbolic',
      'vllm',
      'azure',
    ]) {
      expect(PROVIDER_PREFIXES, api).toContain(api);
    }
    expect(parseModelSpec('glhf/meta-llama/Llama-3.3-70B-Instruct')).toMatchObject({
      model: 'hf:meta-llama/Llama-3.3-70B-Instruct',
      keyEnv: 'GHLF_API_KEY',
      altKeyEnvs: ['GLHF_API_KEY'],
    });
    expect(parseModelSpec('glhf/hf:meta-llama/Llama-3.3-70B-Instruct').model).toBe('hf:meta-llama/Llama-3.3-70B-Instruct');
    for (const [spec, rule] of [
      ['huggingface/Llama-3', 'huggingface/<org>/<model>'],
      ['replicate/llama', 'replicate/<owner>/<model>'],
      ['novita/llama', 'novita/<org>/<model>'],
      ['hyperbolic/DeepSeek-V3', 'hyperbolic/<org>/<model>'],
    ]) {
      expect(thrown(() => parseModelSpec(spec!)).message, spec).toContain(`"${rule}"`);
    }
    expect(parseModelSpec('replicate/meta/meta-llama-3-70b-instruct')).toMatchObject({
      baseURL: 'https://openai-proxy.replicate.com/v1',
      keyEnv: 'REPLICATE_API_KEY',
    });
    expect(parseModelSpec('azure/gpt-4o')).toMatchObject({
      client: 'azure',
      baseURL: '',
      keyEnv: 'AZURE_OPENAI_API_KEY',
      altKeyEnvs: ['OPENAI_API_KEY'],
      maxTokensField: 'max_completion_tokens',
    });
    expect(
      parseModelSpec({ api: 'azure', model: 'gpt-4o', url: 'https://res.openai.azure.com/', api_version: '2024-08-01-preview' }),
    ).toMatchObject({ baseURL: 'https://res.openai.azure.com', apiVersion: '2024-08-01-preview' });
    expect(parseModelSpec('vllm/m')).toMatchObject({ keyEnv: 'VLLM_API_KEY', keyRequired: false });
  });

  test('anything else is a config error with the closest valid provider/model spellings', () => {
    for (const spec of ['gtp-4o', 'llama3.1', 'nope/x', 'oracle']) {
      const e = thrown(() => parseModelSpec(spec));
      expect(e.kind).toBe('config');
      expect(e.retryable).toBe(false);
      expect(e.message).toMatch(/(provider one of|valid prefixes): anthropic, openai, .*google.*ollama/);
      expect(e.message).toContain('closest valid spellings');
    }
    expect(thrown(() => parseModelSpec('gtp-4o')).message).toMatch(/unknown model "gtp-4o".*closest valid spellings: "openai\/gpt-4o"/);
    expect(thrown(() => parseModelSpec('llama3.1')).message).toContain('"ollama/llama3.1"');
    expect(thrown(() => parseModelSpec('meta-llama/llama-3.1-8b')).message).toMatch(
      /unknown provider prefix "meta-llama".*"openrouter\/meta-llama\/llama-3.1-8b"/,
    );
    expect(suggestModelIds('claude-sonet')[0]).toMatch(/^anthropic\/claude-sonnet/);
  });

  test('other malformed specs are config errors', () => {
    expect(thrown(() => parseModelSpec('anthropic/')).message).toMatch(/empty model name/);
    expect(thrown(() => parseModelSpec('openrouter/gpt-4o')).message).toMatch(/openrouter\/<vendor>\/<model>/);
    expect(thrown(() => parseModelSpec('')).kind).toBe('config');
    expect(thrown(() => parseModelSpec({ model: 'openai/x', url: 'ftp://host' })).message).toMatch(/url/);
    expect(thrown(() => parseModelSpec({ model: 'openai/x', temprature: 1 } as never)).message).toMatch(/temprature/);
  });
});

describe('ModelSpecSchema', () => {
  test('accepts strings and objects, rejects unknown keys, checks shape only (not prefixes)', () => {
    expect(ModelSpecSchema.safeParse('oracle').success).toBe(true);
    expect(ModelSpecSchema.safeParse({ model: 'openai/gpt-4o', params: { temperature: 1 } }).success).toBe(true);
    expect(ModelSpecSchema.safeParse({ model: 'openai/gpt-4o', extra: 1 }).success).toBe(false);
    expect(ModelSpecSchema.safeParse({ url: 'http://x' }).success).toBe(false);
    expect(ModelSpecSchema.safeParse(42).success).toBe(false);
  });
});

describe('apiKeyStatus / createModel key handling', () => {
  test('reports usability from the given env only', () => {
    expect(apiKeyStatus('anthropic/claude-x', {})).toMatchObject({ usable: false, keyEnv: 'ANTHROPIC_API_KEY' });
    expect(apiKeyStatus('anthropic/claude-x', { ANTHROPIC_API_KEY: '  ' }).usable).toBe(false);
    expect(apiKeyStatus('anthropic/claude-x', { ANTHROPIC_API_KEY: 'k' })).toMatchObject({ usable: true, provider: 'anthropic' });
    expect(apiKeyStatus('openrouter/a/b', { OPENAI_API_KEY: 'k' }).usable).toBe(false);
    expect(apiKeyStatus('ollama/llama3', {})).toMatchObject({ usable: true, keyRequired: false });
    expect(apiKeyStatus({ model: 'vllm/m', apiKeyEnv: 'VLLM_API_KEY' }, {}).usable).toBe(false);
    expect(apiKeyStatus('groq/llama-3.3-70b', { GROQ_API_KEY: 'k' }).usable).toBe(true); // the vendor's own spelling too
    expect(apiKeyStatus('azure/gpt-4o', { AZURE_OPENAI_API_KEY: 'k' })).toMatchObject({
      usable: false,
      reason: expect.stringMatching(/no Azure endpoint/),
    });
    expect(apiKeyStatus('azure/gpt-4o', { OPENAI_API_KEY: 'k', AZURE_OPENAI_ENDPOINT: 'https://r.openai.azure.com' }).usable).toBe(true);
    const bad = apiKeyStatus('nope/x', { ANTHROPIC_API_KEY: 'k' });
    expect(bad.usable).toBe(false);
    expect(!bad.usable && bad.reason).toMatch(/unknown provider prefix/);
  });

  test('createModel throws a clear config error for a missing key or an unknown prefix, without network', () => {
    const e = thrown(() => createModel('anthropic/claude-x', { env: {} }));
    expect(e.kind).toBe('config');
    expect(e.message).toBe('anthropic/claude-x: no API key — set ANTHROPIC_API_KEY in the environment or in keys.json');
    expect(thrown(() => createModel('nosuchvendor/llama', { env: {} })).message).toMatch(/valid prefixes: anthropic, openai/);
    expect(thrown(() => createModel('ollama/x', { env: {}, timeoutMs: 0 })).message).toMatch(/timeoutMs/);
    expect(createModel('ollama/x', { env: {} }).id).toBe('ollama/x');
  });
});

describe('normalizeTurns', () => {
  test('merges same-role runs, fills empty contents, does not mutate input', () => {
    const input = [
      { role: 'user' as const, content: 'a' },
      { role: 'user' as const, content: 'b' },
      { role: 'assistant' as const, content: ' ' },
    ];
    const copy = structuredClone(input);
    expect(normalizeTurns(input)).toEqual([
      { role: 'user', content: 'a\n\nb' },
      { role: 'assistant', content: '(empty)' },
    ]);
    expect(input).toEqual(copy);
    expect(normalizeTurns([])).toHaveLength(1);
  });
});
