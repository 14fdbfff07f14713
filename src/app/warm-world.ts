/**
 * Warm worlds: an evaluation worker keeps its embedded server and its bots between runs of the
 * same agents (same count, names and models) and resets what a run changed instead of starting
 * a new world for every run (start-up is server start plus bots joining: a good part of a short
 * run). See {@link WarmWorld}.
 *
 * What a run changes, and how the reset undoes it:
 * - blocks (the set-up's cooking world or cleared construction site, and everything the bots dug
 *   or placed): every block write of the server's overworld is journalled (prismarine-world's
 *   `blockUpdate` event, which every write path emits) with the state the position had before
 *   the first write; the reset replaces every chunk column that was written to with a newly
 *   generated one (the world is generated, superflat or survival from its seed: a fresh world's column) and sends it again
 *   to every player who has it loaded. Writing the old states back would not do: a chunk section
 *   keeps every block state it ever held in its palette, and what reads palettes (mineflayer's
 *   `findBlocks`, the oracle's view of the blocks around it) would still see a table that was
 *   placed and broken;
 * - block entities (furnace and chest contents): all removed (a fresh world has none);
 * - entities (summoned animals, dropped items, mobs): all non-player entities removed, without
 *   loot; a survival world then gets its chunks' initial animals again, as a fresh one has them;
 * - the players (the bots): open containers closed, inventory, cursor and crafting grid emptied,
 *   effects removed, experience 0, health, food, saturation and exhaustion, game mode and respawn
 *   point as when they first joined, teleported to where they first spawned and turned the way they faced then, held
 *   slot as then; the game time set back to the fresh world's, clear weather;
 * - the agents (conversations, histories, memory, goals, modes, tasks, command logs, models):
 *   replaced by fresh ones built from the same profiles (`RunningBots.renewAgents`), on the
 *   same connections.
 *
 * The reset is verified before the next run uses the world (server side and on every bot's
 * client: no entity but the players, no block entity, every journalled position back to its
 * state, empty inventories, full health and food, positions as first spawned); a world whose
 * reset cannot be verified within {@link RESET_TIMEOUT_MS}, or after a run that ended in an
 * error or with a missing agent, is closed and the next run gets a fresh one.
 *
 * Only embedded servers are kept warm: an external server's world is not ours to reset.
 */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../agent/agent.ts';
import type { CommandContext } from '../commands/context.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import { blockEntities } from '../server/services/block-entities.ts';
import { clearEffects } from '../server/services/effects.ts';
import { hungerOf } from '../server/services/food.ts';
import { configureMechanics, mechanicsOptions, type MechanicsOptions } from '../server/services/game-rules.ts';
import { closeContainer, inventorySession } from '../server/services/inventory.ts';
import { mobRegistry } from '../server/services/mobs.ts';
import { initialAnimalIds, respawnInitialAnimals } from '../server/worldgen/plugin.ts';
import type { SquidPlayer, SquidServer } from '../server/types.ts';
import type { Settings } from '../settings/index.ts';
import type { RunEvent, RunEventSink } from '../tasks/eval/records.ts';
import { waitFor } from '../util/abort.ts';
import type { TaskWorld } from './run-task.ts';
import { startAgents, type RunningBots } from './start-bots.ts';

/** How long a reset may take to show on the server and every bot before the world is given up (ms). */
export const RESET_TIMEOUT_MS = 5_000;

/** Options of {@link WarmWorld}. */
export interface WarmWorldOptions {
  /** The worker's settings (`server` must be `embedded` for the world to be kept). */
  settings: Settings;
  /** Lines about the warm world itself: fresh starts, resets given up. */
  log?: (line: string) => void;
}

/** Counts and timings of a {@link WarmWorld}, for benches and logs. */
export interface WarmWorldStats {
  /** Runs that got a fresh world / a reset warm one. */
  fresh: number;
  warm: number;
  /** Resets that could not be done or verified (each followed by a fresh world). */
  failedResets: number;
  /** Time to hand each run its world: start-up for a fresh one, the reset's check for a warm one (ms). */
  openMs: number[];
  /** Time of each reset after a run (ms). */
  resetMs: number[];
}

