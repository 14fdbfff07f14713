/**
 * BotSession without a server: fake bots (plain event emitters) stand in for mineflayer's, so the
 * stable handle's contract and the retry rules are checked exactly. The real thing (kicks, a
 * restarted server) is test/app/connections.test.ts.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { expect, test, vi } from 'vitest';
import type { Bot } from 'mineflayer';
import { BotSession, ConnectError, backoffDelay, type ServerAddress } from '../../src/agent/bot.ts';
import { waitUntil } from '../helpers/world.ts';

const require = createRequire(import.meta.url);
/** minecraft-data of the fake bots' version: kick reasons are read with it, as a real bot's are. */
const registry: unknown = (require('prismarine-registry') as (version: string) => unknown)('1.21.4');
const address: ServerAddress = { host: '127.0.0.1', port: 1, version: '1.21.4', auth: 'offline' };
const policy = { attempts: 3, delayMs: 5, maxDelayMs: 20 };

class FakeBot extends EventEmitter {
  static made = 0;
  readonly serial = ++FakeBot.made;
  username = 'Andy';
  health = 20;
  registry = registry;
  quit(reason = 'disconnect.quitting'): void {
    this.emit('end', reason);
  }
}

/** A session over fake bots; `fail` makes the next joins fail. */
async function fakeSession(log: string[] = []) {
  const made: FakeBot[] = [];
  const control = { fail: 0 };
  const connect = async () => {
    if (control.fail > 0) {
      control.fail--;
      throw new ConnectError('Andy could not join 127.0.0.1:1: connection refused.');
    }
    const bot = new FakeBot();
    made.push(bot);
    return bot as unknown as Bot;
  };
  const session = await BotSession.open('Andy', address, { policy, log: (l) => log.push(l), connect });
  return { session, made, control, log };
}

test('backoff doubles from the first delay up to the cap', () => {
  expect([1, 2, 3, 4, 5].map((n) => backoffDelay({ attempts: 5, delayMs: 1_000, maxDelayMs: 5_000 }, n))).toEqual([
    1_000, 2_000, 4_000, 5_000, 5_000,
  ]);
});

test('the handle reads and writes the live bot, and its listeners move to each new bot', async () => {
  const { session, made } = await fakeSession();
  const handle = session.bot as unknown as FakeBot;
  const heard: string[] = [];
  const plugin = () => heard.push('plugin');
  made[0]!.on('chat', plugin); // a plugin's own listener on the raw bot: never moved or removed by the handle
  const on = (text: string) => heard.push(`on ${text}`);
  handle.on('chat', on);
  handle.once('chat', (text: string) => heard.push(`once ${text}`));
  handle.prependListener('chat', (text: string) => heard.push(`first ${text}`));
  const dropped = (text: string) => heard.push(`dropped ${text}`);
  handle.on('chat', dropped);
  handle.off('chat', dropped);
  handle.emit('chat', 'a');
  expect(heard).toEqual(['first a', 'plugin', 'on a', 'once a']);

  made[0]!.emit('end', 'socketClosed');
  expect(session.state).toBe('reconnecting');
  await waitUntil(() => session.online, 'the session rejoins');
  expect(made).toHaveLength(2);
  expect(handle.serial).toBe(made[1]!.serial);
  handle.health = 7;
  expect(made[1]!.health).toBe(7);
  expect('health' in handle && Object.keys(handle).includes('serial')).toBe(true);
  heard.length = 0;
  made[0]!.emit('chat', 'old'); // the old bot keeps only its own (plugin) listener
  expect(heard).toEqual(['plugin']);
  heard.length = 0;
  made[1]!.on('chat', plugin); // the new bot's plugins load when it is created
  made[1]!.emit('chat', 'b');
  expect(heard).toEqual(['first b', 'on b', 'plugin']);
  handle.removeAllListeners('chat');
  heard.length = 0;
  made[1]!.emit('chat', 'c');
  expect(heard).toEqual(['plugin']); // removeAllListeners through the handle removes only the handle's
  expect(made[1]!.listenerCount('end')).toBeGreaterThan(0); // the session's own watch stays
  session.close();
});

