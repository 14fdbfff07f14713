/**
 * How to produce items from what is held: crafting (minecraft-data recipes), smelting or cooking
 * (vanilla furnace recipes and fuels of `./smelting.ts`) and gathering from the world (sources the
 * caller names: blocks to dig, mobs to hunt). A gathering that needs a tool (a pickaxe for stone:
 * minecraft-data's `harvestTools`) plans the tool first; a smelting with no furnace at hand plans
 * one (8 cobblestone) and its fuel. Pure functions over game data, no bot: the offline policy
 * plans with them, the task generator checks with them that a task can be done.
 */
import { type GameData, type Recipe, recipeIngredients, recipeNeedsTable, recipeResultCount } from './data.ts';
import { fuelsByPreference, smeltingTableFor } from './smelting.ts';
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
  /**
   * Items one of which must be held for the call to give anything (vanilla drops nothing from a
   * block dug without one of its `harvestTools`: stone needs a pickaxe, iron ore a stone one or
   * better). A tool is not used up by the plan (wear is not planned: a worn-out tool is planned
   * again once it is gone).
   */
  tools?: readonly string[];
  /**
   * The block lies beyond sight (within `!collectBlocks`' reach, underground: deepslate below
   * y = 0): a plan prefers ways whose gatherings are in sight ({@link FAR_COST}).
   */
  far?: boolean;
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
  | { kind: 'use'; tool: string; mob: string; where: string }
  /** Take it from the chest the task filled (VillagerBench's cooking): `takeFromChest(item, n)`, from the nearest chest. */
  | { kind: 'chest'; where: string };

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
    case 'chest':
      return { item, call: (n) => ({ skill: 'takeFromChest', args: { item_name: item, num: n } }), perAction: 1, where: supply.where };
  }
}

/** What besides crafting an agent can use. */
export interface ProductionSources {
  /** The world's source of `item`, if the world gives it. */
  gather?(item: string): GatherSource | undefined;
  /**
   * Whether a furnace or smoker is at hand (or held). Without one, smelting is still planned when
   * a furnace can be made: it is planned first, like a crafting table.
   */
  smelt?: boolean;
  /**
   * Whether the furnace at hand holds fuel enough (the cooking world's hold 64 coal each); default
   * true for one that stands in sight. A furnace the plan makes, or one found empty, gets fuel from
   * the plan: each smelting step plans its burn time's worth.
   */
  fuelled?: boolean;
  /** Whether a crafting table stands within reach of `!craftRecipe` (32 blocks). */
  tableNearby?: boolean;
}

/**
 * One step of a {@link ProductionPlan}. A smelting step's `fuel` is the fuel item the plan
 * provides for it (absent when the furnace at hand is fuelled); a gathering step's tools are its
 * source's.
 */
export type ProductionStep =
  | { kind: 'craft'; item: string; times: number; count: number; ingredients: Counts; needsTable: boolean }
  | { kind: 'smelt'; item: string; input: string; count: number; fuel?: string }
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

/**
 * A furnace's cooking time per item, in ticks, when its recipe does not say (vanilla
 * `AbstractCookingRecipe`: 200 for smelting; a smoker or blast furnace cooks in half the time and
 * burns its fuel twice as fast, so the fuel per item is the same).
 */
const COOK_TICKS = 200;
/**
 * Levels of ingredients the cost of a tool is followed down (see `rawCost` in {@link plan}; an iron
 * pickaxe: ingots, raw iron, a stone pickaxe, cobblestone, a wooden pickaxe, planks, logs), and of a
 * fuel (fuels worth burning are at most one craft or smelt from what is gathered: planks, charcoal).
 */
const COST_DEPTH = 8;
const FUEL_COST_DEPTH = 1;
/** What one gathering from a source beyond sight ({@link GatherSource.far}) counts as, in gatherings in sight (a dig far off or deep down). */
const FAR_COST = 4;
/** Burn time of the fuel a plan names missing when none can be had: coal's (ticks). */
const FUEL_UNIT = 1600;

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

type CraftOption = { kind: 'craft'; recipe: Recipe; inputs: Counts; makes: number };
type Option = CraftOption | { kind: 'smelt'; input: string } | { kind: 'gather'; source: GatherSource };

const craftCache = new WeakMap<GameData, Map<string, CraftOption[]>>();

