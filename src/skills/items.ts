/** Inventory reading and handing items over. */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import type { Item } from 'prismarine-item';
import { itemByName } from '../game/data.ts';
import { formatCounts, type Counts } from '../game/production.ts';
import pathfinderPkg from 'mineflayer-pathfinder';
import type { Vec3 } from 'vec3';
import { boundedWalk, goTo, goToPlayer, playerEntity } from './movement.ts';
import { formatPos } from './navigation.ts';
import { done, failure, type HandOver, type Outcome, type OutcomeCode, SkillError } from './outcome.ts';
import { abortable, isAbortError, sleep, throwIfAborted, waitFor } from '../util/abort.ts';

const { goals } = pathfinderPkg;

/**
 * Item name → count over the bot's whole inventory (armour and off-hand included). The object
 * has no prototype, so a lookup by any name (`counts['constructor']`) is a count or undefined.
 */
export function inventoryCounts(bot: Bot): Counts {
  const counts: Counts = Object.create(null);
  for (const item of bot.inventory.items()) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  for (const slot of [5, 6, 7, 8, 45]) {
    const item = bot.inventory.slots[slot];
    if (item) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  }
  return counts;
}

/** The most to wait for a tossed stack's item entity to show up (ms). */
const SPAWN_WAIT_MS = 2_000;

/** How long a recipient has to pick tossed items up before the hand-over counts as failed (ms). */
export const PICKUP_TIMEOUT_MS = 8_000;
/** The most each walk of a hand-over may take (ms): to the recipient, to the spot to throw from. */
const GIVE_WALK_MS = 30_000;

/**
 * vanilla (ItemEntity, thrown by a player): nobody, the thrower included, can pick a thrown item
 * up for 40 ticks = 2 s. The giver must be out of reach by then.
 */
export const THROW_PICKUP_DELAY_MS = 2_000;

/**
 * vanilla (Player.aiStep): a player picks up items touching its bounding box (0.6 wide) inflated by
 * 1 block horizontally and 0.5 vertically, so an item within 1.3 blocks horizontally of a
 * player's centre is in reach. The giver throws from {@link TOSS_DISTANCE} and then steps back to
 * {@link RETREAT_DISTANCE}: a toss aimed at the receiver's feet lands in their reach and out of the
 * giver's.
 */
export const PICKUP_REACH = 1.3;
/** Horizontal distance from the receiver the giver throws from (blocks). */
export const TOSS_DISTANCE = 2;
/** Horizontal distance from the receiver the giver steps back to after the throw (blocks). */
export const RETREAT_DISTANCE = 4.5;

/** The eight horizontal directions, as unit-ish steps. */
const DIRECTIONS: [number, number][] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];

/** Whether a player can stand with its feet in the block cell `feet`. */
function standable(bot: Bot, feet: Vec3): boolean {
  const below = bot.blockAt(feet.offset(0, -1, 0));
  const at = bot.blockAt(feet);
  const head = bot.blockAt(feet.offset(0, 1, 0));
  const free = (b: ReturnType<Bot['blockAt']>) => !!b && b.boundingBox === 'empty' && b.name !== 'water' && b.name !== 'lava';
  return !!below && below.boundingBox === 'block' && free(at) && free(head);
}

/** Whether nothing solid stands between `from` and `to` at feet and waist height (sampled every 0.25 blocks). */
function clearLine(bot: Bot, from: Vec3, to: Vec3): boolean {
  const steps = Math.ceil(from.distanceTo(to) / 0.25);
  for (let i = 1; i < steps; i++) {
    const p = from.plus(to.minus(from).scaled(i / steps));
    for (const dy of [0.3, 1.2]) {
      const b = bot.blockAt(p.offset(0, dy, 0));
      if (!b || b.boundingBox !== 'empty') return false;
    }
  }
  return true;
}

/**
 * Where to stand to throw to a player at `target` (feet position): a standable cell about
 * {@link TOSS_DISTANCE} blocks away on the same level, with a clear line to them and room to step
 * back to {@link RETREAT_DISTANCE} on the same side; nearest to the bot first.
 */
