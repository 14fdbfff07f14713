/**
 * World commands: what is around the agent (its own state, blocks, mobs, signs), and changing the
 * blocks: collecting, placing, sowing, digging, activating; sleeping in a bed.
 */
import type { Bot } from 'mineflayer';
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { skillCommand } from './skill-commands.ts';
import { describeSign, nearbySigns, readNearestSign } from '../skills/blocks.ts';
import {
  activateSkill,
  collectBlocksSkill,
  digAtSkill,
  digDownSkill,
  goToBedSkill,
  goToSurfaceSkill,
  placeBlockAtSkill,
  placeHereSkill,
  sowSkill,
  useOnSkill,
} from '../skills/index.ts';
import { done } from '../skills/outcome.ts';

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
    return done(
      [
        `Position: ${vec(bot.entity.position)}`,
        `Gamemode: ${bot.game.gameMode}`,
        `Health: ${Math.round(bot.health)}/20, hunger: ${Math.round(bot.food)}/20`,
        `Dimension: ${bot.game.dimension}, time of day: ${bot.time.timeOfDay} ticks${bot.isRaining ? ', raining' : ''}`,
        `Blocks: below ${at(-1)}, legs ${at(0)}, head ${at(1)}`,
        `Current action: ${agent.currentAction() ?? 'idle'}`,
        `Nearby players: ${nearbyPlayers(bot).join(', ') || 'none'}`,
        `Other bots: ${agent.knownBots().join(', ') || 'none'}`,
      ].join('\n'),
    );
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
    return done([`Nearby blocks: ${[...names].join(', ') || 'none'}`, ...signs].join('\n'));
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
    return done(lines.length ? lines.join('\n') : 'No players or mobs nearby.');
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

/**
 * The queries `!stats`, `!nearbyBlocks`, `!entities` and `!readSign` (nearby = within 16 blocks),
 * and the actions `!collectBlocks`, `!placeHere`, `!placeBlockAt`, `!sow`, `!digAt`, `!digDown`,
 * `!activate` and `!goToBed`: skills' commands (see `src/skills/index.ts`).
 */
export const worldCommands: CommandDef<CommandContext>[] = [
  statsCommand,
  nearbyBlocksCommand,
  entitiesCommand,
  readSignCommand,
  skillCommand(collectBlocksSkill, { kind: 'action' }),
  skillCommand(placeHereSkill, { kind: 'action' }),
  skillCommand(placeBlockAtSkill, { kind: 'action' }),
  skillCommand(sowSkill, { kind: 'action' }),
  skillCommand(digAtSkill, { kind: 'action' }),
  skillCommand(digDownSkill, { kind: 'action' }),
  skillCommand(activateSkill, { kind: 'action' }),
  skillCommand(useOnSkill, { kind: 'action' }),
  skillCommand(goToSurfaceSkill, { kind: 'action' }),
  skillCommand(goToBedSkill, { kind: 'action' }),
];
