/**
 * Farming vocabulary shared by placing (planting, tilling) and crop growth: which seed plants
 * which crop, and what a hoe turns a block into. Names are minecraft-data's and looked up there.
 */

/** Crop block name → the item that plants it (vanilla `CropBlock` subclasses). */
export const CROP_SEEDS: Readonly<Record<string, string>> = {
  wheat: 'wheat_seeds',
  carrots: 'carrot',
  potatoes: 'potato',
  beetroots: 'beetroot_seeds',
};

/** The crop block a seed item plants, or undefined. */
export function cropForSeed(itemName: string): string | undefined {
  return Object.keys(CROP_SEEDS).find((crop) => CROP_SEEDS[crop] === itemName);
}

/** True for a crop block name that grows on random ticks. */
export function isCrop(name: string): boolean {
  return name in CROP_SEEDS;
}

/** vanilla `HoeItem.TILLABLES`: block → tilled block (the block above must be air). */
export const TILLED: Readonly<Record<string, string>> = {
  dirt: 'farmland',
  grass_block: 'farmland',
  dirt_path: 'farmland',
  coarse_dirt: 'dirt',
};
