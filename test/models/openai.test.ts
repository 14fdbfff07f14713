import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createModel, EMPTY_CONVERSATION_PLACEHOLDER, ModelError } from '../../src/models/index.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { reliabilitySuite } from './reliability-suite.ts';

describe('openai-compatible: wire format', () => {
  let fake: FakeProviderServer;
  beforeAll(async () => {
    fake = await startFakeProvider('openai', { apiKey: 'sk-openai-test' });
  });
  afterAll(async () => {
    await fake.close();
  });

  test('openai/: system first, merged turns, bearer key, max_completion_tokens; returns the content', async () => {
    fake.enqueue('!craftRecipe("crafting_table", 1)');
    const model = createModel(fake.spec('gpt-test'), { env: { OPENAI_API_KEY: 'sk-openai-test' } });
    expect(model.id).toBe('openai/gpt-test');
    const reply = await model.complete({
      system: 'You are a Minecraft bot.',
      turns: [
        { role: 'user', content: 'steve: hi' },
        { role: 'user', content: 'steve: make a table' },
        { role: 'assistant', content: 'Sure' },
      ],
      maxTokens: 50,
    });
    expect(reply).toBe('!craftRecipe("crafting_table", 1)');
    const r = fake.requests.at(-1)!;
    expect(r.path).toBe('/v1/chat/completions');
    expect(r.headers.authorization).toBe('Bearer sk-openai-test');
    expect(r.headers['openai-organization']).toBeUndefined();
    expect(r.body.model).toBe('gpt-test');
    expect(r.body.max_completion_tokens).toBe(50);
    expect(r.body).not.toHaveProperty('max_tokens');
    expect(r.body.messages).toEqual([
      { role: 'system', content: 'You are a Minecraft bot.' },
      { role: 'user', content: 'steve: hi\n\nsteve: make a table' },
      { role: 'assistant', content: 'Sure' },
    ]);
  });

  test('empty turn list sends one placeholder user turn; empty system is omitted', async () => {
    fake.enqueue('hi');
    const model = createModel(fake.spec('gpt-test'), { env: fake.env });
    await expect(model.complete({ system: '', turns: [] })).resolves.toBe('hi');
    expect(fake.requests.at(-1)!.body.messages).toEqual([{ role: 'user', content: EMPTY_CONVERSATION_PLACEHOLDER }]);
  });

  test('openrouter/<vendor>/<model>: vendor kept in the model name, OPENROUTER_API_KEY used, params passed', async () => {
    fake.enqueue('from openrouter');
    const model = createModel(
      { model: 'openrouter/meta-llama/llama-3.1-8b-instruct', url: fake.url, params: { temperature: 0.7, top_p: 0.9 } },
      { env: { OPENROUTER_API_KEY: 'sk-openai-test' } },
    );
    expect(model.id).toBe('openrouter/meta-llama/llama-3.1-8b-instruct');
    await expect(model.complete({ system: 's', turns: [], maxTokens: 9 })).resolves.toBe('from openrouter');
    const body = fake.requests.at(-1)!.body;
    expect(body.model).toBe('meta-llama/llama-3.1-8b-instruct');
    expect(body.temperature).toBe(0.7);
    expect(body.top_p).toBe(0.9);
    expect(body.max_tokens).toBe(9);
    expect(body).not.toHaveProperty('max_completion_tokens');
  });

  test('a key set in apiKeyEnv is used instead of the default variable', async () => {
    fake.enqueue('custom key ok');
    const model = createModel(
      { model: 'openai/gpt-test', url: fake.url, apiKeyEnv: 'MY_PROXY_API_KEY' },
      { env: { MY_PROXY_API_KEY: 'sk-openai-test' } },
    );
    await expect(model.complete({ system: 's', turns: [] })).resolves.toBe('custom key ok');
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-openai-test');
  });

  test('200 without choices → ModelError(bad_response)', async () => {
    const { createServer } = await import('node:http');
    const srv = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'model "nope" not found, try pulling it first' } }));
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (srv.address() as { port: number }).port;
      const model = createModel({ model: 'ollama/nope', url: `http://127.0.0.1:${port}/v1` }, { env: {} });
      const err = await model.complete({ system: 's', turns: [] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).kind).toBe('bad_response');
      expect((err as ModelError).message).toContain('try pulling it first');
    } finally {
      srv.closeAllConnections();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});

describe('local OpenAI-compatible servers need no key', () => {
  let local: FakeProviderServer;
  beforeAll(async () => {
    local = await startFakeProvider('openai', { apiKey: null });
  });
  afterAll(async () => {
    await local.close();
  });

  for (const prefix of ['ollama', 'lmstudio', 'vllm'] as const) {
    test(`${prefix}/ with an empty env works and sends max_tokens`, async () => {
      local.enqueue(`hello from ${prefix}`);
      const model = createModel({ model: `${prefix}/llama3.1:8b`, url: local.url }, { env: {} });
      await expect(model.complete({ system: 's', turns: [{ role: 'user', content: 'u' }], maxTokens: 5 })).resolves.toBe(
        `hello from ${prefix}`,
      );
      const r = local.requests.at(-1)!;
      expect(r.body.model).toBe('llama3.1:8b');
      expect(r.body.max_tokens).toBe(5);
    });
  }
});

reliabilitySuite('openai', 'openai');
