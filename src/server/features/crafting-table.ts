/**
 * Crafting tables: using one (not while sneaking) opens a 3x3 crafting window
 * (`minecraft:crafting`). Clicks, recipes and results are the inventory service's.
 */
import type { SquidServer } from '../types.ts';
import { inventorySession, openMenu } from '../services/inventory.ts';
import { createCraftingTableMenu } from '../services/menus.ts';

/** Installs the crafting table's window on a started server. */
export function installCraftingTable(serv: SquidServer): void {
  serv.onBlockInteraction('crafting_table', ({ player }) => {
    if (player.crouching) return false;
    const session = inventorySession(player);
    if (!session) return false;
    openMenu(session, (id) => createCraftingTableMenu(player, id), 'minecraft:crafting', 'Crafting');
    return true;
  });
}
