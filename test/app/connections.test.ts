/**
 * Connections that recover, on the embedded server with a real client acting as a person
 * (Steve): `/kick Andy`, a server restarted under the bots on the same port, and a server gone
 * for good. Andy runs the offline oracle: a player's whispered command is answered without a model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { NO_BOT_KEY_NOTICE } from '../../src/app/bot-key.ts';
import { ConfigError, profileSchema, settingsSchema } from '../../src/settings/index.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { connectBot, startTestServer, waitUntil } from '../helpers/world.ts';

const botsDir = mkdtempSync(path.join(tmpdir(), 'connections-'));
const lines: string[] = [];
const whispers: string[] = [];
let server: EmbeddedServer;
let running: RunningBots;
let steve: Bot | undefined;

const andy = () => running.agents[0]!;
const session = () => running.sessions[0]!;
const settings = (s: EmbeddedServer, more: Record<string, unknown> = {}) =>
  settingsSchema.parse({
    server: 'external',
    host: s.host,
    port: s.port,
    minecraft_version: s.version,
    goal_idle_ms: 600_000,
    reconnect_attempts: 4,
    reconnect_delay_ms: 200,
    reconnect_max_delay_ms: 1_000,
    ...more,
  });

/** Steve joins (again) and records what Andy whispers to him. */
async function joinSteve(): Promise<Bot> {
  steve?.quit();
  const bot = await connectBot(server, 'Steve');
  bot.on('whisper', (from, text) => {
    whispers.push(`${from}: ${text}`);
  });
  steve = bot;
  return bot;
}

/** Steve whispers `!stats` and waits for Andy's answer. */
async function andyAnswers(): Promise<void> {
  whispers.length = 0;
  steve!.whisper('Andy', '!stats');
  await waitUntil(() => whispers.some((w) => w.startsWith('Andy: ') && /health/i.test(w)), 'Andy answers a whisper', 15_000);
}

beforeAll(async () => {
  server = await startTestServer();
  running = await startAgents({
    settings: settings(server),
    profiles: [profileSchema.parse({ name: 'Andy' })],
    botsDir,
    log: (l) => lines.push(l),
  });
  await joinSteve();
});

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await server?.close();
  rmSync(botsDir, { recursive: true, force: true });
});

test('with no bot_key, bots of this process work and one start-up line says how to find bots elsewhere', async () => {
  expect(lines).toContain(NO_BOT_KEY_NOTICE);
  await andyAnswers();
});

test('the whisper transport without a key is refused at start-up, before any bot joins', async () => {
  await expect(
    startAgents({
      settings: settings(server, { bot_transport: 'whisper' }),
      profiles: [profileSchema.parse({ name: 'Jill' })],
      botsDir,
      log: () => {},
    }),
  ).rejects.toThrow(ConfigError);
});

test('/kick Andy: the reason is logged, Andy is back within the backoff, answers a whisper, and keeps his goal, modes and memory', async () => {
  const agent = andy();
  agent.setGoal('collect ten oak logs');
  agent.modes.set('hunting', false);
  const turns = agent.history.length;
  const oldBot = session().current;
  steve!.chat('/kick Andy Too much chatter');
  await waitUntil(
    () => lines.some((l) => /^Andy was kicked: .*Too much chatter.*Rejoining .* in 200 ms \(attempt 1 of 4\)/.test(l)),
    'the kick is logged with its reason',
  );
  await waitUntil(() => session().online && session().current !== oldBot, 'Andy rejoins', 10_000);
  expect(lines.some((l) => /^Andy is back on /.test(l))).toBe(true);
  await waitUntil(() => !!steve!.players.Andy?.entity, 'Steve sees Andy again');
  await andyAnswers();
  // The same agent: goal, mode switches and history survived; the handle reaches the new bot.
  expect(running.agents[0]).toBe(agent);
  expect(agent.selfPrompter.goal).toBe('collect ten oak logs');
  expect(agent.selfPrompter.state).not.toBe('stopped');
  expect(agent.modes.isOn('hunting')).toBe(false);
  expect(agent.history.length).toBeGreaterThanOrEqual(turns);
  expect(agent.bot.entity).toBe(session().current.entity);
});

test('kicks in a row, each rejoined: the count of attempts starts again at each rejoin, so Andy is never given up', async () => {
  // Twice the budget of 4 attempts: with a count kept across rejoins, the fifth kick disabled him.
  for (let kick = 1; kick <= 8; kick++) {
    const before = session().current;
    const logged = lines.length;
    steve!.chat(`/kick Andy kick ${kick}`);
    await waitUntil(() => session().online && session().current !== before, `Andy rejoins after kick ${kick}`, 15_000);
    expect(lines.slice(logged)).toContainEqual(
      expect.stringMatching(new RegExp(`^Andy was kicked: kick ${kick}\\. Rejoining .*\\(attempt 1 of 4\\)`)),
    );
  }
  expect(session().state).toBe('online');
  expect(lines.some((l) => /stays offline/.test(l))).toBe(false);
  await waitUntil(() => !!steve!.players.Andy?.entity, 'Steve sees Andy again');
  await andyAnswers();
});

test('a server restart under the bots: they rejoin the new server on the same port and answer', async () => {
  const { port } = server;
  await server.close();
  await waitUntil(() => session().state === 'reconnecting', 'Andy notices the server is gone');
  expect(lines.some((l) => /^Andy (was kicked: Server closed|lost its connection)/.test(l))).toBe(true);
  server = await startTestServer({ port });
  await waitUntil(() => session().online, 'Andy rejoins the restarted server', 15_000);
  await joinSteve();
  await andyAnswers();
});

test('the server gone for good: each bot gives up after its budget with a clear line, and `lost` settles', async () => {
  // Jill joins fresh: her waits start at the first (Andy's are longer after his short-lived rejoins above).
  const jillLines: string[] = [];
  const jill = await startAgents({
    settings: settings(server),
    profiles: [profileSchema.parse({ name: 'Jill' })],
    botsDir,
    log: (l) => jillLines.push(l),
  });
  try {
    await server.close();
    const [andyLost, jillLost] = await Promise.all([running.lost, jill.lost]);
    expect(session().state).toBe('down');
    expect(jill.sessions[0]!.state).toBe('down');
    for (const error of [andyLost, jillLost])
      expect(error.message).toMatch(/^Every bot lost 127\.0\.0\.1:\d+ and none could rejoin after 4 attempts\. Is the server running\?/);
    expect(jillLines).toContainEqual(
      expect.stringMatching(
        /^Jill was kicked: Server closed, and could not rejoin 127\.0\.0\.1:\d+ in 4 attempts \(last: connection refused\..*\)\. It stays offline; the other bots carry on\.$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^Andy was kicked: Server closed, and could not rejoin .* It stays offline; the other bots carry on\.$/),
    );
    // Each attempt is logged with its wait: 200 ms doubling up to the 1 s cap.
    const waits = jillLines.filter((l) => /^Jill .*\(attempt \d of 4\)/.test(l)).map((l) => /in ([\d.]+ m?s) \(attempt/.exec(l)?.[1]);
    expect(waits).toEqual(['200 ms', '400 ms', '800 ms', '1 s']);
  } finally {
    await jill.close();
  }
});
