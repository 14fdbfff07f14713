/**
 * Generators of VillagerBench task files in its formats (`./construction.ts`, `./cooking.ts`,
 * `./escape.ts`), from minecraft-data and our own structure rules. The same options and seed give
 * the same file.
 *
 * - Construction: small houses: a floor, log pillars (axis y) at the corners, walls with a
 *   doorway to the south and glass windows, a log lintel (axis x) over the doorway, a roof of
 *   stairs facing in from the west and east edges with a ridge of planks. Woods are the ones
 *   minecraft-data has planks, logs and stairs for.
 * - Cooking: a dish whose crafting recipe (minecraft-data) takes only ingredients our rules give
 *   a source for; each ingredient is had from a chest, a farm or a pasture (`./structures.ts`),
 *   possibly as an item to craft or smelt first; checkpoints for the dish, each ingredient and each
 *   source item that is not the ingredient.
 * - Escape: atoms of five kinds (levers, pressure plates under a wait interval, a button and a
 *   plate, either of two levers, a block to put in place), and runs `escape_<rooms>_<seed>`.
 */
import type { GameData } from '../../game/data.ts';
import { recipeIngredients, recipeResultCount } from '../../game/data.ts';
import type { VillagerBlueprint } from './construction.ts';
import type { FarmTask } from './cooking.ts';
import type { Atom } from './escape.ts';
import { seededRandom } from '../random.ts';

/** Options of the generators. */
export interface VillagerGenerateOptions {
  /** Tasks (construction, cooking) or runs (escape) to make. */
  count: number;
  seed: number;
  /** The team size written into the tasks (`--agents`; a run's `--agents` overrides it). */
  agents?: number;
}

/** @throws RangeError for a count or team size out of range. */
function checkOptions(o: VillagerGenerateOptions): void {
  if (!Number.isInteger(o.count) || o.count < 1 || o.count > 1000) throw new RangeError(`--count must be 1–1000, got ${o.count}`);
  if (o.agents !== undefined && (!Number.isInteger(o.agents) || o.agents < 1 || o.agents > 8))
    throw new RangeError(`--agents must be 1–8, got ${o.agents}`);
}

/** Woods with planks, a log and stairs in `data` (the blocks a house is made of). */
function woods(data: GameData): string[] {
  return Object.keys(data.blocksByName)
    .filter((n) => n.endsWith('_planks'))
    .map((n) => n.slice(0, -'_planks'.length))
    .filter((w) => data.blocksByName[`${w}_log`] && data.blocksByName[`${w}_stairs`])
    .sort();
}

/**
 * Construction blueprints (see the module comment): width and depth 3–6, walls 2–3 high.
 *
 * @throws RangeError for bad options.
 */
export function generateVillagerConstruction(data: GameData, options: VillagerGenerateOptions): VillagerBlueprint[] {
  checkOptions(options);
  const rand = seededRandom(options.seed);
  const kinds = woods(data);
  return Array.from({ length: options.count }, (_, i) => {
    const wood = rand.pick(kinds);
    const floor = rand.pick(['cobblestone', 'stone_bricks', `${wood}_planks`]);
    const w = rand.int(3, 6);
    const d = rand.int(3, 6);
    const h = rand.int(2, 3);
    const blocks: VillagerBlueprint['blocks'] = [];
    const put = (name: string, x: number, y: number, z: number, facing: VillagerBlueprint['blocks'][number]['facing'] = 'A') =>
      blocks.push({ name, position: [x, y, z], facing });
    for (let x = 0; x < w; x++) for (let z = 0; z < d; z++) put(floor, x, 0, z);
    const door = Math.floor(w / 2);
    for (let y = 1; y <= h; y++)
      for (let x = 0; x < w; x++)
        for (let z = 0; z < d; z++) {
          const edgeX = x === 0 || x === w - 1;
          const edgeZ = z === 0 || z === d - 1;
          if (!edgeX && !edgeZ) continue;
          if (edgeX && edgeZ) put(`${wood}_log`, x, y, z, 'y');
          else if (z === d - 1 && x === door && y <= 2)
            continue; // the doorway, south
          else if (z === d - 1 && x === door && y === 3) put(`${wood}_log`, x, y, z, 'x');
          else if (y === 2 && !edgeZ && d > 3 && z === Math.floor(d / 2)) put('glass', x, y, z);
          else put(`${wood}_planks`, x, y, z);
        }
    // The roof: stairs along the west and east edges facing in, planks between.
    for (let x = 0; x < w; x++)
      for (let z = 0; z < d; z++) {
        if (x === 0) put(`${wood}_stairs`, x, h + 1, z, 'E');
        else if (x === w - 1) put(`${wood}_stairs`, x, h + 1, z, 'W');
        else put(`${wood}_planks`, x, h + 1, z);
      }
    return {
      name: `house_${options.seed}_${i}`,
      size: [w, h + 2, d] as [number, number, number],
      blocks,
      ...(options.agents ? { agents: options.agents } : {}),
    };
  });
}

