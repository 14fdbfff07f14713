/**
 * Survival as vanilla 1.21, seen by a real mineflayer client in survival mode: fall, lava, fire
 * and drowning damage with vanilla amounts and death messages, attack exhaustion, and hostile
 * mobs (zombie, spider, skeleton, creeper) that notice, attack and hurt the player with vanilla
 * damage on normal difficulty.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, roundTrip, serverPlayer, serverTicks, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { hungerOf } from '../../src/server/services/food.ts';
import { mobState } from '../../src/server/services/mobs.ts';
import { airSupply, setAirSupply } from '../../src/server/features/survival.ts';

interface Message {
  translate?: string;
  toString(): string;
}

let server: EmbeddedServer;
let bot: Bot;
const messages: Message[] = [];
/** Health lost in each `damage_event` hit, in order. */
let hits: number[] = [];

beforeAll(async () => {
  server = await startTestServer();
  bot = await connectBot(server, 'Survivor');
  bot.on('message', (m) => {
    messages.push(m);
  });
  let health = 20;
  bot.on('health', () => {
    if (bot.health < health) hits.push(Math.round((health - bot.health) * 100) / 100);
    health = bot.health;
  });
  bot.chat('/difficulty normal');
  await waitUntil(() => server.serv.difficulty === 2, 'normal difficulty');
});
afterAll(async () => {
  bot?.quit();
  await server?.close();
});
afterEach(async () => {
  // Back to a clean slate: no mobs, full health, nothing burning, at the spawn.
  bot.chat('/kill @e[type=!player]');
  await waitUntil(() => !Object.values(server.serv.entities).some((e) => e.type === 'mob'), 'no mobs left');
  const player = serverPlayer(server, 'Survivor');
  if (player.health <= 0) await waitUntil(() => bot.health === 20, 'respawned');
  player.updateHealth(20);
  await waitUntil(() => bot.health === 20, 'healed');
  hits = [];
});

/** Resolves with the next message whose key starts with `prefix`. */
function nextMessage(prefix: string): Promise<Message> {
  const from = messages.length;
  return waitUntil(() => messages.slice(from).some((m) => m.translate?.startsWith(prefix) === true), `a ${prefix} message`, 20_000).then(
    () => messages.slice(from).find((m) => m.translate?.startsWith(prefix) === true)!,
  );
}

