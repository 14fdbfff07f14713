/** Small helpers for cancellable waiting: every wait in the project takes an AbortSignal. */

/** The error every cancelled wait rejects with (`name === 'AbortError'`). */
export function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error(typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : 'aborted');
  err.name = 'AbortError';
  return err;
}

/** True when `err` comes from a cancelled wait. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** Throws the abort error when `signal` is already aborted. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw abortError(signal);
}

/**
 * Resolves like `promise`, or rejects with an AbortError as soon as `signal` aborts.
 * The underlying work is not stopped by this: pass `onAbort` to stop it (e.g. `bot.pathfinder.stop()`).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort?: () => void): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    onAbort?.();
    promise.catch(() => {});
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const listener = () => {
      onAbort?.();
      reject(abortError(signal));
    };
    signal.addEventListener('abort', listener, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', listener);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', listener);
        reject(e);
      },
    );
  });
}

/** Waits `ms` milliseconds, or rejects with an AbortError when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return abortable(new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.()), signal);
}

/**
 * Polls `check` every `intervalMs` until it returns true.
 *
 * @returns true when the condition held, false when `timeoutMs` passed first.
 * @throws AbortError when `signal` aborts.
 */
export async function waitFor(check: () => boolean, timeoutMs: number, signal?: AbortSignal, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs, signal);
  }
  return true;
}
