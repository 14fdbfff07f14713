/**
 * Modes on the embedded server: one oracle agent started like the real process, the world
 * changed with server commands (lava and fire at its feet, a zombie, a dropped item, a stone
 * pit), and the agent's real reactions checked: where it stands, what died, what it holds,
 * what its model was told.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../../src/agent/agent.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { DEFAULT_MODES } from '../../src/agent/modes/index.ts';
import type { Unstuck } from '../../src/agent/modes/unstuck.ts';
import { type ItemCollecting, TOSS_GRACE_MS } from '../../src/agent/modes/item_collecting.ts';
import { GiveUps } from '../../src/agent/modes/combat.ts';
import { DEFENSE_RANGE } from '../../src/agent/modes/self_defense.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { sleep } from '../../src/util/abort.ts';
import { botCount, give, waitUntil } from '../helpers/world.ts';
import defaultProfile from '../../profiles/defaults/_default.json' with { type: 'json' };
import { itemByName } from '../../src/game/data.ts';

let running: RunningBots;
let agent: Agent;
let bot: Bot;
/** The level the bot stands at on the superflat world. */
let groundY: number;

/** Runs a command as the server console; resolves once it has run. */
async function command(text: string): Promise<void> {
  await running.server!.serv.handleCommand(text);
}

/** The block the bot's feet are in. */
const feet = (): Vec3 => bot.entity.position.floored();

/** Teleports the bot to a fresh spot `dx` blocks east of the spawn and waits for it to land. */
async function moveTo(dx: number): Promise<Vec3> {
  await waitUntil(() => agent.actions.current === undefined, 'the bot to be idle', 20_000);
  const y = groundY;
  await command(`tp ${bot.username} ${dx + 0.5} ${y} 0.5`);
  await waitUntil(() => Math.abs(bot.entity.position.x - (dx + 0.5)) < 0.1 && bot.entity.onGround, `${bot.username} at x=${dx}`);
  return feet();
}

const systemMessages = () =>
  agent.history.filter((t) => t.role === 'user' && t.content.startsWith('SYSTEM: Your action')).map((t) => t.content);

beforeAll(async () => {
  running = await startAgents({
    settings: testSettings({ chat_bot_messages: false }),
    profiles: [profileSchema.parse({ name: 'Andy', model: 'oracle' })],
    port: 0,
    log: (l) => {
      if (process.env.DEBUG_MODES) console.log(l);
    },
  });
  agent = running.agents[0]!;
  bot = agent.bot;
  await waitUntil(() => bot.entity.onGround, 'Andy on the ground');
  groundY = feet().y;
});

afterAll(async () => {
  await running?.close();
});

test('the default switches are those of profiles/defaults/_default.json', () => {
  expect(DEFAULT_MODES).toEqual(defaultProfile.modes);
  expect(agent.modes.toJSON()).toEqual(defaultProfile.modes);
});

test('an idle bot with the default modes does almost no mode work', async () => {
  await waitUntil(() => agent.actions.current === undefined && bot.entity.onGround, 'the bot idle on the ground');
  // The modes learn the bot's cell from 'move' (sent with each position packet, at least once a
  // second); a server correction moves the bot without one. After the next 'move' they and this
  // test agree on where the bot is.
  await once(bot, 'move');
  const before = { ...agent.modes.stats };
  // The block cells the bot's feet enter (a server position correction on a loaded machine can
  // nudge an idle bot over a cell boundary: two modes then look at the new cell, no more).
  let cell = feet().toString();
  let cellChanges = 0;
  const onMove = () => {
    const now = feet().toString();
    if (now !== cell) {
      cell = now;
      cellChanges++;
    }
  };
  bot.on('move', onMove);
  // 100 of the bot's game ticks: 5 s at 20 a second, however long a busy machine takes for them.
  await bot.waitForTicks(100);
  bot.off('move', onMove);
  const events = agent.modes.stats.events - before.events;
  const checks = agent.modes.stats.checks - before.checks;
  console.log(
    `idle 100 ticks, default modes: ${events} events delivered to mode listeners, ${checks} condition checks (${cellChanges} cell changes), 0 block searches (the reference: ${Math.floor(5000 / 300) * 9} mode updates and ${Math.floor(5000 / 300)} findBlocks calls)`,
  );
  // Only mineflayer's once-a-second position heartbeat reaches the modes; it does not change block cell.
  expect(events).toBeGreaterThan(0); // the listeners were live all along
  expect(events).toBeLessThanOrEqual(15 + cellChanges);
  // self_preservation and torch_placing look at a cell the bot enters; nothing else is looked at.
  expect(checks).toBeLessThanOrEqual(2 * cellChanges);
  expect(agent.modes.stats.fired - before.fired).toBe(0);
}, 15_000);

