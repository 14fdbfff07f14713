/**
 * The skills, declared once (see `./declare.ts`): each declaration's name, description and
 * parameters are both the `!command` of that name (`src/commands/`, which adds only what is
 * command-specific) and the function of that name the `!newAction` code calls (`src/sandbox/`).
 * {@link SKILLS} lists them in the order the coding prompt shows them.
 *
 * The work is done by the functions of the other files here; a declaration only says how they are
 * called. Each reports an {@link Outcome} whose codes and data its function's docs list.
 */
import { defineSkill, param, type SkillDef } from './declare.ts';
import { digAt, digDown } from './blocks.ts';
import { goToSurface, useOn } from './use-on.ts';
import { activate } from './switches.ts';
import { blueprintKeepsClear, placeBlockWithState } from './place-state.ts';
import { checkBlueprintLevel, checkWholeBlueprint } from './blueprint.ts';
import { collectBlocks } from './collect.ts';
import { attackNearest, attackPlayer } from './combat.ts';
import { putInChest, takeFromChest, viewChest } from './containers.ts';
import { craftItems, craftRecipe } from './crafting.ts';
import { formatPlan, planCrafting, type CraftingPlan } from './crafting-plan.ts';
import { sow } from './farming.ts';
import { givePlayer, inventoryCounts } from './items.ts';
import { goToPlayer, goToPosition, searchForBlock } from './movement.ts';
import { moveAway, searchForEntity } from './navigation.ts';
import { done, type Outcome, SkillError } from './outcome.ts';
import { placeHere } from './place.ts';
import { goToBed } from './sleep.ts';
import { clearFurnace, smeltItem } from './smelting.ts';
import { sourcesAround } from './surroundings.ts';
import { consume, discard, equip, useItemOnEntity } from './use-items.ts';
import { showVillagerTrades, tradeWithVillager } from './villagers.ts';

// Moving ---------------------------------------------------------------------------------------

export const goToPlayerSkill = defineSkill({
  name: 'goToPlayer',
  description: 'Walk to a player.',
  params: {
    player_name: param.string('player', { example: 'Steve' }),
    closeness: param.float('blocks away', { domain: [0, Infinity], example: 2 }),
  },
  run: ({ bot, signal }, { player_name, closeness }) => goToPlayer(bot, player_name, closeness, signal),
});

export const goToCoordinatesSkill = defineSkill({
  name: 'goToCoordinates',
  description: 'Walk to a position.',
  params: {
    x: param.float(''),
    y: param.float('', { domain: [-64, 320] }),
    z: param.float(''),
    closeness: param.float('blocks away', { domain: [0, Infinity], example: 1 }),
  },
  run: ({ bot, signal }, { x, y, z, closeness }) => goToPosition(bot, x, y, z, closeness, signal),
});

export const searchForBlockSkill = defineSkill({
  name: 'searchForBlock',
  description: 'Walk to the nearest block of a type.',
  params: {
    type: param.blockName('block', { example: 'crafting_table' }),
    search_range: param.float('blocks', { domain: [32, 512], example: 64 }),
  },
  run: ({ bot, signal }, { type, search_range }) => searchForBlock(bot, type, search_range, signal),
});

export const searchForEntitySkill = defineSkill({
  name: 'searchForEntity',
  description: 'Walk to the nearest mob of a type.',
  params: {
    type: param.string('mob type', { example: 'cow' }),
    search_range: param.float('blocks', { domain: [32, 512], example: 64 }),
  },
  run: ({ bot, signal }, { type, search_range }) => searchForEntity(bot, type, search_range, signal),
});

export const moveAwaySkill = defineSkill({
  name: 'moveAway',
  description: 'Walk this far off.',
  params: {
    distance: param.float('blocks', { domain: [0, Infinity], example: 8 }),
  },
  run: ({ bot, signal }, { distance }) => moveAway(bot, distance, signal),
});

// Blocks ---------------------------------------------------------------------------------------

export const collectBlocksSkill = defineSkill({
  name: 'collectBlocks',
  description: 'Dig blocks of a type (ripe crops) and pick up the drops.',
  params: {
    type: param.blockName('block', { example: 'oak_log' }),
    num: param.int('how many', { domain: [1, Infinity], example: 4 }),
  },
  run: ({ bot, signal }, { type, num }) => collectBlocks(bot, type, num, signal),
});