/** The crafting ways to make `name` ({@link usableRecipes}), with their inputs by name; cached per data. */
function craftOptions(data: GameData, name: string): readonly CraftOption[] {
  let byName = craftCache.get(data);
  if (!byName) craftCache.set(data, (byName = new Map()));
  let list = byName.get(name);
  if (!list) {
    const id = data.itemsByName[name]?.id;
    list = (id === undefined ? [] : usableRecipes(data, id)).map((recipe) => {
      const inputs: Counts = {};
      for (const [ing, n] of recipeIngredients(recipe)) inputs[data.items[ing]!.name] = n;
      return { kind: 'craft' as const, recipe, inputs, makes: recipeResultCount(recipe) };
    });
    byName.set(name, list);
  }
  return list;
}

const unpackCache = new WeakMap<GameData, Map<string, CraftOption[]>>();

/**
 * The recipes of `name` that {@link usableRecipes} leaves out (unpacking a storage block: wheat
 * from a hay bale), as crafting ways; a plan takes one only when the world gives the block.
 */
function unpackOptions(data: GameData, name: string): readonly CraftOption[] {
  let byName = unpackCache.get(data);
  if (!byName) unpackCache.set(data, (byName = new Map()));
  let list = byName.get(name);
  if (!list) {
    const id = data.itemsByName[name]?.id;
    const usable = new Set(id === undefined ? [] : usableRecipes(data, id));
    list = (id === undefined ? [] : (data.recipes[id] ?? []))
      .filter((recipe) => !usable.has(recipe))
      .map((recipe) => {
        const inputs: Counts = {};
        for (const [ing, n] of recipeIngredients(recipe)) inputs[data.items[ing]!.name] = n;
        return { kind: 'craft' as const, recipe, inputs, makes: recipeResultCount(recipe) };
      });
    byName.set(name, list);
  }
  return list;
}

/**
 * Every item a plan of `targets` might use, whatever is held: the targets, the ingredients of all
 * their recipes, what smelts into them, the items consumed by their gatherings and the tools those
 * need, and so on down. A superset of any {@link planProduction} plan's items (for a caller that
 * looks only at what matters to a task, e.g. the world's blocks that drop one of these).
 *
 * @example productionClosure(data, { stick: 1 }, {}).has('oak_log') // true
 */
export function productionClosure(data: GameData, targets: Counts, sources: ProductionSources = {}): Set<string> {
  const seen = new Set(Object.keys(targets));
  const stack = [...seen];
  const add = (item: string) => {
    if (!seen.has(item)) {
      seen.add(item);
      stack.push(item);
    }
  };
  while (stack.length) {
    const name = stack.pop()!;
    for (const craft of craftOptions(data, name)) Object.keys(craft.inputs).forEach(add);
    smeltingInputs(data, name).forEach(add);
    const source = sources.gather?.(name);
    if (source) [...Object.keys(source.consumes ?? {}), ...(source.tools ?? [])].forEach(add);
  }
  return seen;
}

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
  // A table and a furnace are placed (used up) by the first step that needs one: planned first,
  // the table before the furnace (which needs it); a pass that adds one may need the other.
  const first: Stations = { table: false, furnace: false };
  let result = plan(data, inventory, targets, sources, expand, first);
  for (let pass = 0; pass < 2; pass++) {
    const makes = (item: string) => result.steps.some((s) => s.kind === 'craft' && s.item === item) || item in targets;
    const table =
      first.table || (result.steps.some((s) => s.kind === 'craft' && s.needsTable) && !sources.tableNearby && !makes('crafting_table'));
    const furnace = first.furnace || (result.steps.some((s) => s.kind === 'smelt') && !sources.smelt && !makes('furnace'));
    if (table === first.table && furnace === first.furnace) return result;
    first.table = table;
    first.furnace = furnace;
    result = plan(data, inventory, targets, sources, expand, first);
  }
  return result;
}

/** The stations a plan makes (or takes from the inventory) before anything else. */
interface Stations {
  table: boolean;
  furnace: boolean;
}

