/**
 * Chests, double chests and barrels (src/server/features/containers.ts) driven through
 * mineflayer's own API (placeBlock, openContainer / openChest, deposit, withdraw, dig) against
 * the embedded server, checked in the bot's view and in the server's block-entity store.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Vec3 } from 'vec3';
import { botCount, connectBot, give, place, serverPlayer, startTestServer, teleport, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { blockEntities } from '../../src/server/services/block-entities.ts';
import { itemById, itemByName } from '../../src/game/data.ts';

type ServerItem = { type: number; count: number } | null;

/** Item counts by name in the server's block entity at `pos` (undefined when there is none). */
function storedItems(server: EmbeddedServer, pos: Vec3): Record<string, number> | undefined {
  const entity = blockEntities(server.serv).get(server.serv.overworld, pos);
  if (!entity) return undefined;
  const out: Record<string, number> = {};
  for (const item of entity.slots as ServerItem[]) {
    if (!item) continue;
    const name = itemById(server.serv.registry, item.type).name;
    out[name] = (out[name] ?? 0) + Number(item.count);
  }
  return out;
}

/** Stack sizes of one item in the server's block entity at `pos`, largest first. */
function storedStacks(server: EmbeddedServer, pos: Vec3, name: string): number[] {
  const id = itemByName(server.serv.registry, name).id;
  const entity = blockEntities(server.serv).get(server.serv.overworld, pos);
  return ((entity?.slots as ServerItem[]) ?? [])
    .filter((i) => i?.type === id)
    .map((i) => Number(i!.count))
    .sort((a, b) => b - a);
}

/** Waits for the server to reach the expected state (mineflayer does not wait for its last click), then asserts it. */
async function eventually<T>(read: () => T, expected: T, what: string): Promise<void> {
  await waitUntil(() => JSON.stringify(read()) === JSON.stringify(expected), what, 3000).catch(() => {});
  expect(read(), what).toEqual(expected);
}

/** The block state the server holds at `pos`. */
async function serverBlock(server: EmbeddedServer, pos: Vec3): Promise<{ name: string; properties: Record<string, unknown> }> {
  const block = await server.serv.overworld.getBlock(pos);
  return { name: block.name, properties: block.getProperties() };
}

