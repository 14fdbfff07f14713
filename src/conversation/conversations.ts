/**
 * One agent's conversations with other bots: a small state machine per partner and the
 * turn-taking rules of the reference.
 *
 * States: `idle` (never talked) → `active` (the partner spoke; I owe an answer) ⇄ `awaiting` (I spoke;
 * waiting for the partner) → `ended` (either side ended, the partner left, or I switched partner).
 * At most one partner is active or awaiting at a time; anyone else who writes gets "I'm talking
 * with X right now; try again later" and an end.
 *
 * Incoming lines are queued and handed to the agent together (as separate lines), after a delay
 * that depends on who is acting:
 * - both idle → {@link ConversationTimings.replyDelayMs};
 * - the partner is acting (its message came with a command) → {@link ConversationTimings.busyPartnerDelayMs};
 * - I am acting, the partner is not → the host decides cheaply whether to answer now (it then
 *   interrupts its action) or later;
 * - both acting → held until one side is idle.
 * A new line restarts the wait. A partner silent for {@link ConversationTimings.reminderMs} makes
 * the host remind itself (then after twice as long, and so on); a partner who leaves the server
 * ends the conversation after {@link ConversationTimings.leaveEndMs} unless they come back.
 * At most {@link MAX_HELD_LINES} lines wait per partner (both acting can hold them for long): past
 * it the oldest go, and the host is told how many with the lines delivered (a `dropped` notice).
 */
import type { BotMessage, ConversationNotice, Transport } from './types.ts';

/** Conversation delays, in ms (settings `convo_*`). */
export interface ConversationTimings {
  /** Wait before answering when neither side is acting (reference: 200). */
  replyDelayMs: number;
  /** Wait before answering a partner whose message came with a command (reference: 5000). */
  busyPartnerDelayMs: number;
  /** First reminder after this much silence from the partner; each next one after twice as long (reference: 30 000). */
  reminderMs: number;
  /** A partner who left the server ends the conversation after this long (reference: 10 000). */
  leaveEndMs: number;
}

/** The reference's timings. */
export const DEFAULT_TIMINGS: ConversationTimings = {
  replyDelayMs: 200,
  busyPartnerDelayMs: 5_000,
  reminderMs: 30_000,
  leaveEndMs: 10_000,
};

/** Lines of one partner held at most; the oldest go first (see the module comment). */
export const MAX_HELD_LINES = 30;

/** Where a conversation stands with one partner. */
export type ConversationState = 'idle' | 'active' | 'awaiting' | 'ended';

/** What the conversations need from their agent. */
export interface ConversationHost {
  /** True while the agent runs an action. */
  isBusy(): boolean;
  /**
   * The cheap "respond or ignore" decision, asked when the agent is acting and the partner is
   * not. True = answer now (the agent makes room, e.g. by stopping its action); false = answer
   * once idle.
   */
  shouldRespond(partner: string, lines: string[]): Promise<boolean>;
  /** Hands the queued lines of `partner` to the agent, oldest first, as separate lines. */
  deliver(partner: string, lines: string[]): void;
  /** A fact for the agent that needs no answer (e.g. Bob ended the conversation); its words: `noticeText` (./types.ts). */
  note(notice: ConversationNotice): void;
  /** `partner` has been silent for `silentMs` while we wait for an answer. */
  remind(partner: string, silentMs: number): void;
}

export interface ConversationsOptions {
  timings?: Partial<ConversationTimings>;
  /** Called for every message sent with text, e.g. to show "(to Bob) ..." in public chat. */
  echo?: (to: string, text: string) => void;
  log?: (line: string) => void;
}

interface Queued {
  text: string;
  busy: boolean;
}