test('failed attempts are logged with their waits; after the budget the session is down and says so once', async () => {
  const { session, made, control, log } = await fakeSession();
  const down = new Promise<ConnectError>((resolve) => session.once('down', resolve));
  control.fail = 10;
  made[0]!.emit('kicked', '{"text":"bye"}');
  made[0]!.emit('end', 'socketClosed');
  const error = await down;
  expect(session.state).toBe('down');
  expect(log).toEqual([
    expect.stringMatching(/^Andy was kicked: .*\. Rejoining 127\.0\.0\.1:1 in 5 ms \(attempt 1 of 3\)\.$/),
    'Andy could not rejoin 127.0.0.1:1: connection refused. Trying again in 10 ms (attempt 2 of 3).',
    'Andy could not rejoin 127.0.0.1:1: connection refused. Trying again in 20 ms (attempt 3 of 3).',
    error.message,
  ]);
  expect(error.message).toMatch(
    /could not rejoin 127\.0\.0\.1:1 in 3 attempts \(last: connection refused\.\)\. It stays offline; the other bots carry on\.$/,
  );
});

test('a bot that quits on purpose, or a closed session, is not rejoined', async () => {
  const first = await fakeSession();
  first.made[0]!.quit();
  expect(first.session.state).toBe('closed');
  vi.useFakeTimers();
  try {
    const second = await fakeSession();
    second.made[0]!.emit('end', 'socketClosed');
    second.session.close();
    await vi.advanceTimersByTimeAsync(policy.maxDelayMs * 10); // past every wait: no attempt may follow
    expect(second.made).toHaveLength(1);
    expect(second.session.state).toBe('closed');
  } finally {
    vi.useRealTimers();
  }
});

test('joining at start-up retries, then throws a ConnectError that says how often it tried', async () => {
  const log: string[] = [];
  const connect = async (): Promise<Bot> => {
    throw new ConnectError('Andy could not join 127.0.0.1:1: connection refused.');
  };
  await expect(BotSession.open('Andy', address, { policy, log: (l) => log.push(l), connect })).rejects.toThrow(
    'Andy could not join 127.0.0.1:1: connection refused. Gave up after 4 attempts.',
  );
  expect(log).toEqual(
    [1, 2, 3].map(
      (n) => `Andy could not join 127.0.0.1:1: connection refused. Retrying in ${backoffDelay(policy, n)} ms (retry ${n} of 3).`,
    ),
  );
});

test('the count of attempts starts again once the bot has spawned again: nine kicks in a row, each rejoined, never give it up', async () => {
  const { session, made, control, log } = await fakeSession();
  let downs = 0;
  session.on('down', () => downs++);
  for (let kick = 1; kick <= 9; kick++) {
    control.fail = policy.attempts - 1; // every outage needs all but the last attempt
    made.at(-1)!.emit('kicked', '{"text":"bye"}');
    made.at(-1)!.emit('end', 'socketClosed');
    await waitUntil(() => session.online, `the session rejoins after kick ${kick}`);
  }
  expect(made).toHaveLength(10);
  expect(downs).toBe(0);
  // Each outage counted its own attempts, from 1 (the waits still grow: each rejoin was short-lived).
  expect(log.filter((l) => l.includes('attempt 1 of 3'))).toHaveLength(9);
  expect(log.some((l) => l.includes('stays offline'))).toBe(false);
  session.close();
});

test("a ban is final: no attempt to rejoin, and the log gives the server's reason", async () => {
  const { session, made, log } = await fakeSession();
  const down = new Promise<ConnectError>((resolve) => session.once('down', resolve));
  // Vanilla's /ban disconnects with this key (BanPlayerCommands).
  made[0]!.emit('kicked', JSON.stringify({ translate: 'multiplayer.disconnect.banned' }));
  made[0]!.emit('end', 'socketClosed');
  const error = await down;
  expect(error.failure).toBe('refused');
  expect(session.state).toBe('down');
  expect(made).toHaveLength(1);
  expect(log).toEqual([error.message]);
  expect(error.message).toMatch(
    /^Andy was banned: You are banned from this server\. A ban or the whitelist holds until an operator lifts it/,
  );
});

test('a rejoin refused by the whitelist is final too, with its reason', async () => {
  const log: string[] = [];
  let joins = 0;
  const made: FakeBot[] = [];
  const connect = async (): Promise<Bot> => {
    if (joins++ === 0) {
      const bot = new FakeBot();
      made.push(bot);
      return bot as unknown as Bot;
    }
    throw new ConnectError('Andy could not join 127.0.0.1:1: not white-listed: You are not white-listed on this server!', 'refused');
  };
  const session = await BotSession.open('Andy', address, { policy, log: (l) => log.push(l), connect });
  const down = new Promise<ConnectError>((resolve) => session.once('down', resolve));
  made[0]!.emit('end', 'socketClosed');
  const error = await down;
  expect(joins).toBe(2);
  expect(error.failure).toBe('refused');
  expect(error.message).toContain('refused it when it tried to rejoin: not white-listed: You are not white-listed on this server!');
});
