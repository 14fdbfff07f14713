/**
 * elbow_room with two idle oracle agents put on one spot: they part, and stay parted, after a few
 * steps each (the reference's bots could trade places forever: both searched for "a block away"
 * from the same spot and found the same block).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { waitUntil } from '../helpers/world.ts';
import { ELBOW_ROOM } from '../../src/agent/modes/elbow_room.ts';

let running: RunningBots;

beforeAll(async () => {
  running = await startAgents({
    settings: testSettings({ chat_bot_messages: false }),
    profiles: ['Andy', 'Jill'].map((name) => profileSchema.parse({ name, model: 'oracle' })),
    port: 0,
    log: () => {},
  });
  for (const agent of running.agents) await waitUntil(() => agent.bot.entity?.onGround === true, `${agent.name} on the ground`);
});

afterAll(async () => {
  await running?.close();
});

test('two idle bots on one spot step apart once each or so, then stay apart', async () => {
  const [andy, jill] = running.agents;
  const apart = () => andy!.bot.entity.position.distanceTo(jill!.bot.entity.position);
  const idle = () => running.agents.every((a) => a.actions.current === undefined);
  for (const round of [0, 1, 2]) {
    await waitUntil(idle, 'both bots idle', 20_000);
    const fired = running.agents.map((a) => a.modes.stats.fired);
    const x = 30 + round * 10;
    for (const agent of running.agents) await running.server!.serv.handleCommand(`tp ${agent.name} ${x}.5 -60 0.5`);
    // On one spot, elbow_room must fire in at least one of them.
    await waitUntil(() => running.agents.some((a, i) => a.modes.stats.fired > fired[i]!), 'a bot steps off the shared spot', 10_000);
    await waitUntil(() => idle() && apart() >= ELBOW_ROOM && andy!.bot.entity.onGround && jill!.bot.entity.onGround, 'the bots apart and idle', { timeoutMs: 20_000, state: () => ({ apart: apart() }) });
    // 40 more game ticks: nobody steps again.
    const settled = running.agents.map((a) => a.modes.stats.fired);
    await andy!.bot.waitForTicks(40);
    expect(running.agents.map((a) => a.modes.stats.fired)).toEqual(settled);
    expect(apart()).toBeGreaterThanOrEqual(ELBOW_ROOM);
    const steps = running.agents.map((a, i) => a.modes.stats.fired - fired[i]!);
    expect(steps.reduce((s, n) => s + n, 0), `steps ${steps}`).toBeLessThanOrEqual(4);
  }
}, 120_000);