interface PartnerRecord {
  state: ConversationState;
  queue: Queued[];
  replyTimer?: ReturnType<typeof setTimeout>;
  holdTimer?: ReturnType<typeof setTimeout>;
  reminderTimer?: ReturnType<typeof setTimeout>;
  leaveTimer?: ReturnType<typeof setTimeout>;
  /** Wait until the next reminder. */
  reminderDelay: number;
  /** When we started waiting for an answer. */
  awaitingSince: number;
  /** Bumped whenever the queue changes, so a stale respond-or-ignore decision is dropped. */
  version: number;
  /** The queue version the host was last asked about (asked once per version). */
  asked: number;
  /** Lines dropped from the queue since it was last delivered ({@link MAX_HELD_LINES}). */
  dropped: number;
}

const noHost: ConversationHost = {
  isBusy: () => false,
  shouldRespond: async () => true,
  deliver: () => {},
  note: () => {},
  remind: () => {},
};

/** One agent's side of its conversations with other bots. */
export class Conversations {
  readonly #self: string;
  readonly #transport: Transport;
  readonly #timings: ConversationTimings;
  readonly #echo: ((to: string, text: string) => void) | undefined;
  readonly #log: (line: string) => void;
  readonly #partners = new Map<string, PartnerRecord>();
  #host: ConversationHost = noHost;
  #closed = false;

  /**
   * @param self this bot's name.
   * @param transport the bot's link to the other bots; its incoming messages come here.
   */
  constructor(self: string, transport: Transport, options: ConversationsOptions = {}) {
    this.#self = self;
    this.#transport = transport;
    this.#timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.#echo = options.echo;
    this.#log = options.log ?? (() => {});
    transport.listen((message) => this.receive(message));
  }

  /** Connects the agent that answers (until then, lines are delivered nowhere). */
  attach(host: ConversationHost): void {
    this.#host = host;
  }

  /** The transport's kind, for logs. */
  get transportKind(): string {
    return this.#transport.kind;
  }

