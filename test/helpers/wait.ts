/**
 * The one polling helper of the tests. It has no dependencies, so unit tests import it from here;
 * tests on a server get it from world.ts beside the server fixtures.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { inspect } from 'node:util';

/** Options of {@link waitUntil}. */
export interface WaitOptions {
  /** Give up after this long (ms); default 10 000. */
  timeoutMs?: number;
  /** Time between checks (ms); default 50. */
  intervalMs?: number;
  /** Stops waiting (rejects with the signal's reason) when aborted. */
  signal?: AbortSignal;
  /** What to show on timeout, read then (e.g. the value the condition was last waiting on). */
  state?: () => unknown;
}

/**
 * The one polling helper: calls `check` until it returns true, every `intervalMs`. Rejects with
 * `what` (and `state()`, if given) after `timeoutMs`, or with the signal's reason when it aborts;
 * an error thrown by `check` rejects at once.
 *
 * @param options a timeout in ms, or {@link WaitOptions}.
 */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, options: number | WaitOptions = {}): Promise<void> {
  const { timeoutMs = 10_000, intervalMs = 50, signal, state } = typeof options === 'number' ? { timeoutMs: options } : options;
  const started = Date.now();
  while (!(await check())) {
    signal?.throwIfAborted();
    if (Date.now() - started > timeoutMs) {
      const last = state ? ` (last: ${inspect(state(), { depth: 3, breakLength: Infinity })})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}${last}`);
    }
    await delay(intervalMs, undefined, { signal });
  }
}
