/**
 * Bot messages as Minecraft whispers, for bots in other processes or on other machines.
 *
 * Envelope: every whisper between our bots is one line `mcb|<type>|<flags>|<id>|<part>/<total>|<payload>`:
 * - `hello`: payload is a fresh challenge (16 hex digits). Sent to every player a bot sees: those
 *   online when it joins, and each one who joins later.
 * - `proof`: payload is `<challenge or -> <mac>`, where mac = HMAC-SHA256(key, "proof|sender|receiver|nonce")
 *   (first 24 hex digits) for a challenge the receiver issued; the answer to a hello carries a new
 *   challenge back, the answer to that challenge none (`-`).
 *   A bot becomes a verified peer once it has answered one of our challenges with a valid mac.
 *   Binding both names into the mac means a proof cannot be relayed to another pair.
 * - `msg`: a {@link BotMessage}; flags are `s` (start), `e` (end), `b` (busy) or `-`; long messages
 *   are split into parts that fit the chat limit and reassembled by the receiver. Its payload is
 *   `<mac>|<piece>`, where mac = HMAC-SHA256(key, "msg|sender|receiver|session|id|part/total|flags|piece")
 *   (first 24 hex digits, see {@link messageMac}); `session` is the receiver's challenge that the
 *   sender answered when it was verified, so an envelope of an earlier session does not count in
 *   a later one.
 *
 * Trust: a `msg` counts only when the sender is a verified peer, its MAC is valid, and its id is
 * newer than the last one taken from that peer (a replayed envelope is refused). The sender's
 * name is the server's (`agent/chat-identity.ts` reads it from the packet; usernames are unique
 * while online), and a peer who leaves is forgotten, so whoever joins later under that name must
 * prove itself again. A player who types an envelope without the key is refused, and so is a line
 * that only looks like a peer's whisper (an operator's `/tellraw`): without the key it has no
 * valid MAC.
 *
 * Payload escaping keeps whispers intact through chat: `\\` `\n` `\s` (a space the server would
 * trim or collapse: at either end of a part, or after another space) and `\uXXXX` for characters
 * chat refuses.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CHAT_LIMIT, type ChatOutbox } from './outbox.ts';
import type { BotMessage, Transport } from './types.ts';

/** Prefix of every envelope. */
export const ENVELOPE_PREFIX = 'mcb|';
/** Longest message carried, in parts (longer ones are cut). */
export const MAX_PARTS = 16;
/** Hex digits of a proof's or a message's MAC (96 bits). */
const MAC_HEX = 24;
/** Room kept for the envelope header in each whisper (the MAC and its separator included). */
const HEADER_ROOM = 32 + MAC_HEX + 1;
/** Challenges kept per player. */
const MAX_CHALLENGES = 4;
/** A player's hello is answered at most this often (ms), so a player cannot drain the chat budget. */
const HELLO_ANSWER_GAP_MS = 2_000;
/** Partial messages are dropped after this long (ms). */
const PARTIAL_TTL_MS = 60_000;

/** True when `text` looks like one of our envelopes (such whispers never reach the agent as a player's words). */
export function isEnvelope(text: string): boolean {
  return text.startsWith(ENVELOPE_PREFIX);
}

