/**
 * Crafting plans from minecraft-data recipes: what to craft, in which order, from what the bot
 * holds, and what is missing. Pure functions: no bot, no server.
 */
import { type GameData, type Recipe, recipeIngredients, recipeNeedsTable, recipeResultCount } from '../game/data.ts';
import { compareVariants } from '../game/variants.ts';

/** Item name → count. */
export type Counts = Record<string, number>;

export interface CraftStep {
  /** Item produced. */
  item: string;
  /** How many times the recipe is crafted. */
  times: number;
  /** Items produced in total (`times` × the recipe's result count). */
  produces: number;
  /** Ingredients consumed in total. */
  ingredients: Counts;
  needsTable: boolean;
}

export interface CraftingPlan {
  target: string;
  quantity: number;
  /** Items neither held nor craftable from what is held. */
  missing: Counts;
  /** Crafts in the order to perform them (ingredients before what uses them). */
  steps: CraftStep[];
  /** Items the crafts make beyond what is needed. */
  leftovers: Counts;
  /** True when some step needs a crafting table and the bot holds none to place. */
  needsTable: boolean;
}

export interface PlanOptions {
  /**
   * `deep` (default): expand every craftable item down to raw materials, as a player gathering
   * from scratch would. `direct`: expand an item only when the bot holds some of the recipe's
   * ingredients, so missing items are named as they would be asked of a partner (`oak_planks`
   * rather than `oak_log`).
   */
  expand?: 'deep' | 'direct';
}

const MAX_DEPTH = 10;

/**
 * Plans crafting `quantity` × `target` from `inventory`.
 *
 * @param data minecraft-data of the bot's version.
 * @param inventory what the bot holds (item name → count); not modified.
 * @throws Error when `target` is not an item of this version.
 */
export function planCrafting(data: GameData, inventory: Counts, target: string, quantity: number, options: PlanOptions = {}): CraftingPlan {
  const targetItem = data.itemsByName[target];
  if (!targetItem) throw new Error(`"${target}" is not an item in Minecraft ${data.version.minecraftVersion}`);
  const stock = new Map(Object.entries(inventory));
  const missing: Counts = {};
  const steps: CraftStep[] = [];
  const extra: Counts = {};
  const expand = options.expand ?? 'deep';

  const held = (name: string): number => stock.get(name) ?? 0;
  // How many of `id` one level of crafting from held items could make.
  const makeable = (id: number): number => {
    let best = 0;
    for (const r of usableRecipes(data, id)) {
      let crafts = Infinity;
      for (const [ing, n] of recipeIngredients(r)) crafts = Math.min(crafts, Math.floor(held(data.items[ing].name) / n));
      best = Math.max(best, crafts * recipeResultCount(r));
    }
    return best;
  };
  // How much of a recipe's input the bot holds or can make in one step: ranks recipe variants.
  const coverage = (recipe: Recipe, times: number): number => {
    let covered = 0;
    for (const [id, n] of recipeIngredients(recipe)) covered += Math.min(held(data.items[id].name) + makeable(id), n * times);
    return covered;
  };

  const need = (name: string, count: number, path: string[], top: boolean): void => {
    const have = stock.get(name) ?? 0;
    const used = Math.min(have, count);
    if (used > 0) stock.set(name, have - used);
    count -= used;
    if (count === 0) return;
    const id = data.itemsByName[name]?.id;
    const recipes = (id !== undefined ? usableRecipes(data, id) : []).filter((r) =>
      [...recipeIngredients(r).keys()].every((ing) => !path.includes(data.items[ing].name)));
    if (recipes.length === 0 || path.length >= MAX_DEPTH) {
      missing[name] = (missing[name] ?? 0) + count;
      return;
    }
    // Prefer the recipe whose ingredients the bot holds most of (e.g. birch planks when it holds
    // birch logs); among equals the most common variant (oak planks, not pale oak or bamboo).
    let best = recipes[0];
    let bestTimes = Math.ceil(count / recipeResultCount(best));
    let bestCoverage = coverage(best, bestTimes);
    for (const r of recipes.slice(1)) {
      const t = Math.ceil(count / recipeResultCount(r));
      const c = coverage(r, t);
      if (c > bestCoverage || (c === bestCoverage && compareVariants(r, best) < 0)) { best = r; bestTimes = t; bestCoverage = c; }
    }
    if (!top && expand === 'direct' && bestCoverage === 0) {
      missing[name] = (missing[name] ?? 0) + count;
      return;
    }
    const ingredients: Counts = {};
    for (const [ingId, n] of recipeIngredients(best)) {
      const ingName = data.items[ingId].name;
      ingredients[ingName] = n * bestTimes;
      need(ingName, n * bestTimes, [...path, name], false);
    }
    const makes = bestTimes * recipeResultCount(best);
    const earlier = steps.find((s) => s.item === name && sameKeys(s.ingredients, ingredients));
    if (earlier) {
      earlier.times += bestTimes;
      earlier.produces += makes;
      for (const [ing, n] of Object.entries(ingredients)) earlier.ingredients[ing] += n;
    } else {
      steps.push({ item: name, times: bestTimes, produces: makes, ingredients, needsTable: recipeNeedsTable(best) });
    }
    if (makes > count) {
      stock.set(name, (stock.get(name) ?? 0) + makes - count);
      extra[name] = (extra[name] ?? 0) + makes - count;
    }
  };

  need(target, quantity, [], true);
  const leftovers: Counts = {};
  for (const [name, n] of Object.entries(extra)) {
    const left = Math.min(n, stock.get(name) ?? 0);
    if (left > 0) leftovers[name] = left;
  }
  const needsTable = steps.some((s) => s.needsTable) && !(inventory.crafting_table > 0) && !steps.some((s) => s.item === 'crafting_table');
  return { target, quantity, missing, steps, leftovers, needsTable };
}