test('self_preservation: lava placed at the feet, then fire: the bot steps out each time', async () => {
  const start = await moveTo(20);
  await command(`setblock ${start.x} ${start.y} ${start.z} lava`);
  await waitUntil(() => bot.blockAt(start)?.name === 'lava', 'lava seen at the feet');
  await waitUntil(
    () => !feet().equals(start) && bot.blockAt(feet())?.name !== 'lava' && agent.actions.current === undefined,
    'out of the lava',
    15_000,
  );
  expect(bot.health).toBeGreaterThan(0);
  expect(bot.blockAt(start)?.name).toBe('lava'); // it moved; the lava did not go away
  await command(`setblock ${start.x} ${start.y} ${start.z} air`);

  const here = feet();
  await command(`setblock ${here.x} ${here.y} ${here.z} fire`);
  await waitUntil(() => bot.blockAt(here)?.name === 'fire', 'fire seen at the feet');
  await waitUntil(() => !feet().equals(here) && agent.actions.current === undefined, 'out of the fire', 15_000);
  expect(bot.blockAt(feet())?.name).not.toBe('fire');
  expect(bot.health).toBeGreaterThan(0);
  await command(`setblock ${here.x} ${here.y} ${here.z} air`);
}, 40_000);

test('self_defense interrupts a running action, kills a zombie, then the model is told', async () => {
  const spot = await moveTo(40);
  await give(running.server!, bot, 'iron_sword', 1);
  // What is tested is self_defense's interrupt, fight and report, not who wins: in one full run on
  // the loaded machine the zombie brought the bot to 1 health and self_preservation ran instead.
  // Regeneration V (1 health every 3 ticks) keeps that out of this test.
  await command(`effect give ${bot.username} regeneration 60 4 true`);
  const action = agent.actions.run('!longWait', (signal) => sleep(60_000, signal).then(() => 'waited'));
  await waitUntil(() => agent.actions.current === '!longWait', 'the action to run');
  let zombieId: number | undefined;
  bot.on('entitySpawn', (e) => {
    if (e.name === 'zombie') zombieId = e.id;
  });
  await command(`summon zombie ${spot.x + 0.5} ${spot.y} ${spot.z + 3.5}`);
  const result = await action;
  expect(result.interrupted).toBe(true);
  expect(result.output).toContain('mode:self_defense');
  expect(agent.modes.acting).toBe('self_defense');
  await waitUntil(() => zombieId !== undefined && !bot.entities[zombieId], 'the zombie to die', 30_000);
  expect(Object.values(running.server!.serv.entities).some((e) => (e as { name?: string }).name === 'zombie')).toBe(false);
  await waitUntil(() => systemMessages().length > 0, 'the interrupt message', 5_000);
  expect(systemMessages().at(-1)).toMatch(
    /^SYSTEM: Your action !longWait was interrupted by mode self_defense: a zombie came within 8 blocks\. Killed the zombie\./,
  );
  expect(bot.heldItem?.name).toBe('iron_sword');
}, 60_000);

