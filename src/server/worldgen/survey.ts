/**
 * What lies around a place of a survival world, from the seed alone (no server): the blocks of
 * the generated chunks by name, and the animals the chunks start with (./animals.ts). A task's
 * set-up uses it to choose a spot that holds what the task needs (logs, flowers, ores, sheep).
 * Pure and deterministic; chunk summaries are kept in a bounded cache.
 */
import { AIR, BLOCK_SPECS, WATER } from './blocks.ts';
import { blockIndex, type SurvivalGenerator } from './generator.ts';
import { initialAnimals, type AnimalName } from './animals.ts';
import { MIN_Y, WORLD_HEIGHT } from './terrain.ts';

/** Blocks of one code in one chunk beyond this many are counted, not located (stone, dirt...). */
const LOCATED_MAX = 4096;
/** Chunk summaries kept (least recently used dropped first). */
const CAPACITY = 512;

/** A place: block coordinates. */
export interface Place {
  x: number;
  y: number;
  z: number;
}

/** One chunk's blocks: where each rare code lies, and how many of each common one there are. */
interface ChunkSummary {
  /** Code → packed positions (x, y, z world coordinates, three entries a block). */
  located: Map<number, Int32Array>;
  /** Code → count per height (index y - MIN_Y), for codes with more than {@link LOCATED_MAX} blocks in the chunk. */
  counted: Map<number, Int32Array>;
}

/** One of a chunk's initial animals: its name, and where the first of its spawn tries is. */
interface ChunkAnimal {
  name: AnimalName;
  x: number;
  z: number;
}

/** The names of every block the survival generator places (minecraft-data names). */
export const SURVIVAL_BLOCKS: readonly string[] = [...new Set(BLOCK_SPECS.map((spec) => spec.name))].filter((name) => name !== 'air');

/** What lies around places of one seed's world (see the module comment). */
export class WorldSurvey {
  readonly generator: SurvivalGenerator;
  readonly #chunks = new Map<number, ChunkSummary>();
  readonly #animals = new Map<number, ChunkAnimal[]>();
  #generated = 0;

  constructor(generator: SurvivalGenerator) {
    this.generator = generator;
  }

  /**
   * Every block name within `radius` blocks of `at`, with its count (`only` keeps the names it
   * accepts). Rare blocks are counted within the sphere; common ones (stone, dirt) by whole
   * chunk columns around it, in the heights within `radius` of `at`.
   */
  blocksNear(at: Place, radius: number, only: (name: string) => boolean = () => true): Map<string, number> {
    const out = new Map<string, number>();
    const r2 = radius * radius;
    for (const [chunkX, chunkZ] of chunksAround(at, radius)) {
      const summary = this.#summary(chunkX, chunkZ);
      const low = Math.max(0, at.y - radius - MIN_Y);
      const high = Math.min(WORLD_HEIGHT - 1, at.y + radius - MIN_Y);
      for (const [code, perY] of summary.counted) {
        const name = BLOCK_SPECS[code]!.name;
        if (!only(name)) continue;
        let n = 0;
        for (let i = low; i <= high; i++) n += perY[i]!;
        if (n > 0) out.set(name, (out.get(name) ?? 0) + n);
      }
      for (const [code, p] of summary.located) {
        const name = BLOCK_SPECS[code]!.name;
        if (!only(name)) continue;
        let n = 0;
        for (let i = 0; i < p.length; i += 3) {
          if ((p[i]! - at.x) ** 2 + (p[i + 1]! - at.y) ** 2 + (p[i + 2]! - at.z) ** 2 <= r2) n++;
        }
        if (n > 0) out.set(name, (out.get(name) ?? 0) + n);
      }
    }
    return out;
  }

  /** How many chunks this survey has generated (a cost: 2–3 ms each). */
  get chunksGenerated(): number {
    return this.#generated;
  }

