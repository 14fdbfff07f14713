/**
 * Using a held item, or the empty hand, on the nearest thing of a type (the reference's
 * `!useOn(tool_name, target)`), and climbing back to the surface (`!goToSurface`).
 *
 * A use is what a player's right click does (vanilla `Item.use` / `useOn`, `Block.useItemOn`,
 * `Mob.mobInteract`): on a mob (milk a cow, shear a sheep), on a block (flip a lever, fill a
 * cauldron from a bucket, till dirt with a hoe), on a fluid (a bucket takes a water or lava
 * source), or on nothing (drink a milk bucket, empty a water bucket where the bot looks). Buckets
 * are used the way the game's client uses them on anything but a cauldron: by looking at the
 * target and using the item (the server traces the look), not by clicking the block.
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import pathfinderPkg from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { abortable, throwIfAborted, waitFor } from '../util/abort.ts';
import { countChanges, diffCounts, inventoryCounts, requireItem } from './items.ts';
import { goTo, REACH } from './movement.ts';
import { formatPos } from './navigation.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';
import { useItemOnEntity } from './use-items.ts';
import { normaliseName } from '../game/names.ts';

const { goals } = pathfinderPkg;

/** How far `!useOn` looks for its target, in blocks (the reference looks 64 blocks for blocks and mobs). */
export const USE_ON_RANGE = 64;
/** How long the server has to answer a use (a changed block or inventory), in ms: drinking takes 32 ticks. */
const ANSWER_MS = 3_000;
/** Fluids, whose targets are their still sources (a flowing block cannot be taken in a bucket). */
const FLUIDS = new Set(['water', 'lava']);
/** Items used by looking (the server traces the look), not by clicking a block (vanilla `BucketItem`). */
const LOOK_USED = new Set(['bucket', 'water_bucket', 'lava_bucket', 'powder_snow_bucket']);
/** Blocks a bucket is used on by a click (vanilla `CauldronInteraction`). */
const CLICKED_WITH_BUCKETS = new Set(['cauldron', 'water_cauldron', 'lava_cauldron', 'powder_snow_cauldron']);

/**
 * Uses `toolName` (an item the bot has, or `hand`) on the nearest `target` within
 * {@link USE_ON_RANGE} blocks: a mob type, a block type (`water` and `lava`: their sources), or
 * `nothing` (the item is used where the bot looks).
 *
 * @returns `ok` with what changed (`data.gained`, `data.spent`, `data.position` of a block
 *   target); `refused_by_server` when nothing changed.
 * @throws SkillError `invalid` for a target that is no block, mob or `nothing`; `missing_items`
 *   without the tool; `unreachable`. A target not in range is a `not_found` outcome (`data.sought`).
 */
export async function useOn(bot: Bot, toolName: string, target: string, signal: AbortSignal): Promise<Outcome> {
  const tool = normaliseName(toolName);
  const hand = tool === 'hand' || tool === 'air' || tool === 'nothing';
  const what = normaliseName(target);
  if (bot.registry.entitiesByName[what] && !bot.registry.blocksByName[what])
    return useItemOnEntity(bot, hand ? 'hand' : tool, what, signal);
  if (what === 'nothing' || what === 'air') {
    if (hand)
      throw new SkillError('invalid', 'Using your empty hand on nothing does nothing: name an item, or a block or mob to use it on.');
    return useInAir(bot, tool, signal);
  }
  if (!bot.registry.blocksByName[what]) {
    throw new SkillError('invalid', `${target} is not a block, a mob type or "nothing".`);
  }
  if (!hand) requireItem(bot, tool);
  const block = nearestTarget(bot, what);
  if (!block) {
    const name = FLUIDS.has(what) ? `${what} source` : what;
    return failure('not_found', `No ${name} within ${USE_ON_RANGE} blocks.`, {
      sought: { kind: 'block', name: what, range: USE_ON_RANGE },
    });
  }
  return useOnBlock(bot, hand ? undefined : tool, block, signal);
}

/**
 * The nearest block of `name` (fluids: a still source), or undefined. The match reads only the
 * block state (the source's `level`), so mineflayer skips every chunk section whose palette has
 * no such state; with `useExtraInfo` it read all of each section's blocks, and a search that
 * found nothing held the bot's process for seconds (long enough, on a loaded machine, for the
 * server in the same process to drop a player for a late keep-alive).
 */
function nearestTarget(bot: Bot, name: string): Block | null {
  const type = bot.registry.blocksByName[name]!;
  return bot.findBlock({
    matching: (b) => b.type === type.id && (!FLUIDS.has(name) || Number(b.getProperties().level ?? 0) === 0),
    maxDistance: USE_ON_RANGE,
  });
}

