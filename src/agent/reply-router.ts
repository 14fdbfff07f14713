/**
 * Where an agent's words go: back the way the message being handled came — to a bot through the
 * conversation, to a player by whisper or in public chat, and for the agent's own prompts (goal
 * loop, notices) to the open conversation or else public chat.
 */
import type { ChatOutbox, Conversations, IncomingMessage } from '../conversation/index.ts';

/** What a {@link ReplyRouter} writes to. */
export interface ReplyRouterOptions {
  conversations: Conversations;
  /** The bot's rate-limited chat. */
  outbox: ChatOutbox;
  /** Longest reply sent, in characters; the rest is cut with "…" (and logged whole). Default: no bound. */
  maxChars?: number;
  log?: (line: string) => void;
  /** Told what was said and to whom (`*`: public chat), once sent or queued. */
  said?: (to: string, text: string) => void;
}

/** How one reply is sent. */
export interface SayOptions {
  /** The agent is acting (tells a bot partner to wait longer). */
  busy?: boolean;
  /** Goes ahead of ordinary chat lines (a stop acknowledgement, an error for the asker). */
  urgent?: boolean;
}

/**
 * `text` cut to at most `max` characters, ending in "…" when cut (never inside a surrogate pair).
 *
 * @example cutText('a'.repeat(10), 5) // 'aaaa…'
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * Sends replies back along the channel of the message they answer.
 *
 * @example
 * const router = new ReplyRouter({ conversations, outbox });
 * router.say({ from: 'Steve', text: 'hi', channel: 'whisper' }, 'Hello Steve!'); // whispered back
 */
export class ReplyRouter {
  readonly #options: ReplyRouterOptions;

  constructor(options: ReplyRouterOptions) {
    this.#options = options;
  }

  /**
   * Speaks `text` back the way `source` came, cut to the reply bound. Empty text is not sent.
   */
  say(source: IncomingMessage, text: string, options: SayOptions = {}): void {
    text = this.#bounded(text.trim());
    if (!text) return;
    const { conversations, outbox, said } = this.#options;
    const { busy = false, urgent = false } = options;
    if (source.channel === 'bot') {
      if (conversations.say(source.from, text, busy)) said?.(source.from, text);
      else this.#options.log?.(`not sent (no conversation with ${source.from}): ${text}`);
      return;
    }
    if (source.channel === 'system') {
      const partner = conversations.active;
      if (partner) {
        if (conversations.say(partner, text, busy)) said?.(partner, text);
      } else this.#public(text, urgent);
      return;
    }
    if (source.channel === 'whisper') {
      outbox.whisper(source.from, text, { urgent });
      said?.(source.from, text);
    } else this.#public(text, urgent);
  }

  /** Says `text` in public chat (a notice of the agent's own), cut to the reply bound. */
  announce(text: string): void {
    text = this.#bounded(text.trim());
    if (text) this.#public(text, false);
  }

  #public(text: string, urgent: boolean): void {
    this.#options.outbox.chat(text, { urgent });
    this.#options.said?.('*', text);
  }

  #bounded(text: string): string {
    const max = this.#options.maxChars;
    if (max === undefined || text.length <= max) return text;
    this.#options.log?.(`reply of ${text.length} characters cut to ${max}; in full: ${text}`);
    return cutText(text, max);
  }
}
