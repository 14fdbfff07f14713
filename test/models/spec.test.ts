import { describe, expect, test } from 'vitest';
import {
  apiKeyStatus, createModel, ModelError, ModelSpecSchema, normalizeTurns, parseModelSpec, PROVIDER_PREFIXES,
} from '../../src/models/index.ts';

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
    expect(PROVIDER_PREFIXES).toEqual(['anthropic', 'openai', 'openrouter', 'ollama', 'lmstudio', 'vllm']);
    expect(parseModelSpec('anthropic/claude-sonnet-4-5')).toMatchObject({
      id: 'anthropic/claude-sonnet-4-5', provider: 'anthropic', family: 'anthropic', model: 'claude-sonnet-4-5',
      baseURL: 'https://api.anthropic.com', keyEnv: 'ANTHROPIC_API_KEY', keyRequired: true,
    });
    expect(parseModelSpec('openai/gpt-4o-mini')).toMatchObject({ family: 'openai', baseURL: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY' });
    expect(parseModelSpec('ollama/llama3.1:8b')).toMatchObject({ model: 'llama3.1:8b', baseURL: 'http://127.0.0.1:11434/v1', keyRequired: false });
    expect(parseModelSpec('lmstudio/qwen')).toMatchObject({ baseURL: 'http://127.0.0.1:1234/v1', keyRequired: false });
    expect(parseModelSpec('vllm/Qwen/Qwen2.5-7B')).toMatchObject({ model: 'Qwen/Qwen2.5-7B', baseURL: 'http://127.0.0.1:8000/v1' });
    expect(parseModelSpec('openrouter/anthropic/claude-3.5-haiku')).toMatchObject({
      provider: 'openrouter', model: 'anthropic/claude-3.5-haiku', baseURL: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY',
    });
  });

  test('object spec: url overrides (trailing slash trimmed), params copied, apiKeyEnv makes a key required', () => {
    const r = parseModelSpec({ model: 'ollama/llama3', url: 'http://10.0.0.5:11434/v1/', params: { temperature: 0 }, apiKeyEnv: 'OLLAMA_KEY' });
    expect(r.baseURL).toBe('http://10.0.0.5:11434/v1');
    expect(r.params).toEqual({ temperature: 0 });
    expect(r).toMatchObject({ keyEnv: 'OLLAMA_KEY', keyRequired: true });
  });

  test('never guesses from the model name: a bare or unknown prefix is a config error listing valid prefixes', () => {
    for (const spec of ['gpt-4o', 'claude-sonnet-4-5', 'gemini/gemini-2.0', 'oracle']) {
      const e = thrown(() => parseModelSpec(spec));
      expect(e.kind).toBe('config');
      expect(e.retryable).toBe(false);
      expect(e.message).toContain('anthropic, openai, openrouter, ollama, lmstudio, vllm');
    }
    expect(thrown(() => parseModelSpec('gemini/gemini-2.0')).message).toMatch(/unknown provider prefix "gemini"/);
    expect(thrown(() => parseModelSpec('gpt-4o')).message).toMatch(/no provider prefix/);
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
    expect(apiKeyStatus({ model: 'vllm/m', apiKeyEnv: 'VLLM_KEY' }, {}).usable).toBe(false);
    const bad = apiKeyStatus('nope/x', { ANTHROPIC_API_KEY: 'k' });
    expect(bad.usable).toBe(false);
    expect(!bad.usable && bad.reason).toMatch(/unknown provider prefix/);
  });

  test('createModel throws a clear config error for a missing key or an unknown prefix, without network', () => {
    const e = thrown(() => createModel('anthropic/claude-x', { env: {} }));
    expect(e.kind).toBe('config');
    expect(e.message).toBe('anthropic/claude-x: no API key — set ANTHROPIC_API_KEY in the environment');
    expect(thrown(() => createModel('mistral/large', { env: {} })).message).toMatch(/valid prefixes: anthropic, openai/);
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
