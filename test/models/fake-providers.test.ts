/** The fake provider helper itself: its defaults must fail loudly, since other suites rely on it. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createModel, ModelError } from '../../src/models/index.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';

describe.each(['anthropic', 'openai'] as const)('fake %s provider', (protocol) => {
  let fake: FakeProviderServer;
  beforeAll(async () => {
    fake = await startFakeProvider(protocol);
  });
  afterAll(async () => {
    await fake.close();
  });

  test('with nothing scripted it answers a non-retryable 500 once', async () => {
    const before = fake.requests.length;
    const err = await createModel(fake.spec(), { env: fake.env, maxRetries: 3 })
      .complete({ system: '', turns: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toContain('fake provider: no reply scripted');
    expect(fake.requests.length - before).toBe(1);
  });

  test('a throwing handler is recorded and surfaces as a 500', async () => {
    fake.setHandler(() => {
      throw new Error('script bug');
    });
    try {
      const err = await createModel(fake.spec(), { env: fake.env })
        .complete({ system: '', turns: [] })
        .catch((e: unknown) => e);
      expect((err as ModelError).message).toContain('script bug');
      expect(fake.handlerErrors.at(-1)).toBeInstanceOf(Error);
    } finally {
      fake.setHandler(undefined);
    }
  });

  test("a wrong key gets the protocol's 401 error body", async () => {
    const res = await fetch(`${fake.url}/${protocol === 'anthropic' ? 'v1/messages' : 'chat/completions'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer wrong', 'x-api-key': 'wrong' },
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    expect(res.status).toBe(401);
    const body = await res.json();
    if (protocol === 'anthropic') expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    else expect(body).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });
  });

  test('queued replies come before the handler; waitForRequests resolves on arrival', async () => {
    fake.setHandler((call) => `handler saw ${call.messages.length} message(s)`);
    fake.enqueue('queued');
    try {
      const model = createModel(fake.spec(), { env: fake.env });
      const n = fake.requests.length;
      const waiting = fake.waitForRequests(n + 2, 2000);
      expect(await model.complete({ system: '', turns: [] })).toBe('queued');
      expect(await model.complete({ system: '', turns: [{ role: 'user', content: 'a' }] })).toBe('handler saw 1 message(s)');
      await waiting;
      await expect(fake.waitForRequests(n + 3, 50)).rejects.toThrow(/requests after 50 ms/);
    } finally {
      fake.setHandler(undefined);
    }
  });
});
