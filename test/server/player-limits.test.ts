/**
 * The server never dies of players (src/server/features/player-limits.ts, ./latency.ts): players
 * do not count against the entity cap, a full server refuses a login with vanilla's "The server
 * is full!" and keeps running, nothing made for a player's join outlives the player, and latency
 * lists go out at vanilla's cadence. Joins use minecraft-protocol's own client (no mineflayer)
 * where only the server's side matters: a join costs a tenth of a bot's.
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, test } from 'vitest';
import { ConnectError, connectBot as joinAsBot } from '../../src/agent/bot.ts';
import { spawnMob } from '../../src/server/services/mobs.ts';
import { LATENCY_BROADCAST_TICKS, stoppedLatencyTimers } from '../../src/server/features/latency.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import type { SquidPlayer } from '../../src/server/types.ts';
import { startTestServer, waitUntil } from '../helpers/world.ts';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const mc: any = require('minecraft-protocol');

/** A raw protocol client (minecraft-protocol's `Client`), as far as these tests use it. */
interface RawClient {
  username: string;
  on(event: string, listener: (...args: never[]) => void): void;
  once(event: string, listener: (...args: never[]) => void): void;
  write(name: string, params: object): void;
  end(): void;
}

let server: EmbeddedServer | undefined;
const clients: RawClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.end();
  await server?.close();
  server = undefined;
});

/** Opens a raw client that answers teleports as a vanilla client does (no channel validation: the server's concern only). */
function open(srv: EmbeddedServer, username: string): RawClient {
  const client: RawClient = mc.createClient({
    host: srv.host,
    port: srv.port,
    username,
    version: srv.version,
    auth: 'offline',
    validateChannelProtocol: false,
  });
  client.on('error', () => {});
  client.on('position', (p: { teleportId: number }) => client.write('teleport_confirm', { teleportId: p.teleportId }));
  clients.push(client);
  return client;
}

/**
 * Joins a raw client and resolves once it has spawned (the health packet, flying-squid's last
 * step of a login before `spawned`) with the server's player.
 */
async function join(srv: EmbeddedServer, username: string): Promise<{ client: RawClient; player: SquidPlayer }> {
  const client = open(srv, username);
  let spawned = false;
  client.once('update_health', () => (spawned = true));
  await waitUntil(() => spawned, `${username} spawned`);
  const player = srv.serv.players.find((p) => p.username === username);
  if (!player) throw new Error(`${username} spawned but is not in the server's player list`);
  return { client, player };
}

/** Ends a raw client and resolves once the server has let its player go. */
async function leave(srv: EmbeddedServer, client: RawClient, player: SquidPlayer): Promise<void> {
  const gone = new Promise<void>((resolve) => player.once('disconnected', () => resolve()));
  client.end();
  clients.splice(clients.indexOf(client), 1);
  await gone;
  await waitUntil(() => !srv.serv.players.includes(player), `${client.username} left the player list`);
}

/**
 * Joins and leaves `count` players one after the other; returns weak references to them. A
 * function of its own: a suspended async frame may keep its last locals.
 */
async function cycles(srv: EmbeddedServer, count: number): Promise<Array<WeakRef<SquidPlayer>>> {
  const gone: Array<WeakRef<SquidPlayer>> = [];
  for (let i = 1; i <= count; i++) {
    const { client, player } = await join(srv, `Cycle${i}`);
    gone.push(new WeakRef(player));
    await leave(srv, client, player);
  }
  return gone;
}

