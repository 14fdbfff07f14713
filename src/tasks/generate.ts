/**
 * Task generators: MineCollab-format task files (see `./schema.ts`) made from minecraft-data
 * recipes, the cooking world's supplies (`./cooking.ts`) and simple blueprint rules, with a seeded
 * random split of items among the agents. The same seed gives the same file.
 *
 * - crafting (`techtree`): a craftable target; its ingredients `depth` crafting levels down are
 *   dealt out at random (plus a crafting table when a recipe needs one), some ingredient types may
 *   be left out as `missing_items` (to gather from the world), some agents may be blocked from
 *   commands (`blocked_actions`).
 * - cooking: dishes made in the cooking world; the items the world does not give (gold, apples,
 *   milk, eggs, bowls, ...) are dealt out; `--hells-kitchen` gives each agent its own dish and the
 *   recipe of its partner's.
 * - construction: a blueprint of a floor and walls, levels bottom up, with the materials dealt
 *   out to the agents by material.
 * - shelter: S-Agents' shelter (Chen et al. 2024, §IV-A): a stone foundation, wooden walls with a
 *   doorway and a stone roof; one agent starts with the stone, the others with the planks.
 */
import type { GameData } from '../game/data.ts';
import {
  type Counts,
  addCounts,
  formatCounts,
  planProduction,
  type ProductionSources,
  supplySource,
  usableRecipes,
} from '../game/production.ts';
import { seededRandom, type Random } from './random.ts';
import { recipeIngredients, recipeNeedsTable, recipeResultCount } from '../game/data.ts';
import { COOKING_DISHES, COOKING_PANTRY, COOKING_SUPPLIES } from './cooking.ts';
import type { Task } from './schema.ts';

/**
 * Most agents a generated task has: MineCollab's tasks have up to 5; VillagerAgent's Table 6 scales
 * construction to 8 (`bench/coordination.ts` plays 2–6, construction up to 8).
 */
export const MAX_GENERATED_AGENTS = 8;

/** Options shared by the generators. */
export interface GenerateOptions {
  /** Agents per task (1–{@link MAX_GENERATED_AGENTS}). */
  agents: number;
  /** Tasks to make. */
  count: number;
  seed: number;
  /** Time limit of each task (s). */
  timeout?: number;
}

export interface CraftingOptions extends GenerateOptions {
  /** Crafting levels between the items given and the target (0: its direct ingredients). */
  depth: number;
  /** How many ingredient types to leave out for the agents to gather (only types the world gives: logs, stone...). */
  missing?: number;
  /** Commands to block, each for one random agent (never every agent's `!craftRecipe`). */
  blocked?: readonly string[];
  /** Restrict targets to these items. */
  targets?: readonly string[];
}

/** Items whose blocks a superflat or normal world gives for digging: what `missing_items` may name. */
const GATHERABLE = /^(oak_log|birch_log|spruce_log|cobblestone|dirt|sand|gravel)$/;

/** Ingredients far from ordinary play (trims, smithing templates, ...): not picked as targets. */
const ODD_TARGET =
  /template|_trim|banner_pattern|pottery|suspicious|firework_star|written_book|map|spawn_egg|debug|command|structure|jigsaw|bundle|^(white|light_gray|gray|black|brown|red|orange|yellow|lime|green|cyan|light_blue|blue|purple|magenta|pink)_(bed|carpet|candle|concrete_powder|terracotta|stained_glass_pane|shulker_box|harness)$|crafter|wolf_armor|leather_horse_armor|bolt|elytra/;

