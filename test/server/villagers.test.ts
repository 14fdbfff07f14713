/**
 * Villagers and trading on the embedded server (src/server/features/villagers.ts): a real
 * mineflayer bot summons villagers, sees their profession and level, gives an unemployed one a
 * job site, and trades through the merchant window with mineflayer's own `openVillager` and
 * `trade`. Each test checks the bot's inventory and the server's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import minecraftData from 'minecraft-data';
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { Vec3 } from 'vec3';
import { botCount, connectBot, give, place, roundTrip, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { describeOffers, offersOf } from '../../src/server/features/villagers.ts';
import { mobState } from '../../src/server/services/mobs.ts';
import { jobSites, PROFESSIONS, tradePools } from '../../src/game/villagers.ts';
import { SERVER_VERSIONS } from '../../src/game/versions.ts';
import { villagerInfo } from '../../src/skills/villagers.ts';
import { itemByName } from '../../src/game/data.ts';
import { ON_DEFAULT_VERSION } from '../helpers/version.ts';

// The table is checked against every served version at once: once is enough.
test.runIf(ON_DEFAULT_VERSION)('every item and job site block of the trade table is one of every served version', () => {
  for (const version of SERVER_VERSIONS) {
    const data = minecraftData(version);
    for (const profession of PROFESSIONS)
      for (const listing of tradePools(profession).flat())
        for (const stack of [listing.buy, listing.buy2, listing.sell].filter((s) => s !== undefined))
          expect(data.itemsByName[stack.item], `${version}: ${profession} ${stack.item}`).toBeDefined();
    for (const block of jobSites().keys()) expect(data.blocksByName[block], `${version}: ${block}`).toBeDefined();
  }
  // Every profession but none and nitwit trades, from level 1 (a leatherworker's novice pool is one offer once its dyed armour is left out).
  for (const profession of PROFESSIONS.filter((p) => p !== 'none' && p !== 'nitwit'))
    expect(tradePools(profession)[0]!.length, profession).toBeGreaterThanOrEqual(1);
});

describe('villagers', () => {
  let server: EmbeddedServer;
  let bot: Bot;
  let origin: Vec3;
  let area = 0;

  beforeAll(async () => {
    server = await startTestServer();
    bot = await connectBot(server, 'Trader');
    origin = bot.entity.position.floored();
  });
  afterEach(async () => {
    if (bot.currentWindow) void bot.closeWindow(bot.currentWindow);
    bot.chat('/clear');
    await server.serv.handleCommand('kill @e[type=villager]');
    await waitUntil(() => bot.inventory.items().length === 0, 'the inventory is cleared');
  });
  afterAll(async () => {
    bot?.quit();
    await server?.close();
  });

  /** A fresh spot, 12 blocks from the last; the bot is moved onto it. */
  async function spot(): Promise<Vec3> {
    const at = origin.offset(12 * ++area, 0, 0);
    bot.chat(`/tp ${at.x + 0.5} ${at.y} ${at.z + 0.5}`);
    await waitUntil(() => bot.entity.position.distanceTo(at.offset(0.5, 0, 0.5)) < 0.5, 'the bot stands on the spot');
    await bot.waitForChunksToLoad();
    return at;
  }

  /** Summons a villager with `nbt` 2 blocks from `at` and returns the bot's entity of it. */
  async function summonVillager(at: Vec3, nbt = ''): Promise<Entity> {
    const where = at.offset(2, 0, 0);
    bot.chat(`/summon villager ${where.x + 0.5} ${where.y} ${where.z + 0.5} ${nbt}`);
    await waitUntil(
      () =>
        Object.values(bot.entities).some(
          (e) => e.name === 'villager' && e.position.distanceTo(where) < 3 && villagerInfo(bot, e).level > 0,
        ),
      'the bot sees the villager and its data',
    );
    return Object.values(bot.entities).find((e) => e.name === 'villager' && e.position.distanceTo(where) < 3)!;
  }

  const serverCount = (name: string) => {
    const id = itemByName(server.serv.registry, name).id;
    return (serverPlayer(server, bot.username).inventory.slots as ({ type: number; count: number } | null)[]).reduce(
      (n, s) => n + (s?.type === id ? s.count : 0),
      0,
    );
  };

  test('a summoned librarian of level 2 shows as one, and its window lists two offers of each level', async () => {
    const at = await spot();
    const entity = await summonVillager(at, '{VillagerData:{profession:"minecraft:librarian",level:2,type:"minecraft:taiga"}}');
    expect(villagerInfo(bot, entity)).toEqual({ id: entity.id, profession: 'librarian', level: 2, baby: false });
    const villager = await bot.openVillager(entity);
    try {
      expect(villager.trades).toHaveLength(4);
      const offers = describeOffers(server.serv, server.serv.entities[entity.id]!);
      expect(
        villager.trades.map((t) => `${t.inputItem1.count} ${t.inputItem1.name} -> ${t.outputItem.count} ${t.outputItem.name}`),
      ).toEqual(offers.map((o) => `${o.buy} -> ${o.sell}`));
      for (const [i, trade] of villager.trades.entries()) {
        expect(trade.nbTradeUses).toBe(0);
        expect(trade.maximumNbTradeUses).toBe(offers[i]!.maxUses);
        expect(trade.hasItem2).toBe(offers[i]!.buy2 !== undefined);
      }
    } finally {
      void villager.close();
    }
  }, 30_000);

  test('bot.trade pays, takes the goods twice, counts the uses; the villager stands still while trading', async () => {
    const at = await spot();
    const entity = await summonVillager(at, '{VillagerData:{profession:"minecraft:farmer",level:1}}');
    // The payment is given with no window open: while one is, the server updates the window's view of the inventory.
    const offers = await bot.openVillager(entity);
    // A farmer's novice offers take one item (crops or an emerald) each.
    const index = offers.trades.findIndex((t) => !t.hasItem2);
    const { inputItem1: pay, outputItem: get } = offers.trades[index]!;
    void offers.close();
    await give(server, bot, pay.name, pay.count * 2 + 3);
    const villager = await bot.openVillager(entity);
    const mob = mobState(server.serv, server.serv.entities[entity.id])!;
    expect(mob.villager!.tradingWith).toBe(serverPlayer(server, bot.username));
    try {
      expect(villager.count(pay.type, null)).toBe(pay.count * 2 + 3);
      const had = botCount(bot, get.name);
      await bot.trade(villager, index, 2);
      expect(villager.count(get.type, null)).toBe(had + get.count * 2);
      await roundTrip(bot);
      expect(serverCount(get.name)).toBe(had + get.count * 2);
      expect(serverCount(pay.name)).toBe(3);
      expect(describeOffers(server.serv, server.serv.entities[entity.id]!)[index]!.uses).toBe(2);
      expect(mob.villager!.xp).toBe(2 * offersOf(server.serv, mob)[index]!.listing.xp);
      expect(mob.target).toBeNull();
    } finally {
      void villager.close();
    }
    await roundTrip(bot);
    expect(mob.villager!.tradingWith).toBeUndefined();
    // The payment slots were emptied back into the inventory: nothing was lost.
    expect(bot.inventory.items().reduce((n, i) => n + i.count, 0)).toBe(
      serverPlayer(server, bot.username).inventory.slots.reduce((n: number, s: { count: number } | null) => n + (s?.count ?? 0), 0),
    );
  }, 30_000);

  test('an unemployed villager does not trade; a composter placed near it makes it a farmer who does', async () => {
    const at = await spot();
    const entity = await summonVillager(at);
    expect(villagerInfo(bot, entity).profession).toBe('none');
    bot.useOn(entity);
    await roundTrip(bot);
    expect(bot.currentWindow).toBeNull();
    await place(server, bot, 'composter', at.offset(-2, -1, 0));
    await waitUntil(() => villagerInfo(bot, entity).profession === 'farmer', 'the bot sees the villager become a farmer');
    const villager = await bot.openVillager(entity);
    expect(villager.trades).toHaveLength(2);
    void villager.close();
  }, 30_000);

  test('a villager whose trades reach the next level levels up when the window closes, with two more offers', async () => {
    const at = await spot();
    const entity = await summonVillager(at, '{VillagerData:{profession:"minecraft:fletcher",level:1}}');
    const mob = mobState(server.serv, server.serv.entities[entity.id])!;
    // Two experience short of apprentice (10): one more trade of any novice offer reaches it.
    mob.villager!.xp = 9;
    const offers = await bot.openVillager(entity);
    const index = offers.trades.findIndex((t) => !t.hasItem2);
    const pay = offers.trades[index]!.inputItem1;
    void offers.close();
    await give(server, bot, pay.name, pay.count);
    const villager = await bot.openVillager(entity);
    await bot.trade(villager, index, 1);
    void villager.close();
    await waitUntil(() => villagerInfo(bot, entity).level === 2, 'the bot sees the villager at level 2');
    const again = await bot.openVillager(entity);
    expect(again.trades).toHaveLength(4);
    expect(again.trades[index]!.nbTradeUses).toBe(1);
    void again.close();
  }, 30_000);
});