function tossSpots(bot: Bot, target: Vec3): { stand: Vec3; retreat: Vec3 | undefined }[] {
  const feet = target.floored();
  const spots: { stand: Vec3; retreat: Vec3 | undefined; d: number }[] = [];
  for (const [dx, dz] of DIRECTIONS) {
    const len = Math.hypot(dx, dz);
    const stand = feet.offset(Math.round((dx / len) * TOSS_DISTANCE), 0, Math.round((dz / len) * TOSS_DISTANCE));
    if (!standable(bot, stand) || !clearLine(bot, stand.offset(0.5, 0, 0.5), target)) continue;
    const back = feet.offset(Math.round((dx / len) * RETREAT_DISTANCE), 0, Math.round((dz / len) * RETREAT_DISTANCE));
    const retreat = [0, 1, -1].map((dy) => back.offset(0, dy, 0)).find((p) => standable(bot, p));
    spots.push({ stand, retreat, d: stand.offset(0.5, 0, 0.5).distanceTo(bot.entity.position) });
  }
  // Spots with a retreat first, then the nearest.
  return spots.sort((a, b) => Number(!a.retreat) - Number(!b.retreat) || a.d - b.d);
}

/** An item entity that appears within this distance of where the bot stood to toss is its toss (blocks): a throw flies about 3. */
const TOSS_SPREAD = 5;

/** Item entities each bot has thrown and that still exist (ids), so its modes leave them alone. */
const tossedBy = new WeakMap<Bot, Set<number>>();

/** Whether item entity `id` is one this bot threw (by {@link tossItems}) and that is still lying there. */
export function isOwnToss(bot: Bot, id: number): boolean {
  return tossedBy.get(bot)?.has(id) ?? false;
}

/** This bot's record of its tosses, emptied as the item entities go. */
function ownTosses(bot: Bot): Set<number> {
  let own = tossedBy.get(bot);
  if (!own) {
    const set = (own = new Set<number>());
    tossedBy.set(bot, set);
    bot.on('entityGone', (entity: Entity) => {
      set.delete(entity.id);
    });
  }
  return own;
}

/** A toss whose item entities are still being watched for; see {@link tossItems}. */
export interface Toss {
  /** The ids of the thrown item entities seen so far. */
  readonly thrown: Set<number>;
  /**
   * Resolves once an item entity of the toss was seen (or after {@link SPAWN_WAIT_MS} without
   * one) and two more ticks passed; never rejects: an abort of the toss's signal ends it early,
   * for the caller to check.
   */
  readonly seen: Promise<void>;
  /** Stops watching for late spawns of the toss. */
  stop(): void;
}

/**
 * Throws `n` of `item` where the bot looks (mineflayer's `toss`) and returns once the items have
 * left the inventory; the returned toss's `seen` waits, at most {@link SPAWN_WAIT_MS}, for the item
 * entities' spawn packets (late on a loaded server), then two ticks for the rest of the toss, so
 * the caller can walk off meanwhile. Item entities that appear within {@link TOSS_SPREAD} of where
 * the bot stood are its toss: recorded as its own ({@link isOwnToss}) until they are gone, and
 * watched for until `stop()` (a spawn packet can come seconds late when the server lags, after
 * the bot has walked off).
 *
 * @param thrown where the ids of the toss's item entities go as they appear (the caller can read
 *   it while the toss is still under way).
 * @returns the toss; its `thrown` may still be empty when none showed up in time.
 * @throws AbortError when `signal` aborts the throw (the watch is then stopped).
 */
export async function tossItems(bot: Bot, item: string, n: number, signal: AbortSignal, thrown = new Set<number>()): Promise<Toss> {
  const own = ownTosses(bot);
  const from = bot.entity.position.clone();
  const onSpawn = (entity: Entity) => {
    if (entity.name !== 'item' || entity.position.distanceTo(from) > TOSS_SPREAD) return;
    thrown.add(entity.id);
    own.add(entity.id);
  };
  bot.on('entitySpawn', onSpawn);
  const stop = () => {
    bot.off('entitySpawn', onSpawn);
  };
  try {
    await abortable(bot.toss(itemByName(bot.registry, item).id, null, n), signal);
  } catch (err) {
    stop();
    throw err;
  }
  const seen = waitFor(() => thrown.size > 0, SPAWN_WAIT_MS, signal)
    .then(() => abortable(bot.waitForTicks(2), signal))
    .catch(() => undefined);
  return { thrown, seen, stop };
}

