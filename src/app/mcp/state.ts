/**
 * A bot's state as plain JSON data, the way an MCP client reads it (`./resources.ts`): its own
 * state (position, health, food, inventory, equipment, current action, goal, partner, modes, task),
 * its surroundings (the block types and the players, mobs and dropped items within
 * {@link NEARBY_RANGE} blocks) and its memory (the summarised memory, the goal, saved places).
 * Each reader never throws: a bot that is not in the world (offline, respawning) reads as such.
 */
import type { Bot } from 'mineflayer';
import type { Agent, AgentStatus } from '../../agent/agent.ts';
import type { Place } from '../../game/places.ts';

/** How far the surroundings reach (blocks), as `!nearbyBlocks` and `!entities` look. */
export const NEARBY_RANGE = 16;

/** Block positions read for the surroundings at most (nearest first), as `!nearbyBlocks` reads them. */
const MAX_BLOCKS = 4_096;

const AIR = new Set(['air', 'cave_air', 'void_air']);

/** What a bot holds and wears, by slot: item name and count, or null for an empty slot. */
export type Equipment = Record<'hand' | 'off-hand' | 'head' | 'torso' | 'legs' | 'feet', { name: string; count: number } | null>;

/** A bot's own state: {@link AgentStatus} with its equipment and whether it is in the world. */
export interface BotState extends AgentStatus {
  /** In the world now (false while offline or before it spawned). */
  online: boolean;
  /** Null while not in the world. */
  equipment: Equipment | null;
}

/** One block type around a bot. */
export interface NearbyBlock {
  name: string;
  /** Blocks of this type among those read (at most {@link MAX_BLOCKS} nearest in all). */
  count: number;
  /** The nearest one (block coordinates) and its distance from the bot's feet (blocks, 0.1). */
  nearest: { x: number; y: number; z: number };
  distance: number;
}

/** One entity around a bot: a player, one of our bots, a mob or a dropped item stack. */
export interface NearbyEntity {
  kind: 'player' | 'bot' | 'mob' | 'item';
  /** Player name, mob type or item name. */
  name: string;
  /** Items in a dropped stack. */
  count?: number;
  position: { x: number; y: number; z: number };
  /** From the bot (blocks, 0.1). */
  distance: number;
}

/** What is around a bot, nearest first; empty lists while it is not in the world. */
export interface Surroundings {
  position: { x: number; y: number; z: number } | null;
  range: number;
  blocks: NearbyBlock[];
  entities: NearbyEntity[];
}

/** What a bot remembers. */
export interface BotMemory {
  /** The summarised memory of older turns ('' if none). */
  memory: string;
  goal: AgentStatus['goal'];
  places: Record<string, Place>;
  /** Conversation turns kept (older ones are in {@link memory}). */
  turns: number;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function inWorld(bot: Bot): boolean {
  return (bot.entity as Bot['entity'] | undefined)?.position !== undefined;
}

/** The bot's equipment, read through mineflayer's own slot numbers for each destination. */
function equipment(bot: Bot): Equipment {
  const slot = (dest: string) => {
    const item = bot.inventory.slots[bot.getEquipmentDestSlot(dest)];
    return item ? { name: item.name, count: item.count } : null;
  };
  return {
    hand: slot('hand'),
    'off-hand': slot('off-hand'),
    head: slot('head'),
    torso: slot('torso'),
    legs: slot('legs'),
    feet: slot('feet'),
  };
}

/**
 * The agent's own state.
 *
 * @example botState(agent) // { name: 'Andy', online: true, position: { x: 0.5, y: -60, z: 0.5 }, health: 20, ..., equipment: { hand: null, ... } }
 */
export function botState(agent: Agent): BotState {
  const online = inWorld(agent.bot);
  let gear: Equipment | null = null;
  try {
    gear = online ? equipment(agent.bot) : null;
  } catch {
    gear = null; // mid-respawn: no inventory window
  }
  return { ...agent.status(), online, equipment: gear };
}

/** What is around the agent's bot (see {@link Surroundings}). */
export function surroundings(agent: Agent): Surroundings {
  const bot = agent.bot;
  if (!inWorld(bot)) return { position: null, range: NEARBY_RANGE, blocks: [], entities: [] };
  const here = bot.entity.position;
  const byName = new Map<string, NearbyBlock>();
  for (const p of bot.findBlocks({ matching: (b) => !AIR.has(b.name), maxDistance: NEARBY_RANGE, count: MAX_BLOCKS })) {
    const name = bot.blockAt(p)?.name;
    if (!name) continue;
    const distance = round(p.offset(0.5, 0, 0.5).distanceTo(here));
    const known = byName.get(name);
    if (!known) byName.set(name, { name, count: 1, nearest: { x: p.x, y: p.y, z: p.z }, distance });
    else {
      known.count++;
      if (distance < known.distance) Object.assign(known, { nearest: { x: p.x, y: p.y, z: p.z }, distance });
    }
  }
  const bots = new Set(agent.knownBots());
  const entities: NearbyEntity[] = [];
  for (const e of Object.values(bot.entities)) {
    if (e === bot.entity) continue;
    const distance = e.position.distanceTo(here);
    if (distance > NEARBY_RANGE) continue;
    const at = { position: { x: round(e.position.x), y: round(e.position.y), z: round(e.position.z) }, distance: round(distance) };
    if (e.type === 'player' && e.username) entities.push({ kind: bots.has(e.username) ? 'bot' : 'player', name: e.username, ...at });
    else if (e.name === 'item') {
      const item = e.getDroppedItem();
      if (item) entities.push({ kind: 'item', name: item.name, count: item.count, ...at });
    } else if (e.name) entities.push({ kind: 'mob', name: e.name, ...at });
  }
  return {
    position: { x: round(here.x), y: round(here.y), z: round(here.z) },
    range: NEARBY_RANGE,
    blocks: [...byName.values()].sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name)),
    entities: entities.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name)),
  };
}

/** What the agent remembers (see {@link BotMemory}). */
export function botMemory(agent: Agent): BotMemory {
  return {
    memory: agent.memory,
    goal: agent.status().goal,
    places: Object.fromEntries(agent.places.list()),
    turns: agent.history.length,
  };
}
