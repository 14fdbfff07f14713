/**
 * Per-player inventory sessions: the server's side of every window a player has open. flying-squid
 * ignores window clicks since 1.17 and has no crafting; this service handles, for every player
 * who joins:
 * - window clicks, simulated server-side (./clicks.ts), with crafting results from
 *   minecraft-data recipes (./recipes.ts) and stateId-based client sync (./menus.ts);
 * - opening and closing container windows for features ({@link openMenu}, {@link closeContainer});
 * - Q / ctrl+Q throws, full-count pickup of item entities (vanilla pickup box, every tick),
 *   item-entity metadata for new viewers;
 * - the held item, offhand and armour shown to other players.
 */
import type { Item } from 'prismarine-item';
import type { SquidEntity, SquidPlayer, SquidServer } from '../types.ts';
import { applyClick, type Click } from './clicks.ts';
import { sendItemMetadata, throwFromPlayer } from './drops.ts';
import { PLAYER_SLOTS, countOf, itemClass, maxStack, sameItem, withCount, type Slot } from './items.ts';
import {
  activeMenu,
  applyClientPrediction,
  broadcastChanges,
  createInventoryMenu,
  gridSlots,
  refreshCraftingResult,
  sendFullState,
  windowTypeId,
  type InventorySession,
  type Menu,
} from './menus.ts';

const sessions = new WeakMap<SquidPlayer, InventorySession>();

/** block_dig statuses (protocol): drop the whole held stack / one held item. */
const DIG_STATUS_DROP_STACK = 3;
const DIG_STATUS_DROP_ITEM = 4;

/** Equipment slot ids of entity_equipment (protocol, 1.9+) for player-inventory window slots. */
const EQUIPMENT_OF_ARMOR_SLOT: Record<number, number> = { 5: 5, 6: 4, 7: 3, 8: 2 };
const EQUIPMENT_MAINHAND = 0;
const EQUIPMENT_OFFHAND = 1;

/**
 * Installs inventory sessions on a started server: every player who joins afterwards gets
 * server-side click handling, crafting, throwing and pickup. Needs the movement service (a
 * throw goes where the player looks).
 */
export function installInventory(serv: SquidServer): void {
  serv.on('newPlayer', (player) => installPlayer(serv, player));
  serv.on('tick', () => pickUpItems(serv));
}

/**
 * vanilla `Player.aiStep`: a player touches the entities within its hitbox grown by 1 block
 * sideways and 0.5 up and down; an item entity (0.25 × 0.25) is picked up on touch once its
 * pickup delay is over (`ItemEntity.playerTouch`). Half-extents in blocks, from the player's feet
 * centre to the item's.
 */
const PICKUP_REACH = { horizontal: 0.3 + 1 + 0.125, below: 0.5 + 0.25, above: 1.8 + 0.5 } as const;

/** Whether an item entity touches the player's pickup box (see {@link PICKUP_REACH}). */
export function withinPickupReach(player: SquidPlayer, item: SquidEntity): boolean {
  const p = player.position;
  const i = item.position;
  return (
    item.world === player.world &&
    Math.abs(i.x - p.x) < PICKUP_REACH.horizontal &&
    Math.abs(i.z - p.z) < PICKUP_REACH.horizontal &&
    i.y > p.y - PICKUP_REACH.below &&
    i.y < p.y + PICKUP_REACH.above
  );
}

/**
 * Every server tick, items whose pickup delay is over go to a living, non-spectator player whose
 * pickup box they touch (vanilla picks up every tick; flying-squid checks only in its entity
 * physics tick, which it skips while the previous one is still running, so under load drops
 * waited, and it used a 1.75-block sphere).
 */
function pickUpItems(serv: SquidServer): void {
  if (serv.players.length === 0) return;
  const now = Date.now();
  for (const entity of Object.values(serv.entities)) {
    if (entity.itemId === undefined || entity.collected || entity.type !== 'object') continue;
    if (now - entity.bornTime < (entity.pickupTime ?? 0)) continue;
    for (const player of serv.players) {
      if (player.health <= 0 || player.gameMode === 3 || player.disconnected || !withinPickupReach(player, entity)) continue;
      const session = sessions.get(player);
      if (session && collectItemEntity(session, entity) > 0 && entity.collected) break;
    }
  }
}

/** The service's state for a player (undefined before they joined or when not installed). */
export function inventorySession(player: SquidPlayer): InventorySession | undefined {
  return sessions.get(player);
}