/** How each bot was when it first joined the world. */
interface FreshPlayer {
  position: Vec3;
  yaw: number;
  pitch: number;
  /** The client's view of the bot's orientation (radians). */
  clientYaw: number;
  clientPitch: number;
  quickBarSlot: number;
  spawnPoint: Vec3 | undefined;
  gameMode: number;
  health: number;
  food: number;
  saturation: number;
}

/** One kept world: its bots, what a fresh one looked like, and the block journal. */
interface Kept {
  key: string;
  running: RunningBots;
  serv: SquidServer;
  time: number;
  mechanics: MechanicsOptions;
  players: Map<string, FreshPlayer>;
  /** Block positions written since the last reset, with their state before the first write. */
  journal: Map<string, { position: Vec3; stateId: number }>;
  /** Positions the last reset wrote back, with the state they have again (checked on every bot). */
  restored: Array<{ position: Vec3; stateId: number }>;
  /** Chunk columns (`x,z` in chunks) the last reset regenerated (checked on every bot). */
  columns: Array<{ x: number; z: number }>;
  /** Where the taps and log lines of the current run go. */
  sink: { current: RunEventSink | undefined; log: (line: string) => void };
  /** The environment the bots' models were made with (a different one needs new models). */
  env: NodeJS.ProcessEnv | undefined;
  /** The command set the agents were given (another one needs new agents). */
  commands?: CommandRegistry<CommandContext> | undefined;
  /** Set by the reset: the world is ready for another run once verified. */
  reset: boolean;
  /** Stops recording block writes while `on` (the reset's own writes). */
  pauseJournal: (on: boolean) => void;
  stopJournal: () => void;
}

/**
 * One evaluation worker's world, kept warm between runs (see the module comment). Pass it to
 * `runTask` as `world`; close it when the worker is done.
 *
 * @example
 * const world = new WarmWorld({ settings });
 * for (const run of runs) await runTask({ ...run, settings, world });
 * await world.close();
 */
export class WarmWorld implements TaskWorld {
  readonly #settings: Settings;
  readonly #log: (line: string) => void;
  #kept: Kept | undefined;
  readonly stats: WarmWorldStats = { fresh: 0, warm: 0, failedResets: 0, openMs: [], resetMs: [] };

  constructor(options: WarmWorldOptions) {
    this.#settings = options.settings;
    this.#log = options.log ?? (() => {});
  }

  /**
   * The run's bots: the kept world when it has the same agents and its reset is verified now,
   * else a fresh world (the kept one, if any, is closed first).
   *
   * @throws what `startAgents` throws when a fresh world cannot start.
   */
  async open(request: Parameters<TaskWorld['open']>[0]): Promise<RunningBots> {
    const began = performance.now();
    const key = JSON.stringify({
      serverWorld: request.serverWorld,
      names: request.profiles.map((p) => p.name),
      models: request.profiles.map((p) => request.model ?? p.model),
      botsDir: request.botsDir,
    });
    const kept = this.#kept;
    if (kept && (kept.key !== key || kept.env !== request.env || kept.commands !== request.commands || !kept.reset)) {
      await this.close();
    } else if (kept) {
      const problem = await verify(kept);
      if (problem === undefined) {
        kept.reset = false;
        kept.sink.current = request.events;
        kept.sink.log = request.log;
        this.stats.warm++;
        this.stats.openMs.push(performance.now() - began);
        request.log(`A warm world, its reset verified in ${Math.round(performance.now() - began)} ms.`);
        return kept.running;
      }
      this.stats.failedResets++;
      this.#log(`The warm world's reset could not be verified (${problem}): starting a fresh world.`);
      await this.close();
    }
    const sink: Kept['sink'] = { current: request.events, log: request.log };
    const running = await startAgents({
      settings: this.#settings,
      serverWorld: request.serverWorld,
      profiles: request.profiles,
      model: request.model,
      ...(request.commands ? { commands: request.commands } : {}),
      env: request.env,
      botsDir: request.botsDir,
      port: this.#settings.server === 'embedded' ? 0 : undefined,
      fallback: false,
      events: { emit: (event: RunEvent) => sink.current?.emit(event) },
      log: (line) => sink.log(line),
    });
    this.stats.fresh++;
    this.stats.openMs.push(performance.now() - began);
    if (running.server) this.#kept = remember(key, running, sink, request.env, request.commands);
    return running;
  }

