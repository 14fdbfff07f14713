/** Combat actions (mineflayer-pvp). */
import { defineCommand } from '../context.ts';
import { attackNearest, attackPlayer } from '../../skills/combat.ts';

export const attackCommand = defineCommand({
  name: '!attack',
  kind: 'action',
  description: 'Kill the nearest mob of a type.',
  params: {
    type: { type: 'string', description: 'mob type', example: 'zombie' },
  },
  async perform({ bot, signal }, { type }) {
    return attackNearest(bot, type, signal);
  },
});

export const attackPlayerCommand = defineCommand({
  name: '!attackPlayer',
  kind: 'action',
  description: 'Attack a player.',
  params: {
    player_name: { type: 'string', description: 'player', example: 'Steve' },
  },
  async perform({ bot, signal }, { player_name }) {
    return attackPlayer(bot, player_name, signal);
  },
});

export const combatCommands = [attackCommand, attackPlayerCommand];
