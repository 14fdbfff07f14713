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

/** A rate-limited queue of chat packets for one bot. */
export class ChatOutbox {
  readonly #send: (line: string) => void;
  readonly #limit: RateLimit;
  readonly #queue: string[] = [];
  #tokens: number;
  #refilledAt: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /**
   * @param send writes one packet, e.g. `(line) => bot.chat(line)`; lines are at most
   *   {@link CHAT_LIMIT} characters, so mineflayer never splits them again.
   */
  constructor(send: (line: string) => void, limit: RateLimit = DEFAULT_RATE_LIMIT) {
    if (limit.burst < 1 || limit.intervalMs < 0) throw new Error(`bad chat rate limit ${JSON.stringify(limit)}`);
    this.#send = send;
    this.#limit = limit;
    this.#tokens = limit.burst;
    this.#refilledAt = Date.now();
  }

  /** Packets waiting for their turn. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Says `text` in public chat (split over several messages when long; newlines become " | "). */
  chat(text: string): void {
    const flat = chatSafe(text.replace(/\s*\n\s*/g, ' | ')).trim();
    // A line starting with "/" would run as a command: indent it.
    for (const piece of splitText(flat, CHAT_LIMIT - 1)) this.#push(piece.startsWith('/') ? ` ${piece}` : piece);
  }

  /** Whispers `text` to `to` with `/tell`, split so that every command fits the chat limit. */
  whisper(to: string, text: string): void {
    const header = `/tell ${to} `;
    const flat = chatSafe(text.replace(/\s*\n\s*/g, ' | ')).trim();
    for (const piece of splitText(flat, CHAT_LIMIT - header.length)) this.#push(header + piece);
  }

  /** Queues one raw packet, which must already fit {@link CHAT_LIMIT}. */
  raw(line: string): void {
    if (line.length > CHAT_LIMIT) throw new Error(`chat line of ${line.length} characters exceeds ${CHAT_LIMIT}`);
    this.#push(line);
  }

  /** Drops everything still queued and stops sending. */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #push(line: string): void {
    if (this.#closed || !line) return;
    this.#queue.push(line);
    this.#drain();
  }

  #refill(): void {
    const now = Date.now();
    if (this.#limit.intervalMs === 0) { this.#tokens = this.#limit.burst; this.#refilledAt = now; return; }
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
      const line = this.#queue.shift()!;
      try {
        this.#send(line);
      } catch {
        // the bot may have disconnected; the line is lost like any chat line would be
      }
    }
    if (this.#queue.length === 0) return;
    const wait = Math.max(1, this.#refilledAt + this.#limit.intervalMs - Date.now());
    this.#timer = setTimeout(() => { this.#timer = undefined; this.#drain(); }, wait);
    this.#timer.unref?.();
  }
}
