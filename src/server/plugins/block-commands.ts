/**
 * Block and block-entity commands: `/fill` and `/setblock` with block states (./fill.ts),
 * `/data merge|get block` and `/item replace` (./block-data.ts).
 */
import type { SquidServer } from '../embedded.ts';
import { installBlockEntityCommands } from './block-data.ts';
import { installBlockCommands } from './fill.ts';

/** Installs the block commands on a started server (they replace flying-squid's `/setblock`). */
export function blockCommandsPlugin(serv: SquidServer): void {
  installBlockCommands(serv);
  installBlockEntityCommands(serv);
}