/** The items a crafting task at `depth` hands out for one `target`, and whether a table is needed. */
export function craftingIngredients(
  data: GameData,
  target: string,
  depth: number,
  rng: Random,
): { items: Counts; table: boolean } | undefined {
  const items: Counts = {};
  let table = false;
  const expand = (name: string, count: number, level: number, path: string[]): boolean => {
    const id = data.itemsByName[name]?.id;
    const recipes =
      id === undefined
        ? []
        : usableRecipes(data, id).filter((r) => [...recipeIngredients(r).keys()].every((i) => !path.includes(data.items[i]!.name)));
    if (level > depth || recipes.length === 0) {
      if (level === 0) return false;
      items[name] = (items[name] ?? 0) + count;
      return true;
    }
    // Prefer oak (the benchmark's wood) when a recipe has variants.
    const oak = recipes.filter((r) => [...recipeIngredients(r).keys()].some((i) => data.items[i]!.name.startsWith('oak_')));
    const recipe = oak.length ? oak[0]! : rng.pick(recipes);
    if (recipeNeedsTable(recipe)) table = true;
    const times = Math.ceil(count / recipeResultCount(recipe));
    for (const [ing, n] of recipeIngredients(recipe)) {
      if (!expand(data.items[ing]!.name, n * times, level + 1, [...path, name])) return false;
    }
    return true;
  };
  if (!expand(target, 1, 0, [])) return undefined;
  return { items, table };
}

/** Deals `items` out to `agents` at random, one unit at a time. */
function deal(items: Counts, agents: number, rng: Random): Counts[] {
  const out: Counts[] = Array.from({ length: agents }, () => ({}));
  for (const [item, n] of Object.entries(items)) {
    for (let k = 0; k < n; k++) {
      const a = rng.int(0, agents - 1);
      out[a]![item] = (out[a]![item] ?? 0) + 1;
    }
  }
  return out;
}

function inventories(dealt: Counts[]): Record<string, Counts> {
  return Object.fromEntries(dealt.map((inv, i) => [String(i), inv]));
}

/** The craftable targets of a version that make sensible tasks. */
export function craftingTargets(data: GameData): string[] {
  return Object.keys(data.recipes)
    .map((id) => data.items[Number(id)]?.name)
    .filter((n): n is string => !!n && !ODD_TARGET.test(n))
    .sort();
}

/**
 * Crafting tasks: `count` tasks with random targets; ids `generated_crafting_<target>_<k>__depth_<d>_num_agents_<n>`.
 *
 * @throws RangeError for an agent count outside 1–8 or a negative depth.
 */
export function generateCraftingTasks(data: GameData, options: CraftingOptions): Record<string, Task> {
  const { agents, count, depth } = options;
  if (agents < 1 || agents > MAX_GENERATED_AGENTS) throw new RangeError(`--agents must be 1–${MAX_GENERATED_AGENTS}, got ${agents}`);
  if (depth < 0 || depth > 3) throw new RangeError(`--depth must be 0–3, got ${depth}`);
  const rng = seededRandom(options.seed);
  const candidates = options.targets?.length ? [...options.targets] : craftingTargets(data);
  const tasks: Record<string, Task> = {};
  for (let tries = 0; Object.keys(tasks).length < count && tries < count * 200; tries++) {
    const target = rng.pick(candidates);
    const found = craftingIngredients(data, target, depth, rng);
    if (!found) continue;
    const total = Object.values(found.items).reduce((a, b) => a + b, 0);
    if (total > 24 || total < Math.min(agents, 2)) continue;
    const gatherable = Object.keys(found.items).filter((i) => GATHERABLE.test(i));
    if ((options.missing ?? 0) > gatherable.length) continue;
    const missing = gatherable.slice(0, options.missing ?? 0);
    const given = Object.fromEntries(Object.entries(found.items).filter(([i]) => !missing.includes(i)));
    const dealt = deal(given, agents, rng);
    if (found.table) {
      const a = rng.int(0, agents - 1);
      dealt[a]!.crafting_table = 1;
    }
    // Solvable from the pool plus the missing items (gathered).
    const pool = addCounts(...dealt, Object.fromEntries(missing.map((m) => [m, found.items[m]!])));
    if (Object.keys(planProduction(data, pool, { [target]: 1 }, {}).missing).length) continue;
    const blocked: Record<string, string[]> = Object.fromEntries(Array.from({ length: agents }, (_, i) => [String(i), [] as string[]]));
    for (const command of options.blocked ?? []) {
      // Never block the last agent that may craft.
      const open = Object.keys(blocked).filter((a) => !blocked[a]!.includes(command));
      if (command === '!craftRecipe' && open.length <= 1) continue;
      blocked[rng.pick(open)]!.push(command);
    }
    const id = `generated_crafting_${target}_${options.seed}_${Object.keys(tasks).length}__depth_${depth}_num_agents_${agents}`;
    tasks[id] = {
      goal: `Collaborate with other agents to craft an ${target}`,
      conversation: `Let's work together to craft an ${target}.`,
      initial_inventory: inventories(dealt),
      agent_count: agents,
      target,
      number_of_target: 1,
      type: 'techtree',
      max_depth: depth + 1,
      depth,
      timeout: options.timeout ?? 300,
      blocked_actions: blocked,
      missing_items: missing,
      requires_crafting_table: found.table,
    };
  }
  return tasks;
}

