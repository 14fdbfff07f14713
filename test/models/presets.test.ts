/**
 * Every provider preset against a local server speaking that vendor's wire format: the request's
 * path, key header and body (the model name as the vendor names it, the token-cap field), the
 * reply with its reasoning split off, and the vendor's own error bodies reaching the ModelError.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createModel, ModelError, type ModelSpec } from '../../src/models/index.ts';
import { createEmbedder } from '../../src/models/embeddings.ts';
import { PRESET_PREFIXES, PRESETS, type ProviderPrefix } from '../../src/models/presets.ts';
import { presentedApiKey, startFakeProvider } from '../helpers/fake-providers.ts';
import { startFakeVendor, type FakeVendorServer } from '../helpers/fake-vendors.ts';

interface PresetCase {
  prefix: ProviderPrefix;
  /** The model as a profile writes it (the fake's url is added). */
  model: ModelSpec;
  /** The `model` the vendor receives. */
  sent: string;
  /** The id the model gets. */
  id: string;
  /** Path of the chat request on the fake. */
  path: string;
  /** Local servers take no key. */
  keyless?: boolean;
}

const CASES: PresetCase[] = [
  { prefix: 'openai', model: 'gpt-4o-mini', sent: 'gpt-4o-mini', id: 'openai/gpt-4o-mini', path: '/v1/chat/completions' },
  {
    prefix: 'azure',
    model: { api: 'azure', model: 'my-gpt4o', api_version: '2024-08-01-preview' },
    sent: 'my-gpt4o',
    id: 'azure/my-gpt4o',
    path: '/openai/deployments/my-gpt4o/chat/completions',
  },
  {
    prefix: 'google',
    model: 'gemini-2.5-flash',
    sent: 'gemini-2.5-flash',
    id: 'google/gemini-2.5-flash',
    path: '/v1beta/openai/chat/completions',
  },
  { prefix: 'xai', model: 'grok-3-mini', sent: 'grok-3-mini', id: 'xai/grok-3-mini', path: '/v1/chat/completions' },
  {
    prefix: 'deepseek',
    model: 'deepseek-reasoner',
    sent: 'deepseek-reasoner',
    id: 'deepseek/deepseek-reasoner',
    path: '/v1/chat/completions',
  },
  {
    prefix: 'mistral',
    model: 'mistral-large-latest',
    sent: 'mistral-large-latest',
    id: 'mistral/mistral-large-latest',
    path: '/v1/chat/completions',
  },
  { prefix: 'qwen', model: 'qwen-max', sent: 'qwen-max', id: 'qwen/qwen-max', path: '/compatible-mode/v1/chat/completions' },
  {
    prefix: 'groq',
    model: 'groqcloud/llama-3.3-70b-versatile',
    sent: 'llama-3.3-70b-versatile',
    id: 'groq/llama-3.3-70b-versatile',
    path: '/openai/v1/chat/completions',
  },
  {
    prefix: 'openrouter',
    model: 'openrouter/meta-llama/llama-3.1-8b-instruct',
    sent: 'meta-llama/llama-3.1-8b-instruct',
    id: 'openrouter/meta-llama/llama-3.1-8b-instruct',
    path: '/api/v1/chat/completions',
  },
  {
    prefix: 'huggingface',
    model: 'huggingface/meta-llama/Llama-3.1-8B-Instruct',
    sent: 'meta-llama/Llama-3.1-8B-Instruct',
    id: 'huggingface/meta-llama/Llama-3.1-8B-Instruct',
    path: '/v1/chat/completions',
  },
  {
    prefix: 'novita',
    model: 'novita/meta-llama/llama-3.1-8b-instruct',
    sent: 'meta-llama/llama-3.1-8b-instruct',
    id: 'novita/meta-llama/llama-3.1-8b-instruct',
    path: '/v3/openai/chat/completions',
  },
  {
    prefix: 'replicate',
    model: 'replicate/meta/meta-llama-3-70b-instruct',
    sent: 'meta/meta-llama-3-70b-instruct',
    id: 'replicate/meta/meta-llama-3-70b-instruct',
    path: '/v1/chat/completions',
  },
  {
    prefix: 'glhf',
    model: 'glhf/meta-llama/Llama-3.3-70B-Instruct',
    sent: 'hf:meta-llama/Llama-3.3-70B-Instruct',
    id: 'glhf/hf:meta-llama/Llama-3.3-70B-Instruct',
    path: '/api/openai/v1/chat/completions',
  },
  {
    prefix: 'hyperbolic',
    model: 'hyperbolic/deepseek-ai/DeepSeek-V3',
    sent: 'deepseek-ai/DeepSeek-V3',
    id: 'hyperbolic/deepseek-ai/DeepSeek-V3',
    path: '/v1/chat/completions',
  },
  {
    prefix: 'ollama',
    model: 'ollama/llama3.1:8b',
    sent: 'llama3.1:8b',
    id: 'ollama/llama3.1:8b',
    path: '/v1/chat/completions',
    keyless: true,
  },
  {
    prefix: 'vllm',
    model: { api: 'vllm', model: 'Qwen/Qwen2.5-7B-Instruct' },
    sent: 'Qwen/Qwen2.5-7B-Instruct',
    id: 'vllm/Qwen/Qwen2.5-7B-Instruct',
    path: '/v1/chat/completions',
    keyless: true,
  },
  {
    prefix: 'lmstudio',
    model: 'lmstudio/qwen2.5-7b-instruct',
    sent: 'qwen2.5-7b-instruct',
    id: 'lmstudio/qwen2.5-7b-instruct',
    path: '/v1/chat/completions',
    keyless: true,
  },
];

