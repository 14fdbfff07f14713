/**
 * Runs at most one action at a time for one bot. Each action gets an AbortSignal that fires on
 * `stop()`, when another action starts, or when its time bound passes; `run()` settles within
 * {@link SETTLE_MS} of that even if the action ignores its signal.
 */
import { failure, isOutcome, outcomeOfError, type Outcome, SkillError } from '../skills/outcome.ts';
import { abortError, isAbortError } from '../util/abort.ts';

/** How long a cancelled action may take to notice its signal before `run()` returns anyway (ms). */
export const SETTLE_MS = 1_000;

export interface ActionResult {
  label: string;
  /** The action's own report, or what went wrong (the text of {@link outcome}). */
  output: string;
  /**
   * The typed outcome: the action's own, or `interrupted`, `timeout` or (for what it threw) the
   * error's code (see `outcomeOfError`). A stopped action's `SkillError` data is kept (a hand-over
   * cut short says what was tossed).
   */
  outcome: Outcome;
  /** Finished by itself without error. */
  ok: boolean;
  /** Cancelled by `stop()` or by a newer action. */
  interrupted: boolean;
  timedOut: boolean;
  durationMs: number;
}

export interface ActionRunnerOptions {
  /** Default time bound of an action, in ms. */
  timeoutMs: number;
  /** Called after every action ends, e.g. to release the bot's controls and stop pathfinding. */
  release?: () => void;
}

/** Options of one {@link ActionRunner.run}. */
export interface RunOptions {
  /**
   * Time bound for this action (default: the runner's), in ms; `Infinity` for none: the action
   * runs until `stop()` or a newer action cancels it (settling within {@link SETTLE_MS} as ever).
   */
  timeoutMs?: number;
  /**
   * An urgent action (a mode fleeing lava or fighting) is not cancelled by a newer ordinary
   * action: the newer one waits until it has ended. `stop()` and `preempt` still cancel it.
   */
  urgent?: boolean;
  /** Cancel the running action even when it is urgent (a more important mode). */
  preempt?: boolean;
}

/** What {@link ActionRunner.subscribe} listeners hear: an action started, or one ended. */
export type ActionEvent = { type: 'start'; label: string } | { type: 'end'; label: string; result: ActionResult };

interface Running {
  label: string;
  urgent: boolean;
  controller: AbortController;
  done: Promise<ActionResult>;
}

export class ActionRunner {
  #running?: Running;
  readonly #options: ActionRunnerOptions;
  readonly #listeners = new Set<(event: ActionEvent) => void>();

  constructor(options: ActionRunnerOptions) {
    this.#options = options;
  }

  /** Label of the action running now, if any. */
  get current(): string | undefined {
    return this.#running?.label;
  }

  /** Whether the running action is urgent (see {@link RunOptions.urgent}). */
  get urgent(): boolean {
    return this.#running?.urgent ?? false;
  }

  /**
   * Listens to actions starting and ending (listeners must not throw).
   *
   * @returns a function that removes the listener.
   */
  subscribe(listener: (event: ActionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Runs `fn` as the bot's one action, first cancelling any action already running (or, when
   * that one is urgent, waiting for it to end).
   *
   * @param label short name shown to the model and in `!stats`, e.g. `!collectBlocks`.
   * @param fn the action; it must honour `signal` and returns a short report for the model.
   * @param options time bound in ms (default: the runner's), or {@link RunOptions}.
   * @returns the outcome; never rejects.
   */
  async run(
    label: string,
    fn: (signal: AbortSignal) => Promise<Outcome | string | undefined>,
    options: number | RunOptions = {},
  ): Promise<ActionResult> {
    const {
      timeoutMs = this.#options.timeoutMs,
      urgent = false,
      preempt = false,
    } = typeof options === 'number' ? { timeoutMs: options } : options;
    // Loop: another run() may have started while this one waited. No await between the loop's
    // exit and taking the slot below, so two runs never hold it together.
    for (let r = this.#running; r; r = this.#running) {
      if (r.urgent && !preempt) await r.done;
      else await this.stop(`interrupted by ${label}`);
    }
    const controller = new AbortController();
    const started = Date.now();
    // Infinity: no time bound (an action that runs until stopped, like `!followPlayer`).
    const signal = Number.isFinite(timeoutMs) ? AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]) : controller.signal;
    const finish = (outcome: Outcome, flags: { interrupted?: boolean; timedOut?: boolean } = {}): ActionResult => ({
      label,
      output: outcome.text,
      outcome,
      ok: outcome.ok,
      interrupted: flags.interrupted ?? false,
      timedOut: flags.timedOut ?? false,
      durationMs: Date.now() - started,
    });

    const work = Promise.resolve().then(() => fn(signal));
    const cancelled = new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => setTimeout(() => reject(abortError(signal)), SETTLE_MS).unref(), { once: true });
    });
    const done = Promise.race([work, cancelled])
      .then(
        (value) => finish(isOutcome(value) ? value : { ok: true, code: 'ok', text: value ?? `${label} done.` }),
        (err: unknown) => {
          // What a stopped skill knew when it stopped (a SkillError's data) stays with the outcome.
          const data = err instanceof SkillError ? err.data : undefined;
          const timedOut = !controller.signal.aborted && signal.aborted;
          if (timedOut) {
            const text = `${label} stopped: it took longer than ${Math.round(timeoutMs / 1000)} s.`;
            return finish(failure('timeout', text, data), { timedOut: true });
          }
          if (controller.signal.aborted || isAbortError(err)) {
            const why = typeof controller.signal.reason === 'string' ? controller.signal.reason : 'stopped';
            return finish(failure('interrupted', `${label} was ${why}.`, data), { interrupted: true });
          }
          return finish(outcomeOfError(err, `${label} failed: `));
        },
      )
      .then((result) => {
        if (this.#running?.controller === controller) this.#running = undefined;
        this.#options.release?.();
        this.#emit({ type: 'end', label, result });
        return result;
      });
    work.catch(() => {}); // a late failure after cancellation has already been reported
    this.#running = { label, urgent, controller, done };
    this.#emit({ type: 'start', label });
    return done;
  }

  /**
   * Cancels the running action, if any, and waits until it has settled (at most about 1 s).
   *
   * @param reason why, shown to the model (e.g. `stopped by Steve`).
   */
  async stop(reason = 'stopped'): Promise<void> {
    const running = this.#running;
    if (!running) return;
    running.controller.abort(reason);
    await running.done;
  }

  #emit(event: ActionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // a listener's failure must not break the action's result
      }
    }
  }
}