/** How an ingredient may be had: an item from a place, and what turns it into the ingredient. */
interface SourceRule {
  item: string;
  place: 'chest' | 'farm' | 'pasture';
  /** The structure that gives it (farm, pasture). */
  structure?: string;
  /** `craft`: a crafting recipe from the item; `smelt`: a furnace (1 : 1). */
  via?: 'craft' | 'smelt';
}

/** Our rules: each ingredient's sources, the item itself in a chest first. */
const SOURCE_RULES: Readonly<Record<string, readonly SourceRule[]>> = {
  wheat: [
    { item: 'wheat', place: 'chest' },
    { item: 'hay_block', place: 'chest', via: 'craft' },
    { item: 'wheat', place: 'farm', structure: 'wheat_farm' },
  ],
  sugar: [
    { item: 'sugar', place: 'chest' },
    { item: 'sugar_cane', place: 'chest', via: 'craft' },
    { item: 'sugar_cane', place: 'farm', structure: 'sugar_cane_farm', via: 'craft' },
  ],
  egg: [{ item: 'egg', place: 'chest' }],
  milk_bucket: [{ item: 'milk_bucket', place: 'chest' }],
  pumpkin: [
    { item: 'pumpkin', place: 'chest' },
    { item: 'pumpkin', place: 'farm', structure: 'pumpkin_farm' },
  ],
  carrot: [
    { item: 'carrot', place: 'chest' },
    { item: 'carrot', place: 'farm', structure: 'carrot_farm' },
  ],
  beetroot: [
    { item: 'beetroot', place: 'chest' },
    { item: 'beetroot', place: 'farm', structure: 'beetroot_farm' },
  ],
  brown_mushroom: [
    { item: 'brown_mushroom', place: 'chest' },
    { item: 'brown_mushroom', place: 'farm', structure: 'mushroom_farm' },
  ],
  red_mushroom: [{ item: 'red_mushroom', place: 'chest' }],
  baked_potato: [
    { item: 'baked_potato', place: 'chest' },
    { item: 'potato', place: 'chest', via: 'smelt' },
    { item: 'potato', place: 'farm', structure: 'potato_farm', via: 'smelt' },
  ],
  cooked_rabbit: [
    { item: 'cooked_rabbit', place: 'chest' },
    { item: 'rabbit', place: 'chest', via: 'smelt' },
    { item: 'rabbit', place: 'pasture', structure: 'rabbit_pasture', via: 'smelt' },
  ],
  bowl: [
    { item: 'bowl', place: 'chest' },
    { item: 'oak_planks', place: 'chest', via: 'craft' },
  ],
  cocoa_beans: [{ item: 'cocoa_beans', place: 'chest' }],
};

/** Dishes tried, in order: those with a crafting recipe whose every ingredient has a rule. */
const DISHES = ['cake', 'bread', 'pumpkin_pie', 'cookie', 'rabbit_stew', 'mushroom_stew', 'beetroot_soup'] as const;

/** A dish's ingredients by name and count (the first recipe whose every ingredient has a rule), or undefined. */
function dishIngredients(data: GameData, dish: string): Record<string, number> | undefined {
  const id = data.itemsByName[dish]?.id;
  if (id === undefined) return undefined;
  for (const recipe of data.recipes[id] ?? []) {
    const out: Record<string, number> = {};
    for (const [ingredient, n] of recipeIngredients(recipe)) {
      const name = data.items[ingredient]?.name;
      // A bucket comes back from the cake: the milk is what is used up.
      if (!name || !SOURCE_RULES[name]) break;
      out[name] = n;
    }
    if (Object.keys(out).length === recipeIngredients(recipe).size) return out;
  }
  return undefined;
}

