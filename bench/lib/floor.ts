/**
 * The floor the benches compare our bots with: a bare mineflayer bot with the plugins ours load
 * (mineflayer-pathfinder, mineflayer-collectblock) and nothing of this project, so none of its
 * library fixes (src/upstream/) either: what a user of the libraries would write.
 */
import mineflayer, { type Bot } from 'mineflayer';
import pathfinderPkg from 'mineflayer-pathfinder';
import { plugin as collectBlock } from 'mineflayer-collectblock';

/**
 * Joins a bare bot and resolves once it has spawned and its chunks are loaded.
 *
 * @throws Error when the bot is kicked, loses its connection or has not spawned within `timeoutMs`.
 */
export async function joinFloorBot(
  username: string,
  address: { host: string; port: number; version: string },
  timeoutMs = 60_000,
): Promise<Bot> {
  const bot = mineflayer.createBot({ ...address, username, auth: 'offline', hideErrors: true, logErrors: false });
  bot.loadPlugin(pathfinderPkg.pathfinder);
  bot.loadPlugin(collectBlock);
  await new Promise<void>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      bot.end();
      reject(new Error(`${username} did not join: ${why}`));
    };
    const timer = setTimeout(() => fail(`no spawn within ${timeoutMs} ms`), timeoutMs);
    bot.once('spawn', () => {
      clearTimeout(timer);
      resolve();
    });
    bot.once('error', (err) => fail(err.message));
    bot.once('kicked', (reason) => fail(`kicked: ${JSON.stringify(reason)}`));
    bot.once('end', (reason) => fail(`disconnected (${reason})`));
  });
  await bot.waitForChunksToLoad();
  return bot;
}
