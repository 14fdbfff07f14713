/** Digging, placing and using single blocks at given positions, and reading signs. */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Entity } from 'prismarine-entity';
import pathfinderPkg from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { abortable, sleep, throwIfAborted, waitFor } from '../util/abort.ts';
import { countChanges, diffCounts, inventoryCounts, requireItem } from './items.ts';
import { goTo } from './movement.ts';
import { formatPos } from './navigation.ts';
import { type BlockPos, done, failure, type Outcome, SkillError } from './outcome.ts';
import { loadPlugins } from './plugins.ts';

const { goals } = pathfinderPkg;

/**
 * Within `range` blocks of `pos` (feet to block), but not standing in `pos` or with the head in it.
 * Cheaper than pathfinder's GoalPlaceBlock/GoalLookAtBlock, whose ray casts make the search time out.
 */
class GoalNearOutside extends goals.GoalNear {
  readonly #pos: Vec3;
  constructor(pos: Vec3, range: number) {
    super(pos.x, pos.y, pos.z, range);
    this.#pos = pos;
  }
  override isEnd(node: Parameters<InstanceType<typeof goals.GoalNear>['isEnd']>[0]): boolean {
    const p = this.#pos;
    const inside = node.x === p.x && node.z === p.z && (node.y === p.y || node.y + 1 === p.y);
    return super.isEnd(node) && !inside;
  }
}

/** How far `!activate` and `!readSign` look for blocks (blocks). */
export const BLOCK_SEARCH_RANGE = 16;
/** `!digDown` refuses a dig after which the bot would fall further than this (blocks). */
export const MAX_SAFE_DROP = 3;
/** Interaction reach used when walking up to a block (vanilla survival reach is 4.5). */
const REACH = 4;

const LIQUIDS = new Set(['water', 'lava', 'flowing_water', 'flowing_lava', 'bubble_column']);
const AIR = new Set(['air', 'cave_air', 'void_air']);

function isAir(block: Block | null): boolean {
  return !!block && AIR.has(block.name);
}

/** A block that a player can stand on (full collision box, not a liquid). */
function isSolid(block: Block | null): boolean {
  return !!block && block.boundingBox === 'block' && !LIQUIDS.has(block.name);
}

/** Empty space a block may be placed into (air, grass, flowers, ...), not liquids. */
export function isReplaceable(block: Block | null): boolean {
  return !!block && block.boundingBox === 'empty' && !LIQUIDS.has(block.name);
}

function unbreakable(block: Block): boolean {
  return block.diggable === false || block.hardness === null || block.hardness < 0;
}

/** Names of tools that can harvest `block`, or undefined when any tool (or a hand) will do. */
function harvestTools(bot: Bot, block: Block): string[] | undefined {
  const tools = block.harvestTools;
  if (!tools) return undefined;
  return Object.keys(tools).map((id) => bot.registry.items[Number(id)]!.name);
}

/** Equips the best tool for `block`; refuses when the drop would be lost (see {@link harvestToolsCheck}). */
async function equipForBlock(bot: Bot, block: Block, signal: AbortSignal): Promise<void> {
  loadPlugins(bot);
  harvestToolsCheck(bot, block);
  await abortable(bot.tool.equipForBlock(block, { requireHarvest: !!harvestTools(bot, block) }), signal);
}

/** Digs `block` (already in reach), aborting the dig on cancel. */
async function digBlock(bot: Bot, block: Block, signal: AbortSignal): Promise<void> {
  await abortable(bot.dig(block, true), signal, () => bot.stopDigging());
}

/**
 * Walks to and picks up item entities lying within `radius` blocks of `around`, for at most
 * `timeoutMs`. Items that cannot be reached are left.
 */
export async function pickUpDropsNear(bot: Bot, around: Vec3, radius: number, signal: AbortSignal, timeoutMs = 6_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const drops = (): Entity[] =>
    Object.values(bot.entities).filter((e) => e.name === 'item' && e.isValid && e.position.distanceTo(around) <= radius);
  // Drops spawn a tick or two after the block breaks or the mob dies.
  await waitFor(() => drops().length > 0, 1_500, signal);
  for (let left = drops(); left.length > 0 && Date.now() < deadline; left = drops()) {
    left.sort((a, b) => a.position.distanceTo(bot.entity.position) - b.position.distanceTo(bot.entity.position));
    const item = left[0]!;
    try {
      const step = goTo(bot, new goals.GoalNear(item.position.x, item.position.y, item.position.z, 0.5), signal);
      await Promise.race([step, sleep(Math.max(0, deadline - Date.now()), signal)]);
    } catch (err) {
      throwIfAborted(signal);
      void err; // unreachable item: try the others
    }
    await waitFor(() => !item.isValid, 800, signal);
    if (item.isValid) break; // could not collect the nearest one: stop trying
  }
}