/** Waits until the block at `pos` or the inventory differs from before, within {@link ANSWER_MS}. */
async function answered(bot: Bot, pos: Vec3 | undefined, stateBefore: number | undefined, signal: AbortSignal): Promise<void> {
  const before = JSON.stringify(inventoryCounts(bot));
  await waitFor(
    () => (pos !== undefined && bot.blockAt(pos)?.stateId !== stateBefore) || JSON.stringify(inventoryCounts(bot)) !== before,
    ANSWER_MS,
    signal,
  );
}

async function useOnBlock(bot: Bot, tool: string | undefined, block: Block, signal: AbortSignal): Promise<Outcome> {
  const pos = block.position;
  const eyes = () => bot.entity.position.offset(0, bot.entity.height, 0);
  // A bucket must see the fluid: stand close, as the reference does (1.5 blocks for water, 2 otherwise).
  if (eyes().distanceTo(pos.offset(0.5, 0.5, 0.5)) > REACH - 0.5) {
    await goTo(bot, new goals.GoalNear(pos.x, pos.y, pos.z, tool === 'water_bucket' && block.name !== 'lava' ? 1.5 : 2), signal);
  }
  throwIfAborted(signal);
  if (tool) await abortable(bot.equip(requireItem(bot, tool), 'hand'), signal);
  else await abortable(bot.unequip('hand'), signal);
  const current = bot.blockAt(pos) ?? block;
  const before = inventoryCounts(bot);
  const stateBefore = current.stateId;
  if (tool && LOOK_USED.has(tool) && !CLICKED_WITH_BUCKETS.has(current.name)) {
    // Look at the top of a fluid, at the middle of a block.
    await bot.lookAt(pos.offset(0.5, FLUIDS.has(current.name) ? 0.9 : 0.5, 0.5), true);
    bot.activateItem();
  } else {
    await abortable(bot.activateBlock(current), signal);
  }
  await answered(bot, pos, stateBefore, signal);
  const after = inventoryCounts(bot);
  const changes = countChanges(before, after);
  const now = bot.blockAt(pos);
  const blockChanged = now && now.stateId !== stateBefore;
  const what = tool ?? 'your hand';
  const summary = [
    blockChanged
      ? now.name !== current.name
        ? `The ${current.name} is now ${now.name}.`
        : `It is now ${JSON.stringify(now.getProperties())}.`
      : '',
    diffCounts(before, after),
  ]
    .filter(Boolean)
    .join(' ');
  const position = { x: pos.x, y: pos.y, z: pos.z };
  if (!summary)
    return failure('refused_by_server', `Used ${what} on the ${current.name} at ${formatPos(pos, 0)}, but nothing changed.`, { position });
  return done(`Used ${what} on the ${current.name} at ${formatPos(pos, 0)}. ${summary}`, { position, ...changes });
}

/** Uses the item where the bot looks (drink, eat, empty a bucket in front). */
async function useInAir(bot: Bot, tool: string, signal: AbortSignal): Promise<Outcome> {
  await abortable(bot.equip(requireItem(bot, tool), 'hand'), signal);
  const before = inventoryCounts(bot);
  bot.activateItem();
  await answered(bot, undefined, undefined, signal);
  const after = inventoryCounts(bot);
  const changes = diffCounts(before, after);
  if (!changes) return failure('refused_by_server', `Used ${tool}, but nothing changed.`);
  return done(`Used ${tool}. ${changes}`, countChanges(before, after));
}

/** Blocks the sky is seen through when looking for the surface. */
const SEE_THROUGH = new Set(['air', 'cave_air', 'void_air']);

/**
 * Goes up to the surface above the bot: the top of the highest block over its column (the
 * reference's `goToSurface`), walking (and, where it must, digging and pillaring: the pathfinder's
 * own moves) to stand on it.
 *
 * @returns `ok` with the `position` reached; `ok` at once when nothing is above the bot.
 * @throws SkillError `unreachable` when the pathfinder finds no way up.
 */
export async function goToSurface(bot: Bot, signal: AbortSignal): Promise<Outcome> {
  const feet = bot.entity.position.floored();
  // mineflayer keeps the dimension's height (not in its typings).
  const game = bot.game as typeof bot.game & { minY?: number; height?: number };
  const top = (game.minY ?? -64) + (game.height ?? 384) - 1;
  let surface: number | undefined;
  for (let y = top; y >= feet.y; y--) {
    const block = bot.blockAt(new Vec3(feet.x, y, feet.z));
    if (block && !SEE_THROUGH.has(block.name)) {
      surface = y + 1;
      break;
    }
  }
  if (surface === undefined || surface <= feet.y)
    return done(`You are at the surface, at ${formatPos(feet, 0)}.`, { position: { x: feet.x, y: feet.y, z: feet.z } });
  await goTo(bot, new goals.GoalBlock(feet.x, surface, feet.z), signal);
  const p = bot.entity.position.floored();
  return done(`Reached the surface at ${formatPos(p, 0)}.`, { position: { x: p.x, y: p.y, z: p.z } });
}