  /**
   * The animals the chunks around `at` start with that lie within `radius` blocks of it
   * (horizontally; where their group spawned: they wander), counted by name. Read from the
   * chunks' surfaces alone, without generating their blocks.
   */
  animalsNear(at: Place, radius: number): Map<AnimalName, number> {
    const out = new Map<AnimalName, number>();
    for (const [chunkX, chunkZ] of chunksAround(at, radius)) {
      for (const a of this.#animalsOf(chunkX, chunkZ)) {
        if ((a.x - at.x) ** 2 + (a.z - at.z) ** 2 <= radius * radius) out.set(a.name, (out.get(a.name) ?? 0) + 1);
      }
    }
    return out;
  }

  #animalsOf(chunkX: number, chunkZ: number): ChunkAnimal[] {
    return cached(this.#animals, chunkX * 65536 + chunkZ, () =>
      initialAnimals(this.generator.surfaces, chunkX, chunkZ).map((a) => ({ name: a.name, x: a.tries[0]!.x, z: a.tries[0]!.z })),
    );
  }

  #summary(chunkX: number, chunkZ: number): ChunkSummary {
    return cached(this.#chunks, chunkX * 65536 + chunkZ, () => this.#summarise(chunkX, chunkZ));
  }

  #summarise(chunkX: number, chunkZ: number): ChunkSummary {
    this.#generated++;
    const chunk = this.generator.generate(chunkX, chunkZ);
    const tally = new Map<number, number>();
    for (let y = MIN_Y; y <= chunk.top; y++) {
      for (let i = blockIndex(0, y, 0), end = i + 256; i < end; i++) {
        const code = chunk.blocks[i]!;
        if (code !== AIR) tally.set(code, (tally.get(code) ?? 0) + 1);
      }
    }
    const located = new Map<number, Int32Array>();
    const counted = new Map<number, Int32Array>();
    const filled = new Map<number, number>();
    for (const [code, n] of tally) {
      if (n > LOCATED_MAX || code === WATER) counted.set(code, new Int32Array(WORLD_HEIGHT));
      else {
        located.set(code, new Int32Array(3 * n));
        filled.set(code, 0);
      }
    }
    const x0 = chunkX * 16;
    const z0 = chunkZ * 16;
    for (let y = MIN_Y; y <= Math.min(chunk.top, MIN_Y + WORLD_HEIGHT - 1); y++) {
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          const code = chunk.blocks[blockIndex(x, y, z)]!;
          const perY = counted.get(code);
          if (perY) perY[y - MIN_Y]!++;
          const list = located.get(code);
          if (!list) continue;
          const at = filled.get(code)!;
          list[at] = x0 + x;
          list[at + 1] = y;
          list[at + 2] = z0 + z;
          filled.set(code, at + 3);
        }
      }
    }
    return { located, counted };
  }
}

/** `cache`'s value for `key`, made by `make` when absent; the least recently used of more than {@link CAPACITY} dropped. */
function cached<T>(cache: Map<number, T>, key: number, make: () => T): T {
  let value = cache.get(key);
  if (value !== undefined) cache.delete(key);
  else value = make();
  cache.set(key, value);
  if (cache.size > CAPACITY) cache.delete(cache.keys().next().value!);
  return value;
}

/** The chunks (x, z in chunks) with a column within `radius` blocks of `at` horizontally. */
function* chunksAround(at: Place, radius: number): Generator<[number, number]> {
  for (let chunkX = Math.floor((at.x - radius) / 16); chunkX <= Math.floor((at.x + radius) / 16); chunkX++) {
    for (let chunkZ = Math.floor((at.z - radius) / 16); chunkZ <= Math.floor((at.z + radius) / 16); chunkZ++) {
      const dx = Math.max(chunkX * 16 - at.x, 0, at.x - (chunkX * 16 + 15));
      const dz = Math.max(chunkZ * 16 - at.z, 0, at.z - (chunkZ * 16 + 15));
      if (dx * dx + dz * dz <= radius * radius) yield [chunkX, chunkZ];
    }
  }
}
