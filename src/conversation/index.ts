/**
 * Pairwise conversations between our bots. Each agent has one {@link Conversations}: at most one
 * active partner at a time; a bot already talking to someone else answers that it is busy.
 * Messages travel over a {@link Transport}; the in-process one connects bots of this process.
 */

/** A message between two of our bots. */
export interface BotMessage {
  from: string;
  to: string;
  text: string;
  /** First message of a conversation. */
  start?: boolean;
  /** The sender ended the conversation (text may be empty). */
  end?: boolean;
}

/** Carries bot messages; the agent never knows which transport it uses. */
export interface Transport {
  /** Names of the bots this transport reaches. */
  bots(): string[];
  /** @throws Error when `message.to` is not reachable. */
  send(message: BotMessage): void;
}

/** Connects the bots of one process directly, with no chat traffic. */
export class InProcessTransport implements Transport {
  readonly #inboxes = new Map<string, (message: BotMessage) => void>();

  /** Registers a bot's message handler; returns a function that unregisters it. */
  register(name: string, deliver: (message: BotMessage) => void): () => void {
    this.#inboxes.set(name, deliver);
    return () => { if (this.#inboxes.get(name) === deliver) this.#inboxes.delete(name); };
  }

  bots(): string[] {
    return [...this.#inboxes.keys()];
  }

  send(message: BotMessage): void {
    const deliver = this.#inboxes.get(message.to);
    if (!deliver) throw new Error(`${message.to} is not one of our bots (bots: ${this.bots().join(', ') || 'none'}).`);
    // Deliver on a later turn of the event loop, like a network would, so sender and receiver never re-enter each other.
    setImmediate(() => deliver(message));
  }
}

/** What the receiving agent should do with an incoming bot message. */
export type Incoming = { handle: true; text: string } | { handle: false; note?: string };

/** One agent's side of its conversations. */
export class Conversations {
  #active: string | undefined;
  readonly #self: string;
  readonly #transport: Transport;
  readonly #echo: ((to: string, text: string) => void) | undefined;

  /**
   * @param echo called for every message sent, e.g. to show "(to Bob) ..." in public chat.
   */
  constructor(self: string, transport: Transport, echo?: (to: string, text: string) => void) {
    this.#self = self;
    this.#transport = transport;
    this.#echo = echo;
  }

  /** The partner of the active conversation, if any. */
  get active(): string | undefined {
    return this.#active;
  }

  /** The other bots reachable. */
  others(): string[] {
    return this.#transport.bots().filter((b) => b !== this.#self);
  }

  isBot(name: string): boolean {
    return name !== this.#self && this.#transport.bots().includes(name);
  }

  /**
   * Opens a conversation with `partner` (ending any other) and sends the first message.
   *
   * @throws Error when `partner` is not one of our bots or is this bot.
   */
  start(partner: string, text: string): string {
    if (partner === this.#self) throw new Error('You cannot start a conversation with yourself.');
    if (!this.isBot(partner)) throw new Error(`${partner} is not a bot you can converse with. Bots: ${this.others().join(', ') || 'none'}. Talk to players in chat instead.`);
    if (this.#active && this.#active !== partner) this.end(this.#active);
    this.#active = partner;
    this.#send({ from: this.#self, to: partner, text, start: true });
    return `Started a conversation with ${partner}.`;
  }

  /** Sends `text` to `partner` within the conversation (reopening it if it had ended). */
  say(partner: string, text: string): void {
    if (!this.isBot(partner)) return;
    this.#active = partner;
    this.#send({ from: this.#self, to: partner, text });
  }

  /** Ends the conversation with `partner` and tells them. */
  end(partner: string): string {
    if (this.#active !== partner) return `You are not in a conversation with ${partner}.`;
    this.#active = undefined;
    if (this.isBot(partner)) this.#send({ from: this.#self, to: partner, text: '', end: true });
    return `Ended the conversation with ${partner}.`;
  }

  /**
   * Applies the turn-taking rules to an incoming message: an end closes the conversation; a
   * start while talking to someone else is answered "busy"; anything else becomes the active one.
   */
  receive(message: BotMessage): Incoming {
    if (message.end) {
      if (this.#active === message.from) this.#active = undefined;
      return { handle: false, note: `${message.from} ended the conversation.` };
    }
    if (this.#active && this.#active !== message.from) {
      this.#send({ from: this.#self, to: message.from, text: `I'm talking with ${this.#active} right now; try again later.`, end: true });
      return { handle: false, note: `${message.from} wanted to talk; you were busy with ${this.#active}.` };
    }
    this.#active = message.from;
    return { handle: true, text: message.text };
  }

  #send(message: BotMessage): void {
    this.#transport.send(message);
    if (message.text) this.#echo?.(message.to, message.text);
  }
}
