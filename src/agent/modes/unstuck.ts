/**
 * unstuck: while an action is trying to move the bot (a pathfinder goal is set, or a walking
 * key is held) and the bot has not moved 2 blocks for {@link Unstuck.stuckMs}, interrupt it and
 * step away. One 1 s timer per bot, and only while an action runs.
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
const TICK_MS = 1_000;

export class Unstuck extends Mode {
  readonly name = 'unstuck';
  readonly description = 'Move away when an action makes no progress for 20 s.';
  override readonly interrupts = 'all' as const;
  /** No progress for this long counts as stuck (ms). */
  stuckMs = 20_000;
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
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  #unwatch(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** O(1): compares the position with the last point of progress. */
  #tick(): void {
    this.host.tally();
    const bot = this.bot;
    const pos = bot.entity?.position;
    if (!pos) return;
    const c = bot.controlState;
    const trying = bot.pathfinder?.goal != null || c.forward || c.back || c.left || c.right;
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
      await goTo(this.bot, new goals.GoalInvert(new goals.GoalNear(from.x, from.y, from.z, 4)), AbortSignal.any([signal, AbortSignal.timeout(8_000)]));
    } catch {
      throwIfAborted(signal);
      this.bot.setControlState('jump', true);
      this.bot.setControlState('back', true);
      try { await sleep(800, signal); } finally { this.bot.clearControlStates(); }
    }
    const moved = this.bot.entity.position.distanceTo(from);
    return moved >= 1 ? `Moved ${moved.toFixed(1)} blocks away.` : 'Could not move away either.';
  }
}
