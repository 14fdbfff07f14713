/**
 * The superflat world generator of the embedded server (`world: superflat`; the survival world is
 * ../worldgen/): vanilla 1.21's default superflat preset ("Classic
 * Flat": `minecraft:bedrock,2*minecraft:dirt,minecraft:grass_block;minecraft:plains`), laid out
 * as vanilla lays it in a 1.18+ overworld (min y −64, height 384): bedrock at y = −64, dirt at
 * −63 and −62, grass_block at −61, so players stand at y = −60 (Minecraft wiki "Superflat",
 * "Altitude"). MineCollab's construction blueprints assume exactly this (their level 0 is at −60).
 *
 * flying-squid picks a generator by name from its `generations` table; {@link registerSuperflat}
 * puts ours there under the name `superflat` before the server starts, in place of flying-squid's
 * (whose layers sit at y = 0..3), so the login packet still says `isFlat` and level.dat `flat`.
 */
import { createRequire } from 'node:module';
import type { Registry } from '../types.ts';

const require = createRequire(import.meta.url);

/** Name of our generator in flying-squid's `generations` table (the `generation.name` setting). */
export const VANILLA_SUPERFLAT = 'superflat';

/** Lowest block y of a 1.18+ overworld (vanilla dimension type `minecraft:overworld`, `min_y`). */
export const WORLD_MIN_Y = -64;
/** Height of a 1.18+ overworld in blocks (`height` of the dimension type). */
export const WORLD_HEIGHT = 384;
/** y of the bedrock layer. */
export const BEDROCK_Y = WORLD_MIN_Y;
/** y of the top (grass_block) layer. */
export const SURFACE_Y = -61;
/** y of the block a player stands in on the flat surface (feet). */
export const SPAWN_FEET_Y = SURFACE_Y + 1;

/** The layers from the bottom up (the preset's order). */
const LAYERS: ReadonlyArray<{ block: string; properties?: Record<string, string> }> = [
  { block: 'bedrock' },
  { block: 'dirt' },
  { block: 'dirt' },
  { block: 'grass_block', properties: { snowy: 'false' } },
];

interface ChunkColumn {
  setBlockStateId(position: { x: number; y: number; z: number }, stateId: number): void;
  setSkyLight(position: { x: number; y: number; z: number }, light: number): void;
  setBiome(position: { x: number; y: number; z: number }, biome: number): void;
  toJson(): string;
}

interface ChunkClass {
  new (options: object): ChunkColumn;
  fromJson(json: string): ChunkColumn;
}

/**
 * A flying-squid generator module: `(options) => (chunkX, chunkZ) => chunk`, where `options`
 * carries the server's registry. Every column is the same: it is built once and each one asked
 * for is a copy (prismarine-chunk's `fromJson`, a quarter of the time of building it again; the
 * world drops the columns nobody is near, so each lone join generates its 81 again).
 */
export function vanillaSuperflat(options: { registry: Registry }): () => ChunkColumn {
  const Chunk = (require('prismarine-chunk') as (r: Registry) => ChunkClass)(options.registry);
  const template = superflatColumn(options.registry, Chunk).toJson();
  return () => Chunk.fromJson(template);
}

/** One column of the superflat world, built block by block. */
function superflatColumn(registry: Registry, Chunk: ChunkClass): ChunkColumn {
  const Block = (require('prismarine-block') as (r: Registry) => { fromProperties(n: string, p: object, b: number): { stateId: number } })(
    registry,
  );
  const states = LAYERS.map(({ block, properties }) =>
    properties ? Block.fromProperties(block, properties, 0).stateId : registry.blocksByName[block]!.defaultState,
  );
  const plains = registry.biomesByName.plains!.id;
  const chunk = new Chunk({ minY: WORLD_MIN_Y, worldHeight: WORLD_HEIGHT });
  const at = { x: 0, y: 0, z: 0 };
  for (at.x = 0; at.x < 16; at.x++) {
    for (at.z = 0; at.z < 16; at.z++) {
      states.forEach((state, layer) => {
        at.y = WORLD_MIN_Y + layer;
        chunk.setBlockStateId(at, state);
      });
      // Open sky above the surface; biomes are stored per 4×4×4 cell.
      for (at.y = SURFACE_Y + 1; at.y < WORLD_MIN_Y + WORLD_HEIGHT; at.y++) chunk.setSkyLight(at, 15);
      for (at.y = WORLD_MIN_Y; at.y < WORLD_MIN_Y + WORLD_HEIGHT; at.y += 4) chunk.setBiome(at, plains);
    }
  }
  return chunk;
}

/** Puts {@link vanillaSuperflat} in flying-squid's generator table as {@link VANILLA_SUPERFLAT} (idempotent). */
export function registerSuperflat(): void {
  const generations = require('flying-squid/src/lib/generations') as Record<string, unknown>;
  generations[VANILLA_SUPERFLAT] = vanillaSuperflat;
}
