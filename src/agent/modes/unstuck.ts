/**
 * unstuck: while an action is trying to move the bot (the pathfinder is walking a path, or a
 * walking key is held) and the bot has not moved 2 blocks for {@link Unstuck.stuckMs}, interrupt
 * it and step away. A bot that has reached its goal is not trying to move: a `!followPlayer`
 * whose player stands still keeps its (dynamic) goal but has no path to walk, and is left alone.
 * One timer per bot ({@link Unstuck.tickMs}), and only while an action runs.
 */
import pathfinderPkg from 'mineflayer-pathfinder';
import type { Vec3 } from 'vec3';
import { goTo } from '../../skills/movement.ts';
import { sleep, throwIfAborted } from '../../util/abort.ts';
import { Mode } from './mode.ts';
import type { ActionRunner } from '../action-runner.ts';

const { goals } = pathfinderPkg;

/** How far the bot must get to count as progress (blocks). */
const PROGRESS_BLOCKS = 2;

export class Unstuck extends Mode {
  readonly name = 'unstuck';
  readonly description = 'Move away when an action makes no progress for 20 s.';
  override readonly interrupts = 'all' as const;
  /** No progress for this long counts as stuck (ms); tests shorten it. */
  stuckMs = 20_000;
  /** Time between two looks at the bot's progress (ms); read when an action starts. */
  tickMs = 1_000;
  /** Looks at the bot's progress so far (for tests and cost figures). */
  ticks = 0;
  readonly #actions: ActionRunner;
  #timer: NodeJS.Timeout | undefined;
  #anchor: Vec3 | undefined;
  #since = 0;

  constructor(actions: ActionRunner) {
    super();
    this.#actions = actions;
  }

  protected attach(): void {
    const off = this.#actions.subscribe((event) => {
      if (event.type === 'start' && !event.label.startsWith('mode:')) this.#watch();
      else if (event.type === 'end' || event.label.startsWith('mode:')) this.#unwatch();
    });
    this.onStop(off);
    const label = this.#actions.current;
    if (label && !label.startsWith('mode:')) this.#watch();
  }

  protected override detached(): void {
    this.#unwatch();
  }

  #watch(): void {
    this.#unwatch();
    this.#anchor = undefined;
    this.#timer = setInterval(() => this.#tick(), this.tickMs);
    this.#timer.unref();
  }

  #unwatch(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** O(1): compares the position with the last point of progress. */
  #tick(): void {
    this.host.tally();
    this.ticks++;
    const bot = this.bot;
    const pos = bot.entity?.position;
    if (!pos) return;
    const c = bot.controlState;
    // isMoving(): the pathfinder has a path left to walk (a reached or unreachable goal has none).
    const trying = !!bot.pathfinder?.isMoving() || c.forward || c.back || c.left || c.right;
    const now = Date.now();
    if (!trying || !this.#anchor || pos.distanceTo(this.#anchor) >= PROGRESS_BLOCKS) {
      this.#anchor = pos.clone();
      this.#since = now;
      return;
    }
    if (now - this.#since < this.stuckMs) return;
    const seconds = Math.round((now - this.#since) / 1000);
    this.#anchor = pos.clone();
    this.#since = now;
    this.host.fire(this, `you made no progress for ${seconds} s`, (signal) => this.#moveAway(signal), 10_000);
  }

  /** Walks a few blocks away from here (the pathfinder may dig or climb); jumps if it cannot. */
  async #moveAway(signal: AbortSignal): Promise<string> {
    const from = this.bot.entity.position.clone();
    try {
      await goTo(
        this.bot,
        new goals.GoalInvert(new goals.GoalNear(from.x, from.y, from.z, 4)),
        AbortSignal.any([signal, AbortSignal.timeout(8_000)]),
      );
    } catch {
      throwIfAborted(signal);
      this.bot.setControlState('jump', true);
      this.bot.setControlState('back', true);
      try {
        await sleep(800, signal);
      } finally {
        this.bot.clearControlStates();
      }
    }
    const moved = this.bot.entity.position.distanceTo(from);
    return moved >= 1 ? `Moved ${moved.toFixed(1)} blocks away.` : 'Could not move away either.';
  }
}
