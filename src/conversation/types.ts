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
