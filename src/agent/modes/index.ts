/**
 * Modes: reflexes that act without the model (flee lava, fight a zombie, pick up drops...).
 * The {@link ModeController} owns one object per mode; each listens to the bot's events while it
 * is on and asks the controller to act. Nothing polls: the reference checks every mode every
 * 300 ms (its idle CPU is mostly one `findBlocks` per check); here a mode's condition is evaluated
 * when an event could have changed it, when the bot becomes idle, and when the mode is switched on.
 *
 * A mode that fires runs its action through the agent's {@link ActionRunner}, cancelling the
 * running command; modes that defend the bot run *urgent* actions that a newer command waits for
 * instead of cancelling. When a mode's action ends, the model of the interrupted command is told
 * (through `onInterrupt`) what interrupted it; the command is not retried by itself.
 */
import type { Bot } from 'mineflayer';
import type { ActionRunner } from '../action-runner.ts';
import { Cheat } from './cheat.ts';
import { Cowardice } from './cowardice.ts';
import { ElbowRoom } from './elbow_room.ts';
import { Hunting } from './hunting.ts';
import { IdleStaring } from './idle_staring.ts';
import { ItemCollecting } from './item_collecting.ts';
import { MODE_NAMES, type Mode, type ModeAction, type ModeHost, type ModeName } from './mode.ts';
import { SelfDefense } from './self_defense.ts';
import { SelfPreservation } from './self_preservation.ts';
import { TorchPlacing } from './torch_placing.ts';
import { Unstuck } from './unstuck.ts';

import type { ModeState } from '../../commands/context.ts';

export { MODE_NAMES, type ModeName } from './mode.ts';

/** The switches of `profiles/defaults/_default.json` (a profile's `modes` override them). */
export const DEFAULT_MODES: Readonly<Record<ModeName, boolean>> = {
  self_preservation: true,
  unstuck: true,
  cowardice: false,
  self_defense: true,
  hunting: true,
  item_collecting: true,
  torch_placing: true,
  elbow_room: true,
  idle_staring: true,
  cheat: false,
};

export interface ModeControllerOptions {
  bot: Bot;
  /** The agent's action runner: modes act through it. */
  actions: ActionRunner;
  /** The profile's switches (over {@link DEFAULT_MODES}); unknown names are logged and ignored. */
  profileModes?: Record<string, boolean>;
  /** Told to the model when a mode interrupted a command, once the mode's action has ended. */
  onInterrupt: (message: string) => void;
  /** Called with every switch after one changes (`!setMode`), e.g. to persist them. */
  changed?: (switches: Record<ModeName, boolean>) => void;
  log?: (line: string) => void;
}

/** Work done by the modes, for cost measurements. */
export interface ModeStats {
  /** Bot events delivered to mode listeners. */
  events: number;
  /** Evaluations of a mode's condition past its O(1) filter (block lookups, distances, scans). */
  checks: number;
  /** Mode actions started. */
  fired: number;
}

interface Active {
  mode: Mode;
  reason: string;
  /** The command the mode (or the mode it took over from) interrupted. */
  interrupted: string | undefined;
}

/** Owns the modes of one bot; see the module comment. */
export class ModeController {
  readonly stats: ModeStats = { events: 0, checks: 0, fired: 0 };
  readonly #options: ModeControllerOptions;
  readonly #modes: Mode[];
  readonly #on = new Map<ModeName, boolean>();
  readonly #pausedUntil = new Map<ModeName, number>();
  readonly #host: ModeHost;
  #active: Active | undefined;
  #recheckQueued = false;
  #pauseTimer: NodeJS.Timeout | undefined;
  #unsubscribe: () => void;
  #disposed = false;

