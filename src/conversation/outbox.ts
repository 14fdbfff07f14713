/**
 * Everything one bot types into Minecraft chat goes through its {@link ChatOutbox}: public lines,
 * whispers to players and whispered bot envelopes. The outbox splits text to the server's chat
 * limit and spaces packets so the bot is never kicked for spamming.
 *
 * Vanilla's numbers (ServerGamePacketListenerImpl): every chat message and every chat command adds
 * 20 to a per-player counter, every server tick (50 ms) takes 1 off, and a non-operator is kicked
 * ("disconnect.spam") when the counter passes 200. So a player may send a burst of 10 messages,
 * and sustained no more than one message per 20 ticks = 1000 ms. (One message per 50 ms would be
 * kicked after 11 messages.) The defaults here, a burst of 6 and then one message per 1000 ms,
 * keep the counter at most 120, which leaves 80 points (four seconds of missed ticks) for server lag.
 *
 * The queue is bounded: past {@link OutboxOptions.maxQueued} packets the oldest ordinary lines are
 * dropped and one line says how many. Urgent lines (a stop acknowledgement, an error for the
 * player who asked) go ahead of every ordinary line.
 */

/** Minecraft's limit on one chat message or command, in characters. */
export const CHAT_LIMIT = 256;

/** Rate limit of an outbox: a token bucket of `burst` messages refilled one per `intervalMs`. */
export interface RateLimit {
  /** Messages that may go out back to back (vanilla kicks above 10). */
  burst: number;
  /** Sustained spacing between messages, ms (vanilla's break-even is 1000). */
  intervalMs: number;
}

/** Default rate limit; see the module comment for why. */
export const DEFAULT_RATE_LIMIT: RateLimit = { burst: 6, intervalMs: 1000 };

/** Packets an outbox holds by default before dropping the oldest ordinary ones (30 s of chat at the default rate). */
export const DEFAULT_MAX_QUEUED = 30;

/** Rate limit and queue bound of a {@link ChatOutbox}. */
export interface OutboxOptions extends RateLimit {
  /** Packets waiting at most; past it the oldest ordinary lines are dropped (default {@link DEFAULT_MAX_QUEUED}). */
  maxQueued?: number;
  /** The line that replaces dropped lines (default: `[N older chat lines dropped]`). */
  droppedLine?: (count: number) => string;
}

/** How one line is queued. */
export interface SendOptions {
  /** Goes ahead of every ordinary line (after earlier urgent ones) and is never dropped. */
  urgent?: boolean;
}

/** A queued packet. `keep`: raw packets (bot envelopes), never dropped but not urgent. */
interface Queued {
  line: string;
  kind: 'urgent' | 'normal' | 'keep' | 'notice';
}

/**
 * Splits `text` into pieces of at most `size` characters, at spaces where possible, never inside
 * a surrogate pair.
 */
export function splitText(text: string, size: number): string[] {
  if (size < 2) throw new Error(`chat piece size ${size} is too small`);
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    let cut = rest.lastIndexOf(' ', size);
    if (cut < size / 2) {
      cut = size;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut--; // keep a surrogate pair together
    }
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out.filter(Boolean);
}

/** Vanilla refuses chat containing `§`, control characters or DEL; replace them with spaces. */
export function chatSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f§]/g, ' ');
}

/**
 * A rate-limited, bounded queue of chat packets for one bot.
 *
 * @example
 * const outbox = new ChatOutbox((line) => bot.chat(line), { burst: 6, intervalMs: 1000, maxQueued: 30 });
 * outbox.chat('Collecting wood.');
 * outbox.whisper('Steve', 'Stopped.', { urgent: true }); // sent before any ordinary line still waiting
 */
export class ChatOutbox {
  readonly #send: (line: string) => void;
  readonly #limit: RateLimit;
  readonly #maxQueued: number;
  readonly #droppedLine: (count: number) => string;
  readonly #queue: Queued[] = [];
  /** Lines dropped since the last notice went out. */
  #dropped = 0;
  #tokens: number;
  #refilledAt: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /**
   * @param send writes one packet, e.g. `(line) => bot.chat(line)`; lines are at most
   *   {@link CHAT_LIMIT} characters, so mineflayer never splits them again.
   * @param options rate limit (see {@link DEFAULT_RATE_LIMIT}) and queue bound.
   * @throws Error for a burst below 1, a negative interval or a queue bound below 2.
   */
  constructor(send: (line: string) => void, options: OutboxOptions = DEFAULT_RATE_LIMIT) {
    const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    if (options.burst < 1 || options.intervalMs < 0 || maxQueued < 2) throw new Error(`bad chat outbox options ${JSON.stringify(options)}`);
    this.#send = send;
    this.#limit = { burst: options.burst, intervalMs: options.intervalMs };
    this.#maxQueued = maxQueued;
    this.#droppedLine = options.droppedLine ?? ((n) => `[${n} older chat line${n === 1 ? '' : 's'} dropped]`);
    this.#tokens = options.burst;
    this.#refilledAt = Date.now();
  }

