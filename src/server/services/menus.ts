/**
 * Server-side menus (open windows) of a player and their synchronisation with the client.
 *
 * A {@link Menu} is a view of slots as numbered on the wire: window 0 is the player inventory
 * (0 = craft result, 1–4 = 2x2 grid, 5–8 = armour, 9–35 = main, 36–44 = hotbar, 45 = offhand);
 * a crafting table window has 0 = result, 1–9 = 3x3 grid, 10–36 = main, 37–45 = hotbar, the
 * last 36 slots being the player's own inventory slots 9–44.
 *
 * Synchronisation follows vanilla (1.17.1+): the server keeps, per player, the slot contents it
 * believes the client shows ("remote" slots) and a `stateId`. A click carries the client's
 * predicted changes; they become the remote view, the server applies the click to its own
 * slots, and every slot where the two differ is re-sent with `set_slot` (each one incrementing
 * the stateId). A click made with a stale stateId, or a wrong prediction of the cursor item, is
 * answered with the whole window (`window_items`).
 */
import { createRequire } from 'node:module';
import type { Item } from 'prismarine-item';
import type { Registry, SquidPlayer, SquidServer } from '../types.ts';
import { countOf, PLAYER_SLOTS, sameItem, withCount, type ItemClass, type Slot } from './items.ts';
import { recipeBookFor } from './recipes.ts';
import { dig } from './protocol.ts';

// prismarine-windows is CommonJS (`module.exports = loader`); its typings describe an ES default export.
const windowsLoader = createRequire(import.meta.url)('prismarine-windows') as typeof import('prismarine-windows').default;

/** An open window's slots and rules, in its wire numbering. */
export interface Menu {
  /** Window id on the wire: 0 for the player inventory, 1–100 for containers. */
  readonly id: number;
  /**
   * 'inventory' and 'crafting_table' have a crafting grid; 'container' (chest, barrel) and
   * 'furnace' (furnace, smoker, blast furnace) are block-entity storage followed by the player's
   * main inventory and hotbar (see ../features/containers.ts, ../features/smelting.ts).
   */
  readonly kind: 'inventory' | 'crafting_table' | 'container' | 'furnace';
  /** Number of slots (46 for the crafting kinds). */
  readonly size: number;
  /** Craft result slot (0), or -1 for menus without crafting. */
  readonly resultSlot: number;
  /** First crafting grid slot (1) and the grid's width/height in cells (2 or 3; 0 = no grid). */
  readonly gridStart: number;
  readonly gridWidth: number;
  /** Main inventory start, hotbar start and exclusive end of main + hotbar, in this menu's numbering. */
  readonly inventoryStart: number;
  readonly hotbarStart: number;
  readonly inventoryEnd: number;
  get(slot: number): Slot;
  /** Writes a slot without notifying anyone; the caller syncs afterwards. */
  set(slot: number, item: Slot): void;
  /**
   * Whether `item` may be put into `slot` by a click (vanilla `Slot.mayPlace`), e.g. only fuel
   * in a furnace's fuel slot and nothing in its result slot. Absent = anything may be placed.
   */
  mayPlace?(slot: number, item: Item): boolean;
  /**
   * The ranges a shift-click on `slot` holding `item` tries, in order, as [start, end, reverse]
   * (vanilla `quickMoveStack` of the menu). Absent = the crafting menus' rules in ./clicks.ts.
   */
  quickMoveTargets?(slot: number, item: Item): [number, number, boolean][];
  /** Called after a click on this menu was applied and the clicking player synced (`session`). */
  onChanged?(session: InventorySession): void;
  /** Called once when the menu closes (window closed, replaced, or the player left). */
  onClose?(session: InventorySession): void;
}

/** Per-player inventory state kept by the inventory service (./inventory.ts). */
export interface InventorySession {
  serv: SquidServer;
  player: SquidPlayer;
  Item: ItemClass;
  /** Last stateId sent to the client. */
  stateId: number;
  /** The item stack held on the mouse cursor (server's truth). */
  carried: Slot;
  inventoryMenu: Menu;
  /** The open container (crafting table), if any. */
  container: Menu | null;
  /** Last container window id handed out (vanilla cycles 1–100). */
  containerCounter: number;
  /** What the client is believed to show for the active menu, and on its cursor. */
  remote: Slot[];
  remoteCarried: Slot;
  /** Set while we mutate player.inventory ourselves, so its updateSlot events don't sync per slot. */
  batching: boolean;
}

/** The menu the client currently shows: the open container, else the player inventory. */
export function activeMenu(session: InventorySession): Menu {
  return session.container ?? session.inventoryMenu;
}

function cloneSlot(Item: ItemClass, item: Slot): Slot {
  return item && countOf(item) > 0 ? withCount(Item, item, countOf(item)) : null;
}

