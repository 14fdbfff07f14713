/**
 * Choosing among recipe variants. Many items have one recipe per wood, stone or colour (a stick
 * from any of twelve planks, a torch from coal or charcoal, a furnace from cobblestone, cobbled
 * deepslate or blackstone): a plan takes the variant whose ingredients the bot holds; when it
 * holds none of them, the most common one, which is the variant whose ingredients entered the
 * game first. minecraft-data numbers 1.13's items in that game's item registry order, where
 * cobblestone comes before oak_planks, then spruce, birch ... planks, and coal before charcoal,
 * so the oldest ingredients have the lowest 1.13 ids; items added since (cobbled deepslate 1.17,
 * blackstone 1.16, bamboo planks 1.20) come after all of those. Today's ids do not keep that
 * order: 1.21's registry puts cobbled_deepslate (9) before cobblestone (35), and a bot on the
 * surface planned to dig deepslate for its furnace.
 */
import minecraftData from 'minecraft-data';
import { recipeIngredients, type GameData, type Recipe } from './data.ts';

/**
 * Orders two recipes for the same item by the age of their ingredients: negative when `a` is the
 * more common variant (its newest ingredient is older than `b`'s; ties go to the next newest),
 * positive when `b` is, 0 when they use the same items.
 *
 * @example
 * // the stick recipes of 1.21.4 sorted this way start with the oak_planks one
 * data.recipes[data.itemsByName.stick.id].toSorted((a, b) => compareVariants(data, a, b))[0]
 */
export function compareVariants(data: GameData, a: Recipe, b: Recipe): number {
  const ia = newestFirst(data, a);
  const ib = newestFirst(data, b);
  for (let i = 0; i < Math.min(ia.length, ib.length); i++) if (ia[i] !== ib[i]) return ia[i]! - ib[i]!;
  return ia.length - ib.length;
}

/** The version whose item registry orders the items by age: the first with today's item names (the flattening). */
const AGE_VERSION = '1.13.2';
let ageData: GameData | undefined;

/** An item's age rank: its id in {@link AGE_VERSION}, or after all of those (by today's id) for an item added since. */
function ageOf(data: GameData, id: number): number {
  ageData ??= minecraftData(AGE_VERSION);
  const old = ageData.itemsByName[data.items[id]?.name ?? ''];
  return old ? old.id : ageData.itemsArray.length + id;
}

const ages = new WeakMap<Recipe, number[]>();

/** The recipe's ingredients' age ranks, newest first; cached per recipe object. */
function newestFirst(data: GameData, recipe: Recipe): number[] {
  let ranks = ages.get(recipe);
  if (!ranks) ages.set(recipe, (ranks = [...recipeIngredients(recipe).keys()].map((id) => ageOf(data, id)).sort((x, y) => y - x)));
  return ranks;
}
