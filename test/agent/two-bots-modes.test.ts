/**
 * Modes between two idle oracle agents: elbow_room parts two bots put on one spot, and they stay
 * parted after a few steps each (the reference's bots could trade places forever: both searched
 * for "a block away" from the same spot and found the same block); item_collecting leaves a drop
 * at a teammate's feet to the teammate (an idle bot took the harvest of the one gathering it), and
 * takes at once a throw that comes to rest just out of its reach, nearest to it (a hand-over that
 * fell short).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Vec3 } from 'vec3';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { botCount, roundTrip, serverPlayer, waitUntil } from '../helpers/world.ts';
import { MINE_RADIUS, TOSS_GRACE_MS } from '../../src/agent/modes/item_collecting.ts';
import { throwFromPlayer } from '../../src/server/services/drops.ts';
import { itemClass } from '../../src/server/services/items.ts';
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
    await waitUntil(
      () => idle() && apart() >= ELBOW_ROOM && andy!.bot.entity.onGround && jill!.bot.entity.onGround,
      'the bots apart and idle',
      { timeoutMs: 20_000, state: () => ({ apart: apart() }) },
    );
    // 40 more game ticks: nobody steps again.
    const settled = running.agents.map((a) => a.modes.stats.fired);
    await andy!.bot.waitForTicks(40);
    expect(running.agents.map((a) => a.modes.stats.fired)).toEqual(settled);
    expect(apart()).toBeGreaterThanOrEqual(ELBOW_ROOM);
    const steps = running.agents.map((a, i) => a.modes.stats.fired - fired[i]!);
    expect(
      steps.reduce((s, n) => s + n, 0),
      `steps ${steps}`,
    ).toBeLessThanOrEqual(4);
  }
}, 120_000);

test("a block dropped at one bot's feet is picked up by that bot, not by the idle bot 6 blocks away", async () => {
  const [andy, jill] = running.agents;
  const idle = () => running.agents.every((a) => a.actions.current === undefined);
  for (const [agent, x] of [
    [andy!, 80],
    [jill!, 86],
  ] as const)
    await running.server!.serv.handleCommand(`tp ${agent.name} ${x}.5 -60 0.5`);
  await waitUntil(
    () =>
      idle() &&
      andy!.bot.entity.position.x < 81 &&
      jill!.bot.entity.position.x > 86 &&
      andy!.bot.entity.onGround &&
      jill!.bot.entity.onGround,
    'both in place and idle',
    20_000,
  );
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

test("an item a bot throws that comes to rest just out of the other bot's reach, nearest to it, is picked up by it at once, not after the grace", async () => {
  const [andy, jill] = running.agents;
  const serv = running.server!.serv;
  const stick = () => new (itemClass(serv))(serv.registry.itemsByName.stick!.id, 1);
  const idle = () => running.agents.every((a) => a.actions.current === undefined);
  const place = async (ax: number, jx: number) => {
    await serv.handleCommand(`tp Andy ${ax}.5 -60 0.5`);
    await serv.handleCommand(`tp Jill ${jx} -60 0.5`);
    await waitUntil(
      () =>
        idle() &&
        Math.abs(andy!.bot.entity.position.x - ax - 0.5) < 0.1 &&
        Math.abs(jill!.bot.entity.position.x - jx) < 0.1 &&
        andy!.bot.entity.onGround &&
        jill!.bot.entity.onGround,
      'both in place and idle',
      20_000,
    );
  };
  // Jill throws a stick toward Andy (a vanilla throw from her eyes: it appears at her hands, so
  // it is her throw to every bot), and it comes to rest 1.9 blocks short of him: out of his pickup
  // reach (1.3), nearer him than her. Where a throw lands depends on the server's tick timing, so
  // the stick is put on its resting spot at once rather than left to fly there.
  await place(160, 165.5);
  await jill!.bot.lookAt(andy!.bot.entity.position, true);
  await roundTrip(jill!.bot);
  const before = botCount(andy!.bot, 'stick');
  const thrownAt = Date.now();
  const entity = throwFromPlayer(serv, serverPlayer(running.server!, 'Jill'), stick());
  entity.velocity = new Vec3(0, 0, 0);
  await entity.teleport(new Vec3(160.5 + 1.9, -60, 0.5));
  await waitUntil(() => Math.abs((andy!.bot.entities[entity.id]?.position.x ?? 0) - 162.4) < 0.01, 'Andy sees the stick at rest');
  const fromAndy = Math.hypot(entity.position.x - andy!.bot.entity.position.x, entity.position.z - andy!.bot.entity.position.z);
  expect(fromAndy, "the throw rests out of Andy's reach, within his").toBeGreaterThan(1.3);
  expect(fromAndy).toBeLessThan(MINE_RADIUS);
  await waitUntil(() => botCount(andy!.bot, 'stick') === before + 1, 'Andy picks the stick up', 10_000);
  expect(Date.now() - thrownAt).toBeLessThan(TOSS_GRACE_MS);
  expect(botCount(jill!.bot, 'stick')).toBe(0);
}, 60_000);

test('a block one bot digs whose drop lands nearer the idle bot is left to the one who dug it', async () => {
  const [andy, jill] = running.agents;
  const idle = () => running.agents.every((a) => a.actions.current === undefined);
  // Laid out around where Andy stands, Jill 6 blocks west of him.
  const at = andy!.bot.entity.position.floored();
  await serverPlayer(running.server!, 'Jill').teleport(new Vec3(at.x - 5.5, at.y, at.z + 0.5));
  await waitUntil(
    () => idle() && Math.abs(jill!.bot.entity.position.x - (at.x - 5.5)) < 0.1 && jill!.bot.entity.onGround,
    'Jill in place and both idle',
    {
      timeoutMs: 20_000,
      state: () => [andy!.bot.entity.position, jill!.bot.entity.position, idle()],
    },
  );
  const log = at.offset(-2, 0, 0);
  await running.server!.serv.handleCommand(`setblock ${log.x} ${log.y} ${log.z} oak_log`);
  await waitUntil(() => jill!.bot.blockAt(log)?.name === 'oak_log' && andy!.bot.blockAt(log)?.name === 'oak_log', 'both see the log');
  const before = { andy: botCount(andy!.bot, 'oak_log'), jill: botCount(jill!.bot, 'oak_log') };
  const andyFired = andy!.modes.stats.fired;
  // Jill digs it by hand (3 s, her cracks shown to Andy): its drop lands about 2 blocks from Andy
  // and 3.5 from Jill, within both bots' collecting range and nearer Andy.
  await jill!.bot.dig(jill!.bot.blockAt(log)!, true);
  await waitUntil(() => botCount(jill!.bot, 'oak_log') === before.jill + 1, 'Jill picks her log up', {
    timeoutMs: 15_000,
    state: () => ({ andy: [andy!.bot.entity.position, botCount(andy!.bot, 'oak_log')], jill: jill!.bot.entity.position }),
  });
  expect(botCount(andy!.bot, 'oak_log')).toBe(before.andy);
  expect(andy!.modes.stats.fired).toBe(andyFired);
}, 60_000);
