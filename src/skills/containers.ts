/** Chests and barrels: put items in, take items out, list what is inside. */
import type { Bot, Chest } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Window } from 'prismarine-windows';
import { abortable, isAbortError, throwIfAborted } from '../util/abort.ts';
import { formatCounts, type Counts } from '../game/production.ts';
import { inventoryCounts } from './items.ts';
import { boundedWalk, goWithinReach } from './movement.ts';
import { formatPos } from './navigation.ts';
import { roundTrip } from './round-trip.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';

/** How far the container commands look for a chest (blocks), as in the reference. */
export const CHEST_SEARCH_RANGE = 32;
/** Blocks the container commands use. */
export const CHEST_BLOCKS: readonly string[] = ['chest', 'trapped_chest', 'barrel'];

/** The nearest block of one of `names` within `range` blocks, if any. */
export function nearestBlockOf(bot: Bot, names: readonly string[], range: number): Block | null {
  const ids = names.map((n) => bot.registry.blocksByName[n]?.id).filter((id): id is number => id !== undefined);
  return bot.findBlock({ matching: ids, maxDistance: range });
}

/** The most a walk to a container may take (ms): they are looked for within 32 blocks, a walk of about 8 s. */
export const WALK_TO_BLOCK_MS = 30_000;

/**
 * Walks until `block` is within reach (`goWithinReach`; no-op when it already is).
 *
 * @param limitMs the most the walk may take ({@link WALK_TO_BLOCK_MS} by default).
 * @throws SkillError `unreachable` (`data.position` the block) when no path is found, or the bot
 *   is not there within `limitMs` (the pathfinder can go on replanning without end); AbortError on
 *   cancel.
 */
export async function walkToBlock(bot: Bot, block: Block, signal: AbortSignal, limitMs = WALK_TO_BLOCK_MS): Promise<void> {
  const p = block.position;
  await boundedWalk(signal, limitMs, `the ${block.name} at ${formatPos(p, 0)}`, (bound) => goWithinReach(bot, p, bound), {
    position: { x: p.x, y: p.y, z: p.z },
  });
}

/** How long a container's window may take to open once the bot uses the block (ms); a server answers within a tick or two. */
export const OPEN_TIMEOUT_MS = 5_000;
/** How long the work in an open window may take by default (ms): moving stacks takes a few round trips. */
export const WINDOW_USE_MS = 30_000;

/**
 * Opens a window (`open`: mineflayer's `openContainer`/`openFurnace` on a block) and runs `use`
 * with it, bounded by `useMs`; the window is closed afterwards, also when `use` throws, runs out
 * of time or `signal` aborts. mineflayer waits for the server without end (the window, a slot's
 * update after a click): without these bounds a server that ignores the bot hangs the command.
 *
 * @param use the work; its signal aborts on `signal` and when `useMs` has passed.
 * @throws SkillError `refused_by_server` when the window has not opened within
 *   {@link OPEN_TIMEOUT_MS} (a window that opens after that is closed at once); Error when `use`
 *   has not ended within `useMs`. AbortError when `signal` aborts.
 */
export async function withWindow<W extends Window, T>(
  bot: Bot,
  open: Promise<W>,
  signal: AbortSignal,
  use: (w: W, signal: AbortSignal) => Promise<T>,
  useMs = WINDOW_USE_MS,
): Promise<T> {
  let window: W;
  try {
    window = await abortable(open, AbortSignal.any([signal, AbortSignal.timeout(OPEN_TIMEOUT_MS)]), () => {
      void open.then(
        (late) => bot.closeWindow(late),
        () => {},
      );
    });
  } catch (err) {
    throwIfAborted(signal);
    if (!isAbortError(err)) throw err;
    throw new SkillError(
      'refused_by_server',
      `The window did not open within ${OPEN_TIMEOUT_MS / 1000} s: the server did not answer the use of the block. Try again from closer.`,
    );
  }
  const bound = AbortSignal.any([signal, AbortSignal.timeout(useMs)]);
  try {
    throwIfAborted(signal);
    return await abortable(use(window, bound), bound);
  } catch (err) {
    throwIfAborted(signal);
    if (bound.aborted && isAbortError(err))
      throw new Error(`The window stopped answering: the work in it was not done within ${Math.round(useMs / 1000)} s. Try again.`);
    throw err;
  } finally {
    if (bot.currentWindow === window) void bot.closeWindow(window); // closed at once; the returned promise never rejects (mineflayer catches its click)
  }
}

