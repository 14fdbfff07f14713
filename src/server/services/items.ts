/**
 * Item stacks and the player's inventory slots: the prismarine-item class of the server's
 * version, stack arithmetic (counts, stack sizes from minecraft-data, merging), the window slot
 * numbering of the player inventory, the held item, and tool durability.
 */
import { createRequire } from 'node:module';
import type { Item } from 'prismarine-item';
import type { Registry, Slot, SquidPlayer, SquidServer } from '../types.ts';

// prismarine-item is CommonJS (`module.exports = loader`); its typings describe an ES default export.
const itemLoader = createRequire(import.meta.url)('prismarine-item') as typeof import('prismarine-item').default;

export type { Slot } from '../types.ts';
/** The prismarine-item class of one registry. */
export type ItemClass = typeof Item;

/** Window slots of the player inventory (window 0), a protocol fact. */
export const PLAYER_SLOTS = {
  result: 0,
  gridStart: 1,
  armorStart: 5,
  /** Helmet slot (armour runs head 5, chest 6, legs 7, feet 8). */
  head: 5,
  mainStart: 9,
  hotbarStart: 36,
  /** Exclusive end of main + hotbar. */
  hotbarEnd: 45,
  offhand: 45,
} as const;

/** Hand numbers of the protocol (`use_item`, `block_place`): main hand 0, off hand 1. */
export const MAIN_HAND = 0;
export const OFF_HAND = 1;

const itemClasses = new WeakMap<Registry, ItemClass>();

/** prismarine-item's class for the server's registry (built once per registry). */
export function itemClass(serv: { registry: Registry }): ItemClass {
  let cls = itemClasses.get(serv.registry);
  if (!cls) {
    cls = itemLoader(serv.registry);
    itemClasses.set(serv.registry, cls);
  }
  return cls;
}

/** Count of a stack as a number (flying-squid's /give stores it as a string); 0 for empty. */
export function countOf(item: Slot | undefined): number {
  return item ? Number(item.count) : 0;
}

/** Maximum stack size of an item, from minecraft-data `items[].stackSize`. */
export function maxStack(serv: SquidServer, item: Item): number {
  return serv.registry.items[item.type]?.stackSize ?? 64;
}

/** minecraft-data name of an item stack's type ('' when unknown). */
export function itemName(serv: SquidServer, item: Item): string {
  return serv.registry.items[item.type]?.name ?? '';
}

/** True when two stacks are the same item (type, metadata, components) and may merge. */
export function sameItem(Item: ItemClass, a: Slot, b: Slot): boolean {
  if (!a || !b) return false;
  if (!Item.equal(a, b, false, true)) return false;
  // 1.20.5+ items carry data components (not in prismarine-item's typings).
  const components = (item: Item): string => JSON.stringify((item as Item & { components?: unknown }).components ?? []);
  return components(a) === components(b);
}

/** A copy of `item` with `count` items (same type and components). */
export function withCount(Item: ItemClass, item: Item, count: number): Item {
  const copy = Item.fromNotch(Item.toNotch(item)) as Item;
  copy.count = count;
  return copy;
}

/** Window slot of the item in the given hand: main hand = selected hotbar slot, off hand = 45. */
export function handSlot(player: SquidPlayer, hand = MAIN_HAND): number {
  return hand === OFF_HAND ? PLAYER_SLOTS.offhand : PLAYER_SLOTS.hotbarStart + (player.heldItemSlot ?? 0);
}

/** The item in the player's hand (server's truth), or null. */
export function heldItem(player: SquidPlayer, hand = MAIN_HAND): Item | null {
  const item = player.inventory.slots[handSlot(player, hand)];
  return item && countOf(item) > 0 ? item : null;
}

/**
 * Removes `n` items from the stack in the player's hand and syncs their client through the
 * inventory service (`player.inventory.updateSlot`). Nothing happens in creative mode.
 */
export function consumeHeld(player: SquidPlayer, n = 1, hand = MAIN_HAND): void {
  if (player.gameMode === 1) return;
  const slot = handSlot(player, hand);
  const item = player.inventory.slots[slot];
  if (!item) return;
  const left = countOf(item) - n;
  if (left <= 0) {
    player.inventory.updateSlot(slot, null);
  } else {
    item.count = left;
    player.inventory.updateSlot(slot, item);
  }
}

/** Data components of a 1.20.5+ item (not in prismarine-item's typings). */
type WithComponents = Item & {
  components?: { type: string; data: unknown }[];
  componentMap?: Map<string, { type: string; data: unknown }>;
};

/** Damage taken so far by a tool (0 = new), from its `damage` component (1.20.5+) or NBT. */
export function damageOf(item: Item): number {
  const fromComponent = (item as WithComponents).componentMap?.get('damage')?.data;
  if (typeof fromComponent === 'number') return fromComponent;
  try {
    return Number(item.durabilityUsed ?? 0) || 0;
  } catch {
    return 0;
  }
}

/** Sets a tool's damage, in the place the protocol version keeps it (`damage` component on 1.20.5+). */
export function setDamage(serv: SquidServer, item: Item, damage: number): void {
  const withComponents = item as WithComponents;
  if (serv.registry.version['>=']('1.20.5')) {
    const entry = { type: 'damage', data: damage };
    withComponents.components = (withComponents.components ?? []).filter((c) => c.type !== 'damage');
    withComponents.components.push(entry);
    withComponents.componentMap ??= new Map();
    withComponents.componentMap.set('damage', entry);
  } else {
    item.durabilityUsed = damage;
  }
}

/**
 * Damages the item in the player's hand by `amount` (vanilla `ItemStack.hurtAndBreak`): items
 * without `maxDurability` in minecraft-data are untouched; a tool whose damage reaches its
 * maximum durability breaks (the slot empties). Syncs the client. No-op in creative mode.
 *
 * @returns true when the tool broke.
 */
export function damageHeldTool(serv: SquidServer, player: SquidPlayer, amount = 1, hand = MAIN_HAND): boolean {
  if (player.gameMode === 1) return false;
  const slot = handSlot(player, hand);
  const item = player.inventory.slots[slot];
  const max = item ? serv.registry.items[item.type]?.maxDurability : undefined;
  if (!item || !max) return false;
  const damage = damageOf(item) + amount;
  if (damage >= max) {
    player.inventory.updateSlot(slot, null);
    return true;
  }
  setDamage(serv, item, damage);
  player.inventory.updateSlot(slot, item);
  return false;
}
