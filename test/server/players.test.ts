/**
 * Player join and leave (src/server/features/players.ts): a joining player is tracked only once it
 * has its tab list; when a player disconnects, the others get what vanilla 1.21 sends
 * (`entity_destroy` for its entity, then `player_remove` with its UUID), so mineflayer fires
 * `playerLeft` and drops the name from `bot.players`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, roundTrip, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { SERVER_VERSIONS } from '../../src/game/versions.ts';

/** Packets of the given names a bot's client receives, in order, with their payloads. */
function recordPackets(bot: Bot, names: string[]): Array<[string, Record<string, unknown>]> {
  const seen: Array<[string, Record<string, unknown>]> = [];
  bot._client.on('packet', (data: Record<string, unknown>, meta: { name: string }) => {
    if (names.includes(meta.name)) seen.push([meta.name, data]);
  });
  return seen;
}

/** Resolves with the username of the next `playerLeft` or `playerJoined` event (rejects after `timeoutMs`). */
function nextPlayerEvent(bot: Bot, event: 'playerLeft' | 'playerJoined', timeoutMs = 3_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${bot.username} got no ${event}`)), timeoutMs);
    bot.once(event, (player) => {
      clearTimeout(timer);
      resolve(player.username);
    });
  });
}

describe.each(SERVER_VERSIONS)('player leave on %s', (version) => {
  let server: EmbeddedServer;
  const bots: Bot[] = [];
  let botCount = 0;

  async function join(prefix: string, name = `${prefix}${++botCount}`): Promise<Bot> {
    const bot = await connectBot(server, name);
    bots.push(bot);
    return bot;
  }

  /** Quits `bot` and waits until the server has dropped it. */
  async function leave(bot: Bot): Promise<void> {
    bots.splice(bots.indexOf(bot), 1);
    bot.quit();
    await waitUntil(
      () => !server.serv.players.some((p: { username: string }) => p.username === bot.username),
      `${bot.username} gone from the server`,
      5_000,
    );
  }

  beforeAll(async () => {
    server = await startTestServer({ version });
  });
  afterEach(async () => {
    for (const bot of bots.splice(0)) bot.quit();
    await waitUntil(() => server.serv.players.length === 0, 'bots to leave', 5_000);
  });
  afterAll(async () => {
    await server?.close();
  });

  test('the others get entity_destroy then player_remove; mineflayer fires playerLeft and forgets the name', async () => {
    const alice = await join('Alice');
    const bob = await join('Bob');
    await waitUntil(() => bob.players[alice.username]?.entity !== undefined, "Bob to see Alice's entity");
    const aliceUuid = serverPlayer(server, alice.username).uuid as string;
    const aliceEntityId = bob.players[alice.username]!.entity.id;
    const packets = recordPackets(bob, ['entity_destroy', 'player_remove', 'player_info']);

    const left = nextPlayerEvent(bob, 'playerLeft');
    const gone: number[] = [];
    bob.on('entityGone', (entity) => {
      gone.push(entity.id);
    });
    await leave(alice);
    expect(await left).toBe(alice.username);
    expect(bob.players[alice.username]).toBeUndefined();
    expect(Object.values((bob as Bot & { uuidToUsername: Record<string, string> }).uuidToUsername)).not.toContain(alice.username);
    await waitUntil(() => bob.entities[aliceEntityId] === undefined, "Alice's entity gone for Bob", 2_000);
    expect(gone.filter((id) => id === aliceEntityId)).toEqual([aliceEntityId]);

    const kinds = packets.map(([name]) => name);
    expect(kinds).toEqual(['entity_destroy', 'player_remove']); // vanilla order; no player_info
    expect(packets[0]![1]).toEqual({ entityIds: [aliceEntityId] });
    expect(packets[1]![1]).toEqual({ players: [aliceUuid] });

    // Bob moving afterwards sends no second entity_destroy for Alice (she left his nearby list).
    bob.chat('/tp ~20 ~ ~');
    await waitUntil(
      () => serverPlayer(server, bob.username).position.distanceTo(serverPlayer(server, bob.username).spawnPoint) > 19,
      'Bob moved',
      3_000,
    );
    bob.chat('/tp ~-20 ~ ~');
    // Once the server has run the teleport back and Bob has every packet it sent meanwhile:
    await roundTrip(bob);
    expect(serverPlayer(server, bob.username).position.distanceTo(serverPlayer(server, bob.username).spawnPoint)).toBeLessThan(1);
    expect(gone.filter((id) => id === aliceEntityId)).toEqual([aliceEntityId]);
    const destroysOfAlice = packets.filter(
      ([name, data]) => name === 'entity_destroy' && (data.entityIds as number[]).includes(aliceEntityId),
    );
    expect(destroysOfAlice.length).toBe(1);
  });

  test('a player who moves while another logs in is seen by it, with its name, once that one has its tab list', async () => {
    const erin = await join('Erin');
    // The newcomer's entity exists (at 0 0 0, within Erin's view) before its login packet and tab list:
    // Erin's re-tracking right then (as a walk or a teleport does) must not reach it yet.
    server.serv.once('newPlayer', () => serverPlayer(server, erin.username).updateAndSpawn());
    const finn = await join('Finn');
    await waitUntil(() => finn.players[erin.username]?.entity?.username === erin.username, "Finn to see Erin's entity, named", {
      timeoutMs: 5_000,
      state: () => Object.values(finn.entities).map((e) => `${e.id} ${e.name} ${e.username}`),
    });
    await waitUntil(() => erin.players[finn.username]?.entity?.username === finn.username, "Erin to see Finn's entity, named", 5_000);
  });

  test("a teleport far away brings the 5 × 5 columns around the destination with the position: mineflayer's waitForChunksToLoad has nothing to wait for", async () => {
    const erin = await join('Tele');
    const from = erin.entity.position.clone();
    // Read at the teleport's own position packet (not an earlier one of the join), which comes after
    // the columns sent with the teleport: the login's stream of the view may still run.
    const missing = new Promise<string[]>((resolve) => {
      const onMove = () => {
        if (erin.entity.position.x - from.x < 1000) return;
        erin.off('forcedMove', onMove);
        const cx = Math.floor(erin.entity.position.x / 16);
        const cz = Math.floor(erin.entity.position.z / 16);
        const absent: string[] = [];
        for (let dx = -2; dx <= 2; dx++)
          for (let dz = -2; dz <= 2; dz++) if (!erin.world.getColumn(cx + dx, cz + dz)) absent.push(`${cx + dx},${cz + dz}`);
        resolve(absent);
      };
      erin.on('forcedMove', onMove);
    });
    erin.chat('/tp ~2000 ~ ~');
    expect(await missing).toEqual([]);
  });

  test('a far-away player who never saw the entity still gets player_remove; a rejoin is announced again', async () => {
    const carol = await join('Carol');
    const dave = await join('Dave');
    await waitUntil(() => dave.players[carol.username] !== undefined, 'Dave to know Carol');
    const carolEntityId = serverPlayer(server, carol.username).id as number;
    await waitUntil(() => dave.entities[carolEntityId] !== undefined, "Dave to see Carol's entity");
    dave.chat('/tp ~1000 ~ ~'); // far beyond the view distance
    await waitUntil(
      () => serverPlayer(server, dave.username).position.distanceTo(serverPlayer(server, carol.username).position) > 900,
      'Dave far away',
      3_000,
    );
    // flying-squid re-tracks entities on 'move' events, which a teleport does not emit: do it here.
    serverPlayer(server, dave.username).updateAndSpawn();
    await waitUntil(() => dave.entities[carolEntityId] === undefined, "Carol's entity out of Dave's sight", 3_000);
    const packets = recordPackets(dave, ['entity_destroy', 'player_remove']);
    const left = nextPlayerEvent(dave, 'playerLeft');
    const name = carol.username;
    await leave(carol);
    expect(await left).toBe(name);
    expect(dave.players[name]).toBeUndefined();
    expect(packets.map(([packet]) => packet)).toEqual(['player_remove']);

    const joined = nextPlayerEvent(dave, 'playerJoined', 10_000);
    await join('Carol', name);
    expect(await joined).toBe(name);
    expect(dave.players[name]).toBeDefined();
  });
});
