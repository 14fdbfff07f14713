/** Query commands: they read the world and the inventory and change nothing. */
import type { Bot } from 'mineflayer';
import { defineCommand } from '../context.ts';
import { formatCounts, formatPlan, planCrafting } from '../../skills/crafting-plan.ts';
import { inventoryCounts } from '../../skills/items.ts';
import { nearestCraftingTable } from '../../skills/crafting.ts';
import { describeSign, nearbySigns } from '../../skills/blocks.ts';

/** Range of the nearby queries (blocks), as in the reference. */
export const NEARBY_RANGE = 16;

function vec(p: { x: number; y: number; z: number }): string {
  return `(${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)})`;
}

function nearbyPlayers(bot: Bot): string[] {
  return Object.values(bot.players)
    .filter((p) => p.username !== bot.username && p.entity && p.entity.position.distanceTo(bot.entity.position) <= NEARBY_RANGE)
    .map((p) => p.username);
}

export const stats = defineCommand({
  name: '!stats',
  kind: 'query',
  description: 'Position, health, hunger, time, action, who is near.',
  params: {},
  async perform({ bot, agent }) {
    const at = (dy: number) => bot.blockAt(bot.entity.position.offset(0, dy, 0))?.name ?? 'unknown';
    return [
      `Position: ${vec(bot.entity.position)}`,
      `Gamemode: ${bot.game.gameMode}`,
      `Health: ${Math.round(bot.health)}/20, hunger: ${Math.round(bot.food)}/20`,
      `Dimension: ${bot.game.dimension}, time of day: ${bot.time.timeOfDay} ticks${bot.isRaining ? ', raining' : ''}`,
      `Blocks: below ${at(-1)}, legs ${at(0)}, head ${at(1)}`,
      `Current action: ${agent.currentAction() ?? 'idle'}`,
      `Nearby players: ${nearbyPlayers(bot).join(', ') || 'none'}`,
      `Other bots: ${agent.knownBots().join(', ') || 'none'}`,
    ].join('\n');
  },
});

export const inventory = defineCommand({
  name: '!inventory',
  kind: 'query',
  description: 'What you carry and wear.',
  params: {},
  async perform({ bot }) {
    const items = formatCounts(Object.fromEntries(bot.inventory.items().reduce((m, i) => m.set(i.name, (m.get(i.name) ?? 0) + i.count), new Map<string, number>())));
    const worn = [5, 6, 7, 8].map((s) => bot.inventory.slots[s]?.name).filter(Boolean);
    return `Inventory: ${items || 'empty'}\nWearing: ${worn.join(', ') || 'nothing'}`;
  },
});

export const nearbyBlocks = defineCommand({
  name: '!nearbyBlocks',
  kind: 'query',
  description: `Distinct block types within ${NEARBY_RANGE} blocks, nearest first, and sign texts.`,
  params: {},
  async perform({ bot }) {
    const air = new Set(['air', 'cave_air', 'void_air']);
    const positions = bot.findBlocks({ matching: (b) => !air.has(b.name), maxDistance: NEARBY_RANGE, count: 4096 });
    const names = new Set<string>();
    for (const p of positions) {
      const name = bot.blockAt(p)?.name;
      if (name) names.add(name);
    }
    const signs = nearbySigns(bot, NEARBY_RANGE, 3).map(describeSign);
    return [`Nearby blocks: ${[...names].join(', ') || 'none'}`, ...signs].join('\n');
  },
});

export const craftable = defineCommand({
  name: '!craftable',
  kind: 'query',
  description: 'Items you can craft now.',
  params: {},
  async perform({ bot }) {
    const table = nearestCraftingTable(bot) ?? (inventoryCounts(bot).crafting_table ? true : null);
    const names: string[] = [];
    for (const item of bot.registry.itemsArray) {
      if (bot.recipesFor(item.id, null, 1, table).length > 0) names.push(item.name);
    }
    return `Craftable: ${names.join(', ') || 'nothing'}`;
  },
});

export const entities = defineCommand({
  name: '!entities',
  kind: 'query',
  description: `Players and mobs within ${NEARBY_RANGE} blocks.`,
  params: {},
  async perform({ bot, agent }) {
    const bots = new Set(agent.knownBots());
    const lines: string[] = [];
    const mobs = new Map<string, number>();
    for (const e of Object.values(bot.entities)) {
      if (e === bot.entity || e.position.distanceTo(bot.entity.position) > NEARBY_RANGE) continue;
      if (e.type === 'player' && e.username) lines.push(`${bots.has(e.username) ? 'Bot' : 'Player'}: ${e.username}`);
      else if (e.name && e.name !== 'item') mobs.set(e.name, (mobs.get(e.name) ?? 0) + 1);
    }
    for (const [name, n] of mobs) lines.push(`Mob: ${name}${n > 1 ? ` x${n}` : ''}`);
    return lines.length ? lines.join('\n') : 'No players or mobs nearby.';
  },
});

export const help = defineCommand({
  name: '!help',
  kind: 'query',
  description: 'All commands with their parameters.',
  params: {},
  async perform({ agent }) {
    return agent.help();
  },
});

export const getCraftingPlan = defineCommand({
  name: '!getCraftingPlan',
  kind: 'query',
  description: 'Missing items and craft steps for an item.',
  params: {
    targetItem: { type: 'ItemName', description: 'item to craft', example: 'wooden_pickaxe' },
    quantity: { type: 'int', description: 'how many', domain: [1, 1000] },
  },
  async perform({ bot }, { targetItem, quantity }) {
    return formatPlan(planCrafting(bot.registry, inventoryCounts(bot), targetItem, quantity));
  },
});

export const queryCommands = [stats, inventory, nearbyBlocks, craftable, entities, help, getCraftingPlan];