/**
 * Digs straight down up to `distance` blocks. Stops early, before digging, when the next block
 * is unbreakable, when water or lava is below or beside it, or when digging it would drop the
 * bot more than {@link MAX_SAFE_DROP} blocks.
 *
 * @returns how far the bot got and why it stopped: `ok` when it dug `distance` blocks, `partial`
 *   when it stopped early; `data.position` where it stands.
 * @throws SkillError `missing_items` (`data.tools`) when a block needs a tool the bot lacks.
 */
export async function digDown(bot: Bot, distance: number, signal: AbortSignal): Promise<Outcome> {
  loadPlugins(bot);
  const startY = Math.floor(bot.entity.position.y);
  const at = (p: Vec3) => bot.blockAt(p);
  let dug = 0;
  let reason = '';
  while (dug < distance) {
    throwIfAborted(signal);
    const feet = bot.entity.position.floored();
    const target = feet.offset(0, -1, 0);
    const block = at(target);
    if (!block) {
      reason = 'the world below is not loaded';
      break;
    }
    if (LIQUIDS.has(block.name)) {
      reason = `${block.name} is below`;
      break;
    }
    const near = [
      target.offset(0, -1, 0),
      target.offset(1, 0, 0),
      target.offset(-1, 0, 0),
      target.offset(0, 0, 1),
      target.offset(0, 0, -1),
    ];
    const liquid = near.map(at).find((b) => b && LIQUIDS.has(b.name));
    if (liquid) {
      reason = `${liquid.name} is ${liquid.position.y < target.y ? 'below' : 'next to'} the next block`;
      break;
    }
    if (!isAir(block)) {
      if (unbreakable(block)) {
        reason = `${block.name} below cannot be dug`;
        break;
      }
      let ground = target.y - 1;
      while (ground > target.y - 1 - (MAX_SAFE_DROP + 1) && !isSolid(at(new Vec3(target.x, ground, target.z)))) ground--;
      const fall = feet.y - (ground + 1);
      if (fall > MAX_SAFE_DROP) {
        reason = `digging ${block.name} would drop you more than ${MAX_SAFE_DROP} blocks`;
        break;
      }
      await equipForBlock(bot, block, signal);
      await digBlock(bot, block, signal);
    }
    // Fall into the hole; if the bot stands on an edge, step to the hole's centre.
    if (!(await waitFor(() => bot.entity.position.y < feet.y - 0.5 && bot.entity.onGround, 1_500, signal))) {
      await goTo(bot, new goals.GoalBlock(target.x, target.y, target.z), signal);
    }
    dug = startY - Math.floor(bot.entity.position.y);
  }
  const y = Math.floor(bot.entity.position.y);
  const dugText = `Dug down ${startY - y} block${startY - y === 1 ? '' : 's'} to y=${y}`;
  const p = bot.entity.position.floored();
  const position = { x: p.x, y: p.y, z: p.z };
  return reason ? failure('partial', `${dugText}; stopped because ${reason}.`, { position }) : done(`${dugText}.`, { position });
}

/**
 * Walks into reach of the block at (x, y, z), digs it with the best tool held, and picks up
 * what it drops.
 *
 * @returns `ok` with the cell's `position` and `data.gained` (what was picked up, maybe nothing).
 * @throws SkillError (`data.position` the cell) `unreachable` when the cell is not loaded or no
 *   path leads into reach, `invalid` when there is nothing to dig there or it is unbreakable,
 *   `missing_items` (`data.tools`) when a required tool is missing.
 */
