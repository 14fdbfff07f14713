/**
 * `!activate`: using the nearest lever, button or pressure plate of a type the way a player does
 * (the rules are src/game/switches.ts, from minecraft-data and vanilla):
 * - a lever is right-clicked: it flips (`LeverBlock.useWithoutItem`);
 * - a button is right-clicked: it is pressed and releases by itself 20 game ticks later (stone) or
 *   30 (wooden); one already pressed is waited for first, since a click on it does nothing
 *   (`ButtonBlock.useWithoutItem`);
 * - a pressure plate is walked onto: it stays pressed while the bot stands on it
 *   (`BasePressurePlateBlock.entityInside`).
 * Any other block is used with the empty hand, as `!useOn("hand", type)` does.
 * With a position (`!activate("lever", x, y, z)`), the switch of that type at that position is
 * used instead of the nearest: a room may hold several of one type.
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import pathfinderPkg from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { abortable, throwIfAborted, waitFor } from '../util/abort.ts';
import { MAX_SIGNAL, signalOf, switchKinds, type SwitchKind } from '../game/switches.ts';
import { boundedWalk, goTo, REACH } from './movement.ts';
import { formatPos } from './navigation.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';
import { USE_ON_RANGE, useOn } from './use-on.ts';
import { normaliseName } from '../game/names.ts';

const { goals } = pathfinderPkg;

/** How long the walk to a switch may take, in ms. */
export const SWITCH_WALK_MS = 30_000;
/** How long the server has to show a click's or a step's effect, in ms. */
const ANSWER_MS = 3_000;
/** Game ticks per second (vanilla). */
const TICKS_PER_SECOND = 20;

/** `1 s`, `1.5 s`: game ticks as seconds. */
function seconds(ticks: number): string {
  return `${Number((ticks / TICKS_PER_SECOND).toFixed(2))} s`;
}

/** A block position (whole numbers). */
export interface SwitchPos {
  x: number;
  y: number;
  z: number;
}

/**
 * Activates the nearest block of `type` within {@link USE_ON_RANGE} blocks, or with `at` the
 * switch of that type at that position (within the same range): flips a lever, presses a button,
 * stands on a pressure plate; uses any other block with the empty hand (`!useOn`, nearest only).
 *
 * @returns `ok` with `data.position` and `data.signal` (the switch's `name`, `powered`, `power`
 *   0–15, and for a button `releasesInTicks`); for example `Pressed stone_button at (3, -60, 7);
 *   it releases in 1 s.` `not_found` (`data.sought`) when none is in range; `refused_by_server`
 *   when the server did not change the switch. With `at`: `not_found` (`data.sought` with its
 *   `position`) when the block there is not a `type` or is farther than {@link USE_ON_RANGE}.
 * @throws SkillError `invalid` for a name that is no block, or a position given to a block that is
 *   no switch; `unreachable` when no path leads there within {@link SWITCH_WALK_MS}.
 */
export async function activate(bot: Bot, type: string, signal: AbortSignal, at?: SwitchPos): Promise<Outcome> {
  const name = normaliseName(type);
  const kind = switchKinds(bot.registry).get(name);
  if (!kind) {
    if (at) throw new SkillError('invalid', `${name} is no lever, button or pressure plate: leave out the position to use the nearest.`);
    return useOn(bot, 'hand', name, signal);
  }
  const block = at ? switchAt(bot, name, at) : bot.findBlock({ matching: bot.registry.blocksByName[name]!.id, maxDistance: USE_ON_RANGE });
  if (!block) {
    const where = at ? ` at ${formatPos(at, 0)}` : '';
    return failure('not_found', `No ${name}${where} within ${USE_ON_RANGE} blocks.`, {
      sought: { kind: 'block', name, range: USE_ON_RANGE, ...(at ? { position: { x: at.x, y: at.y, z: at.z } } : {}) },
    });
  }
  if (kind.kind === 'plate') return standOn(bot, block, signal);
  return click(bot, block, kind, signal);
}

/** The `name` block the bot sees at `at`, if it is within {@link USE_ON_RANGE}; null otherwise. */
function switchAt(bot: Bot, name: string, at: SwitchPos): Block | null {
  const block = bot.blockAt(new Vec3(Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)));
  if (!block || block.name !== name) return null;
  return bot.entity.position.distanceTo(block.position) <= USE_ON_RANGE ? block : null;
}

