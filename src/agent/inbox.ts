/**
 * An agent's queue of work: messages to answer and commands to run, one at a time in arrival
 * order, so no two handlers of one agent ever race. Bounded: past {@link InboxOptions.limit}
 * waiting jobs, the oldest droppable one (the agent's own prompts, a bot's lines already in the
 * history) makes room, and when none can, the new job is refused. Both are said by the caller
 * (see {@link Inbox.push}). It can be held (the bot is offline): jobs then wait until
 * {@link Inbox.release}.
 */

/** One job of the inbox. */
export interface InboxJob {
  /** For logs and the drop notice, e.g. `Steve: get wood`. */
  label: string;
  /** May be dropped to make room for newer work (never a player's message or command). */
  droppable: boolean;
  run(): Promise<void>;
}

/** Options of an {@link Inbox}. */
export interface InboxOptions {
  /** Jobs that may wait (not counting the running one), at least 1. */
  limit: number;
  /** Called each time the last job has finished and nothing waits. */
  onIdle?(): void;
  /** Called with a job that was dropped to make room, or refused. */
  onDrop?(job: InboxJob, why: 'dropped' | 'refused'): void;
  /** A job that threw (jobs should not; the inbox goes on). */
  onError?(job: InboxJob, err: unknown): void;
}

/**
 * @example
 * const inbox = new Inbox({ limit: 32, onIdle: () => goalLoop.idle() });
 * inbox.push({ label: 'Steve: hi', droppable: false, run: () => answer(message) });
 * await inbox.drained();
 */
export class Inbox {
  readonly #options: InboxOptions;
  readonly #waiting: InboxJob[] = [];
  #running: InboxJob | undefined;
  /** A pump is under way (set at once, so only one runs). */
  #pumping = false;
  #held = false;
  #drainedWaiters: (() => void)[] = [];

  constructor(options: InboxOptions) {
    this.#options = { ...options, limit: Math.max(1, options.limit) };
  }

  /** Jobs waiting or running. */
  get size(): number {
    return this.#waiting.length + (this.#running ? 1 : 0);
  }

  /** True while {@link hold} keeps jobs waiting. */
  get held(): boolean {
    return this.#held;
  }

  /**
   * Queues `job`. When the inbox is full, the oldest droppable waiting job is dropped to make
   * room; when there is none, `job` itself is refused (when it is droppable, or every waiting job
   * is a player's). Each is passed to `onDrop`.
   *
   * @returns false when `job` was refused.
   */
  push(job: InboxJob): boolean {
    if (this.#waiting.length >= this.#options.limit) {
      const i = this.#waiting.findIndex((j) => j.droppable);
      if (i < 0 || job.droppable) {
        this.#options.onDrop?.(job, 'refused');
        return false;
      }
      const [dropped] = this.#waiting.splice(i, 1);
      if (dropped) this.#options.onDrop?.(dropped, 'dropped');
    }
    this.#waiting.push(job);
    void this.#pump();
    return true;
  }

  /** Keeps waiting jobs from starting (the running one finishes) until {@link release}. */
  hold(): void {
    this.#held = true;
  }

  /** Lets held jobs run again. */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    void this.#pump();
  }

  /** Drops every waiting job without running it (the running one finishes); returns how many. */
  clear(): number {
    const n = this.#waiting.length;
    this.#waiting.length = 0;
    this.#settle();
    return n;
  }

  /** Resolves once nothing waits or runs (jobs queued meanwhile included); at once while held with nothing running. */
  drained(): Promise<void> {
    if (!this.#pumping && (this.#waiting.length === 0 || this.#held)) return Promise.resolve();
    return new Promise((resolve) => this.#drainedWaiters.push(resolve));
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    await Promise.resolve(); // never inside the caller's push(): jobs start on a later microtask
    while (!this.#held && this.#waiting.length > 0) {
      const job = this.#waiting.shift()!;
      this.#running = job;
      try {
        await job.run();
      } catch (err) {
        this.#options.onError?.(job, err);
      } finally {
        this.#running = undefined;
      }
    }
    this.#pumping = false;
    this.#settle();
  }

  #settle(): void {
    if (this.#pumping || (this.#waiting.length > 0 && !this.#held)) return;
    const waiters = this.#drainedWaiters;
    this.#drainedWaiters = [];
    for (const resolve of waiters) resolve();
    if (this.#waiting.length === 0) this.#options.onIdle?.();
  }
}
