/** Furnaces, smokers and blast furnaces: smelting items and emptying them. */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { sleep, throwIfAborted } from '../util/abort.ts';
import { FURNACE_KINDS, fuelsByPreference, smeltingTableFor, type CookingRecipe } from '../game/smelting.ts';
import { inventoryCounts } from './items.ts';
import { formatCounts, type Counts } from '../game/production.ts';
import { formatPos } from './navigation.ts';
import { placeNearby } from './place.ts';
import { nearestBlockOf, playerCounts, walkToBlock, WINDOW_USE_MS, withWindow } from './containers.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';

/** How far `!smeltItem` and `!clearFurnace` look for a furnace-like block (blocks). */
export const FURNACE_SEARCH_RANGE = 32;
/** Furnace-like blocks, most specialised first: smokers cook food, blast furnaces ores and metal, twice as fast. */
export const FURNACE_BLOCKS: readonly string[] = ['smoker', 'blast_furnace', 'furnace'];
const TICK_MS = 50;
/** Slack on the expected cook time before giving up waiting (factor and fixed ms). */
const WAIT_FACTOR = 1.5;
const WAIT_SLACK_MS = 5_000;

/** One way to cook an item: the block to use and its recipe. */
export interface CookingOption {
  block: string;
  recipe: CookingRecipe;
  /** Fuel burns this many times faster than in a furnace (2 in smokers and blast furnaces). */
  burnDivisor: number;
}

/** The blocks that can cook `itemName`, preferred first (smoker for food, blast furnace for ores and metal, then furnace). */
export function cookingOptions(bot: Bot, itemName: string): CookingOption[] {
  const id = bot.registry.itemsByName[itemName]?.id;
  if (id === undefined) return [];
  const table = smeltingTableFor(bot.registry);
  return FURNACE_BLOCKS.flatMap((block) => {
    const kind = FURNACE_KINDS[block]!;
    const recipe = table.recipes[kind.type].get(id);
    return recipe ? [{ block, recipe, burnDivisor: kind.burnDivisor }] : [];
  });
}

/**
 * The best fuel in the inventory for cooking `itemName`, in the bots' order of fuels
 * (`fuelsByPreference`: stackable, the longest burning, the older item first); never the item being
 * cooked.
 */
export function bestFuel(bot: Bot, itemName: string): { name: string; id: number; burnTicks: number } | undefined {
  const held = new Set(bot.inventory.items().map((i) => i.type));
  const fuel = fuelsByPreference(bot.registry).find((f) => f.name !== itemName && held.has(f.id));
  return fuel && { name: fuel.name, id: fuel.id, burnTicks: fuel.burnTicks };
}

/** Finds a block of the preferred kind within range, else places one the bot holds. */
async function furnaceFor(
  bot: Bot,
  options: CookingOption[],
  signal: AbortSignal,
): Promise<{ block: Block; option: CookingOption; placed: boolean }> {
  for (const option of options) {
    const block = nearestBlockOf(bot, [option.block], FURNACE_SEARCH_RANGE);
    if (block) return { block, option, placed: false };
  }
  const held = inventoryCounts(bot);
  for (const option of options) {
    if (held[option.block]) return { block: await placeNearby(bot, option.block, signal), option, placed: true };
  }
  const names = options.map((o) => o.block).join(' or ');
  throw new SkillError(
    'not_found',
    `No ${names} within ${FURNACE_SEARCH_RANGE} blocks and you have none to place: craft a furnace from 8 cobblestone.`,
    {
      sought: { kind: 'block', name: 'furnace', range: FURNACE_SEARCH_RANGE },
    },
  );
}

