/**
 * What the cooking world supplies (see `./worlds.ts`, {@link cookingLayout}) and the cooking
 * dishes a task may ask for. Shared by the task generator and the offline policy.
 *
 * Drops follow vanilla loot tables (minecraft wiki, "Cow", "Pig", ... and the crops' pages): a
 * harvested full-grown crop gives at least one of its item, a killed animal at least one raw meat
 * (a rabbit: 0–1 rabbit, so a hunt may need repeating).
 */
import type { WorldSupply } from '../game/production.ts';

/** How one item is had from the cooking world (see {@link WorldSupply}). */
export type CookingSupply = WorldSupply;

/**
 * Items the cooking world gives, by item name: benchmark data, passed as data to whoever plans in
 * that world (the task runner gives it to the agents as their task's `supplies`; the offline
 * policy plans with it).
 */
export const COOKING_SUPPLIES: Readonly<Record<string, CookingSupply>> = {
  wheat: { kind: 'block', block: 'wheat', where: 'the farm' },
  wheat_seeds: { kind: 'block', block: 'wheat', where: 'the farm' },
  carrot: { kind: 'block', block: 'carrots', where: 'the farm' },
  potato: { kind: 'block', block: 'potatoes', where: 'the farm' },
  beetroot: { kind: 'block', block: 'beetroots', where: 'the farm' },
  beetroot_seeds: { kind: 'block', block: 'beetroots', where: 'the farm' },
  sugar_cane: { kind: 'block', block: 'sugar_cane', where: 'the sugar cane by the water' },
  red_mushroom: { kind: 'block', block: 'red_mushroom', where: 'the mushrooms' },
  brown_mushroom: { kind: 'block', block: 'brown_mushroom', where: 'the mushrooms' },
  beef: { kind: 'hunt', mob: 'cow', where: 'a cow' },
  leather: { kind: 'hunt', mob: 'cow', where: 'a cow' },
  porkchop: { kind: 'hunt', mob: 'pig', where: 'a pig' },
  chicken: { kind: 'hunt', mob: 'chicken', where: 'a chicken' },
  feather: { kind: 'hunt', mob: 'chicken', where: 'a chicken' },
  mutton: { kind: 'hunt', mob: 'sheep', where: 'a sheep' },
  rabbit: { kind: 'hunt', mob: 'rabbit', where: 'a rabbit' },
  rabbit_hide: { kind: 'hunt', mob: 'rabbit', where: 'a rabbit' },
  milk_bucket: { kind: 'use', tool: 'bucket', mob: 'cow', where: 'a cow' },
};

/**
 * Dishes of MineCollab's cooking tasks (MINDcraft `cooking_tasks`): each can be made in the cooking
 * world from its supplies plus, for some, items the task hands out (`COOKING_PANTRY`).
 */
export const COOKING_DISHES = [
  'bread',
  'baked_potato',
  'cooked_beef',
  'cooked_porkchop',
  'cooked_chicken',
  'cooked_mutton',
  'cooked_rabbit',
  'golden_apple',
  'golden_carrot',
  'cake',
  'cookie',
  'pumpkin_pie',
  'mushroom_stew',
  'beetroot_soup',
  'rabbit_stew',
] as const;

/** Items cooking tasks hand out because the world does not give them. */
export const COOKING_PANTRY = [
  'gold_ingot',
  'gold_nugget',
  'apple',
  'milk_bucket',
  'egg',
  'bowl',
  'cocoa_beans',
  'pumpkin',
  'coal',
] as const;