export const placeHereSkill = defineSkill({
  name: 'placeHere',
  description: 'Place a block next to you.',
  params: {
    type: param.blockName('block', { example: 'crafting_table' }),
  },
  run: ({ bot, signal }, { type }) => placeHere(bot, type, signal),
});

export const placeBlockAtSkill = defineSkill({
  name: 'placeBlockAt',
  description: 'Place a block at a position; a state such as oak_stairs[facing=west,half=bottom] orients it.',
  params: {
    type: param.string('block, or block[property=value,...]', { example: 'cobblestone' }),
    x: param.int(''),
    y: param.int('', { domain: [-64, 320] }),
    z: param.int(''),
  },
  run: ({ bot, signal, task }, { type, x, y, z }) => placeBlockWithState(bot, type, x, y, z, signal, blueprintKeepsClear(task?.blueprint)),
});

export const sowSkill = defineSkill({
  name: 'sow',
  description: 'Plant seeds on empty farmland nearby.',
  params: {
    item_name: param.itemName('seed', { example: 'wheat_seeds' }),
    num: param.int('how many', { domain: [1, Infinity], example: 1 }),
  },
  run: ({ bot, signal }, { item_name, num }) => sow(bot, item_name, num, signal),
});

export const digAtSkill = defineSkill({
  name: 'digAt',
  description: 'Dig the block at a position.',
  params: {
    x: param.int(''),
    y: param.int('', { domain: [-64, 320] }),
    z: param.int(''),
  },
  run: ({ bot, signal }, { x, y, z }) => digAt(bot, x, y, z, signal),
});

export const digDownSkill = defineSkill({
  name: 'digDown',
  description: 'Dig straight down, safely.',
  params: {
    distance: param.int('blocks', { domain: [1, Infinity], example: 4 }),
  },
  run: ({ bot, signal }, { distance }) => digDown(bot, distance, signal),
});

export const useOnSkill = defineSkill({
  name: 'useOn',
  description: 'Use an item or "hand" on the nearest block or mob of a type, or "nothing".',
  params: {
    tool_name: param.string('item or "hand"', { example: 'bucket' }),
    target: param.string('block, mob type or "nothing"', { example: 'water' }),
  },
  run: ({ bot, signal }, { tool_name, target }) => useOn(bot, tool_name, target, signal),
});

export const activateSkill = defineSkill({
  name: 'activate',
  description: 'Use the nearest block of a type, or the one at x, y, z: a lever, button or pressure plate.',
  params: {
    type: param.blockName('block', { example: 'lever' }),
    x: param.optional(param.int('block x (with y and z: that block, not the nearest)')),
    y: param.optional(param.int('block y', { domain: [-64, 320] })),
    z: param.optional(param.int('block z')),
  },
  run: ({ bot, signal }, { type, x, y, z }) => {
    if (x === undefined && y === undefined && z === undefined) return activate(bot, type, signal);
    if (x === undefined || y === undefined || z === undefined)
      throw new SkillError('invalid', `!activate takes a position as all of x, y and z, e.g. !activate("${type}", 3, -60, 7).`);
    return activate(bot, type, signal, { x, y, z });
  },
});

export const goToSurfaceSkill = defineSkill({
  name: 'goToSurface',
  description: 'Climb to the surface above you.',
  params: {},
  run: ({ bot, signal }) => goToSurface(bot, signal),
});

export const showVillagerTradesSkill = defineSkill({
  name: 'showVillagerTrades',
  description: 'Walk to a villager and list its trades, numbered from 1.',
  params: {
    id: param.int('the id of the villager (!entities; -1: the nearest that trades)', { domain: [-1, Infinity], example: 12 }),
  },
  run: ({ bot, signal }, { id }) => showVillagerTrades(bot, id, signal),
});

export const tradeWithVillagerSkill = defineSkill({
  name: 'tradeWithVillager',
  description: 'Walk to a villager and do one of its trades, count times (fewer if it runs out).',
  params: {
    id: param.int('the id of the villager (!entities; -1: the nearest that trades)', { domain: [-1, Infinity], example: 12 }),
    index: param.int('the trade, numbered from 1 as !showVillagerTrades lists them', { domain: [1, Infinity], example: 1 }),
    count: param.int('how many times to do it', { domain: [1, Infinity], example: 1 }),
  },
  run: ({ bot, signal }, { id, index, count }) => tradeWithVillager(bot, id, index, count, signal),
});

