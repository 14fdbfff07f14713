/**
 * Ore veins at vanilla 1.18+ heights. Counts per chunk, height distributions and vein sizes are
 * vanilla 1.21's `OrePlacements` and `OreFeatures` (Minecraft wiki "Ore", the "Java Edition
 * distribution" tables): `uniform(a, b)` is a flat distribution, `triangle(a, b)` vanilla's
 * `TrapezoidHeight` with no plateau (most ore at the middle); y outside the world places nothing.
 * A vein replaces stone with the ore and deepslate with its deepslate variant (vanilla's
 * `stone_ore_replaceables` / `deepslate_ore_replaceables`), never air, dirt or water. Vanilla's
 * buried variants skip blocks that touch air with the given chance (`discardChanceOnAirExposure`).
 *
 * Our simplifications: a vein is a random walk of `size` steps (vanilla's is a chain of
 * ellipsoids of about as many blocks), kept inside its own chunk; emerald (mountains only),
 * badlands gold and the large copper of dripstone caves are left out.
 */
import { AIR, DEEPSLATE, ORES, STONE } from './blocks.ts';
import { chunkRandom, nextBetween, nextInt, SALT, type Random } from './random.ts';
import { MIN_Y, WORLD_HEIGHT } from './terrain.ts';

/** How a vein's y is drawn. */
type Height = { uniform: [number, number] } | { triangle: [number, number] };

/** One placed ore feature of vanilla `OrePlacements`. */
export interface OrePlacement {
  /** vanilla's placed-feature name. */
  name: string;
  ore: keyof typeof ORES;
  /** Veins per chunk (a fraction is a chance of one more; `rarity` = one chunk in that many). */
  count: number;
  rarity?: number;
  height: Height;
  /** Blocks per vein (vanilla `OreConfiguration.size`). */
  size: number;
  /** Chance that a block touching air is skipped. */
  discard?: number;
}

/** Vanilla 1.21 `OrePlacements` for the overworld's common biomes. */
export const ORE_PLACEMENTS: readonly OrePlacement[] = [
  { name: 'ore_coal_upper', ore: 'coal', count: 30, height: { uniform: [136, 319] }, size: 17 },
  { name: 'ore_coal_lower', ore: 'coal', count: 20, height: { triangle: [0, 192] }, size: 17, discard: 0.5 },
  { name: 'ore_iron_upper', ore: 'iron', count: 90, height: { triangle: [80, 384] }, size: 9 },
  { name: 'ore_iron_middle', ore: 'iron', count: 10, height: { triangle: [-24, 56] }, size: 9 },
  { name: 'ore_iron_small', ore: 'iron', count: 10, height: { uniform: [-64, 72] }, size: 4 },
  { name: 'ore_copper', ore: 'copper', count: 16, height: { triangle: [-16, 112] }, size: 10 },
  { name: 'ore_gold', ore: 'gold', count: 4, height: { triangle: [-64, 32] }, size: 9, discard: 0.5 },
  { name: 'ore_gold_lower', ore: 'gold', count: 0.5, height: { uniform: [-64, -48] }, size: 9, discard: 0.5 },
  { name: 'ore_redstone', ore: 'redstone', count: 4, height: { uniform: [-64, 15] }, size: 8 },
  { name: 'ore_redstone_lower', ore: 'redstone', count: 8, height: { triangle: [-96, -32] }, size: 8 },
  { name: 'ore_lapis', ore: 'lapis', count: 2, height: { triangle: [-32, 32] }, size: 7 },
  { name: 'ore_lapis_buried', ore: 'lapis', count: 4, height: { uniform: [-64, 64] }, size: 7, discard: 1 },
  { name: 'ore_diamond', ore: 'diamond', count: 7, height: { triangle: [-144, 16] }, size: 4, discard: 0.5 },
  { name: 'ore_diamond_medium', ore: 'diamond', count: 2, height: { uniform: [-64, -4] }, size: 8, discard: 0.5 },
  { name: 'ore_diamond_large', ore: 'diamond', count: 1, rarity: 9, height: { triangle: [-144, 16] }, size: 12, discard: 0.7 },
  { name: 'ore_diamond_buried', ore: 'diamond', count: 4, height: { triangle: [-144, 16] }, size: 8, discard: 1 },
];

/** The y range (inclusive) a placement can put a vein's first block at, clipped to the world. */
export function oreRange(placement: OrePlacement): [number, number] {
  const [a, b] = 'uniform' in placement.height ? placement.height.uniform : placement.height.triangle;
  return [Math.max(a, MIN_Y), Math.min(b, MIN_Y + WORLD_HEIGHT - 1)];
}

function drawY(random: Random, height: Height): number {
  if ('uniform' in height) return nextBetween(random, height.uniform[0], height.uniform[1]);
  const [min, max] = height.triangle;
  const half = Math.floor((max - min) / 2);
  return min + nextBetween(random, 0, max - min - half) + nextBetween(random, 0, half);
}

/**
 * Places the ore veins of chunk (chunkX, chunkZ) into its block codes (indexed
 * `((y − MIN_Y) << 8) | (z << 4) | x`).
 */
export function placeOres(seed: number, blocks: Uint8Array, chunkX: number, chunkZ: number): void {
  const random = chunkRandom(seed, SALT.ores, chunkX, chunkZ);
  const maxY = MIN_Y + WORLD_HEIGHT - 1;
  for (const placement of ORE_PLACEMENTS) {
    const [stoneOre, deepslateOre] = ORES[placement.ore];
    let veins = Math.floor(placement.count);
    if (random() < placement.count - veins) veins++;
    if (placement.rarity !== undefined && nextInt(random, placement.rarity) !== 0) veins = 0;
    for (let v = 0; v < veins; v++) {
      let x = nextInt(random, 16);
      let z = nextInt(random, 16);
      let y = drawY(random, placement.height);
      for (let step = 0; step < placement.size; step++) {
        if (x >= 0 && x < 16 && z >= 0 && z < 16 && y >= MIN_Y && y <= maxY) {
          const i = ((y - MIN_Y) << 8) | (z << 4) | x;
          const here = blocks[i];
          if ((here === STONE || here === DEEPSLATE) && !(placement.discard && exposed(blocks, x, y, z) && random() < placement.discard)) {
            blocks[i] = here === STONE ? stoneOre : deepslateOre;
          }
        }
        x += nextInt(random, 3) - 1;
        y += nextInt(random, 3) - 1;
        z += nextInt(random, 3) - 1;
      }
    }
  }
}

/** Whether the block at (x, y, z) touches air (within the chunk). */
function exposed(blocks: Uint8Array, x: number, y: number, z: number): boolean {
  const at = (dx: number, dy: number, dz: number): boolean => {
    const nx = x + dx;
    const ny = y + dy;
    const nz = z + dz;
    if (nx < 0 || nx > 15 || nz < 0 || nz > 15 || ny < MIN_Y || ny >= MIN_Y + WORLD_HEIGHT) return false;
    return blocks[((ny - MIN_Y) << 8) | (nz << 4) | nx] === AIR;
  };
  return at(1, 0, 0) || at(-1, 0, 0) || at(0, 1, 0) || at(0, -1, 0) || at(0, 0, 1) || at(0, 0, -1);
}
