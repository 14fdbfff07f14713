/**
 * Skills that involve a person, tested with a real client that behaves like one: Steve, a plain
 * mineflayer client that stands still unless the test moves him. Andy (an agent on the oracle)
 * hands items over to him, also past a furnace that `!smeltItem` placed between them, and
 * follows him while he stands still for longer than the unstuck mode's timeout.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../../src/agent/agent.ts';
import type { Unstuck } from '../../src/agent/modes/unstuck.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { nameResolver } from '../../src/game/names.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { inventoryCounts } from '../../src/skills/items.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, give, serverPlayer, startTestServer, teleport, waitUntil } from '../helpers/world.ts';
import { outcome } from '../commands/agent-world.ts';
import { blockByName, itemByName } from '../../src/game/data.ts';

let server: EmbeddedServer;
let running: RunningBots;
let steve: Bot;
let andy: Agent;

/** Runs a command the way the product runs a player's or a model's. */
async function run(text: string): Promise<string> {
  const parsed = parseCommand(text, andy.commands, nameResolver(server.version));
  if (parsed.kind !== 'command') throw new Error(`not a command: ${text}`);
  return andy.execute(parsed);
}

const count = (bot: Bot, item: string) => inventoryCounts(bot)[item] ?? 0;

/** Items of one name in a player's main inventory and hotbar, as the server sees it. */
function serverCount(username: string, item: string): number {
  const id = itemByName(server.serv.registry, item).id;
  const slots = serverPlayer(server, username).inventory.slots as ({ type: number; count: number } | null)[];
  return slots.slice(9, 45).reduce((n, s) => n + (s && s.type === id ? Number(s.count) : 0), 0);
}

/** Clears both inventories and the items lying around; puts Andy and Steve `apart` blocks apart on open ground at x = `x`. */
async function scene(x: number, apart: number): Promise<void> {
  // The items lying around go first: with an empty inventory Steve would pick them up again.
  steve.chat('/kill @e[type=item]');
  const lying = () =>
    Object.values(steve.entities)
      .filter((e) => e.name === 'item')
      .map((e) => ({ id: e.id, at: e.position }));
  await waitUntil(() => lying().length === 0, 'no items lying around', { state: lying });
  steve.chat('/clear Steve');
  steve.chat('/clear Andy');
  await waitUntil(() => andy.bot.inventory.items().length === 0 && steve.inventory.items().length === 0, 'both inventories empty');
  const y = Math.floor(steve.entity.position.y);
  andy.bot.chat(`/tp Andy ${x + 0.5} ${y} 0.5`);
  await waitUntil(() => andy.bot.entity.position.distanceTo(new Vec3(x + 0.5, y, 0.5)) < 0.6, 'Andy teleported');
  await teleport(steve, x + apart + 0.5, y, 0.5);
  await andy.bot.waitForChunksToLoad();
}

beforeAll(async () => {
  server = await startTestServer();
  running = await startAgents({
    settings: testSettings({ server: 'external', host: server.host, port: server.port, goal_idle_ms: 600_000 }),
    profiles: [profileSchema.parse({ name: 'Andy' })],
    log: () => {},
  });
  andy = running.agents[0]!;
  steve = await connectBot(server, 'Steve');
});

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await server?.close();
});

