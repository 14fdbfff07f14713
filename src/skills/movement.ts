/** Walking: cancellable wrappers around mineflayer-pathfinder. Each reports an {@link Outcome}. */
import type { Bot } from 'mineflayer';
import pathfinderPkg, { type goals as Goals } from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { abortable, throwIfAborted } from '../util/abort.ts';
import { type BlockPos, done, failure, type Outcome, SkillError } from './outcome.ts';

const { goals } = pathfinderPkg;
type Goal = Goals.Goal;

/** mineflayer-pathfinder's errors that mean the goal cannot be reached (`lib/goto.js`): no path, or none found in its time. */
export const NO_PATH: ReadonlySet<string> = new Set(['NoPath', 'Timeout']);

/**
 * Stops mineflayer-pathfinder now, leaving no stop pending: its `stop()` alone takes effect at the
 * next node of a path, and one asked while no path runs (the bot digging for collectblock) stopped
 * the next walk instead, at its first node ("Path was stopped before it could be completed!").
 */
export function haltPathfinder(bot: Bot): void {
  bot.pathfinder.stop();
  bot.pathfinder.setGoal(null);
}

/**
 * Walks to `goal`. Resolves when reached; on abort stops the pathfinder ({@link haltPathfinder}) and rejects.
 *
 * @throws AbortError when `signal` aborts; {@link SkillError} `unreachable` when the pathfinder
 *   finds no path (its own message, e.g. `No path to the goal!`); Error when the walk is stopped
 *   otherwise.
 */
export async function goTo(bot: Bot, goal: Goal, signal: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  try {
    await abortable(bot.pathfinder.goto(goal), signal, () => haltPathfinder(bot));
  } catch (err) {
    if (err instanceof Error && NO_PATH.has(err.name) && !signal.aborted) throw new SkillError('unreachable', err.message);
    throw err;
  }
}

/**
 * Runs `walk` with a signal that also aborts after `limitMs`: mineflayer-pathfinder can go on
 * replanning a walk without end (a goal among leaves, a target that keeps moving).
 *
 * @param what what the walk heads for, for the error (`villager 12`, `the furnace at 3, 64, 8`).
 * @param data carried by the `unreachable` error (e.g. the target's `position`).
 * @throws SkillError `unreachable` (with `data`) when no path is found or the walk is not over
 *   within `limitMs`; AbortError when `signal` aborts.
 */
export async function boundedWalk<T>(
  signal: AbortSignal,
  limitMs: number,
  what: string,
  walk: (bound: AbortSignal) => Promise<T>,
  data?: SkillError['data'],
): Promise<T> {
  const bound = AbortSignal.any([signal, AbortSignal.timeout(limitMs)]);
  try {
    return await walk(bound);
  } catch (err) {
    throwIfAborted(signal);
    if (err instanceof SkillError && err.code === 'unreachable') throw data ? new SkillError('unreachable', err.message, data) : err;
    if (!bound.aborted) throw err;
    throw new SkillError('unreachable', `Could not walk to ${what} within ${Math.round(limitMs / 1000)} s.`, data);
  }
}

/** The block the bot's feet are in. */
export function feetBlock(bot: Bot): BlockPos {
  const p = bot.entity.position.floored();
  return { x: p.x, y: p.y, z: p.z };
}

/** Distance from the eyes to a block's centre within which the bot works on it without walking (blocks; vanilla reach is 4.5). */
export const REACH = 4;

/**
 * Farther than this (blocks, from the bot's feet) a block that is buried, or a place this far below
 * the bot, is dug toward in legs ({@link tunnelToward}) rather than found by one path search.
 */
export const TUNNEL_FROM = 6;
/** Length of one leg of a tunnel (blocks): short enough for the path search to find in its time. */
const TUNNEL_LEG = 6;
/** How long one leg may take (ms): six blocks of deepslate with a stone pickaxe take about 20 s. */
const TUNNEL_LEG_MS = 45_000;

/**
 * Digs toward `target` in legs of {@link TUNNEL_LEG} blocks (each a short path search with digging,
 * mineflayer-pathfinder's default movements), until the bot's eyes are within `reach` blocks of
 * the target's cell centre. The target is read again before each leg (a mob moves). A leg that
 * brings the bot no closer ends the tunnel, and so does the number of legs the first distance takes,
 * plus two.
 *
 * @param target the block cell to reach (an ore, a mob's feet), read before each leg.
 * @returns whether the bot got within reach.
 * @throws AbortError when `signal` aborts.
 */
