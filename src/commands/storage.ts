/** Storage commands: chests (put, take, look inside) and furnaces (smelt, empty). */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { putInChest, takeFromChest, viewChest } from '../skills/containers.ts';
import { clearFurnace, smeltItem } from '../skills/smelting.ts';

const putInChestCommand = defineCommand({
  name: '!putInChest',
  kind: 'action',
  description: 'Put items in the nearest chest.',
  params: {
    item_name: { type: 'ItemName', description: 'item', example: 'oak_log' },
    num: { type: 'int', description: 'how many', domain: [1, Infinity], example: 8 },
  },
  async perform({ bot, signal }, { item_name, num }) {
    return putInChest(bot, item_name, num, signal);
  },
});

const takeFromChestCommand = defineCommand({
  name: '!takeFromChest',
  kind: 'action',
  description: 'Take items from the nearest chest.',
  params: {
    item_name: { type: 'ItemName', description: 'item', example: 'oak_log' },
    num: { type: 'int', description: 'how many', domain: [1, Infinity], example: 8 },
  },
  async perform({ bot, signal }, { item_name, num }) {
    return takeFromChest(bot, item_name, num, signal);
  },
});

const viewChestCommand = defineCommand({
  name: '!viewChest',
  kind: 'action',
  description: 'What the nearest chest holds.',
  params: {},
  async perform({ bot, signal }) {
    return viewChest(bot, signal);
  },
});

const smeltItemCommand = defineCommand({
  name: '!smeltItem',
  kind: 'action',
  description: 'Smelt or cook items in a furnace, with fuel.',
  params: {
    item_name: { type: 'ItemName', description: 'item to smelt', example: 'raw_iron' },
    num: { type: 'int', description: 'times to smelt (= items smelted)', domain: [1, Infinity], example: 4 },
  },
  async perform({ bot, signal }, { item_name, num }) {
    return smeltItem(bot, item_name, num, signal);
  },
});

const clearFurnaceCommand = defineCommand({
  name: '!clearFurnace',
  kind: 'action',
  description: 'Empty the nearest furnace.',
  params: {},
  async perform({ bot, signal }) {
    return clearFurnace(bot, signal);
  },
});

/**
 * `!putInChest`, `!takeFromChest`, `!viewChest` (an action: it walks to the chest and opens it),
 * `!smeltItem` and `!clearFurnace`.
 */
export const storageCommands: CommandDef<CommandContext>[] = [
  putInChestCommand,
  takeFromChestCommand,
  viewChestCommand,
  smeltItemCommand,
  clearFurnaceCommand,
];
