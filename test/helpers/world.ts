/** Shared test fixtures: a real embedded server and real mineflayer bots on it. */
import mineflayer, { type Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';
import { startEmbeddedServer, type EmbeddedServer, type EmbeddedServerOptions } from '../../src/server/embedded.ts';
import { giveItems } from '../../src/server/services/inventory.ts';
import { TEST_VERSION } from './version.ts';
import { waitUntil } from './wait.ts';
import { itemByName } from '../../src/game/data.ts';
import { digOnTheGround, findBlocksInRange, furnaceProperties, versionFixes } from '../../src/upstream/index.ts';
import { settingsSchema, type Settings } from '../../src/settings/index.ts';

export { waitUntil, type WaitOptions } from './wait.ts';

/**
 * Settings for bots joining `server` as an external server, their goal loops quiet for 10 min
 * (a test drives them), with `overrides` on top.
 */
export function settingsFor(server: EmbeddedServer, overrides: Record<string, unknown> = {}): Settings {
  return settingsSchema.parse({
    server: 'external',
    host: server.host,
    port: server.port,
    minecraft_version: server.version,
    goal_idle_ms: 600_000,
    ...overrides,
  });
}

/** Starts the embedded server on a free loopback port, on {@link TEST_VERSION} unless `options.version` says otherwise. */
export async function startTestServer(options: Partial<EmbeddedServerOptions> = {}): Promise<EmbeddedServer> {
  return startEmbeddedServer({ port: 0, version: TEST_VERSION, ...options });
}

/**
 * Connects a mineflayer bot with the client fixes the agents' bots load too (src/upstream/:
 * `versionFixes`, `furnaceProperties`, `digOnTheGround`, `findBlocksInRange`) and resolves once it has spawned (rejects after `timeoutMs`).
 */
export async function connectBot(server: EmbeddedServer, username: string, timeoutMs = 20_000): Promise<Bot> {
  const bot = mineflayer.createBot({
    host: server.host,
    port: server.port,
    username,
    version: server.version,
    auth: 'offline',
  });
  bot.loadPlugin(versionFixes);
  bot.loadPlugin(furnaceProperties);
  bot.loadPlugin(digOnTheGround);
  bot.loadPlugin(findBlocksInRange);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${username} did not spawn within ${timeoutMs} ms`)), timeoutMs);
    bot.once('spawn', () => {
      clearTimeout(timer);
      resolve();
    });
    bot.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    bot.once('kicked', (reason) => {
      clearTimeout(timer);
      reject(new Error(`${username} kicked: ${JSON.stringify(reason)}`));
    });
  });
  await bot.waitForChunksToLoad();
  return bot;
}

/**
 * Resolves after the server has run `count` more ticks (its game clock: 20 a second when it keeps
 * up). The sign that tick-driven rules (pickup, hunger, mob AI, cooldowns) have had their turn.
 */
export function serverTicks(server: EmbeddedServer, count = 1, timeoutMs = 10_000 + count * 100): Promise<void> {
  return new Promise((resolve, reject) => {
    let left = count;
    const onTick = (): void => {
      if (--left > 0) return;
      clearTimeout(timer);
      server.serv.off('tick', onTick);
      resolve();
    };
    const timer = setTimeout(() => {
      server.serv.off('tick', onTick);
      reject(new Error(`the server ran ${count - left} of ${count} ticks in ${timeoutMs} ms`));
    }, timeoutMs);
    server.serv.on('tick', onTick);
  });
}

/**
 * Counts the server's ticks from now on (`ticks`) until `stop()`: game time, for bounds that a
 * loaded machine, whose ticks run late, does not break.
 */
export function countTicks(server: EmbeddedServer): { readonly ticks: number; stop(): void } {
  let ticks = 0;
  const onTick = (): void => {
    ticks++;
  };
  server.serv.on('tick', onTick);
  return {
    get ticks() {
      return ticks;
    },
    stop: () => {
      server.serv.off('tick', onTick);
    },
  };
}

let roundTrips = 0;

/**
 * A round trip through the server. First the bot's next physics tick sends what it has not sent
 * yet (mineflayer sends looks and moves there, not when `look()` resolves); then the bot runs
 * flying-squid's `/ping <d>` and waits for its `pong [d+1]!` (a system line: no chat or whisper
 * event). The server handles one client's packets in order and sends its answers in order, so once
 * the pong is back, everything the bot did before has been handled and everything the server sent
 * the bot before has arrived. (Dig packets are queued apart: see the dig tests.)
 */
export async function roundTrip(bot: Bot, timeoutMs = 5_000): Promise<void> {
  await bot.waitForTicks(1);
  // flying-squid's /ping reads one digit; cycling them tells a late pong from the one awaited.
  const digit = ++roundTrips % 9;
  const pong = `pong [${digit + 1}]!`;
  await new Promise<void>((resolve, reject) => {
    const onMessage = (text: string): void => {
      if (text !== pong) return;
      clearTimeout(timer);
      bot.off('messagestr', onMessage);
      resolve();
    };
    const timer = setTimeout(() => {
      bot.off('messagestr', onMessage);
      reject(new Error(`${bot.username} got no "${pong}" within ${timeoutMs} ms`));
    }, timeoutMs);
    bot.on('messagestr', onMessage);
    bot.chat(`/ping ${digit}`);
  });
}

/**
 * Resolves once the server has had the chance to pick `item` up: its pickup delay is over and
 * server ticks ran after that (flying-squid checks pickups at the start of each entity tick, by
 * wall clock, and skips a tick while the previous one's physics is still running: 3 to be sure).
 *
 * @param item a flying-squid item entity (`bornTime`, `pickupTime` in ms).
 */
export async function pickupDelayOver(server: EmbeddedServer, item: { bornTime: number; pickupTime?: number }): Promise<void> {
  const readyAt = item.bornTime + (item.pickupTime ?? 0);
  await waitUntil(() => Date.now() >= readyAt, 'the pickup delay to end', readyAt - Date.now() + 10_000);
  await serverTicks(server, 3);
}

/** The server-side player object for a username. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function serverPlayer(server: EmbeddedServer, username: string): any {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const player = server.serv.players.find((p: any) => p.username === username);
  if (!player) throw new Error(`no player ${username} on the server`);
  return player;
}

/** How many of item `name` the bot sees in its inventory. */
export function botCount(bot: Bot, name: string): number {
  return bot.inventory.count(itemByName(bot.registry, name).id, null);
}

/** Gives `count` × `name` to the bot server-side and waits until the bot sees them. */
export async function give(server: EmbeddedServer, bot: Bot, name: string, count: number): Promise<void> {
  const before = botCount(bot, name);
  giveItems(serverPlayer(server, bot.username), name, count);
  await waitUntil(() => botCount(bot, name) === before + count, `${bot.username} receives ${count} ${name}`);
}

/** Teleports the bot with /tp (it must be op) and waits until it stands there with chunks loaded. */
export async function teleport(bot: Bot, x: number, y: number, z: number): Promise<void> {
  bot.chat(`/tp ${x} ${y} ${z}`);
  await waitUntil(() => bot.entity.position.distanceTo(new Vec3(x, y, z)) < 0.6, `${bot.username} teleported`);
  await bot.waitForChunksToLoad();
}

/** Gives the bot one `name` block and places it with bot.placeBlock on top of the block at `ground`. */
export async function place(server: EmbeddedServer, bot: Bot, name: string, ground: Vec3): Promise<Block> {
  await give(server, bot, name, 1);
  await bot.equip(itemByName(bot.registry, name).id, 'hand');
  await bot.placeBlock(bot.blockAt(ground)!, new Vec3(0, 1, 0));
  const placed = bot.blockAt(ground.offset(0, 1, 0));
  if (placed?.name !== name) throw new Error(`${name} was not placed above ${ground} (found ${placed?.name})`);
  return placed;
}