/** Counts of the items in a container window's own slots (not the player's inventory part). */
export function containerCounts(window: Window): Counts {
  const counts: Counts = {};
  for (const item of window.containerItems()) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  return counts;
}

/** Counts of the player's inventory part of an open window (`bot.inventory` lags while a window is open). */
export function playerCounts(window: Window): Counts {
  const counts: Counts = {};
  for (const item of window.items()) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  return counts;
}

async function openNearestChest(bot: Bot, signal: AbortSignal): Promise<Block> {
  const block = nearestBlockOf(bot, CHEST_BLOCKS, CHEST_SEARCH_RANGE);
  if (!block)
    throw new SkillError('not_found', `No chest within ${CHEST_SEARCH_RANGE} blocks.`, {
      sought: { kind: 'container', name: 'chest', range: CHEST_SEARCH_RANGE },
    });
  await walkToBlock(bot, block, signal);
  return block;
}

/**
 * Moves items between the open window's player part and its container part, one stack at a
 * time, until `count` moved or the destination is full.
 *
 * @returns how many moved, as the server has it (read after a {@link roundTrip}).
 */
async function moveItems(
  bot: Bot,
  window: Chest,
  itemName: string,
  itemId: number,
  count: number,
  direction: 'deposit' | 'withdraw',
  signal: AbortSignal,
): Promise<number> {
  const from = direction === 'deposit' ? playerCounts : containerCounts;
  // Counted on the bot's side: others may use the same chest meanwhile.
  const held = () => playerCounts(window)[itemName] ?? 0;
  const start = held();
  const movedNow = () => (direction === 'withdraw' ? held() - start : start - held());
  const stackSize =
    window
      .items()
      .concat(window.containerItems())
      .find((i) => i.name === itemName)?.stackSize ?? 64;
  while (movedNow() < count) {
    throwIfAborted(signal);
    const before = movedNow();
    const chunk = Math.min(count - before, stackSize, from(window)[itemName] ?? 0);
    if (chunk <= 0) break;
    try {
      if (direction === 'deposit') await window.deposit(itemId, null, chunk);
      else await window.withdraw(itemId, null, chunk);
    } catch (err) {
      // mineflayer: 'destination full' / 'Unable to withdraw, Bot inventory is full.'
      if (!/full/i.test(String((err as Error).message))) throw err;
      break;
    }
    if (movedNow() === before) break; // nothing moved: no progress to repeat
  }
  // mineflayer's clicks resolve on its own prediction: the server's corrections (a slot another
  // player emptied a moment before) have come once it has answered a round trip.
  await roundTrip(bot, signal);
  return movedNow();
}

/**
 * Puts `count` of `itemName` (all of them when the bot has fewer) into the nearest chest or
 * barrel within {@link CHEST_SEARCH_RANGE} blocks, across as many stacks as needed.
 *
 * @returns how many went in and how many the chest now holds: `ok` with `data.spent`; `partial`
 *   when fewer than `count` went in (the chest filled up, or the bot had fewer).
 * @throws SkillError `invalid` when `itemName` is not an item, `missing_items` when the bot has
 *   none, `not_found` when no chest is in range, `unreachable` when it cannot be reached,
 *   `refused_by_server` when it does not open.
 */
