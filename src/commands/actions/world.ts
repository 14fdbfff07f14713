/** Block actions at given positions: dig down, dig or place one block, activate. */
import { defineCommand } from '../context.ts';
import { activateNearest, digAt, digDown, placeBlockAt } from '../../skills/blocks.ts';


export const digDownCommand = defineCommand({
  name: '!digDown',
  kind: 'action',
  description: 'Dig straight down, safely.',
  params: {
    distance: { type: 'int', description: 'blocks', domain: [1, Infinity], example: 4 },
  },
  async perform({ bot, signal }, { distance }) {
    return digDown(bot, distance, signal);
  },
});

export const activateCommand = defineCommand({
  name: '!activate',
  kind: 'action',
  description: 'Use the nearest block of a type (lever, door).',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'lever' },
  },
  async perform({ bot, signal }, { type }) {
    return activateNearest(bot, type, signal);
  },
});

export const placeBlockAtCommand = defineCommand({
  name: '!placeBlockAt',
  kind: 'action',
  description: 'Place a block at a position.',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'cobblestone' },
    x: { type: 'int', description: '' },
    y: { type: 'int', description: '', domain: [-64, 320] },
    z: { type: 'int', description: '' },
  },
  async perform({ bot, signal }, { type, x, y, z }) {
    return placeBlockAt(bot, type, x, y, z, signal);
  },
});

export const digAtCommand = defineCommand({
  name: '!digAt',
  kind: 'action',
  description: 'Dig the block at a position.',
  params: {
    x: { type: 'int', description: '' },
    y: { type: 'int', description: '', domain: [-64, 320] },
    z: { type: 'int', description: '' },
  },
  async perform({ bot, signal }, { x, y, z }) {
    return digAt(bot, x, y, z, signal);
  },
});

export const worldCommands = [digDownCommand, activateCommand, placeBlockAtCommand, digAtCommand];
