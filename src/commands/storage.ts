/** Storage commands: chests (put, take, look inside) and furnaces (smelt, empty). */
import type { CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { skillCommand } from './skill-commands.ts';
import { clearFurnaceSkill, putInChestSkill, smeltItemSkill, takeFromChestSkill, viewChestSkill } from '../skills/index.ts';

/**
 * `!putInChest`, `!takeFromChest`, `!viewChest` (an action: it walks to the chest and opens it),
 * `!smeltItem` and `!clearFurnace`: skills' commands (see `src/skills/index.ts`).
 */
export const storageCommands: CommandDef<CommandContext>[] = [
  skillCommand(putInChestSkill, { kind: 'action' }),
  skillCommand(takeFromChestSkill, { kind: 'action' }),
  skillCommand(viewChestSkill, { kind: 'action' }),
  skillCommand(smeltItemSkill, { kind: 'action' }),
  skillCommand(clearFurnaceSkill, { kind: 'action' }),
];
