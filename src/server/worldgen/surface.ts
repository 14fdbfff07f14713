/**
 * What lies on top of each column of a chunk, derived from ./terrain.ts: the ground height, the
 * biome of each 4×4 cell, and the kind of surface (grass, a sandy shore, desert sand, a bare stone
 * outcrop on a steep hillside, or a lake or river bed). Computed once per chunk and kept in a
 * bounded cache: neighbouring chunks read each other's surfaces (trees near a border, shores).
 */
import { BIOME } from './blocks.ts';
import { Terrain, WATER_TOP } from './terrain.ts';

/** Kinds of surface. */
export const SURFACE = {
  /** grass_block over dirt. */
  grass: 0,
  /** sand over sandstone: dry land at most two blocks above the water, within two columns of it. */
  shore: 1,
  /** desert sand over sandstone. */
  desert: 2,
  /** bare stone on a steep hillside (ores show in it). */
  outcrop: 3,
  /** the bed of a lake or river: gravel, sand or clay under water. */
  bed: 4,
} as const;

/** Columns of the area kept around a chunk on each side (shores look two columns out). */
export const MARGIN = 2;
/** Width of the area: the chunk and its margin. */
export const AREA = 16 + 2 * MARGIN;

/** The surface of one chunk. Column arrays are indexed `z * 16 + x` (chunk-local). */
export interface ChunkSurface {
  chunkX: number;
  chunkZ: number;
  /** Ground heights of the chunk and {@link MARGIN} columns around it, indexed `(z + MARGIN) * AREA + (x + MARGIN)`. */
  area: Int16Array;
  /** Ground height of each column. */
  height: Int16Array;
  /** Biome code (../blocks.ts `BIOME`) of each column: its 4×4 cell's. */
  biome: Uint8Array;
  /** Biome code of each 4×4 cell, indexed `(z >> 2) * 4 + (x >> 2)`. */
  cells: Uint8Array;
  /** {@link SURFACE} kind of each column. */
  kind: Uint8Array;
  /** 1 where caves may break the surface ({@link Terrain.caveEntrance}). */
  entrance: Uint8Array;
}

/** The surfaces of one seed's chunks, with a bounded cache. */
export class Surfaces {
  readonly terrain: Terrain;
  readonly #cache = new Map<number, ChunkSurface>();
  readonly #capacity: number;

  /** @param capacity chunks kept (least recently used dropped first). */
  constructor(terrain: Terrain, capacity = 1024) {
    this.terrain = terrain;
    this.#capacity = capacity;
  }

  /** The surface of chunk (chunkX, chunkZ). */
  of(chunkX: number, chunkZ: number): ChunkSurface {
    const key = chunkKey(chunkX, chunkZ);
    const hit = this.#cache.get(key);
    if (hit) {
      this.#cache.delete(key);
      this.#cache.set(key, hit);
      return hit;
    }
    const surface = computeSurface(this.terrain, chunkX, chunkZ);
    this.#cache.set(key, surface);
    if (this.#cache.size > this.#capacity) this.#cache.delete(this.#cache.keys().next().value!);
    return surface;
  }

  /**
   * A value derived from a chunk's surface (`name` says which), computed once and kept as long
   * as the chunk's surface is.
   */
  memo<T>(name: string, chunkX: number, chunkZ: number, compute: () => T): T {
    const surface = this.of(chunkX, chunkZ) as ChunkSurface & { memo?: Map<string, unknown> };
    surface.memo ??= new Map();
    if (surface.memo.has(name)) return surface.memo.get(name) as T;
    const value = compute();
    surface.memo.set(name, value);
    return value;
  }

  /** The surface kind, height and biome of one column (world coordinates). */
  column(x: number, z: number): { height: number; biome: number; kind: number; entrance: boolean } {
    const s = this.of(x >> 4, z >> 4);
    const i = (z & 15) * 16 + (x & 15);
    return { height: s.height[i]!, biome: s.biome[i]!, kind: s.kind[i]!, entrance: s.entrance[i] === 1 };
  }
}

/**
 * A number naming chunk (chunkX, chunkZ), unique within the world's ±30 million blocks (±2²¹ chunks).
 */
export function chunkKey(chunkX: number, chunkZ: number): number {
  return (chunkX + 2_097_152) * 4_194_304 + (chunkZ + 2_097_152);
}

function computeSurface(terrain: Terrain, chunkX: number, chunkZ: number): ChunkSurface {
  const x0 = chunkX * 16;
  const z0 = chunkZ * 16;
  const area = new Int16Array(AREA * AREA);
  const channelArea = new Uint8Array(AREA * AREA);
  for (let dz = 0; dz < AREA; dz++) {
    for (let dx = 0; dx < AREA; dx++) {
      const shape = terrain.shape(x0 + dx - MARGIN, z0 + dz - MARGIN);
      area[dz * AREA + dx] = shape.height;
      channelArea[dz * AREA + dx] = shape.channel ? 1 : 0;
    }
  }
  const at = (x: number, z: number) => area[(z + MARGIN) * AREA + (x + MARGIN)]!;
  const height = new Int16Array(256);
  const kind = new Uint8Array(256);
  const entrance = new Uint8Array(256);
  const shore = (x: number, z: number): boolean => {
    const h = at(x, z);
    if (h < WATER_TOP || h > WATER_TOP + 2) return false;
    for (let dz = -MARGIN; dz <= MARGIN; dz++) for (let dx = -MARGIN; dx <= MARGIN; dx++) if (at(x + dx, z + dz) < WATER_TOP) return true;
    return false;
  };
  const cells = new Uint8Array(16);
  for (let cz = 0; cz < 4; cz++) {
    for (let cx = 0; cx < 4; cx++) {
      const x = cx * 4 + 2;
      const z = cz * 4 + 2;
      const h = at(x, z);
      const climate = terrain.climateBiome(x0 + x, z0 + z);
      let biome = climate;
      if (h < WATER_TOP) biome = channelArea[(z + MARGIN) * AREA + (x + MARGIN)] ? BIOME.river : climate;
      else if (shore(x, z) && climate !== BIOME.desert) biome = BIOME.beach;
      cells[cz * 4 + cx] = biome;
    }
  }
  const biome = new Uint8Array(256);
  for (let z = 0; z < 16; z++) {
    for (let x = 0; x < 16; x++) {
      const i = z * 16 + x;
      const h = at(x, z);
      height[i] = h;
      const b = cells[(z >> 2) * 4 + (x >> 2)]!;
      biome[i] = b;
      const slope = Math.max(
        Math.abs(h - at(x - 1, z)),
        Math.abs(h - at(x + 1, z)),
        Math.abs(h - at(x, z - 1)),
        Math.abs(h - at(x, z + 1)),
      );
      let k: number = SURFACE.grass;
      if (h < WATER_TOP) k = SURFACE.bed;
      else if (b === BIOME.desert) k = SURFACE.desert;
      else if (shore(x, z)) k = SURFACE.shore;
      else if (slope >= 5 || (slope >= 3 && h >= 74)) k = SURFACE.outcrop;
      kind[i] = k;
      entrance[i] = k !== SURFACE.bed && k !== SURFACE.shore && terrain.caveEntrance(x0 + x, z0 + z) ? 1 : 0;
    }
  }
  return { chunkX, chunkZ, area, height, biome, cells, kind, entrance };
}
