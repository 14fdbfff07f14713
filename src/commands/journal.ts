/**
 * An agent's journal: what it took in and what its commands did, as data, in order. Its model
 * reads the same events as text (the history's turns); code reads them here: the offline policy
 * decides from them, a coordination strategy reads its workers' outcomes, an MCP client reads the
 * chat a bot heard since a cursor. Bounded: the oldest entries fall out past the limit.
 */
import type { CommandOutcome } from '../skills/outcome.ts';
import type { ConversationNotice, IncomingMessage } from '../conversation/types.ts';

/** What an entry records (see {@link JournalEntry}). */
export type JournalRecord =
  /** A message the agent's inbox took in (from a player, a bot, the task runner, its own goal loop...). */
  | { kind: 'message'; message: IncomingMessage }
  /** A command the agent ran, and who asked for it (`model`, or the player's name). */
  | { kind: 'outcome'; outcome: CommandOutcome; by: string }
  /** A fact about a conversation (a partner ended it, left, was refused, is silent). */
  | { kind: 'notice'; notice: ConversationNotice }
  /** What the agent said, and to whom (`*` for public chat; a bot's or player's name). */
  | { kind: 'said'; to: string; text: string };

/** One journal entry: a record with its sequence number (1, 2, ...) and time (ms since the epoch). */
export type JournalEntry = JournalRecord & { readonly seq: number; readonly t: number };

/** Entries kept by default. */
export const JOURNAL_LIMIT = 512;

/**
 * An append-only, bounded log of {@link JournalEntry}s with increasing sequence numbers, so a
 * reader keeps a cursor (the last `seq` it read) and asks for what came since.
 *
 * @example
 * const journal = new Journal();
 * journal.add({ kind: 'notice', notice: { kind: 'left', partner: 'Jill' } });
 * const fresh = journal.since(0); // every entry kept; then read on from fresh.at(-1)?.seq
 */
export class Journal {
  readonly #limit: number;
  readonly #entries: JournalEntry[] = [];
  readonly #listeners = new Set<(entry: JournalEntry) => void>();
  #seq = 0;

  /** @param limit entries kept, at least 1 (default {@link JOURNAL_LIMIT}). */
  constructor(limit = JOURNAL_LIMIT) {
    this.#limit = Math.max(1, limit);
  }

  /** The sequence number of the newest entry (0 before the first). */
  get last(): number {
    return this.#seq;
  }

  /** Appends a record, stamped with the next sequence number and the time; returns the entry. */
  add(record: JournalRecord): JournalEntry {
    const entry: JournalEntry = { ...record, seq: ++this.#seq, t: Date.now() };
    this.#entries.push(entry);
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit);
    for (const listener of this.#listeners) {
      try {
        listener(entry);
      } catch {
        // a reader's failure does not stop the agent
      }
    }
    return entry;
  }

  /**
   * The entries after `cursor` (a `seq` read before; 0 for all), oldest first. Entries that fell
   * out of the bound are gone: compare the first entry's `seq` with `cursor + 1` to tell.
   */
  since(cursor: number): JournalEntry[] {
    const first = this.#entries[0]?.seq ?? this.#seq + 1;
    return this.#entries.slice(Math.max(0, cursor + 1 - first));
  }

  /**
   * Calls `listener` with every entry added from now on (it must not throw; errors are ignored).
   *
   * @returns a function that removes the listener.
   */
  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