export interface CookingOptions extends GenerateOptions {
  /** Dishes per task (default 2, as MineCollab). */
  dishes?: number;
  /** Hell's Kitchen: 2 agents, each makes its own dish with its partner's recipe. */
  hellsKitchen?: boolean;
  /** Restrict dishes to these. */
  targets?: readonly string[];
}

/** Production sources of the cooking world: every supply, a furnace and smoker, a crafting table. */
export const COOKING_WORLD_SOURCES: ProductionSources = {
  gather: (item) => {
    const supply = COOKING_SUPPLIES[item];
    return supply ? supplySource(item, supply) : undefined;
  },
  smelt: true,
  tableNearby: true,
};

/** The recipe steps of a dish as MineCollab words them, from its production plan. */
export function cookingRecipe(data: GameData, dish: string): { steps: string[]; handOut: Counts } {
  const pantry = Object.fromEntries(COOKING_PANTRY.map((i) => [i, 64]));
  const plan = planProduction(data, pantry, { [dish]: 1 }, COOKING_WORLD_SOURCES);
  const handOut = { ...plan.consumed };
  const steps: string[] = [];
  const given = formatCounts(handOut);
  if (given) steps.push(`Get ${given} from your inventory or other bots.`);
  for (const s of plan.steps) {
    if (s.kind === 'gather') steps.push(`Go to ${s.source.where} and collect ${s.count} ${s.item}.`);
    else if (s.kind === 'smelt') steps.push(`Cook ${s.count} ${s.input} in the smoker or furnace to get ${s.item}.`);
    else steps.push(`Go to the crafting table and craft ${s.count} ${s.item} from ${formatCounts(s.ingredients)}.`);
  }
  return { steps: steps.map((t, i) => `Step ${i + 1}: ${t}`), handOut };
}

/** Dishes the cooking world can make (given the pantry). */
export function cookingDishes(data: GameData): string[] {
  const pantry = Object.fromEntries(COOKING_PANTRY.map((i) => [i, 64]));
  return COOKING_DISHES.filter(
    (d) => data.itemsByName[d] && Object.keys(planProduction(data, pantry, { [d]: 1 }, COOKING_WORLD_SOURCES).missing).length === 0,
  );
}

/**
 * Cooking tasks in MineCollab's format (`multiagent_cooking_...`, `..._hells_kitchen` for Hell's
 * Kitchen), with `recipes`, per-agent goals and the hand-out items dealt at random.
 *
 * @throws RangeError for an agent count outside 1–8 (Hell's Kitchen: exactly 2).
 */