  /** The partner of the conversation that is active or awaiting an answer, if any. */
  get active(): string | undefined {
    for (const [name, r] of this.#partners) if (r.state === 'active' || r.state === 'awaiting') return name;
    return undefined;
  }

  /** Where the conversation with `partner` stands. */
  state(partner: string): ConversationState {
    return this.#partners.get(partner)?.state ?? 'idle';
  }

  /** The other bots reachable now. */
  others(): string[] {
    return this.#transport.peers();
  }

  /** True when `name` is a verified bot of ours (never this bot, never a player). */
  isBot(name: string): boolean {
    return name !== this.#self && this.#transport.isPeer(name);
  }

  /**
   * Opens a conversation with `partner` (ending the one with anybody else) and sends the first message.
   *
   * @throws Error when `partner` is this bot or not one of our bots.
   */
  start(partner: string, text: string): string {
    if (partner === this.#self) throw new Error('You cannot start a conversation with yourself.');
    if (!this.isBot(partner))
      throw new Error(
        `${partner} is not a bot you can converse with. Bots: ${this.others().join(', ') || 'none'}. Talk to players in chat instead.`,
      );
    const current = this.active;
    if (current && current !== partner) this.end(current);
    const r = this.#record(partner);
    this.#clearQueue(r);
    this.#send({ from: this.#self, to: partner, text, start: true });
    this.#await(partner, r, true);
    return `Started a conversation with ${partner}.`;
  }

  /**
   * Sends `text` to `partner` within the conversation.
   *
   * @param busy the agent is acting (its reply ran a command): the partner waits longer.
   * @returns false when there is no open conversation with `partner` or it cannot be reached.
   */
  say(partner: string, text: string, busy = false): boolean {
    const r = this.#partners.get(partner);
    if (!r || (r.state !== 'active' && r.state !== 'awaiting') || !text.trim()) return false;
    try {
      this.#send({ from: this.#self, to: partner, text, ...(busy ? { busy: true } : {}) });
    } catch (err) {
      this.#log(`[${this.#self}] could not reach ${partner}: ${(err as Error).message}`);
      return false;
    }
    this.#await(partner, r, false);
    return true;
  }

  /** Ends the conversation with `partner` and tells them. */
  end(partner: string): string {
    const r = this.#partners.get(partner);
    if (!r || (r.state !== 'active' && r.state !== 'awaiting')) return `You are not in a conversation with ${partner}.`;
    this.#close(r);
    if (this.isBot(partner)) {
      try {
        this.#send({ from: this.#self, to: partner, text: '', end: true });
      } catch {
        /* gone already */
      }
    }
    return `Ended the conversation with ${partner}.`;
  }

  /** Applies the turn-taking rules to a message from a verified bot (the transport calls this). */
  receive(message: BotMessage): void {
    if (this.#closed || message.to !== this.#self) return;
    const from = message.from;
    const r = this.#record(from);
    const open = r.state === 'active' || r.state === 'awaiting';
    if (message.end) {
      if (!open) return;
      // Lines still waiting for their turn (the reply delay, or this bot acting) are not dropped:
      // the agent reads them with the end, without a reply being asked for.
      const unread = r.queue.map((q) => q.text);
      const dropped = r.dropped;
      this.#close(r);
      if (dropped) this.#host.note({ kind: 'dropped', partner: from, count: dropped, limit: MAX_HELD_LINES });
      if (unread.length) this.#host.note({ kind: 'unread', partner: from, lines: unread });
      this.#host.note({ kind: 'ended', partner: from, text: message.text });
      return;
    }
    if (r.state === 'ended' && !message.start) {
      this.#host.note({ kind: 'late', partner: from, text: message.text });
      return;
    }
    const current = this.active;
    if (current && current !== from) {
      try {
        this.#send({ from: this.#self, to: from, text: `I'm talking with ${current} right now; try again later.`, end: true });
      } catch {
        /* unreachable: nothing to answer */
      }
      r.state = 'ended';
      this.#host.note({ kind: 'refused', partner: from, current, text: message.text });
      return;
    }
    if (message.start && r.state !== 'active') this.#clearQueue(r);
    this.#stopReminder(r);
    r.state = 'active';
    if (message.text.trim()) r.queue.push({ text: message.text, busy: message.busy === true });
    if (r.queue.length > MAX_HELD_LINES) {
      r.dropped += r.queue.length - MAX_HELD_LINES;
      r.queue.splice(0, r.queue.length - MAX_HELD_LINES);
    }
    r.version++;
    this.#schedule(from, r);
  }

  /** The agent became idle: answer lines held while it was acting. */
  wake(): void {
    for (const [name, r] of this.#partners) if (r.state === 'active' && r.queue.length > 0 && !r.replyTimer) this.#schedule(name, r);
  }

  /**
   * A player joined (`online`) or left the server. A conversation partner who left ends the
   * conversation after {@link ConversationTimings.leaveEndMs} unless they are back by then.
   */
  presence(name: string, online: boolean): void {
    const r = this.#partners.get(name);
    if (!r) return;
    if (online) {
      if (r.leaveTimer) clearTimeout(r.leaveTimer);
      r.leaveTimer = undefined;
      return;
    }
    if ((r.state !== 'active' && r.state !== 'awaiting') || r.leaveTimer) return;
    r.leaveTimer = setTimeout(() => {
      r.leaveTimer = undefined;
      if (r.state !== 'active' && r.state !== 'awaiting') return;
      this.#close(r);
      this.#host.note({ kind: 'left', partner: name });
    }, this.#timings.leaveEndMs);
  }

  /** Stops every timer and closes the transport. */
  close(): void {
    this.#closed = true;
    for (const r of this.#partners.values()) this.#clearTimers(r);
    this.#transport.close();
  }

  #record(name: string): PartnerRecord {
    let r = this.#partners.get(name);
    if (!r) {
      r = { state: 'idle', queue: [], reminderDelay: this.#timings.reminderMs, awaitingSince: 0, version: 0, asked: -1, dropped: 0 };
      this.#partners.set(name, r);
    }
    return r;
  }

  #send(message: BotMessage): void {
    this.#transport.send(message);
    if (message.text) this.#echo?.(message.to, message.text);
  }

  /** I spoke: wait for the partner, with reminders. */
  #await(partner: string, r: PartnerRecord, fresh: boolean): void {
    if (r.state === 'awaiting' && !fresh) return;
    r.state = 'awaiting';
    r.awaitingSince = Date.now();
    this.#stopReminder(r);
    this.#armReminder(partner, r);
  }

  #armReminder(partner: string, r: PartnerRecord): void {
    r.reminderTimer = setTimeout(() => {
      r.reminderTimer = undefined;
      if (r.state !== 'awaiting') return;
      const silent = Date.now() - r.awaitingSince;
      r.reminderDelay *= 2;
      this.#armReminder(partner, r);
      this.#host.remind(partner, silent);
    }, r.reminderDelay);
  }

  #stopReminder(r: PartnerRecord): void {
    if (r.reminderTimer) clearTimeout(r.reminderTimer);
    r.reminderTimer = undefined;
    r.reminderDelay = this.#timings.reminderMs;
  }

  #schedule(partner: string, r: PartnerRecord): void {
    if (r.replyTimer) clearTimeout(r.replyTimer);
    if (r.holdTimer) clearTimeout(r.holdTimer);
    r.replyTimer = r.holdTimer = undefined;
    if (r.queue.length === 0) return;
    const partnerBusy = r.queue.at(-1)!.busy;
    const meBusy = this.#host.isBusy();
    if (!meBusy) {
      this.#later(partner, r, partnerBusy ? this.#timings.busyPartnerDelayMs : this.#timings.replyDelayMs);
      return;
    }
    // Until I am idle (wake), look again now and then in case nobody tells us.
    r.holdTimer = setTimeout(() => {
      r.holdTimer = undefined;
      this.#schedule(partner, r);
    }, this.#timings.busyPartnerDelayMs);
    if (partnerBusy || r.asked === r.version) return; // both acting, or already told "later": wait
    const version = (r.asked = r.version);
    const lines = r.queue.map((q) => q.text);
    this.#host.shouldRespond(partner, lines).then(
      (yes) => {
        if (!yes || r.version !== version || r.state !== 'active' || r.replyTimer) return;
        if (r.holdTimer) clearTimeout(r.holdTimer);
        r.holdTimer = undefined;
        this.#later(partner, r, this.#timings.replyDelayMs);
      },
      (err: unknown) => this.#log(`[${this.#self}] respond-or-ignore failed: ${(err as Error).message}`),
    );
  }

  #later(partner: string, r: PartnerRecord, delay: number): void {
    r.replyTimer = setTimeout(() => {
      r.replyTimer = undefined;
      if (r.state !== 'active' || r.queue.length === 0) return;
      const lines = r.queue.map((q) => q.text);
      r.queue = [];
      r.version++;
      if (r.dropped) this.#host.note({ kind: 'dropped', partner, count: r.dropped, limit: MAX_HELD_LINES });
      r.dropped = 0;
      this.#host.deliver(partner, lines);
    }, delay);
  }

  #clearQueue(r: PartnerRecord): void {
    r.queue = [];
    r.dropped = 0;
    r.version++;
    if (r.replyTimer) clearTimeout(r.replyTimer);
    if (r.holdTimer) clearTimeout(r.holdTimer);
    r.replyTimer = r.holdTimer = undefined;
  }

  #close(r: PartnerRecord): void {
    r.state = 'ended';
    this.#clearTimers(r);
    r.queue = [];
    r.dropped = 0;
    r.version++;
  }

  #clearTimers(r: PartnerRecord): void {
    for (const t of [r.replyTimer, r.holdTimer, r.reminderTimer, r.leaveTimer]) if (t) clearTimeout(t);
    r.replyTimer = r.holdTimer = r.reminderTimer = r.leaveTimer = undefined;
    r.reminderDelay = this.#timings.reminderMs;
  }
}
