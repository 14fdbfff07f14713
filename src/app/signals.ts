/**
 * SIGINT (Ctrl-C) and SIGTERM, owned by the running command from its first line.
 *
 * A command that stops cleanly (`start`, `server`, `worker`, `eval`) takes the signals before it
 * starts anything, and from then on no one else handles them: listeners already there and those
 * added later are removed. flying-squid's log module is the reason: on its first server it
 * installs `exit-hook`, whose SIGINT/SIGTERM listener calls `process.exit(130/143)` at once, so a
 * process that took the signals after its server had started lost the race (memory changes still
 * waiting on their save were lost, and a worker could end before it said it was stopping).
 *
 * The first `graceful` signals each resolve their promise ({@link Interrupts.nth}); the command
 * stops cleanly on them. One more ends the process at once, with 128 + the signal's number
 * (130 for SIGINT, 143 for SIGTERM), as a shell reports a process a signal ended.
 */
import { constants } from 'node:os';

/** The signals a command stops on. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** What {@link takeSignals} returns. */
export interface Interrupts {
  /** Resolves at the first SIGINT or SIGTERM, with its name (also when it came before this was read). */
  readonly first: Promise<InterruptSignal>;
  /**
   * Resolves at the `n`-th signal (1-based).
   *
   * @throws RangeError when `n` is not a whole number from 1 to the `graceful` count.
   */
  nth(n: number): Promise<InterruptSignal>;
  /** How many signals came so far. */
  readonly count: number;
  /** Gives the signals back: the listener goes, and listeners added later stay (tests). */
  release(): void;
}

export interface TakeSignalsOptions {
  /** Signals the command handles before the next one ends the process at once (default 1). */
  graceful?: number;
  /** Ends the process (default `process.exit`); tests pass their own. */
  exit?: (code: number) => void;
}

const SIGNALS: readonly InterruptSignal[] = ['SIGINT', 'SIGTERM'];

/**
 * Takes SIGINT and SIGTERM for the running command (see the module comment). Call it once, at
 * the start of a command, before anything that may load flying-squid.
 *
 * @example
 * const signals = takeSignals();
 * const running = await startAgents(...);
 * await signals.first; // Ctrl-C or SIGTERM
 * await running.close(); // memories saved; a second Ctrl-C meanwhile quits at once
 */
export function takeSignals(options: TakeSignalsOptions = {}): Interrupts {
  const graceful = options.graceful ?? 1;
  if (!Number.isInteger(graceful) || graceful < 1) throw new RangeError(`graceful expects a whole number ≥ 1, got ${graceful}`);
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const resolvers: ((signal: InterruptSignal) => void)[] = [];
  const stages = Array.from(
    { length: graceful },
    () =>
      new Promise<InterruptSignal>((resolve) => {
        resolvers.push(resolve);
      }),
  );
  let count = 0;
  const handler = (signal: InterruptSignal) => {
    const resolve = resolvers[count++];
    if (resolve) resolve(signal);
    else exit(128 + constants.signals[signal]);
  };
  // Anyone else's listener, now or later, goes (a `once` listener is reported by its own function).
  const strip = (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if ((event === 'SIGINT' || event === 'SIGTERM') && listener !== handler) queueMicrotask(() => process.off(event, listener));
  };
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) process.off(signal, listener);
    process.on(signal, handler);
  }
  process.on('newListener', strip);
  return {
    first: stages[0]!,
    nth(n) {
      const stage = stages[n - 1];
      if (!Number.isInteger(n) || !stage) throw new RangeError(`nth expects a whole number from 1 to ${graceful}, got ${n}`);
      return stage;
    },
    get count() {
      return count;
    },
    release() {
      process.off('newListener', strip);
      for (const signal of SIGNALS) process.off(signal, handler);
    },
  };
}
