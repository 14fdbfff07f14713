/**
 * How to produce items from what is held: crafting (minecraft-data recipes), smelting or cooking
 * (vanilla furnace recipes of `./smelting.ts`) and gathering from the world (sources the caller
 * names: blocks to dig, mobs to hunt). Pure functions over game data, no bot: the offline policy
 * plans with them, the task generator checks with them that a task can be done.
 */
import { type GameData, type Recipe, recipeIngredients, recipeNeedsTable, recipeResultCount } from './data.ts';
import { smeltingTableFor } from './smelting.ts';
import { compareVariants } from './variants.ts';

/** Item name → count. */
export type Counts = Record<string, number>;

/**
 * A call of a skill by name, with its arguments by parameter name: what a plan asks an agent to
 * do, as data. The command layer writes it as a `!command` (`commandCall` in `src/commands/`);
 * nothing below it builds command text.
 *
 * @example { skill: 'collectBlocks', args: { type: 'wheat', num: 3 } }
 */
export interface SkillCall {
  /** The skill's name, without a bang: `collectBlocks`, `attack`. */
  skill: string;
  /** Its arguments by parameter name (the skill's declaration names them). */
  args: Readonly<Record<string, string | number | boolean>>;
}

/**
 * A way to get an item from the world with one skill call.
 *
 * @example { item: 'wheat', call: (n) => ({ skill: 'collectBlocks', args: { type: 'wheat', num: n } }), perAction: 1, where: 'the farm' }
 */
export interface GatherSource {
  /** The item this source gives. */
  item: string;
  /** The call that gathers `n` more (`collectBlocks("wheat", 3)`, `attack("cow")`). */
  call(n: number): SkillCall;
  /** Items the call surely yields per use, at least 1 (a hunt yields one kill's drops). */
  perAction: number;
  /** Items used up by one use (e.g. the bucket of a milking), if any. */
  consumes?: Counts;
  /** What the source is, for messages: "the farm", "a cow". */
  where: string;
}

/**
 * How one item is had from a world that is known to supply it (a task's world, e.g. the cooking
 * world's farm and animals: `COOKING_SUPPLIES` in `src/tasks/cooking.ts`). Drops follow vanilla
 * loot tables (minecraft wiki, the mobs' and crops' pages).
 */
export type WorldSupply =
  /** Dig a block (full-grown crop, sugar cane, mushroom): `collectBlocks(block, n)`. */
  | { kind: 'block'; block: string; where: string }
  /** Kill an animal: `attack(mob)`. */
  | { kind: 'hunt'; mob: string; where: string }
  /** Use an item on an animal: `useItemOnEntity(tool, mob)` (milking a cow uses up the bucket). */
  | { kind: 'use'; tool: string; mob: string; where: string };

/** Items a world is known to supply, by item name (e.g. the cooking world's `COOKING_SUPPLIES` in `src/tasks/cooking.ts`). */
export type WorldSupplies = Readonly<Record<string, WorldSupply>>;

/** The gather source of `item` from a world's `supply` of it. */
export function supplySource(item: string, supply: WorldSupply): GatherSource {
  switch (supply.kind) {
    case 'block':
      return { item, call: (n) => ({ skill: 'collectBlocks', args: { type: supply.block, num: n } }), perAction: 1, where: supply.where };
    case 'hunt':
      return { item, call: () => ({ skill: 'attack', args: { type: supply.mob } }), perAction: 1, where: supply.where };
    case 'use':
      return {
        item,
        call: () => ({ skill: 'useItemOnEntity', args: { item_name: supply.tool, entity_type: supply.mob } }),
        perAction: 1,
        consumes: { [supply.tool]: 1 },
        where: supply.where,
      };
  }
}

/** What besides crafting an agent can use. */
export interface ProductionSources {
  /** The world's source of `item`, if the world gives it. */
  gather?(item: string): GatherSource | undefined;
  /** Whether a furnace or smoker is at hand (or held), so smelting is possible. */
  smelt?: boolean;
  /** Whether a crafting table stands within reach of `!craftRecipe` (32 blocks). */
  tableNearby?: boolean;
}

/** One step of a {@link ProductionPlan}. */
export type ProductionStep =
  | { kind: 'craft'; item: string; times: number; count: number; ingredients: Counts; needsTable: boolean }
  | { kind: 'smelt'; item: string; input: string; count: number }
  | { kind: 'gather'; item: string; count: number; source: GatherSource };

/** What making some targets takes. */
export interface ProductionPlan {
  /** Steps in the order to perform them (ingredients first). */
  steps: ProductionStep[];
  /** Items neither held nor obtainable by any step. */
  missing: Counts;
  /** Items taken from the inventory (held items the steps or the targets use up). */
  consumed: Counts;
  /** Items the steps make beyond what the later steps and the targets use (4 sticks crafted for 1). */
  leftovers: Counts;
}

