/**
 * Furnaces, smokers and blast furnaces (src/server/features/smelting.ts) driven through
 * mineflayer's furnace API (openFurnace, putFuel, putInput, takeOutput, outputItem) against the
 * embedded server, checked in the bot's view and in the server's block entities; and the
 * smelting data table against minecraft-data.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { createRequire } from 'node:module';
import { Vec3 } from 'vec3';
import { botCount, connectBot, countTicks, give, place, startTestServer, teleport, waitUntil } from '../helpers/world.ts';
import { ON_DEFAULT_VERSION } from '../helpers/version.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { blockEntities } from '../../src/server/services/block-entities.ts';
import { smeltingTableFor } from '../../src/game/smelting.ts';
import smeltingData from '../../src/game/data/smelting.json' with { type: 'json' };
import { itemById, itemByName } from '../../src/game/data.ts';
import { SERVER_VERSIONS } from '../../src/game/versions.ts';

const require = createRequire(import.meta.url);

// The table is checked against fixed versions (both of them): once per matrix run is enough.
describe.runIf(ON_DEFAULT_VERSION)('smelting data table', () => {
  // The table is 1.21.4's: every name exists there and in every later version served.
  test.each(SERVER_VERSIONS.filter((v) => v !== '1.21.1'))('every item name exists in minecraft-data %s', (version) => {
    const data = require('minecraft-data')(version);
    const names = new Set<string>();
    for (const list of Object.values(smeltingData.recipes)) {
      for (const r of list) {
        r.input.forEach((n) => names.add(n));
        names.add(r.result);
      }
    }
    for (const f of smeltingData.fuels) {
      f.items.forEach((n) => names.add(n));
      if ('remainder' in f && f.remainder) names.add(f.remainder);
    }
    expect(names.size).toBeGreaterThan(300);
    expect([...names].filter((n) => !data.itemsByName[n])).toEqual([]);
  });

  test('vanilla facts: cooking times, fuel values, recipe types', () => {
    const data = require('minecraft-data')('1.21.4');
    const table = smeltingTableFor(data);
    const id = (n: string): number => data.itemsByName[n].id;
    expect(table.recipes.smelting.get(id('iron_ore'))).toMatchObject({ result: id('iron_ingot'), cookingTime: 200 });
    expect(table.recipes.blasting.get(id('raw_iron'))).toMatchObject({ result: id('iron_ingot'), cookingTime: 100 });
    expect(table.recipes.smoking.get(id('beef'))).toMatchObject({ result: id('cooked_beef'), cookingTime: 100 });
    expect(table.recipes.smoking.get(id('iron_ore'))).toBeUndefined();
    expect(table.recipes.blasting.get(id('beef'))).toBeUndefined();
    expect(table.recipes.smelting.get(id('oak_log'))?.result).toBe(id('charcoal'));
    expect(table.fuels.get(id('coal'))?.burnTicks).toBe(1600);
    expect(table.fuels.get(id('lava_bucket'))).toEqual({ burnTicks: 20000, remainder: id('bucket') });
    expect(table.fuels.get(id('oak_planks'))?.burnTicks).toBe(300);
    expect(table.fuels.get(id('crimson_planks'))).toBeUndefined();
    // 1.21.1 has no pale oak: the table loads without it.
    const old = require('minecraft-data')('1.21.1');
    expect(smeltingTableFor(old).fuels.get(old.itemsByName.oak_planks.id)?.burnTicks).toBe(300);
  });
});

/** A furnace block entity's slots by name ({} = empty) and its numbers, as the server holds them. */
function serverFurnace(
  server: EmbeddedServer,
  pos: Vec3,
): { slots: ({ name: string; count: number } | null)[]; data: Record<string, number> } {
  const entity = blockEntities(server.serv).get(server.serv.overworld, pos);
  if (!entity) throw new Error(`no block entity at ${pos}`);
  return {
    slots: entity.slots.map((i) => (i ? { name: itemById(server.serv.registry, i.type).name, count: Number(i.count) } : null)),
    data: entity.data,
  };
}

