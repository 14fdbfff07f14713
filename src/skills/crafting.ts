/** Crafting with mineflayer's own recipe API, at the 2x2 grid or at a crafting table. */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import pathfinderPkg from 'mineflayer-pathfinder';
import { abortable, sleep, waitFor } from '../util/abort.ts';
import { blockByName } from '../game/data.ts';
import { formatCounts } from '../game/production.ts';
import { planCrafting } from './crafting-plan.ts';
import { countChanges, inventoryCounts } from './items.ts';
import { goTo } from './movement.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';
import { placeNearby } from './place.ts';

const { goals } = pathfinderPkg;

/** How far the bot looks for a crafting table to use before placing its own (blocks). */
export const TABLE_SEARCH_RANGE = 32;

/** The nearest crafting table within {@link TABLE_SEARCH_RANGE}, if any. */
export function nearestCraftingTable(bot: Bot): Block | null {
  return bot.findBlock({ matching: blockByName(bot.registry, 'crafting_table').id, maxDistance: TABLE_SEARCH_RANGE });
}

/**
 * Crafts the recipe for `itemName` `times` times, as the reference's `!craftRecipe` does:
 * `craftRecipe(bot, 'oak_planks', 4, signal)` makes 16 planks from 4 logs. Uses a crafting table
 * within 32 blocks, or places one from the inventory when the recipe needs one. When the
 * ingredients run short it crafts as many times as they allow and says so.
 *
 * @param times crafts (each makes the recipe's output count), at least 1.
 * @returns a report of what was crafted: `ok` with `data.gained` (the item) and `data.spent` (the
 *   ingredients, and a crafting table it placed); `partial` when the ingredients ran out before
 *   `times` crafts; `refused_by_server` when the server crafted nothing. Or of what is missing and
 *   how to get it: `missing_items` with `data.missing` (the ingredients the bot lacks; when it holds
 *   what they are made from, the ingredients to craft first; `{ crafting_table: 1 }` when the recipe
 *   needs a table and none is within {@link TABLE_SEARCH_RANGE} blocks or held).
 * @throws SkillError `invalid` when `itemName` is not an item, `not_found` (`data.sought` the
 *   recipe) when it has no crafting recipe at all, `unreachable` (`data.position` the table) when
 *   the table in range cannot be reached.
 */
export async function craftRecipe(bot: Bot, itemName: string, times: number, signal: AbortSignal): Promise<Outcome> {
  return craft(bot, itemName, () => times, signal);
}

/**
 * Crafts at least `count` of `itemName` (rounded up to whole crafts: 5 sticks take 2 crafts and
 * make 8), otherwise as {@link craftRecipe}.
 *
 * @param count items wanted, at least 1.
 * @returns as {@link craftRecipe}.
 * @throws as {@link craftRecipe}.
 */
export async function craftItems(bot: Bot, itemName: string, count: number, signal: AbortSignal): Promise<Outcome> {
  return craft(bot, itemName, (perCraft) => Math.ceil(count / perCraft), signal);
}

