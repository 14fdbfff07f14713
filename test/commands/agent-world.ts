/**
 * A real world with an agent in it, for the command integration tests: the embedded server, one
 * oracle agent (Andy) and a plain player (Steve), and helpers that run commands as the product
 * does and read the world on both sides (the bot's view and the server's).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import type { Agent } from '../../src/agent/agent.ts';
import { nameResolver } from '../../src/game/names.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { inventoryCounts } from '../../src/skills/items.ts';
import type { Outcome } from '../../src/skills/outcome.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { connectBot, serverPlayer, waitUntil } from '../helpers/world.ts';
import { blockById, itemByName } from '../../src/game/data.ts';

export interface World {
  running: RunningBots;
  server: EmbeddedServer;
  andy: Agent;
  /** A plain player (no agent): runs server commands, is followed and looked at. */
  steve: Bot;
  /** Andy's spawn position: tests work in areas offset from it. */
  origin: Vec3;
}

export const settings = testSettings({ chat_bot_messages: false });
export const names = nameResolver(settings.minecraft_version);

export async function startWorld(): Promise<World> {
  const running = await startAgents({
    settings,
    profiles: [profileSchema.parse({ name: 'Andy', model: 'oracle' })],
    port: 0,
    log: () => {},
  });
  const server = running.server!;
  const andy = running.agents[0]!;
  const steve = await connectBot(server, 'Steve');
  await waitUntil(() => !!andy.bot.players.Steve?.entity, 'Andy sees Steve');
  return { running, server, andy, steve, origin: andy.bot.entity.position.floored() };
}

/**
 * The calling test file's world: started before its first test and closed after its last. The
 * returned object is filled in by the `beforeAll` hook.
 */
export function useWorld(): World {
  const w = {} as World;
  beforeAll(async () => {
    Object.assign(w, await startWorld());
  }, 60_000);
  afterAll(async () => {
    w.steve?.quit();
    await w.running?.close();
  });
  return w;
}

/** Parses `text` with the agent's registry, as a model reply would be, and runs it. */
export async function run(agent: Agent, text: string): Promise<string> {
  const parsed = parseCommand(text, agent.commands, names);
  if (parsed.kind !== 'command') throw new Error(`not a command: ${text} (${JSON.stringify(parsed)})`);
  return agent.execute(parsed);
}

/**
 * Runs `text` as {@link run} does and returns its typed outcome as the agent's journal recorded
 * it (without the command's name and arguments): code, data and the text the model reads.
 */
export async function outcome(agent: Agent, text: string): Promise<Outcome> {
  const parsed = parseCommand(text, agent.commands, names);
  if (parsed.kind !== 'command') throw new Error(`not a command: ${text} (${JSON.stringify(parsed)})`);
  const cursor = agent.journal.last;
  const said = await agent.execute(parsed, 'test');
  const entry = agent.journal
    .since(cursor)
    .find((e) => e.kind === 'outcome' && e.by === 'test' && e.outcome.command === parsed.command.name && e.outcome.text === said);
  if (entry?.kind !== 'outcome') throw new Error(`${text}: no outcome in the journal for "${said}"`);
  const { command: _command, args: _args, ...reported } = entry.outcome;
  return reported;
}

export function count(agent: Agent, item: string): number {
  return inventoryCounts(agent.bot)[item] ?? 0;
}

/** Items of one name in a player's inventory as the server sees it (all 46 slots). */
export function serverCount(w: World, username: string, item: string): number {
  const id = itemByName(w.server.serv.registry, item).id;
  const slots = serverPlayer(w.server, username).inventory.slots as ({ type: number; count: number } | null)[];
  return slots.reduce((n, s) => n + (s && s.type === id ? Number(s.count) : 0), 0);
}

export async function serverBlock(w: World, pos: Vec3): Promise<string> {
  const block = await w.server.serv.overworld.getBlock(pos);
  return blockById(w.server.serv.registry, block.type).name;
}

