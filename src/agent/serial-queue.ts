/** Runs queued async jobs one after another, so no two handlers of one agent ever race. */
export class SerialQueue {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;
  readonly #onIdle: (() => void) | undefined;

  /** @param onIdle called each time the last queued job has finished. */
  constructor(onIdle?: () => void) {
    this.#onIdle = onIdle;
  }

  /** Jobs queued or running. */
  get size(): number {
    return this.#pending;
  }

  /** Resolves once every job queued so far, and any queued while waiting, has run. */
  async drained(): Promise<void> {
    while (this.#pending > 0) await this.#tail;
  }

  /**
   * Queues `job`; resolves when it has run. A failing job rejects its own promise only and never
   * blocks the jobs after it.
   */
  push<T>(job: () => Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(job);
    this.#tail = result
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        if (--this.#pending === 0) this.#onIdle?.();
      });
    return result;
  }
}
