/**
 * Modes between two idle oracle agents: elbow_room parts two bots put on one spot, and they stay
 * parted after a few steps each (the reference's bots could trade places forever: both searched
 * for "a block away" from the same spot and found the same block); item_collecting leaves a drop
 * at a teammate's feet to the teammate (an idle bot took the harvest of the one gathering it).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Vec3 } from 'vec3';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { botCount, waitUntil } from '../helpers/world.ts';
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

test('a block dropped at one bot\'s feet is picked up by that bot, not by the idle bot 6 blocks away', async () => {
  const [andy, jill] = running.agents;
  const idle = () => running.agents.every((a) => a.actions.current === undefined);
  for (const [agent, x] of [[andy!, 80], [jill!, 86]] as const) await running.server!.serv.handleCommand(`tp ${agent.name} ${x}.5 -60 0.5`);
  await waitUntil(() => idle() && andy!.bot.entity.position.x < 81 && jill!.bot.entity.position.x > 86 && andy!.bot.entity.onGround && jill!.bot.entity.onGround, 'both in place and idle', 20_000);
  const jillFired = jill!.modes.stats.fired;
  const before = { andy: botCount(andy!.bot, 'oak_log'), jill: botCount(jill!.bot, 'oak_log') };
  // One block from Andy, five from Jill: within both item_collecting ranges, at Andy's feet.
  await running.server!.serv.handleCommand('setblock 81 -60 0 oak_log');
  await waitUntil(() => jill!.bot.blockAt(new Vec3(81, -60, 0))?.name === 'oak_log', 'Jill sees the log');
  await running.server!.serv.handleCommand('setblock 81 -60 0 air destroy');
  await waitUntil(() => botCount(andy!.bot, 'oak_log') === before.andy + 1, 'Andy picks the log up', 15_000);
  expect(botCount(jill!.bot, 'oak_log')).toBe(before.jill);
  expect(jill!.modes.stats.fired).toBe(jillFired);
}, 60_000);