/**
 * Gives a player items server-side, merging into existing stacks first (vanilla
 * `Inventory.add` order), and syncs their client. Unlike flying-squid's `/give` it respects
 * stack sizes (minecraft-data `stackSize`) and stores numeric counts.
 *
 * @param itemName minecraft-data item name, with or without `minecraft:`.
 * @param count number of items (may exceed one stack).
 * @returns the number of items that fitted; the rest is not given.
 * @throws Error for an unknown item name or a player the inventory service does not know.
 */
export function giveItems(player: SquidPlayer, itemName: string, count: number): number {
  const session = sessions.get(player);
  if (!session) throw new Error(`inventory service not installed for ${player?.username}`);
  const info = session.serv.registry.itemsByName[itemName.replace(/^minecraft:/, '')];
  if (!info) throw new Error(`unknown item ${itemName}`);
  const stack = new session.Item(info.id, count);
  const added = addToInventory(session, stack);
  broadcastChanges(session);
  syncEquipment(session);
  return added;
}

function installPlayer(serv: SquidServer, player: SquidPlayer): void {
  const Item = itemClass(serv);
  const inventoryMenu = createInventoryMenu(player);
  const session: InventorySession = {
    serv,
    player,
    Item,
    stateId: 0,
    carried: null,
    inventoryMenu,
    container: null,
    containerCounter: 0,
    remote: new Array<Slot>(inventoryMenu.size).fill(null),
    remoteCarried: null,
    batching: false,
  };
  sessions.set(player, session);
  const client = player._client;

  // Server-initiated slot changes (flying-squid's /give, block placing, login restore) go
  // through updateSlot: replace its listener (which sends set_slot without a stateId and maps
  // equipment slots wrongly) with one that syncs through our remote view.
  player.inventory.removeAllListeners('updateSlot');
  player.inventory.on('updateSlot', (_slot, _old, item) => {
    if (item && typeof item.count !== 'number') item.count = countOf(item);
    if (session.batching) return;
    broadcastChanges(session);
    syncEquipment(session);
  });
  player.on('spawned', () => sendFullState(session));
  // Emitted before flying-squid saves the player: keep grid and cursor items in the saved inventory.
  player.once('disconnected', () => {
    returnLooseItems(session);
    const container = session.container;
    session.container = null;
    container?.onClose?.(session);
  });

  client.removeAllListeners('window_click');
  client.on('window_click', (packet: WindowClickPacket) => {
    try {
      onWindowClick(session, packet);
    } catch (err) {
      serv.emit('error', err);
    }
  });
  client.on('close_window', ({ windowId }: { windowId: number }) => closeMenu(session, windowId));
  client.on('held_item_slot', () => syncEquipment(session));

  // Q / ctrl+Q: handle the drop statuses ourselves, pass the digging ones to flying-squid.
  const digListeners = client.listeners('block_dig');
  client.removeAllListeners('block_dig');
  client.on('block_dig', (packet: { status: number }) => {
    if (packet.status === DIG_STATUS_DROP_STACK || packet.status === DIG_STATUS_DROP_ITEM) {
      dropHeldItem(session, packet.status === DIG_STATUS_DROP_STACK);
      return;
    }
    for (const listener of digListeners) listener.call(client, packet);
  });

  // flying-squid's entity tick offers items within a 1.75-block sphere: only those in vanilla's box.
  player.collect = (entity) => (withinPickupReach(player, entity) ? collectItemEntity(session, entity) : 0);

  const spawnEntity = player.spawnEntity;
  player.spawnEntity = (entity) => {
    spawnEntity(entity);
    if (entity.itemId !== undefined) sendItemMetadata(serv, entity, [player]);
  };
}

/** The fields of a `window_click` packet the service reads. */
type WindowClickPacket = Click & {
  windowId: number;
  stateId: number;
  changedSlots: { location: number; item: unknown }[];
  cursorItem: unknown;
};

function onWindowClick(session: InventorySession, packet: WindowClickPacket): void {
  const menu = activeMenu(session);
  // vanilla ignores clicks aimed at a window that is not (or no longer) open.
  if (packet.windowId !== menu.id) return;
  const stale = packet.stateId !== session.stateId;
  session.batching = true;
  try {
    applyClick(session, menu, packet);
    refreshCraftingResult(session, menu);
  } finally {
    session.batching = false;
  }
  applyClientPrediction(session, packet.changedSlots, packet.cursorItem);
  if (stale) {
    sendFullState(session);
  } else {
    // Like vanilla, the result slot is re-sent after every click on the grid or result;
    // mineflayer waits for it before its next crafting click.
    const gridEnd = menu.gridStart + menu.gridWidth * menu.gridWidth;
    const craftingClick = packet.slot >= menu.resultSlot && packet.slot < gridEnd;
    broadcastChanges(session, craftingClick && menu.resultSlot >= 0 ? [menu.resultSlot] : []);
  }
  syncEquipment(session);
  menu.onChanged?.(session);
}

