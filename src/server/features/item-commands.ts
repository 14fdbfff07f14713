/**
 * Item commands as vanilla Java 1.21 (Minecraft wiki "Commands/give", "Commands/clear",
 * "Commands/item"):
 * - `/give <targets> <item> [count]`: numeric counts, stack sizes, vanilla's `Inventory.add` order;
 * - `/clear [targets] [item] [maxCount]`: everything, one item, a number of it, or (0) a count;
 * - `/item replace block <pos> container.<n> with <item> [<count>]` sets a container slot, and
 *   `/item replace entity <targets> <slot> with <item> [<count>]` a player's inventory slot.
 * Item facts (ids, stack sizes) come from minecraft-data.
 */
import type { SquidPlayer, SquidServer } from '../types.ts';
import { blockEntityAt } from '../services/block-entities.ts';
import { setBlockEntitySlot } from '../services/block-entity-nbt.ts';
import {
  callerWorld,
  commandAction,
  CommandError,
  itemLabel,
  newStack,
  parseBlockPos,
  parseInteger,
  parseItem,
  playerWindowSlot,
  requirePlayer,
  usageError,
  type ItemInfo,
} from '../services/command-arguments.ts';
import { giveItems } from '../services/inventory.ts';
import { countOf } from '../services/items.ts';
import { displayName, resolvePlayers } from '../services/selectors.ts';
import { sendFeedback, translatable } from '../services/text.ts';

/** Most items vanilla `/give` hands out in one command (100 stacks — `commands.give.failed.toomanyitems`). */
const MAX_GIVE_STACKS = 100;

/**
 * Removes up to `maxCount` matching items from every slot of the player's inventory window
 * (crafting grid, armour, main, hotbar, offhand). `item` undefined matches everything;
 * `maxCount` -1 = no limit, 0 = only count (vanilla test mode).
 *
 * @returns the number of matching items found (maxCount 0) or removed.
 */
export function clearInventory(player: SquidPlayer, item: ItemInfo | undefined, maxCount: number): number {
  let total = 0;
  const slots = player.inventory.slots;
  for (let slot = 0; slot < slots.length; slot++) {
    const existing = slots[slot];
    if (!existing || (item && existing.type !== item.id)) continue;
    const count = countOf(existing);
    if (maxCount === 0) {
      total += count;
      continue;
    }
    const take = maxCount < 0 ? count : Math.min(count, maxCount - total);
    if (take <= 0) break;
    total += take;
    if (take === count) player.inventory.updateSlot(slot, null);
    else {
      existing.count = count - take;
      player.inventory.updateSlot(slot, existing);
    }
  }
  return total;
}

