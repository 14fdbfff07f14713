/** Gathering blocks with mineflayer-collectblock (path, best tool, dig, pick up the drops). */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';
import { cropOf } from '../game/crops.ts';
import { itemById } from '../game/data.ts';
import { abortable, sleep, throwIfAborted, waitFor } from '../util/abort.ts';
import { formatCounts, type Counts } from '../game/production.ts';
import { inventoryCounts } from './items.ts';
import { boundedWalk, goWithinReach, haltPathfinder, NO_PATH, TUNNEL_FROM, tunnelToward } from './movement.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';
import { loadPlugins } from './plugins.ts';

/** How far the bot looks for blocks to collect (blocks). */
export const COLLECT_RANGE = 64;

/** Candidates looked at beyond `count`, so that buried blocks can be passed over. */
const EXTRA_CANDIDATES = 16;

/** Rounds in a row that dig nothing (every block passed over for want of a path, or taken) before the bot gives up. */
const COLLECT_ROUNDS = 2;

/**
 * Most blocks one round goes for (about a tree's logs) before the nearest ones are looked up again
 * from where the bot then stands: the walk follows the bot, and blocks that teammates dug meanwhile
 * drop out of the list.
 */
const ROUND_BATCH = 6;

const FACES = [new Vec3(0, 1, 0), new Vec3(0, -1, 0), new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1)];

/** Whether the block at `pos` has a face next to a non-solid block (air, water, a plant). */
function isExposed(bot: Bot, pos: Vec3): boolean {
  return FACES.some((f) => bot.blockAt(pos.plus(f))?.boundingBox === 'empty');
}

/** Whether collectblock would not find its own way to the block at `pos`: far off and buried, or far below. */
function deepOrBuried(bot: Bot, pos: Vec3): boolean {
  const feet = bot.entity.position;
  if (feet.distanceTo(pos.offset(0.5, 0, 0.5)) <= TUNNEL_FROM) return false;
  return !isExposed(bot, pos) || pos.y < feet.y - TUNNEL_FROM;
}

/**
 * How long collectblock may take over one block, its walk, dig and pickup (ms): mineflayer-pathfinder
 * can go on replanning a way up through rock without end (a log on the surface, seen from a mine).
 * A log 30 blocks up through stone took 64 s.
 */
const COLLECT_BLOCK_MS = 120_000;

/**
 * collectblock's walk, dig and pickup for each of `blocks` in turn, passing over those it finds no
 * path to (its own `ignoreNoPath` option is not implemented: a path search that fails throws) or
 * whose dig was aborted, and those `taken` says are gone or being dug by someone else by the time
 * their turn comes.
 *
 * @returns false when a block was not collected within {@link COLLECT_BLOCK_MS} (the rest, near it,
 *   are left: they would likely take as long), else true.
 */
async function collectSolid(bot: Bot, blocks: Block[], taken: (block: Block) => boolean, signal: AbortSignal): Promise<boolean> {
  for (const block of blocks) {
    if (taken(block)) continue;
    try {
      await boundedWalk(signal, COLLECT_BLOCK_MS, `the ${block.name} at ${block.position}`, (bound) =>
        abortable(bot.collectBlock.collect(block, { ignoreNoPath: true }), bound, () => void stopCollecting(bot)),
      );
    } catch (err) {
      throwIfAborted(signal);
      if (err instanceof SkillError && err.code === 'unreachable') return false;
      if (err instanceof Error && err.name === NO_TOOL) {
        // The tool broke on the way (a pickaxe worn out by a tunnel): say which ones harvest the block.
        const tools = Object.keys(block.harvestTools ?? {}).map((id) => itemById(bot.registry, Number(id)).name);
        throw new SkillError(
          'missing_items',
          `Your tool broke: you need one of these tools to harvest ${block.name}: ${tools.join(', ')}.`,
          {
            tools,
          },
        );
      }
      if (!(err instanceof Error && (NO_PATH.has(err.name) || err.message === DIG_ABORTED))) throw err;
    }
  }
  return true;
}

/** mineflayer-tool's error for a block no held item harvests (`lib/Tool.js`). */
const NO_TOOL = 'NoItem';

/**
 * mineflayer's error for a dig the server or the bot's own move ended (`lib/plugins/digging.js`): a
 * log in a tree top dug from below its reach; that block is passed over like one with no path.
 */
const DIG_ABORTED = 'Digging aborted';