/** How {@link planProduction} names what is missing. */
export interface PlanOptions {
  /**
   * How far an item that is neither held nor obtainable (no source gives it, nothing held makes
   * it) is broken down before it is named missing:
   * - `held` (default): into its ingredients only while some of them are held, so the missing
   *   items are the ones a teammate would hand over (`oak_planks` for sticks, not `oak_log`);
   * - `targets`: as `held`, but the targets themselves are always broken down (the agent crafts
   *   its target and asks the others for the ingredients: MineCollab's `restrict_to_inventory`);
   * - `raw`: down to raw materials (items with no recipe and no source), as a player who gathers
   *   everything from scratch would.
   */
  expand?: 'held' | 'targets' | 'raw';
}

/** Most nested ingredient levels followed (deeper needs count as missing). */
const MAX_DEPTH = 8;

const usableCache = new WeakMap<GameData, Map<number, Recipe[]>>();

/**
 * Recipes for item `id`, without the detour of a pair of items made from each other alone (a
 * storage block and its item, an ingot and its nuggets): only the way a player takes is planned,
 * so redstone is not planned from redstone_block, nor iron_ingot from iron_block or from nuggets,
 * while iron_block is made from iron_ingot and iron_nugget from iron_ingot. Of such a pair, a
 * block made from an item is kept (packing: iron_block), an item from a block is not (unpacking:
 * redstone); between two items the recipe that breaks one into pieces is kept (iron_nugget),
 * between two blocks the one that joins pieces (chiseled_quartz_block from quartz_slab).
 * Recipes of two or more ingredient types all stay: black wool dyed from blue wool does not hide
 * blue wool dyed from black wool.
 */
export function usableRecipes(data: GameData, id: number): Recipe[] {
  let byId = usableCache.get(data);
  if (!byId) usableCache.set(data, (byId = new Map()));
  let recipes = byId.get(id);
  if (!recipes) {
    const only = (r: Recipe): number | undefined => {
      const keys = [...recipeIngredients(r).keys()];
      return keys.length === 1 ? keys[0] : undefined;
    };
    const isBlock = (item: number) => data.blocksByName[data.items[item]!.name] !== undefined;
    recipes = (data.recipes[id] ?? []).filter((r) => {
      const ing = only(r);
      if (ing === undefined || !(data.recipes[ing] ?? []).some((back) => only(back) === id)) return true;
      if (isBlock(id) !== isBlock(ing)) return isBlock(id);
      const uses = recipeIngredients(r).get(ing)!;
      return isBlock(id) ? recipeResultCount(r) < uses : recipeResultCount(r) > uses;
    });
    byId.set(id, recipes);
  }
  return recipes;
}

const smeltInputsCache = new WeakMap<GameData, Map<string, string[]>>();

/** Items that smelt or cook into `item` (any furnace kind), e.g. `beef` for `cooked_beef`. */
export function smeltingInputs(data: GameData, item: string): string[] {
  let byResult = smeltInputsCache.get(data);
  if (!byResult) {
    byResult = new Map();
    const table = smeltingTableFor(data);
    for (const recipes of Object.values(table.recipes)) {
      for (const [input, r] of recipes) {
        const result = data.items[r.result]?.name;
        const name = data.items[input]?.name;
        if (!result || !name) continue;
        const list = byResult.get(result) ?? [];
        if (!list.includes(name)) list.push(name);
        byResult.set(result, list);
      }
    }
    smeltInputsCache.set(data, byResult);
  }
  return byResult.get(item) ?? [];
}

type Option =
  | { kind: 'craft'; recipe: Recipe; inputs: Counts; makes: number }
  | { kind: 'smelt'; input: string }
  | { kind: 'gather'; source: GatherSource };

/**
 * Plans making every item of `targets` from `inventory` with `sources`. Held items are used
 * first; then, per item, a way whose inputs are all obtainable is chosen: gathering first, then
 * crafting or smelting, preferring the way whose inputs are held most, and among recipe variants
 * held equally the most common one ({@link compareVariants}: oak planks, coal). An item with no
 * obtainable way is expanded along its best way while some of its inputs are held, so `missing`
 * names what is lacking (the redstone of a compass whose iron is held, not the compass); how far
 * beyond that is `options.expand`'s choice.
 *
 * A crafting table is planned first when a step needs one and none stands nearby
 * (`sources.tableNearby`): taken from the inventory (counted in `consumed`: placing it uses it
 * up) or made like any other item.
 *
 * @param inventory item name → count; not modified.
 * @param targets item name → count wanted (held ones are used first).
 * @param options how far missing items are broken down (default: while some inputs are held).
 * @throws Error when a target is not an item of this version.
 */
