/** Our flying-squid plugins, installed in this order on every embedded server. */
import type { ServerPlugin } from '../embedded.ts';
import { worldPlugin } from './world.ts';
import { inventoryPlugin } from './inventory.ts';
import { containersPlugin } from './containers.ts';
import { smeltingPlugin } from './smelting.ts';
import { blockCommandsPlugin } from './block-commands.ts';
import { mobsPlugin } from './mobs.ts';

// containersPlugin and smeltingPlugin open windows through inventoryPlugin's per-player sessions: keep them after.
export const builtinPlugins: ServerPlugin[] = [worldPlugin, inventoryPlugin, containersPlugin, smeltingPlugin, blockCommandsPlugin, mobsPlugin];