export async function digAt(bot: Bot, x: number, y: number, z: number, signal: AbortSignal): Promise<Outcome> {
  const pos = new Vec3(Math.floor(x), Math.floor(y), Math.floor(z));
  const position = blockPos(pos);
  let block = bot.blockAt(pos);
  if (!block) throw new SkillError('unreachable', `${formatPos(pos, 0)} is not loaded; walk closer first.`, { position });
  if (isAir(block) || LIQUIDS.has(block.name))
    throw new SkillError('invalid', `There is no block to dig at ${formatPos(pos, 0)} (${block.name}).`, { position });
  if (unbreakable(block)) throw new SkillError('invalid', `${block.name} cannot be dug.`, { position });
  harvestToolsCheck(bot, block);
  if (!bot.canDigBlock(block)) await goTo(bot, new GoalNearOutside(pos, 3), signal).catch(at(position));
  block = bot.blockAt(pos)!;
  const before = inventoryCounts(bot);
  const name = block.name;
  await equipForBlock(bot, block, signal);
  await digBlock(bot, block, signal);
  await pickUpDropsNear(bot, pos.offset(0.5, 0.5, 0.5), 3, signal);
  const after = inventoryCounts(bot);
  const gained = diffCounts(before, after).replace(/ ?Lost .*$/, '');
  return done(`Dug ${name} at ${formatPos(pos, 0)}. ${gained || 'Nothing was picked up.'}`, {
    position,
    gained: countChanges(before, after).gained,
  });
}

/** @throws SkillError `missing_items` (`data.tools`) when `block` drops nothing without a tool the bot lacks. */
function harvestToolsCheck(bot: Bot, block: Block): void {
  const tools = harvestTools(bot, block);
  if (tools && !bot.inventory.items().some((i) => tools.includes(i.name))) {
    throw new SkillError('missing_items', `You need one of these tools to harvest ${block.name}: ${tools.join(', ')}.`, { tools });
  }
}

function blockPos(p: Vec3): BlockPos {
  return { x: p.x, y: p.y, z: p.z };
}

/** A `catch` handler that adds `position` to a {@link SkillError} without one. */
function at(position: BlockPos): (err: unknown) => never {
  return (err) => {
    if (err instanceof SkillError && !err.data?.position) throw new SkillError(err.code, err.message, { ...err.data, position });
    throw err;
  };
}

/** Clicks a placement makes before it says the server refused (see {@link clickToPlace}). */
const PLACE_ATTEMPTS = 2;

/**
 * Makes a placing click with the item already in hand, and once more after two ticks when the
 * server refused it, as a player clicks again: on a busy server the click can be handled before
 * the equip that put the item in the hand. mineflayer rejects a click whose block update is late,
 * so a rejection counts only when `blockName` has not appeared at `pos` within 1 s.
 *
 * @throws SkillError `refused_by_server` (`data.position`) with mineflayer's reason after
 *   {@link PLACE_ATTEMPTS} refused clicks; AbortError when stopped.
 */
export async function clickToPlace(bot: Bot, click: () => Promise<void>, pos: Vec3, blockName: string, signal: AbortSignal): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const refusal = await abortable(click(), signal).then(
      () => undefined,
      async (err: unknown) => {
        throwIfAborted(signal);
        return (await waitFor(() => bot.blockAt(pos)?.name === blockName, 1_000, signal)) ? undefined : err;
      },
    );
    if (refusal === undefined) return;
    if (attempt === PLACE_ATTEMPTS)
      throw new SkillError('refused_by_server', refusal instanceof Error ? refusal.message : String(refusal), { position: blockPos(pos) });
    await abortable(bot.waitForTicks(2), signal);
  }
}

const FACES = [new Vec3(0, -1, 0), new Vec3(0, 1, 0), new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1)];

/**
 * Places `blockName` from the inventory at (x, y, z): finds a solid neighbour to place against
 * (the block below first), walks to a spot in reach that is not inside the target, and places.
 *
 * @returns `ok` with `data.position` (and `data.spent`, unless the block was there already).
 * @throws SkillError, each with `data.position`: `missing_items` (`data.missing`) when the bot has
 *   none; `invalid` when it is not a block, the cell is taken by another block, nothing solid
 *   touches it, or the bot stands in it; `unreachable` when the cell is not loaded or no path leads
 *   into reach; `refused_by_server` when the server refused two clicks or undid the placement
 *   (mineflayer's `Server refused to place ... at (x, y, z): ...`, or another block there after).
 */
