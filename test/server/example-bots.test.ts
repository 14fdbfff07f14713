/**
 * mineflayer's own example bots (node_modules/mineflayer/examples: block finder, bee, digger,
 * inventory) against the embedded server, driven the way mineflayer's example tests drive them
 * (its test/externalTests/plugins/testCommon.js `runExample`): the example runs as its own
 * process; a watching bot reads its name from the join message's `insertion`, moves it, says
 * "loaded", waits for "Ready!", then gives it commands in chat and checks its answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { ChatMessage } from 'prismarine-chat';
import { connectBot, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { blockById } from '../../src/game/data.ts';

const examples = path.join(path.dirname(createRequire(import.meta.url).resolve('mineflayer/package.json')), 'examples');

let server: EmbeddedServer;
let watcher: Bot;
let child: ChildProcess | undefined;
/** The example's last output (it runs with `verbose: true`), for a failure's message; at most 4 KB. */
let childOutput = '';

beforeAll(async () => {
  server = await startTestServer();
  watcher = await connectBot(server, 'Watcher');
});
afterEach(async () => {
  if (child && child.exitCode === null) {
    const closed = new Promise((resolve) => child!.once('close', resolve));
    child.kill('SIGTERM');
    await closed;
  }
  child = undefined;
  await waitUntil(() => server.serv.players.length === 1, 'the example bot left');
  // What an example dropped or broke is not for the next one to pick up: each works at a spot of its own.
  await server.serv.handleCommand('kill @e[type=item]');
});
afterAll(async () => {
  watcher?.quit();
  await server?.close();
});

/**
 * How long an example may take to answer one command, ms. Alone each answers within a second or
 * two; beside the full suite on two busy cores the digger once took over 10 s to answer (1.21.1).
 */
const ANSWER_MS = 30_000;
/** A whole example's test: its start and a few answers, each within {@link ANSWER_MS}. */
const EXAMPLE_TEST_MS = 150_000;

/**
 * The next chat line of `from` that `accept` takes, within `withinMs` (mineflayer's `chat` event, as
 * the example tests listen). Rejects naming the bound, with the example's last output.
 */
function nextChat(from: string, accept: (message: string) => boolean = () => true, withinMs = ANSWER_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      watcher.off('chat', onChat);
      reject(new Error(`${from} said nothing expected within ${withinMs / 1000} s; its last output:\n${childOutput}`));
    }, withinMs);
    const onChat = (username: string, message: string): void => {
      if (username !== from || !accept(message)) return;
      clearTimeout(timer);
      watcher.off('chat', onChat);
      resolve(message);
    };
    watcher.on('chat', onChat);
  });
}

/** Says `what` and resolves with `from`'s next chat line (within `withinMs`, see {@link nextChat}). */
async function tell(from: string, what: string, accept?: (message: string) => boolean, withinMs?: number): Promise<string> {
  const answer = nextChat(from, accept, withinMs);
  watcher.chat(what);
  return answer;
}

/** The x the next example is moved to: 50 as mineflayer's tests have it, then 20 blocks on for each. */
let spotX = 30;

/**
 * Starts the example `file` and returns the name the join message gives it (its `insertion`),
 * once it stands at its spot ({@link spotX}, z 0) and has answered "loaded" with "Ready!".
 */
