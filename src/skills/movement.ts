/** Walking: cancellable wrappers around mineflayer-pathfinder. Each returns a short report. */
import type { Bot } from 'mineflayer';
import pathfinderPkg, { type goals as Goals } from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { abortable, throwIfAborted } from '../util/abort.ts';

const { goals } = pathfinderPkg;
type Goal = Goals.Goal;

/**
 * Walks to `goal`. Resolves when reached; on abort stops the pathfinder and rejects.
 *
 * @throws AbortError when `signal` aborts; Error when no path exists.
 */
export async function goTo(bot: Bot, goal: Goal, signal: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  await abortable(bot.pathfinder.goto(goal), signal, () => bot.pathfinder.stop());
}

/** Distance from the eyes to a block's centre within which the bot works on it without walking (blocks; vanilla reach is 4.5). */
export const REACH = 4;

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
 * @throws Error when the player is not online or not within view distance.
 */
export async function goToPlayer(bot: Bot, name: string, closeness: number, signal: AbortSignal): Promise<string> {
  if (name === bot.username) return 'You are already there: that is you.';
  const entity = playerEntity(bot, name);
  if (!entity) {
    throw new Error(
      bot.players[name]
        ? `${name} is online but too far away to see.`
        : `No player named ${name} is online. Players: ${Object.keys(bot.players).join(', ')}.`,
    );
  }
  if (bot.entity.position.distanceTo(entity.position) <= closeness + 0.5) return `Already within ${closeness} blocks of ${name}.`;
  await goTo(bot, new goals.GoalNear(entity.position.x, entity.position.y, entity.position.z, closeness), signal);
  return `Reached ${name}.`;
}

/** Walks to within `closeness` blocks of (x, y, z). */
export async function goToPosition(bot: Bot, x: number, y: number, z: number, closeness: number, signal: AbortSignal): Promise<string> {
  await goTo(bot, new goals.GoalNear(x, y, z, closeness), signal);
  const p = bot.entity.position;
  return `Reached (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}).`;
}

/**
 * Finds the nearest block named `blockName` within `range` blocks and walks next to it.
 *
 * @throws Error when the block is not a known block or none is within range.
 */
export async function searchForBlock(bot: Bot, blockName: string, range: number, signal: AbortSignal): Promise<string> {
  const type = bot.registry.blocksByName[blockName];
  if (!type) throw new Error(`${blockName} is not a block.`);
  const block = bot.findBlock({ matching: type.id, maxDistance: range });
  if (!block) return `No ${blockName} within ${range} blocks.`;
  await goTo(bot, new goals.GoalGetToBlock(block.position.x, block.position.y, block.position.z), signal);
  return `Found ${blockName} at (${block.position.x}, ${block.position.y}, ${block.position.z}) and walked to it.`;
}

/** Turns the bot to look at player `name`'s head, if visible. */
export async function lookAtPlayer(bot: Bot, name: string): Promise<void> {
  const entity = playerEntity(bot, name);
  if (entity) await bot.lookAt(entity.position.plus(new Vec3(0, entity.height ?? 1.6, 0)), true);
}
