/**
 * Dyeing recipes as vanilla has them. Since 1.20 a wool block, a carpet or a bed of any colour
 * is dyed into another colour: vanilla's `dye_<colour>_wool`, `dye_<colour>_carpet` and
 * `dye_<colour>_bed` recipes (the game's `data/minecraft/recipe/`) are shapeless, the dye plus one
 * ingredient that accepts the family's item of every other colour. minecraft-data keeps only the
 * first item of that list (alphabetically: `black_wool`, or `blue_wool` for black), so on its
 * data pink wool is dyed from black wool alone, and white wool from a sheep cannot be dyed at
 * all. {@link completeDyeingRecipes} adds the other colours as recipe variants, the way
 * minecraft-data lists a stick once per kind of planks; the server's crafting, mineflayer's
 * recipes and the planners all read the completed list.
 */

/** The parts of a minecraft-data (or prismarine-registry) object the completion reads and extends. */
export interface RecipeData {
  items: Record<number, { name: string } | undefined>;
  itemsByName: Record<string, { id: number } | undefined>;
  recipes: Record<number, unknown[] | undefined>;
}

interface Shapeless {
  ingredients: number[];
  result: { id: number; count?: number };
}

const completed = new WeakSet<object>();

/**
 * Adds to `data.recipes`, in place and once per recipe table, the dyeing variants minecraft-data
 * lacks: for every shapeless recipe `<c>_dye + <c2>_<family> → <c>_<family>` (`c2` ≠ `c`), the
 * same recipe from every other colour `<c3>_<family>` the version has. The families are found
 * from the data (wool, carpet and bed in 1.21), not listed here.
 *
 * minecraft-data caches one object per version and prismarine-registry shares its recipe table,
 * so completing it once completes it for the server, every bot and every planner of the process.
 *
 * @returns how many recipes were added (0 when the table was completed before).
 */
export function completeDyeingRecipes(data: RecipeData): number {
  if (completed.has(data.recipes)) return 0;
  completed.add(data.recipes);
  const colours = Object.keys(data.itemsByName)
    .filter((name) => name.endsWith('_dye'))
    .map((name) => name.slice(0, -'_dye'.length));
  let added = 0;
  for (const colour of colours) {
    const dye = data.itemsByName[`${colour}_dye`]!.id;
    for (const [resultId, list] of Object.entries(data.recipes)) {
      const result = data.items[Number(resultId)]?.name;
      if (!result?.startsWith(`${colour}_`) || !list) continue;
      const family = result.slice(colour.length + 1);
      const recipes = list as Shapeless[];
      const dyeing = recipes.find((r) => dyesFrom(data, r, dye, colour, family));
      if (!dyeing) continue;
      const have = new Set(recipes.filter((r) => r.ingredients?.includes(dye)).flatMap((r) => r.ingredients));
      for (const other of colours) {
        const from = data.itemsByName[`${other}_${family}`]?.id;
        if (other === colour || from === undefined || have.has(from)) continue;
        recipes.push({ ingredients: [dye, from], result: { ...dyeing.result } });
        added++;
      }
    }
  }
  return added;
}

/** Whether `r` is `<colour>_dye + <other colour>_<family>`, shapeless. */
function dyesFrom(data: RecipeData, r: Shapeless, dye: number, colour: string, family: string): boolean {
  if (!Array.isArray(r.ingredients) || r.ingredients.length !== 2 || !r.ingredients.includes(dye)) return false;
  const other = data.items[r.ingredients.find((i) => i !== dye) ?? -1]?.name;
  return (
    other !== undefined &&
    other.endsWith(`_${family}`) &&
    other !== `${colour}_${family}` &&
    data.itemsByName[`${other.slice(0, -family.length - 1)}_dye`] !== undefined
  );
}
