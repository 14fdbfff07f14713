/** Creating a mineflayer bot with the plugins our skills use. */
import mineflayer, { type Bot } from 'mineflayer';
import pathfinderPkg from 'mineflayer-pathfinder';
import { plugin as collectBlock } from 'mineflayer-collectblock';

const { pathfinder, Movements } = pathfinderPkg;

export interface ServerAddress {
  host: string;
  port: number;
  /** Minecraft version to speak, e.g. `1.21.4`. */
  version: string;
  auth: 'offline' | 'microsoft';
}

/** The bot could not join the server; the message says why and what to check. */
export class ConnectError extends Error {
  override name = 'ConnectError';
}

/**
 * Connects `username` to the server and resolves once the bot has spawned and its chunks loaded.
 * Loads mineflayer-pathfinder (with default movements) and mineflayer-collectblock.
 *
 * @param timeoutMs give up after this many ms (default 30 000).
 * @throws ConnectError for a refused or timed-out connection, a kick, or a version mismatch.
 */
export async function connectBot(username: string, address: ServerAddress, timeoutMs = 30_000): Promise<Bot> {
  const where = `${address.host}:${address.port}`;
  const bot = mineflayer.createBot({
    username,
    host: address.host,
    port: address.port,
    version: address.version,
    auth: address.auth,
    hideErrors: true,
    logErrors: false,
  });
  bot.loadPlugin(pathfinder);
  bot.loadPlugin(collectBlock);
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => { clearTimeout(timer); reject(new ConnectError(`${username} could not join ${where}: ${why}`)); };
      const timer = setTimeout(() => fail(`no spawn within ${Math.round(timeoutMs / 1000)} s. Is a Minecraft ${address.version} server running there?`), timeoutMs);
      bot.once('spawn', () => { clearTimeout(timer); resolve(); });
      bot.once('error', (err: NodeJS.ErrnoException) => fail(err.code === 'ECONNREFUSED'
        ? `connection refused. Start the server, or set "host"/"port" in settings.json (or use "server": "embedded").`
        : err.message));
      bot.once('kicked', (reason) => fail(`kicked: ${typeof reason === 'string' ? reason : JSON.stringify(reason)}`));
      bot.once('end', (reason) => fail(`disconnected (${reason})`));
    });
    await bot.waitForChunksToLoad();
  } catch (err) {
    bot.end();
    throw err;
  }
  const movements = new Movements(bot);
  movements.allowSprinting = true;
  movements.allowParkour = true;
  bot.pathfinder.setMovements(movements);
  return bot;
}

/** Stops everything the bot is doing with its body: pathfinding, digging, held keys. */
export function releaseControls(bot: Bot): void {
  try {
    bot.pathfinder?.stop();
    bot.pathfinder?.setGoal(null);
    bot.stopDigging();
    bot.clearControlStates();
  } catch {
    // the bot may already be disconnected
  }
}
