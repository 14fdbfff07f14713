/**
 * Cooking recipes and furnace fuels of vanilla 1.21.4 (minecraft-data has neither), read by the
 * embedded server's furnaces and by the bots' `!smeltItem`. The data is `./data/smelting.json`;
 * its sources are in `./data/README.md`.
 */
import smeltingData from './data/smelting.json' with { type: 'json' };

/** Vanilla recipe types a furnace-like block cooks. */
export type CookingType = 'smelting' | 'smoking' | 'blasting';

/** One cooking recipe, with item ids of the running version. */
export interface CookingRecipe {
  /** Result item id (one item per craft, as every vanilla cooking recipe). */
  result: number;
  /** Cooking time in ticks. */
  cookingTime: number;
  /** Experience points awarded per item (not applied yet). */
  experience: number;
}

/** A fuel: burn time in a furnace (ticks), and what stays in the slot when used up. */
export interface Fuel {
  burnTicks: number;
  /** Item id left behind (a lava bucket leaves a bucket). */
  remainder?: number;
}

/** The smelting data of one version, keyed by item id. */
export interface SmeltingTable {
  recipes: Record<CookingType, Map<number, CookingRecipe>>;
  fuels: Map<number, Fuel>;
}

interface RawTable {
  recipes: Record<CookingType, { input: string[]; result: string; experience: number; cookingTime: number }[]>;
  fuels: { burnTicks: number; items: string[]; remainder?: string }[];
}

/** The furnace-like blocks: their recipe type, window type, title and fuel burn divisor. */
export const FURNACE_KINDS: Record<string, { type: CookingType; window: string; title: string; burnDivisor: number }> = {
  furnace: { type: 'smelting', window: 'minecraft:furnace', title: 'Furnace', burnDivisor: 1 },
  smoker: { type: 'smoking', window: 'minecraft:smoker', title: 'Smoker', burnDivisor: 2 },
  blast_furnace: { type: 'blasting', window: 'minecraft:blast_furnace', title: 'Blast Furnace', burnDivisor: 2 },
};

const tables = new WeakMap<object, SmeltingTable>();

/**
 * The smelting table of a registry (built once per registry): the vanilla 1.21.4 recipes and
 * fuels of ../data/smelting.json whose items exist in this version (e.g. pale oak and resin
 * are left out on 1.21.1).
 *
 * @param registry a prismarine-registry / minecraft-data object (`serv.registry`, `bot.registry`).
 */
export function smeltingTableFor(registry: { itemsByName: Record<string, { id: number } | undefined> }): SmeltingTable {
  let table = tables.get(registry);
  if (table) return table;
  const raw = smeltingData as unknown as RawTable;
  const id = (name: string): number | undefined => registry.itemsByName[name]?.id;
  const recipes = { smelting: new Map(), smoking: new Map(), blasting: new Map() } as SmeltingTable['recipes'];
  for (const type of Object.keys(recipes) as CookingType[]) {
    for (const r of raw.recipes[type]) {
      const result = id(r.result);
      if (result === undefined) continue;
      for (const input of r.input) {
        const inputId = id(input);
        if (inputId !== undefined) recipes[type].set(inputId, { result, cookingTime: r.cookingTime, experience: r.experience });
      }
    }
  }
  const fuels = new Map<number, Fuel>();
  for (const f of raw.fuels) {
    const remainder = f.remainder === undefined ? undefined : id(f.remainder);
    for (const name of f.items) {
      const itemId = id(name);
      if (itemId !== undefined)
        fuels.set(itemId, remainder === undefined ? { burnTicks: f.burnTicks } : { burnTicks: f.burnTicks, remainder });
    }
  }
  table = { recipes, fuels };
  tables.set(registry, table);
  return table;
}

/** A fuel as {@link fuelsByPreference} lists it. */
export interface FuelChoice {
  id: number;
  name: string;
  burnTicks: number;
  stackable: boolean;
}

const preferences = new WeakMap<object, FuelChoice[]>();

/**
 * Every fuel of a registry in the order the bots burn them (`!smeltItem` and the planners alike):
 * stackable ones first (a bucket of lava or a wooden tool is kept), the longest burning first, and
 * of fuels that burn as long the older item first (the lower registry id: planks before logs before
 * a crafting table).
 */
export function fuelsByPreference(registry: {
  itemsByName: Record<string, { id: number } | undefined>;
  items: Record<number, { name: string; stackSize?: number } | undefined>;
}): readonly FuelChoice[] {
  let list = preferences.get(registry);
  if (!list) {
    list = [...smeltingTableFor(registry).fuels].flatMap(([id, f]) => {
      const item = registry.items[id];
      return item ? [{ id, name: item.name, burnTicks: f.burnTicks, stackable: (item.stackSize ?? 64) > 1 }] : [];
    });
    list.sort((a, b) => Number(b.stackable) - Number(a.stackable) || b.burnTicks - a.burnTicks || a.id - b.id);
    preferences.set(registry, list);
  }
  return list;
}