/**
 * Smelts (or cooks) `count` of `itemName`: uses the best block for it within
 * {@link FURNACE_SEARCH_RANGE} blocks (a smoker for food, a blast furnace for ores and metal,
 * else a furnace), or places one from the inventory; adds enough of the best fuel the bot has,
 * puts the items in, waits for the results (bounded by the cook time) and takes them out.
 * Items left uncooked (no more fuel, or the wait ran out) are taken back.
 *
 * @returns what was cooked, with which fuel, and what is left: `ok` with `data.gained` (the
 *   results) and `data.spent` (the items and the fuel put in); `partial` when fewer than `count`
 *   were cooked (fewer held, the fuel or the wait ran out).
 * @throws SkillError `invalid` when the item cannot be smelted, `missing_items` when the bot has
 *   none (`data.missing` the item) or no fuel (`data.missing`: `{ coal: 1 }`, the usual fuel),
 *   `not_found` (`data.sought` `{ kind: 'block', name: 'furnace' }`) when no furnace-like block is
 *   in range or held, `unreachable` when it cannot be reached, `failed` when the block is busy
 *   with another item; AbortError on cancel (the window is closed).
 */
export async function smeltItem(bot: Bot, itemName: string, count: number, signal: AbortSignal): Promise<Outcome> {
  const options = cookingOptions(bot, itemName);
  if (options.length === 0) throw new SkillError('invalid', `${itemName} cannot be smelted or cooked.`);
  const have = inventoryCounts(bot)[itemName] ?? 0;
  if (have === 0) throw new SkillError('missing_items', `You have no ${itemName}.`, { missing: { [itemName]: count } });
  const n = Math.min(count, have);
  const itemId = bot.registry.itemsByName[itemName]!.id;
  const resultName = bot.registry.items[options[0]!.recipe.result]!.name;

  const { block, option, placed } = await furnaceFor(bot, options, signal);
  await walkToBlock(bot, block, signal);
  const where = `${placed ? 'placed ' : ''}${option.block} at ${formatPos(block.position, 0)}`;
  const perItemTicks = option.recipe.cookingTime;
  const waitMs = n * perItemTicks * TICK_MS * WAIT_FACTOR + WAIT_SLACK_MS;
  return withWindow(
    bot,
    bot.openFurnace(block),
    signal,
    async (furnace, signal) => {
      const notes: string[] = [];
      const input = furnace.inputItem();
      if (input && input.type !== itemId)
        throw new Error(`The ${where} is busy cooking ${input.count} ${input.name}; use !clearFurnace first.`);
      const output = furnace.outputItem();
      if (output && output.type !== option.recipe.result) {
        notes.push(`Took out ${output.count} ${output.name} that was in it.`);
        await furnace.takeOutput();
      }

      // Fuel: enough burn time for every item, counting fuel already in the slot.
      const neededTicks = n * perItemTicks;
      const inSlot = furnace.fuelItem();
      const fuels = smeltingTableFor(bot.registry).fuels;
      const slotTicks = inSlot ? ((fuels.get(inSlot.type)?.burnTicks ?? 0) / option.burnDivisor) * inSlot.count : 0;
      let fuelUsed = '';
      const spent: Record<string, number> = {};
      if (slotTicks < neededTicks) {
        const fuel = inSlot
          ? { name: inSlot.name, id: inSlot.type, burnTicks: fuels.get(inSlot.type)?.burnTicks ?? 0 }
          : bestFuel(bot, itemName);
        const available = fuel ? (playerCounts(furnace)[fuel.name] ?? 0) - (fuel.name === itemName ? n : 0) : 0;
        if (!fuel || available <= 0) {
          if (!inSlot)
            throw new SkillError('missing_items', `You have no fuel to smelt ${itemName}: get coal, charcoal or wood.`, {
              missing: { coal: 1 },
            });
          notes.push('The fuel in it may not last.');
        } else {
          const want = Math.ceil((neededTicks - slotTicks) / (fuel.burnTicks / option.burnDivisor));
          const put = Math.min(want, available);
          await furnace.putFuel(fuel.id, null, put);
          fuelUsed = ` using ${put} ${fuel.name}`;
          spent[fuel.name] = put;
          if (put < want) notes.push(`You only had ${put} ${fuel.name}; it may not be enough.`);
        }
      }

      await furnace.putInput(itemId, null, n);
      // Waits for each result, bounded by the cook time; takes results out as they come.
      const started = Date.now();
      const deadline = started + waitMs;
      let taken = 0;
      let lastChange = Date.now();
      let lastInput = n;
      while (taken < n) {
        throwIfAborted(signal);
        const out = furnace.outputItem();
        if (out && out.type === option.recipe.result) {
          const c = out.count;
          await furnace.takeOutput();
          taken += c;
          lastChange = Date.now();
          continue;
        }
        const left = furnace.inputItem()?.count ?? 0;
        if (left !== lastInput) {
          lastInput = left;
          lastChange = Date.now();
        }
        if (left === 0 && !out) break;
        const outOfFuel = !furnace.fuelItem() && Date.now() - lastChange > perItemTicks * TICK_MS + 2_000;
        if (outOfFuel) {
          notes.push('It ran out of fuel.');
          break;
        }
        if (Date.now() > deadline) {
          notes.push(`Gave up waiting after ${Math.round((Date.now() - started) / 1000)} s.`);
          break;
        }
        await sleep(250, signal);
      }
      const leftover = furnace.inputItem();
      if (leftover && leftover.type === itemId) {
        notes.push(`Took back ${leftover.count} uncooked ${itemName}.`);
        await furnace.takeInput();
      }
      const now = playerCounts(furnace)[resultName] ?? 0;
      const verb = option.block === 'smoker' ? 'Cooked' : 'Smelted';
      const text = [
        `${verb} ${taken} ${itemName} into ${resultName} in the ${where}${fuelUsed}; you now have ${now} ${resultName}.`,
        ...notes,
      ].join(' ');
      // Each item cooks into one result (vanilla furnace recipes): what came out is what went in for good.
      spent[itemName] = (spent[itemName] ?? 0) + taken;
      const data = { gained: { [resultName]: taken }, spent };
      return taken < count ? failure('partial', text, data) : done(text, data);
    },
    waitMs + WINDOW_USE_MS,
  );
}

