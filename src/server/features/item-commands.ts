/**
 * Item commands: vanilla `/give` (numeric counts, stack sizes) and `/clear` (Minecraft wiki
 * "Commands/give", "Commands/clear"). Item facts (ids, stack sizes) come from minecraft-data.
 */
import { createRequire } from 'node:module';
import type { SquidServer } from '../embedded.ts';
import { commandAction, CommandError, requirePlayer, resolvePlayers } from './targets.ts';
import { sendFeedback, translatable } from './text.ts';
import type { SquidPlayer } from './types.ts';

const require = createRequire(import.meta.url);

/** Player inventory window slots (prismarine-windows `minecraft:inventory`). */
const HOTBAR_FIRST = 36;
const HOTBAR_LAST = 44;
const MAIN_FIRST = 9;
const MAIN_LAST = 35;
/** Most items vanilla `/give` hands out in one command (64 stacks of 64 — `commands.give.failed.toomanyitems`). */
const MAX_GIVE_STACKS = 100;

interface ItemInfo { id: number; name: string; displayName?: string; stackSize: number }
interface SlotItem { type: number; count: number; name: string }

/** `minecraft:stone` or `stone` → minecraft-data item, or a CommandError `argument.item.id.invalid`. */
function lookUpItem(serv: SquidServer, token: string): ItemInfo {
  const name = token.replace(/^minecraft:/, '');
  const item = serv.registry.itemsByName[name] as ItemInfo | undefined;
  if (!item) throw new CommandError(translatable('argument.item.id.invalid', [token]));
  return item;
}

/** Parses a whole-number argument within bounds, or throws a CommandError. */
function parseCount(token: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(token)) throw new CommandError(translatable('parsing.int.invalid', [token]));
  const value = Number(token);
  if (value < min) throw new CommandError(translatable('argument.integer.low', [min, value]));
  if (value > max) throw new CommandError(translatable('argument.integer.big', [max, value]));
  return value;
}

/**
 * Adds `count` of `item` to the player's inventory as vanilla does: top up existing stacks first
 * (hotbar, then main inventory), then fill empty slots in the same order. Every change is synced
 * to the client through `inventory.updateSlot`.
 *
 * @returns how many items did not fit (vanilla would drop them at the player's feet).
 */
export function addItemToInventory(serv: SquidServer, player: SquidPlayer, item: ItemInfo, count: number): number {
  const Item = require('prismarine-item')(serv.registry);
  const order = [...range(HOTBAR_FIRST, HOTBAR_LAST), ...range(MAIN_FIRST, MAIN_LAST)];
  let left = count;
  for (const slot of order) {
    const existing: SlotItem | null = player.inventory.slots[slot];
    if (left === 0) break;
    if (!existing || existing.type !== item.id || existing.count >= item.stackSize) continue;
    const added = Math.min(left, item.stackSize - existing.count);
    player.inventory.updateSlot(slot, new Item(item.id, existing.count + added));
    left -= added;
  }
  for (const slot of order) {
    if (left === 0) break;
    if (player.inventory.slots[slot]) continue;
    const added = Math.min(left, item.stackSize);
    player.inventory.updateSlot(slot, new Item(item.id, added));
    left -= added;
  }
  return left;
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/**
 * Removes up to `maxCount` matching items from every slot of the player's inventory window
 * (crafting grid, armour, main, hotbar, offhand). `item` undefined matches everything;
 * `maxCount` -1 = no limit, 0 = only count (vanilla test mode).
 *
 * @returns the number of matching items found (maxCount 0) or removed.
 */
export function clearInventory(player: SquidPlayer, item: ItemInfo | undefined, maxCount: number): number {
  let total = 0;
  const slots: Array<SlotItem | null> = player.inventory.slots;
  for (let slot = 0; slot < slots.length; slot++) {
    const existing = slots[slot];
    if (!existing || (item && existing.type !== item.id)) continue;
    if (maxCount === 0) { total += existing.count; continue; }
    const take = maxCount < 0 ? existing.count : Math.min(existing.count, maxCount - total);
    if (take <= 0) break;
    total += take;
    if (take === existing.count) player.inventory.updateSlot(slot, null);
    else { existing.count -= take; player.inventory.updateSlot(slot, existing); }
  }
  return total;
}

/** Registers `/give` and `/clear` (both op-only, as in vanilla). */
export function installItemCommands(serv: SquidServer): void {
  serv.commands.add({
    base: 'give',
    info: 'Gives an item to players',
    usage: '/give <targets> <item> [count]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [selector, itemToken, countToken] = args;
      if (!selector || !itemToken || args.length > 3) throw new CommandError({ text: 'Usage: /give <targets> <item> [count]' });
      const players = resolvePlayers(serv, selector, ctx);
      const item = lookUpItem(serv, itemToken);
      const count = countToken === undefined ? 1 : parseCount(countToken, 1, Number.MAX_SAFE_INTEGER);
      const limit = item.stackSize * MAX_GIVE_STACKS;
      if (count > limit) throw new CommandError(translatable('commands.give.failed.toomanyitems', [limit, item.name]));
      for (const player of players) addItemToInventory(serv, player, item, count);
      const itemLabel = `[${item.displayName ?? item.name}]`;
      sendFeedback(serv, ctx.player, players.length === 1
        ? translatable('commands.give.success.single', [count, itemLabel, players[0]!.username])
        : translatable('commands.give.success.multiple', [count, itemLabel, players.length]));
    }),
  });

  serv.commands.add({
    base: 'clear',
    info: 'Clears items from player inventories',
    usage: '/clear [targets] [item] [maxCount]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [selector, itemToken, countToken] = args;
      if (args.length > 3) throw new CommandError({ text: 'Usage: /clear [targets] [item] [maxCount]' });
      const players = selector === undefined ? [requirePlayer(ctx)] : resolvePlayers(serv, selector, ctx);
      const item = itemToken === undefined || itemToken === '*' ? undefined : lookUpItem(serv, itemToken);
      const maxCount = countToken === undefined ? -1 : parseCount(countToken, 0, Number.MAX_SAFE_INTEGER);
      let total = 0;
      for (const player of players) total += clearInventory(player, item, maxCount);
      if (total === 0) {
        // Vanilla's failure keys have no `commands.` prefix.
        throw new CommandError(players.length === 1
          ? translatable('clear.failed.single', [players[0]!.username])
          : translatable('clear.failed.multiple', [players.length]));
      }
      const testOnly = maxCount === 0;
      const key = `commands.clear.${testOnly ? 'test' : 'success'}.${players.length === 1 ? 'single' : 'multiple'}`;
      sendFeedback(serv, ctx.player, translatable(key, [total, players.length === 1 ? players[0]!.username : players.length]));
    }),
  });
}
