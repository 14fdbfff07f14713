/** Game facts from minecraft-data, loaded once per version and shared by every bot in the process. */
import minecraftData from 'minecraft-data';

export type GameData = minecraftData.IndexedData;
type RecipeItem = minecraftData.RecipeItem;
export type Recipe = minecraftData.Recipe;

const cache = new Map<string, GameData>();

/**
 * minecraft-data for `version` (e.g. `1.21.4`), cached.
 *
 * @throws Error when minecraft-data has no data for that version.
 */
export function gameData(version: string): GameData {
  let data = cache.get(version);
  if (!data) {
    data = minecraftData(version);
    if (!data) throw new Error(`minecraft-data has no data for Minecraft ${version}`);
    cache.set(version, data);
  }
  return data;
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
    const id = recipeItemId(cell as RecipeItem);
    if (id !== null) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Items one craft of `recipe` produces. */
export function recipeResultCount(recipe: Recipe): number {
  const result = recipe.result as RecipeItem;
  return result !== null && typeof result === 'object' && !Array.isArray(result) ? (result.count ?? 1) : 1;
}

/**
 * Whether `recipe` needs a 3x3 crafting table (vanilla: the player's own grid is 2x2).
 */
export function recipeNeedsTable(recipe: Recipe): boolean {
  if ('inShape' in recipe) return recipe.inShape.length > 2 || recipe.inShape.some((row) => row.length > 2);
  return recipe.ingredients.length > 4;
}