/** Node's `gc()`, exposed at run time (`--expose-gc` for this process from now on). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('player limits', () => {
  test('players do not count against the entity cap: more players than max-entities join, and mobs still have their room', async () => {
    server = await startTestServer({ maxEntities: 2 });
    const srv = server;
    const players: SquidPlayer[] = [];
    for (const name of ['Cap1', 'Cap2', 'Cap3', 'Cap4']) players.push((await join(srv, name)).player);
    expect(srv.serv.players.map((p) => p.username).sort()).toEqual(['Cap1', 'Cap2', 'Cap3', 'Cap4']);
    // The two mobs the cap allows, and no third.
    const at = players[0]!.position;
    spawnMob(srv.serv, 'cow', { world: srv.serv.overworld, position: at.offset(2, 0, 0) });
    spawnMob(srv.serv, 'cow', { world: srv.serv.overworld, position: at.offset(3, 0, 0) });
    expect(() => spawnMob(srv.serv, 'cow', { world: srv.serv.overworld, position: at.offset(4, 0, 0) })).toThrow(/Too many/);
    // A fifth player still joins with the cap full of mobs.
    await join(srv, 'Cap5');
    expect(srv.serv.players).toHaveLength(5);
  });

  test("a full server refuses a login with vanilla's server_full, keeps its players, and lets the next one in once a place is free", async () => {
    server = await startTestServer({ maxPlayers: 2 });
    const srv = server;
    const first = await join(srv, 'Full1');
    await join(srv, 'Full2');

    // A raw client reads the login disconnect itself: vanilla's translation key.
    const refused = open(srv, 'Full3');
    const reason = await new Promise<string>((resolve) =>
      refused.once('disconnect', (packet: { reason: string }) => resolve(packet.reason)),
    );
    expect(JSON.parse(reason)).toEqual({ translate: 'multiplayer.disconnect.server_full' });
    // A mineflayer bot is told in words.
    const bot = joinAsBot('Full4', { host: srv.host, port: srv.port, version: srv.version, auth: 'offline' }, 10_000);
    await expect(bot).rejects.toThrow(ConnectError);
    await expect(bot).rejects.toThrow('The server is full!');
    expect(srv.serv.players.map((p) => p.username).sort()).toEqual(['Full1', 'Full2']);

    await leave(srv, first.client, first.player);
    await join(srv, 'Full5');
    expect(srv.serv.players.map((p) => p.username).sort()).toEqual(['Full2', 'Full5']);
  });

  test('nothing made for a join outlives its player: after join/leave cycles every player is collected and no timer or listener is left', async () => {
    server = await startTestServer();
    const srv = server;
    const gc = collector();
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const emitter = srv.serv as unknown as import('node:events').EventEmitter;
    const listeners = () => emitter.eventNames().map((name) => `${String(name)}:${emitter.listenerCount(name)}`);
    // One cycle first: the modules and caches a first join fills.
    const warm = await join(srv, 'Cycle0');
    await leave(srv, warm.client, warm.player);
    gc();
    const timersBefore = timers();
    const listenersBefore = listeners();

    const gone = await cycles(srv, 30);
    // flying-squid re-assigns server-wide helpers (`serv._sendPlayerEventNewJoin`, ...) in each
    // login's scope, so the server holds the latest joiner's scope: one more player, who stays.
    await join(srv, 'Stays');
    // flying-squid's latency timer of a player holds it until it first fires (5 s after the join), then is stopped.
    await waitUntil(
      () => {
        gc();
        return gone.every((ref) => ref.deref() === undefined);
      },
      'every player that left is collected',
      { timeoutMs: 15_000, intervalMs: 250, state: () => gone.filter((ref) => ref.deref()).map((ref) => ref.deref()!.username) },
    );
    expect(stoppedLatencyTimers(srv.serv)).toBeGreaterThanOrEqual(31);
    expect(timers()).toBeLessThanOrEqual(timersBefore + 1); // the latency timer of the one who stays, until it fires
    expect(listeners()).toEqual(listenersBefore);
  });

  test("latency lists go out once per 600 ticks, to everyone at once, and flying-squid's own 5 s lists never", async () => {
    server = await startTestServer();
    const srv = server;
    const client = open(srv, 'Pinger');
    let spawned = false;
    client.once('update_health', () => (spawned = true));
    const latencyLists: Array<Array<{ uuid: string }>> = [];
    client.on('player_info', (packet: { action: Record<string, boolean>; data: Array<{ uuid: string }> }) => {
      // The decoded bitfield: one flag per action, and its number as `_value`.
      const actions = Object.entries(packet.action).filter(([name, on]) => on && name !== '_value');
      if (actions.length === 1 && actions[0]![0] === 'update_latency') latencyLists.push(packet.data);
    });
    await waitUntil(() => spawned, 'Pinger spawned');
    const player = srv.serv.players.find((p) => p.username === 'Pinger')!;
    await waitUntil(() => stoppedLatencyTimers(srv.serv) === 1, "flying-squid's latency timer of the player fired and was stopped");
    expect(latencyLists).toEqual([]);
    // 600 ticks of game time at once (the server's own tick event, as flying-squid emits it).
    for (let i = 0; i < LATENCY_BROADCAST_TICKS; i++) srv.serv.emit('tick', 0.05, srv.serv.tickCount);
    expect(latencyLists).toEqual([]);
    srv.serv.emit('tick', 0.05, srv.serv.tickCount);
    await waitUntil(() => latencyLists.length === 1, 'one latency list after 601 ticks');
    expect(latencyLists[0]!.map((entry) => entry.uuid)).toEqual([player.uuid]);
  });
});
