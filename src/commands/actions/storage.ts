/** Chest, furnace and bed actions. */
import { defineCommand } from '../context.ts';
import { putInChest, takeFromChest, viewChest } from '../../skills/containers.ts';
import { clearFurnace, smeltItem } from '../../skills/smelting.ts';
import { goToBed } from '../../skills/sleep.ts';

export const putInChestCommand = defineCommand({
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

export const takeFromChestCommand = defineCommand({
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

export const viewChestCommand = defineCommand({
  name: '!viewChest',
  kind: 'action',
  description: 'What the nearest chest holds.',
  params: {},
  async perform({ bot, signal }) {
    return viewChest(bot, signal);
  },
});

export const smeltItemCommand = defineCommand({
  name: '!smeltItem',
  kind: 'action',
  description: 'Smelt or cook items in a furnace, adding fuel.',
  params: {
    item_name: { type: 'ItemName', description: 'item to smelt', example: 'raw_iron' },
    num: { type: 'int', description: 'how many', domain: [1, 1000], example: 4 },
  },
  async perform({ bot, signal }, { item_name, num }) {
    return smeltItem(bot, item_name, num, signal);
  },
});

export const clearFurnaceCommand = defineCommand({
  name: '!clearFurnace',
  kind: 'action',
  description: 'Empty the nearest furnace.',
  params: {},
  async perform({ bot, signal }) {
    return clearFurnace(bot, signal);
  },
});

export const goToBedCommand = defineCommand({
  name: '!goToBed',
  kind: 'action',
  description: 'Sleep in the nearest bed until morning.',
  params: {},
  async perform({ bot, signal }) {
    return goToBed(bot, signal);
  },
});

export const storageCommands = [putInChestCommand, takeFromChestCommand, viewChestCommand, smeltItemCommand, clearFurnaceCommand, goToBedCommand];