/** What the bot sees of the switch at `block`'s position now. */
function current(bot: Bot, block: Block): Block | null {
  const now = bot.blockAt(block.position);
  return now?.name === block.name ? now : null;
}

/** The outcome data of a switch in its state now. */
function signalData(bot: Bot, block: Block, extra: { releasesInTicks?: number } = {}) {
  const power = signalOf(bot.registry, block);
  const p = block.position;
  return { position: { x: p.x, y: p.y, z: p.z }, signal: { name: block.name, powered: power > 0, power, ...extra } };
}

/** Right-clicks a lever or button from within reach. */
async function click(bot: Bot, block: Block, kind: Exclude<SwitchKind, { kind: 'plate' }>, signal: AbortSignal): Promise<Outcome> {
  const pos = block.position;
  const where = `the ${block.name} at ${formatPos(pos, 0)}`;
  const position = { x: pos.x, y: pos.y, z: pos.z };
  if (bot.entity.position.offset(0, bot.entity.height, 0).distanceTo(pos.offset(0.5, 0.5, 0.5)) > REACH - 0.5) {
    await boundedWalk(signal, SWITCH_WALK_MS, where, (bound) => goTo(bot, new goals.GoalNear(pos.x, pos.y, pos.z, 2), bound), { position });
  }
  throwIfAborted(signal);
  if (kind.kind === 'button' && signalOf(bot.registry, current(bot, block) ?? block) > 0) {
    // A click on a pressed button does nothing: wait for it to release (at most its whole time).
    const released = await waitFor(
      () => signalOf(bot.registry, current(bot, block) ?? block) === 0,
      (kind.pressedTicks / TICKS_PER_SECOND) * 1000 + ANSWER_MS,
      signal,
    );
    if (!released)
      return failure('refused_by_server', `${where} stays pressed; try again later.`, signalData(bot, current(bot, block) ?? block));
  }
  const before = current(bot, block) ?? block;
  await abortable(bot.unequip('hand'), signal);
  await abortable(bot.activateBlock(before), signal);
  await waitFor(() => current(bot, block)?.stateId !== before.stateId, ANSWER_MS, signal);
  const after = current(bot, block);
  if (!after || after.stateId === before.stateId)
    return failure('refused_by_server', `Used ${where}, but nothing changed.`, signalData(bot, after ?? before));
  const power = signalOf(bot.registry, after);
  if (kind.kind === 'lever') {
    return done(`Flipped the lever at ${formatPos(pos, 0)}; it is now ${power > 0 ? 'on' : 'off'}.`, signalData(bot, after));
  }
  return done(
    `Pressed ${block.name} at ${formatPos(pos, 0)}; it releases in ${seconds(kind.pressedTicks)}.`,
    signalData(bot, after, { releasesInTicks: kind.pressedTicks }),
  );
}

/** Walks onto a pressure plate and waits until it is pressed. */
async function standOn(bot: Bot, block: Block, signal: AbortSignal): Promise<Outcome> {
  const pos = block.position;
  const where = `the ${block.name} at ${formatPos(pos, 0)}`;
  const position = { x: pos.x, y: pos.y, z: pos.z };
  const onIt = () => bot.entity.position.floored().equals(pos);
  if (!onIt())
    await boundedWalk(signal, SWITCH_WALK_MS, where, (bound) => goTo(bot, new goals.GoalBlock(pos.x, pos.y, pos.z), bound), { position });
  throwIfAborted(signal);
  if (!onIt()) throw new SkillError('unreachable', `Could not step onto ${where}.`, { position });
  await waitFor(() => signalOf(bot.registry, current(bot, block) ?? block) > 0, ANSWER_MS, signal);
  const now = current(bot, block) ?? block;
  const power = signalOf(bot.registry, now);
  if (power === 0) return failure('refused_by_server', `You stand on ${where}, but it is not pressed.`, signalData(bot, now));
  const level = power === MAX_SIGNAL ? '' : ` (power ${power})`;
  return done(`Stood on ${block.name} at ${formatPos(pos, 0)}; it is pressed${level} while you stay on it.`, signalData(bot, now));
}
