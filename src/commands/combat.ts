/** Combat commands (mineflayer-pvp): attacking a mob or a player. */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { attackNearest, attackPlayer } from '../skills/combat.ts';

const attackCommand = defineCommand({
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

const attackPlayerCommand = defineCommand({
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

/** `!attack` and `!attackPlayer`. */
export const combatCommands: CommandDef<CommandContext>[] = [attackCommand, attackPlayerCommand];