describe('containers', () => {
  let server: EmbeddedServer;
  let bot: Bot | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    bot?.quit();
    bot = undefined;
  });
  // Each test works in its own area, offset from the first bot's spawn: spawns are spread over
  // several blocks, so offsets from each bot's own spawn could put two areas on top of each other.
  let firstSpawn: Vec3 | undefined;
  const origin = (b: Bot): Vec3 => (firstSpawn ??= b.entity.position.floored());

  test('a placed chest faces the bot; deposit and withdraw 150 cobblestone across stacks', async () => {
    bot = await connectBot(server, 'Chester');
    const spawn = origin(bot);
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z + 0.5);
    const ground = spawn.offset(2, -1, 0);
    const chest = await place(server, bot, 'chest', ground);
    // The bot stands west of the block and looks east: the chest's front faces it (west).
    expect(chest.getProperties()).toMatchObject({ facing: 'west', type: 'single' });
    expect(await serverBlock(server, chest.position)).toMatchObject({ name: 'chest', properties: { facing: 'west', type: 'single' } });

    const cobble = itemByName(bot.registry, 'cobblestone').id;
    await give(server, bot, 'cobblestone', 150);
    let window = await bot.openContainer(chest);
    expect(window.type).toBe('minecraft:generic_9x3');
    expect(window.inventoryStart).toBe(27);
    await window.deposit(cobble, null, 150);
    expect(window.containerCount(cobble, null)).toBe(150);
    expect(window.count(cobble, null)).toBe(0); // the bot's inventory part of the window
    await eventually(() => storedStacks(server, chest.position, 'cobblestone'), [64, 64, 22], 'server: 150 cobblestone in 3 stacks');
    await window.close();
    expect(botCount(bot, 'cobblestone')).toBe(0);

    // Reopened (openChest is the same call), the contents are still there; take 150 back out.
    window = await bot.openChest(chest);
    expect(window.containerCount(cobble, null)).toBe(150);
    await window.withdraw(cobble, null, 150);
    expect(window.containerCount(cobble, null)).toBe(0);
    await window.close();
    expect(botCount(bot, 'cobblestone')).toBe(150);
    await eventually(() => storedItems(server, chest.position), {}, 'server: chest empty');
  });

  test('two chests side by side form a 54-slot double chest, shared by both halves', async () => {
    bot = await connectBot(server, 'Doubler');
    const spawn = origin(bot);
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z + 6.5);
    const ground = spawn.offset(2, -1, 6);
    const first = await place(server, bot, 'chest', ground);
    const second = await place(server, bot, 'chest', ground.offset(0, 0, 1));
    // Both face west; the new one (south of the first) is the left half, the first the right half.
    await waitUntil(() => bot!.blockAt(first.position)?.getProperties().type === 'right', 'first chest becomes the right half');
    expect(bot.blockAt(second.position)?.getProperties()).toMatchObject({ facing: 'west', type: 'left' });
    expect((await serverBlock(server, first.position)).properties).toMatchObject({ facing: 'west', type: 'right' });

    const dirt = itemByName(bot.registry, 'dirt').id;
    const stone = itemByName(bot.registry, 'stone').id;
    await give(server, bot, 'dirt', 100);
    await give(server, bot, 'stone', 1628);
    let window = await bot.openContainer(bot.blockAt(second.position)!);
    expect(window.type).toBe('minecraft:generic_9x6');
    expect(window.inventoryStart).toBe(54);
    expect(window.slots).toHaveLength(54 + 36);
    await window.deposit(dirt, null, 100);
    await window.close();
    // The right half's 27 slots come first: both stacks landed in the first chest's storage.
    await eventually(() => storedStacks(server, first.position, 'dirt'), [64, 36], 'server: dirt in the right half');

    // Opened from the other half: the same 54 slots.
    window = await bot.openContainer(bot.blockAt(first.position)!);
    expect(window.slots).toHaveLength(90);
    expect(window.containerCount(dirt, null)).toBe(100);
    // 1628 stone = 25 stacks of 64 + 28: slots 2–26 fill the right half, slot 27 is the left half's first.
    await window.deposit(stone, null, 1628);
    expect(window.containerCount(stone, null)).toBe(1628);
    expect(window.slots[27]).toMatchObject({ name: 'stone', count: 28 });
    await window.close();
    await eventually(() => storedItems(server, second.position), { stone: 28 }, 'server: the rest went into the left half');
    expect(storedItems(server, first.position)).toEqual({ dirt: 100, stone: 1600 });
  });

  test('a barrel stores items and opens as a 27-slot container', async () => {
    bot = await connectBot(server, 'Barreler');
    const spawn = origin(bot);
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z - 5.5);
    const barrel = await place(server, bot, 'barrel', spawn.offset(2, -1, -6));
    expect(barrel.getProperties()).toMatchObject({ facing: 'west', open: false });
    const apple = itemByName(bot.registry, 'apple').id;
    await give(server, bot, 'apple', 20);
    const window = await bot.openContainer(barrel);
    expect(window.type).toBe('minecraft:generic_9x3');
    // vanilla shows an open barrel while someone looks into it.
    await waitUntil(() => bot!.blockAt(barrel.position)?.getProperties().open === true, 'barrel shows open');
    await window.deposit(apple, null, 20);
    await window.withdraw(apple, null, 7);
    await window.close();
    expect(botCount(bot, 'apple')).toBe(7);
    await eventually(() => storedItems(server, barrel.position), { apple: 13 }, 'server: 13 apples in the barrel');
    await waitUntil(() => bot!.blockAt(barrel.position)?.getProperties().open === false, 'barrel shows closed');
  });

  test('right-clicking a chest with a slab in hand opens it instead of placing the slab', async () => {
    bot = await connectBot(server, 'Holder');
    const spawn = origin(bot);
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z - 15.5);
    const chest = await place(server, bot, 'chest', spawn.offset(2, -1, -16));
    await give(server, bot, 'oak_slab', 1);
    await bot.equip(itemByName(bot.registry, 'oak_slab').id, 'hand');
    // vanilla useItemOn: the block is used first (not sneaking), so the held slab stays in hand.
    const window = await bot.openContainer(chest);
    expect(window.type).toBe('minecraft:generic_9x3');
    await window.close();
    expect((await serverBlock(server, chest.position.offset(0, 1, 0))).name).toBe('air');
    expect(botCount(bot, 'oak_slab')).toBe(1);
  });

  test('a sneaking bot places its slab on a chest instead of opening it; standing up opens it again', async () => {
    bot = await connectBot(server, 'Sneaker');
    const spawn = origin(bot);
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z + 15.5);
    const chest = await place(server, bot, 'chest', spawn.offset(2, -1, 15));
    await give(server, bot, 'oak_slab', 1);
    await bot.equip(itemByName(bot.registry, 'oak_slab').id, 'hand');
    const player = serverPlayer(server, 'Sneaker');
    let opened = 0;
    bot.on('windowOpen', () => {
      opened++;
    });

    // mineflayer sneaks with entity_action before 1.21.2 and with player_input's shift flag since.
    bot.setControlState('sneak', true);
    await waitUntil(() => player.crouching === true, 'the server sees the bot sneak');
    await bot.placeBlock(chest, new Vec3(0, 1, 0));
    expect(bot.blockAt(chest.position.offset(0, 1, 0))?.name).toBe('oak_slab');
    expect((await serverBlock(server, chest.position.offset(0, 1, 0))).name).toBe('oak_slab');
    expect(botCount(bot, 'oak_slab')).toBe(0);
    expect(opened).toBe(0);

    bot.setControlState('sneak', false);
    await waitUntil(() => player.crouching === false, 'the server sees the bot stand up');
    const window = await bot.openContainer(bot.blockAt(chest.position)!);
    expect(window.type).toBe('minecraft:generic_9x3');
    await window.close();
  });

  test('breaking a chest drops its contents as item entities', async () => {
    bot = await connectBot(server, 'Breaker');
    const spawn = origin(bot);
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z - 10.5);
    const chest = await place(server, bot, 'chest', spawn.offset(2, -1, -11));
    await give(server, bot, 'cobblestone', 40);
    await give(server, bot, 'iron_ingot', 3);
    const window = await bot.openContainer(chest);
    await window.deposit(itemByName(bot.registry, 'cobblestone').id, null, 40);
    await window.deposit(itemByName(bot.registry, 'iron_ingot').id, null, 3);
    await window.close();
    await eventually(() => storedItems(server, chest.position), { cobblestone: 40, iron_ingot: 3 }, 'server: chest filled');

    // Items already lying around the chest (none expected), to count only the new ones.
    const itemsNear = (): Record<string, number> => {
      const out: Record<string, number> = {};
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      for (const e of Object.values(server.serv.entities) as any[]) {
        if (e.itemId === undefined || e.position.distanceTo(chest.position.offset(0.5, 0.5, 0.5)) > 3) continue;
        const name = itemById(server.serv.registry, e.itemId).name;
        out[name] = (out[name] ?? 0) + Number(e.itemCount);
      }
      return out;
    };
    expect(itemsNear()).toEqual({});
    await give(server, bot, 'diamond_axe', 1);
    await bot.equip(itemByName(bot.registry, 'diamond_axe').id, 'hand');
    await bot.dig(bot.blockAt(chest.position)!);
    expect(bot.blockAt(chest.position)?.name).toBe('air');
    await eventually(itemsNear, { chest: 1, cobblestone: 40, iron_ingot: 3 }, 'contents and the chest lie on the ground');
    expect(storedItems(server, chest.position)).toBeUndefined();
  });
});