export const goToBedSkill = defineSkill({
  name: 'goToBed',
  description: 'Sleep in the nearest bed.',
  params: {},
  run: ({ bot, signal }) => goToBed(bot, signal),
});

// Items ----------------------------------------------------------------------------------------

export const craftRecipeSkill = defineSkill({
  name: 'craftRecipe',
  description: 'Craft a recipe num times (places a table if needed).',
  params: {
    recipe_name: param.itemName('item', { example: 'stick' }),
    num: param.int('times to craft (not items: 1 craft of oak_planks makes 4)', { domain: [1, Infinity], example: 1 }),
  },
  run: ({ bot, signal }, { recipe_name, num }) => craftRecipe(bot, recipe_name, num, signal),
});

export const craftItemsSkill = defineSkill({
  name: 'craftItems',
  description: 'Craft at least num items (places a table if needed).',
  params: {
    item_name: param.itemName('item', { example: 'stick' }),
    num: param.int('items wanted', { domain: [1, Infinity], example: 4 }),
  },
  run: ({ bot, signal }, { item_name, num }) => craftItems(bot, item_name, num, signal),
});

export const givePlayerSkill = defineSkill({
  name: 'givePlayer',
  description: 'Hand items to a player.',
  params: {
    player_name: param.string('player', { example: 'Steve' }),
    item_name: param.itemName('item', { example: 'oak_planks' }),
    num: param.int('how many', { domain: [1, Infinity], example: 1 }),
  },
  run: ({ bot, signal }, { player_name, item_name, num }) => givePlayer(bot, player_name, item_name, num, signal),
});

export const consumeSkill = defineSkill({
  name: 'consume',
  description: 'Eat or drink an item.',
  params: {
    item_name: param.itemName('food', { example: 'bread' }),
  },
  run: ({ bot, signal }, { item_name }) => consume(bot, item_name, signal),
});

export const equipSkill = defineSkill({
  name: 'equip',
  description: 'Hold an item or wear armour.',
  params: {
    item_name: param.itemName('item', { example: 'iron_helmet' }),
  },
  run: ({ bot, signal }, { item_name }) => equip(bot, item_name, signal),
});

export const discardSkill = defineSkill({
  name: 'discard',
  description: 'Drop items on the ground.',
  params: {
    item_name: param.itemName('item', { example: 'dirt' }),
    num: param.int('how many', { domain: [1, Infinity], example: 4 }),
  },
  run: ({ bot, signal }, { item_name, num }) => discard(bot, item_name, num, signal),
});

export const useItemOnEntitySkill = defineSkill({
  name: 'useItemOnEntity',
  description: 'Use an item or "hand" on the nearest mob of a type.',
  params: {
    item_name: param.string('item or "hand"', { example: 'bucket' }),
    entity_type: param.string('mob type', { example: 'cow' }),
  },
  run: ({ bot, signal }, { item_name, entity_type }) =>
    useItemOnEntity(
      bot,
      item_name
        .trim()
        .toLowerCase()
        .replace(/^minecraft:/, '')
        .replace(/\s+/g, '_'),
      entity_type,
      signal,
    ),
});

// Chests and furnaces --------------------------------------------------------------------------

export const putInChestSkill = defineSkill({
  name: 'putInChest',
  description: 'Put items in the nearest chest.',
  params: {
    item_name: param.itemName('item', { example: 'oak_log' }),
    num: param.int('how many', { domain: [1, Infinity], example: 8 }),
  },
  run: ({ bot, signal }, { item_name, num }) => putInChest(bot, item_name, num, signal),
});

export const takeFromChestSkill = defineSkill({
  name: 'takeFromChest',
  description: 'Take items from the nearest chest.',
  params: {
    item_name: param.itemName('item', { example: 'oak_log' }),
    num: param.int('how many', { domain: [1, Infinity], example: 8 }),
  },
  run: ({ bot, signal }, { item_name, num }) => takeFromChest(bot, item_name, num, signal),
});

export const viewChestSkill = defineSkill({
  name: 'viewChest',
  description: 'What the nearest chest holds.',
  params: {},
  run: ({ bot, signal }) => viewChest(bot, signal),
});

export const smeltItemSkill = defineSkill({
  name: 'smeltItem',
  description: 'Smelt or cook items in a furnace.',
  params: {
    item_name: param.itemName('item to smelt', { example: 'raw_iron' }),
    num: param.int('times to smelt (= items smelted)', { domain: [1, Infinity], example: 4 }),
  },
  run: ({ bot, signal }, { item_name, num }) => smeltItem(bot, item_name, num, signal),
});

