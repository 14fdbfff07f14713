/** Our flying-squid plugins, installed in this order on every embedded server. */
import type { ServerPlugin } from '../embedded.ts';
import { worldPlugin } from './world.ts';
import { inventoryPlugin } from './inventory.ts';
import { containersPlugin } from './containers.ts';

// containersPlugin opens windows through inventoryPlugin's per-player sessions: keep it after.
export const builtinPlugins: ServerPlugin[] = [worldPlugin, inventoryPlugin, containersPlugin];
