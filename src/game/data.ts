/** Game facts from minecraft-data, loaded once per version and shared by every bot in the process. */
import minecraftData from 'minecraft-data';
import { completeDyeingRecipes } from './dyeing.ts';
import { mineableMaterialsOf } from '../upstream/index.ts';

export type GameData = minecraftData.IndexedData;
type RecipeItem = minecraftData.RecipeItem;
export type Recipe = minecraftData.Recipe;
type ItemInfo = minecraftData.Item;
type BlockInfo = minecraftData.IndexedBlock;
type EntityInfo = minecraftData.Entity;

const cache = new Map<string, GameData>();

/**
 * minecraft-data for `version` (e.g. `1.21.4`), cached, with the dyeing recipes minecraft-data
 * lacks added (./dyeing.ts) and the tier-gated blocks' materials put right (`mineableMaterialsOf`).
 *
 * @throws Error when minecraft-data has no data for that version.
 */
export function gameData(version: string): GameData {
  let data = cache.get(version);
  if (!data) {
    data = minecraftData(version);
    if (!data) throw new Error(`minecraft-data has no data for Minecraft ${version}`);
    completeDyeingRecipes(data);
    mineableMaterialsOf(data); // ores dug at their pickaxe's speed (minecraft-data #987; src/upstream/)
    cache.set(version, data);
  }
  return data;
}

/**
 * The item `name` (e.g. `'oak_log'`) in `data`: {@link gameData}'s, a bot's `bot.registry` or the
 * embedded server's `serv.registry`. For names the code itself spells; a name from a model or a
 * user goes through `nameResolver` (names.ts) first.
 *
 * @throws Error naming the item and the Minecraft version when minecraft-data has no such item.
 */
export function itemByName(data: GameData, name: string): ItemInfo {
  return data.itemsByName[name] ?? missing(data, 'an item', `"${name}"`);
}

/**
 * The block `name` (e.g. `'crafting_table'`) in `data`, as {@link itemByName}.
 *
 * @throws Error naming the block and the Minecraft version when minecraft-data has no such block.
 */
export function blockByName(data: GameData, name: string): BlockInfo {
  return data.blocksByName[name] ?? missing(data, 'a block', `"${name}"`);
}

/**
 * The entity type `name` (e.g. `'cow'`) in `data`, as {@link itemByName}.
 *
 * @throws Error naming the entity and the Minecraft version when minecraft-data has no such entity.
 */
export function entityByName(data: GameData, name: string): EntityInfo {
  return data.entitiesByName[name] ?? missing(data, 'an entity', `"${name}"`);
}

/**
 * The item with numeric id `id` (an item stack's `type`) in `data`.
 *
 * @throws Error naming the id and the Minecraft version when minecraft-data has no such item.
 */
export function itemById(data: GameData, id: number): ItemInfo {
  return data.items[id] ?? missing(data, 'an item id', String(id));
}

/**
 * The block with numeric id `id` (a `Block`'s `type`) in `data`.
 *
 * @throws Error naming the id and the Minecraft version when minecraft-data has no such block.
 */
export function blockById(data: GameData, id: number): BlockInfo {
  return data.blocks[id] ?? missing(data, 'a block id', String(id));
}

/** What eating an item gives: hunger points and saturation (vanilla `FoodProperties`: nutrition, saturation). */
export interface FoodValues {
  foodPoints: number;
  saturation: number;
}

/**
 * Vanilla's largest saturation per hunger point: `saturation = nutrition × modifier × 2` with the
 * modifier at most 1.2 (golden carrot; Minecraft wiki "Food", `Foods.java`).
 */
const MAX_SATURATION_RATIO = 2.4;

/** Checked once per data set: whether its saturations carry minecraft-data's 1.21.5+ error. */
const inflatedSaturation = new WeakMap<object, boolean>();

/**
 * The food values of item `name` in `data`, or undefined when it is not food.
 *
 * minecraft-data 3.117–3.119 lists wrong saturations for 1.21.5 to 1.21.11 (its generator
 * multiplied the saturation by twice the nutrition again: bread 60 instead of 6; minecraft-data
 * issue #1204, fixed in minecraft-data-generator PR #73), and lists the buckets of fish as
 * food, which vanilla does not let anyone eat (Minecraft wiki "Bucket of Aquatic Mob"). A table
 * with a saturation ratio above vanilla's largest is read as carrying that error and corrected;
 * a corrected minecraft-data passes through unchanged.
 */
export function foodOf(data: GameData, name: string): FoodValues | undefined {
  const food = data.foodsByName[name];
  if (!food || name.endsWith('_bucket')) return undefined;
  let inflated = inflatedSaturation.get(data.foodsByName);
  if (inflated === undefined) {
    inflated = Object.values(data.foodsByName).some((f) => f.saturationRatio > MAX_SATURATION_RATIO);
    inflatedSaturation.set(data.foodsByName, inflated);
  }
  const saturation = inflated && food.foodPoints > 0 ? food.saturation / (2 * food.foodPoints) : food.saturation;
  return { foodPoints: food.foodPoints, saturation: Math.round(saturation * 1000) / 1000 };
}

function missing(data: GameData, kind: string, what: string): never {
  throw new Error(`${what} is not ${kind} in Minecraft ${data.version.minecraftVersion} (minecraft-data)`);
}

/** Item id of a recipe cell, or null for an empty cell. */
export function recipeItemId(cell: RecipeItem | null | undefined): number | null {
  if (cell == null) return null;
  if (typeof cell === 'number') return cell < 0 ? null : cell;
  if (Array.isArray(cell)) return cell[0] ?? null;
  return cell.id ?? null;
}

/** Ingredient counts (item id → count) of one craft of `recipe`. */
export function recipeIngredients(recipe: Recipe): Map<number, number> {
  const cells = 'inShape' in recipe ? recipe.inShape.flat() : recipe.ingredients;
  const counts = new Map<number, number>();
  for (const cell of cells) {
    const id = recipeItemId(cell);
    if (id !== null) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Items one craft of `recipe` produces. */
export function recipeResultCount(recipe: Recipe): number {
  const result = recipe.result;
  return result !== null && typeof result === 'object' && !Array.isArray(result) ? (result.count ?? 1) : 1;
}

/**
 * Whether `recipe` needs a 3x3 crafting table (vanilla: the player's own grid is 2x2).
 */
export function recipeNeedsTable(recipe: Recipe): boolean {
  if ('inShape' in recipe) return recipe.inShape.length > 2 || recipe.inShape.some((row) => row.length > 2);
  return recipe.ingredients.length > 4;
}