/** How many of `source` make `count` of `ingredient` by its crafting recipe (minecraft-data), at least 1. */
function sourceCount(data: GameData, ingredient: string, source: string, count: number): number {
  const id = data.itemsByName[ingredient]?.id;
  const sourceId = data.itemsByName[source]?.id;
  for (const recipe of id === undefined ? [] : (data.recipes[id] ?? [])) {
    const ingredients = recipeIngredients(recipe);
    if (ingredients.size !== 1 || sourceId === undefined || !ingredients.has(sourceId)) continue;
    return Math.ceil(count / recipeResultCount(recipe)) * ingredients.get(sourceId)!;
  }
  return count;
}

/** Where structures stand in the yard (relative to the centre), in turn. */
const STRUCTURE_SLOTS: readonly [number, number, number][] = [
  [3, 0, 4],
  [-8, 0, 4],
  [3, 0, 14],
  [-8, 0, 14],
];

/**
 * Farm tasks (see the module comment): each a dish of {@link DISHES} that `data`'s recipes allow,
 * its ingredients' sources picked by seed (at most four structures).
 *
 * @throws RangeError for bad options, or when no dish is possible in `data`'s version.
 */
export function generateVillagerCooking(data: GameData, options: VillagerGenerateOptions): FarmTask[] {
  checkOptions(options);
  const rand = seededRandom(options.seed);
  const dishes = DISHES.flatMap((d) => {
    const ingredients = dishIngredients(data, d);
    return ingredients ? [{ dish: d, ingredients }] : [];
  });
  if (dishes.length === 0)
    throw new RangeError(`no dish of ${DISHES.join(', ')} can be made from our sources in Minecraft ${data.version.minecraftVersion}`);
  return Array.from({ length: options.count }, (_, i) => {
    const { dish, ingredients } = rand.pick(dishes);
    const chest: Record<string, number> = {};
    const structures: string[] = [];
    const fields: Record<string, string> = {};
    const subs: FarmTask['check_point'] = [];
    let smelts = false;
    for (const [ingredient, count] of Object.entries(ingredients)) {
      const rules = SOURCE_RULES[ingredient]!.filter(
        (r) => !r.structure || structures.includes(r.structure) || structures.length < STRUCTURE_SLOTS.length,
      );
      const rule = rand.pick(rules);
      fields[ingredient] = `${rule.item} in ${rule.place}`;
      const n = rule.via === 'craft' ? sourceCount(data, ingredient, rule.item, count) : count;
      if (rule.place === 'chest') chest[rule.item] = (chest[rule.item] ?? 0) + n;
      if (rule.structure && !structures.includes(rule.structure)) structures.push(rule.structure);
      smelts ||= rule.via === 'smelt';
      if (rule.item !== ingredient && !subs.some((c) => c.name === rule.item))
        subs.push({ name: rule.item, count: n, score: 0, sub_check_point: [] });
    }
    if (smelts) chest.coal = (chest.coal ?? 0) + 4;
    const names = Object.keys(ingredients);
    const each = Math.floor(80 / names.length);
    const check_point: FarmTask['check_point'] = [
      { name: dish, count: 1, score: 100, sub_check_point: names },
      ...names.map((name) => {
        const rule = fields[name]!.split(' in ')[0]!;
        return { name, count: ingredients[name]!, score: each, sub_check_point: rule === name ? [] : [rule] };
      }),
      ...subs.map((c) => ({ ...c, score: Math.floor(each / 2) })),
    ];
    const component: FarmTask['component'] = [
      { name: 'crafting_table', type: 'block', position: [1, 0, 2] },
      ...(smelts
        ? [{ name: 'furnace', type: 'block' as const, position: [2, 0, 2] as [number, number, number], facing: 'north' as const }]
        : []),
      ...(Object.keys(chest).length
        ? [
            {
              name: 'chest',
              type: 'block' as const,
              position: [-1, 0, 2] as [number, number, number],
              facing: 'north' as const,
              items: Object.entries(chest).map(([name, count]) => ({ name, count })),
            },
          ]
        : []),
      ...structures.map((name, k) => ({ name, type: 'structure' as const, position: STRUCTURE_SLOTS[k]! })),
    ];
    return {
      name: `${dish}_${options.seed}_${i}`,
      target: dish,
      ...fields,
      component,
      check_point,
      ...(options.agents ? { agents: options.agents } : {}),
    };
  });
}

