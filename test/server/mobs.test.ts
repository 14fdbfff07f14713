/**
 * Mobs (src/server/services/mobs.ts, features/mob-*.ts) end to end: real mineflayer bots summon, watch, fight and
 * kill mobs on the embedded server; checks cover what the bot sees and the server's state.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { Vec3 } from 'vec3';
import { botCount, connectBot, give, roundTrip, serverTicks, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { allMobs, mobState, type MobState } from '../../src/server/services/mobs.ts';
import { entityByName, itemByName } from '../../src/game/data.ts';

/**
 * Server ticks until a hit lands at full strength again: a diamond sword's attack cooldown
 * (20 / 1.6 attack speed = 12.5 ticks, Minecraft wiki "Attack cooldown") is the longer of it and
 * the 10-tick invulnerability window.
 */
const FULL_STRENGTH_TICKS = 13;

/** Resolves with the next entity of `name` the bot sees spawn (listen before summoning). */
function nextSpawn(bot: Bot, name: string, timeoutMs = 5_000): Promise<Entity> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      bot.off('entitySpawn', onSpawn);
      reject(new Error(`no ${name} spawned`));
    }, timeoutMs);
    const onSpawn = (entity: Entity): void => {
      if (entity.name !== name) return;
      clearTimeout(timer);
      bot.off('entitySpawn', onSpawn);
      resolve(entity);
    };
    bot.on('entitySpawn', onSpawn);
  });
}

