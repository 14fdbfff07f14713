/**
 * Joining many bots at once, a bounded number at a time. A join is mostly waiting (the server
 * logs the bot in, sends its chunks, the client decodes them), so bots of one process join
 * faster side by side than one after the other; the bound keeps the server's ticks going while
 * they do (the `join_concurrency` setting).
 */

/** Options of {@link joinAll}. */
export interface JoinPoolOptions<R> {
  /** Joins under way at most; a whole number ≥ 1. */
  concurrency: number;
  /**
   * Receives each result of a join that succeeded when another failed (e.g. to quit that bot);
   * its own errors are ignored.
   */
  discard?: (result: R) => void | Promise<void>;
  /** Stops starting joins once aborted; the ones under way finish and are discarded. */
  signal?: AbortSignal;
}

/**
 * Runs `join` for every item, at most `options.concurrency` at once, in the items' order.
 * Resolves with the results in the items' order. On the first failure (or an abort) no further
 * join starts; the ones under way finish, every result is handed to `options.discard`, and the
 * first error (or the signal's reason) is thrown.
 *
 * @example
 * const sessions = await joinAll(profiles, (p) => BotSession.open(p.name, address), {
 *   concurrency: 8,
 *   discard: (session) => session.bot.quit(),
 * });
 * @throws RangeError for a concurrency that is not a whole number ≥ 1; otherwise what a join threw.
 */
export async function joinAll<T, R>(
  items: readonly T[],
  join: (item: T, index: number) => Promise<R>,
  options: JoinPoolOptions<R>,
): Promise<R[]> {
  const { concurrency, discard, signal } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`join concurrency must be a whole number ≥ 1, got ${concurrency}`);
  const results: R[] = [];
  const done: boolean[] = [];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!failure && next < items.length) {
      if (signal?.aborted) {
        failure = { error: signal.reason };
        return;
      }
      const i = next++;
      try {
        results[i] = await join(items[i]!, i);
        done[i] = true;
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (!failure) return results;
  if (discard) {
    await Promise.all(
      results.map(async (result, i) => {
        if (!done[i]) return;
        try {
          await discard(result);
        } catch {
          // discarding is best effort: the first error is what the caller needs
        }
      }),
    );
  }
  throw failure.error;
}