export function generateCookingTasks(data: GameData, options: CookingOptions): Record<string, Task> {
  const { agents, count } = options;
  if (agents < 1 || agents > MAX_GENERATED_AGENTS) throw new RangeError(`--agents must be 1–${MAX_GENERATED_AGENTS}, got ${agents}`);
  if (options.hellsKitchen && agents !== 2) throw new RangeError("Hell's Kitchen tasks have 2 agents");
  const rng = seededRandom(options.seed);
  const menu = options.targets?.length ? [...options.targets] : cookingDishes(data);
  const k = options.hellsKitchen ? 2 : (options.dishes ?? 2);
  const tasks: Record<string, Task> = {};
  for (let tries = 0; Object.keys(tasks).length < count && tries < count * 50; tries++) {
    const dishes: string[] = [];
    while (dishes.length < Math.min(k, menu.length)) {
      const d = rng.pick(menu);
      if (!dishes.includes(d)) dishes.push(d);
    }
    const recipes = Object.fromEntries(dishes.map((d) => [d, cookingRecipe(data, d).steps]));
    const handOut = addCounts(...dishes.map((d) => cookingRecipe(data, d).handOut));
    const dealt = deal(handOut, agents, rng);
    const recipeText = (d: string) => `Recipe for ${d}:\n${JSON.stringify(recipes[d]).replace(/"/g, "'")}`;
    const n = Object.keys(tasks).length;
    if (options.hellsKitchen) {
      const [a, b] = dishes as [string, string];
      const hk = (mine: string, theirs: string) =>
        `You need to make ${mine}, but you don't have the recipe for it, your partner has it!\n\nYour partner needs to make ${theirs}. You have their recipe:\n${recipeText(theirs)}\n\nYou must communicate effectively to exchange recipe information and complete both dishes.`;
      tasks[`generated_cooking_${a}_${b}_${options.seed}_${n}_hells_kitchen`] = {
        conversation: `We need to make ${a} and ${b} together. You are supposed to make ${b} and I am supposed to make ${a}, but I only have YOUR recipe and you only have access to MY recipe! Let's exchange information and get cooking!`,
        agent_count: 2,
        target: [a, b],
        type: 'cooking',
        timeout: options.timeout ?? 500,
        recipes,
        blocked_access_to_recipe: [],
        goal: { 0: hk(a, b), 1: hk(b, a) },
        initial_inventory: inventories(dealt),
      } as unknown as Task;
      continue;
    }
    const what = dishes.map((d) => `1 ${d}`).join(', ');
    const goal = `Collaborate with agents around you to make ${what}. ${dishes.map(recipeText).join('')}`;
    tasks[`generated_cooking_${agents}_${dishes.map((d) => `1_${d}`).join('_')}_${options.seed}_${n}`] = {
      conversation: `Let's work together to make ${dishes.join(', ')}.`,
      agent_count: agents,
      target: Object.fromEntries(dishes.map((d) => [d, 1])),
      type: 'cooking',
      timeout: options.timeout ?? 500,
      recipes,
      blocked_access_to_recipe: [],
      goal,
      initial_inventory: inventories(dealt),
    } as unknown as Task;
  }
  return tasks;
}

export interface ConstructionOptions extends GenerateOptions {
  /** Largest side of the floor (blocks, 3–9). */
  size?: number;
  /** Most levels (1–4). */
  levels?: number;
}

/** Full, plain building blocks (no gravity, no states that matter) for generated blueprints. */
export function buildingBlocks(data: GameData): string[] {
  return data.blocksArray
    .filter(
      (b) =>
        /(_planks|^stone_bricks|^bricks|^cobblestone|^stone|_wool|_concrete|^smooth_stone|^polished_(andesite|diorite|granite)|^quartz_block)$/.test(
          b.name,
        ) &&
        b.boundingBox === 'block' &&
        data.itemsByName[b.name],
    )
    .map((b) => b.name)
    .sort();
}

/**
 * Construction tasks: a floor of one material and walls (with a doorway) of another, `levels`
 * high, at a random spot; the materials are dealt out by kind, then evened out at random.
 */
