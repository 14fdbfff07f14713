/**
 * The blocks and biomes the survival generator places, as small numeric codes independent of the
 * Minecraft version: the pure generator fills arrays of these codes, and ./chunk.ts maps them to
 * the server version's block state ids and biome ids (minecraft-data through prismarine-block) once
 * per server. Every name here exists in minecraft-data 1.21.1 and 1.21.4 (checked at start-up: an
 * unknown name throws).
 */

/** A block state by minecraft-data name and the properties that differ from its default. */
export interface BlockSpec {
  name: string;
  properties?: Record<string, string | number | boolean>;
}

const specs: BlockSpec[] = [];
function block(name: string, properties?: BlockSpec['properties']): number {
  specs.push({ name, properties });
  return specs.length - 1;
}

// Terrain. Air must be code 0 (a fresh array is all air).
export const AIR = block('air');
export const STONE = block('stone');
export const DEEPSLATE = block('deepslate', { axis: 'y' });
export const BEDROCK = block('bedrock');
export const DIRT = block('dirt');
export const GRASS_BLOCK = block('grass_block', { snowy: false });
export const SAND = block('sand');
export const SANDSTONE = block('sandstone');
export const GRAVEL = block('gravel');
export const CLAY = block('clay');
/** A still water source (`level=0`). */
export const WATER = block('water', { level: 0 });

/** Ores: the stone variant and the deepslate variant of each (vanilla `OreFeatures` targets). */
export const ORES = {
  coal: [block('coal_ore'), block('deepslate_coal_ore')],
  iron: [block('iron_ore'), block('deepslate_iron_ore')],
  copper: [block('copper_ore'), block('deepslate_copper_ore')],
  gold: [block('gold_ore'), block('deepslate_gold_ore')],
  redstone: [block('redstone_ore', { lit: false }), block('deepslate_redstone_ore', { lit: false })],
  lapis: [block('lapis_ore'), block('deepslate_lapis_ore')],
  diamond: [block('diamond_ore'), block('deepslate_diamond_ore')],
} as const;

/** Tree species the generator grows. */
export type Species = 'oak' | 'birch' | 'spruce';
export const SPECIES: readonly Species[] = ['oak', 'birch', 'spruce'];

/** Logs standing upright (`axis=y`), by species. */
export const LOGS: Record<Species, number> = {
  oak: block('oak_log', { axis: 'y' }),
  birch: block('birch_log', { axis: 'y' }),
  spruce: block('spruce_log', { axis: 'y' }),
};

/**
 * Natural leaves (`persistent=false`), by species: `LEAVES[species][distance - 1]` for the
 * distance 1–7 to the nearest log (vanilla `LeavesBlock`).
 */
export const LEAVES: Record<Species, readonly number[]> = {
  oak: [1, 2, 3, 4, 5, 6, 7].map((d) => block('oak_leaves', { distance: d, persistent: false, waterlogged: false })),
  birch: [1, 2, 3, 4, 5, 6, 7].map((d) => block('birch_leaves', { distance: d, persistent: false, waterlogged: false })),
  spruce: [1, 2, 3, 4, 5, 6, 7].map((d) => block('spruce_leaves', { distance: d, persistent: false, waterlogged: false })),
};

// Plants.
export const SHORT_GRASS = block('short_grass');
export const FERN = block('fern');
export const DEAD_BUSH = block('dead_bush');
export const SUGAR_CANE = block('sugar_cane', { age: 0 });
export const CACTUS = block('cactus', { age: 0 });
export const PUMPKIN = block('pumpkin');
/** Ripe (`age=3`), as vanilla's `patch_berry_bush` places them. */
export const SWEET_BERRY_BUSH = block('sweet_berry_bush', { age: 3 });

/** One-block flowers by name. */
export const FLOWERS = {
  dandelion: block('dandelion'),
  poppy: block('poppy'),
  allium: block('allium'),
  azure_bluet: block('azure_bluet'),
  red_tulip: block('red_tulip'),
  orange_tulip: block('orange_tulip'),
  white_tulip: block('white_tulip'),
  pink_tulip: block('pink_tulip'),
  oxeye_daisy: block('oxeye_daisy'),
  cornflower: block('cornflower'),
  lily_of_the_valley: block('lily_of_the_valley'),
} as const;

/** Two-block plants: the lower and the upper half (`half=lower|upper`). */
function tall(name: string): readonly [number, number] {
  return [block(name, { half: 'lower' }), block(name, { half: 'upper' })];
}
export const TALL_PLANTS = {
  tall_grass: tall('tall_grass'),
  large_fern: tall('large_fern'),
  sunflower: tall('sunflower'),
  lilac: tall('lilac'),
  rose_bush: tall('rose_bush'),
  peony: tall('peony'),
} as const;

/** Every block code's state, indexed by code. */
export const BLOCK_SPECS: readonly BlockSpec[] = specs;

/** Codes of logs and leaves (what trees are made of). */
const treeCodes = new Set<number>([...Object.values(LOGS), ...Object.values(LEAVES).flat()]);
export function isTreeBlock(code: number): boolean {
  return treeCodes.has(code);
}

/** Codes that are ground (solid terrain a plant, animal or player stands on). */
const groundCodes = new Set<number>([
  STONE,
  DEEPSLATE,
  BEDROCK,
  DIRT,
  GRASS_BLOCK,

  SAND,
  SANDSTONE,
  GRAVEL,
  CLAY,
  ...Object.values(ORES).flat(),
]);
export function isGround(code: number): boolean {
  return groundCodes.has(code);
}

/**
 * The biomes the generator uses, by minecraft-data name. Each 4×4×4 cell of a chunk reports one
 * of them to clients (the biome id of the server's version).
 */
export const BIOMES = [
  'plains',
  'sunflower_plains',
  'forest',
  'flower_forest',
  'birch_forest',
  'taiga',
  'desert',
  'river',
  'beach',
] as const;
export type BiomeName = (typeof BIOMES)[number];
/** Biome codes: index into {@link BIOMES}. */
export const BIOME = Object.fromEntries(BIOMES.map((name, i) => [name, i])) as Record<BiomeName, number>;
