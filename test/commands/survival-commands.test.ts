/**
 * An agent in the default world of `npm start`, a survival world: `!collectBlocks("oak_log", 3)`
 * works as soon as it has joined (the spawn is in a forest with oaks within reach).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { count, run } from './agent-world.ts';

let running: RunningBots;

beforeAll(async () => {
  running = await startAgents({
    settings: testSettings({ chat_bot_messages: false, world: 'survival', seed: 1 }),
    profiles: [profileSchema.parse({ name: 'Andy', model: 'oracle' })],
    port: 0,
    log: () => {},
  });
}, 60_000);

afterAll(async () => {
  await running?.close();
});

test('right after start-up in a survival world, !collectBlocks("oak_log", 3) gets three oak logs', async () => {
  const andy = running.agents[0]!;
  expect(running.server!.world).toBe('survival');
  const out = await run(andy, '!collectBlocks("oak_log", 3)');
  expect(out).toMatch(/oak_log/);
  expect(count(andy, 'oak_log')).toBeGreaterThanOrEqual(3);
  // 30–45 s alone; beside the rest of the suite on two cores, the walks and digs took over 120 s.
}, 240_000);
