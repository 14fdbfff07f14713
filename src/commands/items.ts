/**
 * Item commands: what the agent carries and can craft, crafting, handing items over, eating,
 * wearing, dropping, using an item on a mob, and trading with villagers.
 */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { skillCommand } from './skill-commands.ts';
import { formatCounts } from '../game/production.ts';
import { inventoryCounts } from '../skills/items.ts';
import { nearestCraftingTable } from '../skills/crafting.ts';
import {
  consumeSkill,
  craftItemsSkill,
  craftRecipeSkill,
  discardSkill,
  equipSkill,
  getCraftingPlanSkill,
  givePlayerSkill,
  showVillagerTradesSkill,
  tradeWithVillagerSkill,
  useItemOnEntitySkill,
} from '../skills/index.ts';
import { done } from '../skills/outcome.ts';

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
    return done(`Inventory: ${items || 'empty'}\nWearing: ${worn.join(', ') || 'nothing'}`, { inventory: { ...inventoryCounts(bot) } });
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
    return done(`Craftable: ${names.join(', ') || 'nothing'}`);
  },
});

/**
 * The queries `!inventory` (`data.inventory`: item → count, armour and off-hand included),
 * `!craftable` and `!getCraftingPlan` (quantity optional, default 1; the plan the offline policy
 * follows, from what is in sight and what the task's world supplies), and the actions
 * `!craftRecipe` (num = times the recipe is crafted, as in the reference), `!craftItems` (num =
 * items wanted; blocked with `!craftRecipe`), `!givePlayer`, `!consume`, `!equip`, `!discard`
 * and `!useItemOnEntity`: all but the first two are skills' commands (see `src/skills/index.ts`).
 */
export const itemsCommands: CommandDef<CommandContext>[] = [
  inventoryCommand,
  craftableCommand,
  skillCommand(getCraftingPlanSkill, { kind: 'query' }),
  skillCommand(craftRecipeSkill, { kind: 'action' }),
  skillCommand(craftItemsSkill, { kind: 'action', variantOf: '!craftRecipe' }),
  skillCommand(givePlayerSkill, { kind: 'action' }),
  skillCommand(consumeSkill, { kind: 'action' }),
  skillCommand(equipSkill, { kind: 'action' }),
  skillCommand(discardSkill, { kind: 'action' }),
  skillCommand(useItemOnEntitySkill, { kind: 'action' }),
  skillCommand(showVillagerTradesSkill, { kind: 'action' }),
  skillCommand(tradeWithVillagerSkill, { kind: 'action' }),
];
