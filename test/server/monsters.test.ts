/**
 * The natural spawner of monsters in a survival world (src/server/worldgen/spawner.ts, ./monsters.ts), seen by
 * a real mineflayer client: monsters appear in the dark only (never on the day-lit surface), 24 to
 * 128 blocks from the player, up to the cap; they go when the player goes far away, on peaceful,
 * and none come with `doMobSpawning` false. The light rules themselves against vanilla's numbers.
 */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { setGameRule } from '../../src/server/services/game-rules.ts';
import { mobRegistry } from '../../src/server/services/mobs.ts';
import { darkEnough, MONSTER_NAMES, skyDarken } from '../../src/server/worldgen/monsters.ts';
import { DESPAWN_DISTANCE, fitsMonster, MIN_SPAWN_DISTANCE, MONSTER_CAP, newMonsterSpawner } from '../../src/server/worldgen/spawner.ts';
import { connectBot, serverTicks, startTestServer, teleport, waitUntil } from '../helpers/world.ts';

let server: EmbeddedServer;
let bot: Bot;

beforeAll(async () => {
  server = await startTestServer({ world: 'survival', seed: 1 });
  bot = await connectBot(server, 'Watcher');
}, 60_000);

afterAll(async () => {
  bot?.quit();
  await server?.close();
});

/** Whether the block under `p` is a full solid cube (a floor a monster may spawn on). */
function serverFloor(p: Vec3): boolean {
  const below = server.serv.registry.blocksByStateId[server.serv.overworld.sync.getBlockStateId(p.offset(0, -1, 0))];
  return below?.boundingBox === 'block' && !/(leaves|glass|bedrock)$/.test(below.name);
}

/** The hostile mobs the server keeps in the overworld. */
function serverMonsters() {
  return [...mobRegistry(server.serv).mobs.values()].filter((m) => m.hostile && !m.dead);
}

describe('light rules (vanilla Level.updateSkyBrightness, Monster.isDarkEnoughToSpawn)', () => {
  test('the sky darkens by 0 at noon, 11 at midnight, and rain and thunder darken it more', () => {
    expect(skyDarken(6000)).toBe(0);
    expect(skyDarken(18_000)).toBe(11);
    expect(skyDarken(1000)).toBeLessThan(skyDarken(13_000));
    expect(skyDarken(6000, true)).toBe(3);
    expect(skyDarken(6000, true, true)).toBe(5);
    expect(skyDarken(18_000 + 24_000 * 3)).toBe(11);
  });

  test('block light bars spawning; sky light up to 7 passes as often as the draws allow, never above', () => {
    const draws = (values: number[]) => {
      let i = 0;
      return () => values[i++ % values.length]!;
    };
    expect(darkEnough(0, 1, 0, false, draws([0.99, 0.99]))).toBe(false);
    expect(darkEnough(0, 0, 0, false, draws([0, 0]))).toBe(true);
    // Sky 7 at noon: passes only when both draws are high (7 ≤ nextInt(32) and 7 ≤ nextInt(8)).
    expect(darkEnough(7, 0, 0, false, draws([0.99, 0.99]))).toBe(true);
    expect(darkEnough(7, 0, 0, false, draws([0.99, 0.5]))).toBe(false);
    for (let sky = 8; sky <= 15; sky++) expect(darkEnough(sky, 0, 0, false, draws([0.99, 0.99]))).toBe(false);
    // Full sky light at midnight (darkened by 11) is brightness 4; a thunderstorm darkens by 10.
    expect(darkEnough(15, 0, 11, false, draws([0.99, 0.99]))).toBe(true);
    expect(darkEnough(15, 0, 0, true, draws([0.99, 0.99]))).toBe(true);
  });
});