/**
 * Walks to player `name` and throws them `count` of `item`, then steps back out of reach and waits
 * until the server reports that they collected it. The giver throws from a spot with a clear line
 * to the receiver (a furnace or wall in between would stop the throw), about 2 blocks away, aimed at
 * their feet, and steps back before the 2 s pickup delay ends, so it never picks its own items back
 * up; the receiver may stand still. Listeners are attached before the toss, so no pickup is missed.
 *
 * Every outcome, and every {@link SkillError} it throws, carries `data.handOver` ({@link HandOver}):
 * what was tossed (`count` 0 before the toss) and where it went.
 *
 * @returns `ok` when the recipient picked everything up; `partial` when some; `failed` when none
 *   (the text says where the rest lies, the items' positions as the bot sees them, or who picked
 *   it up instead).
 * @throws SkillError `invalid` for the bot itself, `missing_items` (`data.missing`) when the bot
 *   has none, `not_found` (`data.sought`) when the player is out of sight, `unreachable` without a
 *   path or when a walk takes longer than {@link GIVE_WALK_MS}; `interrupted` when `signal` aborts (the action runner reports it in its own words).
 */
export async function givePlayer(bot: Bot, name: string, item: string, count: number, signal: AbortSignal): Promise<Outcome> {
  let tossed = 0;
  let received = 0;
  let takenBack = 0;
  const takenByOthers = new Map<string, number>();
  /** Item entities of this toss, as {@link tossItems} sees them (late ones too, until the report). */
  const thrown = new Set<number>();
  const lyingNow = (): Entity[] => [...thrown].map((eid) => bot.entities[eid]).filter((e): e is Entity => !!e?.isValid);
  const handOver = (): HandOver => {
    const first = lyingNow()[0]?.position.floored();
    return {
      to: name,
      item,
      count: tossed,
      received,
      takenBy: Object.fromEntries(takenByOthers),
      takenBack,
      ...(first ? { lying: { x: first.x, y: first.y, z: first.z } } : {}),
      left: inventoryCounts(bot)[item] ?? 0,
    };
  };
  const fail = (code: Exclude<OutcomeCode, 'ok'>, message: string, data = {}): SkillError =>
    new SkillError(code, message, { ...data, handOver: handOver() });
  try {
    if (name === bot.username) throw fail('invalid', 'You cannot give items to yourself.');
    const have = inventoryCounts(bot)[item] ?? 0;
    if (have === 0)
      throw fail('missing_items', `You have no ${item}. Inventory: ${formatCounts(inventoryCounts(bot)) || 'empty'}.`, {
        missing: { [item]: count },
      });
    const n = Math.min(count, have);
    const lost = (): SkillError => fail('not_found', `Lost sight of ${name}.`, { sought: { kind: 'player', name } });
    const toPlayer = () => boundedWalk(signal, GIVE_WALK_MS, name, (bound) => goToPlayer(bot, name, TOSS_DISTANCE, bound));
    let target = playerEntity(bot, name);
    if (!target) await toPlayer(); // throws with the reason
    target = playerEntity(bot, name);
    if (!target) throw lost();
    let retreat: Vec3 | undefined;
    const spot = tossSpots(bot, target.position)[0];
    if (spot) {
      const { x, y, z } = spot.stand;
      await boundedWalk(signal, GIVE_WALK_MS, `a spot to throw to ${name} from`, (bound) => goTo(bot, new goals.GoalBlock(x, y, z), bound));
      retreat = spot.retreat;
    } else {
      await toPlayer();
    }
    target = playerEntity(bot, name);
    if (!target) throw lost();
    const receiver = target;
    // Aim at their feet: a throw aimed down lands within a block or two, at the recipient.
    await bot.lookAt(receiver.position, true);
    await abortable(bot.waitForTicks(2), signal); // the server learns the new look on the next movement packet

    const onCollect = (collector: Entity, collected: Entity) => {
      if (!thrown.has(collected.id)) return;
      const dropped = collected.getDroppedItem?.();
      if (dropped && dropped.name !== item) return;
      const k = dropped?.count ?? 1;
      if (collector.id === receiver.id) received += k;
      else if (collector === bot.entity) takenBack += k;
      else {
        const who = collector.username ?? collector.name ?? 'someone';
        takenByOthers.set(who, (takenByOthers.get(who) ?? 0) + k);
      }
    };
    bot.on('playerCollect', onCollect);
    let toss: Toss | undefined;
    try {
      toss = await tossItems(bot, item, n, signal, thrown);
      tossed = n;
      // Out of reach at once, not once the toss is seen: on a lagging connection its spawn comes
      // after the pickup delay, and the giver would still stand where the items land.
      await Promise.all([toss.seen, stepBack(bot, receiver, retreat, signal)]);
      throwIfAborted(signal);
      await waitFor(() => received >= n, PICKUP_TIMEOUT_MS, signal);
      await sleep(100, signal); // let the last collect packet land before reporting
    } finally {
      toss?.stop();
      bot.off('playerCollect', onCollect);
    }
    const left = inventoryCounts(bot)[item] ?? 0;
    if (received >= n)
      return done(`Gave ${n} ${item} to ${name}; they picked it up. You have ${left} ${item} left.`, { handOver: handOver() });
    const parts = [
      `Tossed ${n} ${item} to ${name}, but they picked up ${received === 0 ? 'none' : `only ${received}`} within ${PICKUP_TIMEOUT_MS / 1000} s.`,
    ];
    if (takenBack) parts.push(`You picked ${takenBack} back up.`);
    for (const [who, k] of takenByOthers) parts.push(`${who} picked up ${k}.`);
    for (const e of lyingNow()) {
      const k = e.getDroppedItem?.()?.count ?? 1;
      const from = playerEntity(bot, name)?.position;
      parts.push(
        `${k} ${item} lie${k === 1 ? 's' : ''} on the ground at ${formatPos(e.position)}${from ? `, ${e.position.distanceTo(from).toFixed(1)} blocks from ${name}` : ''}.`,
      );
    }
    parts.push(`You have ${left} ${item} left.`);
    return failure(received > 0 ? 'partial' : 'failed', parts.join(' '), { handOver: handOver() });
  } catch (err) {
    if (signal.aborted || isAbortError(err)) throw fail('interrupted', err instanceof Error ? err.message : String(err));
    if (err instanceof SkillError) throw err.data?.handOver ? err : fail(err.code, err.message, err.data);
    throw fail('failed', err instanceof Error ? err.message : String(err));
  }
}

