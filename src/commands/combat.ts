/** Combat commands (mineflayer-pvp): attacking a mob or a player. */
import type { CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { skillCommand } from './skill-commands.ts';
import { attackPlayerSkill, attackSkill } from '../skills/index.ts';

/** `!attack` and `!attackPlayer`: skills' commands (see `src/skills/index.ts`). */
export const combatCommands: CommandDef<CommandContext>[] = [
  skillCommand(attackSkill, { kind: 'action' }),
  skillCommand(attackPlayerSkill, { kind: 'action' }),
];
