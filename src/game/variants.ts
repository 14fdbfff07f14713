/**
 * Choosing among recipe variants. Many items have one recipe per wood, stone or colour (a stick
 * from any of twelve planks, a torch from coal or charcoal): a plan takes the variant whose
 * ingredients the bot holds; when it holds none of them, the most common one, which is the
 * variant whose ingredients entered the game first. minecraft-data numbers items in the game's
 * item registry order, where oak_planks comes before spruce, birch, ... cherry, pale_oak and
 * bamboo planks (and bamboo itself), and coal before charcoal, so the oldest ingredients have
 * the lowest ids.
 */
import { recipeIngredients, type Recipe } from './data.ts';

/**
 * Orders two recipes for the same item by the age of their ingredients: negative when `a` is the
 * more common variant (its newest ingredient is older than `b`'s; ties go to the next newest),
 * positive when `b` is, 0 when they use the same items.
 *
 * @example
 * // the stick recipes of 1.21.4 sorted this way start with the oak_planks one
 * data.recipes[data.itemsByName.stick.id].toSorted(compareVariants)[0]
 */
export function compareVariants(a: Recipe, b: Recipe): number {
  const ia = newestFirst(a);
  const ib = newestFirst(b);
  for (let i = 0; i < Math.min(ia.length, ib.length); i++) if (ia[i] !== ib[i]) return ia[i]! - ib[i]!;
  return ia.length - ib.length;
}

const ages = new WeakMap<Recipe, number[]>();

/** The recipe's ingredient item ids, newest (highest id) first; cached per recipe object. */
function newestFirst(recipe: Recipe): number[] {
  let ids = ages.get(recipe);
  if (!ids) ages.set(recipe, (ids = [...recipeIngredients(recipe).keys()].sort((x, y) => y - x)));
  return ids;
}
