/**
 * Sowing: planting a crop's seed item (wheat_seeds, carrot, potato, beetroot_seeds, ...) on
 * farmland, as a player does: seed in hand, use it on the farmland's top face. Which crop an item
 * plants comes from minecraft-data (`../game/crops.ts`).
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';
import { cropPlantedBy, seedItems } from '../game/crops.ts';
import { abortable, throwIfAborted, waitFor } from '../util/abort.ts';
import { inventoryCounts, requireItem } from './items.ts';
import { goWithinReach } from './movement.ts';
import { formatPos } from './navigation.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';

/** How far {@link sow} looks for farmland (blocks). */
export const SOW_RANGE = 32;
/** How long the crop and the spent seed may take to show in the bot's world and inventory (ms). */
const CONFIRM_MS = 2_000;
/** Farmland blocks looked at, nearest first. */
const CANDIDATES = 256;

const AIR = new Set(['air', 'cave_air', 'void_air']);
const UP = new Vec3(0, 1, 0);

/** Farmland within {@link SOW_RANGE} of the bot, nearest first. */
function farmlandNear(bot: Bot): Block[] {
  const id = bot.registry.blocksByName.farmland?.id;
  if (id === undefined) return [];
  const here = bot.entity.position;
  return bot
    .findBlocks({ matching: id, maxDistance: SOW_RANGE, count: CANDIDATES })
    .sort((a, b) => a.distanceTo(here) - b.distanceTo(here))
    .map((p) => bot.blockAt(p))
    .filter((b): b is Block => !!b);
}

/** Whether a crop can be sown on `farmland`: air above it. */
function free(bot: Bot, farmland: Block): boolean {
  const above = bot.blockAt(farmland.position.plus(UP));
  return !!above && AIR.has(above.name);
}

/** The error for sowing `seed` where no farmland with air above is in range, naming the nearest farmland. */
function needsFarmland(bot: Bot, seed: string): SkillError {
  const [nearest] = farmlandNear(bot);
  const where = nearest
    ? `the nearest farmland is at ${formatPos(nearest.position, 0)}, under ${bot.blockAt(nearest.position.plus(UP))?.name ?? 'something'}`
    : `there is no farmland within ${SOW_RANGE} blocks (a hoe turns dirt or grass into farmland)`;
  return new SkillError('not_found', `${seed} needs farmland with air above; ${where}.`, {
    sought: { kind: 'block', name: 'farmland', range: SOW_RANGE },
  });
}

/** Sows one `seed` on `farmland` (air above), walking into reach first; returns the crop cell. */
async function sowOn(bot: Bot, farmland: Block, seed: string, crop: string, signal: AbortSignal): Promise<Vec3> {
  const cell = farmland.position.plus(UP);
  await goWithinReach(bot, cell, signal);
  const ground = bot.blockAt(farmland.position);
  if (ground?.name !== 'farmland' || !free(bot, ground))
    throw new Error(`The farmland at ${formatPos(farmland.position, 0)} changed while walking there.`);
  const before = inventoryCounts(bot)[seed] ?? 0;
  await abortable(bot.equip(requireItem(bot, seed), 'hand'), signal);
  await abortable(bot.placeBlock(ground, UP), signal).catch(async (err: unknown) => {
    // mineflayer rejects when the block update is late; the crop may still be there.
    throwIfAborted(signal);
    if (!(await waitFor(() => bot.blockAt(cell)?.name === crop, CONFIRM_MS, signal)))
      throw new SkillError('refused_by_server', err instanceof Error ? err.message : String(err), {
        position: { x: cell.x, y: cell.y, z: cell.z },
      });
  });
  const placed = bot.blockAt(cell)?.name;
  if (placed !== crop)
    throw new SkillError('refused_by_server', `Sowing ${seed} at ${formatPos(cell, 0)} failed (there is ${placed ?? 'nothing'}).`, {
      position: { x: cell.x, y: cell.y, z: cell.z },
    });
  // The server takes the seed from the hand; its slot update follows the block update.
  await waitFor(() => (inventoryCounts(bot)[seed] ?? 0) < before, CONFIRM_MS, signal);
  return cell;
}

/**
 * Sows up to `count` of the seed item `seed` (`wheat_seeds`, `carrot`, `potato`,
 * `beetroot_seeds`, ...) on the nearest farmland with air above within {@link SOW_RANGE} blocks,
 * one farmland block each, walking into reach of each. The crop it plants (`wheat`, `carrots`,
 * ...) is minecraft-data's (`cropPlantedBy`); vanilla plants it only on farmland.
 *
 * @returns `Sowed 2 wheat_seeds: wheat at (3, -60, 4), (4, -60, 4).` (`ok`, `data.spent` the
 *   seeds), plus why it stopped when it sowed fewer than `count` (`partial`: no more seeds, no
 *   more free farmland, a failed placement).
 * @throws SkillError `invalid` when `seed` plants no crop, `missing_items` when the bot has none,
 *   `not_found` (`data.sought` farmland) when no farmland with air above is in range
 *   (`wheat_seeds needs farmland with air above; the nearest farmland is at (x, y, z), under
 *   wheat.`), or the first sowing's failure (`unreachable`, `refused_by_server`); AbortError on
 *   cancel.
 */
export async function sow(bot: Bot, seed: string, count: number, signal: AbortSignal): Promise<Outcome> {
  const crop = cropPlantedBy(bot.registry, seed);
  if (!crop) throw new SkillError('invalid', `${seed} plants no crop on farmland. Seeds that do: ${seedItems(bot.registry).join(', ')}.`);
  requireItem(bot, seed, count);
  const sown: Vec3[] = [];
  let stopped = '';
  while (sown.length < count) {
    throwIfAborted(signal);
    if (!(inventoryCounts(bot)[seed] ?? 0)) {
      stopped = `you have no more ${seed}`;
      break;
    }
    const target = farmlandNear(bot).find((b) => free(bot, b));
    if (!target) {
      if (sown.length === 0) throw needsFarmland(bot, seed);
      stopped = `no more farmland with air above within ${SOW_RANGE} blocks`;
      break;
    }
    try {
      sown.push(await sowOn(bot, target, seed, crop, signal));
    } catch (err) {
      if (sown.length === 0 || signal.aborted) throw err;
      stopped = err instanceof Error ? err.message.replace(/\.$/, '') : String(err);
      break;
    }
  }
  const text = `Sowed ${sown.length} ${seed}: ${crop} at ${sown.map((p) => formatPos(p, 0)).join(', ')}.`;
  const data = { spent: { [seed]: sown.length } };
  return stopped ? failure('partial', `${text} Stopped: ${stopped}.`, data) : done(text, data);
}
