/** Gathering blocks with mineflayer-collectblock (path, best tool, dig, pick up the drops). */
import type { Bot } from 'mineflayer';
import { abortable } from '../util/abort.ts';
import { formatCounts, type Counts } from './crafting-plan.ts';
import { inventoryCounts } from './items.ts';

/** How far the bot looks for blocks to collect (blocks). */
export const COLLECT_RANGE = 64;

/**
 * Digs up to `count` blocks of `blockName` near the bot and collects their drops.
 *
 * @returns what ended up in the inventory, or why nothing could be collected.
 */
export async function collectBlocks(bot: Bot, blockName: string, count: number, signal: AbortSignal): Promise<string> {
  const type = bot.registry.blocksByName[blockName];
  if (!type) throw new Error(`${blockName} is not a block.`);
  const positions = bot.findBlocks({ matching: type.id, maxDistance: COLLECT_RANGE, count });
  if (positions.length === 0) return `No ${blockName} within ${COLLECT_RANGE} blocks.`;
  const harvest = type.harvestTools;
  if (harvest && !bot.inventory.items().some((i) => harvest[i.type])) {
    const tools = Object.keys(harvest).map((id) => bot.registry.items[Number(id)].name);
    return `You need one of these tools to harvest ${blockName}: ${tools.join(', ')}.`;
  }
  const before = inventoryCounts(bot);
  const blocks = positions.map((p) => bot.blockAt(p)).filter((b) => b !== null);
  await abortable(bot.collectBlock.collect(blocks, { ignoreNoPath: true }), signal, () => { void bot.collectBlock.cancelTask(); });
  const gained: Counts = {};
  for (const [name, n] of Object.entries(inventoryCounts(bot))) if (n > (before[name] ?? 0)) gained[name] = n - (before[name] ?? 0);
  return Object.keys(gained).length ? `Collected ${formatCounts(gained)}.` : `Dug ${blockName} but collected nothing.`;
}