/** The spec of a case pointed at the fake. */
function specAt(c: PresetCase, url: string): ModelSpec {
  return typeof c.model === 'string' ? { model: c.model, url } : { ...c.model, url };
}

function thrown(err: unknown): ModelError {
  expect(err).toBeInstanceOf(ModelError);
  return err as ModelError;
}

let fake: FakeVendorServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

test('the table covers every OpenAI-compatible preset', () => {
  expect(CASES.map((c) => c.prefix).sort()).toEqual(PRESET_PREFIXES.filter((p) => PRESETS[p].family === 'openai').sort());
});

describe.each(CASES)('$prefix', (c) => {
  test('request: vendor path, key header, model name, token cap; reply with reasoning split off', async () => {
    fake = await startFakeVendor(c.prefix, {
      apiKey: c.keyless ? null : 'vendor-key',
      reply: () => '<think>I should check my stats.</think>Hi! !stats',
    });
    const model = createModel(specAt(c, fake.url), { env: fake.env, maxRetries: 0 });
    expect(model.id).toBe(c.id);
    const reasoning: string[] = [];
    const reply = await model.complete({
      system: 'You are a bot.',
      turns: [{ role: 'user', content: 'steve: hi' }],
      maxTokens: 20,
      onReasoning: (r) => reasoning.push(r),
    });
    expect(reply).toBe('Hi! !stats');
    expect(reasoning).toEqual(['I should check my stats.']);
    const r = fake.requests.at(-1)!;
    expect(r.path).toBe(c.path);
    if (c.keyless) expect(r.key).toBe('no-key');
    else expect(r.key).toBe('vendor-key');
    if (c.prefix === 'azure') {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.query.get('api-version')).toBe('2024-08-01-preview');
    }
    expect(r.body.model).toBe(c.sent);
    expect(r.body[PRESETS[c.prefix].maxTokensField]).toBe(20);
    expect(r.body.messages[0]).toEqual({ role: 'system', content: 'You are a bot.' });
    const raw = await model.respond!({ system: '', turns: [] });
    expect(raw).toMatchObject({
      text: 'Hi! !stats',
      reasoning: 'I should check my stats.',
      rawText: '<think>I should check my stats.</think>Hi! !stats',
    });
  });

  test("errors: the vendor's own error body reaches the message, classified by status", async () => {
    fake = await startFakeVendor(c.prefix, {
      apiKey: c.keyless ? null : 'vendor-key',
      fail: (r) =>
        r.body?.model === 'missing' || r.path.includes('/missing/')
          ? { status: 404, message: 'The model `missing` does not exist.' }
          : r.body?.messages?.[0]?.content === 'slow down'
            ? { status: 429, message: 'Rate limit reached for requests' }
            : undefined,
    });
    const spec = specAt(c, fake.url);
    const model = createModel(spec, { env: fake.env, maxRetries: 0 });
    const limited = thrown(await model.complete({ system: 'slow down', turns: [] }).catch((e: unknown) => e));
    expect(limited.kind).toBe('rate_limit');
    expect(limited.message).toContain('Rate limit reached for requests');
    const name =
      c.prefix === 'glhf'
        ? 'hf:x/missing'
        : c.prefix === 'openrouter' ||
            c.prefix === 'huggingface' ||
            c.prefix === 'novita' ||
            c.prefix === 'replicate' ||
            c.prefix === 'hyperbolic'
          ? 'x/missing'
          : 'missing';
    const missing = createModel(
      typeof spec === 'string' ? spec : { ...spec, model: typeof c.model === 'string' ? `${c.prefix}/${name}` : name },
      { env: fake.env, maxRetries: 0 },
    );
    if (c.prefix !== 'glhf' && !name.includes('/')) {
      const notFound = thrown(await missing.complete({ system: '', turns: [] }).catch((e: unknown) => e));
      expect(notFound.kind).toBe('not_found');
      expect(notFound.message).toContain('does not exist');
    }
    if (!c.keyless) {
      const keyEnv = PRESETS[c.prefix].keyEnv!;
      const wrong = createModel(spec, { env: { [keyEnv]: 'wrong-key' }, maxRetries: 0 });
      const auth = thrown(await wrong.complete({ system: '', turns: [] }).catch((e: unknown) => e));
      expect(auth.kind).toBe('auth');
      expect(auth.message).toContain('Incorrect API key provided.');
      expect(auth.message).toContain(keyEnv);
    }
  });
});

