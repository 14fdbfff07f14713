/** Item actions: eat, wear, drop, use on a mob. */
import { defineCommand } from '../context.ts';
import { consume, discard, equip, useItemOnEntity } from '../../skills/use-items.ts';

export const consumeCommand = defineCommand({
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

export const equipCommand = defineCommand({
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

export const discardCommand = defineCommand({
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

export const useItemOnEntityCommand = defineCommand({
  name: '!useItemOnEntity',
  kind: 'action',
  description: 'Use an item ("hand": none) on the nearest mob of a type.',
  params: {
    item_name: { type: 'string', description: 'item or "hand"', example: 'bucket' },
    entity_type: { type: 'string', description: 'mob type', example: 'cow' },
  },
  async perform({ bot, signal }, { item_name, entity_type }) {
    return useItemOnEntity(bot, item_name.trim().toLowerCase().replace(/^minecraft:/, '').replace(/\s+/g, '_'), entity_type, signal);
  },
});

export const itemCommands = [consumeCommand, equipCommand, discardCommand, useItemOnEntityCommand];
