/**
 * Server-side simulation of `window_click`, following vanilla `AbstractContainerMenu.doClick`
 * (1.21): the outcome is computed from the server's own slots and cursor, never from the
 * client's predicted `changedSlots` / `cursorItem`.
 *
 * Modes (protocol): 0 pick up / place (button 0 left, 1 right; slot -999 = outside the window,
 * drops the cursor stack or one item), 1 shift-click (quick move), 2 number key (button 0–8 =
 * hotbar slot, 40 = offhand), 3 middle click (creative clone; nothing in survival), 4 drop key
 * (button 0 one item, 1 whole stack), 5 drag, 6 double click (collect to cursor).
 */
import type { Item } from 'prismarine-item';
import { throwFromPlayer } from './drops.ts';
import { PLAYER_SLOTS, countOf, maxStack, sameItem, withCount } from './items.ts';
import { gridSlots, refreshCraftingResult, type InventorySession, type Menu } from './menus.ts';

/** The fields of a `window_click` packet the simulation uses. */
export interface Click {
  slot: number;
  mouseButton: number;
  mode: number;
}

/** Slot outside the window (protocol). */
export const OUTSIDE_SLOT = -999;

interface DragState {
  button: number;
  slots: number[];
}
const drags = new WeakMap<InventorySession, DragState>();

/**
 * Applies one click to the active menu of `session` (slots, cursor, craft result); items that
 * leave the window are thrown from the player. Does not sync the client.
 *
 * @param menu the menu the click targets (the session's active one).
 */
export function applyClick(session: InventorySession, menu: Menu, click: Click): void {
  const { slot, mouseButton: button, mode } = click;
  if (mode !== 5) drags.delete(session);
  if (slot !== OUTSIDE_SLOT && (slot < 0 || slot >= menu.size)) return;
  switch (mode) {
    case 0:
      return pickup(session, menu, slot, button);
    case 1:
      return quickMoveRepeated(session, menu, slot);
    case 2:
      return swapWithHotbar(session, menu, slot, button);
    case 4:
      return throwFromSlot(session, menu, slot, button);
    case 5:
      return drag(session, menu, slot, button);
    case 6:
      return collectToCursor(session, menu, slot);
    default:
      return; // 3 (clone) is creative-only
  }
}

function isResult(menu: Menu, slot: number): boolean {
  return slot === menu.resultSlot;
}

/** Whether a click may put `item` into `slot` (vanilla Slot.mayPlace; unrestricted unless the menu says). */
function mayPlace(menu: Menu, slot: number, item: Item): boolean {
  return menu.mayPlace?.(slot, item) ?? true;
}

/** Max count a slot may hold of `item`: its stack size (armour slots are not restricted further). */
function slotLimit(session: InventorySession, item: Item): number {
  return maxStack(session.serv, item);
}

/**
 * Takes the craft result out of the result slot (vanilla ResultSlot.onTake): consumes one item
 * from every non-empty grid slot and recomputes the result; a menu with rules of its own
 * ({@link Menu.takeResult}, a trade) takes it its way.
 *
 * @returns the taken stack, or null when the result slot is empty.
 */
export function takeCraftResult(session: InventorySession, menu: Menu): Item | null {
  if (menu.takeResult) return menu.takeResult(session);
  const result = menu.get(menu.resultSlot);
  if (!result) return null;
  for (const s of gridSlots(menu)) {
    const item = menu.get(s);
    if (!item) continue;
    item.count = countOf(item) - 1;
    if (item.count <= 0) menu.set(s, null);
  }
  menu.set(menu.resultSlot, null);
  refreshCraftingResult(session, menu);
  return result;
}

function pickup(session: InventorySession, menu: Menu, slot: number, button: number): void {
  const { Item } = session;
  const carried = session.carried;
  if (button !== 0 && button !== 1) return;
  if (slot === OUTSIDE_SLOT) {
    if (!carried) return;
    if (button === 0) {
      session.carried = null;
      throwFromPlayer(session.serv, session.player, carried);
    } else {
      throwFromPlayer(session.serv, session.player, withCount(Item, carried, 1));
      carried.count = countOf(carried) - 1;
      if (carried.count <= 0) session.carried = null;
    }
    return;
  }
  const item = menu.get(slot);
  if (isResult(menu, slot)) {
    // The whole result is taken (either button), onto an empty cursor or onto a matching
    // cursor stack when all of it fits (vanilla ResultSlot: no partial take).
    if (!item) return;
    if (!carried) {
      session.carried = takeCraftResult(session, menu);
    } else if (sameItem(Item, carried, item) && countOf(carried) + countOf(item) <= slotLimit(session, carried)) {
      const taken = takeCraftResult(session, menu);
      carried.count = countOf(carried) + countOf(taken);
    }
    return;
  }
  if (!carried) {
    if (!item) return;
    const take = button === 0 ? countOf(item) : Math.ceil(countOf(item) / 2);
    session.carried = withCount(Item, item, take);
    item.count = countOf(item) - take;
    if (item.count <= 0) menu.set(slot, null);
    return;
  }
  if (!item) {
    if (!mayPlace(menu, slot, carried)) return;
    const put = Math.min(button === 0 ? countOf(carried) : 1, slotLimit(session, carried));
    menu.set(slot, withCount(Item, carried, put));
    carried.count = countOf(carried) - put;
    if (carried.count <= 0) session.carried = null;
    return;
  }
  if (!mayPlace(menu, slot, carried)) {
    // vanilla: a slot that refuses the cursor (a furnace result) gives its items onto a
    // matching cursor stack instead, as many as the cursor can hold.
    if (!sameItem(Item, carried, item)) return;
    const take = Math.min(countOf(item), slotLimit(session, carried) - countOf(carried));
    if (take <= 0) return;
    carried.count = countOf(carried) + take;
    item.count = countOf(item) - take;
    if (item.count <= 0) menu.set(slot, null);
    return;
  }
  if (sameItem(Item, carried, item)) {
    const room = slotLimit(session, item) - countOf(item);
    const put = Math.max(0, Math.min(button === 0 ? countOf(carried) : 1, room));
    item.count = countOf(item) + put;
    carried.count = countOf(carried) - put;
    if (carried.count <= 0) session.carried = null;
    return;
  }
  if (countOf(carried) <= slotLimit(session, carried)) {
    menu.set(slot, carried);
    session.carried = item;
  }
}

