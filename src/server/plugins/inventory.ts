import type { SquidServer } from '../embedded.ts';

/** Inventory clicks, item drops and pickup, crafting. */
export function inventoryPlugin(_serv: SquidServer): void {}