/**
 * Cancels collectblock's task and stops the pathfinder at once ({@link haltPathfinder}: collectblock's
 * own cancel leaves a stop pending while the bot digs); resolves when collectblock has finished.
 */
function stopCollecting(bot: Bot): Promise<void> {
  const cancelled = bot.collectBlock.cancelTask();
  haltPathfinder(bot);
  return cancelled;
}

/** How long the inventory must stay unchanged to count as settled, and the most to wait (ms). */
const SETTLE_QUIET_MS = 200;
const SETTLE_MAX_MS = 1_500;
/**
 * How long drops may lie at the dug blocks before the bot stops waiting for their pickup (ms):
 * a block's drop cannot be picked up during its pickup delay (10 ticks, vanilla
 * `ItemEntity.setDefaultPickUpDelay`), and collectblock may resolve before it ends.
 */
const DROPS_MAX_MS = 3_000;
/** How long a dug block's drop may take to appear (ms). */
const DROP_SPAWN_MS = 1_000;
/** The longest walk to one crop, flower or cane (ms): they lie within sight. */
const SHAPELESS_WALK_MS = 30_000;
/** How long after its dig time a dig may wait for the server's block update (ms). */
const DIG_CONFIRM_MS = 3_000;
/** A drop within this distance of a dug block's centre counts as that block's drop (blocks). */
const DROP_RADIUS = 2;

/** Item entities lying within {@link DROP_RADIUS} of any of the dug `positions`. */
function dropsNear(bot: Bot, positions: Vec3[]): Entity[] {
  const centres = positions.map((p) => p.offset(0.5, 0.5, 0.5));
  return Object.values(bot.entities).filter(
    (e) => e.name === 'item' && e.isValid && centres.some((c) => e.position.distanceTo(c) < DROP_RADIUS),
  );
}

/**
 * Picks up the drops still lying at the dug `positions`. collectblock walks only to a drop that
 * spawned within 0.5 block of its block's centre, and vanilla pops a drop up to ±0.25 block on
 * each axis and an eighth of a block lower (`Block.popResource`), so some drops are left where
 * they fell, out of pickup reach of where the bot dug from. Waits at most {@link DROPS_MAX_MS}:
 * a drop out of reach ends the wait at the bound, not in an error.
 */
async function pickUpDrops(bot: Bot, positions: Vec3[], signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + DROPS_MAX_MS;
  const left = dropsNear(bot, positions);
  if (left.length > 0) {
    const walk = bot.collectBlock.collect(left, { ignoreNoPath: true }).catch(() => {});
    const bound = sleep(DROPS_MAX_MS, signal);
    await abortable(Promise.race([walk, bound]), signal, () => void stopCollecting(bot));
    if (Date.now() >= deadline) await stopCollecting(bot);
  }
  await waitFor(() => dropsNear(bot, positions).length === 0, Math.max(0, deadline - Date.now()), signal);
}

/**
 * Waits until the inventory has stopped changing: collectblock resolves once it has walked over
 * the last drop, a moment before the server's pickup reaches the client.
 */
async function inventorySettled(bot: Bot, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + SETTLE_MAX_MS;
  let last = JSON.stringify(inventoryCounts(bot));
  let quietSince = Date.now();
  while (Date.now() < deadline && Date.now() - quietSince < SETTLE_QUIET_MS) {
    await sleep(50, signal);
    const now = JSON.stringify(inventoryCounts(bot));
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    }
  }
}

/** What the inventory holds more of than `before`. */
function gainedSince(bot: Bot, before: Counts): Counts {
  const gained: Counts = {};
  for (const [name, n] of Object.entries(inventoryCounts(bot))) if (n > (before[name] ?? 0)) gained[name] = n - (before[name] ?? 0);
  return gained;
}