describe('mobs', () => {
  let server: EmbeddedServer;
  const bots: Bot[] = [];
  let botNumber = 0;

  async function join(): Promise<Bot> {
    const bot = await connectBot(server, `Hunter${++botNumber}`);
    bots.push(bot);
    return bot;
  }

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    for (const bot of bots.splice(0)) bot.quit();
    await waitUntil(() => server.serv.players.length === 0, 'bots to leave', 5_000);
    await server.serv.handleCommand('kill @e[type=!player]');
    // The mobs just killed drop their loot after the selector was read: a later bot joining near it would pick it up.
    await server.serv.handleCommand('kill @e[type=item]');
  });
  afterAll(async () => {
    await server?.close();
  });

  test('/summon cow and zombie: seen with name, health metadata; zombie approaches; /kill removes them', async () => {
    const bot = await join();
    const healthKey = entityByName(server.serv.registry, 'cow').metadataKeys!.indexOf('health');
    const feet = bot.entity.position.floored();

    const cowSeen = nextSpawn(bot, 'cow');
    bot.chat(`/summon minecraft:cow ${feet.x + 4} ${feet.y} ${feet.z}`);
    const cow = await cowSeen;
    expect(cow.type).toBe('animal');
    expect(cow.position.distanceTo(new Vec3(feet.x + 4.5, feet.y, feet.z + 0.5))).toBeLessThan(0.5);
    await waitUntil(() => (cow.metadata as unknown[])[healthKey] === 10, 'cow health metadata 10');

    const babySeen = nextSpawn(bot, 'pig');
    bot.chat(`/summon pig ~-4 ~ ~ {Age:-24000}`);
    const baby = await babySeen;
    const babyKey = entityByName(server.serv.registry, 'pig').metadataKeys!.indexOf('baby');
    await waitUntil(() => (baby.metadata as unknown[])[babyKey] === true, 'pig baby flag');

    const zombieSeen = nextSpawn(bot, 'zombie');
    bot.chat(`/summon zombie ${feet.x} ${feet.y} ${feet.z + 10}`);
    const zombie = await zombieSeen;
    expect(zombie.type).toBe('hostile');
    // It walks toward the bot (within 16 blocks), as seen by the bot.
    await waitUntil(() => zombie.position.distanceTo(bot.entity.position) < 4, 'zombie to come close', 10_000);

    const zombieGone = new Promise<void>((resolve) =>
      bot.on('entityGone', (e) => {
        if (e.id === zombie.id) resolve();
      }),
    );
    bot.chat('/kill @e[type=minecraft:zombie]');
    await zombieGone;
    expect(bot.entities[zombie.id]).toBeUndefined();
    expect(server.serv.entities[zombie.id]).toBeUndefined();
    expect(bot.entities[cow.id]?.name).toBe('cow'); // others untouched

    const cowGone = new Promise<void>((resolve) =>
      bot.on('entityGone', (e) => {
        if (e.id === cow.id) resolve();
      }),
    );
    bot.chat('/kill @e[type=cow]');
    await cowGone;
    expect(bot.entities[cow.id]).toBeUndefined();
    // /kill drops the non-player loot: leather and beef item entities appear.
    await waitUntil(() => Object.values(bot.entities).some((e) => e.name === 'item'), 'cow loot on the ground');
  });

  test('a cow wanders on the ground; a hit chicken panics', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    const cowSeen = nextSpawn(bot, 'cow');
    bot.chat(`/summon cow ${feet.x - 6} ${feet.y} ${feet.z - 6}`);
    const cow = await cowSeen;
    const start = cow.position.clone();
    await waitUntil(() => cow.position.xzDistanceTo(start) > 1, 'cow to wander more than a block', 10_000);
    const onServer = mobState(server.serv, server.serv.entities[cow.id])!;
    expect(onServer.entity.position.y).toBe(feet.y); // stays on the superflat ground
    expect(cow.position.distanceTo(onServer.entity.position)).toBeLessThan(0.5); // client in sync

    const chickenSeen = nextSpawn(bot, 'chicken');
    bot.chat(`/summon chicken ${feet.x + 1} ${feet.y} ${feet.z + 1}`);
    const chicken = await chickenSeen;
    // Hit it where it stands: on the ground, as the server and the bot both see it.
    const chickenOnServer = (): MobState | undefined => mobState(server.serv, server.serv.entities[chicken.id]);
    await waitUntil(
      () => chickenOnServer()?.onGround === true && chicken.position.distanceTo(chickenOnServer()!.entity.position) < 0.1,
      'the chicken standing still, in sync',
      { state: () => [chicken.position, chickenOnServer()?.entity.position] },
    );
    const hitAt = chicken.position.clone();
    bot.attack(chicken);
    // Knockback alone moves it under a block; panicking (100 ticks = 5 s) it runs off.
    await waitUntil(() => chicken.position.xzDistanceTo(hitAt) > 2.5, 'the hit chicken to run more than 2.5 blocks while panicking', 5_000);
    expect(mobState(server.serv, server.serv.entities[chicken.id])?.health).toBe(3); // 4 - 1 (hand)
  });

  test('killing cows: a diamond sword needs fewer hits than a hand; the loot is collected', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    // A closed 2x1 stone corridor: the cow in one cell, the bot in the other.
    const cx = feet.x + 10,
      cz = feet.z,
      y = feet.y;
    bot.chat(`/fill ${cx - 1} ${y - 1} ${cz - 1} ${cx + 2} ${y + 2} ${cz + 1} stone outline`);
    bot.chat(`/tp ${cx + 1} ${y} ${cz}`);
    await waitUntil(() => bot.entity.position.distanceTo(new Vec3(cx + 1.5, y, cz + 0.5)) < 0.1, 'bot in the corridor');

    async function killCow(): Promise<number> {
      const cowSeen = nextSpawn(bot, 'cow');
      bot.chat(`/summon cow ${cx} ${y} ${cz}`);
      const cow = await cowSeen;
      let dead = false;
      const died = (e: Entity): void => {
        if (e.id === cow.id) dead = true;
      };
      bot.on('entityDead', died);
      const gone = new Promise<void>((resolve) =>
        bot.on('entityGone', (e) => {
          if (e.id === cow.id) resolve();
        }),
      );
      const onServer = mobState(server.serv, server.serv.entities[cow.id])!;
      let hits = 0;
      try {
        while (!dead && hits < 20) {
          const health = onServer.health;
          bot.attack(cow);
          hits++;
          await waitUntil(() => onServer.dead || onServer.health < health, `hit ${hits} to land`, { state: () => onServer.health });
          if (onServer.dead) break;
          await serverTicks(server, FULL_STRENGTH_TICKS);
        }
        await waitUntil(() => dead, 'the bot to see the cow die');
      } finally {
        bot.off('entityDead', died);
      }
      await gone;
      expect(bot.entities[cow.id]).toBeUndefined();
      return hits;
    }

    const before = { beef: botCount(bot, 'beef'), leather: botCount(bot, 'leather') };
    const collected = (n: number) => () => botCount(bot, 'beef') === before.beef + n && botCount(bot, 'leather') === before.leather + n;
    const inventory = () => bot.inventory.items().map((i) => `${i.name} x${i.count}`);
    const byHand = await killCow();
    await waitUntil(collected(1), 'beef and leather collected', { timeoutMs: 20_000, state: inventory });

    await give(server, bot, 'diamond_sword', 1);
    await bot.equip(itemByName(bot.registry, 'diamond_sword').id, 'hand');
    // The item switch resets the attack cooldown: once the server has it, wait the cooldown out.
    await roundTrip(bot);
    await serverTicks(server, FULL_STRENGTH_TICKS);
    const bySword = await killCow();
    await waitUntil(collected(2), 'second loot collected', { timeoutMs: 5_000, state: inventory });

    expect(byHand).toBeGreaterThanOrEqual(8); // 10 health, 1 damage per full-strength hit
    expect(bySword).toBeLessThanOrEqual(3); // 7 damage per hit
    expect(bySword).toBeLessThan(byHand);
    expect(allMobs(server.serv).filter((m) => m.name === 'cow')).toEqual([]);
  });
});