describe('environmental damage', () => {
  test('a 10-block fall deals 7 (fall distance - 3)', async () => {
    const feet = bot.entity.position.floored();
    bot.chat(`/tp ${feet.x + 0.5} ${feet.y + 10} ${feet.z + 0.5}`);
    await waitUntil(() => bot.entity.position.y > feet.y + 9, 'up in the air');
    await waitUntil(() => bot.entity.onGround && bot.entity.position.y < feet.y + 0.1, 'landed');
    await waitUntil(() => hits.length > 0, 'fall damage');
    expect(hits).toEqual([7]);
  });

  test('lava burns 4 a hit, sets on fire (1 every second after), and kills with death.attack.lava', async () => {
    const feet = bot.entity.position.floored();
    const pool = feet.offset(3, 0, 0);
    bot.chat(`/spawnpoint Survivor ${feet.x} ${feet.y} ${feet.z}`); // respawn away from the lava
    bot.chat(`/setblock ${pool.x} ${pool.y} ${pool.z} lava`);
    await waitUntil(() => bot.blockAt(pool)?.name === 'lava', 'a lava pool');
    const died = nextMessage('death.');
    bot.chat(`/tp ${pool.x + 0.5} ${pool.y} ${pool.z + 0.5}`);
    const message = await died;
    expect(message.translate).toBe('death.attack.lava');
    expect(message.toString()).toBe('Survivor tried to swim in lava');
    expect(hits.slice(0, 4)).toEqual([4, 4, 4, 4]);
    bot.chat(`/setblock ${pool.x} ${pool.y} ${pool.z} air`);
    await waitUntil(() => bot.health === 20, 'respawned');
    await waitUntil(() => bot.blockAt(pool)?.name === 'air', 'the pool gone');
  });

  test('burning after leaving fire deals 1 a second; water puts it out', async () => {
    await waitUntil(() => bot.health === 20, 'respawned');
    const feet = bot.entity.position.floored();
    bot.chat(`/setblock ${feet.x} ${feet.y} ${feet.z} fire`);
    await waitUntil(() => hits.length >= 1, 'in fire');
    expect(hits[0]).toBe(1);
    bot.chat(`/setblock ${feet.x} ${feet.y} ${feet.z} air`);
    const before = hits.length;
    await waitUntil(() => hits.length >= before + 2, 'burning', 5_000);
    expect(hits.slice(before)).toEqual([1, 1]);
    bot.chat(`/setblock ${feet.x} ${feet.y} ${feet.z} water`);
    await serverTicks(server, 5);
    bot.chat(`/setblock ${feet.x} ${feet.y} ${feet.z} air`);
    const after = hits.length;
    await serverTicks(server, 45);
    expect(hits.length).toBe(after);
  });

  test('under water the air runs out; drowning hurts 2 and the client sees the oxygen level', async () => {
    const feet = bot.entity.position.floored();
    const player = serverPlayer(server, 'Survivor');
    bot.chat(`/fill ${feet.x} ${feet.y} ${feet.z} ${feet.x} ${feet.y + 1} ${feet.z} water`);
    await waitUntil(() => airSupply(player) < 300, 'holding breath');
    await waitUntil(() => bot.oxygenLevel < 20, 'the client sees the air drop');
    setAirSupply(player, -15);
    await waitUntil(() => hits.length > 0, 'drowning');
    expect(hits[0]).toBe(2);
    bot.chat(`/fill ${feet.x} ${feet.y} ${feet.z} ${feet.x} ${feet.y + 1} ${feet.z} air`);
    await waitUntil(() => bot.oxygenLevel === 20, 'breath back');
  });

  test('/gamerule fallDamage false: no fall damage', async () => {
    bot.chat('/gamerule fallDamage false');
    const feet = bot.entity.position.floored();
    bot.chat(`/tp ${feet.x + 0.5} ${feet.y + 8} ${feet.z + 0.5}`);
    await waitUntil(() => bot.entity.position.y > feet.y + 7, 'up in the air');
    await waitUntil(() => bot.entity.onGround && bot.entity.position.y < feet.y + 0.1, 'landed');
    await roundTrip(bot);
    expect(hits).toEqual([]);
    bot.chat('/gamerule fallDamage true');
    await roundTrip(bot);
  });
});

