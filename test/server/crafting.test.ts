/**
 * Crafting driven through mineflayer's own API (recipesFor + craft) against the embedded server:
 * the 2x2 player grid and a placed crafting table, checked in the bot's and the server's view.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { botCount, connectBot, give, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import { TEST_VERSION } from '../helpers/version.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { itemByName } from '../../src/game/data.ts';

/** Items of one name in a player's main inventory + hotbar, as the server sees it. */
function serverCount(server: EmbeddedServer, username: string, name: string): number {
  const id = itemByName(server.serv.registry, name).id;
  const slots = serverPlayer(server, username).inventory.slots as ({ type: number; count: number } | null)[];
  return slots.slice(9, 45).reduce((n, item) => n + (item && item.type === id ? Number(item.count) : 0), 0);
}

/** Waits until the server applied the bot's last clicks (mineflayer does not wait for the final one). */
async function expectServerCount(server: EmbeddedServer, username: string, name: string, count: number): Promise<void> {
  await waitUntil(() => serverCount(server, username, name) === count, `server: ${username} has ${count} ${name}`, 3000).catch(() =>
    expect(serverCount(server, username, name), `server count of ${name}`).toBe(count),
  );
}

async function craft(bot: Bot, name: string, count: number, table: ReturnType<Bot['blockAt']> = null): Promise<void> {
  const id = itemByName(bot.registry, name).id;
  const recipes = bot.recipesFor(id, null, 1, table);
  expect(recipes.length, `a recipe for ${name}`).toBeGreaterThan(0);
  await bot.craft(recipes[0]!, count, table ?? undefined);
}