  /**
   * Takes the bots back after a run: resets the kept world for the next run (checked when that
   * run opens it), or closes it when `reusable` is false, it is not an embedded server's, or the
   * reset fails.
   */
  async release(running: RunningBots, reusable: boolean): Promise<void> {
    const kept = this.#kept;
    if (!kept || kept.running !== running || !reusable) {
      if (kept?.running === running) await this.close();
      else await running.close();
      return;
    }
    kept.sink.current = undefined;
    kept.sink.log = this.#log;
    const began = performance.now();
    try {
      await running.renewAgents(() => resetWorld(kept));
      kept.reset = true;
    } catch (err) {
      this.stats.failedResets++;
      this.#log(`The warm world could not be reset (${(err as Error).message}): the next run gets a fresh world.`);
      await this.close();
    } finally {
      this.stats.resetMs.push(performance.now() - began);
    }
  }

  /** Closes the kept world, if any. */
  async close(): Promise<void> {
    const kept = this.#kept;
    this.#kept = undefined;
    if (!kept) return;
    kept.stopJournal();
    await kept.running.close();
  }
}

const positionKey = (p: Vec3): string => `${p.x},${p.y},${p.z}`;

/** A prismarine-chunk column, as far as the check reads it. */
interface DumpableColumn {
  dump(): Buffer;
}

/**
 * What the reset uses of a prismarine-world `World` beyond `SquidWorld`: its generator (flying-
 * squid passes the superflat one), its loaded columns and `setColumn`.
 */
interface GeneratedWorld {
  chunkGenerator(chunkX: number, chunkZ: number): DumpableColumn;
  columns: Record<string, DumpableColumn | undefined>;
  setColumn(chunkX: number, chunkZ: number, column: DumpableColumn): Promise<void>;
}

/** Records the fresh world's state and starts the block journal. */
function remember(
  key: string,
  running: RunningBots,
  sink: Kept['sink'],
  env: NodeJS.ProcessEnv | undefined,
  commands: CommandRegistry<CommandContext> | undefined,
): Kept {
  const serv = running.server!.serv;
  const players = new Map<string, FreshPlayer>();
  for (const agent of running.agents) {
    const player = serv.getPlayer(agent.name)!;
    players.set(agent.name, {
      position: player.position.clone(),
      yaw: player.yaw,
      pitch: player.pitch,
      clientYaw: agent.bot.entity.yaw,
      clientPitch: agent.bot.entity.pitch,
      quickBarSlot: agent.bot.quickBarSlot,
      spawnPoint: player.spawnPoint?.clone(),
      gameMode: player.gameMode,
      health: player.health,
      food: player.food,
      saturation: player.foodSaturation,
    });
  }
  const journal: Kept['journal'] = new Map();
  let paused = false;
  const onUpdate = (oldBlock: { position: Vec3; stateId?: number }) => {
    if (paused || oldBlock.stateId === undefined) return;
    const k = positionKey(oldBlock.position);
    if (!journal.has(k)) journal.set(k, { position: oldBlock.position.clone(), stateId: oldBlock.stateId });
  };
  const world = serv.overworld as unknown as NodeJS.EventEmitter;
  world.on('blockUpdate', onUpdate);
  return {
    key,
    commands,
    running,
    serv,
    env,
    time: Number(serv.time),
    mechanics: { ...mechanicsOptions(serv) },
    players,
    journal,
    restored: [],
    columns: [],
    sink,
    reset: false,
    pauseJournal: (on) => {
      paused = on;
    },
    stopJournal: () => {
      world.off('blockUpdate', onUpdate);
    },
  };
}

