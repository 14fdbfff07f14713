/**
 * Where an agent's words go: back the way the message being handled came — to a bot through the
 * conversation, to a player by whisper or in public chat, and for the agent's own prompts (goal
 * loop, notices) to the open conversation or else public chat.
 */
import type { ChatOutbox, Conversations } from '../conversation/index.ts';

/** Where a message came from, and so where the answer goes. */
export type Channel = 'whisper' | 'public' | 'bot' | 'system';

/** One message for an agent. */
export interface IncomingMessage {
  /** The sender: a player's or bot's name, or `system` for the agent's own prompts and notices. */
  from: string;
  text: string;
  channel: Channel;
  /** Bot messages answered together: each line is kept as its own turn. */
  lines?: string[];
}

/** True for a message a player typed (whisper or public chat). */
export function fromPlayer(message: IncomingMessage): boolean {
  return message.channel === 'whisper' || message.channel === 'public';
}

/** What a {@link ReplyRouter} writes to. */
export interface ReplyRouterOptions {
  conversations: Conversations;
  /** The bot's rate-limited chat. */
  outbox: ChatOutbox;
  /** Longest reply sent, in characters; the rest is cut with "…" (and logged whole). Default: no bound. */
  maxChars?: number;
  log?: (line: string) => void;
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
    const { conversations, outbox } = this.#options;
    const { busy = false, urgent = false } = options;
    if (source.channel === 'bot') {
      if (!conversations.say(source.from, text, busy)) this.#options.log?.(`not sent (no conversation with ${source.from}): ${text}`);
      return;
    }
    if (source.channel === 'system') {
      const partner = conversations.active;
      if (partner) conversations.say(partner, text, busy);
      else outbox.chat(text, { urgent });
      return;
    }
    if (source.channel === 'whisper') outbox.whisper(source.from, text, { urgent });
    else outbox.chat(text, { urgent });
  }

  /** Says `text` in public chat (a notice of the agent's own), cut to the reply bound. */
  announce(text: string): void {
    text = this.#bounded(text.trim());
    if (text) this.#options.outbox.chat(text);
  }

  #bounded(text: string): string {
    const max = this.#options.maxChars;
    if (max === undefined || text.length <= max) return text;
    this.#options.log?.(`reply of ${text.length} characters cut to ${max}; in full: ${text}`);
    return cutText(text, max);
  }
}
