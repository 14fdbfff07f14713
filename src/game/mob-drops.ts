/**
 * What killing a mob gives, for planning: minecraft-data's `entityLoot` (the vanilla loot tables,
 * flattened), and the wool of a sheep, which that flattening loses.
 */
import type { GameData } from './data.ts';

/**
 * The wool an unsheared sheep drops when killed: vanilla 1.21's `entities/sheep` loot table hands
 * over to `entities/sheep/<colour>`, one wool of the sheep's colour, which minecraft-data's
 * flattened `entityLoot` does not list (it keeps the mutton only). A plan counts on white wool:
 * 81.8 % of sheep are white (vanilla `Sheep.getRandomSheepColor`); a sheep of another colour gives
 * its own wool, which the next plan takes as it is.
 */
const SHEEP_WOOL = 'white_wool';

/** A sure drop of a killed mob: the item and how many at least (1 when the loot may give none). */
export interface MobDrop {
  item: string;
  atLeast: number;
}

const cache = new WeakMap<GameData, Map<string, MobDrop[]>>();

/**
 * What a killed `mob` (minecraft-data entity name) surely drops: its `entityLoot` entries that
 * always drop (chance 1, a player's kill counting as one), and a sheep's wool.
 *
 * @example mobDrops(data, 'cow') // [{ item: 'leather', atLeast: 1 }, { item: 'beef', atLeast: 1 }]
 */
export function mobDrops(data: GameData, mob: string): readonly MobDrop[] {
  let byMob = cache.get(data);
  if (!byMob) cache.set(data, (byMob = new Map()));
  let drops = byMob.get(mob);
  if (!drops) {
    const loot = Object.hasOwn(data.entityLoot ?? {}, mob) ? data.entityLoot[mob]!.drops : [];
    drops = loot
      .filter((d) => d.dropChance >= 1 && data.itemsByName[d.item])
      .map((d) => ({ item: d.item, atLeast: Math.max(1, d.stackSizeRange[0] ?? 1) }));
    if (mob === 'sheep' && data.itemsByName[SHEEP_WOOL]) drops.push({ item: SHEEP_WOOL, atLeast: 1 });
    byMob.set(mob, drops);
  }
  return drops;
}
