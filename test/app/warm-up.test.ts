/**
 * A fast first reply (src/app/warm-up.ts): once the bots have started, each model has loaded its
 * SDK and opened a connection to its provider, without credentials and without a model call, and
 * the first message is answered over the warmed path.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { createModel } from '../../src/models/index.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, startTestServer, waitUntil } from '../helpers/world.ts';

let server: EmbeddedServer;
let steve: Bot;
let fake: FakeProviderServer;
let running: RunningBots | undefined;
let botsDir: string;
beforeAll(async () => {
  server = await startTestServer();
  steve = await connectBot(server, 'Steve');
  fake = await startFakeProvider('openai', { handler: () => 'Hello Steve.' });
  botsDir = await mkdtemp(path.join(tmpdir(), 'warm-up-'));
}, 30_000);
afterAll(async () => {
  await running?.close();
  steve?.quit();
  await fake?.close();
  await server?.close();
  await rm(botsDir, { recursive: true, force: true });
});

test('two bots on one model: one connection is opened at start-up (a HEAD without the key), no model call; the first whisper is answered', async () => {
  running = await startAgents({
    settings: testSettings({ server: 'external', host: server.host, port: server.port, bot_transport: 'in-process' }),
    profiles: ['Andy', 'Jill'].map((name) => ({
      name,
      model: fake.spec('warm-model', 'openai'),
      persona: '',
      blocked_actions: [],
      cooldown_ms: 0,
      tool_calling: 'text' as const,
    })),
    env: fake.env,
    botsDir,
    log: () => {},
  });
  await waitUntil(() => fake.heads.length > 0, 'the warm-up opened its connection');
  const [head] = fake.heads;
  expect(head).toMatchObject({ method: 'HEAD', path: '/v1' });
  expect(head!.headers.authorization).toBeUndefined();
  const answered = new Promise<string>((resolve) =>
    steve.on('whisper', (from, text) => {
      if (from === 'Andy') resolve(text);
    }),
  );
  steve.whisper('Andy', 'hi');
  expect(await answered).toContain('Hello Steve.');
  // One warm-up per model, not per bot, and no model call but the whisper's.
  expect(fake.heads).toHaveLength(1);
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/chat/completions']);
});

test("an Anthropic model's warm-up opens its connection, and one that cannot connect settles without an error", async () => {
  const anthropic = await startFakeProvider('anthropic');
  try {
    const model = createModel(anthropic.spec('claude-sonnet-4-5'), { env: anthropic.env });
    await model.warmUp!();
    expect(anthropic.heads.map((r) => `${r.method} ${r.path}`)).toEqual(['HEAD /']);
    expect(anthropic.requests).toEqual([]);
  } finally {
    await anthropic.close();
  }
  // Nothing listens there any more.
  const unreachable = createModel(anthropic.spec('claude-sonnet-4-5'), { env: anthropic.env });
  await expect(unreachable.warmUp!()).resolves.toBeUndefined();
});
