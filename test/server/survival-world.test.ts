/**
 * The survival world through real mineflayer clients: the client sees the server's seeded world
 * (the same seed, the same blocks on two servers), its layers, biomes and light, the initial
 * animals with their wool colours, an ore it can dig its way to, and a tree top it can path to; a
 * world folder keeps its kind and seed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import pathfinderPkg from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { mobState } from '../../src/server/services/mobs.ts';
import { BIOMES } from '../../src/server/worldgen/blocks.ts';
import { initialAnimalIds } from '../../src/server/worldgen/plugin.ts';
import { botCount, connectBot, give, roundTrip, startTestServer, teleport, waitUntil } from '../helpers/world.ts';

const { goals, Movements, pathfinder } = pathfinderPkg;
const SEED = 1;
let server: EmbeddedServer;
let bot: Bot;

beforeAll(async () => {
  server = await startTestServer({ world: 'survival', seed: SEED });
  bot = await connectBot(server, 'Probe');
  bot.loadPlugin(pathfinder);
  // Paths that dig are slow to plan on a loaded machine (CI runs eight test files at once).
  bot.pathfinder.thinkTimeout = 30_000;
}, 60_000);

afterAll(async () => {
  bot?.quit();
  await server?.close();
});

/** The block state ids of a column as the client has it (a chunk's serialised blocks and biomes). */
function clientColumn(b: Bot, chunkX: number, chunkZ: number): Buffer | undefined {
  const column = (b.world as unknown as { getColumn(x: number, z: number): { dump(): Buffer } | undefined }).getColumn(chunkX, chunkZ);
  return column?.dump();
}

