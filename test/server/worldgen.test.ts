/**
 * The survival generator on its own (no server): the same seed gives the same chunks, the layers
 * are where vanilla puts them, ores at their placements' heights, leaves with vanilla's distances,
 * plants on the ground they need, light from the sky, and a forest spawn with oaks around it.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import {
  BEDROCK,
  BIOMES,
  BLOCK_SPECS,
  CACTUS,
  DEEPSLATE,
  FLOWERS,
  GRASS_BLOCK,
  LEAVES,
  LOGS,
  ORES,
  SAND,
  STONE,
  SUGAR_CANE,
  TALL_PLANTS,
  WATER,
  isTreeBlock,
} from '../../src/server/worldgen/blocks.ts';
import { ChunkBuilder } from '../../src/server/worldgen/chunk.ts';
import { blockIndex, SurvivalGenerator, type GeneratedChunk } from '../../src/server/worldgen/generator.ts';
import { ORE_PLACEMENTS, oreRange } from '../../src/server/worldgen/ores.ts';
import { findSpawn, findSpot, SPAWN_OAKS, SPAWN_TREE_RADIUS, treesNear } from '../../src/server/worldgen/spawn.ts';
import { MIN_Y, WATER_TOP, WORLD_HEIGHT } from '../../src/server/worldgen/terrain.ts';
import { initialAnimals } from '../../src/server/worldgen/animals.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const require = createRequire(import.meta.url);
const SEED = 1;
const generator = new SurvivalGenerator(SEED);
/** A 6×6-chunk area (96×96 blocks) around the origin, generated once for the file. */
const AREA: GeneratedChunk[] = [];
for (let cx = -3; cx < 3; cx++) for (let cz = -3; cz < 3; cz++) AREA.push(generator.generate(cx, cz));

const at = (chunk: GeneratedChunk, x: number, y: number, z: number) => chunk.blocks[blockIndex(x, y, z)]!;
const digest = (chunks: GeneratedChunk[]) => {
  const hash = createHash('sha256');
  for (const c of chunks) hash.update(c.blocks).update(c.cells);
  return hash.digest('hex');
};