function slotsEqual(Item: ItemClass, a: Slot, b: Slot): boolean {
  const ea = !a || countOf(a) <= 0,
    eb = !b || countOf(b) <= 0;
  if (ea || eb) return ea === eb;
  return countOf(a) === countOf(b) && sameItem(Item, a, b);
}

/** The player inventory as window 0, backed by `player.inventory.slots`. */
export function createInventoryMenu(player: SquidPlayer): Menu {
  const slots = player.inventory.slots;
  return {
    id: 0,
    kind: 'inventory',
    size: slots.length,
    resultSlot: PLAYER_SLOTS.result,
    gridStart: PLAYER_SLOTS.gridStart,
    gridWidth: 2,
    inventoryStart: PLAYER_SLOTS.mainStart,
    hotbarStart: PLAYER_SLOTS.hotbarStart,
    inventoryEnd: PLAYER_SLOTS.hotbarEnd,
    get: (slot) => slots[slot] ?? null,
    set: (slot, item) => {
      if (item && countOf(item) <= 0) item = null;
      if (item) item.slot = slot;
      slots[slot] = item;
    },
  };
}

/**
 * A crafting table window (`minecraft:crafting`, 46 slots): its own result + 3x3 grid, then a
 * view of the player's main inventory and hotbar.
 */
export function createCraftingTableMenu(player: SquidPlayer, id: number): Menu {
  const own: Slot[] = new Array(10).fill(null);
  const invSlots = player.inventory.slots;
  // Table slot i >= 10 is player inventory slot i - 1 (main 9–35, hotbar 36–44).
  const offset = 1;
  return {
    id,
    kind: 'crafting_table',
    size: 46,
    resultSlot: 0,
    gridStart: 1,
    gridWidth: 3,
    inventoryStart: 10,
    hotbarStart: 37,
    inventoryEnd: 46,
    get: (slot) => (slot < 10 ? own[slot] : invSlots[slot - offset]) ?? null,
    set: (slot, item) => {
      if (item && countOf(item) <= 0) item = null;
      if (slot < 10) {
        if (item) item.slot = slot;
        own[slot] = item;
      } else {
        if (item) item.slot = slot - offset;
        invSlots[slot - offset] = item;
      }
    },
  };
}

/**
 * A block-entity container window: `own` storage slots 0..own.size-1 (a chest's 27 or 54, a
 * furnace's 3), then the player's main inventory (27) and hotbar (9), as vanilla's
 * ChestMenu / AbstractFurnaceMenu number them.
 *
 * @param own the storage: its size, and reads/writes of its slots (the menu's `set` strips
 *   empty stacks and keeps no copy, so several viewers share the same storage).
 */
export function createStorageMenu(
  player: SquidPlayer,
  id: number,
  kind: 'container' | 'furnace',
  own: { size: number; get(slot: number): Slot; set(slot: number, item: Slot): void },
  hooks: Pick<Menu, 'mayPlace' | 'quickMoveTargets' | 'onChanged' | 'onClose'> = {},
): Menu {
  const invSlots = player.inventory.slots;
  // Menu slot own.size + i is player inventory slot 9 + i (main 9–35, hotbar 36–44).
  const offset = own.size - PLAYER_SLOTS.mainStart;
  const size = own.size + (PLAYER_SLOTS.hotbarEnd - PLAYER_SLOTS.mainStart);
  return {
    id,
    kind,
    size,
    resultSlot: -1,
    gridStart: 0,
    gridWidth: 0,
    inventoryStart: own.size,
    hotbarStart: own.size + (PLAYER_SLOTS.hotbarStart - PLAYER_SLOTS.mainStart),
    inventoryEnd: size,
    get: (slot) => (slot < 0 || slot >= size ? null : slot < own.size ? own.get(slot) : invSlots[slot - offset]) ?? null,
    set: (slot, item) => {
      if (slot < 0 || slot >= size) return;
      if (item && countOf(item) <= 0) item = null;
      if (slot < own.size) {
        own.set(slot, item);
      } else {
        if (item) item.slot = slot - offset;
        invSlots[slot - offset] = item;
      }
    },
    ...hooks,
  };
}

/** Slots of a menu's crafting grid. */
export function gridSlots(menu: Menu): number[] {
  return Array.from({ length: menu.gridWidth * menu.gridWidth }, (_, i) => menu.gridStart + i);
}

/** Recomputes a menu's craft result slot from its grid and minecraft-data recipes. */
export function refreshCraftingResult(session: InventorySession, menu: Menu): void {
  if (menu.gridWidth === 0 || menu.resultSlot < 0) return;
  const cells = gridSlots(menu).map((s) => menu.get(s)?.type ?? null);
  const match = recipeBookFor(session.serv.registry).match(cells, menu.gridWidth);
  menu.set(menu.resultSlot, match ? new session.Item(match.id, match.count) : null);
}