describe('!givePlayer to a receiver who stands still', () => {
  test('Andy walks over, throws from where he cannot take the items back, steps away, and Steve gets them all', async () => {
    await scene(0, 7);
    await give(server, andy.bot, 'oak_planks', 5);
    const out = await run('!givePlayer("Steve", "oak_planks", 3)');
    expect(out).toBe('Gave 3 oak_planks to Steve; they picked it up. You have 2 oak_planks left.');
    expect(count(steve, 'oak_planks')).toBe(3);
    expect(count(andy.bot, 'oak_planks')).toBe(2);
    await waitUntil(() => serverCount('Steve', 'oak_planks') === 3 && serverCount('Andy', 'oak_planks') === 2, 'the server agrees');
    expect(andy.bot.entity.position.distanceTo(steve.entity.position)).toBeGreaterThan(3); // stepped back
  }, 30_000);

  test('on a lagging connection (the item entities reach Andy 2.5 s late), the report still counts what Steve picked up', async () => {
    await scene(20, 7);
    await give(server, andy.bot, 'oak_planks', 3);
    // The server's packets about entities other than players reach Andy late, in order.
    const client = serverPlayer(server, 'Andy')._client;
    const write = client.write.bind(client);
    const LATE = new Set([
      'spawn_entity',
      'entity_metadata',
      'collect',
      'entity_destroy',
      'rel_entity_move',
      'entity_velocity',
      'sync_entity_position',
      'entity_teleport',
      'entity_move_look',
    ]);
    client.write = (name: string, params: unknown) => {
      if (LATE.has(name)) setTimeout(() => write(name, params), 2_500);
      else write(name, params);
    };
    // When the server spawned the items, and when Andy then left the spot he threw from.
    let thrown: { at: number; from: Vec3 } | undefined;
    let leftAt = 0;
    // flying-squid announces a new object before it names it: the only objects here are the items.
    const onEntity = (e: { type?: string }) => {
      if (e.type === 'object' && !thrown) thrown = { at: Date.now(), from: andy.bot.entity.position.clone() };
    };
    const onMove = () => {
      if (thrown && !leftAt && andy.bot.entity.position.distanceTo(thrown.from) > 0.5) leftAt = Date.now();
    };
    server.serv.on('newEntity', onEntity);
    andy.bot.on('move', onMove);
    try {
      expect(await run('!givePlayer("Steve", "oak_planks", 3)')).toBe(
        'Gave 3 oak_planks to Steve; they picked it up. You have 0 oak_planks left.',
      );
    } finally {
      client.write = write;
      server.serv.off('newEntity', onEntity);
      andy.bot.off('move', onMove);
    }
    expect(count(steve, 'oak_planks')).toBe(3);
    // He walked off at once, not when the late spawn came (by then the pickup delay was over, and
    // items landing short of Steve were in his own reach).
    expect(leftAt - thrown!.at).toBeGreaterThan(0);
    expect(leftAt - thrown!.at).toBeLessThan(1_000);
  }, 30_000);

  test('after !smeltItem placed a furnace between them, the ingot still reaches Steve', async () => {
    await scene(40, 6);
    await give(server, andy.bot, 'raw_iron', 1);
    await give(server, andy.bot, 'coal', 1);
    await give(server, andy.bot, 'blast_furnace', 1);
    expect(await run('!smeltItem("raw_iron", 1)')).toMatch(/^Smelted 1 raw_iron into iron_ingot in the placed blast_furnace at/);
    // Steve stands still 2 blocks from Andy with the furnace right between them (the reported failure).
    const furnace = andy.bot.findBlock({ matching: blockByName(andy.bot.registry, 'blast_furnace').id, maxDistance: 4 })!.position;
    const feet = andy.bot.entity.position.floored();
    const beyond = new Vec3(2 * furnace.x - feet.x, feet.y, 2 * furnace.z - feet.z);
    expect(beyond.distanceTo(feet)).toBeGreaterThanOrEqual(2);
    await teleport(steve, beyond.x + 0.5, beyond.y, beyond.z + 0.5);
    const out = await run('!givePlayer("Steve", "iron_ingot", 1)');
    expect(out).toBe('Gave 1 iron_ingot to Steve; they picked it up. You have 0 iron_ingot left.');
    expect(count(steve, 'iron_ingot')).toBe(1);
    await waitUntil(() => serverCount('Steve', 'iron_ingot') === 1, 'the server gives Steve the ingot');
  }, 45_000);

  test('when Steve cannot take them (a full inventory), the report says so and where the items really lie', async () => {
    await scene(80, 5);
    await give(server, steve, 'dirt', 64 * 36); // every slot of the main inventory and hotbar
    await give(server, andy.bot, 'oak_planks', 2);
    const handOver = await outcome(andy, '!givePlayer("Steve", "oak_planks", 2)');
    const out = handOver.text;
    const m =
      /^Tossed 2 oak_planks to Steve, but they picked up none within 8 s\. 2 oak_planks lie on the ground at \((-?[\d.]+), (-?[\d.]+), (-?[\d.]+)\), ([\d.]+) blocks from Steve\. You have 0 oak_planks left\.$/.exec(
        out,
      );
    expect(m, out).not.toBeNull();
    const reported = new Vec3(Number(m![1]), Number(m![2]), Number(m![3]));
    // The server's item entity is where the report says (to the report's 0.1 block rounding, plus a little settling).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const items = Object.values(server.serv.entities as Record<string, any>).filter((e) => e.name === 'item' || e.type === 'object');
    expect(items.some((e) => new Vec3(e.position.x, e.position.y, e.position.z).distanceTo(reported) < 0.5)).toBe(true);
    expect(reported.distanceTo(steve.entity.position)).toBeCloseTo(Number(m![4]), 0);
    expect(count(andy.bot, 'oak_planks')).toBe(0); // Andy did not pick his own items back up
    // The same, as data: none picked up (failed), where the stack lies (its block), nothing taken by anyone.
    expect(handOver).toMatchObject({ ok: false, code: 'failed' });
    const { lying, ...rest } = handOver.data!.handOver!;
    expect(rest).toEqual({ to: 'Steve', item: 'oak_planks', count: 2, received: 0, takenBy: {}, takenBack: 0, left: 0 });
    // The block the stack lies in holds the reported point (to the report's 0.1 block rounding).
    for (const axis of ['x', 'y', 'z'] as const) expect(Math.abs(lying![axis] + 0.5 - reported[axis]), axis).toBeLessThanOrEqual(0.55);
  }, 30_000);
});

describe('!followPlayer', () => {
  test('follows a player who stands still past the unstuck timeout, then again when he moves, until stopped', async () => {
    await scene(120, 6);
    const unstuck = andy.modes.get<Unstuck>('unstuck');
    unstuck.stuckMs = 1_500;
    unstuck.tickMs = 250;
    const events: string[] = [];
    const off = andy.actions.subscribe((e) => events.push(`${e.type} ${e.label}`));
    try {
      const following = run('!followPlayer("Steve", 2)');
      await waitUntil(() => andy.bot.entity.position.distanceTo(steve.entity.position) < 3.5, 'Andy reaches Steve', 15_000);
      // Steve stands still: let the unstuck mode look many times past its timeout.
      const ticks = unstuck.ticks;
      await waitUntil(
        () => unstuck.ticks >= ticks + Math.ceil((3 * unstuck.stuckMs) / unstuck.tickMs),
        'three unstuck timeouts pass',
        15_000,
      );
      expect(andy.actions.current).toBe('!followPlayer');
      expect(events).not.toContain('start mode:unstuck');
      // Steve walks off (teleports); Andy follows.
      await teleport(steve, steve.entity.position.x + 8, steve.entity.position.y, steve.entity.position.z);
      await waitUntil(() => andy.bot.entity.position.distanceTo(steve.entity.position) < 3.5, 'Andy catches up', 15_000);
      expect(andy.actions.current).toBe('!followPlayer');
      await andy.stop('stopped by the test');
      expect(await following).toMatch(/stopped/i);
      expect(andy.actions.current).toBeUndefined();
    } finally {
      off();
      unstuck.stuckMs = 20_000;
      unstuck.tickMs = 1_000;
    }
  }, 60_000);
});
