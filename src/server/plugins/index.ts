/** Our flying-squid plugins, installed in this order on every embedded server. */
import type { ServerPlugin } from '../embedded.ts';
import { worldPlugin } from './world.ts';
import { inventoryPlugin } from './inventory.ts';
import { mechanicsPlugin } from './mechanics.ts';
import { containersPlugin } from './containers.ts';
import { smeltingPlugin } from './smelting.ts';
import { blockCommandsPlugin } from './block-commands.ts';
import { mobsPlugin } from './mobs.ts';
import { interactionsPlugin } from './interactions.ts';
import { signsPlugin } from './signs.ts';

/**
 * Order matters: the mechanics plugin wraps the inventory plugin's packet listeners, and the
 * container and smelting plugins open windows through the inventory plugin's per-player sessions,
 * so all three come after it.
 */
export const builtinPlugins: ServerPlugin[] = [
  worldPlugin, inventoryPlugin, mechanicsPlugin, containersPlugin, smeltingPlugin, blockCommandsPlugin, mobsPlugin,
  interactionsPlugin, signsPlugin,
];