/** Escapes `text` into tokens (one character or one escape each). */
function tokens(text: string): string[] {
  const out: string[] = [];
  const chars = [...text];
  chars.forEach((c, i) => {
    if (c === '\\') out.push('\\\\');
    else if (c === '\n') out.push('\\n');
    else if (c === ' ') out.push(i === 0 || i === chars.length - 1 || chars[i - 1] === ' ' || chars[i + 1] === ' ' ? '\\s' : ' ');
    // eslint-disable-next-line no-control-regex
    else if (/[\u0000-\u001f\u007f§]/.test(c)) out.push(`\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    else out.push(c);
  });
  return out;
}

/** Escapes `text` and packs it into pieces of at most `size` characters. */
export function encodePayload(text: string, size: number): string[] {
  const pieces: string[] = [];
  let current: string[] = [];
  let length = 0;
  const flush = () => {
    // A plain space at either end of a piece would be trimmed by the server.
    if (current[0] === ' ') current[0] = '\\s';
    if (current.at(-1) === ' ') current[current.length - 1] = '\\s';
    pieces.push(current.join(''));
    current = [];
    length = 0;
  };
  for (const token of tokens(text)) {
    // Reserve one character: a space at the end may grow into "\s".
    if (length + token.length > size - 1 && current.length > 0) flush();
    // A plain space opening a piece is written escaped at once.
    const t = current.length === 0 && token === ' ' ? '\\s' : token;
    current.push(t);
    length += t.length;
  }
  if (current.length > 0 || pieces.length === 0) flush();
  return pieces;
}

/** Reverses the escaping of {@link encodePayload} for one joined payload. */
export function decodePayload(payload: string): string {
  return payload.replace(/\\(\\|n|s|u[0-9a-fA-F]{4})/g, (_, e: string) => {
    if (e === '\\') return '\\';
    if (e === 'n') return '\n';
    if (e === 's') return ' ';
    return String.fromCharCode(parseInt(e.slice(1), 16));
  });
}

/** One parsed envelope line. */
export interface Envelope {
  type: 'hello' | 'proof' | 'msg';
  flags: string;
  id: number;
  part: number;
  total: number;
  payload: string;
}

const ENVELOPE = /^mcb\|(hello|proof|msg)\|([seb]{1,3}|-)\|(\d{1,6})\|(\d{1,2})\/(\d{1,2})\|(.*)$/s;

/** Parses one envelope line; undefined when it is malformed. */
export function parseEnvelope(line: string): Envelope | undefined {
  const m = ENVELOPE.exec(line);
  if (!m) return undefined;
  const [part, total] = [Number(m[4]), Number(m[5])];
  if (part < 1 || total < 1 || part > total || total > MAX_PARTS) return undefined;
  return { type: m[1] as Envelope['type'], flags: m[2]!, id: Number(m[3]), part, total, payload: m[6]! };
}

/** HMAC binding a nonce to the prover and the verifier. */
export function proofMac(key: string, prover: string, verifier: string, nonce: string): string {
  return createHmac('sha256', key).update(`proof|${prover}|${verifier}|${nonce}`).digest('hex').slice(0, MAC_HEX);
}

/** What one `msg` envelope's MAC covers. */
export interface MessagePart {
  sender: string;
  receiver: string;
  /** The receiver's challenge the sender answered (see the module comment). */
  session: string;
  id: number;
  part: number;
  total: number;
  flags: string;
  /** This part's piece of the escaped payload. */
  piece: string;
}

/** HMAC of one `msg` envelope under the key: sender, receiver, session, id, part, flags and payload. */
export function messageMac(key: string, m: MessagePart): string {
  return createHmac('sha256', key)
    .update(`msg|${m.sender}|${m.receiver}|${m.session}|${m.id}|${m.part}/${m.total}|${m.flags}|${m.piece}`)
    .digest('hex')
    .slice(0, MAC_HEX);
}

/** True when two MACs (hex) are equal, compared in constant time. */
function sameMac(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** What the whisper transport needs of a mineflayer bot. */
export interface WhisperBot {
  readonly username: string;
  readonly players: Record<string, unknown>;
  on(event: 'whisper', listener: (username: string, message: string) => void): unknown;
  on(event: 'playerJoined' | 'playerLeft', listener: (player: { username: string }) => void): unknown;
  off(event: 'whisper', listener: (username: string, message: string) => void): unknown;
  off(event: 'playerJoined' | 'playerLeft', listener: (player: { username: string }) => void): unknown;
}

export interface WhisperTransportOptions {
  /** Shared secret of our bots (settings `bot_key`, resolved); required, never empty. */
  key: string;
  /** Players this transport leaves alone (bots reached another way, e.g. in-process). */
  skip?: (name: string) => boolean;
  log?: (line: string) => void;
}

interface PartialMessage {
  id: number;
  flags: string;
  total: number;
  parts: string[];
  at: number;
}

/** One bot's whisper link to our bots elsewhere: handshake, envelopes, splitting and reassembly. */
export class WhisperTransport implements Transport {
  readonly kind = 'whisper';
  readonly #bot: WhisperBot;
  readonly #outbox: ChatOutbox;
  readonly #key: string;
  readonly #skip: (name: string) => boolean;
  readonly #log: (line: string) => void;
  readonly #verified = new Set<string>();
  readonly #challenges = new Map<string, string[]>();
  readonly #helloAnswered = new Map<string, number>();
  readonly #partials = new Map<string, PartialMessage>();
  /** Per verified peer: our challenge it answered (the session its messages are signed for). */
  readonly #sessions = new Map<string, string>();
  /** Per player: its last challenge we answered (the session our messages to it are signed for). */
  readonly #answered = new Map<string, string>();
  /** Per verified peer: the id of the last message taken from it (older or equal ids are replays). */
  readonly #lastIds = new Map<string, number>();
  #handler: ((message: BotMessage) => void) | undefined;
  #onPeers: (() => void) | undefined;
  #nextId = 1;
  #closed = false;
  readonly #onWhisper = (from: string, text: string) => this.#receive(from, text);
  readonly #onJoined = (player: { username: string }) => this.#hello(player.username);
  readonly #onLeft = (player: { username: string }) => this.#forget(player.username);

  /**
   * Starts listening on `bot` and says hello to every player online.
   *
   * @param outbox the bot's rate-limited chat outbox (shared with its other chat).
   * @throws Error when `options.key` is empty (there is no built-in key).
   */
  constructor(bot: WhisperBot, outbox: ChatOutbox, options: WhisperTransportOptions) {
    if (!options.key) throw new Error('The whisper transport needs a key (settings "bot_key").');
    this.#bot = bot;
    this.#outbox = outbox;
    this.#key = options.key;
    this.#skip = options.skip ?? (() => false);
    this.#log = options.log ?? (() => {});
    bot.on('whisper', this.#onWhisper);
    bot.on('playerJoined', this.#onJoined);
    bot.on('playerLeft', this.#onLeft);
    for (const name of Object.keys(bot.players)) this.#hello(name);
  }

  peers(): string[] {
    return [...this.#verified].filter((n) => !this.#skip(n));
  }

  isPeer(name: string): boolean {
    return this.#verified.has(name) && !this.#skip(name);
  }

  send(message: BotMessage): void {
    if (this.#closed || !this.isPeer(message.to))
      throw new Error(`${message.to} is not one of our bots (bots: ${this.peers().join(', ') || 'none'}).`);
    const flags = `${message.start ? 's' : ''}${message.end ? 'e' : ''}${message.busy ? 'b' : ''}` || '-';
    const id = this.#nextId++ % 1_000_000;
    const room = CHAT_LIMIT - `/tell ${message.to} `.length - HEADER_ROOM;
    let pieces = encodePayload(message.text, room);
    if (pieces.length > MAX_PARTS) {
      this.#log(`[${this.#bot.username}] message to ${message.to} cut to ${MAX_PARTS} whispers`);
      pieces = pieces.slice(0, MAX_PARTS);
    }
    const session = this.#answered.get(message.to) ?? '-';
    pieces.forEach((piece, i) => {
      const part = { sender: this.#bot.username, receiver: message.to, session, id, part: i + 1, total: pieces.length, flags, piece };
      this.#whisper(message.to, `msg|${flags}|${id}|${i + 1}/${pieces.length}|${messageMac(this.#key, part)}|${piece}`);
    });
  }

  listen(handler: (message: BotMessage) => void): void {
    this.#handler = handler;
  }

  onPeersChanged(handler: () => void): void {
    this.#onPeers = handler;
  }

  /**
   * The bot joined the server again (a new connection): forgets every peer, challenge and
   * partial message (whoever holds a name now must prove itself again) and says hello to every
   * player online.
   */
  rejoined(): void {
    if (this.#closed) return;
    const hadPeers = this.#verified.size > 0;
    this.#forgetAll();
    if (hadPeers) this.#onPeers?.();
    for (const name of Object.keys(this.#bot.players)) this.#hello(name);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#bot.off('whisper', this.#onWhisper);
    this.#bot.off('playerJoined', this.#onJoined);
    this.#bot.off('playerLeft', this.#onLeft);
    this.#forgetAll();
  }

  #forgetAll(): void {
    this.#verified.clear();
    this.#challenges.clear();
    this.#partials.clear();
    this.#helloAnswered.clear();
    this.#sessions.clear();
    this.#answered.clear();
    this.#lastIds.clear();
  }

  #whisper(to: string, body: string): void {
    this.#outbox.raw(`/tell ${to} ${ENVELOPE_PREFIX}${body}`);
  }

  #challenge(name: string): string {
    const nonce = randomBytes(8).toString('hex');
    const list = [...(this.#challenges.get(name) ?? []), nonce].slice(-MAX_CHALLENGES);
    this.#challenges.set(name, list);
    return nonce;
  }

  #hello(name: string): void {
    if (this.#closed || name === this.#bot.username || this.#skip(name)) return;
    this.#whisper(name, `hello|-|0|1/1|${this.#challenge(name)}`);
  }

  #forget(name: string): void {
    this.#challenges.delete(name);
    this.#partials.delete(name);
    this.#helloAnswered.delete(name);
    this.#sessions.delete(name);
    this.#answered.delete(name);
    this.#lastIds.delete(name);
    if (this.#verified.delete(name)) this.#onPeers?.();
  }

  #refuse(from: string, why: string): void {
    this.#log(`[${this.#bot.username}] refused a bot envelope from ${from}: ${why}`);
  }

  #receive(from: string, text: string): void {
    if (this.#closed || !isEnvelope(text) || from === this.#bot.username) return;
    if (this.#skip(from)) return this.#refuse(from, 'that bot is reached in-process, never by whisper');
    const env = parseEnvelope(text);
    if (!env) return this.#refuse(from, 'malformed envelope');
    if (env.type === 'hello') return this.#answerHello(from, env.payload);
    if (env.type === 'proof') return this.#checkProof(from, env.payload);
    if (!this.#verified.has(from)) return this.#refuse(from, 'not a verified bot');
    this.#collect(from, env);
  }

  #answerHello(from: string, nonce: string): void {
    if (!/^[0-9a-f]{16}$/.test(nonce)) return this.#refuse(from, 'bad hello');
    const now = Date.now();
    if (now - (this.#helloAnswered.get(from) ?? -Infinity) < HELLO_ANSWER_GAP_MS) return;
    this.#helloAnswered.set(from, now);
    // Always a new challenge back, also to a peer verified already (it may have forgotten us, e.g.
    // after its reconnect): its answer starts the session our side signs its messages for.
    const challenge = this.#challenge(from);
    this.#answered.set(from, nonce);
    this.#whisper(from, `proof|-|0|1/1|${challenge} ${proofMac(this.#key, this.#bot.username, from, nonce)}`);
  }

  #checkProof(from: string, payload: string): void {
    const m = /^([0-9a-f]{16}|-) ([0-9a-f]{24})$/.exec(payload);
    if (!m) return this.#refuse(from, 'bad proof');
    const theirChallenge = m[1]!;
    const mac = m[2]!;
    const mine = this.#challenges.get(from) ?? [];
    const used = mine.find((nonce) => sameMac(proofMac(this.#key, from, this.#bot.username, nonce), mac));
    if (!used) return this.#refuse(from, 'proof does not match any challenge we sent');
    this.#challenges.set(
      from,
      mine.filter((n) => n !== used),
    );
    const isNew = !this.#verified.has(from);
    this.#verified.add(from);
    // A new session: its messages are signed for this challenge, and their ids count afresh.
    this.#sessions.set(from, used);
    this.#lastIds.delete(from);
    if (theirChallenge !== '-') {
      this.#answered.set(from, theirChallenge);
      this.#whisper(from, `proof|-|0|1/1|- ${proofMac(this.#key, this.#bot.username, from, theirChallenge)}`);
    }
    if (isNew) {
      this.#log(`[${this.#bot.username}] found bot ${from} (whisper)`);
      this.#onPeers?.();
    }
  }

  #collect(from: string, env: Envelope): void {
    const signed = /^([0-9a-f]{24})\|(.*)$/s.exec(env.payload);
    const session = this.#sessions.get(from);
    if (!signed || session === undefined) return this.#refuse(from, `message ${env.id} has no MAC`);
    const piece = signed[2]!;
    const part = {
      sender: from,
      receiver: this.#bot.username,
      session,
      id: env.id,
      part: env.part,
      total: env.total,
      flags: env.flags,
      piece,
    };
    if (!sameMac(messageMac(this.#key, part), signed[1]!)) return this.#refuse(from, `message ${env.id} has a wrong MAC`);
    if (env.part === 1 && !newerId(env.id, this.#lastIds.get(from)))
      return this.#refuse(from, `message ${env.id} was taken already (replayed)`);
    env = { ...env, payload: piece };
    const now = Date.now();
    let partial = this.#partials.get(from);
    if (env.part === 1) {
      this.#lastIds.set(from, env.id);
      partial = { id: env.id, flags: env.flags, total: env.total, parts: [], at: now };
      this.#partials.set(from, partial);
    }
    if (
      !partial ||
      partial.id !== env.id ||
      partial.total !== env.total ||
      partial.parts.length !== env.part - 1 ||
      now - partial.at > PARTIAL_TTL_MS
    ) {
      this.#partials.delete(from);
      return this.#refuse(from, `part ${env.part}/${env.total} of message ${env.id} out of order`);
    }
    partial.parts.push(env.payload);
    if (partial.parts.length < partial.total) return;
    this.#partials.delete(from);
    const message: BotMessage = { from, to: this.#bot.username, text: decodePayload(partial.parts.join('')) };
    if (partial.flags.includes('s')) message.start = true;
    if (partial.flags.includes('e')) message.end = true;
    if (partial.flags.includes('b')) message.busy = true;
    this.#handler?.(message);
  }
}

/** Message ids run 0 … 999 999 and wrap: an id is newer than `last` when it is ahead of it by less than half the range. */
function newerId(id: number, last: number | undefined): boolean {
  if (last === undefined) return true;
  const ahead = (id - last + 1_000_000) % 1_000_000;
  return ahead > 0 && ahead < 500_000;
}
