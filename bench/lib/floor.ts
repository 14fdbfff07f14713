/**
 * The floor the benches compare our bots with: a bare mineflayer bot with the plugins ours load
 * (mineflayer-pathfinder, mineflayer-collectblock) and nothing of this project, so none of its
 * library fixes (src/upstream/) either: what a user of the libraries would write.
 */
import mineflayer, { type Bot } from 'mineflayer';
import pathfinderPkg from 'mineflayer-pathfinder';
import { plugin as collectBlock } from 'mineflayer-collectblock';

/** Joins a bare bot and resolves once it has spawned and its chunks are loaded. */
export async function joinFloorBot(username: string, address: { host: string; port: number; version: string }): Promise<Bot> {
  const bot = mineflayer.createBot({ ...address, username, auth: 'offline', hideErrors: true, logErrors: false });
  bot.loadPlugin(pathfinderPkg.pathfinder);
  bot.loadPlugin(collectBlock);
  await new Promise<void>((resolve, reject) => {
    bot.once('spawn', () => resolve());
    bot.once('error', reject);
    bot.once('kicked', (reason) => reject(new Error(`${username} kicked: ${JSON.stringify(reason)}`)));
  });
  await bot.waitForChunksToLoad();
  return bot;
}