/**
 * Opens a container window for the player, closing the one already open: picks the next
 * window id (vanilla cycles 1–100), sends `open_window` and the window's full contents.
 *
 * @param build creates the menu for the given window id.
 * @param windowType prismarine-windows key of the menu type, e.g. `minecraft:generic_9x3`.
 * @param title window title (plain text).
 * @returns the opened menu.
 * @throws Error when the window type does not exist in the server's version.
 */
export function openMenu(session: InventorySession, build: (id: number) => Menu, windowType: string, title: string): Menu {
  const inventoryType = windowTypeId(session.serv, windowType);
  if (session.container) closeMenu(session, session.container.id);
  session.containerCounter = (session.containerCounter % 100) + 1;
  const menu = build(session.containerCounter);
  session.container = menu;
  session.player._client.write('open_window', {
    windowId: menu.id,
    inventoryType,
    windowTitle: session.serv._createChatComponent(title).toNetworkFormat(),
  });
  sendFullState(session);
  return menu;
}

/**
 * Closes the player's open container window from the server side (vanilla: the block was
 * broken or the player walked away), telling the client with `close_window`. No-op when no
 * container is open.
 */
export function closeContainer(session: InventorySession): void {
  const menu = session.container;
  if (!menu) return;
  session.player._client.write('close_window', { windowId: menu.id });
  closeMenu(session, menu.id);
}

/** Moves the active menu's grid items and the cursor stack back into the inventory (thrown when full). Does not sync. */
function returnLooseItems(session: InventorySession): void {
  const menu = activeMenu(session);
  session.batching = true;
  try {
    for (const s of gridSlots(menu)) {
      const item = menu.get(s);
      menu.set(s, null);
      placeBackOrDrop(session, item);
    }
    if (menu.resultSlot >= 0) menu.set(menu.resultSlot, null);
    const carried = session.carried;
    session.carried = null;
    placeBackOrDrop(session, carried);
  } finally {
    session.batching = false;
  }
}

/**
 * Closes the player's window `windowId` (0 = their inventory): grid items and the cursor stack
 * go back to the inventory, or are thrown when it is full (vanilla `AbstractContainerMenu.removed`).
 */
function closeMenu(session: InventorySession, windowId: number): void {
  const menu = activeMenu(session);
  if (windowId !== menu.id && windowId !== 0) return;
  returnLooseItems(session);
  if (session.container) {
    const container = session.container;
    session.container = null;
    container.onClose?.(session);
    sendFullState(session);
  } else {
    broadcastChanges(session);
  }
  syncEquipment(session);
}

/** Q (one item) / ctrl+Q (whole stack) on the held hotbar slot: throws it in front of the player. */
function dropHeldItem(session: InventorySession, wholeStack: boolean): void {
  const player = session.player;
  const slot = PLAYER_SLOTS.hotbarStart + (player.heldItemSlot ?? 0);
  const item = session.inventoryMenu.get(slot);
  if (!item) return;
  const n = wholeStack ? countOf(item) : 1;
  throwFromPlayer(session.serv, player, withCount(session.Item, item, n));
  item.count = countOf(item) - n;
  if (item.count <= 0) session.inventoryMenu.set(slot, null);
  broadcastChanges(session);
  syncEquipment(session);
}

const lastEquipment = new WeakMap<InventorySession, (string | null)[]>();

/** Shows the player's held item, offhand and armour to the other players when they changed. */
function syncEquipment(session: InventorySession): void {
  const { player, Item } = session;
  const inv = session.inventoryMenu;
  const bySlot: [number, Slot][] = [
    [EQUIPMENT_MAINHAND, inv.get(PLAYER_SLOTS.hotbarStart + (player.heldItemSlot ?? 0))],
    [EQUIPMENT_OFFHAND, inv.get(PLAYER_SLOTS.offhand)],
    ...Object.entries(EQUIPMENT_OF_ARMOR_SLOT).map(([s, e]) => [e, inv.get(Number(s))] as [number, Slot]),
  ];
  const previous = lastEquipment.get(session) ?? [];
  const changed: { slot: number; item: object }[] = [];
  const now: (string | null)[] = [];
  for (const [equipmentSlot, item] of bySlot) {
    const key = item ? `${item.type}x${countOf(item)}` : null;
    now[equipmentSlot] = key;
    if (previous[equipmentSlot] === key || (previous[equipmentSlot] === undefined && key === null)) continue;
    player.setEquipment?.(equipmentSlot, item);
    changed.push({ slot: equipmentSlot, item: Item.toNotch(item) });
  }
  lastEquipment.set(session, now);
  if (changed.length > 0 && session.serv.supportFeature('allEntityEquipmentInOne')) {
    player._writeOthersNearby('entity_equipment', { entityId: player.id, equipments: changed });
  }
}