describe('hostile mobs', () => {
  test('a zombie walks up and hits for 3 (normal), named in the death message', async () => {
    const feet = bot.entity.position.floored();
    bot.chat(`/summon zombie ${feet.x + 6} ${feet.y} ${feet.z}`);
    await waitUntil(() => hits.length > 0, 'the zombie hits', 20_000);
    expect(hits[0]).toBe(3);
    serverPlayer(server, 'Survivor').updateHealth(2);
    const message = await nextMessage('death.');
    expect(message.translate).toBe('death.attack.mob');
    expect(message.toString()).toBe('Survivor was slain by Zombie');
    await waitUntil(() => bot.health === 20, 'respawned');
  });

  test('a spider attacks at night for 2, not by day', async () => {
    bot.chat('/time set noon');
    await waitUntil(() => bot.time.timeOfDay >= 6000 && bot.time.timeOfDay < 7000, 'noon');
    const feet = bot.entity.position.floored();
    bot.chat(`/summon spider ${feet.x + 2} ${feet.y} ${feet.z}`);
    await serverTicks(server, 40);
    expect(hits).toEqual([]);
    bot.chat('/time set midnight');
    await waitUntil(() => hits.length > 0, 'the spider bites', 20_000);
    expect(hits[0]).toBe(2);
    bot.chat('/time set noon');
  });

  test('a skeleton shoots from a distance for 4', async () => {
    const feet = bot.entity.position.floored();
    bot.chat(`/summon skeleton ${feet.x + 8} ${feet.y} ${feet.z}`);
    await waitUntil(() => hits.length > 0, 'the skeleton shoots', 20_000);
    expect(hits[0]).toBe(4);
    const skeleton = Object.values(bot.entities).find((e) => e.name === 'skeleton')!;
    expect(skeleton.position.distanceTo(bot.entity.position)).toBeGreaterThan(3);
  });

  test('a creeper lights its fuse next to the player and blows them up', async () => {
    const feet = bot.entity.position.floored();
    const died = nextMessage('death.');
    bot.chat(`/summon creeper ${feet.x + 1.5} ${feet.y} ${feet.z + 0.5}`);
    const message = await died;
    expect(message.translate).toBe('death.attack.explosion.player');
    expect(message.toString()).toBe('Survivor was blown up by Creeper');
    await waitUntil(() => !Object.values(bot.entities).some((e) => e.name === 'creeper'), 'the creeper is gone');
    await waitUntil(() => bot.health === 20, 'respawned');
  });

  test('a zombie behind a wall does not come for the player; with the wall gone it does (vanilla: it must see them)', async () => {
    const feet = bot.entity.position.floored();
    const wall = (block: string) => `/fill ${feet.x + 3} ${feet.y} ${feet.z - 3} ${feet.x + 3} ${feet.y + 3} ${feet.z + 3} ${block}`;
    bot.chat(wall('stone'));
    await waitUntil(() => bot.blockAt(feet.offset(3, 3, 3))?.name === 'stone', 'the wall stands');
    bot.chat(`/summon zombie ${feet.x + 6.5} ${feet.y} ${feet.z + 0.5}`);
    await waitUntil(() => Object.values(bot.entities).some((e) => e.name === 'zombie'), 'a zombie');
    const zombie = mobState(
      server.serv,
      Object.values(server.serv.entities).find((e) => e.name === 'zombie'),
    )!;
    await serverTicks(server, 80);
    expect(hits).toEqual([]);
    expect(zombie.chase).toBeUndefined();
    bot.chat(wall('air'));
    await waitUntil(() => hits.length > 0, 'the zombie hits', 20_000);
    expect(hits[0]).toBe(3);
  });

  test('zombies burn to death in daylight, not at night', async () => {
    bot.chat('/gamemode creative');
    await waitUntil(() => bot.game.gameMode === 'creative', 'creative');
    bot.chat('/time set midnight');
    await waitUntil(() => bot.time.timeOfDay >= 18_000 && bot.time.timeOfDay < 19_000, 'midnight');
    const feet = bot.entity.position.floored();
    bot.chat(`/summon zombie ${feet.x + 4.5} ${feet.y} ${feet.z + 0.5}`);
    await waitUntil(() => Object.values(server.serv.entities).some((e) => e.name === 'zombie'), 'a zombie');
    const zombie = mobState(
      server.serv,
      Object.values(server.serv.entities).find((e) => e.name === 'zombie'),
    )!;
    // Two health left: two seconds of fire.
    zombie.health = zombie.entity.health = 2;
    await serverTicks(server, 100);
    expect(zombie.dead).toBe(false);
    expect(zombie.fireTicks ?? 0).toBe(0);
    bot.chat('/time set noon');
    await waitUntil(() => zombie.dead, 'the zombie burns to death', 30_000);
    bot.chat('/gamemode survival');
    await waitUntil(() => bot.game.gameMode === 'survival', 'survival');
  });

  test('creative players are left alone', async () => {
    bot.chat('/gamemode creative');
    await waitUntil(() => bot.game.gameMode === 'creative', 'creative');
    const feet = bot.entity.position.floored();
    bot.chat(`/summon zombie ${feet.x + 1} ${feet.y} ${feet.z}`);
    await serverTicks(server, 40);
    expect(hits).toEqual([]);
    bot.chat('/gamemode survival');
    await waitUntil(() => bot.game.gameMode === 'survival', 'survival');
  });
});

describe('hunger', () => {
  test('attacking costs 0.1 exhaustion', async () => {
    const feet = bot.entity.position.floored();
    bot.chat(`/summon cow ${feet.x + 1.5} ${feet.y} ${feet.z + 0.5}`);
    await waitUntil(() => Object.values(bot.entities).some((e) => e.name === 'cow'), 'a cow');
    const cow = Object.values(bot.entities).find((e) => e.name === 'cow')!;
    const state = hungerOf(serverPlayer(server, 'Survivor'));
    state.exhaustion = 0;
    await bot.lookAt(cow.position.offset(0, 0.5, 0), true);
    bot.attack(cow);
    await waitUntil(() => state.exhaustion >= 0.1, 'exhaustion from the attack');
    expect(state.exhaustion).toBeCloseTo(0.1, 5);
  });
});