/** Undoes what a run changed (see the module comment); the agents are gone meanwhile. */
async function resetWorld(kept: Kept): Promise<void> {
  const { serv, running } = kept;
  for (const session of running.sessions) if (!session.online) throw new Error(`${session.username} is offline`);
  // The bots let go: no window open, no controls held, the fresh held slot.
  for (const session of running.sessions) {
    releaseBot(session.bot);
    const fresh = kept.players.get(session.username);
    if (fresh && session.bot.quickBarSlot !== fresh.quickBarSlot) session.bot.setQuickBarSlot(fresh.quickBarSlot);
  }
  // Entities: every one but the players, without loot; a survival world's chunks get their
  // initial animals again.
  const registry = mobRegistry(serv);
  for (const entity of Object.values(serv.entities)) {
    if (entity.type === 'player') continue;
    registry.mobs.delete(entity.id);
    entity.destroy();
  }
  // Blocks: every column written to is generated again and sent again; then no block entity is left.
  const world = serv.overworld as unknown as GeneratedWorld;
  kept.pauseJournal(true);
  try {
    kept.restored = [...kept.journal.values()];
    const columns = new Map(
      kept.restored.map(({ position }) => {
        const x = Math.floor(position.x / 16);
        const z = Math.floor(position.z / 16);
        return [`${x},${z}`, { x, z }];
      }),
    );
    kept.columns = [...columns.values()];
    for (const { x, z } of kept.columns) {
      const column = world.chunkGenerator(x, z);
      await world.setColumn(x, z, column);
      // flying-squid's record of the columns each player has loaded (`player.loadedChunks`).
      for (const player of serv.players as Array<SquidPlayer & { loadedChunks?: Record<string, number> }>) {
        if (player.loadedChunks?.[`${x},${z}`] !== undefined) await player.sendChunk(x, z, column);
      }
    }
    kept.journal.clear();
  } finally {
    kept.pauseJournal(false);
  }
  const store = blockEntities(serv);
  for (const entity of [...store.all()]) store.remove(store.worldOf(entity.dimension), entity.pos);
  respawnInitialAnimals(serv);
  // Players: as they joined.
  for (const [name, fresh] of kept.players) {
    const player = serv.getPlayer(name);
    if (!player) throw new Error(`${name} is not on the server`);
    resetPlayer(serv, player, fresh);
  }
  // Experience (smelting, mobs) and weather: through the server's own commands (their state is
  // the features'), only when a bot shows a difference.
  for (const session of running.sessions) {
    const xp = session.bot.experience;
    if (xp && (xp.level !== 0 || xp.points !== 0)) {
      await serv.handleCommand(`xp set ${session.username} 0 levels`);
      await serv.handleCommand(`xp set ${session.username} 0 points`);
    }
  }
  if (running.sessions.some((session) => session.bot.isRaining)) await serv.handleCommand('weather clear');
  serv.setTime(kept.time);
  const mechanics = mechanicsOptions(serv);
  if (Object.entries(kept.mechanics).some(([k, v]) => mechanics[k as keyof MechanicsOptions] !== v))
    configureMechanics(serv, kept.mechanics);
  // The clients turn the way they faced when they first spawned.
  for (const session of running.sessions) {
    const fresh = kept.players.get(session.username);
    if (fresh) await session.bot.look(fresh.clientYaw, fresh.clientPitch, true);
  }
}

/** Takes a bot's hands off: its window closed, controls released, pathfinding and digging stopped. */
function releaseBot(bot: Bot): void {
  try {
    if (bot.currentWindow) void bot.closeWindow(bot.currentWindow); // closed at once; the returned promise never rejects (mineflayer catches its click)
    bot.pathfinder?.setGoal(null);
    bot.stopDigging();
    bot.clearControlStates();
  } catch {
    // checked by the verification
  }
}

/** A player as it first joined: inventory, effects, health, food, game mode, spawn point, position. */
function resetPlayer(serv: SquidServer, player: SquidPlayer, fresh: FreshPlayer): void {
  const session = inventorySession(player);
  if (session) {
    closeContainer(session);
    session.carried = null;
  }
  player.inventory.slots.forEach((item, slot) => {
    if (item) player.inventory.updateSlot(slot, null);
  });
  if (player.gameMode !== fresh.gameMode) throw new Error(`${player.username}'s game mode changed`);
  player.spawnPoint = fresh.spawnPoint?.clone();
  clearEffects(serv, player);
  const hunger = hungerOf(player);
  hunger.exhaustion = 0;
  hunger.timer = 0;
  hunger.eating = null;
  player.food = fresh.food;
  player.foodSaturation = fresh.saturation;
  player.updateHealth(fresh.health);
  player.yaw = fresh.yaw;
  player.pitch = fresh.pitch;
  void player.teleport(fresh.position.clone());
}

