/**
 * Chat as a vanilla 1.21 server sends it, seen by real mineflayer clients: translatable join and
 * leave lines, public chat, vanilla's unknown-command error, death messages, and no legacy `&`
 * colour codes in anything a client receives.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, roundTrip, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { vanillaText } from '../helpers/version.ts';

/** A chat message as mineflayer parses it (prismarine-chat ChatMessage). */
interface Message {
  translate?: string;
  json: unknown;
  toString(): string;
  with?: Array<{ toString(): string }>;
}

let server: EmbeddedServer;
let alice: Bot;
const raw: string[] = [];
const messages: Message[] = [];

beforeAll(async () => {
  server = await startTestServer();
  alice = await connectBot(server, 'Alice');
  alice.on('message', (message) => {
    messages.push(message);
  });
  alice._client.on('system_chat', (packet: unknown) => {
    raw.push(JSON.stringify(packet));
  });
});
afterAll(async () => {
  alice?.quit();
  await server?.close();
});

/** Resolves with the first message after now that matches. */
function nextMessage(match: (m: Message) => boolean, what: string): Promise<Message> {
  const from = messages.length;
  return waitUntil(() => messages.slice(from).some(match), what).then(() => messages.slice(from).find(match)!);
}

describe('vanilla chat', () => {
  test('a join and a leave are multiplayer.player.joined / left, in yellow', async () => {
    const joined = nextMessage((m) => m.translate === 'multiplayer.player.joined', 'Bob joined');
    const bob = await connectBot(server, 'Bob');
    const join = await joined;
    expect(join.toString()).toBe('Bob joined the game');
    expect(JSON.stringify(join.json)).toContain('yellow');
    const left = nextMessage((m) => m.translate === 'multiplayer.player.left', 'Bob left');
    bob.quit();
    expect((await left).toString()).toBe('Bob left the game');
  });

  test('public chat reaches others as <name> message, literally', async () => {
    const bob = await connectBot(server, 'Carol');
    const said = new Promise<[string, string]>((resolve) =>
      alice.on('chat', (username, message) => {
        if (username === 'Carol') resolve([username, message]);
      }),
    );
    bob.chat('hello &cworld');
    expect(await said).toEqual(['Carol', 'hello &cworld']);
    bob.quit();
  });

  test('an unknown command gets command.unknown.command and the context line, in red', async () => {
    const error = nextMessage((m) => m.translate === 'command.unknown.command', 'the unknown command error');
    const context = nextMessage((m) => m.toString().includes('<--[HERE]'), 'the context line');
    alice.chat('/nosuchcommand foo');
    expect((await error).toString()).toBe(vanillaText('command.unknown.command'));
    expect((await context).toString()).toBe('nosuchcommand foo<--[HERE]');
  });

  test('an out-of-scope command is answered like an unknown one', async () => {
    const error = nextMessage((m) => m.translate === 'command.unknown.command', 'the unknown command error');
    alice.chat('/enchant Alice sharpness');
    await error;
  });

  test('a death is announced with a vanilla death message', async () => {
    const died = nextMessage((m) => m.translate?.startsWith('death.') === true, 'a death message');
    serverPlayer(server, 'Alice').takeDamage({ damage: 40 });
    const message = await died;
    expect(message.translate).toBe('death.attack.generic');
    expect(message.toString()).toBe('Alice died');
    await waitUntil(() => alice.health === 20, 'Alice respawned');
  });

  test('no legacy colour codes reach the client', async () => {
    raw.length = 0; // (the chat test above sent a literal '&c' on purpose)
    alice.chat('/help');
    alice.chat('/weather');
    alice.chat('/time query');
    alice.chat('/ping');
    await roundTrip(alice);
    expect(raw.length).toBeGreaterThan(5);
    for (const packet of raw) expect(packet).not.toMatch(/&[0-9a-fk-or]/);
  });
});

describe('out of scope', () => {
  test('command blocks are not enabled; the nether is not a dimension', async () => {
    const feet = alice.entity.position.floored().offset(2, 0, 0);
    alice.chat(`/setblock ${feet.x} ${feet.y} ${feet.z} command_block`);
    await waitUntil(() => alice.blockAt(feet)?.name === 'command_block', 'a command block');
    const notEnabled = nextMessage((m) => m.translate === 'advMode.notEnabled', 'advMode.notEnabled');
    await alice.activateBlock(alice.blockAt(feet)!);
    expect((await notEnabled).toString()).toBe(vanillaText('advMode.notEnabled'));
    const invalid = nextMessage((m) => m.translate === 'argument.dimension.invalid', 'argument.dimension.invalid');
    alice.chat('/execute in minecraft:the_nether run say hi');
    await invalid;
  });
});