describe('crafting', () => {
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

  test('2x2 grid: oak_log -> 4 oak_planks, 2 planks -> 4 sticks', async () => {
    bot = await connectBot(server, 'Crafter2');
    await give(server, bot, 'oak_log', 2);
    await craft(bot, 'oak_planks', 2);
    expect(botCount(bot, 'oak_planks')).toBe(8);
    expect(botCount(bot, 'oak_log')).toBe(0);
    await expectServerCount(server, 'Crafter2', 'oak_planks', 8);
    await expectServerCount(server, 'Crafter2', 'oak_log', 0);

    await craft(bot, 'stick', 1);
    expect(botCount(bot, 'stick')).toBe(4);
    expect(botCount(bot, 'oak_planks')).toBe(6);
    await expectServerCount(server, 'Crafter2', 'stick', 4);
    await expectServerCount(server, 'Crafter2', 'oak_planks', 6);
    // Nothing left behind in the grid or result slot, on either side.
    const grid = serverPlayer(server, 'Crafter2').inventory.slots.slice(0, 5);
    expect(grid.every((s: unknown) => s == null)).toBe(true);
    expect(bot.inventory.slots.slice(0, 5).every((s) => s == null)).toBe(true);
  });

  test('crafting table: place it, then pickaxe, banner, compass and a shapeless firework', async () => {
    bot = await connectBot(server, 'Crafter3');
    await give(server, bot, 'crafting_table', 1);
    await bot.equip(itemByName(bot.registry, 'crafting_table').id, 'hand');
    const ground = bot.blockAt(bot.entity.position.offset(2, -1, 0).floored());
    expect(ground?.name).toBe('grass_block');
    await bot.placeBlock(ground!, new Vec3(0, 1, 0));
    const table = bot.blockAt(ground!.position.offset(0, 1, 0));
    expect(table?.name).toBe('crafting_table');
    expect(botCount(bot, 'crafting_table')).toBe(0);
    await expectServerCount(server, 'Crafter3', 'crafting_table', 0);

    const cases: { give: [string, number][]; make: string; expect: number }[] = [
      {
        give: [
          ['oak_planks', 3],
          ['stick', 2],
        ],
        make: 'wooden_pickaxe',
        expect: 1,
      },
      {
        give: [
          ['purple_wool', 6],
          ['stick', 1],
        ],
        make: 'purple_banner',
        expect: 1,
      },
      {
        give: [
          ['iron_ingot', 4],
          ['redstone', 1],
        ],
        make: 'compass',
        expect: 1,
      },
      {
        give: [
          ['paper', 1],
          ['gunpowder', 1],
        ],
        make: 'firework_rocket',
        expect: 3,
      },
    ];
    for (const c of cases) {
      for (const [name, count] of c.give) await give(server, bot, name, count);
      await craft(bot, c.make, 1, table);
      expect(botCount(bot, c.make), `${c.make} in the bot's inventory`).toBe(c.expect);
      await expectServerCount(server, 'Crafter3', c.make, c.expect);
      for (const [name] of c.give) {
        expect(botCount(bot, name), `${name} used up (bot)`).toBe(0);
        await expectServerCount(server, 'Crafter3', name, 0);
      }
    }
    expect(bot.currentWindow).toBeNull();
  });

  test('closing a crafting table returns the grid items to the inventory', async () => {
    bot = await connectBot(server, 'Closer');
    await give(server, bot, 'crafting_table', 1);
    await bot.equip(itemByName(bot.registry, 'crafting_table').id, 'hand');
    const ground = bot.blockAt(bot.entity.position.offset(-2, -1, 0).floored())!;
    await bot.placeBlock(ground, new Vec3(0, 1, 0));
    const table = bot.blockAt(ground.position.offset(0, 1, 0))!;
    await give(server, bot, 'oak_log', 5);
    const window = await bot.openBlock(table);
    expect(window.type).toBe('minecraft:crafting');
    const logSlot = window.findInventoryItem(itemByName(bot.registry, 'oak_log').id, null, false)!.slot;
    await bot.clickWindow(logSlot, 0, 0);
    await bot.clickWindow(5, 0, 0); // all 5 logs into the grid's centre
    await waitUntil(() => window.slots[0]?.name === 'oak_planks', 'the table shows 4 planks as the result');
    await expectServerCount(server, 'Closer', 'oak_log', 0);
    await bot.closeWindow(window);
    await expectServerCount(server, 'Closer', 'oak_log', 5);
    await waitUntil(() => botCount(bot!, 'oak_log') === 5, 'bot: logs back in the inventory');
    expect(botCount(bot, 'oak_planks')).toBe(0);
    await expectServerCount(server, 'Closer', 'oak_planks', 0);
  });

  test("dyeing, as vanilla: a sheep's white wool is dyed pink, then the pink wool black (minecraft-data lists black wool only)", async () => {
    bot = await connectBot(server, 'Dyer');
    await give(server, bot, 'white_wool', 1);
    await give(server, bot, 'pink_dye', 1);
    await give(server, bot, 'ink_sac', 1);
    await craft(bot, 'pink_wool', 1);
    expect(botCount(bot, 'pink_wool')).toBe(1);
    await expectServerCount(server, 'Dyer', 'pink_wool', 1);
    await expectServerCount(server, 'Dyer', 'white_wool', 0);
    await craft(bot, 'black_dye', 1);
    await craft(bot, 'black_wool', 1);
    expect(botCount(bot, 'black_wool')).toBe(1);
    await expectServerCount(server, 'Dyer', 'black_wool', 1);
    await expectServerCount(server, 'Dyer', 'pink_wool', 0);
  });
});

describe('recipe matching (minecraft-data, no server)', () => {
  test('a shaped recipe matches anywhere in the grid and mirrored; shapeless in any order', async () => {
    const { createRequire } = await import('node:module');
    const registry = createRequire(import.meta.url)('prismarine-registry')(TEST_VERSION);
    const { RecipeBook } = await import('../../src/server/services/recipes.ts');
    const book = new RecipeBook(registry);
    const id = (name: string) => registry.itemsByName[name].id as number;
    const P = id('oak_planks'),
      S = id('stick'),
      _ = null;
    // wooden_axe: PP / PS / _S, and its mirror PP / SP / S_, shifted within a 3x3 grid.
    expect(book.match([P, P, _, P, S, _, _, S, _], 3)?.id).toBe(id('wooden_axe'));
    expect(book.match([_, P, P, _, S, P, _, S, _], 3)?.id).toBe(id('wooden_axe'));
    // sticks in the right column of a 2x2 grid.
    expect(book.match([_, P, _, P], 2)).toEqual({ id: S, count: 4 });
    // shapeless firework rocket, ingredients in either order and position.
    expect(book.match([_, id('gunpowder'), _, _, _, _, id('paper'), _, _], 3)).toEqual({ id: id('firework_rocket'), count: 3 });
    // near misses do not match.
    expect(book.match([P, P, _, P, _, _, _, S, _], 3)).toBeNull();
    expect(book.match([_, _, _, _], 2)).toBeNull();
  });
});