export function serverPosition(w: World, username: string): Vec3 {
  const p = serverPlayer(w.server, username).position;
  return new Vec3(p.x, p.y, p.z);
}

/** A server command typed by Steve (every player is op on the embedded server). */
export function command(w: World, text: string): void {
  w.steve.chat(text);
}

/** `/give` and wait until Andy sees the items. */
export async function give(w: World, item: string, n: number): Promise<void> {
  const before = count(w.andy, item);
  command(w, `/give Andy ${item} ${n}`);
  await waitUntil(() => count(w.andy, item) === before + n, `Andy receives ${n} ${item}`);
}

export async function clear(w: World): Promise<void> {
  if (w.andy.bot.inventory.items().length === 0 && [5, 6, 7, 8, 45].every((s) => !w.andy.bot.inventory.slots[s])) return;
  command(w, '/clear Andy');
  await waitUntil(() => w.andy.bot.inventory.items().length === 0, "Andy's inventory is cleared");
}

export async function teleport(w: World, bot: Bot, to: Vec3): Promise<void> {
  command(w, `/tp ${bot.username} ${to.x} ${to.y} ${to.z}`);
  await waitUntil(() => bot.entity.position.distanceTo(to) < 0.6, `${bot.username} teleported to ${to}`);
  await bot.waitForChunksToLoad();
}

/** Sets a block through /setblock and waits until Andy sees it. */
/**
 * Puts Andy at the centre of a fresh area `dx, dz` blocks from the spawn, with an empty inventory
 * and no item lying within 24 blocks (an earlier test's late drops would be picked up on the way).
 */
export async function area(w: World, dx: number, dz: number): Promise<Vec3> {
  const base = w.origin.offset(dx, 0, dz);
  await clear(w);
  command(w, `/kill @e[type=item,x=${base.x},y=${base.y},z=${base.z},distance=..24]`);
  await waitUntil(
    () => !Object.values(w.server.serv.entities).some((e) => e.itemId !== undefined && e.position.distanceTo(base) <= 24),
    `no items lying near ${base}`,
  );
  await teleport(w, w.andy.bot, base.offset(0.5, 0, 0.5));
  return base;
}

export async function setBlock(w: World, pos: Vec3, block: string): Promise<void> {
  command(w, `/setblock ${pos.x} ${pos.y} ${pos.z} ${block}`);
  const name = block.replace(/\[.*$/, '');
  await waitUntil(() => w.andy.bot.blockAt(pos)?.name === name, `Andy sees ${name} at ${pos}`);
}

/** Server-side living entities of a type near a position. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function serverMobs(w: World, name: string, near: Vec3, range = 32): any[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return Object.values(w.server.serv.entities as Record<string, any>).filter(
    (e) => e.name === name && !e.dead && near.distanceTo(new Vec3(e.position.x, e.position.y, e.position.z)) <= range,
  );
}

/** Summons a mob at a position and waits until Andy sees it; returns Andy's entity for it. */
export async function summon(w: World, name: string, at: Vec3) {
  command(w, `/summon ${name} ${at.x} ${at.y} ${at.z}`);
  await waitUntil(
    () => Object.values(w.andy.bot.entities).some((e) => e.name === name && e.position.distanceTo(at) < 3),
    `Andy sees the ${name}`,
  );
  return Object.values(w.andy.bot.entities).find((e) => e.name === name && e.position.distanceTo(at) < 3)!;
}

/** Starts a command without waiting, then checks that `agent.stop` ends it within 1 s. */
export async function expectStopsWithin1s(agent: Agent, pending: Promise<string>): Promise<string> {
  const t0 = Date.now();
  await agent.stop('stopped by the test');
  const out = await pending;
  expect(Date.now() - t0).toBeLessThan(1_000);
  expect(agent.currentAction()).toBeUndefined();
  return out;
}
