/** Messages between our bots and the transports that carry them. */

/** A message between two of our bots. */
export interface BotMessage {
  from: string;
  to: string;
  text: string;
  /** First message of a conversation. */
  start?: boolean;
  /** The sender ended the conversation (text may be empty). */
  end?: boolean;
  /** The sender is acting (its reply ran a command, or an action is running). */
  busy?: boolean;
}

/**
 * One bot's link to its fellow bots. The agent never sees which transport it uses: it talks to a
 * {@link Conversations} object, which talks to a Transport.
 *
 * A transport delivers a message only when the sender is a bot of ours verified on this transport
 * (in-process: registered in the same hub; whispers: handshake proven and still online), with
 * `from` set by the transport, never taken from the message content.
 */
export interface Transport {
  /** Short name for logs: `in-process`, `whisper`, or `in-process+whisper`. */
  readonly kind: string;
  /** Names of the other bots reachable now (never this bot). */
  peers(): string[];
  /** True when `name` is a verified bot of ours reachable through this transport. */
  isPeer(name: string): boolean;
  /**
   * Sends `message` (its `from` must be this bot).
   *
   * @throws Error when `message.to` is not a peer.
   */
  send(message: BotMessage): void;
  /** Sets the one handler of incoming messages from verified bots. */
  listen(handler: (message: BotMessage) => void): void;
  /** Sets a handler called whenever the set of peers changes. */
  onPeersChanged(handler: () => void): void;
  /** Stops delivering and sending; forgets peers. */
  close(): void;
}

/**
 * Where a message to an agent came from, and so where its answer goes: a player's `whisper` or
 * `public` chat, a `bot` of ours (a conversation), or `system` (the agent's own prompts and
 * notices, the task runner, a coordinator).
 */
export type Channel = 'whisper' | 'public' | 'bot' | 'system';

/**
 * Who handed a message to the agent, for the records: the game's chat, the dashboard, an MCP
 * client, the task runner or a coordination strategy. It does not change how it is answered
 * (the {@link Channel} does).
 */
export type MessageVia = 'chat' | 'dashboard' | 'mcp' | 'task' | 'coordinator';

/** One message for an agent. */
export interface IncomingMessage {
  /** The sender: a player's or bot's name, or `system` for the agent's own prompts and notices. */
  from: string;
  text: string;
  channel: Channel;
  /** Bot messages answered together: each line is kept as its own turn. */
  lines?: string[];
  /** Who handed it over (default `chat`, or `system` messages' own source). */
  via?: MessageVia;
}

/** True for a message a player typed (whisper or public chat), or sent as one (the dashboard, MCP). */
export function fromPlayer(message: IncomingMessage): boolean {
  return message.channel === 'whisper' || message.channel === 'public';
}

/**
 * A fact about a conversation for the agent, as data (its words for the model: {@link noticeText}):
 * - `unread`: lines of `partner` the agent had not read (it was acting) when they ended;
 * - `ended`: `partner` ended the conversation, with a last line (`text`, may be empty);
 * - `late`: `partner` spoke after the conversation had ended;
 * - `refused`: `partner` wanted to talk while the agent talked with `current` (it was told to try later);
 * - `left`: `partner` left the server, which ended the conversation;
 * - `silent`: `partner` has not answered for `seconds` (the agent is reminded, see `ConversationHost.remind`).
 */
export type ConversationNotice =
  | { kind: 'unread'; partner: string; lines: string[] }
  | { kind: 'ended'; partner: string; text: string }
  | { kind: 'late'; partner: string; text: string }
  | { kind: 'refused'; partner: string; current: string; text: string }
  | { kind: 'left'; partner: string }
  | { kind: 'silent'; partner: string; seconds: number }
  /** Lines of `partner` dropped unread, the oldest first, past the bound of lines held while both sides acted. */
  | { kind: 'dropped'; partner: string; count: number; limit: number };

/** The words the model reads for a notice (the reference's, where it has them). */
export function noticeText(notice: ConversationNotice): string {
  switch (notice.kind) {
    case 'unread':
      return `${notice.partner} said before ending the conversation: ${notice.lines.join('\n')}`;
    case 'ended':
      return notice.text ? `${notice.partner} ended the conversation: ${notice.text}` : `${notice.partner} ended the conversation.`;
    case 'late':
      return `${notice.partner} said after the conversation had ended: ${notice.text}`;
    case 'refused':
      return `${notice.partner} wanted to talk; you were busy with ${notice.current}: ${notice.text}`;
    case 'left':
      return `${notice.partner} left the server; the conversation ended.`;
    case 'silent':
      return `${notice.partner} has not answered for ${notice.seconds} s.`;
    case 'dropped':
      return `${notice.count} earlier line(s) from ${notice.partner} were dropped unread: at most ${notice.limit} wait while you are both busy.`;
  }
}