describe('container persistence', () => {
  let folder: string;
  let server: EmbeddedServer | undefined;
  let bot: Bot | undefined;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'mc-containers-'));
  });
  afterAll(async () => {
    bot?.quit();
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  test('chest contents survive a server restart on the same world folder', async () => {
    server = await startTestServer({ worldFolder: folder });
    bot = await connectBot(server, 'Keeper');
    const spawn = bot.entity.position.floored();
    const chest = await place(server, bot, 'chest', spawn.offset(2, -1, 0));
    await give(server, bot, 'cobblestone', 70);
    const window = await bot.openContainer(chest);
    await window.deposit(itemByName(bot.registry, 'cobblestone').id, null, 70);
    await window.close();
    await eventually(() => storedItems(server!, chest.position), { cobblestone: 70 }, 'server: 70 cobblestone stored');
    bot.quit();
    await server.close();

    server = await startTestServer({ worldFolder: folder });
    expect(storedItems(server, chest.position)).toEqual({ cobblestone: 70 });
    expect(await serverBlock(server, chest.position)).toMatchObject({ name: 'chest', properties: { facing: 'west' } });
    bot = await connectBot(server, 'Keeper');
    const again = bot.blockAt(chest.position);
    expect(again?.name).toBe('chest');
    const reopened = await bot.openContainer(again!);
    expect(reopened.containerCount(itemByName(bot.registry, 'cobblestone').id, null)).toBe(70);
    await reopened.withdraw(itemByName(bot.registry, 'cobblestone').id, null, 70);
    await reopened.close();
    expect(botCount(bot, 'cobblestone')).toBe(70);
  });
});