/** Pressure plates of `data` that report `powered` (not the weighted ones, which have a power level). */
function plates(data: GameData): string[] {
  return Object.keys(data.blocksByName)
    .filter((n) => n.endsWith('_pressure_plate') && (data.blocksByName[n]!.states ?? []).some((s) => s.name === 'powered'))
    .sort();
}

const EXIT = [
  { name: 'air', position: [0, 0, 4] as [number, number, number] },
  { name: 'air', position: [0, 1, 4] as [number, number, number] },
];

/**
 * An escape file `{ agents, atoms, runs }` (see the module comment): ten atoms and `count` runs
 * of 1–5 rooms, seeds from `seed` on.
 *
 * @throws RangeError for bad options.
 */
export function generateVillagerEscape(
  data: GameData,
  options: VillagerGenerateOptions,
): { agents?: number; atoms: Atom[]; runs: string[] } {
  checkOptions(options);
  const rand = seededRandom(options.seed);
  const plateNames = plates(data);
  const atoms: Record<string, unknown>[] = [];
  for (let k = 0; k < 2; k++) {
    const wait = rand.pick([1, 2, 4]);
    atoms.push({
      init: [{ name: 'lever', position: [0, 0, 0], face: 'floor', facing: 'north', powered: false, random: true }],
      condition: [{ name: 'lever', position: [0, 0, 0], powered: true }],
      effect: EXIT,
      wait_interval: wait,
      task_description: `Every lever must be on within ${wait} s of the others to clear the exit.`,
    });
    const [a, b] = [rand.pick(plateNames), rand.pick(plateNames)];
    atoms.push({
      init: [
        { name: a, position: [-2, 0, 0], powered: false },
        { name: b, position: [2, 0, 0], powered: false },
        { name: 'iron_door', position: [0, 0, 4], facing: 'north', hinge: 'left', open: false },
      ],
      condition: [
        { name: a, position: [-2, 0, 0], powered: true },
        { name: b, position: [2, 0, 0], powered: true },
      ],
      effect: [{ name: 'iron_door', position: [0, 0, 4], open: true }],
      wait_interval: wait,
      min_player: 2,
      task_description: `Stand on both pressure plates within ${wait} s of each other to open the iron door.`,
    });
    atoms.push({
      init: [
        { name: 'stone_button', position: [-2, 0, 1], face: 'floor', facing: 'north', powered: false },
        { name: a, position: [2, 0, 1], powered: false },
      ],
      condition: [
        { name: 'stone_button', position: [-2, 0, 1], powered: true },
        { name: a, position: [2, 0, 1], powered: true },
      ],
      effect: EXIT,
      min_player: 2,
      task_description: 'Press the button while someone stands on the pressure plate to clear the exit.',
    });
    atoms.push({
      init: [
        { name: 'lever', position: [-2, 0, 2], face: 'floor', facing: 'north', powered: false },
        { name: 'lever', position: [2, 0, 2], face: 'floor', facing: 'north', powered: false },
      ],
      condition: [
        { name: 'lever', position: [-2, 0, 2], powered: true },
        { name: 'lever', position: [2, 0, 2], powered: true },
      ],
      effect: [],
      type: 'or',
      task_description: 'Pull either lever to open the iron door.',
    });
    const block = rand.pick(['gold_block', 'iron_block', 'emerald_block', 'diamond_block'].filter((n) => data.blocksByName[n]));
    atoms.push({
      init: [],
      condition: [{ name: block, position: [1, 0, 2] }],
      effect: EXIT,
      in: { [block]: 1 },
      task_description: `Put the ${block} at the marked place to clear the exit.`,
    });
  }
  const runs = Array.from({ length: options.count }, (_, i) => `escape_${1 + (i % 5)}_${options.seed + i}`);
  return { ...(options.agents ? { agents: options.agents } : {}), atoms: atoms as unknown as Atom[], runs };
}