/**
 * Checks that the kept world is as a fresh one, on the server and on every bot's client,
 * waiting up to {@link RESET_TIMEOUT_MS} for the clients to catch up.
 *
 * @returns what is still different, or undefined when nothing is.
 */
async function verify(kept: Kept): Promise<string | undefined> {
  let problem: string | undefined;
  const check = (): boolean => {
    problem = serverDifference(kept) ?? kept.running.agents.map((agent) => clientDifference(kept, agent)).find((p) => p !== undefined);
    return problem === undefined;
  };
  await waitFor(check, RESET_TIMEOUT_MS);
  return problem;
}

function serverDifference(kept: Kept): string | undefined {
  const { serv } = kept;
  const animals = initialAnimalIds(serv);
  const others = Object.values(serv.entities).filter((e) => e.type !== 'player' && !animals.has(e.id));
  if (others.length) return `${others.length} entities left on the server (${others[0]!.name ?? others[0]!.type})`;
  if ([...mobRegistry(serv).mobs.keys()].some((id) => !animals.has(id))) return 'mobs left in the mob registry';
  if ([...blockEntities(serv).all()].length) return 'block entities left';
  if (kept.journal.size) return `${kept.journal.size} block changes since the reset`;
  for (const [name, fresh] of kept.players) {
    const player = serv.getPlayer(name);
    if (!player) return `${name} is not on the server`;
    if (player.inventory.slots.some((item) => item)) return `${name}'s inventory is not empty on the server`;
    if (player.health !== fresh.health || player.food !== fresh.food) return `${name}'s health or food is not as fresh`;
    if (player.position.distanceTo(fresh.position) > 0.5) return `${name} is not back at spawn on the server`;
  }
  return undefined;
}

function clientDifference(kept: Kept, agent: Agent): string | undefined {
  const { bot, name } = agent;
  const fresh = kept.players.get(name);
  if (!fresh) return `${name} was not in the fresh world`;
  if (bot.currentWindow) return `${name} has a window open`;
  if (bot.inventory.slots.some((item) => item)) return `${name}'s inventory is not empty on its client`;
  if (bot.health !== fresh.health || bot.food !== fresh.food) return `${name}'s client shows health ${bot.health}, food ${bot.food}`;
  if (!bot.entity || bot.entity.position.distanceTo(fresh.position) > 0.5) return `${name}'s client is not back at spawn`;
  if (bot.entity.effects && Object.keys(bot.entity.effects).length) return `${name} still has effects`;
  if (bot.experience && (bot.experience.level !== 0 || bot.experience.points !== 0)) return `${name} still has experience`;
  if (bot.isRaining) return `it rains for ${name}`;
  const animals = initialAnimalIds(kept.serv);
  const others = Object.values(bot.entities).filter((e) => e.type !== 'player' && !animals.has(e.id));
  if (others.length) return `${name} still sees ${others.length} entities (${others[0]!.name ?? others[0]!.type})`;
  for (const { position, stateId } of kept.restored) {
    const block = bot.blockAt(position);
    if (block && block.stateId !== stateId) return `${name} sees ${block.name} at ${positionKey(position)}`;
  }
  // The regenerated columns arrived: the client's column serialises as the server's does.
  const world = kept.serv.overworld as unknown as GeneratedWorld;
  for (const { x, z } of kept.columns) {
    const mine = (bot.world as unknown as { getColumn(x: number, z: number): DumpableColumn | undefined }).getColumn(x, z);
    const theirs = world.columns[`${x},${z}`];
    if (mine && theirs && !mine.dump().equals(theirs.dump())) return `${name}'s chunk ${x},${z} is not the regenerated one yet`;
  }
  if (agent.history.length || agent.commandLog.length || agent.task) return `${name}'s agent is not fresh`;
  return undefined;
}