export function planProduction(
  data: GameData,
  inventory: Counts,
  targets: Counts,
  sources: ProductionSources = {},
  options: PlanOptions = {},
): ProductionPlan {
  for (const name of Object.keys(targets)) {
    if (!data.itemsByName[name]) throw new Error(`"${name}" is not an item in Minecraft ${data.version.minecraftVersion}`);
  }
  const expand = options.expand ?? 'held';
  const first = plan(data, inventory, targets, sources, expand, false);
  const tableNeeded =
    first.steps.some((s) => s.kind === 'craft' && s.needsTable) &&
    !sources.tableNearby &&
    !first.steps.some((s) => s.kind === 'craft' && s.item === 'crafting_table') &&
    !('crafting_table' in targets);
  if (!tableNeeded) return first;
  // The table is placed (not used up) by the first craft that needs it: plan it first.
  return plan(data, inventory, targets, sources, expand, true);
}

function plan(
  data: GameData,
  inventory: Counts,
  targets: Counts,
  sources: ProductionSources,
  expand: NonNullable<PlanOptions['expand']>,
  table: boolean,
): ProductionPlan {
  const held = new Map(Object.entries(inventory).filter(([, n]) => n > 0));
  const made = new Map<string, number>();
  const steps: ProductionStep[] = [];
  const missing: Counts = {};
  const consumed: Counts = {};
  const obtainableMemo = new Map<string, boolean>();

  const options = (name: string, path: readonly string[]): Option[] => {
    const out: Option[] = [];
    const source = sources.gather?.(name);
    if (source) out.push({ kind: 'gather', source });
    const id = data.itemsByName[name]?.id;
    if (id !== undefined) {
      for (const recipe of usableRecipes(data, id)) {
        const inputs: Counts = {};
        for (const [ing, n] of recipeIngredients(recipe)) inputs[data.items[ing]!.name] = n;
        if (Object.keys(inputs).some((i) => path.includes(i) || i === name)) continue;
        out.push({ kind: 'craft', recipe, inputs, makes: recipeResultCount(recipe) });
      }
    }
    if (sources.smelt) {
      for (const input of smeltingInputs(data, name)) if (!path.includes(input) && input !== name) out.push({ kind: 'smelt', input });
    }
    return out;
  };
  const have = (name: string) => (held.get(name) ?? 0) + (made.get(name) ?? 0);
  // Whether some way to get `name` exists (counts ignored), memoised per plan.
  const obtainable = (name: string, path: readonly string[]): boolean => {
    if (have(name) > 0) return true;
    if (path.length >= MAX_DEPTH || path.includes(name)) return false;
    const memo = obtainableMemo.get(name);
    if (memo !== undefined) return memo;
    obtainableMemo.set(name, false); // cycle guard while computing
    const next = [...path, name];
    const ok = options(name, path).some((o) => optionInputs(o).every((i) => obtainable(i, next)));
    obtainableMemo.set(name, ok);
    return ok;
  };
  const optionInputs = (o: Option): string[] =>
    o.kind === 'craft' ? Object.keys(o.inputs) : o.kind === 'smelt' ? [o.input] : Object.keys(o.source.consumes ?? {});
  const heldCoverage = (o: Option, times: number): number => {
    if (o.kind === 'gather') return Infinity;
    const inputs = o.kind === 'craft' ? o.inputs : { [o.input]: 1 };
    let covered = 0;
    for (const [i, n] of Object.entries(inputs)) covered += Math.min(have(i), n * times);
    return covered;
  };

  const take = (name: string, count: number): number => {
    const fromMade = Math.min(made.get(name) ?? 0, count);
    if (fromMade) made.set(name, (made.get(name) ?? 0) - fromMade);
    const fromHeld = Math.min(held.get(name) ?? 0, count - fromMade);
    if (fromHeld) {
      held.set(name, (held.get(name) ?? 0) - fromHeld);
      consumed[name] = (consumed[name] ?? 0) + fromHeld;
    }
    return count - fromMade - fromHeld;
  };

  // `target`: one of the caller's targets (not their ingredients, nor a table planned for them).
  const need = (name: string, count: number, path: readonly string[], target = false): void => {
    count = take(name, count);
    if (count === 0) return;
    const all = path.length >= MAX_DEPTH ? [] : options(name, path);
    if (all.length === 0) {
      missing[name] = (missing[name] ?? 0) + count;
      return;
    }
    const next = [...path, name];
    const timesOf = (o: Option) => (o.kind === 'craft' ? Math.ceil(count / o.makes) : count);
    const complete = all.filter((o) => optionInputs(o).every((i) => obtainable(i, next)));
    const pool = complete.length ? complete : all;
    let best = pool[0]!;
    for (const o of pool.slice(1)) {
      if (best.kind === 'gather') break;
      const more = heldCoverage(o, timesOf(o)) - heldCoverage(best, timesOf(best));
      if (more > 0 || (more === 0 && o.kind === 'craft' && best.kind === 'craft' && compareVariants(o.recipe, best.recipe) < 0)) best = o;
    }
    // Nothing obtainable and nothing of it held: this item is what is missing (unless the caller
    // wants it broken down further).
    const breakDown = expand === 'raw' || (expand === 'targets' && target);
    if (!complete.length && heldCoverage(best, timesOf(best)) === 0 && !breakDown) {
      missing[name] = (missing[name] ?? 0) + count;
      return;
    }
    if (best.kind === 'gather') {
      for (const [i, n] of Object.entries(best.source.consumes ?? {})) need(i, n * count, next);
      const earlier = steps.find((s) => s.kind === 'gather' && s.item === name);
      if (earlier) earlier.count += count;
      else steps.push({ kind: 'gather', item: name, count, source: best.source });
      return;
    }
    if (best.kind === 'smelt') {
      need(best.input, count, next);
      const earlier = steps.find((s) => s.kind === 'smelt' && s.item === name && s.input === best.input);
      if (earlier) earlier.count += count;
      else steps.push({ kind: 'smelt', item: name, input: best.input, count });
      return;
    }
    const times = Math.ceil(count / best.makes);
    // Reserve what is at hand for every ingredient first, then make the rest: a plank held for
    // the fence is not turned into sticks while other planks could be.
    const ingredients: Counts = {};
    const rest: Counts = {};
    for (const [i, n] of Object.entries(best.inputs)) {
      ingredients[i] = n * times;
      rest[i] = take(i, n * times);
    }
    for (const [i, n] of Object.entries(rest)) if (n > 0) need(i, n, next);
    const makes = times * best.makes;
    const recipe = best.recipe;
    const earlier = steps.find((s) => s.kind === 'craft' && s.item === name && sameKeys(s.ingredients, ingredients));
    if (earlier && earlier.kind === 'craft') {
      earlier.times += times;
      earlier.count += makes;
      for (const [i, n] of Object.entries(ingredients)) earlier.ingredients[i] = (earlier.ingredients[i] ?? 0) + n;
    } else {
      steps.push({ kind: 'craft', item: name, times, count: makes, ingredients, needsTable: recipeNeedsTable(recipe) });
    }
    if (makes > count) made.set(name, (made.get(name) ?? 0) + makes - count);
  };

  if (table) need('crafting_table', 1, []);
  for (const [name, count] of Object.entries(targets)) need(name, count, [], true);
  const leftovers: Counts = {};
  for (const [name, n] of made) if (n > 0) leftovers[name] = n;
  return { steps, missing, consumed, leftovers };
}