function plan(
  data: GameData,
  inventory: Counts,
  targets: Counts,
  sources: ProductionSources,
  expand: NonNullable<PlanOptions['expand']>,
  stations: Stations,
): ProductionPlan {
  const held = new Map(Object.entries(inventory).filter(([, n]) => n > 0));
  const smelting = smeltingTableFor(data);
  const made = new Map<string, number>();
  const steps: ProductionStep[] = [];
  const missing: Counts = {};
  const consumed: Counts = {};
  // The ways to make `name`, whatever the path (gathering first, crafting, then smelting when a
  // furnace is at hand or can be made), cached per plan.
  const gatherings = new Map<string, GatherSource | undefined>();
  const gatherOf = (name: string): GatherSource | undefined => {
    if (!gatherings.has(name)) gatherings.set(name, sources.gather?.(name));
    return gatherings.get(name);
  };
  const waysCache = [new Map<string, Option[]>(), new Map<string, Option[]>()];
  const ways = (name: string, smelt: boolean): Option[] => {
    const cache = waysCache[Number(smelt)]!;
    let out = cache.get(name);
    if (!out) {
      out = [];
      const source = gatherOf(name);
      if (source) out.push({ kind: 'gather', source });
      out.push(...craftOptions(data, name));
      // A storage block the world gives is unpacked after all (a chest of hay bales for wheat).
      out.push(...unpackOptions(data, name).filter((o) => Object.keys(o.inputs).every((i) => gatherOf(i))));
      if (smelt) for (const input of smeltingInputs(data, name)) out.push({ kind: 'smelt', input });
      cache.set(name, out);
    }
    return out;
  };
  // The ways to make `name` on `path`: none that takes an item on it (a cycle).
  const options = (name: string, path: readonly string[]): Option[] =>
    ways(name, canSmelt()).filter((o) => optionInputs(o).every((i) => i !== name && !path.includes(i)));
  const have = (name: string) => (held.get(name) ?? 0) + (made.get(name) ?? 0);

  // What can be had at all (counts ignored): the least fixpoint of "held, or some way's inputs
  // (and, for a gathering, one of its tools) can be had", over the items the question reaches.
  // Found once per plan and grown when a new item is asked about; smelting counts once a furnace
  // is at hand or can itself be had without smelting.
  const reached = new Set<string>();
  const can = new Set<string>();
  let smeltable = Boolean(sources.smelt || stations.furnace);
  const grow = (roots: readonly string[]): void => {
    const stack = roots.filter((r) => !reached.has(r));
    for (const r of stack) reached.add(r);
    while (stack.length) {
      const name = stack.pop()!;
      for (const o of ways(name, true)) {
        for (const i of [...optionInputs(o), ...(o.kind === 'gather' ? (o.source.tools ?? []) : [])]) {
          if (!reached.has(i)) {
            reached.add(i);
            stack.push(i);
          }
        }
      }
    }
    for (;;) {
      let changed = false;
      for (const name of reached) {
        if (can.has(name)) continue;
        const ok =
          have(name) > 0 ||
          ways(name, smeltable).some(
            (o) =>
              optionInputs(o).every((i) => can.has(i)) &&
              (o.kind !== 'gather' || !o.source.tools?.length || o.source.tools.some((t) => can.has(t))),
          );
        if (ok) {
          can.add(name);
          changed = true;
        }
      }
      if (!changed && !smeltable && can.has('furnace')) smeltable = true;
      else if (!changed) return;
    }
  };
  const obtainable = (name: string): boolean => {
    if (have(name) > 0) return true;
    if (!reached.has(name)) grow([name]);
    return can.has(name);
  };
  const canSmelt = (): boolean => smeltable;
  // The furnace's fuel comes from the plan unless the one at hand is fuelled.
  const fuelNeeded = !sources.smelt || sources.fuelled === false;
  // An option whose inputs can all be had and, for a gathering, one of whose tools can.
  const optionOk = (o: Option): boolean => optionInputs(o).every((i) => obtainable(i)) && (o.kind !== 'gather' || toolOk(o.source));
  const toolOk = (source: GatherSource): boolean => !source.tools?.length || source.tools.some((t) => have(t) > 0 || obtainable(t));
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
    const complete = all.filter((o) => optionOk(o));
    const pool = complete.length ? complete : all;
    let best = pool[0]!;
    for (const o of pool.slice(1)) {
      if (best.kind === 'gather') break;
      const more = heldCoverage(o, timesOf(o)) - heldCoverage(best, timesOf(best));
      if (more > 0) best = o;
      else if (more === 0 && o.kind === 'craft' && best.kind === 'craft') {
        // The variant whose missing inputs take fewer gatherings; equal ones, the most common.
        const a = inputsCost(o, timesOf(o), next);
        const b = inputsCost(best, timesOf(best), next);
        if (a < b || (a === b && compareVariants(data, o.recipe, best.recipe) < 0)) best = o;
      }
    }
    // Nothing obtainable and nothing of it held: this item is what is missing (unless the caller
    // wants it broken down further).
    const breakDown = expand === 'raw' || (expand === 'targets' && target);
    if (!complete.length && heldCoverage(best, timesOf(best)) === 0 && !breakDown) {
      missing[name] = (missing[name] ?? 0) + count;
      return;
    }
    if (best.kind === 'gather') {
      const tools = best.source.tools;
      if (tools?.length && !tools.some((t) => have(t) > 0)) {
        // The tool first, kept for the gathering (not used up).
        const tool = cheapest(tools, next);
        if (tool) {
          need(tool, 1, next);
          made.set(tool, (made.get(tool) ?? 0) + 1);
        } else missing[tools[0]!] = (missing[tools[0]!] ?? 0) + 1;
      }
      for (const [i, n] of Object.entries(best.source.consumes ?? {})) need(i, n * count, next);
      const earlier = steps.find((s) => s.kind === 'gather' && s.item === name);
      if (earlier) earlier.count += count;
      else steps.push({ kind: 'gather', item: name, count, source: best.source });
      return;
    }
    if (best.kind === 'smelt') {
      need(best.input, count, next);
      const fuel = fuelNeeded ? provideFuel(count * cookTicks(best.input), best.input, next) : undefined;
      const earlier = steps.find((s) => s.kind === 'smelt' && s.item === name && s.input === best.input);
      if (earlier) {
        earlier.count += count;
        if (fuel && earlier.kind === 'smelt') earlier.fuel ??= fuel;
      } else steps.push({ kind: 'smelt', item: name, input: best.input, count, ...(fuel ? { fuel } : {}) });
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

  /** Ticks a furnace takes to cook one `input`. */
  const cookTicks = (input: string): number => {
    const id = data.itemsByName[input]?.id;
    return (id === undefined ? undefined : smelting.recipes.smelting.get(id)?.cookingTime) ?? COOK_TICKS;
  };
  /**
   * Plans `ticks` of burn time: the first fuel held or made in the order `!smeltItem` picks it
   * (`fuelsByPreference`), with more of it made when short (the command puts in that one alone);
   * else the fuels held, then the one that takes the fewest gatherings to make (the first in that
   * order of equals). Returns the fuel item planned last, if any.
   */
  const provideFuel = (ticks: number, input: string, path: readonly string[]): string | undefined => {
    let left = ticks;
    let used: string | undefined;
    // Never the item cooked, one on the path, nor the crafting table the plan places to craft with.
    const fuels = fuelsByPreference(data).filter(
      (f) => f.stackable && f.name !== input && f.name !== 'crafting_table' && !path.includes(f.name),
    );
    // `!smeltItem` puts in one fuel, the first held in that order: more of it is made when it can
    // be (a plank held and planks to make), so the furnace gets enough of the one it is given.
    const first = fuels.find((f) => have(f.name) > 0);
    if (first) {
      const n = Math.ceil(left / first.burnTicks);
      const short = n - have(first.name);
      const firstCost = short <= 0 ? 0 : shortCost(first.name, n, path, new Map(), 0, FUEL_COST_DEPTH);
      // A fuel `!smeltItem` puts in before it (so the held one is then left alone) that is cheaper
      // to get than the rest of it: coal ore at hand in a mine, where planks need logs from the surface.
      let better: { name: string; n: number; cost: number } | undefined;
      for (const f of short > 0 ? fuels.slice(0, fuels.indexOf(first)) : []) {
        const m = Math.ceil(left / f.burnTicks);
        const cost = shortCost(f.name, m, path, new Map(), 0, FUEL_COST_DEPTH);
        if (cost < firstCost && (!better || cost < better.cost)) better = { name: f.name, n: m, cost };
      }
      if (better) {
        need(better.name, better.n, path);
        return better.name;
      }
      if (short <= 0 || Number.isFinite(firstCost)) {
        const held = Math.min(n, have(first.name));
        take(first.name, held);
        if (short > 0) need(first.name, short, path);
        return first.name;
      }
    }
    for (const f of fuels) {
      if (left <= 0) break;
      const n = Math.min(have(f.name), Math.ceil(left / f.burnTicks));
      if (n <= 0) continue;
      take(f.name, n);
      left -= n * f.burnTicks;
      used = f.name;
    }
    if (left <= 0) return used;
    let best: { name: string; n: number; cost: number } | undefined;
    const costs = new Map<string, number>();
    for (const f of fuels) {
      const n = Math.ceil(left / f.burnTicks);
      const cost = shortCost(f.name, n, path, costs, 0, FUEL_COST_DEPTH);
      if (Number.isFinite(cost) && (!best || cost < best.cost)) best = { name: f.name, n, cost };
    }
    if (!best) {
      missing.coal = (missing.coal ?? 0) + Math.ceil(left / FUEL_UNIT);
      return undefined;
    }
    need(best.name, best.n, path);
    return best.name;
  };
  /** Of `tools`, the held one or the one that takes the fewest gatherings to make; undefined when none can be had. */
  const cheapest = (tools: readonly string[], path: readonly string[]): string | undefined => {
    let best: { tool: string; cost: number } | undefined;
    for (const tool of tools) {
      // A memo of its own per tool: one shared with another tool's costing kept the Infinity its
      // cycle guard set (a copper pickaxe's copper ore needs a stone pickaxe) and made a stone
      // pickaxe look impossible.
      const cost = have(tool) > 0 ? 0 : obtainable(tool) ? rawCost(tool, path, new Map()) : Infinity;
      if (Number.isFinite(cost) && (!best || cost < best.cost)) best = { tool, cost };
    }
    return best?.tool;
  };
  /**
   * About how many gatherings one more `name` takes (its cheapest way: a gathering 1, or
   * {@link FAR_COST} beyond sight, and the cost of its tool when none is held; a craft its
   * ingredients' share beyond those held; smelting its input's plus 1), Infinity when it cannot
   * be had. A rough measure to choose a tool or a fuel by, memoised in `memo`;
   * followed {@link COST_DEPTH} levels down.
   */
  const rawCost = (name: string, path: readonly string[], memo: Map<string, number>, depth = 0, maxDepth = COST_DEPTH): number => {
    if (depth > maxDepth || path.length >= MAX_DEPTH || path.includes(name)) return Infinity;
    const known = memo.get(name);
    if (known !== undefined) return known;
    memo.set(name, Infinity); // cycle guard while computing
    const next = [...path, name];
    let cost = Infinity;
    for (const o of options(name, path)) {
      let c: number;
      if (o.kind === 'gather') c = (o.source.far ? FAR_COST : 1) / o.source.perAction + toolCost(o.source, next, memo, depth);
      else if (o.kind === 'smelt') c = shortCost(o.input, 1, next, memo, depth + 1, maxDepth) + 1;
      else c = Object.entries(o.inputs).reduce((sum, [i, n]) => sum + shortCost(i, n, next, memo, depth + 1, maxDepth), 0) / o.makes;
      cost = Math.min(cost, c);
    }
    memo.set(name, cost);
    return cost;
  };
  /** What `n` of `name` cost beyond those held ({@link rawCost} each): a held ingredient is free only as far as it goes. */
  const shortCost = (
    name: string,
    n: number,
    path: readonly string[],
    memo: Map<string, number>,
    depth: number,
    maxDepth: number,
  ): number => {
    const short = n - have(name);
    return short <= 0 ? 0 : short * rawCost(name, path, memo, depth, maxDepth);
  };
  /** What the inputs of `times` uses of a craft cost beyond those held (to choose between a recipe's variants). */
  const inputsCost = (o: Option, times: number, path: readonly string[]): number => {
    const memo = new Map<string, number>();
    return o.kind === 'craft'
      ? Object.entries(o.inputs).reduce((sum, [i, n]) => sum + shortCost(i, n * times, path, memo, 0, COST_DEPTH), 0)
      : 0;
  };
  /** What getting a gathering's tool costs ({@link rawCost}): nothing when one is held or none is needed, Infinity when none can be had. */
  const toolCost = (source: GatherSource, path: readonly string[], memo: Map<string, number>, depth: number): number => {
    const tools = source.tools ?? [];
    if (tools.length === 0 || tools.some((t) => have(t) > 0)) return 0;
    return Math.min(...tools.map((t) => rawCost(t, path, memo, depth + 1)));
  };

  grow(['furnace']); // whether smelting counts
  if (stations.table) need('crafting_table', 1, []);
  if (stations.furnace) need('furnace', 1, []);
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

/**
 * The item ids a block drops without silk touch, from minecraft-data's `drops` (a list of ids, or
 * of `{ drop: id | { id } }` in some versions' data).
 */
export function dropItemIds(block: { drops?: readonly unknown[] }): number[] {
  return (block.drops ?? []).flatMap((drop) => {
    const id = typeof drop === 'number' ? drop : (drop as { drop?: number | { id: number } }).drop;
    const itemId = typeof id === 'number' ? id : id?.id;
    return itemId === undefined ? [] : [itemId];
  });
}

/**
 * The item that places `block` (minecraft-data): the item of the same name, else the block's first
 * drop (`wall_torch` → `torch`); undefined when neither.
 */
export function itemForBlock(data: GameData, block: string): string | undefined {
  if (data.itemsByName[block]) return block;
  const id = dropItemIds(data.blocksByName[block] ?? {})[0];
  return id !== undefined ? data.items[id]?.name : undefined;
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
      for (const itemId of dropItemIds(block)) {
        const name = data.items[itemId]?.name;
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
