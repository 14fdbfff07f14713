/**
 * Crops and the items that plant them, read from minecraft-data (no hand-written table): which
 * block a seed item plants (`wheat_seeds` → `wheat`, `carrot` → `carrots`, `potato` → `potatoes`,
 * `beetroot_seeds` → `beetroots`, and the stems, torchflower and pitcher crops), and when a crop
 * is full-grown.
 *
 * A crop, as minecraft-data describes it, is a block with growth stages (an `age` state; a
 * two-block crop also has a `half`, nothing else) whose loot at any age (a `blockLoot` entry
 * without a `blockAge` condition) is an item of another name whose first word begins the
 * crop's name (`beetroot_seeds` for `beetroots`): the item that planted it. Vanilla plants all
 * of these on farmland only (`CropBlock.mayPlaceOn`, `StemBlock`, `PitcherCropBlock`:
 * `Blocks.FARMLAND`). Blocks placed by their own item (sugar cane, cactus, nether wart, kelp)
 * and plants with other states (cocoa's `facing`, bamboo's `leaves`) are not crops here.
 * (minecraft-data's `plant` material is not asked for: its data for 1.21.5 and later gives crops
 * the `default` material.)
 */
import type { GameData } from './data.ts';

/** One crop: the block and the item that plants it. */
export interface Crop {
  /** The crop block, e.g. `carrots`. */
  block: string;
  /** The item that plants it, e.g. `carrot`. */
  seed: string;
  /** The `age` of the full-grown crop (7 for wheat, 3 for beetroots). */
  maxAge: number;
}

interface LootDrop {
  item: string;
  blockAge?: number;
}

const cache = new WeakMap<GameData, Crop[]>();

/** States a crop block may have: its growth stage and, for a two-block crop, its half. */
const CROP_STATES = new Set(['age', 'half']);

/** Every crop of `data`, in block id order. */
export function crops(data: GameData): readonly Crop[] {
  let list = cache.get(data);
  if (list) return list;
  list = [];
  const loot = (data.blockLoot ?? {}) as unknown as Record<string, { drops: LootDrop[] } | undefined>;
  for (const block of data.blocksArray) {
    const age = block.states?.find((s) => s.name === 'age');
    if (!age || !block.states!.every((s) => CROP_STATES.has(s.name))) continue;
    // What it drops at any age; without loot data, minecraft-data's `drops` (the same for crops).
    const always =
      loot[block.name]?.drops.filter((d) => d.blockAge === undefined).map((d) => d.item) ??
      block.drops.map((id) => data.items[id as number]?.name).filter((n): n is string => !!n);
    const seed = always.find((item) => item !== block.name && !!data.itemsByName[item] && block.name.startsWith(item.split('_')[0]!));
    if (!seed) continue;
    list.push({ block: block.name, seed, maxAge: (age.num_values ?? 1) - 1 });
  }
  cache.set(data, list);
  return list;
}

/**
 * The crop block `item` plants on farmland (`wheat_seeds` → `wheat`), or undefined when the item
 * plants no crop.
 *
 * @example cropPlantedBy(gameData('1.21.4'), 'potato') // 'potatoes'
 */
export function cropPlantedBy(data: GameData, item: string): string | undefined {
  return crops(data).find((c) => c.seed === item)?.block;
}

/**
 * The crop of block `block` (`wheat` → its seed `wheat_seeds` and full-grown age 7), or undefined
 * when the block is not a crop.
 */
export function cropOf(data: GameData, block: string): Crop | undefined {
  return crops(data).find((c) => c.block === block);
}

/** The seed items of `data`'s crops (`wheat_seeds`, `carrot`, ...), for messages. */
export function seedItems(data: GameData): string[] {
  return crops(data).map((c) => c.seed);
}