/**
 * Adds as much of `stack` as fits to the player's main inventory and hotbar, in vanilla order
 * (`Inventory.add`): first onto non-full stacks of the same item (selected hotbar slot, offhand,
 * hotbar, main), then into empty slots (hotbar, then main). Mutates `stack.count` to the
 * remainder. Does not sync the client.
 *
 * @returns the number of items added.
 */
export function addToInventory(session: InventorySession, stack: Item): number {
  const { serv, Item } = session;
  const menu = session.inventoryMenu;
  const selected = PLAYER_SLOTS.hotbarStart + (session.player.heldItemSlot ?? 0);
  const order = [selected, PLAYER_SLOTS.offhand];
  for (let s = PLAYER_SLOTS.hotbarStart; s < PLAYER_SLOTS.hotbarEnd; s++) order.push(s);
  for (let s = PLAYER_SLOTS.mainStart; s < PLAYER_SLOTS.hotbarStart; s++) order.push(s);
  const max = maxStack(serv, stack);
  const before = countOf(stack);
  let left = before;
  for (const s of order) {
    if (left === 0) break;
    const existing = menu.get(s);
    if (!existing || !sameItem(Item, existing, stack) || countOf(existing) >= max) continue;
    const moved = Math.min(left, max - countOf(existing));
    existing.count = countOf(existing) + moved;
    left -= moved;
  }
  for (const s of order.slice(2)) {
    if (left === 0) break;
    if (menu.get(s)) continue;
    const moved = Math.min(left, max);
    menu.set(s, withCount(Item, stack, moved));
    left -= moved;
  }
  stack.count = left;
  return before - left;
}

/**
 * Returns `stack` to the player's inventory, throwing what does not fit (vanilla
 * `Inventory.placeItemBackInInventory`, used when a window closes with items in its grid or on
 * the cursor). Does not sync the client.
 */
export function placeBackOrDrop(session: InventorySession, stack: Slot): void {
  if (!stack || countOf(stack) <= 0) return;
  addToInventory(session, stack);
  if (countOf(stack) > 0) throwFromPlayer(session.serv, session.player, stack);
}

/**
 * Picks an item entity up for a player (replaces flying-squid's `player.collect`, which adds a
 * single item whatever the entity's count). Adds what fits, sends `collect` (mineflayer's
 * `playerCollect`) to the players around the item, removes the entity when fully taken or
 * updates its count otherwise, then syncs the collector's inventory.
 *
 * @returns the number of items picked up (0 when the inventory is full).
 */
export function collectItemEntity(session: InventorySession, entity: SquidEntity): number {
  const { serv, player, Item } = session;
  if (entity.itemId === undefined || entity.collected) return 0;
  const stack = new Item(entity.itemId, Number(entity.itemCount ?? 1));
  const taken = addToInventory(session, stack);
  if (taken === 0) return 0;
  const watchers: SquidPlayer[] = entity.getNearbyPlayers?.() ?? [];
  if (!watchers.includes(player)) watchers.push(player);
  serv._writeArray('collect', { collectedEntityId: entity.id, collectorEntityId: player.id, pickupItemCount: taken }, watchers);
  // No sound packet: vanilla clients play the pickup sound themselves on `collect`.
  if (countOf(stack) === 0) {
    entity.collected = true;
    entity.destroy();
  } else {
    entity.itemCount = countOf(stack);
    sendItemMetadata(serv, entity, watchers);
  }
  broadcastChanges(session);
  return taken;
}

/**
 * Empties every player's inventory as a fresh player's (the warm world's reset): open containers
 * closed, the cursor and the crafting grid emptied, every slot cleared (the clients are told).
 */
export function resetInventories(serv: SquidServer): void {
  for (const player of serv.players) {
    const session = inventorySession(player);
    if (session) {
      closeContainer(session);
      session.carried = null;
    }
    player.inventory.slots.forEach((item, slot) => {
      if (item) player.inventory.updateSlot(slot, null);
    });
  }
}
