/**
 * The tab list's latency column at vanilla's cadence, with no timer per player; and the answer to
 * a client's `ping_request`.
 *
 * Vanilla sends every player's latency to every player once every 600 ticks (30 s): `PlayerList.tick`
 * counts `sendAllPlayerInfoIn` up each tick and, past 600, broadcasts one
 * `ClientboundPlayerInfoUpdatePacket` with the `UPDATE_LATENCY` action for all players.
 *
 * flying-squid 1.12 instead starts a 5 s `setInterval` per player in its login (`fillTabList`) that
 * writes the whole list to that player and is never cleared: every player who ever joined keeps a
 * timer, and with it the player object, its client and world state (about 256 KB per join), and with
 * N players online every client decodes N entries every 5 s (a client such as mineflayer then looks
 * each one up in its list: O(N²) per bot). Here such a timer is stopped the first time it fires (it
 * sends nothing), and one tick-driven broadcast does vanilla's job, serialised once for everyone.
 *
 * A flying-squid that no longer sends latency lists from a per-player timer is left alone: the
 * timers this feature stops are recognised by what they write (a latency-only `player_info`) and
 * where they write it from (an interval's callback), not by flying-squid's version.
 */
import { executionAsyncResource } from 'node:async_hooks';
import type { SquidPlayer, SquidServer } from '../types.ts';

/** Ticks between two latency broadcasts: vanilla's `PlayerList.tick` sends once the count passes 600 (30 s). */
export const LATENCY_BROADCAST_TICKS = 600;

/** The player_info payload of a latency-only update of `players`, in the server version's shape. */
function latencyUpdate(serv: SquidServer, players: readonly SquidPlayer[]): object {
  if (serv.supportFeature('playerInfoActionIsBitfield'))
    return { action: { update_latency: true }, data: players.map((p) => ({ uuid: p.uuid, latency: p._client.latency ?? 0 })) };
  return { action: 'update_latency', data: players.map((p) => ({ uuid: p.uuid, ping: p._client.latency ?? 0 })) };
}

/** True for a player_info payload that only updates latencies (both the 1.19.3+ bitfield and the older action name). */
function isLatencyOnly(params: unknown): boolean {
  const action = (params as { action?: unknown } | undefined)?.action;
  if (action === 'update_latency') return true;
  if (!action || typeof action !== 'object') return false;
  // A decoded bitfield also carries its raw number as `_value`.
  const set = Object.entries(action).filter(([name, on]) => on && !name.startsWith('_'));
  return set.length === 1 && set[0]![0] === 'update_latency';
}

/** The repeating timer whose callback is running now, if any (Node runs timer callbacks inside their Timeout resource). */
function runningInterval(): NodeJS.Timeout | undefined {
  const resource = executionAsyncResource() as { constructor?: { name?: string }; _repeat?: unknown } | undefined;
  return resource?.constructor?.name === 'Timeout' && resource._repeat ? (resource as unknown as NodeJS.Timeout) : undefined;
}

const stopped = new WeakMap<SquidServer, { timers: number }>();

/** How many of flying-squid's per-player latency timers this server has stopped so far (for tests and diagnostics). */
export function stoppedLatencyTimers(serv: SquidServer): number {
  return stopped.get(serv)?.timers ?? 0;
}

/**
 * Stops flying-squid's per-player latency timers and broadcasts every player's latency to every
 * player once per {@link LATENCY_BROADCAST_TICKS} ticks. Answers each `ping_request` of a player
 * in play with a `ping_response` carrying its id (vanilla 1.20.2+
 * `ServerCommonPacketListenerImpl.handlePingRequest`; flying-squid 1.12 leaves it unanswered):
 * the debug screen's ping, and a client's way to know the server has read what it sent before.
 */
export function installLatencyUpdates(serv: SquidServer): void {
  const count = { timers: 0 };
  stopped.set(serv, count);
  serv.on('newPlayer', (player) => {
    const client = player._client;
    client.on('ping_request', (packet: { id: bigint | number }) => client.write('ping_response', { id: packet.id }));
    const write = client.write.bind(client);
    client.write = (name: string, params: object): void => {
      if (name === 'player_info' && isLatencyOnly(params)) {
        const timer = runningInterval();
        if (timer) {
          clearInterval(timer);
          count.timers++;
          return;
        }
      }
      write(name, params);
    };
  });
  let ticks = 0;
  serv.on('tick', () => {
    if (++ticks <= LATENCY_BROADCAST_TICKS) return;
    ticks = 0;
    const players = serv.players.filter((p) => !p.disconnected);
    if (players.length === 0) return;
    // One serialisation for everyone (minecraft-protocol's writeToClients), as vanilla's broadcastAll.
    serv._server.writeToClients(
      players.map((p) => p._client),
      'player_info',
      latencyUpdate(serv, players),
    );
  });
}