describe('smelting', () => {
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

  test('furnace: iron_ore + coal -> iron_ingot in 200 ticks, also with the window closed', async () => {
    bot = await connectBot(server, 'Smelter');
    const spawn = bot.entity.position.floored();
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z + 0.5);
    const block = await place(server, bot, 'furnace', spawn.offset(2, -1, 0));
    expect(block.getProperties()).toMatchObject({ facing: 'west', lit: false });
    await give(server, bot, 'iron_ore', 2);
    await give(server, bot, 'coal', 3);
    await give(server, bot, 'dirt', 5);

    const furnace = await bot.openFurnace(block);
    expect(furnace.type).toBe('minecraft:furnace');
    // Dirt is no fuel: the fuel slot refuses it (the server puts it back).
    await furnace.putFuel(itemByName(bot.registry, 'dirt').id, null, 1).catch(() => {});
    await waitUntil(
      () => furnace.fuelItem() === null && furnace.count(itemByName(bot!.registry, 'dirt').id, null) === 5,
      'the server corrects the bot: fuel slot empty, dirt back in the inventory',
    );
    expect(serverFurnace(server, block.position).slots[1]).toBeNull();
    await furnace.putFuel(itemByName(bot.registry, 'coal').id, null, 1);
    await furnace.putInput(itemByName(bot.registry, 'iron_ore').id, null, 2);
    await waitUntil(() => (furnace.progress ?? 0) > 0, 'the bot sees cooking progress', {
      timeoutMs: 5000,
      state: () => ({
        seen: furnace.progress,
        slots: [furnace.inputItem(), furnace.fuelItem()],
        server: serverFurnace(server, block.position),
      }),
    });
    // mineflayer's furnace fields from the window properties (not in its typings).
    const seen = furnace as unknown as { totalProgress: number; totalFuel: number };
    expect(seen.totalProgress).toBe(200);
    expect(seen.totalFuel).toBe(1600);
    await waitUntil(() => bot!.blockAt(block.position)?.getProperties().lit === true, 'the bot sees the furnace lit');
    const started = serverFurnace(server, block.position);
    expect(started.slots).toEqual([{ name: 'iron_ore', count: 2 }, null, null]);
    expect(started.data.cookingProgress).toBeGreaterThan(0);
    await furnace.close();

    // Nobody watches: it keeps smelting (200 ticks = 10 s per item at 20 ticks/s).
    await waitUntil(() => serverFurnace(server, block.position).slots[2]?.count === 1, 'server: first iron_ingot', 15_000);
    expect(serverFurnace(server, block.position).slots).toEqual([{ name: 'iron_ore', count: 1 }, null, { name: 'iron_ingot', count: 1 }]);

    const again = await bot.openFurnace(bot.blockAt(block.position)!);
    expect(again.outputItem()).toMatchObject({ name: 'iron_ingot', count: 1 });
    expect(again.inputItem()).toMatchObject({ name: 'iron_ore', count: 1 });
    await again.takeOutput();
    await again.close();
    expect(botCount(bot, 'iron_ingot')).toBe(1);
    expect(botCount(bot, 'coal')).toBe(2);
    await waitUntil(() => serverFurnace(server, block.position).slots[2] === null, 'server: output taken');
  });

  test('smoker cooks beef but not iron_ore; blast furnace smelts raw_iron; both in 100 ticks', async () => {
    bot = await connectBot(server, 'Cook');
    // 30 blocks east of this bot's spawn: clear of the first test's furnace, whose position came
    // from another bot's spawn (players spawn anywhere within the spawnRadius of 10 blocks).
    const spawn = bot.entity.position.floored().offset(30, 0, 0);
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z + 6.5);
    const base = spawn.offset(2, -1, 6);
    const beefSmoker = await place(server, bot, 'smoker', base);
    const oreSmoker = await place(server, bot, 'smoker', base.offset(0, 0, 1));
    const blast = await place(server, bot, 'blast_furnace', base.offset(0, 0, -1));
    // Placed through the mechanics plugin's right-click handling: their fronts face the bot (west).
    for (const b of [beefSmoker, oreSmoker, blast]) expect(b.getProperties()).toMatchObject({ facing: 'west', lit: false });
    await give(server, bot, 'coal', 3);
    await give(server, bot, 'beef', 1);
    await give(server, bot, 'iron_ore', 1);
    await give(server, bot, 'raw_iron', 1);
    const id = (n: string): number => itemByName(bot!.registry, n).id;
    const load = async (block: Block, input: string): Promise<void> => {
      const window = await bot!.openFurnace(block);
      expect(window.type).toBe(`minecraft:${block.name}`);
      await window.putFuel(id('coal'), null, 1);
      await window.putInput(id(input), null, 1);
      await window.close();
    };
    await load(beefSmoker, 'beef');
    await load(oreSmoker, 'iron_ore');
    await load(blast, 'raw_iron');
    const clock = countTicks(server);
    await waitUntil(
      () => serverFurnace(server, beefSmoker.position).slots[2] !== null && serverFurnace(server, blast.position).slots[2] !== null,
      'smoker and blast furnace finish',
      20_000,
    );
    clock.stop();
    // 100 ticks; well under the furnace's 200.
    expect(clock.ticks).toBeLessThan(180);
    expect(serverFurnace(server, beefSmoker.position).slots).toEqual([null, null, { name: 'cooked_beef', count: 1 }]);
    expect(serverFurnace(server, blast.position).slots).toEqual([null, null, { name: 'iron_ingot', count: 1 }]);
    // Smokers and blast furnaces burn coal at half its furnace time.
    expect(serverFurnace(server, blast.position).data.litDuration).toBe(800);
    // No smoking recipe for iron ore: the smoker never lights and keeps its coal.
    expect(serverFurnace(server, oreSmoker.position)).toMatchObject({
      slots: [{ name: 'iron_ore', count: 1 }, { name: 'coal', count: 1 }, null],
      data: { litTime: 0, cookingProgress: 0 },
    });
    expect(bot.blockAt(oreSmoker.position)?.getProperties().lit).toBe(false);

    const window = await bot.openFurnace(bot.blockAt(beefSmoker.position)!);
    expect(window.outputItem()).toMatchObject({ name: 'cooked_beef', count: 1 });
    await window.takeOutput();
    await window.close();
    expect(botCount(bot, 'cooked_beef')).toBe(1);
  });
});