/**
 * Steps back from `receiver` to `retreat` (or walks backwards) before the throw's pickup delay
 * ends. Never throws: a giver that could not move away still reports truthfully afterwards.
 */
async function stepBack(bot: Bot, receiver: Entity, retreat: Vec3 | undefined, signal: AbortSignal): Promise<void> {
  const limit = AbortSignal.any([signal, AbortSignal.timeout(THROW_PICKUP_DELAY_MS - 300)]);
  try {
    if (retreat) {
      await goTo(bot, new goals.GoalBlock(retreat.x, retreat.y, retreat.z), limit);
      return;
    }
    const p = receiver.position;
    await goTo(bot, new goals.GoalInvert(new goals.GoalNear(p.x, p.y, p.z, RETREAT_DISTANCE)), limit);
  } catch {
    throwIfAborted(signal);
  }
}

/**
 * The first inventory stack of `name`.
 *
 * @param want how many the caller needs (for `data.missing`; default 1).
 * @throws SkillError `missing_items` (`data.missing`: `want` of `name`) naming what the bot holds when it has none.
 */
export function requireItem(bot: Bot, name: string, want = 1): Item {
  const item =
    bot.inventory.items().find((i) => i.name === name) ?? [45, 5, 6, 7, 8].map((s) => bot.inventory.slots[s]).find((i) => i?.name === name);
  if (!item)
    throw new SkillError('missing_items', `You have no ${name}. Inventory: ${formatCounts(inventoryCounts(bot)) || 'empty'}.`, {
      missing: { [name]: want },
    });
  return item;
}

/** What the inventory holds more of (`gained`) and less of (`spent`) in `after` than in `before`. */
export function countChanges(before: Counts, after: Counts): { gained: Counts; spent: Counts } {
  const gained: Counts = {};
  const spent: Counts = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const d = (after[name] ?? 0) - (before[name] ?? 0);
    if (d > 0) gained[name] = d;
    else if (d < 0) spent[name] = -d;
  }
  return { gained, spent };
}

/** `Gained 1 milk_bucket. Lost 1 bucket.` or '' when nothing changed. */
export function diffCounts(before: Counts, after: Counts): string {
  const { gained, spent: lost } = countChanges(before, after);
  return [
    Object.keys(gained).length ? `Gained ${formatCounts(gained)}.` : '',
    Object.keys(lost).length ? `Lost ${formatCounts(lost)}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