function nextStateId(session: InventorySession): number {
  // vanilla: AbstractContainerMenu.incrementStateId wraps at 15 bits.
  session.stateId = (session.stateId + 1) & 32767;
  return session.stateId;
}

/** Sends the whole active menu and the cursor (`window_items`), resetting the remote view. */
export function sendFullState(session: InventorySession): void {
  const menu = activeMenu(session);
  const { Item } = session;
  const items: Slot[] = [];
  for (let i = 0; i < menu.size; i++) items.push(menu.get(i));
  session.player._client.write('window_items', {
    windowId: menu.id,
    stateId: nextStateId(session),
    items: items.map((item) => Item.toNotch(item)),
    carriedItem: Item.toNotch(session.carried),
  });
  session.remote = items.map((item) => cloneSlot(Item, item));
  session.remoteCarried = cloneSlot(Item, session.carried);
}

/**
 * Sends `set_slot` for every slot of the active menu that differs from the client's believed
 * view (plus the `force`d ones, e.g. the craft result that mineflayer waits for), or the whole
 * window when the cursor differs.
 */
export function broadcastChanges(session: InventorySession, force: number[] = []): void {
  const menu = activeMenu(session);
  const { Item } = session;
  if (session.remote.length !== menu.size) {
    sendFullState(session);
    return;
  }
  if (!slotsEqual(Item, session.carried, session.remoteCarried)) {
    sendFullState(session);
    return;
  }
  for (let i = 0; i < menu.size; i++) {
    const item = menu.get(i);
    if (slotsEqual(Item, item, session.remote[i]!) && !force.includes(i)) continue; // remote.length === menu.size
    session.player._client.write('set_slot', {
      windowId: menu.id,
      stateId: nextStateId(session),
      slot: i,
      item: Item.toNotch(item),
    });
    session.remote[i] = cloneSlot(Item, item);
  }
}

/**
 * Records the client's predicted slot contents of a click as its believed view. Before 1.21.5 each
 * is a full `Slot`; since, an optional `HashedSlot` (item id, count and a hash of each component:
 * vanilla `HashedStack`, Minecraft wiki "Java Edition protocol", Click Container), absent for an
 * empty slot. A hashed stack is believed to be its item and count: where its components differ
 * from the server's, the next sync re-sends the slot, as vanilla does on a hash mismatch.
 */
export function applyClientPrediction(
  session: InventorySession,
  changedSlots: { location: number; item: unknown }[],
  cursorItem: unknown,
): void {
  const hashed = clickSlotsAreHashed(session.serv);
  for (const { location, item } of changedSlots ?? []) {
    if (location >= 0 && location < session.remote.length) session.remote[location] = predictedSlot(session, item, hashed);
  }
  if (hashed || cursorItem !== undefined) session.remoteCarried = predictedSlot(session, cursorItem, hashed);
}

/** One predicted slot of a `window_click`: a `Slot`, or since 1.21.5 an optional `HashedSlot`. */
function predictedSlot(session: InventorySession, raw: unknown, hashed: boolean): Slot {
  if (!hashed) return session.Item.fromNotch(raw as object);
  const stack = raw as { itemId?: number; itemCount?: number } | undefined | null;
  if (!stack || !stack.itemCount || stack.itemId === undefined) return null;
  return new session.Item(stack.itemId, stack.itemCount);
}

const hashedClicks = new WeakMap<Registry, boolean>();

/** Whether `window_click` carries hashed stacks (1.21.5+), read from the protocol definition. */
function clickSlotsAreHashed(serv: SquidServer): boolean {
  let hashed = hashedClicks.get(serv.registry);
  if (hashed === undefined) {
    const fields = dig(serv.registry.protocol, 'play', 'toServer', 'types', 'packet_window_click', 1);
    const cursor = Array.isArray(fields)
      ? (fields as Array<{ name?: string; type?: unknown }>).find((f) => f.name === 'cursorItem')
      : undefined;
    hashed = JSON.stringify(cursor?.type ?? '').includes('HashedSlot');
    hashedClicks.set(serv.registry, hashed);
  }
  return hashed;
}

const windowTypes = new WeakMap<Registry, Record<string, { type: number | string }>>();

/**
 * The prismarine-windows protocol type id of a window kind (e.g. `minecraft:crafting`).
 *
 * @throws Error when the server's version has no such window type.
 */
export function windowTypeId(serv: SquidServer, key: string): number {
  let windows = windowTypes.get(serv.registry);
  if (!windows) {
    // prismarine-windows accepts a registry too (its typings say a version string).
    windows = windowsLoader(serv.registry as unknown as string).windows;
    windowTypes.set(serv.registry, windows);
  }
  const type = windows[key]?.type;
  if (typeof type !== 'number') throw new Error(`no window type ${key} for ${serv.registry.version.minecraftVersion}`);
  return type;
}