/**
 * Moves as much of `stack` as possible into slots [start, end) of `menu` (vanilla
 * moveItemStackTo): first onto non-full stacks of the same item, then into the first empty
 * slot. Mutates `stack.count`.
 *
 * @param reverse walk the range from its end, as vanilla does for craft results.
 * @returns true when anything moved.
 */
export function moveItemStackTo(session: InventorySession, menu: Menu, stack: Item, start: number, end: number, reverse = false): boolean {
  const { Item } = session;
  const order: number[] = [];
  for (let s = start; s < end; s++) order.push(s);
  if (reverse) order.reverse();
  const max = slotLimit(session, stack);
  let moved = false;
  if (max > 1) {
    for (const s of order) {
      if (countOf(stack) <= 0) break;
      const existing = menu.get(s);
      if (!existing || !sameItem(Item, existing, stack) || countOf(existing) >= max) continue;
      const n = Math.min(countOf(stack), max - countOf(existing));
      existing.count = countOf(existing) + n;
      stack.count = countOf(stack) - n;
      moved = true;
    }
  }
  if (countOf(stack) > 0) {
    for (const s of order) {
      if (menu.get(s) || !mayPlace(menu, s, stack)) continue;
      const n = Math.min(countOf(stack), max);
      menu.set(s, withCount(Item, stack, n));
      stack.count = countOf(stack) - n;
      moved = true;
      break;
    }
  }
  return moved;
}

/** The [start, end, reverse] ranges a shift-click on `slot` tries, in order (vanilla quickMoveStack). */
function quickMoveTargets(menu: Menu, slot: number, item: Item): [number, number, boolean][] {
  if (menu.quickMoveTargets) return menu.quickMoveTargets(slot, item);
  return craftingQuickMoveTargets(menu, slot).map(([start, end]) => [start, end, false]);
}

/** The [start, end) ranges of a shift-click in the player inventory or a crafting table. */
function craftingQuickMoveTargets(menu: Menu, slot: number): [number, number][] {
  const { inventoryStart: inv, hotbarStart: hot, inventoryEnd: end } = menu;
  const gridEnd = menu.gridStart + menu.gridWidth * menu.gridWidth;
  if (menu.kind === 'crafting_table') {
    if (slot >= gridEnd) {
      // 1.20+: from the inventory into the grid first, then between main and hotbar.
      return [[menu.gridStart, gridEnd], slot < hot ? [hot, end] : [inv, hot]];
    }
    return [[inv, end]];
  }
  if (slot < inv || slot === PLAYER_SLOTS.offhand) return [[inv, end]];
  return slot < hot ? [[hot, end]] : [[inv, hot]];
}

function quickMove(session: InventorySession, menu: Menu, slot: number): boolean {
  const item = menu.get(slot);
  if (!item) return false;
  if (isResult(menu, slot)) {
    // Only craft when the whole result fits (vanilla stops a quick craft when it does not).
    if (!fits(session, menu, item, menu.inventoryStart, menu.inventoryEnd)) return false;
    const taken = takeCraftResult(session, menu);
    if (!taken) return false;
    moveItemStackTo(session, menu, taken, menu.inventoryStart, menu.inventoryEnd, true);
    return true;
  }
  let moved = false;
  for (const [start, end, reverse] of quickMoveTargets(menu, slot, item)) {
    if (countOf(item) <= 0) break;
    if (moveItemStackTo(session, menu, item, start, end, reverse)) {
      moved = true;
      break;
    }
  }
  if (countOf(item) <= 0) menu.set(slot, null);
  return moved;
}

/** True when all of `item` fits into [start, end) of `menu`. */
function fits(session: InventorySession, menu: Menu, item: Item, start: number, end: number): boolean {
  const max = slotLimit(session, item);
  let room = 0;
  for (let s = start; s < end; s++) {
    const existing = menu.get(s);
    if (!existing) room += max;
    else if (sameItem(session.Item, existing, item)) room += Math.max(0, max - countOf(existing));
    if (room >= countOf(item)) return true;
  }
  return false;
}