describe('survival world', () => {
  test('players spawn in a forest: the client gets the forest biome id, oak logs around, full sky light at the feet and none deep down', async () => {
    const spawn = server.survival!.spawn;
    const feet = bot.entity.position.floored();
    expect([feet.x, feet.y, feet.z]).toEqual([spawn.x, spawn.y, spawn.z]);
    const world = bot.world as unknown as { getBiome(p: Vec3): number };
    expect(world.getBiome(feet)).toBe(server.serv.registry.biomesByName.forest!.id);
    // Biomes elsewhere are the generator's, as ids of the client's version.
    const generator = server.survival!.generator;
    for (const [dx, dz] of [
      [20, 0],
      [-24, 16],
      [8, -24],
    ]) {
      const p = feet.offset(dx!, 0, dz!);
      const biome = generator.surfaces.column(p.x, p.z);
      expect(world.getBiome(new Vec3(p.x, biome.height, p.z))).toBe(server.serv.registry.biomesByName[BIOMES[biome.biome]!]!.id);
    }
    const logs = bot.findBlocks({ matching: bot.registry.blocksByName.oak_log!.id, maxDistance: 12, count: 10 });
    expect(logs.length).toBeGreaterThanOrEqual(3);
    expect(bot.blockAt(feet)!.skyLight).toBeGreaterThanOrEqual(13);
    expect(bot.blockAt(new Vec3(feet.x, -40, feet.z))!.skyLight).toBe(0);
  });

  test('layers as the client sees them: bedrock at −64, deepslate below 0, stone above 8, ground near sea level', () => {
    const { x, z } = bot.entity.position.floored();
    const names = (y: number) => {
      const seen = new Set<string>();
      for (let dx = -8; dx < 8; dx++) for (let dz = -8; dz < 8; dz++) seen.add(bot.blockAt(new Vec3(x + dx, y, z + dz))!.name);
      return seen;
    };
    expect(names(-64)).toEqual(new Set(['bedrock']));
    expect([...names(-30)].every((n) => n === 'deepslate' || n.startsWith('deepslate_') || n === 'air')).toBe(true);
    expect([...names(30)].every((n) => n === 'stone' || n.endsWith('_ore') || n === 'air')).toBe(true);
    expect(bot.entity.position.y).toBeGreaterThanOrEqual(63);
    expect(bot.entity.position.y).toBeLessThan(100);
  });

  test('the same seed serves the same blocks on a second server; another seed serves others', async () => {
    const twin = await startTestServer({ world: 'survival', seed: SEED });
    const other = await startTestServer({ world: 'survival', seed: SEED + 1 });
    const probe = await connectBot(twin, 'Twin');
    try {
      const cx = Math.floor(bot.entity.position.x) >> 4;
      const cz = Math.floor(bot.entity.position.z) >> 4;
      let compared = 0;
      for (let dx = -2; dx <= 2; dx++) {
        for (let dz = -2; dz <= 2; dz++) {
          const mine = clientColumn(bot, cx + dx, cz + dz);
          const theirs = clientColumn(probe, cx + dx, cz + dz);
          expect(mine).toBeDefined();
          expect(theirs!.equals(mine!)).toBe(true);
          compared++;
        }
      }
      expect(compared).toBe(25);
      const overworld = other.serv.overworld as unknown as { getColumn(x: number, z: number): Promise<{ dump(): Buffer }> };
      const elsewhere = await overworld.getColumn(cx, cz);
      expect(elsewhere.dump().equals(clientColumn(bot, cx, cz)!)).toBe(false);
    } finally {
      probe.quit();
      await twin.close();
      await other.close();
    }
  });

  test('animals from the initial spawn are around, and the client sees sheep with their wool colour', async () => {
    const ids = initialAnimalIds(server.serv);
    expect(ids.size).toBeGreaterThan(0);
    const names = new Set([...ids].map((id) => server.serv.entities[id]!.name));
    expect([...names].some((n) => ['sheep', 'cow', 'pig', 'chicken', 'rabbit'].includes(n!))).toBe(true);
    await waitUntil(() => [...ids].every((id) => bot.entities[id]), 'the client sees every initial animal', 10_000);
    const wool = bot.registry.entitiesByName.sheep!.metadataKeys!.indexOf('wool');
    const sheep = [...ids].map((id) => bot.entities[id]!).filter((e) => e.name === 'sheep');
    expect(sheep.length).toBeGreaterThan(0);
    await waitUntil(() => sheep.every((e) => typeof e.metadata[wool] === 'number'), 'wool metadata on every sheep');
    for (const e of sheep) {
      const colour = mobState(server.serv, server.serv.entities[e.id])!.wool!.colour;
      expect((e.metadata[wool] as unknown as number) & 15).toBe(colour);
    }
  });

  test('a bot with a pickaxe paths and digs its way to a coal ore and mines it', async () => {
    await give(server, bot, 'diamond_pickaxe', 1);
    await bot.equip(bot.registry.itemsByName.diamond_pickaxe!.id, 'hand');
    const ore = bot.findBlock({ matching: bot.registry.blocksByName.coal_ore!.id, maxDistance: 32 });
    expect(ore, 'a coal ore within 32 blocks of spawn').toBeTruthy();
    expect(ore!.position.y).toBeGreaterThanOrEqual(0); // coal's placements: y 0 to the top
    const moves = new Movements(bot);
    moves.canDig = true;
    bot.pathfinder.setMovements(moves);
    await bot.pathfinder.goto(new goals.GoalLookAtBlock(ore!.position, bot.world, { reach: 4 }));
    await bot.dig(bot.blockAt(ore!.position)!);
    await waitUntil(() => botCount(bot, 'coal') > 0, 'the coal is picked up', 10_000);
  }, 90_000);

  test('pathfinder reaches the top log of a tree', async () => {
    const spawn = server.survival!.spawn;
    await teleport(bot, spawn.x + 0.5, spawn.y, spawn.z + 0.5);
    await give(server, bot, 'dirt', 16); // scaffolding, should the path climb
    await give(server, bot, 'diamond_axe', 1);
    await bot.equip(bot.registry.itemsByName.diamond_axe!.id, 'hand');
    const logId = (n: string) => bot.registry.blocksByName[n]!.id;
    const logs = [logId('oak_log'), logId('birch_log'), logId('spruce_log')];
    const tops = bot
      .findBlocks({ matching: logs, maxDistance: 24, count: 200 })
      .filter((p) => bot.blockAt(p.offset(0, 1, 0))!.name.endsWith('_leaves'));
    expect(tops.length).toBeGreaterThan(0);
    const top = tops.sort((a, b) => a.distanceTo(bot.entity.position) - b.distanceTo(bot.entity.position))[0]!;
    const moves = new Movements(bot);
    moves.canDig = true;
    bot.pathfinder.setMovements(moves);
    await bot.pathfinder.goto(new goals.GoalLookAtBlock(top, bot.world, { reach: 4.5 }));
    // Within reach of the top log: the bot breaks it, on its side and on the server's.
    await bot.dig(bot.blockAt(top)!);
    expect(bot.blockAt(top)!.name).toBe('air');
    await roundTrip(bot);
    expect((await server.serv.overworld.getBlock(top)).name).toBe('air');
  }, 90_000);

  test('a world folder keeps its kind and seed: reopened it is the same world; another kind or seed is refused', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'survival-world-'));
    try {
      const first = await startTestServer({ world: 'survival', seed: 42, worldFolder: folder });
      const spawn = first.survival!.spawn;
      await first.close();
      const again = await startTestServer({ world: 'survival', worldFolder: folder });
      expect(again.seed).toBe(42);
      expect(again.survival!.spawn).toEqual(spawn);
      await again.close();
      await expect(startTestServer({ world: 'superflat', worldFolder: folder })).rejects.toThrow(
        /holds a survival world.*"world": "survival"/,
      );
      await expect(startTestServer({ world: 'survival', seed: 7, worldFolder: folder })).rejects.toThrow(/seed 42, not 7/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