const total = (counts: Counts): number => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * Walks into reach of each block and digs it, for blocks without a collision shape (crops,
 * flowers, mushrooms, sugar cane): collectblock walks to a spot from which a ray hits the block
 * (pathfinder's GoalLookAtBlock), and a ray passes through such a block, so that search never
 * ends. A block the bot finds no path to is passed over, as collectblock's `ignoreNoPath` does.
 */
async function digShapeless(bot: Bot, blocks: Block[], signal: AbortSignal): Promise<void> {
  for (const block of blocks) {
    throwIfAborted(signal);
    const pos = block.position;
    try {
      // Bounded: the pathfinder can replan a walk among crops without end (a reworded-outcomes
      // cooking run's `!collectBlocks("beetroots", 6)` ran 130 s until the task ended).
      await boundedWalk(signal, SHAPELESS_WALK_MS, `the ${block.name} at ${pos}`, (bound) => goWithinReach(bot, pos, bound));
    } catch {
      throwIfAborted(signal);
      continue; // no path: leave this one
    }
    const now = bot.blockAt(pos);
    if (now?.type !== block.type) continue;
    loadPlugins(bot);
    await abortable(bot.tool.equipForBlock(now, {}), signal);
    // A dig the server never confirms (mineflayer waits for the block's update) is left after its
    // dig time and a margin.
    const digBound = AbortSignal.any([signal, AbortSignal.timeout(bot.digTime(now) + DIG_CONFIRM_MS)]);
    try {
      await abortable(bot.dig(now, true), digBound, () => bot.stopDigging());
    } catch (err) {
      throwIfAborted(signal);
      if (!digBound.aborted) throw err;
      continue;
    }
    // The drop spawns a tick or two after the block breaks; pickUpDrops walks to it.
    await waitFor(() => dropsNear(bot, [pos]).length > 0, DROP_SPAWN_MS, signal);
  }
}

/**
 * Digs up to `count` blocks of `blockName` near the bot and collects their drops: the nearest
 * ones with an open face first, then buried ones, a few at a time from where the bot stands. Blocks
 * other players are seen digging (the server's break animations) are left to them and not counted,
 * so teammates gathering side by side spread over the trees. A crop (`wheat`, `carrots`, ... see
 * `../game/crops.ts`) is harvested only full-grown, as a player does: a young one gives back
 * little more than its seed, and would undo a sowing.
 *
 * @returns what ended up in the inventory, `data.gained` (item → count) on every outcome once
 *   digging began: `ok` when it dug `count` blocks and gained items; `partial` when it gained items
 *   from fewer blocks (no more in range, some out of reach); `failed` when it dug blocks but picked
 *   nothing up (someone else took the drops); `unreachable` when it could reach none.
 *   `not_found` (`data.sought`, range {@link COLLECT_RANGE}) when none (or no full-grown crop) is
 *   in range; `missing_items` (`data.tools`) when the bot lacks a tool that harvests the block, or
 *   its tool broke on the way (with `data.gained`).
 * @throws SkillError `invalid` when `blockName` is not a block.
 */
export async function collectBlocks(bot: Bot, blockName: string, count: number, signal: AbortSignal): Promise<Outcome> {
  const type = bot.registry.blocksByName[blockName];
  if (!type) throw new SkillError('invalid', `${blockName} is not a block.`);
  const crop = cropOf(bot.registry, blockName);
  const matching = crop ? (b: Block) => b.type === type.id && Number(b.getProperties().age) === crop.maxAge : type.id;
  if (!bot.findBlock({ matching, maxDistance: COLLECT_RANGE })) {
    const growing = crop ? bot.findBlocks({ matching: type.id, maxDistance: COLLECT_RANGE, count: 64 }).length : 0;
    return failure(
      'not_found',
      growing
        ? `No full-grown ${blockName} within ${COLLECT_RANGE} blocks (${growing} still growing).`
        : `No ${blockName} within ${COLLECT_RANGE} blocks.`,
      { sought: { kind: 'block', name: blockName, range: COLLECT_RANGE } },
    );
  }
  const harvest = type.harvestTools;
  if (harvest && !bot.inventory.items().some((i) => harvest[i.type])) {
    const tools = Object.keys(harvest).map((id) => itemById(bot.registry, Number(id)).name);
    return failure('missing_items', `You need one of these tools to harvest ${blockName}: ${tools.join(', ')}.`, { tools });
  }
  const before = inventoryCounts(bot);
  const tried: Vec3[] = [];
  /** The longest dig among the blocks tried, with what the bot holds then (ms): a late break comes at most this late. */
  let longestDig = 0;
  // What other players dig (the server's break animations of their digs, to everyone nearby): a
  // block gone after someone else was seen digging it is theirs, not ours to count or walk to.
  const key = (p: Vec3) => `${p.x},${p.y},${p.z}`;
  const othersDigging = new Set<string>();
  const othersDug = new Set<string>();
  const onObserved = (block: Block) => {
    othersDigging.add(key(block.position));
    othersDug.add(key(block.position));
  };
  const onObservedEnd = (block: Block) => {
    othersDigging.delete(key(block.position));
  };
  bot.on('blockBreakProgressObserved', onObserved);
  bot.on('blockBreakProgressEnd', onObservedEnd);
  const dug = () => tried.filter((p) => bot.blockAt(p)?.type !== type.id && !othersDug.has(key(p))).length;
  /** Gone (dug by someone else) or being dug by someone else: not worth the walk. */
  const taken = (block: Block) => bot.blockAt(block.position)?.type !== block.type || othersDigging.has(key(block.position));
  try {
    // Rounds of at most ROUND_BATCH of the nearest blocks not tried yet, until `count` are dug; a
    // block whose path failed (collectblock passes over it) is replaced by the next candidate,
    // until COLLECT_ROUNDS rounds in a row dig nothing.
    for (let idle = 0; idle < COLLECT_ROUNDS && dug() < count;) {
      const found = bot
        .findBlocks({ matching, maxDistance: COLLECT_RANGE, count: count - dug() + EXTRA_CANDIDATES + tried.length })
        .filter((p) => !tried.some((t) => t.equals(p)) && !othersDigging.has(key(p)));
      if (found.length === 0) break;
      // Nearest first, but blocks with an open face before buried ones: a buried block (e.g. the
      // grass under a placed table) can take the pathfinder longer than its time limit to reach.
      const open = found.filter((p) => isExposed(bot, p));
      const positions = [...open, ...found.filter((p) => !open.includes(p))].slice(0, Math.min(count - dug(), ROUND_BATCH));
      tried.push(...positions);
      const dugBefore = dug();
      const blocks = positions.map((p) => bot.blockAt(p)).filter((b) => b !== null);
      longestDig = Math.max(longestDig, ...blocks.map((b) => bot.digTime(b)).filter(Number.isFinite));
      const solid = blocks.filter((b) => b.shapes.length > 0);
      // Blocks deep down or buried far off are dug toward first, leg by leg: collectblock's own
      // path search gives up on them (its time runs out in solid ground).
      const near = solid.filter((b) => !deepOrBuried(bot, b.position));
      let inTime = near.length === 0 || (await collectSolid(bot, near, taken, signal));
      for (const block of solid.filter((b) => !near.includes(b))) {
        if (!inTime) break;
        if (taken(block)) continue;
        if (deepOrBuried(bot, block.position) && !(await tunnelToward(bot, () => block.position, signal))) continue;
        inTime = await collectSolid(bot, [block], taken, signal);
      }
      if (inTime)
        await digShapeless(
          bot,
          blocks.filter((b) => b.shapes.length === 0 && !taken(b)),
          signal,
        );
      idle = dug() > dugBefore ? 0 : idle + 1;
    }
  } catch (err) {
    // The tool broke on the way: what was gathered until then comes with the tools to make.
    if (err instanceof SkillError && err.code === 'missing_items')
      return failure('missing_items', err.message, { ...err.data, gained: gainedSince(bot, before) });
    throw err;
  } finally {
    bot.off('blockBreakProgressObserved', onObserved);
    bot.off('blockBreakProgressEnd', onObservedEnd);
  }
  // The drops of our own digs (a teammate picks up its own).
  const ours = tried.filter((p) => !othersDug.has(key(p)));
  await pickUpDrops(bot, ours, signal);
  await inventorySettled(bot, signal);
  // Fewer items than blocks dug: a block the server broke late (it read the dig's start late and
  // broke the block once the whole dig time had passed: vanilla's delayed destroy) drops up to a
  // dig time late. Wait for such drops once.
  if (
    total(gainedSince(bot, before)) < dug() &&
    (await waitFor(() => dropsNear(bot, ours).length > 0, DROP_SPAWN_MS + longestDig, signal))
  ) {
    await pickUpDrops(bot, ours, signal);
    await inventorySettled(bot, signal);
  }
  const gained = gainedSince(bot, before);
  if (Object.keys(gained).length) {
    const text = `Collected ${formatCounts(gained)}.`;
    return dug() >= count ? done(text, { gained }) : failure('partial', text, { gained });
  }
  return dug() > 0
    ? failure('failed', `Dug ${dug()} ${blockName} but collected nothing (someone else may have picked the drops up).`, { gained })
    : failure('unreachable', `Could not reach the ${tried.length} nearest ${crop ? 'full-grown ' : ''}${blockName}; try moving closer.`, {
        gained,
      });
}