export function generateConstructionTasks(data: GameData, options: ConstructionOptions): Record<string, Task> {
  const { agents, count } = options;
  if (agents < 1 || agents > MAX_GENERATED_AGENTS) throw new RangeError(`--agents must be 1–${MAX_GENERATED_AGENTS}, got ${agents}`);
  const rng = seededRandom(options.seed);
  const blocks = buildingBlocks(data);
  const tasks: Record<string, Task> = {};
  for (let n = 0; n < count; n++) {
    const w = rng.int(3, Math.max(3, options.size ?? 6));
    const d = rng.int(3, Math.max(3, options.size ?? 6));
    const height = rng.int(1, Math.max(1, options.levels ?? 3));
    const floor = rng.pick(blocks);
    const wall = rng.pick(blocks);
    const x = rng.int(-40, 40);
    const z = rng.int(-40, 40);
    const door = rng.int(1, w - 2);
    const levels = [];
    for (let l = 0; l < height; l++) {
      const placement = Array.from({ length: d }, (_, r) =>
        Array.from({ length: w }, (_, c) => {
          if (l === 0) return floor;
          const edge = r === 0 || c === 0 || r === d - 1 || c === w - 1;
          if (!edge) return 'air';
          if (r === 0 && c === door && l <= 2) return 'air';
          return wall;
        }),
      );
      levels.push({ level: l, coordinates: [x, -60 + l, z] as [number, number, number], placement });
    }
    const materials: Counts = {};
    for (const l of levels) for (const row of l.placement) for (const b of row) if (b !== 'air') materials[b] = (materials[b] ?? 0) + 1;
    const dealt: Counts[] = Array.from({ length: agents }, () => ({}));
    Object.entries(materials).forEach(([m, c], i) => {
      // Each material mostly with one agent, part of it with another.
      const main = (i + rng.int(0, agents - 1)) % agents;
      const part = agents > 1 ? rng.int(0, Math.floor(c / 2)) : 0;
      const other = (main + 1) % agents;
      dealt[main]![m] = (dealt[main]![m] ?? 0) + c - part;
      if (part) dealt[other]![m] = (dealt[other]![m] ?? 0) + part;
    });
    tasks[`generated_construction_${w}x${d}x${height}_${options.seed}_${n}_num_agents_${agents}`] = {
      type: 'construction',
      goal: 'Make a structure with the blueprint below',
      conversation: "Let's share materials and make a structure with the blueprint",
      agent_count: agents,
      timeout: options.timeout ?? 600,
      blueprint: { materials, levels },
      initial_inventory: inventories(dealt),
      blocked_actions: {},
    };
  }
  return tasks;
}

/** Options of {@link generateShelterTasks}. */
export interface ShelterOptions extends GenerateOptions {
  /** Largest width and depth (blocks, 3–9; default 5). */
  size?: number;
  /** Wall height (blocks, 2–3; default 2): the doorway must let a player (1.8 blocks tall) out once the roof is on. */
  walls?: number;
}

/**
 * S-Agents' shelter as construction tasks (the paper's open-world build, §IV-A): a foundation of
 * one stone block, walls of one kind of planks with a doorway on the front, a roof of the same
 * stone, at a random spot. Agent 0 starts with the stone; the planks are split evenly among the
 * others (with one agent, it holds everything). As in the paper's set-up with three agents, two
 * start with planks and one with stone. The doorway is two blocks high, so a builder inside can walk
 * out under the roof.
 *
 * @throws RangeError for an agent count outside 1–{@link MAX_GENERATED_AGENTS} or a size or wall
 *   height out of range.
 */
export function generateShelterTasks(data: GameData, options: ShelterOptions): Record<string, Task> {
  const { agents, count } = options;
  if (agents < 1 || agents > MAX_GENERATED_AGENTS) throw new RangeError(`--agents must be 1–${MAX_GENERATED_AGENTS}, got ${agents}`);
  const size = options.size ?? 5;
  if (size < 3 || size > 9) throw new RangeError(`--size must be 3–9, got ${size}`);
  const walls = options.walls ?? 2;
  // A player is 1.8 blocks tall (minecraft.wiki/w/Player, vanilla EntityType.PLAYER: 0.6 × 1.8), so
  // a doorway one block high under the roof would shut the builders in.
  if (walls < 2 || walls > 3) throw new RangeError(`--levels (wall height) must be 2–3, got ${walls}`);
  const rng = seededRandom(options.seed);
  const blocks = buildingBlocks(data);
  const planks = blocks.filter((b) => b.endsWith('_planks'));
  const stones = blocks.filter((b) => /^(cobblestone|stone|stone_bricks|smooth_stone)$/.test(b));
  const tasks: Record<string, Task> = {};
  for (let n = 0; n < count; n++) {
    const w = rng.int(3, size);
    const d = rng.int(3, size);
    const stone = rng.pick(stones);
    const wood = rng.pick(planks);
    const x = rng.int(-40, 40);
    const z = rng.int(-40, 40);
    const door = rng.int(1, w - 2);
    const layer = (fill: (r: number, c: number) => string) =>
      Array.from({ length: d }, (_, r) => Array.from({ length: w }, (_, c) => fill(r, c)));
    const levels = [{ level: 0, coordinates: [x, -60, z] as [number, number, number], placement: layer(() => stone) }];
    for (let l = 1; l <= walls; l++)
      levels.push({
        level: l,
        coordinates: [x, -60 + l, z],
        placement: layer((r, c) => {
          const edge = r === 0 || c === 0 || r === d - 1 || c === w - 1;
          return !edge || (r === 0 && c === door && l <= 2) ? 'air' : wood;
        }),
      });
    levels.push({ level: walls + 1, coordinates: [x, -60 + walls + 1, z], placement: layer(() => stone) });
    const materials: Counts = {};
    for (const l of levels) for (const row of l.placement) for (const b of row) if (b !== 'air') materials[b] = (materials[b] ?? 0) + 1;
    const dealt: Counts[] = Array.from({ length: agents }, () => ({}));
    dealt[0]![stone] = materials[stone]!;
    const woodAgents = agents > 1 ? agents - 1 : 1;
    const plankCount = materials[wood] ?? 0;
    for (let i = 0; i < woodAgents; i++) {
      const share = Math.floor(plankCount / woodAgents) + (i < plankCount % woodAgents ? 1 : 0);
      const who = agents > 1 ? i + 1 : 0;
      if (share) dealt[who]![wood] = (dealt[who]![wood] ?? 0) + share;
    }
    tasks[`sagents_shelter_${w}x${d}x${walls + 2}_${options.seed}_${n}_num_agents_${agents}`] = {
      type: 'construction',
      goal: 'Build a shelter with the blueprint below: a stone foundation, wooden walls and a stone roof',
      conversation: "Let's build the shelter together with the blueprint",
      agent_count: agents,
      timeout: options.timeout ?? 900,
      blueprint: { materials, levels },
      initial_inventory: inventories(dealt),
      blocked_actions: {},
    };
  }
  return tasks;
}

