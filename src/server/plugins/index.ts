/** Our flying-squid plugins, installed in this order on every embedded server. */
import type { ServerPlugin } from '../embedded.ts';
import { worldPlugin } from './world.ts';
import { inventoryPlugin } from './inventory.ts';
import { mechanicsPlugin } from './mechanics.ts';

/** The mechanics plugin wraps the inventory plugin's packet listeners, so it comes after it. */
export const builtinPlugins: ServerPlugin[] = [worldPlugin, inventoryPlugin, mechanicsPlugin];