describe('anthropic', () => {
  test('bare claude-* name, the key, reasoning split off the text; the Anthropic error body reaches the message', async () => {
    const server = await startFakeProvider('anthropic', {
      apiKey: 'ant-key',
      replies: ['<think>Wood first.</think>On it! !collectBlocks("oak_log", 3)', { status: 401, message: 'invalid x-api-key' }],
    });
    try {
      const model = createModel({ model: 'claude-fake-1', url: server.url }, { env: { ANTHROPIC_API_KEY: 'ant-key' }, maxRetries: 0 });
      expect(model.id).toBe('anthropic/claude-fake-1');
      const reasoning: string[] = [];
      await expect(model.complete({ system: 's', turns: [], onReasoning: (r) => reasoning.push(r) })).resolves.toBe(
        'On it! !collectBlocks("oak_log", 3)',
      );
      expect(reasoning).toEqual(['Wood first.']);
      expect(server.requests[0]!.path).toBe('/v1/messages');
      expect(presentedApiKey(server.requests[0]!)).toBe('ant-key');
      expect(server.requests[0]!.body.model).toBe('claude-fake-1');
      const auth = thrown(await model.complete({ system: 's', turns: [] }).catch((e: unknown) => e));
      expect(auth.kind).toBe('auth');
      expect(auth.message).toMatch(/invalid x-api-key.*ANTHROPIC_API_KEY/);
    } finally {
      await server.close();
    }
  });
});