/**
 * Takes everything out of the nearest furnace, smoker or blast furnace within
 * {@link FURNACE_SEARCH_RANGE} blocks: input, fuel and results.
 *
 * @returns `ok` with `data.gained` (what it took out).
 * @throws SkillError `not_found` (`data.sought` a furnace) when none is in range, `unreachable`
 *   when it cannot be reached; AbortError on cancel.
 */
export async function clearFurnace(bot: Bot, signal: AbortSignal): Promise<Outcome> {
  const block = nearestBlockOf(bot, FURNACE_BLOCKS, FURNACE_SEARCH_RANGE);
  if (!block)
    throw new SkillError('not_found', `No furnace, smoker or blast furnace within ${FURNACE_SEARCH_RANGE} blocks.`, {
      sought: { kind: 'block', name: 'furnace', range: FURNACE_SEARCH_RANGE },
    });
  await walkToBlock(bot, block, signal);
  return withWindow(bot, bot.openFurnace(block), signal, async (furnace, signal) => {
    const took: Counts = {};
    const take = async (item: { name: string; count: number } | null, how: () => Promise<unknown>): Promise<void> => {
      if (!item) return;
      throwIfAborted(signal);
      took[item.name] = (took[item.name] ?? 0) + item.count;
      await how();
    };
    await take(furnace.outputItem(), () => furnace.takeOutput());
    await take(furnace.inputItem(), () => furnace.takeInput());
    await take(furnace.fuelItem(), () => furnace.takeFuel());
    const what = formatCounts(took);
    return done(
      what
        ? `Took ${what} out of the ${block.name} at ${formatPos(block.position, 0)}.`
        : `The ${block.name} at ${formatPos(block.position, 0)} is empty.`,
      { gained: took },
    );
  });
}