describe('survival generator', () => {
  test('the same seed gives the same chunks, in any order and from a fresh generator; another seed differs', () => {
    const again = new SurvivalGenerator(SEED);
    const reversed = [...AREA].reverse().map((c) => again.generate(c.chunkX, c.chunkZ));
    expect(digest(reversed.reverse())).toBe(digest(AREA));
    const other = new SurvivalGenerator(SEED + 1);
    expect(digest(AREA.map((c) => other.generate(c.chunkX, c.chunkZ)))).not.toBe(digest(AREA));
  });

  test('layers: bedrock at −64 and only up to −60, deepslate below 0 (and only below 8), stone above, ground near sea level', () => {
    const deepslateOres = new Set(Object.values(ORES).map(([, deep]) => deep));
    const stoneOres = new Set(Object.values(ORES).map(([stone]) => stone));
    let lowest = Infinity;
    let highest = -Infinity;
    const wrong: string[] = [];
    for (const chunk of AREA) {
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          if (at(chunk, x, MIN_Y, z) !== BEDROCK) wrong.push(`no bedrock at ${x} ${MIN_Y} ${z}`);
          for (let y = MIN_Y + 1; y < MIN_Y + WORLD_HEIGHT; y++) {
            const b = at(chunk, x, y, z);
            if (b === BEDROCK && y > -60) wrong.push(`bedrock at y ${y}`);
            if ((b === STONE || stoneOres.has(b)) && y < 0) wrong.push(`stone at y ${y}`);
            if ((b === DEEPSLATE || deepslateOres.has(b)) && y >= 8) wrong.push(`deepslate at y ${y}`);
          }
          const h = chunk.heights[z * 16 + x]!;
          lowest = Math.min(lowest, h);
          highest = Math.max(highest, h);
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // Sea level 63: river beds a few blocks under the water, hills some tens of blocks above it.
    expect(lowest).toBeGreaterThanOrEqual(50);
    expect(lowest).toBeLessThan(WATER_TOP);
    expect(highest).toBeLessThan(140);
    expect(highest).toBeGreaterThan(66);
  });

  test('every ore lies within the heights of its vanilla placements (plus the reach of a vein)', () => {
    const reach = Math.max(...ORE_PLACEMENTS.map((p) => p.size));
    const counts = new Map<string, number>();
    for (const [ore, codes] of Object.entries(ORES)) {
      const ranges = ORE_PLACEMENTS.filter((p) => p.ore === ore).map(oreRange);
      const low = Math.min(...ranges.map((r) => r[0])) - reach;
      const high = Math.max(...ranges.map((r) => r[1])) + reach;
      let n = 0;
      for (const chunk of AREA) {
        chunk.blocks.forEach((b, i) => {
          if (!codes.includes(b)) return;
          n++;
          const y = (i >> 8) + MIN_Y;
          expect(y).toBeGreaterThanOrEqual(low);
          expect(y).toBeLessThanOrEqual(high);
        });
      }
      counts.set(ore, n);
    }
    for (const ore of Object.keys(ORES)) expect(counts.get(ore), ore).toBeGreaterThan(0);
    // Diamonds only deep down (their placements end at y 16).
    expect(counts.get('coal')! > counts.get('diamond')!).toBe(true);
  });

  test('trees: upright logs of 4–8 under leaves whose distance states are those vanilla settles on', () => {
    let leaves = 0;
    for (const chunk of AREA) {
      for (let y = MIN_Y + 1; y < MIN_Y + WORLD_HEIGHT - 1; y++) {
        for (let z = 1; z < 15; z++) {
          for (let x = 1; x < 15; x++) {
            const b = at(chunk, x, y, z);
            const species = (Object.keys(LEAVES) as Array<keyof typeof LEAVES>).find((s) => LEAVES[s].includes(b));
            if (!species) continue;
            leaves++;
            // distance = 1 + the least distance of a neighbour (logs 0, other blocks 7), at most 7.
            const dist = (code: number) =>
              Object.values(LOGS).includes(code)
                ? 0
                : (Object.values(LEAVES)
                    .map((l) => l.indexOf(code))
                    .find((i) => i >= 0) ?? 6) + 1;
            const around = [
              at(chunk, x + 1, y, z),
              at(chunk, x - 1, y, z),
              at(chunk, x, y + 1, z),
              at(chunk, x, y - 1, z),
              at(chunk, x, y, z + 1),
              at(chunk, x, y, z - 1),
            ];
            expect(LEAVES[species].indexOf(b) + 1).toBe(Math.min(7, 1 + Math.min(...around.map(dist))));
          }
        }
      }
    }
    expect(leaves).toBeGreaterThan(500);
    // Trunks stand on dirt (vanilla turns the grass under a trunk to dirt) and are 4–8 logs tall.
    for (const chunk of AREA) {
      for (const tree of treesNear(generator, chunk.chunkX * 16 + 8, chunk.chunkZ * 16 + 8, 6)) {
        if (tree.x >> 4 !== chunk.chunkX || tree.z >> 4 !== chunk.chunkZ) continue;
        let logs = 0;
        while (
          isTreeBlock(at(chunk, tree.x & 15, tree.ground + 1 + logs, tree.z & 15)) &&
          Object.values(LOGS).includes(at(chunk, tree.x & 15, tree.ground + 1 + logs, tree.z & 15))
        )
          logs++;
        expect(logs).toBeGreaterThanOrEqual(4);
        expect(logs).toBeLessThanOrEqual(8);
        expect(BLOCK_SPECS[at(chunk, tree.x & 15, tree.ground, tree.z & 15)]!.name).toBe('dirt');
      }
    }
  });

  test('plants stand on the ground they need: flowers on grass, cacti on sand with free sides, cane beside water', () => {
    const gen = new SurvivalGenerator(3);
    const flowers = new Set<number>(Object.values(FLOWERS));
    let cane = 0;
    for (let cx = -6; cx < 6; cx++) {
      for (let cz = -6; cz < 6; cz++) {
        const chunk = gen.generate(cx, cz);
        for (let z = 1; z < 15; z++) {
          for (let x = 1; x < 15; x++) {
            for (let y = 50; y < 140; y++) {
              const b = at(chunk, x, y, z);
              const below = at(chunk, x, y - 1, z);
              if (flowers.has(b)) expect(below).toBe(GRASS_BLOCK);
              if (b === TALL_PLANTS.sunflower[0]) expect(at(chunk, x, y + 1, z)).toBe(TALL_PLANTS.sunflower[1]);
              if (b === CACTUS) {
                expect(below === SAND || below === CACTUS).toBe(true);
                for (const side of [at(chunk, x + 1, y, z), at(chunk, x - 1, y, z), at(chunk, x, y, z + 1), at(chunk, x, y, z - 1)])
                  expect(side).toBe(0);
              }
              if (b === SUGAR_CANE && below !== SUGAR_CANE) {
                cane++;
                const wet = [
                  at(chunk, x + 1, y - 1, z),
                  at(chunk, x - 1, y - 1, z),
                  at(chunk, x, y - 1, z + 1),
                  at(chunk, x, y - 1, z - 1),
                ];
                expect(wet).toContain(WATER);
              }
            }
          }
        }
      }
    }
    expect(cane).toBeGreaterThan(0);
  });

  test('the spawn is a forest spot on grass with room to stand and oaks around it; findSpot honours biomes and says when none is near', () => {
    const spawn = findSpawn(generator);
    expect(spawn.biome).toBe('forest');
    expect(findSpawn(SEED)).toEqual(spawn);
    const oaks = treesNear(generator, spawn.x, spawn.z, SPAWN_TREE_RADIUS).filter((t) => t.species === 'oak');
    expect(oaks.length).toBeGreaterThanOrEqual(SPAWN_OAKS);
    const chunk = generator.generate(spawn.x >> 4, spawn.z >> 4);
    expect(at(chunk, spawn.x & 15, spawn.y - 1, spawn.z & 15)).toBe(GRASS_BLOCK);
    const taiga = findSpot(SEED, { biomes: ['taiga'], near: { x: 300, z: -200 } });
    expect(taiga.biome).toBe('taiga');
    expect(() => findSpot(SEED, { biomes: ['desert'], maxDistance: 8 })).toThrow(/no desert spot within 8 blocks/);
    expect(() => findSpot(SEED, { biomes: ['jungle' as never] })).toThrow(/unknown biome "jungle".*plains/);
  });

  test('animals: farm animals in vanilla group sizes, sheep colours from vanilla odds', () => {
    const counts = new Map<string, number>();
    const colours = new Map<number, number>();
    for (let cx = -20; cx < 20; cx++) {
      for (let cz = -20; cz < 20; cz++) {
        for (const a of initialAnimals(generator.surfaces, cx, cz)) {
          counts.set(a.name, (counts.get(a.name) ?? 0) + 1);
          if (a.name === 'sheep') colours.set(a.woolColour!, (colours.get(a.woolColour!) ?? 0) + 1);
          for (const t of a.tries) expect([t.x >> 4, t.z >> 4]).toEqual([cx, cz]);
        }
      }
    }
    for (const name of ['sheep', 'cow', 'pig', 'chicken']) expect(counts.get(name), name).toBeGreaterThan(0);
    const sheep = [...colours.values()].reduce((a, b) => a + b, 0);
    expect(colours.get(0)! / sheep).toBeGreaterThan(0.65); // white: 81.8 %
    expect([...colours.keys()].every((c) => [0, 6, 7, 8, 12, 15].includes(c))).toBe(true);
  });

  test(`chunks for ${TEST_VERSION}: block states and biome ids from minecraft-data, sky light 15 in the open and 0 deep down`, () => {
    const registry = require('prismarine-registry')(TEST_VERSION);
    const Block = require('prismarine-block')(registry);
    const builder = new ChunkBuilder(registry);
    BLOCK_SPECS.forEach((spec, code) => {
      const block = Block.fromStateId(builder.stateIds[code]);
      expect(block.name).toBe(spec.name);
      for (const [k, v] of Object.entries(spec.properties ?? {})) expect(String(block.getProperties()[k])).toBe(String(v));
    });
    const chunk = AREA[14]!;
    const column = builder.build(chunk, (x, z) => generator.surfaces.column(chunk.chunkX * 16 + x, chunk.chunkZ * 16 + z).height);
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const h = chunk.heights[z * 16 + x]!;
        expect(column.getBlockStateId({ x, y: h, z })).toBe(builder.stateIds[at(chunk, x, h, z)]);
        expect(column.getSkyLight({ x, y: 200, z })).toBe(15);
        expect(column.getSkyLight({ x, y: -50, z })).toBe(0);
        const biome = BIOMES[chunk.cells[(z >> 2) * 4 + (x >> 2)]!]!;
        expect(column.getBiome({ x, y: h, z })).toBe(registry.biomesByName[biome].id);
      }
    }
  });
});