  /** Packets waiting for their turn. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Says `text` in public chat (split over several messages when long; newlines become " | "). */
  chat(text: string, options: SendOptions = {}): void {
    const flat = chatSafe(text.replace(/\s*\n\s*/g, ' | ')).trim();
    // A line starting with "/" would run as a command: indent it.
    const pieces = splitText(flat, CHAT_LIMIT - 1).map((piece) => (piece.startsWith('/') ? ` ${piece}` : piece));
    this.#push(pieces, options.urgent ? 'urgent' : 'normal');
  }

  /** Whispers `text` to `to` with `/tell`, split so that every command fits the chat limit. */
  whisper(to: string, text: string, options: SendOptions = {}): void {
    const header = `/tell ${to} `;
    const flat = chatSafe(text.replace(/\s*\n\s*/g, ' | ')).trim();
    this.#push(
      splitText(flat, CHAT_LIMIT - header.length).map((piece) => header + piece),
      options.urgent ? 'urgent' : 'normal',
    );
  }

  /** Queues one raw packet, which must already fit {@link CHAT_LIMIT}; it is never dropped. */
  raw(line: string): void {
    if (line.length > CHAT_LIMIT) throw new Error(`chat line of ${line.length} characters exceeds ${CHAT_LIMIT}`);
    this.#push([line], 'keep');
  }

  /** Drops everything still queued and stops sending. */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #push(lines: string[], kind: Queued['kind']): void {
    lines = lines.filter(Boolean);
    if (this.#closed || lines.length === 0) return;
    const entries = lines.map((line) => ({ line, kind }));
    if (kind === 'urgent') {
      // After the urgent lines already waiting, ahead of everything else.
      let at = 0;
      while (at < this.#queue.length && this.#queue[at]!.kind === 'urgent') at++;
      this.#queue.splice(at, 0, ...entries);
    } else {
      this.#queue.push(...entries);
    }
    this.#bound();
    this.#drain();
  }

  /** Drops the oldest ordinary lines past the bound; one notice line (kept up to date) says how many. */
  #bound(): void {
    let over = this.#queue.length - this.#maxQueued;
    if (over <= 0) return;
    if (!this.#queue.some((q) => q.kind === 'notice')) over++; // room for the notice itself
    let firstDropped = -1;
    for (let i = 0; i < this.#queue.length && over > 0;) {
      if (this.#queue[i]!.kind !== 'normal') {
        i++;
        continue;
      }
      if (firstDropped < 0) firstDropped = i;
      this.#queue.splice(i, 1);
      this.#dropped++;
      over--;
    }
    if (firstDropped < 0) return; // only urgent and kept lines: nothing may go
    let notice = this.#queue.findIndex((q) => q.kind === 'notice');
    if (notice < 0) {
      this.#queue.splice(firstDropped, 0, { line: '', kind: 'notice' });
      notice = firstDropped;
    }
    this.#queue[notice]!.line = this.#droppedLine(this.#dropped);
  }

  #refill(): void {
    const now = Date.now();
    if (this.#limit.intervalMs === 0) {
      this.#tokens = this.#limit.burst;
      this.#refilledAt = now;
      return;
    }
    const gained = Math.floor((now - this.#refilledAt) / this.#limit.intervalMs);
    if (gained > 0) {
      this.#tokens = Math.min(this.#limit.burst, this.#tokens + gained);
      this.#refilledAt = this.#tokens === this.#limit.burst ? now : this.#refilledAt + gained * this.#limit.intervalMs;
    }
  }

  #drain(): void {
    if (this.#timer || this.#closed) return;
    this.#refill();
    while (this.#queue.length > 0 && this.#tokens >= 1) {
      this.#tokens--;
      const { line, kind } = this.#queue.shift()!;
      if (kind === 'notice') this.#dropped = 0;
      try {
        this.#send(line);
      } catch {
        // the bot may have disconnected; the line is lost like any chat line would be
      }
    }
    if (this.#queue.length === 0) return;
    const wait = Math.max(1, this.#refilledAt + this.#limit.intervalMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#drain();
    }, wait);
    this.#timer.unref?.();
  }
}
