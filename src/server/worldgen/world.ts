/**
 * One survival world of the embedded server: its seed, its generator, its spawn, and the
 * flying-squid generator module that serves its chunks ({@link registerSurvival}).
 */
import { createRequire } from 'node:module';
import type { Registry } from '../types.ts';
import { ChunkBuilder, type ChunkColumn } from './chunk.ts';
import { SurvivalGenerator } from './generator.ts';
import { findSpawn, type Spot } from './spawn.ts';

const require = createRequire(import.meta.url);

/** Name of the survival generator in flying-squid's `generations` table (the `generation.name` setting). */
export const SURVIVAL = 'survival';

/** The smallest and largest seeds (32-bit: level.dat keeps them as flying-squid writes them). */
export const MIN_SEED = -2_147_483_648;
export const MAX_SEED = 2_147_483_647;

/** A survival world: a seed's generator, its spawn, and its chunks for one server version. */
export class SurvivalWorld {
  readonly seed: number;
  readonly generator: SurvivalGenerator;
  /** Where players spawn: the feet block (see ./spawn.ts `findSpawn`). */
  readonly spawn: Spot;
  readonly #builders = new WeakMap<Registry, ChunkBuilder>();

  /** @throws Error for a seed that is not a 32-bit whole number, or one with no forest within 4096 blocks. */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < MIN_SEED || seed > MAX_SEED) {
      throw new Error(`seed ${seed} is not a whole number from ${MIN_SEED} to ${MAX_SEED}`);
    }
    this.seed = seed;
    this.generator = new SurvivalGenerator(seed);
    this.spawn = findSpawn(this.generator);
  }

  /** The chunk builder of a server version (made once per registry). */
  builder(registry: Registry): ChunkBuilder {
    let builder = this.#builders.get(registry);
    if (!builder) this.#builders.set(registry, (builder = new ChunkBuilder(registry)));
    return builder;
  }

  /** Generates chunk column (chunkX, chunkZ) for a server version: a prismarine-chunk column. */
  column(registry: Registry, chunkX: number, chunkZ: number): ChunkColumn {
    const chunk = this.generator.generate(chunkX, chunkZ);
    const x0 = chunkX * 16;
    const z0 = chunkZ * 16;
    return this.builder(registry).build(chunk, (x, z) => this.generator.surfaces.column(x0 + x, z0 + z).height);
  }
}

/**
 * Puts the survival generator in flying-squid's generator table as {@link SURVIVAL} (idempotent).
 * flying-squid calls it with the `generation.options` the server was started with plus its
 * registry; those options must carry the world as `survival`.
 */
export function registerSurvival(): void {
  const generations = require('flying-squid/src/lib/generations') as Record<string, unknown>;
  generations[SURVIVAL] = (options: { registry: Registry; survival?: SurvivalWorld }) => {
    const world = options.survival;
    if (!world) throw new Error('the survival generator needs its world in generation.options.survival');
    return (chunkX: number, chunkZ: number) => world.column(options.registry, chunkX, chunkZ);
  };
}
