/** Game facts from minecraft-data, loaded once per version and shared by every bot in the process. */
import minecraftData from 'minecraft-data';
import { completeDyeingRecipes } from './dyeing.ts';

export type GameData = minecraftData.IndexedData;
type RecipeItem = minecraftData.RecipeItem;
export type Recipe = minecraftData.Recipe;
type ItemInfo = minecraftData.Item;
type BlockInfo = minecraftData.IndexedBlock;
type EntityInfo = minecraftData.Entity;

const cache = new Map<string, GameData>();

/**
 * minecraft-data for `version` (e.g. `1.21.4`), cached, with the dyeing recipes minecraft-data
 * lacks added (./dyeing.ts).
 *
 * @throws Error when minecraft-data has no data for that version.
 */
export function gameData(version: string): GameData {
  let data = cache.get(version);
  if (!data) {
    data = minecraftData(version);
    if (!data) throw new Error(`minecraft-data has no data for Minecraft ${version}`);
    completeDyeingRecipes(data);
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
