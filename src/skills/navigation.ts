/** Following, searching for mobs, stepping away, staying, remembered places and looking around. */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import pathfinderPkg from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import type { PlaceStore } from '../game/places.ts';
import { abortError, sleep, throwIfAborted } from '../util/abort.ts';
import { goTo, playerEntity } from './movement.ts';

const { goals } = pathfinderPkg;

/** `(1.5, 4.0, -2.5)` */
export function formatPos(p: { x: number; y: number; z: number }, digits = 1): string {
  return `(${p.x.toFixed(digits)}, ${p.y.toFixed(digits)}, ${p.z.toFixed(digits)})`;
}

/**
 * The nearest entity (not the bot itself) within `range` blocks that `matches`, if any.
 * Dead entities (health 0) are skipped.
 */
export function nearestEntity(bot: Bot, matches: (e: Entity) => boolean, range: number): Entity | undefined {
  let best: Entity | undefined;
  let bestD = Infinity;
  for (const e of Object.values(bot.entities)) {
    if (e === bot.entity || !e.isValid || !matches(e)) continue;
    if (e.metadata && typeof e.health === 'number' && e.health <= 0) continue;
    const d = e.position.distanceTo(bot.entity.position);
    if (d <= range && d < bestD) {
      best = e;
      bestD = d;
    }
  }
  return best;
}

/**
 * Checks that `type` names a mob of this version.
 *
 * @throws Error with up to 3 similar names when it does not.
 */
export function requireEntityType(bot: Bot, type: string): string {
  const name = type
    .trim()
    .toLowerCase()
    .replace(/^minecraft:/, '')
    .replace(/[\s-]+/g, '_');
  if (bot.registry.entitiesByName[name]) return name;
  const singular = name.replace(/e?s$/, '');
  if (bot.registry.entitiesByName[singular]) return singular;
  const similar = Object.keys(bot.registry.entitiesByName)
    .filter((n) => n.includes(singular.slice(0, 4)))
    .slice(0, 3);
  throw new Error(`${type} is not an entity type.${similar.length ? ` Did you mean ${similar.join(', ')}?` : ''}`);
}

/**
 * Follows player `name`, staying within `distance` blocks, until `signal` aborts (the action is
 * stopped or times out). A player who leaves view is picked up again when they come back.
 *
 * @returns only when the player leaves the server.
 * @throws Error when the player is not in view at the start; AbortError when stopped.
 */
export async function followPlayer(bot: Bot, name: string, distance: number, signal: AbortSignal): Promise<string> {
  if (name === bot.username) throw new Error('You cannot follow yourself.');
  let target = playerEntity(bot, name);
  if (!target) throw new Error(bot.players[name] ? `${name} is too far away to see.` : `No player named ${name} is online.`);
  bot.pathfinder.setGoal(new goals.GoalFollow(target, distance), true);
  try {
    for (;;) {
      await sleep(250, signal);
      if (!bot.players[name]) return `${name} left the game; stopped following.`;
      const now = playerEntity(bot, name);
      if (now && now !== target) {
        target = now;
        bot.pathfinder.setGoal(new goals.GoalFollow(target, distance), true);
      }
    }
  } finally {
    bot.pathfinder.setGoal(null);
  }
}

/**
 * Finds the nearest mob of `type` within `range` blocks and walks to within 2 blocks of it.
 *
 * @throws Error for an unknown type or when the mob cannot be reached.
 */
export async function searchForEntity(bot: Bot, type: string, range: number, signal: AbortSignal): Promise<string> {
  const name = requireEntityType(bot, type);
  const entity = nearestEntity(bot, (e) => e.name === name, range);
  if (!entity) return `No ${name} within ${range} blocks.`;
  await goTo(bot, new goals.GoalFollow(entity, 2), signal);
  return `Found a ${name} at ${formatPos(entity.position)} and walked to it.`;
}

/**
 * Walks until at least `distance` blocks (straight line) from where the bot stands.
 *
 * @throws Error when no path leads that far.
 */
export async function moveAway(bot: Bot, distance: number, signal: AbortSignal): Promise<string> {
  const start = bot.entity.position.clone();
  await goTo(bot, new goals.GoalInvert(new goals.GoalNear(start.x, start.y, start.z, distance)), signal);
  const moved = bot.entity.position.distanceTo(start);
  return `Moved ${moved.toFixed(1)} blocks away, to ${formatPos(bot.entity.position)}.`;
}

/**
 * Stands still for `seconds` (-1: until stopped), with the agent's modes paused if `pause` is given.
 *
 * @param pause suspends behaviour modes; returns the function that resumes them.
 * @throws AbortError when stopped (a `-1` stay always ends this way).
 */
export async function stay(bot: Bot, seconds: number, signal: AbortSignal, pause?: () => () => void): Promise<string> {
  throwIfAborted(signal);
  bot.pathfinder.setGoal(null);
  bot.clearControlStates();
  const resume = pause?.();
  try {
    if (seconds < 0) {
      await new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(abortError(signal)), { once: true }));
    }
    await sleep(seconds * 1000, signal);
    return `Stayed for ${seconds} s.`;
  } finally {
    resume?.();
  }
}

/** Saves the bot's current block position as `name`. */
export function rememberHere(bot: Bot, places: PlaceStore, name: string): string {
  const p = bot.entity.position.floored();
  places.set(name, { x: p.x, y: p.y, z: p.z, dimension: String(bot.game.dimension) });
  return `Remembered "${name.trim()}" at ${formatPos(p, 0)}.`;
}

/**
 * Walks to the place saved as `name`.
 *
 * @throws Error when no such place is saved or it is in another dimension.
 */
export async function goToRememberedPlace(bot: Bot, places: PlaceStore, name: string, signal: AbortSignal): Promise<string> {
  const place = places.get(name);
  if (!place) {
    const known = places.list().map(([n]) => n);
    throw new Error(`No place called "${name}". Saved places: ${known.join(', ') || 'none'}.`);
  }
  if (place.dimension !== String(bot.game.dimension))
    throw new Error(`"${name}" is in ${place.dimension}; you are in ${bot.game.dimension}.`);
  await goTo(bot, new goals.GoalNear(place.x, place.y, place.z, 1), signal);
  return `Arrived at "${name}" ${formatPos(place, 0)}.`;
}

/**
 * Turns to player `name`: `at` looks at their head, `with` looks where they look.
 *
 * @throws Error when the player is not in view or `direction` is neither `at` nor `with`.
 */
export async function lookAtPlayer(bot: Bot, name: string, direction: string): Promise<string> {
  const dir = direction.trim().toLowerCase();
  if (dir !== 'at' && dir !== 'with') throw new Error(`direction must be "at" or "with", not "${direction}".`);
  const e = playerEntity(bot, name);
  if (!e || name === bot.username) throw new Error(`${name} is not in view.`);
  if (dir === 'at') {
    await bot.lookAt(e.position.offset(0, e.height ?? 1.62, 0), true);
    return `Looking at ${name}.`;
  }
  await bot.look(e.yaw, e.pitch, true);
  return `Looking the same way as ${name} (yaw ${((e.yaw * 180) / Math.PI).toFixed(0)}°, pitch ${((e.pitch * 180) / Math.PI).toFixed(0)}°).`;
}

/** Turns the bot's head towards the point (x, y, z) (block coordinates; add 0.5 for a block's centre). */
export async function lookAtPosition(bot: Bot, x: number, y: number, z: number): Promise<string> {
  const p = new Vec3(x, y, z);
  await bot.lookAt(p, true);
  return `Looking at ${formatPos(p)}.`;
}
