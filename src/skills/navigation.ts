/** Following, searching for mobs, stepping away, staying, remembered places and looking around. */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import pathfinderPkg from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import type { PlaceStore } from '../game/places.ts';
import { abortError, sleep, throwIfAborted } from '../util/abort.ts';
import { feetBlock, goTo, playerEntity, TUNNEL_FROM, tunnelToward } from './movement.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';

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
 * @throws SkillError `invalid` with up to 3 similar names when it does not.
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
  throw new SkillError('invalid', `${type} is not an entity type.${similar.length ? ` Did you mean ${similar.join(', ')}?` : ''}`);
}

/**
 * Follows player `name`, staying within `distance` blocks, until `signal` aborts (the action is
 * stopped or times out). A player who leaves view is picked up again when they come back.
 *
 * @returns only when the player leaves the server (`ok`).
 * @throws SkillError `invalid` for the bot itself, `not_found` when the player is not in view at
 *   the start; AbortError when stopped.
 */
export async function followPlayer(bot: Bot, name: string, distance: number, signal: AbortSignal): Promise<Outcome> {
  if (name === bot.username) throw new SkillError('invalid', 'You cannot follow yourself.');
  let target = playerEntity(bot, name);
  if (!target)
    throw new SkillError('not_found', bot.players[name] ? `${name} is too far away to see.` : `No player named ${name} is online.`, {
      sought: { kind: 'player', name },
    });
  bot.pathfinder.setGoal(new goals.GoalFollow(target, distance), true);
  try {
    for (;;) {
      await sleep(250, signal);
      if (!bot.players[name]) return done(`${name} left the game; stopped following.`);
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
 * Finds the nearest mob of `type` within `range` blocks and walks to within 2 blocks of it,
 * digging its way ({@link tunnelToward}) to one far below or beyond a path's reach.
 *
 * @returns `ok` with the bot's `position` there; `not_found` (`data.sought`) when none is in range
 *   or the mob was gone (killed, despawned) by the time the bot got there.
 * @throws SkillError `invalid` for an unknown type, `unreachable` (`data.sought`) when the mob cannot be reached.
 */
export async function searchForEntity(bot: Bot, type: string, range: number, signal: AbortSignal): Promise<Outcome> {
  const name = requireEntityType(bot, type);
  const entity = nearestEntity(bot, (e) => e.name === name, range);
  if (!entity) return failure('not_found', `No ${name} within ${range} blocks.`, { sought: { kind: 'mob', name, range } });
  const sought = { sought: { kind: 'mob' as const, name, range } };
  try {
    await walkToMob(bot, entity, signal);
  } catch (err) {
    // Which mob could not be reached, so that a caller can leave it be.
    if (err instanceof SkillError && err.code === 'unreachable')
      throw new SkillError('unreachable', err.message, { ...err.data, ...sought });
    throw err;
  }
  if (!entity.isValid) return failure('not_found', `The ${name} was gone before the bot got there.`, sought);
  return done(`Found a ${name} at ${formatPos(entity.position)} and walked to it.`, { position: feetBlock(bot) });
}

/** How close `!searchForEntity` comes to the mob (blocks). */
const FOLLOW_DISTANCE = 2;

/**
 * Walks to within {@link FOLLOW_DISTANCE} of `entity`. A mob in a cave below, or one no path
 * leads to through the rock, is dug toward in legs first, as a buried ore is (monsters keep to
 * caves), then followed.
 *
 * @throws SkillError `unreachable` when neither a path nor a tunnel gets there.
 */
async function walkToMob(bot: Bot, entity: Entity, signal: AbortSignal): Promise<void> {
  const at = () => entity.position.floored();
  const follow = () => goTo(bot, new goals.GoalFollow(entity, FOLLOW_DISTANCE), signal);
  if (entity.position.y < bot.entity.position.y - TUNNEL_FROM) {
    await tunnelToward(bot, at, signal, FOLLOW_DISTANCE + 1);
  } else {
    try {
      return await follow();
    } catch (err) {
      if (!(err instanceof SkillError) || !(await tunnelToward(bot, at, signal, FOLLOW_DISTANCE + 1))) throw err;
    }
  }
  await follow();
}

/**
 * Walks until at least `distance` blocks (straight line) from where the bot stands.
 *
 * @returns `ok` with the bot's new `position`.
 * @throws SkillError `unreachable` when no path leads that far.
 */
export async function moveAway(bot: Bot, distance: number, signal: AbortSignal): Promise<Outcome> {
  const start = bot.entity.position.clone();
  await goTo(bot, new goals.GoalInvert(new goals.GoalNear(start.x, start.y, start.z, distance)), signal);
  const moved = bot.entity.position.distanceTo(start);
  return done(`Moved ${moved.toFixed(1)} blocks away, to ${formatPos(bot.entity.position)}.`, { position: feetBlock(bot) });
}

/**
 * Stands still for `seconds` (-1: until stopped), with the agent's modes paused if `pause` is given.
 *
 * @param pause suspends behaviour modes; returns the function that resumes them.
 * @throws AbortError when stopped (a `-1` stay always ends this way).
 */
export async function stay(bot: Bot, seconds: number, signal: AbortSignal, pause?: () => () => void): Promise<Outcome> {
  throwIfAborted(signal);
  bot.pathfinder.setGoal(null);
  bot.clearControlStates();
  const resume = pause?.();
  try {
    if (seconds < 0) {
      await new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(abortError(signal)), { once: true }));
    }
    await sleep(seconds * 1000, signal);
    return done(`Stayed for ${seconds} s.`);
  } finally {
    resume?.();
  }
}

/** Saves the bot's current block position as `name`; `ok` with that `position`. */
export function rememberHere(bot: Bot, places: PlaceStore, name: string): Outcome {
  const p = feetBlock(bot);
  places.set(name, { ...p, dimension: String(bot.game.dimension) });
  return done(`Remembered "${name.trim()}" at ${formatPos(p, 0)}.`, { position: p });
}

/**
 * Walks to the place saved as `name`.
 *
 * @returns `ok` with the place's `position`.
 * @throws SkillError `not_found` (`data.sought` the place) when no such place is saved,
 *   `unreachable` when it is in another dimension or no path leads there.
 */
export async function goToRememberedPlace(bot: Bot, places: PlaceStore, name: string, signal: AbortSignal): Promise<Outcome> {
  const place = places.get(name);
  if (!place) {
    const known = places.list().map(([n]) => n);
    throw new SkillError('not_found', `No place called "${name}". Saved places: ${known.join(', ') || 'none'}.`, {
      sought: { kind: 'place', name },
    });
  }
  if (place.dimension !== String(bot.game.dimension))
    throw new SkillError('unreachable', `"${name}" is in ${place.dimension}; you are in ${bot.game.dimension}.`);
  await goTo(bot, new goals.GoalNear(place.x, place.y, place.z, 1), signal);
  return done(`Arrived at "${name}" ${formatPos(place, 0)}.`, { position: { x: place.x, y: place.y, z: place.z } });
}

/**
 * Turns to player `name`: `at` looks at their head, `with` looks where they look.
 *
 * @throws SkillError `invalid` when `direction` is neither `at` nor `with`, `not_found` when the
 *   player is not in view.
 */
export async function lookAtPlayer(bot: Bot, name: string, direction: string): Promise<Outcome> {
  const dir = direction.trim().toLowerCase();
  if (dir !== 'at' && dir !== 'with') throw new SkillError('invalid', `direction must be "at" or "with", not "${direction}".`);
  const e = playerEntity(bot, name);
  if (!e || name === bot.username) throw new SkillError('not_found', `${name} is not in view.`, { sought: { kind: 'player', name } });
  if (dir === 'at') {
    await bot.lookAt(e.position.offset(0, e.height ?? 1.62, 0), true);
    return done(`Looking at ${name}.`);
  }
  await bot.look(e.yaw, e.pitch, true);
  return done(
    `Looking the same way as ${name} (yaw ${((e.yaw * 180) / Math.PI).toFixed(0)}°, pitch ${((e.pitch * 180) / Math.PI).toFixed(0)}°).`,
  );
}

/** Turns the bot's head towards the point (x, y, z) (block coordinates; add 0.5 for a block's centre). */
export async function lookAtPosition(bot: Bot, x: number, y: number, z: number): Promise<Outcome> {
  const p = new Vec3(x, y, z);
  await bot.lookAt(p, true);
  return done(`Looking at ${formatPos(p)}.`);
}
