/** Mineflayer plugins that only some skills need, loaded lazily and at most once per bot. */
import type { Bot } from 'mineflayer';
import { plugin as pvp } from 'mineflayer-pvp';
import { plugin as tool } from 'mineflayer-tool';

/**
 * Loads mineflayer-pvp (`bot.pvp`) and mineflayer-tool (`bot.tool`) if the bot lacks them.
 * Idempotent: safe to call before every skill that needs them. Requires mineflayer-pathfinder,
 * which `connectBot` loads.
 */
export function loadPlugins(bot: Bot): void {
  // collectblock loads its own reference to mineflayer-tool: check the property as well.
  if (!bot.hasPlugin(tool) && !(bot as Partial<Bot>).tool) bot.loadPlugin(tool);
  if (!bot.hasPlugin(pvp) && !(bot as Partial<Bot>).pvp) bot.loadPlugin(pvp);
}