  constructor(options: ModeControllerOptions) {
    this.#options = options;
    const { actions } = options;
    this.#modes = [
      new SelfPreservation(),
      new Unstuck(actions),
      new Cowardice(),
      new SelfDefense(),
      new Hunting(),
      new ItemCollecting(),
      new TorchPlacing(),
      new ElbowRoom(),
      new IdleStaring(),
      new Cheat(),
    ];
    this.#host = {
      bot: options.bot,
      current: () => actions.current,
      mayAct: (mode) => this.#mayAct(mode),
      fire: (mode, reason, action, timeoutMs) => this.#fire(mode, reason, action, timeoutMs),
      tally: () => {
        this.stats.checks++;
      },
      heard: () => {
        this.stats.events++;
      },
      log: (line) => this.#log(line),
    };
    const profile = options.profileModes ?? {};
    for (const name of Object.keys(profile)) if (!this.#find(name)) this.#log(`unknown mode "${name}" in the profile, ignored`);
    for (const mode of this.#modes) {
      const on = profile[mode.name] ?? DEFAULT_MODES[mode.name];
      this.#on.set(mode.name, on);
      if (on) mode.start(this.#host);
    }
    // When a command ends and nothing else runs, conditions that arose meanwhile get their turn.
    this.#unsubscribe = actions.subscribe((event) => {
      if (event.type === 'end' && !event.label.startsWith('mode:')) this.#queueRecheck();
    });
  }

  /** Whether mode `name` is on (e.g. `cheat`, read by commands). Unknown names are off. */
  isOn(name: string): boolean {
    return this.#on.get(name as ModeName) ?? false;
  }

  /** The mode object named `name`, if any (tests tune e.g. `unstuck.stuckMs`). */
  get<T extends Mode = Mode>(name: ModeName): T {
    return this.#find(name) as T;
  }

  /** Name of the mode whose action is running, if any. */
  get acting(): ModeName | undefined {
    return this.#active?.mode.name;
  }

  /**
   * Switches a mode on or off (`!setMode`). Switching off the mode that is acting stops its action.
   *
   * @throws Error naming the known modes when `name` is not one.
   */
  set(name: string, on: boolean): void {
    const mode = this.#find(name);
    if (!mode) throw new Error(`There is no mode "${name}". Modes: ${MODE_NAMES.join(', ')}.`);
    if (this.#on.get(mode.name) === on) return;
    this.#on.set(mode.name, on);
    this.#options.changed?.(this.toJSON());
    if (on) {
      if (!this.#disposed) {
        mode.start(this.#host);
        this.#queueRecheck();
      }
    } else {
      mode.stop();
      if (this.#active?.mode === mode) void this.#options.actions.stop(`mode ${mode.name} switched off`);
    }
  }

  /** `!modes`: every mode with its switch, pause and description, in the order they are checked. */
  list(): ModeState[] {
    const now = Date.now();
    return this.#modes.map((m) => ({
      name: m.name,
      on: this.isOn(m.name),
      description: m.description,
      paused: (this.#pausedUntil.get(m.name) ?? 0) > now,
      acting: this.#active?.mode === m,
    }));
  }

  /**
   * Keeps modes from acting for `ms` (`!stay`); switches are unchanged. When the pause ends the
   * modes look once at the situation.
   *
   * @param ms how long, in ms (default: until the returned function or {@link resume} is called).
   * @param names the modes to pause (default: all).
   * @returns a function that ends the pause.
   */
  pause(ms = Infinity, names: readonly string[] = MODE_NAMES): () => void {
    const until = Date.now() + ms;
    for (const name of names) if (this.#find(name)) this.#pausedUntil.set(name as ModeName, until);
    clearTimeout(this.#pauseTimer);
    if (Number.isFinite(ms)) {
      this.#pauseTimer = setTimeout(() => this.#queueRecheck(), ms + 10);
      this.#pauseTimer.unref();
    }
    return () => this.resume();
  }

  /** Ends every pause at once. */
  resume(): void {
    this.#pausedUntil.clear();
    clearTimeout(this.#pauseTimer);
    this.#queueRecheck();
  }

  /** The switches, for persistence. */
  toJSON(): Record<ModeName, boolean> {
    return Object.fromEntries(this.#modes.map((m) => [m.name, this.isOn(m.name)])) as Record<ModeName, boolean>;
  }

  /** Restores switches saved by {@link toJSON}; unknown names are ignored. */
  load(state: Record<string, boolean>): void {
    for (const [name, on] of Object.entries(state)) if (this.#find(name) && typeof on === 'boolean') this.set(name, on);
  }

  /** Removes every listener and timer; the controller stays inert afterwards. */
  dispose(): void {
    this.#disposed = true;
    for (const mode of this.#modes) if (this.isOn(mode.name)) mode.stop();
    this.#unsubscribe();
    clearTimeout(this.#pauseTimer);
  }

  #find(name: string): Mode | undefined {
    return this.#modes.find((m) => m.name === name);
  }

  #rank(mode: Mode): number {
    return this.#modes.indexOf(mode);
  }

  #mayAct(mode: Mode): boolean {
    if (this.#disposed || !this.isOn(mode.name)) return false;
    if ((this.#pausedUntil.get(mode.name) ?? 0) > Date.now()) return false;
    // A mode already acting yields only to a more important mode that may interrupt anything.
    if (this.#active) return mode.interrupts === 'all' && this.#rank(mode) < this.#rank(this.#active.mode);
    const current = this.#options.actions.current;
    if (!current || mode.interrupts === 'all') return true;
    return mode.interrupts.includes(current);
  }

  #fire(mode: Mode, reason: string, action: ModeAction, timeoutMs: number): boolean {
    if (!this.#mayAct(mode)) return false;
    const current = this.#options.actions.current;
    const active: Active = { mode, reason, interrupted: this.#active ? this.#active.interrupted : current };
    this.#active = active;
    this.stats.fired++;
    this.#log(`mode ${mode.name}: ${reason}${active.interrupted ? ` (interrupting ${active.interrupted})` : ''}`);
    void this.#options.actions
      .run(`mode:${mode.name}`, action, { timeoutMs, urgent: mode.interrupts === 'all', preempt: true })
      .then((result) => {
        if (this.#active !== active) return; // a more important mode took over and will report
        this.#active = undefined;
        this.#log(`mode ${mode.name}: ${result.output}`);
        // Cancelled by a newer command or !stop: whoever did that knows already.
        if (active.interrupted && !result.interrupted) {
          this.#options.onInterrupt(
            `Your action ${active.interrupted} was interrupted by mode ${mode.name}: ${reason}. ${result.output} The action was not resumed: run it again if it is still needed.`,
          );
        }
        this.#queueRecheck();
      });
    return true;
  }

  /** Evaluates every mode once, in order, on the next turn of the event loop (coalesced). */
  #queueRecheck(): void {
    if (this.#recheckQueued || this.#disposed) return;
    this.#recheckQueued = true;
    setImmediate(() => {
      this.#recheckQueued = false;
      for (const mode of this.#modes) {
        if (this.#active || this.#disposed) return;
        if (this.#mayAct(mode)) mode.check();
      }
    });
  }

  #log(line: string): void {
    this.#options.log?.(line);
  }
}
