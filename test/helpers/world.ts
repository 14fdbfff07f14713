/** Shared test fixtures: a real embedded server and real mineflayer bots on it. */
import mineflayer, { type Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';
import { startEmbeddedServer, type EmbeddedServer, type EmbeddedServerOptions } from '../../src/server/embedded.ts';
import { giveItems } from '../../src/server/plugins/inventory.ts';
import { TEST_VERSION } from './version.ts';

/** Starts the embedded server on a free loopback port, on {@link TEST_VERSION} unless `options.version` says otherwise. */
export async function startTestServer(options: Partial<EmbeddedServerOptions> = {}): Promise<EmbeddedServer> {
  return startEmbeddedServer({ port: 0, version: TEST_VERSION, ...options });
}

/** Connects a mineflayer bot and resolves once it has spawned (rejects after `timeoutMs`). */
export async function connectBot(server: EmbeddedServer, username: string, timeoutMs = 20_000): Promise<Bot> {
  const bot = mineflayer.createBot({
    host: server.host,
    port: server.port,
    username,
    version: server.version,
    auth: 'offline',
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${username} did not spawn within ${timeoutMs} ms`)), timeoutMs);
    bot.once('spawn', () => { clearTimeout(timer); resolve(); });
    bot.once('error', (err) => { clearTimeout(timer); reject(err); });
    bot.once('kicked', (reason) => { clearTimeout(timer); reject(new Error(`${username} kicked: ${JSON.stringify(reason)}`)); });
  });
  await bot.waitForChunksToLoad();
  return bot;
}

/** Polls `check` every 50 ms until it returns true; rejects with `what` after `timeoutMs`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
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
  return bot.inventory.count(bot.registry.itemsByName[name].id, null);
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
  await bot.equip(bot.registry.itemsByName[name].id, 'hand');
  await bot.placeBlock(bot.blockAt(ground)!, new Vec3(0, 1, 0));
  const placed = bot.blockAt(ground.offset(0, 1, 0));
  if (placed?.name !== name) throw new Error(`${name} was not placed above ${ground} (found ${placed?.name})`);
  return placed;
}
