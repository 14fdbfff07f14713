/**
 * Whispers, /tp, /kill, /give and /clear, respawn and the server's life cycle end to end
 * (src/server/features/whisper.ts, teleport-command.ts, item-commands.ts, mob-commands.ts,
 * players.ts; services/teleport.ts, selectors.ts): real mineflayer bots on the embedded
 * flying-squid server, checking both what the bot sees and the server's state.
 */
import { stripVTControlCharacters } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer, ServerLogLevel } from '../../src/server/embedded.ts';
import { entityByName, itemByName } from '../../src/game/data.ts';

/** Resolves with the first chat/system line matching `pattern` (listen before sending). */
function nextMessage(bot: Bot, pattern: RegExp, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const onMessage = (text: string): void => {
      if (!pattern.test(text)) return;
      clearTimeout(timer);
      bot.off('messagestr', onMessage);
      resolve(text);
    };
    const timer = setTimeout(() => {
      bot.off('messagestr', onMessage);
      reject(new Error(`${bot.username} got no message matching ${pattern}`));
    }, timeoutMs);
    bot.on('messagestr', onMessage);
  });
}

/** Resolves with the next `whisper` event's (username, message). */
function nextWhisper(bot: Bot, timeoutMs = 5_000): Promise<[string, string]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${bot.username} got no whisper`)), timeoutMs);
    bot.once('whisper', (username: string, message: string) => {
      clearTimeout(timer);
      resolve([username, message]);
    });
  });
}

describe('world plugin', () => {
  let server: EmbeddedServer;
  const bots: Bot[] = [];
  let botCount = 0;

  /** Connects a bot with a fresh name (names never repeat within a server). */
  async function join(prefix: string): Promise<Bot> {
    const bot = await connectBot(server, `${prefix}${++botCount}`);
    bots.push(bot);
    return bot;
  }

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    const leaving = bots.splice(0);
    for (const bot of leaving) bot.quit();
    await waitUntil(() => server.serv.players.length === 0, 'bots to leave', 5_000);
  });
  afterAll(async () => {
    await server?.close();
  });

  test("whispers: /msg, /tell, /w and bot.whisper fire mineflayer's whisper event", async () => {
    const alice = await join('Alice');
    const bob = await join('Bob');

    let whisper = nextWhisper(bob);
    const feedback = nextMessage(alice, /^You whisper to /);
    alice.whisper(bob.username, 'meet me  at the tree');
    expect(await whisper).toEqual([alice.username, 'meet me  at the tree']);
    expect(await feedback).toBe(`You whisper to ${bob.username}: meet me  at the tree`);

    for (const command of ['msg', 'tell', 'w']) {
      whisper = nextWhisper(bob);
      alice.chat(`/${command} ${bob.username} via ${command}`);
      expect(await whisper).toEqual([alice.username, `via ${command}`]);
    }

    // Nobody else hears it.
    let aliceHeardWhisper = false;
    alice.once('whisper', () => {
      aliceHeardWhisper = true;
    });
    whisper = nextWhisper(bob);
    alice.chat(`/msg ${bob.username} secret`);
    await whisper;
    expect(aliceHeardWhisper).toBe(false);

    const error = nextMessage(alice, /No player was found/);
    alice.chat('/msg Nobody hello');
    await error;
  });

  test('players are announced with the player entity type', async () => {
    const alice = await join('Alice');
    const bob = await join('Bob');
    await waitUntil(() => bob.players[alice.username]?.entity !== undefined, 'Bob to see Alice');
    const seen = bob.players[alice.username]!.entity;
    expect(seen.type).toBe('player');
    expect(seen.name).toBe('player');
    expect(serverPlayer(server, alice.username).entityType).toBe(entityByName(server.serv.registry, 'player').id);
  });

  test('/tp to coordinates centres x/z, streams chunks, and a bot can run it (op)', async () => {
    const alice = await join('Alice');
    const groundY = Math.floor(alice.entity.position.y);
    const reply = nextMessage(alice, /^Teleported /);
    alice.chat(`/tp 200 ${groundY} -200`);
    expect(await reply).toBe(`Teleported ${alice.username} to 200.500000, ${groundY}.000000, -199.500000`);
    await waitUntil(
      () => alice.entity.position.xzDistanceTo(alice.entity.position.clone().set(200.5, 0, -199.5)) < 0.01,
      'Alice at the destination',
      3_000,
    );
    const server_ = serverPlayer(server, alice.username);
    expect(server_.position.x).toBe(200.5);
    expect(server_.position.z).toBe(-199.5);
    // The destination chunk must be loaded client-side within a couple of seconds.
    await waitUntil(() => alice.blockAt(alice.entity.position.offset(0, -1, 0)) !== null, 'chunk under Alice', 2_000);
    expect(alice.blockAt(alice.entity.position.offset(0, -1, 0))?.name).toBe('grass_block');

    // Relative coordinates are offsets from the caller and are not centred.
    const relative = nextMessage(alice, /^Teleported /);
    alice.chat('/tp ~3 ~ ~-2.25');
    await relative;
    expect(server_.position.x).toBe(203.5);
    expect(server_.position.z).toBe(-201.75);
  });

  test('/tp between players (1- and 2-argument forms); observers keep their connection', async () => {
    const alice = await join('Alice');
    const bob = await join('Bob');
    const aliceOnServer = serverPlayer(server, alice.username);
    const bobOnServer = serverPlayer(server, bob.username);

    // A long move (> 8 blocks) that Bob watches: sent as entity_teleport.
    let reply = nextMessage(alice, /^Teleported /);
    alice.chat('/tp ~12 ~ ~');
    await reply;
    const expectedX = aliceOnServer.position.x;
    await waitUntil(
      () => Math.abs((bob.players[alice.username]?.entity?.position.x ?? NaN) - expectedX) < 0.01,
      "Bob to see Alice's teleport",
      3_000,
    );

    // Bob's connection survived: he still gets messages.
    const stillAlive = nextWhisper(bob);
    alice.whisper(bob.username, 'still there?');
    expect(await stillAlive).toEqual([alice.username, 'still there?']);

    // /tp <destination>: the caller goes to the target.
    reply = nextMessage(alice, /^Teleported /);
    alice.chat(`/tp ${bob.username}`);
    expect(await reply).toBe(`Teleported ${alice.username} to ${bob.username}`);
    expect(aliceOnServer.position.distanceTo(bobOnServer.position)).toBe(0);
    await waitUntil(() => alice.entity.position.distanceTo(bobOnServer.position) < 0.01, 'Alice at Bob', 3_000);

    // /tp <targets> <destination>: move someone else.
    alice.chat(`/tp ${bob.username} ~ ~ ~30`); // first move Bob away (4-argument form)
    await waitUntil(() => bob.entity.position.z - alice.entity.position.z > 29, 'Bob moved away', 3_000);
    reply = nextMessage(alice, /^Teleported /);
    alice.chat(`/tp ${bob.username} ${alice.username}`);
    expect(await reply).toBe(`Teleported ${bob.username} to ${alice.username}`);
    await waitUntil(() => bob.entity.position.distanceTo(aliceOnServer.position) < 0.01, 'Bob back at Alice', 3_000);

    const error = nextMessage(alice, /No entity was found/);
    alice.chat('/tp Nobody');
    await error;
  });

  test('/tp <targets> <x y z> centres absolute integer coordinates', async () => {
    const alice = await join('Alice');
    const bob = await join('Bob');
    const y = Math.floor(bob.entity.position.y);
    alice.chat(`/tp ${bob.username} -40 ${y} 41.25`);
    await waitUntil(() => bob.entity.position.x === -39.5 && bob.entity.position.z === 41.25, 'Bob at -39.5, 41.25', 3_000);
    expect(serverPlayer(server, bob.username).position.toArray()).toEqual([-39.5, y, 41.25]);
  });

  test('respawn after /kill: respawn event, full health, back at spawn', async () => {
    const alice = await join('Alice');
    expect(alice.foodSaturation).toBe(5); // flying-squid left it undefined (NaN in mineflayer)
    const onServer = serverPlayer(server, alice.username);
    alice.chat('/tp ~30 ~ ~');
    await waitUntil(() => onServer.position.distanceTo(onServer.spawnPoint) > 29, 'Alice away from spawn', 3_000);

    const died = new Promise<void>((resolve) => alice.once('death', () => resolve()));
    const respawned = new Promise<void>((resolve) => alice.once('respawn', () => resolve()));
    alice.chat(`/kill ${alice.username}`);
    await died;
    await respawned;
    await waitUntil(() => alice.health === 20 && (alice as Bot & { isAlive: boolean }).isAlive, 'Alice back to 20 health', 5_000);
    expect(onServer.health).toBe(20);
    expect(onServer.position.distanceTo(onServer.spawnPoint)).toBe(0);
    await waitUntil(() => alice.entity.position.distanceTo(onServer.spawnPoint) < 0.01, 'client at spawn', 3_000);
  });

  test('/give stores numeric counts and respects stack sizes', async () => {
    const alice = await join('Alice');
    alice.chat(`/give ${alice.username} minecraft:cobblestone 70`);
    await waitUntil(
      () => alice.inventory.count(itemByName(server.serv.registry, 'cobblestone').id, null) === 70,
      'Alice to hold 70 cobblestone',
    );
    const stacks = serverPlayer(server, alice.username).inventory.slots.filter(Boolean);
    expect(stacks.map((item: { count: unknown }) => item.count).sort()).toEqual([6, 64]);
    for (const item of stacks) expect(typeof item.count).toBe('number');

    alice.chat(`/give ${alice.username} cobblestone 3`); // tops up the partial stack
    await waitUntil(
      () => alice.inventory.count(itemByName(server.serv.registry, 'cobblestone').id, null) === 73,
      'Alice to hold 73 cobblestone',
    );
    expect(serverPlayer(server, alice.username).inventory.slots.filter(Boolean).length).toBe(2);

    const error = nextMessage(alice, /Unknown item 'not_an_item'/);
    alice.chat(`/give ${alice.username} not_an_item`);
    await error;
  });

  test('/clear empties the inventory, or only some of one item', async () => {
    const alice = await join('Alice');
    const bob = await join('Bob');
    const id = (name: string) => itemByName(server.serv.registry, name).id;
    alice.chat(`/give ${alice.username} dirt 10`);
    alice.chat(`/give ${alice.username} oak_log 5`);
    alice.chat(`/give ${bob.username} dirt 4`);
    await waitUntil(() => alice.inventory.items().length === 2 && bob.inventory.items().length === 1, 'items to arrive');

    let reply = nextMessage(alice, /^Removed /);
    alice.chat(`/clear ${alice.username} dirt 3`);
    expect(await reply).toBe(`Removed 3 item(s) from player ${alice.username}`);
    await waitUntil(() => alice.inventory.count(id('dirt'), null) === 7, 'seven dirt left');
    expect(alice.inventory.count(id('oak_log'), null)).toBe(5);

    reply = nextMessage(alice, /^Found /);
    alice.chat(`/clear ${alice.username} oak_log 0`); // test mode: counts only
    expect(await reply).toBe(`Found 5 matching item(s) on player ${alice.username}`);

    reply = nextMessage(alice, /^Removed /);
    alice.chat('/clear');
    expect(await reply).toBe(`Removed 12 item(s) from player ${alice.username}`);
    await waitUntil(() => alice.inventory.items().length === 0, "Alice's inventory to be empty");
    expect(serverPlayer(server, alice.username).inventory.slots.every((slot: unknown) => !slot)).toBe(true);
    expect(bob.inventory.count(id('dirt'), null)).toBe(4); // other players untouched

    const error = nextMessage(alice, /No items were found on player/);
    alice.chat('/clear');
    await error;
  });
});

describe('server lifecycle', () => {
  test('silent by default, logger option receives lines, close() is clean with bots connected', async () => {
    const watched = ['uncaughtException', 'unhandledRejection', 'exit', 'SIGINT', 'SIGTERM'] as const;
    // flying-squid registers one exit hook per process when first loaded (not per server), so
    // count after the first server is up; bots joining and both servers closing must add none.
    let listenersBefore: number[] = [];
    const printed: string[] = [];
    const originalLog = console.log;
    const originalWrite = process.stdout.write.bind(process.stdout);
    const crashes: unknown[] = [];
    const onCrash = (err: unknown): void => {
      crashes.push(err);
    };
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    console.log = (...args: unknown[]) => {
      printed.push(args.join(' '));
    };
    process.stdout.write = (chunk: string | Uint8Array, encodingOrDone?: unknown, done?: unknown) => {
      printed.push(String(chunk));
      const callback = typeof encodingOrDone === 'function' ? encodingOrDone : done;
      if (typeof callback === 'function') callback();
      return true;
    };
    try {
      const quiet = await startTestServer();
      listenersBefore = watched.map(
        (event) => process.listenerCount(event) - (event === 'uncaughtException' || event === 'unhandledRejection' ? 1 : 0),
      );
      const bots = [await connectBot(quiet, 'Quiet1'), await connectBot(quiet, 'Quiet2')];
      const heard = nextMessage(bots[1]!, /hello/);
      bots[0]!.chat('hello');
      await heard; // the server has handled (and would have logged) the chat
      const ended = Promise.all(bots.map((bot) => new Promise((resolve) => bot.once('end', resolve))));
      await quiet.close();
      await ended; // the server disconnected them
      // A late write of the closed server would fail while the second server below runs: the
      // console and crash capture stay on until it has closed too.

      const lines: Array<[ServerLogLevel, string]> = [];
      const logged = await startTestServer({ logger: (level, message) => lines.push([level, message]) });
      const bot = await connectBot(logged, 'Logged1');
      const botEnded = new Promise((resolve) => bot.once('end', resolve));
      await logged.close();
      await botEnded;
      expect(lines.some(([level, message]) => level === 'info' && message.includes('Logged1'))).toBe(true);
    } finally {
      console.log = originalLog;
      process.stdout.write = originalWrite;
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
    }
    // readline's prompt/cursor control (flying-squid opens a console prompt at require time) is not a log line.
    const text = printed.map((chunk) => stripVTControlCharacters(chunk).trim()).filter((chunk) => chunk !== '' && chunk !== '>');
    expect(text).toEqual([]);
    expect(crashes.map(String)).toEqual([]);
    expect(watched.map((event) => process.listenerCount(event))).toEqual(listenersBefore);
    expect(listenersBefore.length).toBe(watched.length);
  });
});
