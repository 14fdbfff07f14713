import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, createModel, EMPTY_CONVERSATION_PLACEHOLDER } from '../../src/models/index.ts';
import { presentedApiKey, startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { reliabilitySuite } from './reliability-suite.ts';

describe('anthropic: wire format', () => {
  let fake: FakeProviderServer;
  beforeAll(async () => {
    fake = await startFakeProvider('anthropic', { apiKey: 'sk-ant-test' });
  });
  afterAll(async () => {
    await fake.close();
  });

  test('sends model, cacheable system block, alternating turns of text blocks with cache breakpoints and the key; returns the text', async () => {
    fake.enqueue('!goToPlayer("steve", 2)');
    const model = createModel(fake.spec('claude-test'), { env: { ANTHROPIC_API_KEY: 'sk-ant-test' } });
    expect(model.id).toBe('anthropic/claude-test');
    const reply = await model.complete({
      system: 'You are a Minecraft bot.',
      turns: [
        { role: 'assistant', content: 'I spawned.' },
        { role: 'user', content: 'steve: hi' },
        { role: 'user', content: 'alex: come here' },
        { role: 'assistant', content: 'On my way' },
        { role: 'assistant', content: '' },
      ],
    });
    expect(reply).toBe('!goToPlayer("steve", 2)');

    const r = fake.requests.at(-1)!;
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/v1/messages');
    expect(presentedApiKey(r)).toBe('sk-ant-test');
    expect(r.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.body.model).toBe('claude-test');
    expect(r.body.max_tokens).toBe(ANTHROPIC_DEFAULT_MAX_TOKENS);
    expect(r.body.stream).toBeUndefined();
    expect(r.body.system).toEqual([{ type: 'text', text: 'You are a Minecraft bot.', cache_control: { type: 'ephemeral' } }]);
    // Starts and ends with user, strictly alternates, nothing empty; each turn a text block of its
    // own (so earlier turns stay byte-identical for the prompt cache), the conversation's last
    // block and the previous user turn's last block marked as cache breakpoints.
    const text = (t: string, cached = false) => ({ type: 'text', text: t, ...(cached ? { cache_control: { type: 'ephemeral' } } : {}) });
    expect(r.body.messages).toEqual([
      { role: 'user', content: [text('(conversation start)')] },
      { role: 'assistant', content: [text('I spawned.')] },
      { role: 'user', content: [text('steve: hi'), text('alex: come here', true)] },
      { role: 'assistant', content: [text('On my way'), text('(empty)')] },
      { role: 'user', content: [text('(continue)', true)] },
    ]);
  });

  test('empty turn list and empty system still make a valid request', async () => {
    fake.enqueue('hello');
    const model = createModel(fake.spec('claude-test'), { env: fake.env });
    await expect(model.complete({ system: '', turns: [] })).resolves.toBe('hello');
    const body = fake.requests.at(-1)!.body;
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: EMPTY_CONVERSATION_PLACEHOLDER, cache_control: { type: 'ephemeral' } }] },
    ]);
    expect(body).not.toHaveProperty('system');
  });

  test('params pass through; maxTokens overrides params.max_tokens; reserved keys cannot be overridden', async () => {
    fake.enqueue('a', 'b');
    const model = createModel(
      { model: 'anthropic/claude-test', url: fake.url, params: { temperature: 0.2, max_tokens: 77, model: 'evil', stream: true } },
      { env: fake.env },
    );
    await model.complete({ system: 's', turns: [{ role: 'user', content: 'x' }] });
    let body = fake.requests.at(-1)!.body;
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(77);
    expect(body.model).toBe('claude-test');
    expect(body.stream).toBeUndefined();
    await model.complete({ system: 's', turns: [{ role: 'user', content: 'x' }], maxTokens: 12 });
    body = fake.requests.at(-1)!.body;
    expect(body.max_tokens).toBe(12);
  });

  test('joins several text blocks and ignores non-text blocks', async () => {
    // A handler answering a raw multi-block message exercises the parser beyond the helper's one block.
    const { createServer } = await import('node:http');
    const srv = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_1' });
      res.end(
        JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          stop_reason: 'end_turn',
          stop_sequence: null,
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'text', text: 'part one, ' },
            { type: 'text', text: 'part two' },
          ],
          usage: { input_tokens: 1, output_tokens: 2 },
        }),
      );
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (srv.address() as { port: number }).port;
      const model = createModel({ model: 'anthropic/claude-test', url: `http://127.0.0.1:${port}` }, { env: fake.env });
      await expect(model.complete({ system: 's', turns: [] })).resolves.toBe('part one, part two');
    } finally {
      srv.closeAllConnections();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });

  test('a handler sees the parsed call and scripts replies from it', async () => {
    fake.setHandler((call) => `echo: ${call.lastUserMessage} (system ${call.system.length} chars)`);
    try {
      const model = createModel(fake.spec('claude-test'), { env: fake.env });
      await expect(model.complete({ system: 'abc', turns: [{ role: 'user', content: 'ping' }] })).resolves.toBe(
        'echo: ping (system 3 chars)',
      );
    } finally {
      fake.setHandler(undefined);
    }
  });

  test('529 overloaded is retried like a 5xx', async () => {
    const before = fake.requests.length;
    fake.enqueue({ status: 529, headers: { 'retry-after': '0' } }, 'ok now');
    const model = createModel(fake.spec('claude-test'), { env: fake.env, maxRetries: 1 });
    await expect(model.complete({ system: 's', turns: [] })).resolves.toBe('ok now');
    expect(fake.requests.length - before).toBe(2);
  });
});

reliabilitySuite('anthropic', 'anthropic');
