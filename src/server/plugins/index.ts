/** Our flying-squid plugins, installed in this order on every embedded server. */
import type { ServerPlugin } from '../embedded.ts';
import { worldPlugin } from './world.ts';
import { inventoryPlugin } from './inventory.ts';
import { blockCommandsPlugin } from './block-commands.ts';
import { mobsPlugin } from './mobs.ts';

export const builtinPlugins: ServerPlugin[] = [worldPlugin, inventoryPlugin, blockCommandsPlugin, mobsPlugin];