describe('the spawner in a survival world', () => {
  test('by day, monsters come in the dark only, 24–128 blocks from the player, and no more than the cap', async () => {
    const arrivals: Array<{ name: string; at: Vec3; distance: number }> = [];
    const onSpawn = (e: Entity) => {
      if (e.name && MONSTER_NAMES.includes(e.name))
        arrivals.push({ name: e.name, at: e.position.clone(), distance: e.position.distanceTo(bot.entity.position) });
    };
    bot.on('entitySpawn', onSpawn);
    try {
      await waitUntil(() => arrivals.length >= 8, 'eight monsters spawn', 30_000);
    } finally {
      bot.off('entitySpawn', onSpawn);
    }
    expect(Number(server.serv.time) % 24_000).toBeLessThan(12_000);
    const world = server.serv.overworld.sync;
    for (const { name, at, distance } of arrivals) {
      const cell = at.floored();
      expect(distance, `${name} at ${at}`).toBeGreaterThan(MIN_SPAWN_DISTANCE - 1);
      expect(distance).toBeLessThanOrEqual(DESPAWN_DISTANCE);
      expect(world.getBlockLight(cell)).toBe(0);
      // By day the sky is not darkened: only places with sky light 7 or less let a monster spawn.
      expect(world.getSkyLight(cell), `${name} at ${at}`).toBeLessThanOrEqual(7);
      expect(server.serv.registry.blocksByStateId[world.getBlockStateId(cell.offset(0, -1, 0))]!.boundingBox).toBe('block');
    }
    // Spiders, zombies, skeletons and creepers: vanilla's list, not one species.
    expect(new Set(arrivals.map((a) => a.name)).size).toBeGreaterThan(1);
    // The cap: 70 per 289 chunks in range; the view distance loads far fewer around one player.
    expect(serverMonsters().length).toBeLessThanOrEqual(Math.floor((MONSTER_CAP * 17 * 17) / 289));
  });

  test('a place on the day-lit ground never fits a monster; at midnight it does, as a cave does by day', () => {
    const spawner = newMonsterSpawner();
    const feet = bot.entity.position.floored();
    const world = server.serv.overworld.sync;
    expect(world.getSkyLight(feet)).toBeGreaterThan(12);
    const fits = (at: Vec3, darken: number) =>
      Array.from({ length: 200 }, () => fitsMonster(server.serv, spawner, 'zombie', at, { darken, thundering: false }));
    expect(fits(feet, skyDarken(6000)).some(Boolean)).toBe(false);
    expect(fits(feet, skyDarken(18_000)).some(Boolean)).toBe(true);
    // A dark cave cell with a floor and headroom below the spawn: it fits by day too.
    const free = (p: Vec3) => {
      const block = server.serv.registry.blocksByStateId[world.getBlockStateId(p)];
      return block?.boundingBox === 'empty' && block.name !== 'water' && block.name !== 'lava';
    };
    let cave: Vec3 | undefined;
    for (let dy = 8; dy <= 48 && !cave; dy++) {
      for (let dx = -12; dx <= 12 && !cave; dx++) {
        for (let dz = -12; dz <= 12 && !cave; dz++) {
          const p = feet.offset(dx, -dy, dz);
          const fitsHere = world.getSkyLight(p) === 0 && free(p) && free(p.offset(0, 1, 0)) && !free(p.offset(0, -1, 0));
          if (fitsHere && serverFloor(p)) cave = p;
        }
      }
    }
    expect(cave, 'a cave under the spawn of seed 1').toBeDefined();
    expect(fits(cave!, 0).some(Boolean)).toBe(true);
  });

  test('far from the player they despawn at once; with doMobSpawning false none come back', async () => {
    await waitUntil(() => serverMonsters().length > 0, 'monsters around', 30_000);
    setGameRule(server.serv, 'doMobSpawning', false);
    try {
      const home = bot.entity.position.floored();
      const away = { x: home.x + 400, z: home.z };
      await teleport(bot, away.x + 0.5, server.survival!.generator.surfaces.column(away.x, away.z).height + 1, away.z + 0.5);
      await waitUntil(
        () => serverMonsters().every((m) => m.entity.position.distanceTo(bot.entity.position) <= DESPAWN_DISTANCE),
        'the monsters left behind despawn',
      );
      await serverTicks(server, 100);
      expect(serverMonsters().filter((m) => m.entity.position.distanceTo(bot.entity.position) <= DESPAWN_DISTANCE)).toEqual([]);
      await teleport(bot, home.x + 0.5, home.y, home.z + 0.5);
    } finally {
      setGameRule(server.serv, 'doMobSpawning', true);
    }
  });

  test('on peaceful every monster it spawned goes, and none spawn', async () => {
    await waitUntil(() => serverMonsters().length > 0, 'monsters around', 30_000);
    const before = server.serv.difficulty;
    server.serv.difficulty = 0;
    try {
      await serverTicks(server, 2);
      expect(serverMonsters()).toEqual([]);
      await serverTicks(server, 100);
      expect(serverMonsters()).toEqual([]);
    } finally {
      server.serv.difficulty = before;
    }
    await waitUntil(() => serverMonsters().length > 0, 'monsters again on normal', 30_000);
  });
});
