/**
 * An agent's conversation history and its summarised memory.
 *
 * When the history grows past `maxMessages`, its oldest turns are summarised into the memory in
 * the background: the summary request runs while the agent keeps acting and answering, and the
 * summarised turns stay in the history (so nothing is missing from the prompt) until the new
 * memory replaces them. One summary runs at a time. A summary that fails keeps its turns: they
 * stay in the history and are summarised again after a backoff ({@link HistoryOptions.retryMs},
 * doubling up to {@link SUMMARY_RETRY_MAX_MS}), so a model that is down for a while loses
 * nothing. Should summaries keep failing, the history is still bounded: turns beyond twice the
 * limit are dropped, and the log says so.
 */
import type { ChatTurn } from '../models/types.ts';

/** Longest memory kept (characters). */
export const MAX_MEMORY_CHARS = 500;

/** Turns summarised at once, at most. */
export const SUMMARY_CHUNK = 5;

/** First wait before a failed summary is tried again (ms); it doubles with each failure in a row. */
export const SUMMARY_RETRY_MS = 5_000;

/** Longest wait between two tries of a failing summary (ms). */
export const SUMMARY_RETRY_MAX_MS = 300_000;

/** Writes the new memory from the old one and the turns leaving the history. */
export type Summariser = (memory: string, turns: readonly ChatTurn[], signal: AbortSignal) => Promise<string>;

/** Options of {@link History}. */
export interface HistoryOptions {
  /** Turns kept before the oldest are summarised. */
  maxMessages: number;
  /** Without one, the oldest turns are simply dropped. */
  summarise?: Summariser;
  /** Called after every change of turns or memory (e.g. to persist them). */
  changed?: () => void;
  log?: (line: string) => void;
  /** First wait before a failed summary is tried again, in ms (default {@link SUMMARY_RETRY_MS}). */
  retryMs?: number;
}

export class History {
  /** The turns, oldest first. Read-only for callers: use {@link add}. */
  readonly turns: ChatTurn[] = [];
  #memory = '';
  readonly #options: HistoryOptions;
  #summary: Promise<void> | undefined;
  /** The turns the running summary covers (removed from the history when it lands). */
  #pending: ChatTurn[] = [];
  #abort = new AbortController();
  /** Bumped by clear/restore so a summary of turns that are gone is discarded. */
  #epoch = 0;
  /** Summaries failed in a row (0 once one lands). */
  #failures = 0;
  /** No summary is started before this time (ms since the epoch) after a failure. */
  #retryAt = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  /** Turns dropped by the hard cap since the last summary that landed (said once per streak). */
  #dropped = 0;

  constructor(options: HistoryOptions) {
    this.#options = options;
  }

  /** The summarised memory ('' if none). */
  get memory(): string {
    return this.#memory;
  }

  /** True while a summary request is running. */
  get summarising(): boolean {
    return this.#summary !== undefined;
  }

  /** Resolves once no summary is running (for shutdown and tests). */
  async settled(): Promise<void> {
    while (this.#summary) await this.#summary;
  }

  /** Appends a turn; starts a background summary when the history is over its limit. */
  add(turn: ChatTurn): void {
    this.turns.push(turn);
    const hardCap = this.#options.maxMessages * 2;
    // Summaries failing or far behind: drop the oldest turns not being summarised.
    if (this.turns.length > hardCap) {
      const excess = this.turns.length - hardCap;
      this.turns.splice(this.#pending.length, excess);
      if (this.#dropped === 0)
        this.#options.log?.(`summaries are not landing: the oldest turns beyond ${hardCap} are dropped until one does (${excess} so far)`);
      this.#dropped += excess;
    }
    this.#options.changed?.();
    this.#maybeSummarise();
  }

  /** Forgets every turn (the memory stays) and cancels a running summary. */
  clear(): void {
    this.#epoch++;
    this.#abort.abort('history cleared');
    this.#abort = new AbortController();
    this.#stopRetrying();
    this.turns.length = 0;
    this.#options.changed?.();
  }

  /** Replaces turns and memory (loading a saved memory). */
  restore(turns: readonly ChatTurn[], memory: string): void {
    this.clear();
    this.#memory = memory.slice(0, MAX_MEMORY_CHARS);
    for (const t of turns.slice(-this.#options.maxMessages)) this.turns.push({ role: t.role, content: t.content });
    this.#options.changed?.();
  }

  /** Cancels a running summary and a pending retry (at shutdown). */
  close(): void {
    this.#abort.abort('closing');
    this.#stopRetrying();
  }

  #stopRetrying(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#failures = 0;
    this.#retryAt = 0;
  }

  /** `speaker: text` lines of `turns`, as the summary prompt shows them. */
  static format(turns: readonly ChatTurn[]): string {
    return turns.map((t) => (t.role === 'assistant' ? `You: ${t.content}` : t.content)).join('\n');
  }

  #maybeSummarise(): void {
    const max = this.#options.maxMessages;
    const excess = this.turns.length - max;
    if (excess <= 0 || this.#summary || this.#retryTimer) return;
    const wait = this.#retryAt - Date.now();
    if (wait > 0) {
      // After a failure: try again once the backoff is over (or at the next turn after it).
      this.#retryTimer = setTimeout(() => {
        this.#retryTimer = undefined;
        this.#maybeSummarise();
      }, wait);
      this.#retryTimer.unref();
      return;
    }
    const count = Math.min(this.turns.length - 1, Math.max(excess, Math.min(SUMMARY_CHUNK, Math.ceil(max / 3))));
    const chunk = this.turns.slice(0, count);
    const summarise = this.#options.summarise;
    if (!summarise) {
      this.turns.splice(0, count);
      this.#options.changed?.();
      return;
    }
    const epoch = this.#epoch;
    const signal = this.#abort.signal;
    this.#pending = chunk;
    this.#summary = summarise(this.#memory, chunk, signal)
      .then(
        (text) => {
          if (epoch !== this.#epoch) return;
          this.#memory = text.trim().slice(0, MAX_MEMORY_CHARS);
          // The summarised turns now live in the memory: they leave the history.
          for (const turn of chunk) {
            const i = this.turns.indexOf(turn);
            if (i >= 0) this.turns.splice(i, 1);
          }
          if (this.#failures || this.#dropped)
            this.#options.log?.(
              `summary works again${this.#dropped ? ` (${this.#dropped} old turns were dropped meanwhile to bound the history)` : ''}`,
            );
          this.#failures = 0;
          this.#dropped = 0;
        },
        (err: unknown) => {
          if (epoch !== this.#epoch) return;
          // The turns stay in the history, to be summarised once the model answers again.
          const wait = Math.min(SUMMARY_RETRY_MAX_MS, (this.#options.retryMs ?? SUMMARY_RETRY_MS) * 2 ** this.#failures++);
          this.#retryAt = Date.now() + wait;
          this.#options.log?.(
            `summary failed (${(err as Error)?.message ?? String(err)}); its ${chunk.length} turns stay in the history and are summarised again in ${Math.round(wait / 1000)} s`,
          );
        },
      )
      .finally(() => {
        this.#summary = undefined;
        this.#pending = [];
        if (epoch !== this.#epoch) return;
        this.#options.changed?.();
        this.#maybeSummarise();
      });
  }
}
