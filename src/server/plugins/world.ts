/**
 * Our world-side fixes and commands for flying-squid 1.12, installed on every embedded server:
 * - `/msg` `/tell` `/w` whispers ({@link installWhisperCommands});
 * - vanilla `/tp`, the 1.21.2+ `entity_teleport` shape, chunks after teleports ({@link installTeleport});
 * - `/give` with numeric counts and `/clear` ({@link installItemCommands});
 * - the `player` entity type, respawn after death, food saturation ({@link installPlayerFixes}).
 */
import type { SquidServer } from '../embedded.ts';
import { installItemCommands } from './item-commands.ts';
import { installPlayerFixes } from './players.ts';
import { installTeleport } from './teleport.ts';
import { installWhisperCommands } from './whisper.ts';

/**
 * Installs chat, command, entity and teleport fixes on a started flying-squid server. Must run
 * before any player joins (it hooks `newPlayer` / `newEntity`); re-registered commands replace
 * flying-squid's built-ins of the same name.
 */
export function worldPlugin(serv: SquidServer): void {
  installPlayerFixes(serv);
  installTeleport(serv);
  installWhisperCommands(serv);
  installItemCommands(serv);
}
