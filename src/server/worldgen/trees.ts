/**
 * Trees of the survival world: where they stand (pure, per chunk, the same whichever chunk asks)
 * and their shapes, after vanilla 1.21's tree features (`TreeFeatures`, Minecraft wiki "Tree"):
 *
 * - oak (`TreeFeatures.OAK`): `StraightTrunkPlacer(4, 2, 0)` — a trunk of 4–6 logs — and
 *   `BlobFoliagePlacer(radius 2, offset 0, height 3)`: four leaf layers from the block above the
 *   trunk down, of radius 1, 1, 2, 2; a layer's corners are left out half the time, and always on
 *   the top layer;
 * - birch (`TreeFeatures.BIRCH`): `StraightTrunkPlacer(5, 2, 0)` — 5–7 logs — with the oak's blob;
 * - spruce (`TreeFeatures.SPRUCE`): `StraightTrunkPlacer(5, 2, 1)` — 5–8 logs — and
 *   `SpruceFoliagePlacer(radius 2–3, offset 0–2, trunk height 1–2)`: layers from `offset` above the
 *   trunk's top down to `max(4, height − trunk height)` below it, their radius growing 0, 1, 0, 1,
 *   2, 0, 1, 2, 3 … up to the radius, corners always left out.
 *
 * Leaves never replace logs or ground; logs replace leaves. Which trees grow where (vanilla
 * placed features, per chunk): forest and flower forest `trees_birch_and_oak` / `trees_flower_forest`
 * (birch one in five, else oak; 10 and 6 a chunk), birch forest `trees_birch` (10), taiga
 * `trees_taiga` (10; spruce here, vanilla's pines left out), plains `trees_plains` (0.05 a chunk,
 * oak). Fancy (branched) oaks and bee nests are left out. As vanilla's tree feature checks for
 * room, two trunks never stand side by side: of two candidates within one block, the one with the
 * higher priority (a hash of its position) grows.
 */
import { BIOME, type Species } from './blocks.ts';
import { hashAt, SALT, unitAt } from './random.ts';
import { SURFACE, type Surfaces } from './surface.ts';
import { WATER_TOP } from './terrain.ts';

/** A tree that grows: its trunk column, the ground block's y under it, its species and priority. */
export interface TreeSpot {
  x: number;
  z: number;
  ground: number;
  species: Species;
  priority: number;
}

/** Expected trees a chunk per biome code (vanilla `countExtra(n, 0.1, 1)` ≈ n + 0.1). */
const TREES_PER_CHUNK: Record<number, number> = {
  [BIOME.forest]: 10.1,
  [BIOME.flower_forest]: 6.1,
  [BIOME.birch_forest]: 10.1,
  [BIOME.taiga]: 10.1,
  [BIOME.plains]: 0.05,
  [BIOME.sunflower_plains]: 0.05,
};
/** Tries a chunk; each succeeds with the biome's rate / tries. */
const TRIES = 11;

/** {@link candidates}, remembered per chunk. */
function candidatesOf(surfaces: Surfaces, chunkX: number, chunkZ: number): TreeSpot[] {
  return surfaces.memo('candidates', chunkX, chunkZ, () => candidates(surfaces, chunkX, chunkZ));
}

/** The trees a chunk would grow on its own (before neighbours' trees are weighed). */
function candidates(surfaces: Surfaces, chunkX: number, chunkZ: number): TreeSpot[] {
  const seed = surfaces.terrain.seed;
  const s = surfaces.of(chunkX, chunkZ);
  const out: TreeSpot[] = [];
  for (let t = 0; t < TRIES; t++) {
    const h = hashAt(seed, SALT.treeSpot, chunkX, chunkZ, t);
    const lx = h & 15;
    const lz = (h >>> 4) & 15;
    const i = lz * 16 + lx;
    const biome = s.biome[i]!;
    const rate = TREES_PER_CHUNK[biome] ?? 0;
    if (rate === 0 || unitAt(seed, SALT.treeCount, chunkX, chunkZ, t) >= rate / TRIES) continue;
    if (s.kind[i] !== SURFACE.grass || s.entrance[i] === 1 || s.height[i]! < WATER_TOP) continue;
    const x = chunkX * 16 + lx;
    const z = chunkZ * 16 + lz;
    let species: Species = 'oak';
    if (biome === BIOME.birch_forest) species = 'birch';
    else if (biome === BIOME.taiga) species = 'spruce';
    else if ((biome === BIOME.forest || biome === BIOME.flower_forest) && unitAt(seed, SALT.treeShape, x, z, 99) < 0.2) species = 'birch';
    out.push({ x, z, ground: s.height[i]!, species, priority: (h >>> 8) * 16 + t });
  }
  return out;
}

