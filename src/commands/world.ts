/**
 * World commands: what is around the agent (its own state, blocks, mobs, signs), and changing the
 * blocks: collecting, placing, sowing, digging, activating; sleeping in a bed.
 */
import type { Bot } from 'mineflayer';
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { activateNearest, describeSign, digAt, digDown, nearbySigns, placeBlockAt, readNearestSign } from '../skills/blocks.ts';
import { collectBlocks } from '../skills/collect.ts';
import { sow } from '../skills/farming.ts';
import { placeNearby } from '../skills/place.ts';
import { goToBed } from '../skills/sleep.ts';

/** Range of the nearby queries (blocks), as in the reference. */
const NEARBY_RANGE = 16;

function vec(p: { x: number; y: number; z: number }): string {
  return `(${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)})`;
}

function nearbyPlayers(bot: Bot): string[] {
  return Object.values(bot.players)
    .filter((p) => p.username !== bot.username && p.entity && p.entity.position.distanceTo(bot.entity.position) <= NEARBY_RANGE)
    .map((p) => p.username);
}

const statsCommand = defineCommand({
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

const nearbyBlocksCommand = defineCommand({
  name: '!nearbyBlocks',
  kind: 'query',
  description: `Block types within ${NEARBY_RANGE} blocks, nearest first; sign texts.`,
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

const entitiesCommand = defineCommand({
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

const readSignCommand = defineCommand({
  name: '!readSign',
  kind: 'query',
  description: 'Text of the nearest sign.',
  params: {},
  async perform({ bot }) {
    return readNearestSign(bot);
  },
});

const collectBlocksCommand = defineCommand({
  name: '!collectBlocks',
  kind: 'action',
  description: 'Dig blocks of a type (ripe crops) and pick up the drops.',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'oak_log' },
    num: { type: 'int', description: 'how many', domain: [1, Infinity], example: 4 },
  },
  async perform({ bot, signal }, { type, num }) {
    return collectBlocks(bot, type, num, signal);
  },
});

const placeHereCommand = defineCommand({
  name: '!placeHere',
  kind: 'action',
  description: 'Place a block next to you.',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'crafting_table' },
  },
  async perform({ bot, signal }, { type }) {
    const block = await placeNearby(bot, type, signal);
    return `Placed ${type} at (${block.position.x}, ${block.position.y}, ${block.position.z}).`;
  },
});

const placeBlockAtCommand = defineCommand({
  name: '!placeBlockAt',
  kind: 'action',
  description: 'Place a block at a position.',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'cobblestone' },
    x: { type: 'int', description: '' },
    y: { type: 'int', description: '', domain: [-64, 320] },
    z: { type: 'int', description: '' },
  },
  async perform({ bot, signal }, { type, x, y, z }) {
    return placeBlockAt(bot, type, x, y, z, signal);
  },
});

const sowCommand = defineCommand({
  name: '!sow',
  kind: 'action',
  description: 'Plant seeds on empty farmland nearby.',
  params: {
    item_name: { type: 'ItemName', description: 'seed', example: 'wheat_seeds' },
    num: { type: 'int', description: 'how many', domain: [1, Infinity], example: 1 },
  },
  async perform({ bot, signal }, { item_name, num }) {
    return sow(bot, item_name, num, signal);
  },
});

const digAtCommand = defineCommand({
  name: '!digAt',
  kind: 'action',
  description: 'Dig the block at a position.',
  params: {
    x: { type: 'int', description: '' },
    y: { type: 'int', description: '', domain: [-64, 320] },
    z: { type: 'int', description: '' },
  },
  async perform({ bot, signal }, { x, y, z }) {
    return digAt(bot, x, y, z, signal);
  },
});

const digDownCommand = defineCommand({
  name: '!digDown',
  kind: 'action',
  description: 'Dig straight down, safely.',
  params: {
    distance: { type: 'int', description: 'blocks', domain: [1, Infinity], example: 4 },
  },
  async perform({ bot, signal }, { distance }) {
    return digDown(bot, distance, signal);
  },
});

const activateCommand = defineCommand({
  name: '!activate',
  kind: 'action',
  description: 'Use the nearest block of a type (lever, door).',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'lever' },
  },
  async perform({ bot, signal }, { type }) {
    return activateNearest(bot, type, signal);
  },
});

const goToBedCommand = defineCommand({
  name: '!goToBed',
  kind: 'action',
  description: 'Sleep in the nearest bed until morning.',
  params: {},
  async perform({ bot, signal }) {
    return goToBed(bot, signal);
  },
});

/**
 * The queries `!stats`, `!nearbyBlocks`, `!entities` and `!readSign` (nearby = within 16 blocks),
 * and the actions `!collectBlocks`, `!placeHere`, `!placeBlockAt`, `!sow`, `!digAt`, `!digDown`,
 * `!activate` and `!goToBed`.
 */
export const worldCommands: CommandDef<CommandContext>[] = [
  statsCommand,
  nearbyBlocksCommand,
  entitiesCommand,
  readSignCommand,
  collectBlocksCommand,
  placeHereCommand,
  placeBlockAtCommand,
  sowCommand,
  digAtCommand,
  digDownCommand,
  activateCommand,
  goToBedCommand,
];
