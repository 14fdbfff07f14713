/**
 * Reliability behaviour every provider family must show, run against its fake server:
 * retries (429 with retry-after, 5xx, dropped connections), timeouts, aborts, error translation.
 * Imported by each provider's test file so the families run in separate workers.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createModel, isAbortError, ModelError, type ChatModel } from '../../src/models/index.ts';
import { startFakeProvider, type FakeProtocol, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { waitUntil } from '../helpers/wait.ts';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

const req = { system: 'sys', turns: [{ role: 'user' as const, content: 'hi' }] };

/**
 * Registers the reliability tests for one protocol.
 * @param prefix provider prefix used in the spec (e.g. 'anthropic', 'openai').
 */
export function reliabilitySuite(protocol: FakeProtocol, prefix: string): void {
  describe(`${prefix}: reliability`, () => {
    let fake: FakeProviderServer;
    beforeAll(async () => {
      fake = await startFakeProvider(protocol);
    });
    afterAll(async () => {
      await fake.close();
    });

    const model = (opts: { timeoutMs?: number; maxRetries?: number } = {}): ChatModel =>
      createModel(fake.spec('test-model', prefix), { env: fake.env, ...opts });

    test('429 with retry-after: 0, then success → retried transparently', async () => {
      const before = fake.requests.length;
      fake.enqueue({ status: 429, headers: { 'retry-after': '0' } }, 'after the rate limit');
      await expect(model({ maxRetries: 2 }).complete(req)).resolves.toBe('after the rate limit');
      expect(fake.requests.length - before).toBe(2);
    });

    test('retry-after is honoured (1 s wait, longer than the default first backoff)', async () => {
      const before = fake.requests.length;
      fake.enqueue({ status: 429, headers: { 'retry-after': '1' } }, 'waited');
      await expect(model({ maxRetries: 1 }).complete(req)).resolves.toBe('waited');
      const [first, second] = fake.requests.slice(before);
      expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    });

    test('500 on every attempt → ModelError(server, retryable) after maxRetries', async () => {
      const before = fake.requests.length;
      fake.enqueue(...Array.from({ length: 3 }, () => ({ status: 500, message: 'boom inside', headers: { 'retry-after': '0' } })));
      const err = await rejection(model({ maxRetries: 2 }).complete(req));
      expect(err).toBeInstanceOf(ModelError);
      const e = err as ModelError;
      expect(e.kind).toBe('server');
      expect(e.retryable).toBe(true);
      expect(e.status).toBe(500);
      expect(e.provider).toBe(prefix);
      expect(e.message).toMatch(new RegExp(`^${prefix}/test-model: 500 .*after 2 retries.*boom inside`));
      expect(fake.requests.length - before).toBe(3);
    });

    test('401 → ModelError(auth), not retried, message names the key variable', async () => {
      const before = fake.requests.length;
      fake.enqueue({ status: 401 });
      const err = await rejection(model({ maxRetries: 3 }).complete(req));
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).kind).toBe('auth');
      expect((err as ModelError).retryable).toBe(false);
      expect((err as ModelError).message).toMatch(/401 invalid API key/);
      expect((err as ModelError).message).toMatch(prefix === 'openai' ? /OPENAI_API_KEY/ : /ANTHROPIC_API_KEY/);
      expect(fake.requests.length - before).toBe(1);
    });

    test('400 → ModelError(bad_request) carrying the provider message', async () => {
      fake.enqueue({ status: 400, message: 'messages: field required' });
      const err = await rejection(model().complete(req));
      expect((err as ModelError).kind).toBe('bad_request');
      expect((err as ModelError).message).toContain('messages: field required');
    });

    test('an unexpected status → ModelError(unknown), never a raw SDK error', async () => {
      fake.enqueue({ status: 418, message: 'short and stout' });
      const err = await rejection(model().complete(req));
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).kind).toBe('unknown');
      expect((err as ModelError).status).toBe(418);
      expect((err as ModelError).message).toContain('short and stout');
    });

    test('dropped connection is retried', async () => {
      const before = fake.requests.length;
      fake.enqueue({ drop: true }, 'survived');
      await expect(model({ maxRetries: 1 }).complete(req)).resolves.toBe('survived');
      expect(fake.requests.length - before).toBe(2);
    });

    test('hung request → ModelError(timeout) within the configured bound, each attempt retried', async () => {
      const before = fake.requests.length;
      fake.enqueue({ hang: true }, { hang: true });
      const start = Date.now();
      const err = await rejection(model({ timeoutMs: 300, maxRetries: 1 }).complete(req));
      const elapsed = Date.now() - start;
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).kind).toBe('timeout');
      expect((err as ModelError).retryable).toBe(true);
      expect((err as ModelError).message).toMatch(/300 ms/);
      // 2 attempts × 300 ms + one default backoff (≤ 500 ms) + slack.
      expect(elapsed).toBeGreaterThanOrEqual(550);
      expect(elapsed).toBeLessThan(2500);
      expect(fake.requests.length - before).toBe(2);
    });

    test('AbortSignal cancels a hung request promptly with an AbortError, not a ModelError', async () => {
      const before = fake.requests.length;
      fake.enqueue({ hang: true });
      const controller = new AbortController();
      const start = Date.now();
      // Abort once the request hangs at the provider.
      void fake.waitForRequests(before + 1).then(() => controller.abort());
      const err = await rejection(model({ timeoutMs: 10_000 }).complete({ ...req, signal: controller.signal }));
      expect(Date.now() - start).toBeLessThan(1000);
      expect(isAbortError(err)).toBe(true);
      expect(err).not.toBeInstanceOf(ModelError);
    });

    test('AbortSignal cancels during a retry wait', async () => {
      const before = fake.requests.length;
      fake.enqueue({ status: 429, headers: { 'retry-after': '30' } });
      const controller = new AbortController();
      const start = Date.now();
      // Abort once the 429 has been answered: the client then waits (retry-after: 30 s) to retry.
      void waitUntil(() => fake.requests[before]?.answeredAt !== undefined, 'the 429 answered').then(() => controller.abort());
      const err = await rejection(model({ maxRetries: 2 }).complete({ ...req, signal: controller.signal }));
      expect(Date.now() - start).toBeLessThan(1500);
      expect(isAbortError(err)).toBe(true);
      expect(fake.requests.length - before).toBe(1);
    });

    test('an already-aborted signal rejects without sending anything', async () => {
      const before = fake.requests.length;
      const err = await rejection(model().complete({ ...req, signal: AbortSignal.abort() }));
      expect(isAbortError(err)).toBe(true);
      expect(fake.requests.length).toBe(before);
    });

    test('nothing listening → ModelError(connection) naming the url', async () => {
      const port = await closedPort();
      const url = protocol === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
      const m = createModel({ model: `${prefix}/test-model`, url }, { env: fake.env, maxRetries: 0 });
      const err = await rejection(m.complete(req));
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).kind).toBe('connection');
      expect((err as ModelError).retryable).toBe(true);
      expect((err as ModelError).message).toContain(`127.0.0.1:${port}`);
    });
  });
}