/** Registers `/give`, `/clear` and `/item` (all op only, as in vanilla). */
export function installItemCommands(serv: SquidServer): void {
  const giveUsage = '/give <targets> <item> [count]';
  serv.commands.add({
    base: 'give',
    info: 'Gives an item to players',
    usage: giveUsage,
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [selector, itemToken, countToken] = args;
      if (!selector || !itemToken || args.length > 3) throw usageError(giveUsage);
      const players = resolvePlayers(serv, selector, ctx);
      const item = parseItem(serv, itemToken);
      const count = countToken === undefined ? 1 : parseInteger(countToken, 1, Number.MAX_SAFE_INTEGER);
      const limit = item.stackSize * MAX_GIVE_STACKS;
      if (count > limit) throw new CommandError(translatable('commands.give.failed.toomanyitems', [limit, item.name]));
      for (const player of players) giveItems(player, item.name, count);
      sendFeedback(
        serv,
        ctx,
        players.length === 1
          ? translatable('commands.give.success.single', [count, itemLabel(item), players[0]!.username])
          : translatable('commands.give.success.multiple', [count, itemLabel(item), players.length]),
      );
    }),
  });

  const clearUsage = '/clear [targets] [item] [maxCount]';
  serv.commands.add({
    base: 'clear',
    info: 'Clears items from player inventories',
    usage: clearUsage,
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [selector, itemToken, countToken] = args;
      if (args.length > 3) throw usageError(clearUsage);
      const players = selector === undefined ? [requirePlayer(ctx)] : resolvePlayers(serv, selector, ctx);
      const item = itemToken === undefined || itemToken === '*' ? undefined : parseItem(serv, itemToken);
      const maxCount = countToken === undefined ? -1 : parseInteger(countToken, 0, Number.MAX_SAFE_INTEGER);
      let total = 0;
      for (const player of players) total += clearInventory(player, item, maxCount);
      if (total === 0) {
        // Vanilla's failure keys have no `commands.` prefix.
        throw new CommandError(
          players.length === 1
            ? translatable('clear.failed.single', [players[0]!.username])
            : translatable('clear.failed.multiple', [players.length]),
        );
      }
      const testOnly = maxCount === 0;
      const key = `commands.clear.${testOnly ? 'test' : 'success'}.${players.length === 1 ? 'single' : 'multiple'}`;
      sendFeedback(serv, ctx, translatable(key, [total, players.length === 1 ? players[0]!.username : players.length]));
    }),
  });

  const itemUsage = '/item replace (block <pos>|entity <targets>) <slot> with <item> [<count>]';
  serv.commands.add({
    base: 'item',
    info: 'Replaces items in inventories',
    usage: itemUsage,
    op: true,
    action: commandAction(serv, async (args, ctx) => {
      if (args[0] !== 'replace') throw usageError(itemUsage);
      if (args[1] === 'block') {
        if (args.length < 8 || args.length > 9 || args[6] !== 'with') throw usageError(itemUsage);
        const position = parseBlockPos(args.slice(2, 5), ctx);
        const slotName = args[5]!;
        const slotMatch = /^container\.(\d+)$/.exec(slotName.replace(/^minecraft:/, ''));
        if (!slotMatch) throw new CommandError(translatable('slot.unknown', [slotName]));
        const info = parseItem(serv, args[7]!);
        const count = args[8] === undefined ? 1 : parseInteger(args[8], 1, info.stackSize);
        const entity = await blockEntityAt(serv, callerWorld(serv, ctx), position);
        if (!entity) throw new CommandError(translatable('commands.item.target.not_a_container', [position.x, position.y, position.z]));
        const slot = Number(slotMatch[1]);
        if (slot >= entity.slots.length) throw new CommandError(translatable('commands.item.target.no_such_slot', [slot]));
        setBlockEntitySlot(serv, entity, slot, info.name === 'air' ? null : newStack(serv, info, count));
        sendFeedback(serv, ctx, translatable('commands.item.block.set.success', [position.x, position.y, position.z, itemLabel(info)]));
        return;
      }
      if (args[1] === 'entity') {
        if (args.length < 6 || args.length > 7 || args[4] !== 'with') throw usageError(itemUsage);
        const players = resolvePlayers(serv, args[2]!, ctx);
        const info = parseItem(serv, args[5]!);
        const count = args[6] === undefined ? 1 : parseInteger(args[6], 1, info.stackSize);
        const slots = players.map((player) => playerWindowSlot(args[3]!, player.heldItemSlot ?? 0));
        if (slots.some((slot) => slot === undefined)) throw new CommandError(translatable('commands.item.target.no_such_slot', [args[3]!]));
        players.forEach((player, i) => player.inventory.updateSlot(slots[i]!, info.name === 'air' ? null : newStack(serv, info, count)));
        sendFeedback(
          serv,
          ctx,
          players.length === 1
            ? translatable('commands.item.entity.set.success.single', [displayName(players[0]!), itemLabel(info)])
            : translatable('commands.item.entity.set.success.multiple', [players.length, itemLabel(info)]),
        );
        return;
      }
      throw usageError(itemUsage);
    }),
  });
}
