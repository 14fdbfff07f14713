/**
 * Finding places in a survival world without a server: {@link findSpot} searches outward from a
 * point for dry ground in given biomes with room to stand, and {@link findSpawn} picks the world
 * spawn: the nearest forest spot to the origin with oak trees around it (MineCollab's crafting
 * tasks start in a forest, its appendix "Task resetting"). Pure: the same seed gives the same spot
 * on every machine.
 */
import { AIR, BIOMES, FERN, FLOWERS, SHORT_GRASS, isGround, type BiomeName } from './blocks.ts';
import { blockIndex, SurvivalGenerator, type GeneratedChunk } from './generator.ts';
import { SURFACE } from './surface.ts';
import { treesOfChunk, type TreeSpot } from './trees.ts';

/** A place to stand: the block a player's feet are in, and its biome. */
export interface Spot {
  x: number;
  y: number;
  z: number;
  biome: BiomeName;
}

/** What {@link findSpot} looks for. */
export interface SpotQuery {
  /** Biomes the spot may be in; default any dry-land biome. */
  biomes?: readonly BiomeName[];
  /** Where the search starts (blocks); default the origin. */
  near?: { x: number; z: number };
  /** How far from `near` to look, in blocks (Chebyshev); default 4096. */
  maxDistance?: number;
  /** A further test a spot must pass (e.g. trees around it: {@link treesNear}). */
  accept?: (spot: Spot, generator: SurvivalGenerator) => boolean;
}

/** Surfaces a spot may be on: grass, sand of a shore or a desert (not a bare slope, not a lake bed). */
const STANDING = new Set<number>([SURFACE.grass, SURFACE.shore, SURFACE.desert]);
/** Search step between columns tried, in blocks. */
const STEP = 4;
/** Blocks a player's feet and head may be in: air and the plants one walks through. */
const PASSABLE = new Set<number>([AIR, SHORT_GRASS, FERN, ...Object.values(FLOWERS)]);

/**
 * The nearest spot to `query.near` (searching rings every 4 blocks outward) on dry ground in one
 * of `query.biomes`, with two free blocks above the ground (no tree, no cave mouth), that passes
 * `query.accept`.
 *
 * @param seed the world seed, or a generator of it (reused: its caches help repeated searches).
 * @throws Error when no spot lies within `maxDistance`, or for an unknown biome name.
 * @example findSpot(seed, { biomes: ['taiga'], near: { x: 500, z: 0 } }) // { x, y, z, biome: 'taiga' }
 */
export function findSpot(seed: number | SurvivalGenerator, query: SpotQuery = {}): Spot {
  const generator = typeof seed === 'number' ? new SurvivalGenerator(seed) : seed;
  for (const name of query.biomes ?? []) {
    if (!BIOMES.includes(name)) throw new Error(`unknown biome "${name}": the survival world has ${BIOMES.join(', ')}`);
  }
  const wanted = new Set((query.biomes ?? BIOMES.filter((b) => b !== 'river')).map((b) => BIOMES.indexOf(b)));
  const near = query.near ?? { x: 0, z: 0 };
  const maxDistance = query.maxDistance ?? 4096;
  const chunks = new Map<string, GeneratedChunk>();
  const chunkOf = (x: number, z: number): GeneratedChunk => {
    const key = `${x >> 4},${z >> 4}`;
    let chunk = chunks.get(key);
    if (!chunk) {
      if (chunks.size >= 16) chunks.delete(chunks.keys().next().value!);
      chunks.set(key, (chunk = generator.generate(x >> 4, z >> 4)));
    }
    return chunk;
  };
  const cx = Math.round(near.x / STEP) * STEP;
  const cz = Math.round(near.z / STEP) * STEP;
  for (let r = 0; r <= maxDistance; r += STEP) {
    for (const [x, z] of ring(cx, cz, r)) {
      const column = generator.surfaces.column(x, z);
      if (!wanted.has(column.biome) || column.entrance || !STANDING.has(column.kind)) continue;
      const chunk = chunkOf(x, z);
      const lx = x & 15;
      const lz = z & 15;
      const h = column.height;
      if (!isGround(chunk.blocks[blockIndex(lx, h, lz)]!)) continue;
      if (!PASSABLE.has(chunk.blocks[blockIndex(lx, h + 1, lz)]!) || !PASSABLE.has(chunk.blocks[blockIndex(lx, h + 2, lz)]!)) continue;
      const spot: Spot = { x, y: h + 1, z, biome: BIOMES[column.biome]! };
      if (!query.accept || query.accept(spot, generator)) return spot;
    }
  }
  throw new Error(
    `no ${query.biomes ? query.biomes.join(' or ') : 'dry land'} spot within ${maxDistance} blocks of ${near.x}, ${near.z} in this world: look further (maxDistance) or ask for other biomes`,
  );
}

/** The columns of the square ring at Chebyshev distance `r` from (cx, cz), every {@link STEP} blocks. */
function* ring(cx: number, cz: number, r: number): Generator<[number, number]> {
  if (r === 0) {
    yield [cx, cz];
    return;
  }
  for (let d = -r; d < r; d += STEP) {
    yield [cx + d, cz - r];
    yield [cx + r, cz + d];
    yield [cx - d, cz + r];
    yield [cx - r, cz - d];
  }
}

/** The trees whose trunks stand within `radius` blocks (horizontally) of (x, z). */
export function treesNear(generator: SurvivalGenerator, x: number, z: number, radius: number): TreeSpot[] {
  const out: TreeSpot[] = [];
  for (let chunkX = (x - radius) >> 4; chunkX <= (x + radius) >> 4; chunkX++) {
    for (let chunkZ = (z - radius) >> 4; chunkZ <= (z + radius) >> 4; chunkZ++) {
      for (const tree of treesOfChunk(generator.surfaces, chunkX, chunkZ)) {
        if ((tree.x - x) ** 2 + (tree.z - z) ** 2 <= radius * radius) out.push(tree);
      }
    }
  }
  return out;
}

/** Oak trees around the world spawn, within {@link SPAWN_TREE_RADIUS} blocks. */
export const SPAWN_OAKS = 3;
export const SPAWN_TREE_RADIUS = 10;

/**
 * The world spawn of a seed: the nearest forest spot to the origin with at least
 * {@link SPAWN_OAKS} oak trees within {@link SPAWN_TREE_RADIUS} blocks (so `!collectBlocks("oak_log", 3)`
 * works at once).
 *
 * @throws Error when the seed has no such forest within 4096 blocks.
 */
export function findSpawn(seed: number | SurvivalGenerator): Spot {
  return findSpot(seed, {
    biomes: ['forest'],
    accept: (spot, generator) =>
      generator.surfaces.column(spot.x, spot.z).kind === SURFACE.grass &&
      treesNear(generator, spot.x, spot.z, SPAWN_TREE_RADIUS).filter((t) => t.species === 'oak').length >= SPAWN_OAKS,
  });
}