/** True when spot `a` yields to `b` (lower priority; ties by position). */
function yields(a: TreeSpot, b: TreeSpot): boolean {
  if (a.priority !== b.priority) return a.priority < b.priority;
  return a.x !== b.x ? a.x < b.x : a.z < b.z;
}

/**
 * The trees that grow in chunk (chunkX, chunkZ): its candidates, less those within one block of a
 * candidate (of this chunk or a neighbour) with a higher priority.
 */
export function treesOfChunk(surfaces: Surfaces, chunkX: number, chunkZ: number): TreeSpot[] {
  return surfaces.memo('trees', chunkX, chunkZ, () => growingTrees(surfaces, chunkX, chunkZ));
}

function growingTrees(surfaces: Surfaces, chunkX: number, chunkZ: number): TreeSpot[] {
  const own = candidatesOf(surfaces, chunkX, chunkZ);
  if (own.length === 0) return own;
  const near: TreeSpot[] = [];
  for (let dz = -1; dz <= 1; dz++) {
    for (let dx = -1; dx <= 1; dx++) near.push(...(dx === 0 && dz === 0 ? own : candidatesOf(surfaces, chunkX + dx, chunkZ + dz)));
  }
  return own.filter((a) => !near.some((b) => b !== a && Math.abs(a.x - b.x) <= 1 && Math.abs(a.z - b.z) <= 1 && yields(a, b)));
}

/** Receives one block of a tree: offsets from the trunk's ground block, and whether it is a log. */
export type TreeBlockSink = (dx: number, dy: number, dz: number, log: boolean) => void;

/** vanilla `FoliagePlacer.placeLeavesRow`: a square of radius `range` at height `dy`, minus skipped corners. */
function leavesRow(range: number, dy: number, skip: (dx: number, dz: number) => boolean, emit: TreeBlockSink): void {
  for (let dz = -range; dz <= range; dz++) {
    for (let dx = -range; dx <= range; dx++) {
      if (Math.abs(dx) === range && Math.abs(dz) === range && skip(dx, dz)) continue;
      emit(dx, dy, dz, false);
    }
  }
}

/**
 * The blocks of one tree (see the module comment for the shapes): logs first, then leaves (a
 * leaf on a log's position is to be ignored by the caller).
 *
 * @returns the trunk height (logs).
 */
export function growTree(seed: number, spot: TreeSpot, emit: TreeBlockSink): number {
  const { x, z } = spot;
  const r = (k: number, n: number) => Math.floor(unitAt(seed, SALT.treeShape, x, z, k) * n);
  let height: number;
  if (spot.species === 'spruce') height = 5 + r(0, 3) + r(1, 2);
  else if (spot.species === 'birch') height = 5 + r(0, 3);
  else height = 4 + r(0, 3);
  for (let dy = 1; dy <= height; dy++) emit(0, dy, 0, true);
  const attach = height + 1; // vanilla's foliage attachment: the block above the top log
  if (spot.species === 'spruce') {
    const trunkHeight = 1 + r(2, 2);
    const foliageHeight = Math.max(4, height - trunkHeight);
    const radius = 2 + r(3, 2);
    const offset = r(4, 3);
    let range = r(5, 2);
    let limit = 1;
    let next = 0;
    for (let l = offset; l >= -foliageHeight; l--) {
      leavesRow(range, attach + l, () => range > 0, emit);
      if (range >= limit) {
        range = next;
        next = 1;
        limit = Math.min(limit + 1, radius);
      } else {
        range++;
      }
    }
  } else {
    // BlobFoliagePlacer(2, 0, 3): for i = 0 … −3, radius max(2 − 1 − i / 2, 0) (integer division towards 0).
    for (let i = 0; i >= -3; i--) {
      const range = Math.max(2 - 1 - Math.trunc(i / 2), 0);
      leavesRow(range, attach + i, (dx, dz) => i === 0 || unitAt(seed, SALT.leafCorner, x + dx, z + dz, attach + i) < 0.5, emit);
    }
  }
  return height;
}
