/**
 * A bot's journal as an MCP client reads it: the messages it took in (players' chat and whispers,
 * its conversation partners' lines, the task runner's and its goal loop's prompts), the outcomes
 * of the commands it ran (by its model, a player or a client), conversation notices and what it
 * said, in order, as plain JSON. Read since a cursor that each session keeps for itself
 * ({@link Cursors}), so one client's reading never moves another's.
 */
import type { Journal, JournalEntry } from '../../commands/journal.ts';

/** Characters kept of each text in an entry (longer ones are cut, with `…`). */
export const ENTRY_TEXT_LIMIT = 2_000;
/** Entries one read returns by default, and at most. */
export const DEFAULT_READ = 50;
export const MAX_READ = 200;

/** One journal entry as JSON (`seq` increases by one per entry; `t` in ms since the epoch). */
export type MessageView =
  | { seq: number; t: number; kind: 'message'; from: string; channel: string; via?: string; text: string }
  | {
      seq: number;
      t: number;
      kind: 'outcome';
      /** Who asked: `model` (the bot's own model), a player's name, or an MCP client's. */
      by: string;
      command: string;
      args: Readonly<Record<string, unknown>>;
      ok: boolean;
      code: string;
      text: string;
      data?: unknown;
    }
  | { seq: number; t: number; kind: 'notice'; notice: unknown; text?: undefined }
  | { seq: number; t: number; kind: 'said'; to: string; text: string };

/** What one read returns. */
export interface MessagesRead {
  bot: string;
  /** The `seq` of the last entry returned (or the cursor unchanged): the next read starts after it. */
  cursor: number;
  /** Entries that fell out of the journal's bound before they were read. */
  missed: number;
  /** More entries wait after these. */
  more: boolean;
  entries: MessageView[];
}

function cut(text: string): string {
  return text.length > ENTRY_TEXT_LIMIT ? `${text.slice(0, ENTRY_TEXT_LIMIT)}…` : text;
}

/** An entry as JSON, its texts cut to {@link ENTRY_TEXT_LIMIT}. */
export function messageView(entry: JournalEntry): MessageView {
  const { seq, t } = entry;
  switch (entry.kind) {
    case 'message': {
      const { from, channel, via, text } = entry.message;
      return { seq, t, kind: 'message', from, channel, ...(via ? { via } : {}), text: cut(text) };
    }
    case 'outcome': {
      const { command, args, ok, code, text, data } = entry.outcome;
      return { seq, t, kind: 'outcome', by: entry.by, command, args, ok, code, text: cut(text), ...(data ? { data } : {}) };
    }
    case 'notice':
      return { seq, t, kind: 'notice', notice: entry.notice };
    case 'said':
      return { seq, t, kind: 'said', to: entry.to, text: cut(entry.text) };
  }
}

/**
 * The entries of `journal` after `cursor`, oldest first, at most `limit`.
 *
 * @param limit 1 to {@link MAX_READ}.
 */
export function readJournal(bot: string, journal: Journal, cursor: number, limit = DEFAULT_READ): MessagesRead {
  const after = journal.since(cursor);
  const first = after[0]?.seq;
  const missed = first !== undefined && first > cursor + 1 ? first - cursor - 1 : 0;
  const taken = after.slice(0, Math.min(Math.max(1, limit), MAX_READ));
  return {
    bot,
    cursor: taken.at(-1)?.seq ?? cursor,
    missed,
    more: after.length > taken.length,
    entries: taken.map(messageView),
  };
}

/**
 * One session's reading positions, per bot: a plain map that lives and dies with its session, so
 * no other session can read or move it.
 */
export class Cursors {
  readonly #at = new Map<string, number>();

  /** Where the next read of `bot` starts (0: everything the journal still keeps). */
  get(bot: string): number {
    return this.#at.get(bot) ?? 0;
  }

  set(bot: string, cursor: number): void {
    this.#at.set(bot, cursor);
  }
}