/** Options of {@link generateCollectionTasks}. */
export interface CollectionOptions {
  /** Agents per task (1–{@link MAX_GENERATED_AGENTS}). */
  agents: number;
  /** What to collect: `[item, count]` entries, one task per entry (an item may come with several counts). */
  targets: readonly (readonly [item: string, count: number])[];
  /** Time limit of each task (s; default 900). */
  timeout?: number;
}

/**
 * Collection tasks (`type: "collection"`, after S-Agents' "collective collection": the group
 * gathers a specified amount of a basic resource, §IV): one task per target entry, the agents
 * starting with empty hands; done when the team's inventories together hold the count. Ids
 * `collection_<item>_<count>__num_agents_<n>`.
 *
 * @throws RangeError for an agent count outside 1–8, no targets, a count below 1, or an item
 *   `data`'s version does not have.
 * @example generateCollectionTasks(data, { agents: 2, targets: [['oak_log', 50], ['oak_log', 100]] })
 */
export function generateCollectionTasks(data: GameData, options: CollectionOptions): Record<string, Task> {
  const { agents } = options;
  if (agents < 1 || agents > MAX_GENERATED_AGENTS) throw new RangeError(`--agents must be 1–${MAX_GENERATED_AGENTS}, got ${agents}`);
  const entries = options.targets;
  if (!entries.length) throw new RangeError('collection needs --targets item:count,... (e.g. oak_log:50)');
  const tasks: Record<string, Task> = {};
  for (const [item, count] of entries) {
    if (!data.itemsByName[item]) throw new RangeError(`"${item}" is not an item in Minecraft ${data.version.minecraftVersion}`);
    if (!Number.isInteger(count) || count < 1)
      throw new RangeError(`the count of ${item} must be a whole number of at least 1, got ${count}`);
    const words = `${count} ${item.replaceAll('_', ' ')}`;
    tasks[`collection_${item}_${count}__num_agents_${agents}`] = {
      type: 'collection',
      goal: agents > 1 ? `Collect ${words} as a team: your inventories together must hold them.` : `Collect ${words}.`,
      ...(agents > 1 ? { conversation: `Let's collect ${words} together.` } : {}),
      agent_count: agents,
      target: item,
      number_of_target: count,
      timeout: options.timeout ?? 900,
      initial_inventory: Object.fromEntries(Array.from({ length: agents }, (_, i) => [String(i), {}])),
      blocked_actions: {},
    };
  }
  return tasks;
}