/** vanilla repeats a quick move while the slot still holds the same item (crafts as many as fit). */
function quickMoveRepeated(session: InventorySession, menu: Menu, slot: number): void {
  if (slot === OUTSIDE_SLOT) return;
  const type = menu.get(slot)?.type;
  for (let guard = 0; guard < 100; guard++) {
    if (!quickMove(session, menu, slot)) return;
    if (menu.get(slot)?.type !== type) return;
  }
}

function swapWithHotbar(session: InventorySession, menu: Menu, slot: number, button: number): void {
  if (slot === OUTSIDE_SLOT) return;
  const inv = session.inventoryMenu;
  let otherSlot: number;
  if (button >= 0 && button <= 8) otherSlot = PLAYER_SLOTS.hotbarStart + button;
  else if (button === 40) otherSlot = PLAYER_SLOTS.offhand;
  else return;
  const other = inv.get(otherSlot);
  const item = menu.get(slot);
  if (isResult(menu, slot)) {
    if (other || !item) return;
    inv.set(otherSlot, takeCraftResult(session, menu));
    return;
  }
  // vanilla: a hotbar item only goes into a slot that accepts it (no swap either).
  if (other && !mayPlace(menu, slot, other)) return;
  // The hotbar/offhand side is written through the player inventory, the clicked side through
  // the menu (a number key on the same hotbar slot swaps the stack with itself).
  inv.set(otherSlot, item);
  menu.set(slot, other);
}

function throwFromSlot(session: InventorySession, menu: Menu, slot: number, button: number): void {
  if (slot === OUTSIDE_SLOT || session.carried) return;
  const item = menu.get(slot);
  if (!item) return;
  if (isResult(menu, slot)) {
    const taken = takeCraftResult(session, menu);
    if (taken) throwFromPlayer(session.serv, session.player, taken);
    return;
  }
  const n = button === 0 ? 1 : countOf(item);
  throwFromPlayer(session.serv, session.player, withCount(session.Item, item, n));
  item.count = countOf(item) - n;
  if (item.count <= 0) menu.set(slot, null);
}

/**
 * Drag (mode 5): button 0/4/8 start a left/right/middle drag (slot -999), 1/5/9 add a slot,
 * 2/6/10 end it and spread the cursor: evenly for left, one each for right.
 */
function drag(session: InventorySession, menu: Menu, slot: number, button: number): void {
  const phase = button & 3;
  const kind = button >> 2;
  const state = drags.get(session);
  if (phase === 0) {
    if (session.carried && kind < 2) drags.set(session, { button: kind, slots: [] });
    else drags.delete(session);
    return;
  }
  if (!state || state.button !== kind) {
    drags.delete(session);
    return;
  }
  if (phase === 1) {
    const item = menu.get(slot);
    const carried = session.carried;
    if (
      slot !== OUTSIDE_SLOT &&
      !isResult(menu, slot) &&
      carried &&
      !state.slots.includes(slot) &&
      mayPlace(menu, slot, carried) &&
      (!item || sameItem(session.Item, item, carried)) &&
      state.slots.length < countOf(carried)
    ) {
      state.slots.push(slot);
    }
    return;
  }
  drags.delete(session);
  const carried = session.carried;
  if (phase !== 2 || !carried || state.slots.length === 0) return;
  const each = kind === 0 ? Math.floor(countOf(carried) / state.slots.length) : 1;
  const max = slotLimit(session, carried);
  for (const s of state.slots) {
    const existing = menu.get(s);
    const room = max - countOf(existing);
    const n = Math.max(0, Math.min(each, room, countOf(carried)));
    if (n === 0) continue;
    if (existing) existing.count = countOf(existing) + n;
    else menu.set(s, withCount(session.Item, carried, n));
    carried.count = countOf(carried) - n;
  }
  if (countOf(carried) <= 0) session.carried = null;
}

/** Double click (mode 6): gathers items of the cursor's kind from the menu onto the cursor. */
function collectToCursor(session: InventorySession, menu: Menu, slot: number): void {
  const carried = session.carried;
  if (!carried || slot === OUTSIDE_SLOT) return;
  const max = slotLimit(session, carried);
  // vanilla: two passes, non-full stacks first, then full ones; never from the result slot.
  for (const takeFull of [false, true]) {
    for (let s = 0; s < menu.size && countOf(carried) < max; s++) {
      if (isResult(menu, s)) continue;
      const item = menu.get(s);
      if (!item || !sameItem(session.Item, item, carried)) continue;
      if (!takeFull && countOf(item) >= max) continue;
      const n = Math.min(countOf(item), max - countOf(carried));
      item.count = countOf(item) - n;
      carried.count = countOf(carried) + n;
      if (item.count <= 0) menu.set(s, null);
    }
  }
  // Grid (or payment) contents may have changed.
  if (menu.kind === 'crafting_table' || menu.kind === 'inventory' || menu.refreshResult) refreshCraftingResult(session, menu);
}
