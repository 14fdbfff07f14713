/**
 * Mechanics the embedded server leaves out (README "Out of scope": nether travel, elytra flight,
 * fishing, enchanting, command blocks), answered the way a vanilla server
 * answers when they are disabled:
 * - their commands (`/enchant`, flying-squid's `/portal`, `/changeworld`) are unknown commands
 *   (../services/commands.ts `DISABLED_COMMANDS`); `/execute in minecraft:the_nether` is an
 *   unknown dimension (vanilla `allow-nether=false`);
 * - using a command block tells the player `advMode.notEnabled` (vanilla
 *   `enable-command-block=false`);
 * - a nether portal lights but takes no one anywhere; fishing rods, elytra and enchanting tables
 *   do nothing when used.
 */
import type { SquidServer } from '../types.ts';
import { sendSystemMessage, translatable } from '../services/text.ts';

const COMMAND_BLOCKS = ['command_block', 'chain_command_block', 'repeating_command_block'];

/** Installs the command-block answer. */
export function installOutOfScope(serv: SquidServer): void {
  for (const name of COMMAND_BLOCKS) {
    if (!serv.registry.blocksByName[name]) continue;
    serv.onBlockInteraction(name, ({ player }) => {
      sendSystemMessage(serv, player, translatable('advMode.notEnabled'));
      return true;
    });
  }
}