/** Crafts `crafts(outputs per craft)` times. */
async function craft(bot: Bot, itemName: string, crafts: (perCraft: number) => number, signal: AbortSignal): Promise<Outcome> {
  const item = bot.registry.itemsByName[itemName];
  if (!item) throw new SkillError('invalid', `${itemName} is not an item.`);
  const all = bot.recipesAll(item.id, null, true);
  if (all.length === 0)
    throw new SkillError('not_found', `${itemName} has no crafting recipe; it must be found, mined or smelted.`, {
      sought: { kind: 'recipe', name: itemName },
    });
  const start = inventoryCounts(bot);

  let table: Block | null = null;
  let recipe = bot.recipesFor(item.id, null, 1, null)[0];
  if (!recipe) {
    table = nearestCraftingTable(bot);
    if (!table && bot.recipesFor(item.id, null, 1, true).length > 0) {
      if (!inventoryCounts(bot).crafting_table) {
        return failure(
          'missing_items',
          `Crafting ${itemName} needs a crafting table. None is within ${TABLE_SEARCH_RANGE} blocks and you have none: craft one from 4 planks, or ask for one.`,
          { missing: { crafting_table: 1 } },
        );
      }
      table = await placeNearby(bot, 'crafting_table', signal);
    }
    if (table) recipe = bot.recipesFor(item.id, null, 1, table)[0];
  }
  if (!recipe) {
    const wanted = crafts(all[0]!.result.count) * all[0]!.result.count;
    const plan = planCrafting(bot.registry, inventoryCounts(bot), itemName, wanted, {
      expand: 'targets',
      sources: { tableNearby: table !== null },
    });
    const missing = formatCounts(plan.missing);
    if (missing)
      return failure('missing_items', `You cannot craft ${itemName} yet: you are missing ${missing}.`, { missing: plan.missing });
    // Everything is held to make the ingredients: they are what is missing.
    const first: Record<string, number> = {};
    for (const s of plan.steps) if (s.item !== itemName) first[s.item] = (first[s.item] ?? 0) + s.count;
    return failure(
      'missing_items',
      `You cannot craft ${itemName} directly: craft its ingredients first (${plan.steps.map((s) => s.item).join(' -> ')}).`,
      { missing: first },
    );
  }
  if (table && bot.entity.position.distanceTo(table.position.offset(0.5, 0.5, 0.5)) > 3.5) {
    const { x, y, z } = table.position;
    await goTo(bot, new goals.GoalNear(x, y, z, 2), signal).catch((err: unknown) => {
      // The table in range that could not be reached: where it is.
      throw err instanceof SkillError && err.code === 'unreachable'
        ? new SkillError('unreachable', err.message, { position: { x, y, z } })
        : err;
    });
  }
  const perCraft = recipe.result.count;
  const wanted = Math.max(1, crafts(perCraft));
  // recipesFor(…, minResultCount) tells how many crafts the inventory allows.
  let times = wanted;
  while (times > 1 && !bot.recipesFor(item.id, null, times * perCraft, table)[0]) times--;
  const before = inventoryCounts(bot)[itemName] ?? 0;
  const closeOnAbort = () => {
    if (bot.currentWindow) void bot.closeWindow(bot.currentWindow); // closed at once; the returned promise never rejects (mineflayer catches its click)
  };
  if (table) {
    // mineflayer keeps the table's window open for all the crafts and confirms it with the server before closing it.
    await abortable(bot.craft(recipe, times, table), signal, closeOnAbort);
  } else {
    // The inventory's grid is not confirmed: mineflayer sends each craft's clicks without waiting,
    // and under load the server's copy of the inventory for an earlier click lands in the middle
    // of the next craft's clicks (seen: the second of two crafts made nothing). One craft at a
    // time, each confirmed by the server's copy of the inventory.
    for (let i = 0; i < times; i++) {
      await abortable(bot.craft(recipe, 1), signal, closeOnAbort);
      await abortable(syncInventory(bot), signal);
    }
  }
  // What the crafts make, once the model has it (bounded); a server that made less is reported as it is.
  const expected = before + times * perCraft;
  await waitFor(() => (inventoryCounts(bot)[itemName] ?? 0) >= expected, SYNC_MS, signal);
  const after = inventoryCounts(bot)[itemName] ?? 0;
  const made = after - before;
  const short = times < wanted ? ` Ingredients ran out: that is ${times} of the ${wanted} crafts asked for.` : '';
  const text = `Crafted ${made} ${itemName} (${times} craft${times === 1 ? '' : 's'}); you now have ${after}.${short}`;
  const data = countChanges(start, inventoryCounts(bot));
  if (made <= 0) return failure('refused_by_server', text, data);
  return times < wanted ? failure('partial', text, data) : done(text, data);
}

/**
 * Asks the server for its copy of the inventory (mineflayer's `_syncWindow`: a click the server
 * answers with every slot) and resolves once it is in, at most {@link SYNC_MS} later.
 */
async function syncInventory(bot: Bot): Promise<void> {
  const sync = (bot as Bot & { _syncWindow?: (window: unknown) => Promise<void> })._syncWindow;
  if (sync) await Promise.race([sync(bot.inventory), sleep(SYNC_MS)]);
}

/** The longest a crafted inventory waits for the server's copy (ms). */
const SYNC_MS = 2_000;