function sameKeys(a: Counts, b: Counts): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b);
}

const usableCache = new WeakMap<GameData, Map<number, Recipe[]>>();

/**
 * Recipes for item `id`, without the reverse of a storage recipe: redstone is not planned from
 * redstone_block, nor iron_ingot from iron_block, because each of those blocks is made from the item.
 */
export function usableRecipes(data: GameData, id: number): Recipe[] {
  let byId = usableCache.get(data);
  if (!byId) usableCache.set(data, (byId = new Map()));
  let recipes = byId.get(id);
  if (!recipes) {
    recipes = (data.recipes[id] ?? []).filter((r) => ![...recipeIngredients(r).keys()].some((ing) =>
      (data.recipes[ing] ?? []).some((back) => recipeIngredients(back).has(id))));
    byId.set(id, recipes);
  }
  return recipes;
}

/** `3 oak_planks, 1 stick` — empty string for no items. */
export function formatCounts(counts: Counts): string {
  return Object.entries(counts).map(([name, n]) => `${n} ${name}`).join(', ');
}

/** A short, model-readable rendering of a plan (what `!getCraftingPlan` prints). */
export function formatPlan(plan: CraftingPlan): string {
  const lines: string[] = [];
  const what = `${plan.quantity} ${plan.target}`;
  if (Object.keys(plan.missing).length > 0) {
    lines.push(`To craft ${what} you are missing: ${formatCounts(plan.missing)}. Collect them or ask another player for them.`);
  } else {
    lines.push(`You can craft ${what} with what you have.`);
  }
  if (plan.steps.length > 0) {
    lines.push('Steps:');
    for (const s of plan.steps) {
      lines.push(`- Craft ${formatCounts(s.ingredients)} -> ${s.produces} ${s.item}${s.needsTable ? ' (needs a crafting table)' : ''}`);
    }
  }
  if (plan.needsTable) lines.push('You need a crafting_table: place one or craft one.');
  if (Object.keys(plan.leftovers).length > 0) lines.push(`Leftovers: ${formatCounts(plan.leftovers)}.`);
  return lines.join('\n');
}