test('setMode turns self_defense off (a zombie is then left alone) and back on', async () => {
  const spot = await moveTo(60);
  agent.modes.set('self_defense', false);
  expect(agent.modes.isOn('self_defense')).toBe(false);
  expect(agent.modes.list().find((m) => m.name === 'self_defense')).toMatchObject({ on: false, acting: false });
  expect(agent.modes.toJSON().self_defense).toBe(false);
  const fired = agent.modes.stats.fired;
  let zombieId: number | undefined;
  bot.on('entitySpawn', (e) => {
    if (e.name === 'zombie') zombieId = e.id;
  });
  // self_defense, when on, fights at the first of these events (entitySpawn, entityMoved) in range.
  let movesInRange = 0;
  bot.on('entityMoved', (e) => {
    if (e.id === zombieId && bot.entity.position.distanceTo(e.position) <= DEFENSE_RANGE) movesInRange++;
  });
  await command(`summon zombie ${spot.x + 0.5} ${spot.y} ${spot.z + 3.5}`);
  await waitUntil(() => zombieId !== undefined, 'the zombie to appear');
  await waitUntil(
    () => (bot.entities[zombieId!]?.position.distanceTo(bot.entity.position) ?? Infinity) < 3,
    'the zombie to come close',
    10_000,
  );
  expect(movesInRange).toBeGreaterThan(0);
  expect(bot.entities[zombieId!]).toBeDefined();
  expect(agent.modes.stats.fired).toBe(fired);
  expect(agent.actions.current).toBeUndefined();
  // Switched back on, it looks at once (no event needed) and fights.
  agent.modes.set('self_defense', true);
  expect(agent.modes.isOn('self_defense')).toBe(true);
  await waitUntil(() => !bot.entities[zombieId!], 'the zombie to die once the mode is on', 30_000);
  expect(() => agent.modes.set('flying', true)).toThrow(/^There is no mode "flying"/);
}, 60_000);

test('item_collecting: an idle bot picks up a block that dropped nearby', async () => {
  const spot = await moveTo(80);
  await waitUntil(() => agent.actions.current === undefined, 'idle');
  const before = botCount(bot, 'oak_log');
  const at = spot.offset(4, 0, 2);
  await command(`setblock ${at.x} ${at.y} ${at.z} oak_log`);
  await waitUntil(() => bot.blockAt(at)?.name === 'oak_log', 'the log placed');
  await command(`setblock ${at.x} ${at.y} ${at.z} air destroy`);
  await waitUntil(() => botCount(bot, 'oak_log') === before + 1, 'the log picked up', 15_000);
  expect(bot.entity.position.distanceTo(spot)).toBeGreaterThan(2); // it walked there
}, 30_000);

test('unstuck: an action that pushes into the walls of a pit is interrupted, and the model is told', async () => {
  const spot = await moveTo(100);
  const unstuck = agent.modes.get<Unstuck>('unstuck');
  unstuck.stuckMs = 3_000;
  try {
    await command(`fill ${spot.x - 1} ${spot.y} ${spot.z - 1} ${spot.x + 1} ${spot.y + 1} ${spot.z + 1} stone`);
    await command(`setblock ${spot.x} ${spot.y} ${spot.z} air`);
    await command(`setblock ${spot.x} ${spot.y + 1} ${spot.z} air`);
    await waitUntil(() => bot.blockAt(spot.offset(1, 0, 0))?.name === 'stone' && bot.blockAt(spot)?.name === 'air', 'the pit built');
    const started = Date.now();
    const result = await agent.actions.run('!walkAway', async (signal) => {
      bot.setControlState('forward', true);
      await sleep(60_000, signal);
      return 'walked';
    });
    expect(result.interrupted).toBe(true);
    expect(result.output).toContain('mode:unstuck');
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(Date.now() - started).toBeLessThan(8_000);
    await waitUntil(
      () => systemMessages().some((m) => m.includes('!walkAway was interrupted by mode unstuck: you made no progress')),
      'the unstuck message',
      15_000,
    );
  } finally {
    unstuck.stuckMs = 20_000;
    await command(`fill ${spot.x - 1} ${spot.y} ${spot.z - 1} ${spot.x + 1} ${spot.y + 1} ${spot.z + 1} air`);
    // Getting out, the pathfinder may have dug and built: let item_collecting finish, then clear.
    await waitUntil(() => agent.actions.current === undefined, 'the bot to be idle', 20_000);
    await command('kill @e[type=item]');
  }
}, 40_000);

