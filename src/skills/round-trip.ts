/**
 * A round trip to the server: resolves once the server has answered a `ping_request` sent now.
 * The server reads a client's packets in order and answers each before reading the next, and TCP
 * keeps both directions in order, so by then every packet the server sent in answer to what the
 * bot sent before (a click's corrections, a window's contents) has arrived and been applied.
 *
 * mineflayer's window clicks (1.17+) resolve on the client's own prediction, without waiting for
 * the server: a click on a slot another player emptied a moment before is believed until the
 * server's correction arrives. Reading the result after a round trip reads the server's truth.
 *
 * `ping_request` / `ping_response` exist in play since 1.20.2 (vanilla
 * `ServerCommonPacketListenerImpl.handlePingRequest`; the embedded server answers them,
 * src/server/features/latency.ts). A server that leaves them unanswered costs one wait of
 * {@link ROUND_TRIP_MS}; the bot then does not ask that server again.
 */
import type { Bot } from 'mineflayer';
import { throwIfAborted } from '../util/abort.ts';

/** The longest a round trip is waited for (ms); a server that has not answered by then is taken not to answer pings. */
export const ROUND_TRIP_MS = 2_000;

/** Bots whose server left a ping unanswered: no more round trips with it. */
const unanswered = new WeakSet<object>();

/** The client's packet interface, as far as the round trip uses it. */
interface PingClient {
  write(name: string, params: object): void;
  on(event: 'ping_response', listener: (packet: { id: bigint | number }) => void): void;
  off(event: 'ping_response', listener: (packet: { id: bigint | number }) => void): void;
}

let nextId = 0n;

/** Whether the bot's protocol version has a play-state `ping_request` (minecraft-data's protocol). */
function hasPingRequest(bot: Bot): boolean {
  const protocol = (bot.registry as { protocol?: { play?: { toServer?: { types?: Record<string, unknown> } } } }).protocol;
  return !!protocol?.play?.toServer?.types?.packet_ping_request;
}

/**
 * Waits for the server to answer a ping sent now (see the module comment), at most
 * {@link ROUND_TRIP_MS}. Resolves at once for a version without the packet or a server known not
 * to answer.
 *
 * @throws AbortError when `signal` aborts first.
 */
export async function roundTrip(bot: Bot, signal: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  const client = bot._client as unknown as PingClient;
  if (unanswered.has(client) || !hasPingRequest(bot)) return;
  const id = ++nextId;
  await new Promise<void>((resolve, reject) => {
    const finish = (error?: unknown) => {
      clearTimeout(timer);
      client.off('ping_response', onResponse);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onResponse = (packet: { id: bigint | number }) => {
      if (BigInt(packet.id) === id) finish();
    };
    const onAbort = () => finish(signal.reason);
    const timer = setTimeout(() => {
      unanswered.add(client);
      finish();
    }, ROUND_TRIP_MS);
    client.on('ping_response', onResponse);
    signal.addEventListener('abort', onAbort, { once: true });
    client.write('ping_request', { id });
  });
}
