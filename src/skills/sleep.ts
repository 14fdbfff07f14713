/** Sleeping in a bed. */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { abortable, waitFor } from '../util/abort.ts';
import { formatPos } from './navigation.ts';
import { nearestBlockOf, walkToBlock } from './containers.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';

/** How far `!goToBed` looks for a bed (blocks). */
export const BED_SEARCH_RANGE = 32;
/** Longest wait in bed (ms): a whole night is about 9 minutes at 20 ticks per second. */
export const MAX_SLEEP_MS = 10 * 60_000;

/** First tick of the night in which beds can be used (mineflayer's check). */
const NIGHT_START = 12541;

/** Every bed block of the bot's version: the names ending in `_bed` (never `bedrock`). */
export function bedNames(bot: Bot): string[] {
  return bot.registry.blocksArray.map((b) => b.name).filter((n) => n.endsWith('_bed'));
}

/**
 * Walks to the nearest bed within {@link BED_SEARCH_RANGE} blocks, lies down, and waits until
 * the server wakes the bot (morning), the bound of {@link MAX_SLEEP_MS}, or `signal` (then it
 * gets up).
 *
 * @returns where it slept and the time it woke (`ok`, `data.position` the bed); `partial` when the
 *   night did not end within {@link MAX_SLEEP_MS}; `failed` when it could not lie down (mineflayer's
 *   reason: not night, the bed taken).
 * @throws SkillError `not_found` (`data.sought`) when no bed is in range, `unreachable` when the
 *   walk there fails; AbortError on cancel.
 */
export async function goToBed(bot: Bot, signal: AbortSignal): Promise<Outcome> {
  const bed = nearestBlockOf(bot, bedNames(bot), BED_SEARCH_RANGE);
  if (!bed)
    throw new SkillError('not_found', `No bed within ${BED_SEARCH_RANGE} blocks.`, {
      sought: { kind: 'block', name: 'bed', range: BED_SEARCH_RANGE },
    });
  await walkToBlock(bot, bed, signal);
  const where = `the ${bed.name} at ${formatPos(bed.position, 0)}`;
  let onWake = (): void => {};
  const awake = new Promise<'morning'>((resolve) => {
    onWake = () => resolve('morning');
  });
  bot.once('wake', onWake);
  try {
    return await sleepUntilWoken(bot, bed, where, awake, signal);
  } catch (err) {
    // Cancelled, possibly while lying down (before the client knows it sleeps): get up.
    if (signal.aborted) getUp(bot);
    throw err;
  } finally {
    bot.removeListener('wake', onWake);
  }
}

/** Leaves the bed (vanilla "stop sleeping"); harmless when the bot is not in one. */
function getUp(bot: Bot): void {
  if (bot.isSleeping) {
    void bot.wake().catch(() => {});
    return;
  }
  bot._client.write('entity_action', { entityId: bot.entity.id, actionId: 2, jumpBoost: 0 });
}

async function sleepUntilWoken(bot: Bot, bed: Block, where: string, awake: Promise<'morning'>, signal: AbortSignal): Promise<Outcome> {
  const position = { x: bed.position.x, y: bed.position.y, z: bed.position.z };
  try {
    await abortable(bot.sleep(bot.blockAt(bed.position) ?? bed), signal);
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    return failure('failed', `You could not sleep in ${where}: ${(err as Error).message}.`, { position });
  }
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), MAX_SLEEP_MS);
  });
  try {
    const how = await abortable(Promise.race([awake, bound]), signal);
    if (how === 'timeout') {
      if (bot.isSleeping) await bot.wake().catch(() => {});
      return failure(
        'partial',
        `Slept in ${where} but the night did not end within ${MAX_SLEEP_MS / 60_000} minutes (others may be awake); got up.`,
        { position },
      );
    }
    // The time update may follow the wake-up animation: give it a moment.
    await waitFor(() => bot.time.timeOfDay < NIGHT_START, 1_000, signal);
    return done(`Slept in ${where}; woke up at time of day ${bot.time.timeOfDay}.`, { position });
  } finally {
    clearTimeout(timer);
  }
}
