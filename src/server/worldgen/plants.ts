/**
 * Surface plants, per column and pure (a hash of the seed and the column picks them), after
 * vanilla 1.21's vegetation features per biome (`VegetationPlacements`, `BiomeDefaultFeatures`;
 * Minecraft wiki "Flower", "Grass", "Fern", "Sugar Cane", "Cactus", "Pumpkin"):
 *
 * - plains (`patch_grass_plain`, `flower_plains`): short and tall grass; dandelion, poppy, azure
 *   bluet, oxeye daisy, cornflower, and the four tulips; sunflower plains add sunflowers;
 * - forest and birch forest (`flower_default`, `forest_flowers`, `patch_grass_forest`): grass,
 *   dandelion and poppy, and the forest flowers lilac, rose bush, peony and lily of the valley;
 * - flower forest (`flower_flower_forest`): every flower above plus allium, many of them;
 * - taiga (`patch_taiga_grass`, `patch_large_fern`, `patch_berry_common`): ferns, large ferns, some
 *   grass, ripe sweet berry bushes;
 * - desert (`patch_cactus_desert`, `patch_dead_bush_2`): cactus 1–3 tall (vanilla
 *   `BiasedToBottomInt(1, 3)`), dead bushes;
 * - sugar cane (`patch_sugar_cane`) on ground at the water's level beside water, 2–4 tall
 *   (`BiasedToBottomInt(2, 4)`);
 * - pumpkins (`patch_pumpkin`) in patches of a few, in grassy biomes.
 *
 * Flowers of one kind grow together: the kind is drawn per 8×8 patch of columns (vanilla's
 * `random_patch` scatters one kind around a point). Our densities are per column and rounder than
 * vanilla's; pumpkin patches come once in 24 chunks where vanilla's come once in 300
 * (`RarityFilter.onAverageOnceEvery(300)`), since pumpkins are a MineCollab ingredient.
 */
import { BIOME, CACTUS, DEAD_BUSH, FERN, FLOWERS, SHORT_GRASS, SUGAR_CANE, SWEET_BERRY_BUSH, TALL_PLANTS } from './blocks.ts';
import { hashAt, SALT, unitAt } from './random.ts';

/** A plant: its blocks from the bottom up. */
export type Plant = readonly number[];

type Choose = (seed: number, x: number, z: number) => Plant;
type Entry = readonly [chance: number, choose: Choose];

const one =
  (code: number): Choose =>
  () => [code];
const tall =
  (pair: readonly [number, number]): Choose =>
  () => [pair[0], pair[1]];
/** One of `kinds`, the same for every column of an 8×8 patch (`level` tells nested choices apart). */
const patchOf =
  (kinds: readonly Choose[], level = 0): Choose =>
  (seed, x, z) =>
    kinds[hashAt(seed, SALT.flowerPatch, x >> 3, z >> 3, level) % kinds.length]!(seed, x, z);
/** vanilla `BiasedToBottomInt(min, max)`: min + nextInt(nextInt(max − min + 1) + 1). */
function biased(seed: number, x: number, z: number, min: number, max: number): number {
  const a = Math.floor(unitAt(seed, SALT.plantHeight, x, z, 0) * (max - min + 1));
  return min + Math.floor(unitAt(seed, SALT.plantHeight, x, z, 1) * (a + 1));
}

const F = FLOWERS;
const T = TALL_PLANTS;
const TULIPS = [F.red_tulip, F.orange_tulip, F.white_tulip, F.pink_tulip].map(one);
const PLAINS_FLOWERS = patchOf([...[F.dandelion, F.poppy, F.azure_bluet, F.oxeye_daisy, F.cornflower].map(one), patchOf(TULIPS, 1)]);
const DEFAULT_FLOWERS = patchOf([one(F.dandelion), one(F.dandelion), one(F.poppy)]);
const FOREST_FLOWERS = patchOf([tall(T.lilac), tall(T.rose_bush), tall(T.peony), one(F.lily_of_the_valley)]);
const FLOWER_FOREST = patchOf(
  [
    F.dandelion,
    F.poppy,
    F.allium,
    F.azure_bluet,
    F.red_tulip,
    F.orange_tulip,
    F.white_tulip,
    F.pink_tulip,
    F.oxeye_daisy,
    F.cornflower,
    F.lily_of_the_valley,
  ].map(one),
);
const CACTI: Choose = (seed, x, z) => Array(biased(seed, x, z, 1, 3)).fill(CACTUS) as number[];

/** Per biome: the chance of each plant on a grassy (or desert sand) column, tried in order. */
const TABLES: Partial<Record<number, readonly Entry[]>> = {
  [BIOME.plains]: [
    [0.025, PLAINS_FLOWERS],
    [0.03, tall(T.tall_grass)],
    [0.25, one(SHORT_GRASS)],
  ],
  [BIOME.sunflower_plains]: [
    [0.04, tall(T.sunflower)],
    [0.025, PLAINS_FLOWERS],
    [0.03, tall(T.tall_grass)],
    [0.25, one(SHORT_GRASS)],
  ],
  [BIOME.forest]: [
    [0.008, FOREST_FLOWERS],
    [0.012, DEFAULT_FLOWERS],
    [0.01, tall(T.tall_grass)],
    [0.15, one(SHORT_GRASS)],
  ],
  [BIOME.birch_forest]: [
    [0.008, FOREST_FLOWERS],
    [0.012, DEFAULT_FLOWERS],
    [0.01, tall(T.tall_grass)],
    [0.15, one(SHORT_GRASS)],
  ],
  [BIOME.flower_forest]: [
    [0.012, FOREST_FLOWERS],
    [0.18, FLOWER_FOREST],
    [0.08, one(SHORT_GRASS)],
  ],
  [BIOME.taiga]: [
    [0.006, one(SWEET_BERRY_BUSH)],
    [0.004, DEFAULT_FLOWERS],
    [0.02, tall(T.large_fern)],
    [0.1, one(FERN)],
    [0.05, one(SHORT_GRASS)],
  ],
  [BIOME.desert]: [
    [0.012, CACTI],
    [0.012, one(DEAD_BUSH)],
  ],
};

/**
 * The plant of column (x, z) in `biome`, or undefined for none. Cactus only grows on columns
 * whose x and z are both even, so that two cacti never touch (a cactus beside a solid block
 * breaks, vanilla `CactusBlock.canSurvive`).
 */
export function plantAt(seed: number, biome: number, x: number, z: number): Plant | undefined {
  const table = TABLES[biome];
  if (!table) return undefined;
  let u = unitAt(seed, SALT.plant, x, z);
  for (const [chance, choose] of table) {
    if (u < chance) {
      if (choose === CACTI && ((x | z) & 1) !== 0) return undefined;
      return choose(seed, x, z);
    }
    u -= chance;
  }
  return undefined;
}

/** Sugar cane for a column beside water at the water's level (25 % of them), 2–4 tall. */
export function sugarCaneAt(seed: number, x: number, z: number): Plant | undefined {
  if (unitAt(seed, SALT.plantKind, x, z) >= 0.25) return undefined;
  return Array(biased(seed, x, z, 2, 4)).fill(SUGAR_CANE) as number[];
}

/** True for the plants that need sand under them (cactus, dead bush); the rest need grass. */
export function growsOnSand(plant: Plant): boolean {
  return plant[0] === CACTUS || plant[0] === DEAD_BUSH;
}