export async function tunnelToward(bot: Bot, target: () => Vec3, signal: AbortSignal, reach = REACH): Promise<boolean> {
  const gap = () => bot.entity.position.offset(0, bot.entity.height, 0).distanceTo(target().offset(0.5, 0.5, 0.5));
  const legs = Math.ceil(gap() / (TUNNEL_LEG - 2)) + 2;
  for (let leg = 0; leg < legs; leg++) {
    const before = gap();
    if (before <= reach) return true;
    const cell = target();
    const here = bot.entity.position;
    const way = cell.offset(0.5, 0, 0.5).minus(here);
    const length = way.norm();
    const to = here.plus(way.scaled(Math.min(TUNNEL_LEG, length - 2) / length)).floored();
    try {
      // The leg ends at its end or as soon as the target is in reach: a leg's end inside rock kept
      // the path search going 43 s after the bot had come within reach of an ore.
      const goal = new goals.GoalCompositeAny([new goals.GoalNear(to.x, to.y, to.z, 1), new goals.GoalNear(cell.x, cell.y, cell.z, 2)]);
      await boundedWalk(signal, TUNNEL_LEG_MS, `${to}`, (bound) => goTo(bot, goal, bound));
    } catch (err) {
      throwIfAborted(signal);
      if (!(err instanceof SkillError)) throw err;
    }
    if (gap() > before - 1) return gap() <= reach;
  }
  return gap() <= reach;
}

/**
 * Walks to within 2 blocks of the block cell `cell` unless its centre is already within
 * {@link REACH} of the bot's eyes.
 *
 * @throws AbortError when `signal` aborts; Error when no path exists.
 */
export async function goWithinReach(bot: Bot, cell: Vec3, signal: AbortSignal): Promise<void> {
  if (bot.entity.position.offset(0, bot.entity.height, 0).distanceTo(cell.offset(0.5, 0.5, 0.5)) <= REACH) return;
  await goTo(bot, new goals.GoalNear(cell.x, cell.y, cell.z, 2), signal);
}

/** Position of player `name` as this bot sees it, or undefined when not in view. */
export function playerEntity(bot: Bot, name: string) {
  return bot.players[name]?.entity;
}

/**
 * Walks to within `closeness` blocks of player `name`.
 *
 * @returns `ok` with the bot's `position` on arrival (also when it was already there); `invalid`
 *   for the bot itself.
 * @throws SkillError `not_found` (`data.sought` the player) when the player is not online or not
 *   within view distance; `unreachable` without a path.
 */
export async function goToPlayer(bot: Bot, name: string, closeness: number, signal: AbortSignal): Promise<Outcome> {
  if (name === bot.username) return failure('invalid', 'You are already there: that is you.');
  const entity = playerEntity(bot, name);
  if (!entity) {
    throw new SkillError(
      'not_found',
      bot.players[name]
        ? `${name} is online but too far away to see.`
        : `No player named ${name} is online. Players: ${Object.keys(bot.players).join(', ')}.`,
      { sought: { kind: 'player', name } },
    );
  }
  if (bot.entity.position.distanceTo(entity.position) <= closeness + 0.5)
    return done(`Already within ${closeness} blocks of ${name}.`, { position: feetBlock(bot) });
  await goTo(bot, new goals.GoalNear(entity.position.x, entity.position.y, entity.position.z, closeness), signal);
  return done(`Reached ${name}.`, { position: feetBlock(bot) });
}

/**
 * Walks to within `closeness` blocks of (x, y, z).
 *
 * @returns `ok` with the bot's `position` on arrival.
 * @throws SkillError `unreachable` without a path.
 */
export async function goToPosition(bot: Bot, x: number, y: number, z: number, closeness: number, signal: AbortSignal): Promise<Outcome> {
  await goTo(bot, new goals.GoalNear(x, y, z, closeness), signal);
  const p = bot.entity.position;
  return done(`Reached (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}).`, { position: feetBlock(bot) });
}

/**
 * Finds the nearest block named `blockName` within `range` blocks and walks next to it.
 *
 * @returns `ok` with the block's `position`; `not_found` (`data.sought`) when none is in range.
 * @throws SkillError `invalid` when `blockName` is not a block; `unreachable` without a path.
 */
export async function searchForBlock(bot: Bot, blockName: string, range: number, signal: AbortSignal): Promise<Outcome> {
  const type = bot.registry.blocksByName[blockName];
  if (!type) throw new SkillError('invalid', `${blockName} is not a block.`);
  const block = bot.findBlock({ matching: type.id, maxDistance: range });
  if (!block) return failure('not_found', `No ${blockName} within ${range} blocks.`, { sought: { kind: 'block', name: blockName, range } });
  const { x, y, z } = block.position;
  await goTo(bot, new goals.GoalGetToBlock(x, y, z), signal);
  return done(`Found ${blockName} at (${x}, ${y}, ${z}) and walked to it.`, { position: { x, y, z } });
}

/** Turns the bot to look at player `name`'s head, if visible. */
export async function lookAtPlayer(bot: Bot, name: string): Promise<void> {
  const entity = playerEntity(bot, name);
  if (entity) await bot.lookAt(entity.position.plus(new Vec3(0, entity.height ?? 1.6, 0)), true);
}