function sameKeys(a: Counts, b: Counts): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b);
}

/** `3 oak_planks, 1 stick` — empty string for no items. */
export function formatCounts(counts: Counts): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${n} ${name}`)
    .join(', ');
}

/** Sums inventories (item → count). */
export function addCounts(...all: Counts[]): Counts {
  const out: Counts = {};
  for (const c of all) for (const [k, n] of Object.entries(c)) if (n > 0) out[k] = (out[k] ?? 0) + n;
  return out;
}

const dropCache = new WeakMap<GameData, Map<string, string[]>>();

/**
 * Blocks whose drop (without silk touch) is `item`, from minecraft-data's block drops: `stone`
 * and `cobblestone` for cobblestone, `oak_log` for oak_log, `wheat` (the crop) for wheat.
 */
export function blocksDropping(data: GameData, item: string): string[] {
  let byItem = dropCache.get(data);
  if (!byItem) {
    byItem = new Map();
    for (const block of data.blocksArray) {
      for (const drop of block.drops ?? []) {
        const id = typeof drop === 'number' ? drop : (drop as { drop?: number | { id: number } }).drop;
        const itemId = typeof id === 'number' ? id : id?.id;
        const name = itemId === undefined ? undefined : data.items[itemId]?.name;
        if (!name) continue;
        const list = byItem.get(name) ?? [];
        if (!list.includes(block.name)) list.push(block.name);
        byItem.set(name, list);
      }
    }
    dropCache.set(data, byItem);
  }
  return byItem.get(item) ?? [];
}