export const clearFurnaceSkill = defineSkill({
  name: 'clearFurnace',
  description: 'Empty the nearest furnace.',
  params: {},
  run: ({ bot, signal }) => clearFurnace(bot, signal),
});

// Fighting -------------------------------------------------------------------------------------

export const attackSkill = defineSkill({
  name: 'attack',
  description: 'Kill the nearest mob of a type.',
  params: {
    type: param.string('mob type', { example: 'zombie' }),
  },
  run: ({ bot, signal }, { type }) => attackNearest(bot, type, signal),
});

export const attackPlayerSkill = defineSkill({
  name: 'attackPlayer',
  description: 'Attack a player.',
  params: {
    player_name: param.string('player', { example: 'Steve' }),
  },
  run: ({ bot, signal }, { player_name }) => attackPlayer(bot, player_name, signal),
});

// Plans and checks (queries) -------------------------------------------------------------------

/** A plan's outcome: `ok`, with `data.missing` when something is neither held nor obtainable. */
function planOutcome(plan: CraftingPlan, text: string): Outcome {
  return Object.keys(plan.missing).length > 0 ? done(text, { missing: plan.missing }) : done(text);
}

export const getCraftingPlanSkill = defineSkill({
  name: 'getCraftingPlan',
  description: 'Missing items and steps to make an item.',
  params: {
    targetItem: param.itemName('item to craft', { example: 'wooden_pickaxe' }),
    quantity: param.optional(param.int('how many items', { domain: [1, Infinity] }), 1),
  },
  async run({ bot, task, writeCall }, { targetItem, quantity }) {
    const data = bot.registry;
    // The sources the oracle plans with (what is in sight, what the task's world supplies), so a
    // model is told the oracle's plan.
    const sources = sourcesAround(bot, data, task?.supplies);
    const inventory = inventoryCounts(bot);
    // A task with restrict_to_inventory: plan from what is held (no gathering), the target's
    // missing ingredients to ask the others for.
    if (task?.restrictToInventory) {
      const plan = planCrafting(data, inventory, targetItem, quantity, { sources: { ...sources, gather: undefined }, expand: 'targets' });
      return planOutcome(
        plan,
        `${formatPlan(plan, writeCall)}\nYou are restricted to your inventory: get missing items from the other agents, do not gather them.`,
      );
    }
    // Otherwise down to the raw materials, as the reference's plan goes.
    const plan = planCrafting(data, inventory, targetItem, quantity, { sources, expand: 'raw' });
    return planOutcome(plan, formatPlan(plan, writeCall));
  },
});

export const checkBlueprintLevelSkill = defineSkill({
  name: 'checkBlueprintLevel',
  description: 'What to place, remove or replace on a level.',
  params: {
    levelNum: param.int('level number', { domain: [0, Infinity], example: 0 }),
  },
  run: async ({ bot, task }, { levelNum }) => checkBlueprintLevel(bot, task?.blueprint, levelNum),
});

export const checkBlueprintSkill = defineSkill({
  name: 'checkBlueprint',
  description: 'What is left to build, and the score.',
  params: {},
  run: async ({ bot, task }) => checkWholeBlueprint(bot, task?.blueprint),
});

/** Every declared skill, in the order the coding prompt lists them. */
export const SKILLS: readonly SkillDef[] = [
  goToCoordinatesSkill,
  goToPlayerSkill,
  searchForBlockSkill,
  searchForEntitySkill,
  moveAwaySkill,
  collectBlocksSkill,
  placeBlockAtSkill,
  placeHereSkill,
  sowSkill,
  digAtSkill,
  digDownSkill,
  goToSurfaceSkill,
  useOnSkill,
  activateSkill,
  goToBedSkill,
  craftRecipeSkill,
  craftItemsSkill,
  getCraftingPlanSkill,
  givePlayerSkill,
  equipSkill,
  consumeSkill,
  discardSkill,
  useItemOnEntitySkill,
  showVillagerTradesSkill,
  tradeWithVillagerSkill,
  putInChestSkill,
  takeFromChestSkill,
  viewChestSkill,
  smeltItemSkill,
  clearFurnaceSkill,
  attackSkill,
  attackPlayerSkill,
  checkBlueprintLevelSkill,
  checkBlueprintSkill,
];