export async function placeBlockAt(bot: Bot, blockName: string, x: number, y: number, z: number, signal: AbortSignal): Promise<Outcome> {
  const pos = new Vec3(Math.floor(x), Math.floor(y), Math.floor(z));
  const position = blockPos(pos);
  let item: ReturnType<typeof requireItem>;
  try {
    item = requireItem(bot, blockName);
  } catch (err) {
    return at(position)(err);
  }
  if (!bot.registry.blocksByName[blockName])
    throw new SkillError('invalid', `${blockName} is an item, not a block you can place.`, { position });
  const here = bot.blockAt(pos);
  if (!here) throw new SkillError('unreachable', `${formatPos(pos, 0)} is not loaded; walk closer first.`, { position });
  if (here.name === blockName) return done(`${blockName} is already at ${formatPos(pos, 0)}.`, { position });
  if (!isReplaceable(here)) throw new SkillError('invalid', `${formatPos(pos, 0)} is taken by ${here.name}; dig it first.`, { position });
  const face = FACES.find((f) => isSolid(bot.blockAt(pos.plus(f))));
  if (!face)
    throw new SkillError('invalid', `Nothing solid touches ${formatPos(pos, 0)} to place against; place a supporting block first.`, {
      position,
    });
  const reference = bot.blockAt(pos.plus(face))!;
  const eyes = () => bot.entity.position.offset(0, bot.entity.height, 0);
  const inside = () => {
    const f = bot.entity.position.floored();
    return f.equals(pos) || f.offset(0, 1, 0).equals(pos);
  };
  if (eyes().distanceTo(pos.offset(0.5, 0.5, 0.5)) > REACH || inside()) {
    await goTo(bot, new GoalNearOutside(pos, 3), signal).catch(at(position));
  }
  if (inside()) throw new SkillError('invalid', `You are standing at ${formatPos(pos, 0)}; move away first.`, { position });
  await abortable(bot.equip(item, 'hand'), signal);
  await clickToPlace(bot, () => bot.placeBlock(reference, face.scaled(-1)), pos, blockName, signal);
  const placed = bot.blockAt(pos);
  if (placed?.name !== blockName)
    throw new SkillError(
      'refused_by_server',
      `Placing ${blockName} at ${formatPos(pos, 0)} failed (there is ${placed?.name ?? 'nothing'}).`,
      {
        position,
      },
    );
  return done(`Placed ${blockName} at ${formatPos(pos, 0)}.`, { position, spent: { [blockName]: 1 } });
}

/** Whether a block is any kind of sign (standing, wall or hanging). */
export function isSign(block: Block): boolean {
  return block.name.endsWith('_sign');
}

/** Front and back text of a sign, trimmed ('' for a blank side). */
export function signText(block: Block): { front: string; back: string } {
  const [front, back] = (block as Block & { getSignText?: () => [string, string?] }).getSignText?.() ?? [''];
  return { front: (front ?? '').trim(), back: (back ?? '').trim() };
}

/** Signs within `range` blocks, nearest first, at most `count`. */
export function nearbySigns(bot: Bot, range = BLOCK_SEARCH_RANGE, count = 8): Block[] {
  return bot
    .findBlocks({ matching: (b) => isSign(b), maxDistance: range, count })
    .map((p) => bot.blockAt(p))
    .filter((b): b is Block => !!b);
}

/** `Sign at (1, 5, 2): "Home | of Andy"` (lines joined with ` | `; back text when present). */
export function describeSign(block: Block): string {
  const { front, back } = signText(block);
  const show = (t: string) => JSON.stringify(t.replace(/\n+/g, ' | '));
  const text = front || back ? `${show(front)}${back ? `, back: ${show(back)}` : ''}` : 'blank';
  return `Sign at ${formatPos(block.position, 0)}: ${text}`;
}

/** The text of the nearest sign within {@link BLOCK_SEARCH_RANGE} blocks (`ok`, `data.position`), or `not_found`. */
export function readNearestSign(bot: Bot): Outcome {
  const [sign] = nearbySigns(bot, BLOCK_SEARCH_RANGE, 1);
  if (!sign)
    return failure('not_found', `No sign within ${BLOCK_SEARCH_RANGE} blocks.`, {
      sought: { kind: 'block', name: 'sign', range: BLOCK_SEARCH_RANGE },
    });
  return done(describeSign(sign), { position: blockPos(sign.position) });
}