async function runExample(file: string): Promise<string> {
  spotX += 20;
  const joined = new Promise<string>((resolve) => {
    const onMessage = (message: ChatMessage): void => {
      const json = message.json as { translate?: string; with?: Array<{ insertion?: string }> };
      if (json.translate !== 'multiplayer.player.joined') return;
      watcher.off('message', onMessage);
      resolve(String(json.with?.[0]?.insertion));
    };
    watcher.on('message', onMessage);
  });
  const port = String(server.port);
  child = spawn(process.execPath, [path.join(examples, file), '127.0.0.1', port], { stdio: ['ignore', 'pipe', 'pipe'] });
  childOutput = '';
  const keep = (chunk: Buffer): void => {
    childOutput = (childOutput + chunk.toString()).slice(-4096);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const name = await joined;
  watcher.chat(`/tp ${name} ${spotX} ${watcher.entity.position.y} 0`);
  await waitUntil(() => Math.abs((watcher.players[name]?.entity?.position.x ?? 0) - spotX) < 1, `${name} stands at x ${spotX}`);
  expect(await tell(name, 'loaded')).toBe('Ready!');
  return name;
}

test(
  'block finder: finds the dirt under it',
  async () => {
    const name = await runExample('blockfinder.js');
    expect(name).toBe('finder');
    const found = await tell(name, 'find dirt');
    const [, count, block] = /^I found (\d+) (\S+) blocks in [\d.]+ ms$/.exec(found) ?? [];
    expect(block).toBe('dirt');
    expect(Number(count)).toBeGreaterThan(0);
  },
  EXAMPLE_TEST_MS,
);

test(
  'bee: flies in creative and lands',
  async () => {
    const name = await runExample('bee.js');
    expect(name).toBe('bee');
    watcher.chat(`/gamemode creative ${name}`);
    // Eleven legs of 50 ms steps, each waiting for the bot's next position packet: about 3 s alone,
    // more on two cores under the whole suite (one CI run passed 10 s), so the bound is 30 s.
    expect(await tell(name, 'fly')).toBe('My flight was amazing !');
  },
  EXAMPLE_TEST_MS,
);

test(
  'digger: digs the block below, equips dirt and builds up',
  async () => {
    const name = await runExample('digger.js');
    expect(name).toBe('digger');
    watcher.chat(`/give ${name} dirt 64`);
    await waitUntil(
      () => server.serv.players.some((p) => p.username === name && p.inventory.slots.some((s) => s?.count === 64)),
      'the digger has dirt',
    );
    expect(await tell(name, 'dig', (m) => !m.startsWith('starting'))).toMatch(/^finished digging /);
    expect(await tell(name, 'equip dirt')).toBe('equipped dirt');
    expect(await tell(name, 'build')).toBe('Placing a block was successful');
  },
  EXAMPLE_TEST_MS,
);

test(
  'inventory: lists, equips, tosses and crafts',
  async () => {
    const name = await runExample('inventory.js');
    expect(name).toBe('inventory');
    for (const [item, count] of [
      ['dirt', 64],
      ['stick', 7],
      ['iron_ore', 64],
      ['diamond_boots', 1],
    ] as const)
      watcher.chat(`/give ${name} ${item} ${count}`);
    const y = Math.floor(watcher.entity.position.y);
    const table = new Vec3(spotX + 2, y, 0);
    watcher.chat(`/setblock ${table.x} ${y} 0 crafting_table`);
    await waitUntil(
      async () => blockById(server.serv.registry, (await server.serv.overworld.getBlock(table)).type).name === 'crafting_table',
      'the crafting table is there',
    );
    await waitUntil(
      () => server.serv.players.find((p) => p.username === name)?.inventory.slots.filter((s) => s).length === 4,
      'the items arrived',
      {
        timeoutMs: 10_000,
        state: () =>
          server.serv.players
            .find((p) => p.username === name)
            ?.inventory.slots.filter((s) => s)
            .map((s) => `${s!.type}x${s!.count}`),
      },
    );
    expect(await tell(name, 'list')).toBe('dirt x 64, stick x 7, iron_ore x 64, diamond_boots x 1');
    expect(await tell(name, 'equip hand dirt')).toBe('equipped dirt');
    expect(await tell(name, 'toss 64 dirt')).toBe('tossed 64 x dirt');
    const crafted = nextChat(name, (m) => m.startsWith('did the recipe'));
    expect(await tell(name, 'craft 1 ladder')).toBe('I can make ladder');
    expect(await crafted).toBe('did the recipe for ladder 1 times');
    expect(await tell(name, 'equip feet diamond_boots')).toBe('equipped diamond_boots');
    expect(await tell(name, 'toss iron_ore')).toBe('tossed iron_ore');
    expect(await tell(name, 'unequip feet')).toBe('unequipped');
    watcher.chat(`/setblock ${table.x} ${y} 0 air`);
  },
  EXAMPLE_TEST_MS,
);
