/**
 * minecraft-protocol's packet framing without an exception per received chunk.
 *
 * The `Splitter` (src/transforms/framing.js) cuts the TCP stream into packets: after the last whole
 * packet of a chunk it reads the next packet's length, a VarInt, and when the chunk ends before it
 * (almost every chunk does), protodef's `readVarInt` throws a `PartialReadError`, an Error
 * subclass that captures a stack trace twice; the splitter catches it and waits for more bytes.
 * A walking bot receives a chunk per packet burst: the throw is a quarter of its CPU. The
 * replacement reads the VarInt with a bounds check and returns instead. Its packets are the same,
 * byte for byte, in the same order; the legacy server-list ping is handled as before.
 *
 * Upstream: docs/upstream/minecraft-protocol.md. The patch first feeds a fresh splitter a packet
 * followed by half a VarInt and watches `Error.captureStackTrace`: a splitter that no longer
 * throws there is left alone.
 */
import { createRequire } from 'node:module';
import type { FixStatus } from './minecraft-data.ts';

const require = createRequire(import.meta.url);

/** The first byte of the pre-Netty server list ping, which has no length prefix. */
const LEGACY_PING_PACKET_ID = 0xfe;
/** A VarInt is at most 5 bytes; protodef gives up on longer ones only past a 64-bit shift, waiting for more. */
const MAX_VARINT_BYTES = 10;

interface SplitterLike {
  buffer: Buffer;
  recognizeLegacyPing: boolean;
  push(chunk: Buffer): boolean;
  _transform(chunk: Buffer, encoding: string, callback: (error?: Error | null) => void): void;
}

type VarIntCodec = [
  read: (buffer: Buffer, offset: number) => { value: number; size: number },
  write: (value: number, buffer: Buffer, offset: number) => number,
  sizeOf: (value: number) => number,
];

const PATCHED = Symbol.for('mindcraft-ts.framing');

/** The VarInt at `offset` as protodef reads it, or undefined when the buffer ends first (or it runs too long). */
function peekVarInt(buffer: Buffer, offset: number): { value: number; size: number } | undefined {
  let value = 0;
  let shift = 0;
  for (let cursor = offset; cursor < buffer.length && cursor - offset < MAX_VARINT_BYTES; cursor++) {
    const byte = buffer[cursor]!;
    value |= (byte & 0x7f) << shift;
    if (!(byte & 0x80)) return { value, size: cursor + 1 - offset };
    shift += 7;
  }
  return undefined;
}

/** True when the splitter still captures a stack trace for a chunk that ends inside a VarInt. */
function throwsOnPartialVarInt(splitter: SplitterLike): boolean {
  const capture = Error.captureStackTrace;
  let captured = 0;
  Error.captureStackTrace = (target, constructor) => {
    captured++;
    capture(target, constructor);
  };
  try {
    // A one-byte packet (length 1, payload 0), then the first byte of a two-byte VarInt.
    splitter._transform(Buffer.from([0x01, 0x00, 0x80]), 'buffer', () => {});
  } finally {
    Error.captureStackTrace = capture;
  }
  return captured > 0;
}

/**
 * Replaces `_transform` on minecraft-protocol's `Splitter` prototype (every client and server
 * connection, also those open already), unless it no longer throws on a partial VarInt. Idempotent.
 */
export function fixPacketFraming(): FixStatus {
  const framing = require('minecraft-protocol/src/transforms/framing.js') as { createSplitter(): SplitterLike };
  const prototype = Object.getPrototypeOf(framing.createSplitter()) as SplitterLike & { [PATCHED]?: true };
  if (prototype[PATCHED]) return 'applied before';
  const probe = framing.createSplitter();
  if (!throwsOnPartialVarInt(probe)) return 'not needed';
  const [, writeVarInt, sizeOfVarInt] = (require('protodef') as { types: { varint: VarIntCodec } }).types.varint;
  prototype._transform = function (this: SplitterLike, chunk, _encoding, callback) {
    // Always a copy, as upstream: the packets pushed and the rest kept must not share the chunk's
    // memory (without the copy, walking clients' keep-alives went missing on the server: the
    // chunk's bytes changed after it was handed over).
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (this.recognizeLegacyPing && this.buffer[0] === LEGACY_PING_PACKET_ID) {
      // The legacy ping has no length prefix: the deserializer gets it with its id as a VarInt.
      const header = Buffer.alloc(sizeOfVarInt(LEGACY_PING_PACKET_ID));
      writeVarInt(LEGACY_PING_PACKET_ID, header, 0);
      const payload = this.buffer.length > 1 ? this.buffer.subarray(1) : Buffer.from('\0');
      this.push(Buffer.concat([header, payload]));
      callback();
      return;
    }
    let offset = 0;
    for (let length = peekVarInt(this.buffer, 0); length; length = peekVarInt(this.buffer, offset)) {
      const end = offset + length.size + length.value;
      if (this.buffer.length < end) break;
      this.push(this.buffer.subarray(offset + length.size, end));
      offset = end;
    }
    this.buffer = this.buffer.subarray(offset);
    callback();
  };
  prototype[PATCHED] = true;
  return 'applied';
}

/** The longest a client's `end` waits for the packets read before it ({@link packetsBeforeEnd}), in ms. */
export const PACKETS_BEFORE_END_MS = 1_000;

/** A minecraft-protocol `Client`, as far as {@link packetsBeforeEnd} uses it. */
interface ClientLike {
  emit(event: string | symbol, ...args: unknown[]): boolean;
  /** The current state's packet parser: every packet read goes through it (minecraft-protocol's `deserializer`). */
  deserializer?: {
    readableEnded: boolean;
    destroyed: boolean;
    once(event: 'end' | 'close', listener: () => void): void;
    off(event: 'end' | 'close', listener: () => void): void;
  };
  /** The reason the client ended itself with (`client.end(reason)`), else undefined. */
  _endReason?: string;
}

/**
 * minecraft-protocol's `Client` emits `end` on its socket's `end` (or `close`), while the last
 * packets read before it may still be on their way through the splitter → (decompressor →)
 * deserializer streams: behind a buffer, or in a zlib job. A kick or a login refusal sent right
 * before the server closes then comes after `end`, and mineflayer's `kicked` after its `end`: the
 * reason is lost and a refused bot reads as "disconnected (socketClosed)". This defers the
 * client's `end` until its deserializer has ended (the pipes end it after the socket's end, once
 * every packet in them is emitted), at most {@link PACKETS_BEFORE_END_MS}. An `end` the client
 * asked for itself (`bot.quit()`), or one with nothing left to read, passes at once: the fix costs
 * nothing where the library already orders them.
 *
 * Upstream: docs/upstream/minecraft-protocol.md (the end of a connection). Install it on a bot
 * right after `createBot`, before any `end` listener matters.
 */
export function packetsBeforeEnd(bot: { _client: unknown }): void {
  const client = bot._client as ClientLike;
  const emit = client.emit;
  client.emit = function (this: ClientLike, event: string | symbol, ...args: unknown[]): boolean {
    const deserializer = client.deserializer;
    if (event !== 'end' || !deserializer || deserializer.readableEnded || deserializer.destroyed || client._endReason !== undefined) {
      return emit.call(this, event, ...args);
    }
    let done = false;
    const passOn = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      deserializer.off('end', passOn);
      deserializer.off('close', passOn);
      emit.call(client, event, ...args);
    };
    const timer = setTimeout(passOn, PACKETS_BEFORE_END_MS);
    deserializer.once('end', passOn);
    deserializer.once('close', passOn);
    return true;
  };
}