describe('other readings of a reply', () => {
  test("DeepSeek's reasoning_content field is kept apart too", async () => {
    fake = await startFakeVendor('deepseek', {
      reply: () => 'Sure. !inventory',
      messageExtra: { reasoning_content: 'Check the inventory.' },
    });
    const model = createModel({ model: 'deepseek-reasoner', url: fake.url }, { env: fake.env });
    await expect(model.respond!({ system: '', turns: [] })).resolves.toMatchObject({
      text: 'Sure. !inventory',
      reasoning: 'Check the inventory.',
    });
  });

  test('Azure without a url reads AZURE_OPENAI_ENDPOINT and OPENAI_API_VERSION; OPENAI_API_KEY stands in for its key', async () => {
    fake = await startFakeVendor('azure', { reply: () => 'ok' });
    const model = createModel('azure/chat-deploy', {
      env: { AZURE_OPENAI_ENDPOINT: fake.url, OPENAI_API_VERSION: '2025-01-01', OPENAI_API_KEY: 'vendor-key' },
    });
    await model.complete({ system: '', turns: [] });
    expect(fake.requests[0]).toMatchObject({ path: '/openai/deployments/chat-deploy/chat/completions', key: 'vendor-key' });
    expect(fake.requests[0]!.query.get('api-version')).toBe('2025-01-01');
    expect(() => createModel('azure/chat-deploy', { env: { AZURE_OPENAI_API_KEY: 'k' } })).toThrow(
      /no Azure endpoint.*AZURE_OPENAI_ENDPOINT/,
    );
  });

  test('vLLM sends VLLM_API_KEY when it is set', async () => {
    fake = await startFakeVendor('vllm', { apiKey: 'served-key' });
    await createModel({ model: 'vllm/m', url: fake.url }, { env: { VLLM_API_KEY: 'served-key' } }).complete({ system: '', turns: [] });
    expect(fake.requests[0]!.key).toBe('served-key');
  });
});

describe('embeddings', () => {
  const withEmbeddings = CASES.filter((c) => (PRESETS[c.prefix] as { embeddings?: unknown }).embeddings);

  test.each(withEmbeddings)('$prefix: POST <base>/embeddings, float vectors in input order, batched at the vendor limit', async (c) => {
    fake = await startFakeVendor(c.prefix, { apiKey: c.keyless ? null : 'vendor-key' });
    const info = (PRESETS[c.prefix] as { embeddings: { defaultModel?: string; batch?: number } }).embeddings;
    const model = info.defaultModel ?? 'embed-model';
    const embedder = createEmbedder(
      { api: c.prefix, ...(info.defaultModel ? {} : { model }), url: fake.url, ...(c.prefix === 'azure' ? { model: 'embed-deploy' } : {}) },
      { env: fake.env },
    )!;
    const texts = Array.from({ length: 23 }, (_, i) => `text ${i}`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(23);
    expect(vectors.every((v) => v.length === 8)).toBe(true);
    const batch = info.batch ?? 256;
    expect(fake.requests).toHaveLength(Math.ceil(23 / batch));
    const r = fake.requests[0]!;
    expect(r.path).toBe(
      c.prefix === 'azure' ? '/openai/deployments/embed-deploy/embeddings' : c.path.replace('/chat/completions', '/embeddings'),
    );
    expect(r.body).toMatchObject({ model: c.prefix === 'azure' ? 'embed-deploy' : model, encoding_format: 'float' });
    expect(r.body.input).toEqual(texts.slice(0, batch));
    const again = await embedder.embed(['text 5']);
    expect(again[0]).toEqual(vectors[5]);
  });

  test('"none" is no embedder; a provider without embeddings or an unknown one is a config error', () => {
    expect(createEmbedder('none')).toBeUndefined();
    expect(() => createEmbedder('anthropic')).toThrow(/anthropic has no embeddings endpoint — use one of openai, azure, google/);
    expect(() => createEmbedder('voyage')).toThrow(/unknown embedding provider "voyage"/);
    expect(() => createEmbedder({ api: 'vllm' }, { env: {} })).toThrow(/name the embedding model/);
    expect(() => createEmbedder('openai', { env: {} })).toThrow(/no API key — set OPENAI_API_KEY in the environment or in keys.json/);
    expect(createEmbedder('openai/text-embedding-3-large', { env: { OPENAI_API_KEY: 'k' } })!.id).toBe('openai/text-embedding-3-large');
    expect(createEmbedder({ api: 'gemini' }, { env: { GEMINI_API_KEY: 'k' } })!.id).toBe('google/gemini-embedding-001');
  });
});