test('item_collecting leaves a thrown item alone for the hand-over grace, then collects it', async () => {
  const spot = await moveTo(120);
  await give(running.server!, bot, 'stick', 1);
  await bot.look(0, 0, true);
  const fired = agent.modes.stats.fired;
  const checks = agent.modes.stats.checks;
  let itemId: number | undefined;
  bot.on('entitySpawn', (e) => {
    if (e.name === 'item') itemId = e.id;
  });
  // A shorter grace than the default 10 s, so the test does not idle through it.
  const collecting = agent.modes.get<ItemCollecting>('item_collecting');
  collecting.graceMs = 5_000;
  const thrownAt = Date.now();
  await bot.toss(itemByName(bot.registry, 'stick').id, null, 1);
  await waitUntil(() => itemId !== undefined, 'the thrown item to appear');
  // item_collecting's own entitySpawn listener ran before the test's and weighed the item.
  expect(agent.modes.stats.checks).toBeGreaterThan(checks);
  // It lands (as the server and the bot see it) and is still there, left alone.
  const onServer = running.server!.serv.entities[itemId!]!;
  await waitUntil(() => onServer.velocity.x === 0 && onServer.velocity.y === 0 && onServer.velocity.z === 0, 'the stick to land');
  await waitUntil(
    () => (bot.entities[itemId!]?.position.distanceTo(onServer.position) ?? Infinity) < 0.01,
    'the bot to see where it landed',
  );
  expect(bot.entities[itemId!]!.position.distanceTo(bot.entity.position)).toBeGreaterThan(1.5);
  expect(botCount(bot, 'stick')).toBe(0);
  expect(agent.modes.stats.fired).toBe(fired);
  expect(bot.entity.position.distanceTo(spot.offset(0.5, 0, 0.5))).toBeLessThan(0.5);
  await waitUntil(() => botCount(bot, 'stick') === 1, 'the stick collected after the grace', 15_000);
  expect(Date.now() - thrownAt).toBeGreaterThanOrEqual(collecting.graceMs);
  collecting.graceMs = TOSS_GRACE_MS;
}, 40_000);

test('item_collecting does not interrupt a command; the item is collected once the bot is idle', async () => {
  const spot = await moveTo(140);
  const before = botCount(bot, 'oak_log');
  let finish!: () => void;
  const action = agent.actions.run(
    '!craftRecipe',
    (signal) =>
      new Promise<string>((resolve, reject) => {
        finish = () => resolve('crafted');
        signal.addEventListener('abort', () => reject(signal.reason));
      }),
  );
  const at = spot.offset(3, 0, -2);
  await command(`setblock ${at.x} ${at.y} ${at.z} oak_log`);
  await waitUntil(() => bot.blockAt(at)?.name === 'oak_log', 'the log placed');
  let dropped = false;
  bot.on('entitySpawn', (e) => {
    if (e.name === 'item') dropped = true;
  });
  await command(`setblock ${at.x} ${at.y} ${at.z} air destroy`);
  // item_collecting's entitySpawn listener (registered before the test's) has seen the drop.
  await waitUntil(() => dropped, 'the bot to see the log drop');
  expect(agent.actions.current).toBe('!craftRecipe');
  expect(botCount(bot, 'oak_log')).toBe(before);
  finish();
  expect((await action).ok).toBe(true);
  await waitUntil(() => botCount(bot, 'oak_log') === before + 1, 'the log collected once idle', 10_000);
}, 30_000);

test('a mob that got away or outlasted the fight is left alone; a cancelled fight says nothing about it', async () => {
  const zombie = { id: 7, isValid: true } as unknown as import('prismarine-entity').Entity;
  const fakeBot = { entities: { 7: zombie } } as unknown as Bot;
  const cancelled = new AbortController();
  cancelled.abort('interrupted by mode:self_preservation');
  const givenUp = new GiveUps();
  await expect(givenUp.guard(fakeBot, zombie, cancelled.signal, () => Promise.reject(new Error('aborted')))).rejects.toThrow();
  expect(givenUp.has(zombie)).toBe(false);
  const timedOut = AbortSignal.timeout(1);
  if (!timedOut.aborted) await once(timedOut, 'abort');
  await expect(givenUp.guard(fakeBot, zombie, timedOut, () => Promise.reject(new Error('timeout')))).rejects.toThrow();
  expect(givenUp.has(zombie)).toBe(true);
  const other = new GiveUps();
  expect(await other.guard(fakeBot, zombie, new AbortController().signal, async () => 'The zombie got away.')).toBe('The zombie got away.');
  expect(other.has(zombie)).toBe(true);
  const dead = new GiveUps();
  await dead.guard({ entities: {} } as unknown as Bot, zombie, new AbortController().signal, async () => 'Killed the zombie.');
  expect(dead.has(zombie)).toBe(false);
});
