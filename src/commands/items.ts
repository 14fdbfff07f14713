/**
 * Item commands: what the agent carries and can craft, crafting, handing items over, eating,
 * wearing, dropping, and using an item on a mob.
 */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { formatCounts } from '../game/production.ts';
import { sourcesAround } from '../skills/surroundings.ts';
import { formatPlan, planCrafting } from '../skills/crafting-plan.ts';
import { givePlayer, inventoryCounts } from '../skills/items.ts';
import { craftItems, craftRecipe, nearestCraftingTable } from '../skills/crafting.ts';
import { consume, discard, equip, useItemOnEntity } from '../skills/use-items.ts';

const inventoryCommand = defineCommand({
  name: '!inventory',
  kind: 'query',
  description: 'What you carry and wear.',
  params: {},
  async perform({ bot }) {
    const items = formatCounts(
      Object.fromEntries(bot.inventory.items().reduce((m, i) => m.set(i.name, (m.get(i.name) ?? 0) + i.count), new Map<string, number>())),
    );
    const worn = [5, 6, 7, 8].map((s) => bot.inventory.slots[s]?.name).filter(Boolean);
    return `Inventory: ${items || 'empty'}\nWearing: ${worn.join(', ') || 'nothing'}`;
  },
});

const craftableCommand = defineCommand({
  name: '!craftable',
  kind: 'query',
  description: 'Items you can craft now.',
  params: {},
  async perform({ bot }) {
    const table = nearestCraftingTable(bot) ?? (inventoryCounts(bot).crafting_table ? true : null);
    const names: string[] = [];
    for (const item of bot.registry.itemsArray) {
      if (bot.recipesFor(item.id, null, 1, table).length > 0) names.push(item.name);
    }
    return `Craftable: ${names.join(', ') || 'nothing'}`;
  },
});

const getCraftingPlanCommand = defineCommand({
  name: '!getCraftingPlan',
  kind: 'query',
  description: 'Missing items and steps to make an item.',
  params: {
    targetItem: { type: 'ItemName', description: 'item to craft', example: 'wooden_pickaxe' },
    quantity: { type: 'int', description: 'how many items', domain: [1, Infinity], optional: true, default: 1 },
  },
  async perform({ bot, data, agent }, { targetItem, quantity }) {
    // The sources the oracle plans with (what is in sight), so a model is told the oracle's plan.
    const sources = sourcesAround(bot, data);
    const inventory = inventoryCounts(bot);
    // A task with restrict_to_inventory: plan from what is held (no gathering), the target's
    // missing ingredients to ask the others for.
    if (agent.task?.restrictToInventory) {
      const plan = formatPlan(
        planCrafting(data, inventory, targetItem, quantity, { sources: { ...sources, gather: undefined }, expand: 'targets' }),
      );
      return `${plan}\nYou are restricted to your inventory: get missing items from the other agents, do not gather them.`;
    }
    // Otherwise down to the raw materials, as the reference's plan goes.
    return formatPlan(planCrafting(data, inventory, targetItem, quantity, { sources, expand: 'raw' }));
  },
});

const craftRecipeCommand = defineCommand({
  name: '!craftRecipe',
  kind: 'action',
  description: "Craft an item's recipe num times (uses or places a crafting table).",
  params: {
    recipe_name: { type: 'ItemName', description: 'item', example: 'stick' },
    num: { type: 'int', description: 'times to craft (not items: 1 craft of oak_planks makes 4)', domain: [1, Infinity], example: 1 },
  },
  async perform({ bot, signal }, { recipe_name, num }) {
    return craftRecipe(bot, recipe_name, num, signal);
  },
});

const craftItemsCommand = defineCommand({
  name: '!craftItems',
  kind: 'action',
  variantOf: '!craftRecipe',
  description: 'Craft at least num items in whole crafts (uses or places a crafting table).',
  params: {
    item_name: { type: 'ItemName', description: 'item', example: 'stick' },
    num: { type: 'int', description: 'items wanted', domain: [1, Infinity], example: 4 },
  },
  async perform({ bot, signal }, { item_name, num }) {
    return craftItems(bot, item_name, num, signal);
  },
});

const givePlayerCommand = defineCommand({
  name: '!givePlayer',
  kind: 'action',
  description: 'Hand items to a player.',
  params: {
    player_name: { type: 'string', description: 'player', example: 'Steve' },
    item_name: { type: 'ItemName', description: 'item', example: 'oak_planks' },
    num: { type: 'int', description: 'how many', domain: [1, Infinity], example: 1 },
  },
  async perform({ bot, signal }, { player_name, item_name, num }) {
    return givePlayer(bot, player_name, item_name, num, signal);
  },
});

const consumeCommand = defineCommand({
  name: '!consume',
  kind: 'action',
  description: 'Eat or drink an item.',
  params: {
    item_name: { type: 'ItemName', description: 'food', example: 'bread' },
  },
  async perform({ bot, signal }, { item_name }) {
    return consume(bot, item_name, signal);
  },
});

const equipCommand = defineCommand({
  name: '!equip',
  kind: 'action',
  description: 'Hold an item or wear armour.',
  params: {
    item_name: { type: 'ItemName', description: 'item', example: 'iron_helmet' },
  },
  async perform({ bot, signal }, { item_name }) {
    return equip(bot, item_name, signal);
  },
});

const discardCommand = defineCommand({
  name: '!discard',
  kind: 'action',
  description: 'Drop items on the ground.',
  params: {
    item_name: { type: 'ItemName', description: 'item', example: 'dirt' },
    num: { type: 'int', description: 'how many', domain: [1, Infinity], example: 4 },
  },
  async perform({ bot, signal }, { item_name, num }) {
    return discard(bot, item_name, num, signal);
  },
});

const useItemOnEntityCommand = defineCommand({
  name: '!useItemOnEntity',
  kind: 'action',
  description: 'Use an item ("hand": none) on the nearest mob of a type.',
  params: {
    item_name: { type: 'string', description: 'item or "hand"', example: 'bucket' },
    entity_type: { type: 'string', description: 'mob type', example: 'cow' },
  },
  async perform({ bot, signal }, { item_name, entity_type }) {
    return useItemOnEntity(
      bot,
      item_name
        .trim()
        .toLowerCase()
        .replace(/^minecraft:/, '')
        .replace(/\s+/g, '_'),
      entity_type,
      signal,
    );
  },
});

/**
 * The queries `!inventory`, `!craftable` and `!getCraftingPlan` (quantity optional, default 1),
 * and the actions `!craftRecipe` (num = times the recipe is crafted, as in the reference),
 * `!craftItems` (num = items wanted; blocked with `!craftRecipe`), `!givePlayer`, `!consume`,
 * `!equip`, `!discard` and `!useItemOnEntity`.
 */
export const itemsCommands: CommandDef<CommandContext>[] = [
  inventoryCommand,
  craftableCommand,
  getCraftingPlanCommand,
  craftRecipeCommand,
  craftItemsCommand,
  givePlayerCommand,
  consumeCommand,
  equipCommand,
  discardCommand,
  useItemOnEntityCommand,
];