export async function putInChest(bot: Bot, itemName: string, count: number, signal: AbortSignal): Promise<Outcome> {
  const item = bot.registry.itemsByName[itemName];
  if (!item) throw new SkillError('invalid', `${itemName} is not an item.`);
  const have = inventoryCounts(bot)[itemName] ?? 0;
  if (have === 0) throw new SkillError('missing_items', `You have no ${itemName}.`, { missing: { [itemName]: count } });
  const block = await openNearestChest(bot, signal);
  return withWindow(bot, bot.openContainer(block), signal, async (window, signal) => {
    const moved = await moveItems(bot, window, itemName, item.id, Math.min(count, have), 'deposit', signal);
    const inChest = containerCounts(window)[itemName] ?? 0;
    const full = moved < Math.min(count, have);
    const short = full ? ' The chest is full.' : count > have ? ` You only had ${have}.` : '';
    const text = `Put ${moved} ${itemName} in the ${block.name} at ${formatPos(block.position, 0)}; it now holds ${inChest}.${short}`;
    return moved < count ? failure('partial', text, { spent: { [itemName]: moved } }) : done(text, { spent: { [itemName]: moved } });
  });
}

/**
 * Takes `count` of `itemName` (all of them when the chest holds fewer) from the nearest chest or
 * barrel within {@link CHEST_SEARCH_RANGE} blocks.
 *
 * @returns how many were taken and how many the bot now has: `ok` with `data.gained`; `partial`
 *   when fewer than `count` were taken (the inventory filled up, or the chest had fewer); `not_found` (`data.sought` the item) when the chest has none.
 * @throws SkillError `invalid` when `itemName` is not an item, `not_found` when no chest is in
 *   range, `unreachable`, `refused_by_server` as {@link putInChest}.
 */
export async function takeFromChest(bot: Bot, itemName: string, count: number, signal: AbortSignal): Promise<Outcome> {
  const item = bot.registry.itemsByName[itemName];
  if (!item) throw new SkillError('invalid', `${itemName} is not an item.`);
  const block = await openNearestChest(bot, signal);
  return withWindow(bot, bot.openContainer(block), signal, async (window, signal) => {
    const inChest = containerCounts(window)[itemName] ?? 0;
    if (inChest === 0) {
      return failure(
        'not_found',
        `The ${block.name} at ${formatPos(block.position, 0)} has no ${itemName}. It holds: ${formatCounts(containerCounts(window)) || 'nothing'}.`,
        { sought: { kind: 'item', name: itemName } },
      );
    }
    const moved = await moveItems(bot, window, itemName, item.id, Math.min(count, inChest), 'withdraw', signal);
    const now = playerCounts(window)[itemName] ?? 0;
    const left = containerCounts(window)[itemName] ?? 0;
    const short =
      moved >= count
        ? ''
        : left > 0
          ? ' Your inventory is full.'
          : moved < inChest
            ? ` The chest had ${inChest} when opened; someone else took ${inChest - moved} meanwhile.`
            : ` The chest only had ${inChest}.`;
    const text = `Took ${moved} ${itemName} from the ${block.name} at ${formatPos(block.position, 0)}; you now have ${now}.${short}`;
    return moved < count ? failure('partial', text, { gained: { [itemName]: moved } }) : done(text, { gained: { [itemName]: moved } });
  });
}

/**
 * Lists the contents of the nearest chest or barrel within {@link CHEST_SEARCH_RANGE} blocks.
 *
 * @returns `ok`.
 * @throws SkillError `not_found`, `unreachable`, `refused_by_server` as {@link putInChest}.
 */
export async function viewChest(bot: Bot, signal: AbortSignal): Promise<Outcome> {
  const block = await openNearestChest(bot, signal);
  return withWindow(bot, bot.openContainer(block), signal, async (window) => {
    const contents = formatCounts(containerCounts(window));
    return done(`The ${block.name} at ${formatPos(block.position, 0)} ${contents ? `holds: ${contents}` : 'is empty'}.`);
  });
}
