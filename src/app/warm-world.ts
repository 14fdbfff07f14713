/**
 * Warm worlds: an evaluation worker keeps its embedded server and its bots between runs of the
 * same agents (same count, names and models) and resets what a run changed instead of starting
 * a new world for every run (start-up is server start plus bots joining: a good part of a short
 * run). See {@link WarmWorld}.
 *
 * What a run changes is undone by the embedded server's own `reset()` (each of its plugins puts
 * back its own state, see src/server/plugins.ts): the blocks written (their columns generated
 * again and sent again: src/server/services/world-journal.ts), the block entities, every entity
 * but the players (a survival world then gets its chunks' initial animals again; its monsters come
 * back by its natural spawner, as in a fresh world), the players'
 * inventories, effects, experience, health, food, places and spawn points, the time and the
 * weather, the mechanics' settings. Here, on the clients: the bots let go (windows, controls),
 * hold the slot they held, and turn the way they faced. The agents (conversations, histories,
 * memory, goals, modes, tasks, command logs, models) are replaced by fresh ones built from the
 * same profiles (`RunningBots.renewAgents`), on the same connections.
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
import type { EmbeddedServer } from '../server/embedded.ts';
import { blockEntities } from '../server/services/block-entities.ts';
import { mobRegistry } from '../server/services/mobs.ts';
import { lastRestore, serverColumn, worldChanges, type DumpableColumn } from '../server/services/world-journal.ts';
import { initialAnimalIds, naturalMonsterIds } from '../server/worldgen/plugin.ts';
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

/** How each bot was when it first joined the world, as the checks compare it (the server notes the rest). */
interface FreshPlayer {
  position: Vec3;
  /** The client's view of the bot's orientation (radians). */
  clientYaw: number;
  clientPitch: number;
  quickBarSlot: number;
  health: number;
  food: number;
}

/** One kept world: its bots, and what a fresh one looked like (the server keeps its own checkpoint). */
interface Kept {
  key: string;
  running: RunningBots;
  server: EmbeddedServer;
  players: Map<string, FreshPlayer>;
  /** Where the taps and log lines of the current run go. */
  sink: { current: RunEventSink | undefined; log: (line: string) => void };
  /** The environment the bots' models were made with (a different one needs new models). */
  env: NodeJS.ProcessEnv | undefined;
  /** The command set the agents were given (another one needs new agents). */
  commands?: CommandRegistry<CommandContext> | undefined;
  /** Set by the reset: the world is ready for another run once verified. */
  reset: boolean;
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
    await kept.running.close();
  }
}

const positionKey = (p: Vec3): string => `${p.x},${p.y},${p.z}`;

/** Records the fresh world's state: the server's checkpoint, and each bot as its client sees itself. */
function remember(
  key: string,
  running: RunningBots,
  sink: Kept['sink'],
  env: NodeJS.ProcessEnv | undefined,
  commands: CommandRegistry<CommandContext> | undefined,
): Kept {
  const server = running.server!;
  const players = new Map<string, FreshPlayer>();
  for (const agent of running.agents) {
    const player = server.serv.getPlayer(agent.name)!;
    players.set(agent.name, {
      position: player.position.clone(),
      clientYaw: agent.bot.entity.yaw,
      clientPitch: agent.bot.entity.pitch,
      quickBarSlot: agent.bot.quickBarSlot,
      health: player.health,
      food: player.food,
    });
  }
  server.checkpoint();
  return { key, commands, running, server, env, players, sink, reset: false };
}

/** Undoes what a run changed (see the module comment); the agents are gone meanwhile. */
async function resetWorld(kept: Kept): Promise<void> {
  const { running } = kept;
  for (const session of running.sessions) if (!session.online) throw new Error(`${session.username} is offline`);
  // The bots let go: no window open, no controls held, the fresh held slot.
  for (const session of running.sessions) {
    releaseBot(session.bot);
    const fresh = kept.players.get(session.username);
    if (fresh && session.bot.quickBarSlot !== fresh.quickBarSlot) session.bot.setQuickBarSlot(fresh.quickBarSlot);
  }
  // The server: every plugin's reset (blocks, entities, block entities, players, time, weather...).
  await kept.server.reset();
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

/**
 * The mobs a fresh survival world has of itself: its chunks' initial animals and the monsters its
 * natural spawner brings (which come back within ticks of a reset, as in a fresh world).
 */
function worldsOwnMobs(serv: Kept['server']['serv']): ReadonlySet<number> {
  return new Set([...initialAnimalIds(serv), ...naturalMonsterIds(serv)]);
}

function serverDifference(kept: Kept): string | undefined {
  const { serv } = kept.server;
  const own = worldsOwnMobs(serv);
  const others = Object.values(serv.entities).filter((e) => e.type !== 'player' && !own.has(e.id));
  if (others.length) return `${others.length} entities left on the server (${others[0]!.name ?? others[0]!.type})`;
  if ([...mobRegistry(serv).mobs.keys()].some((id) => !own.has(id))) return 'mobs left in the mob registry';
  if ([...blockEntities(serv).all()].length) return 'block entities left';
  const changes = worldChanges(serv);
  if (changes) return `${changes} block changes since the reset`;
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
  const { serv } = kept.server;
  const own = worldsOwnMobs(serv);
  const others = Object.values(bot.entities).filter((e) => e.type !== 'player' && !own.has(e.id));
  if (others.length) return `${name} still sees ${others.length} entities (${others[0]!.name ?? others[0]!.type})`;
  const { restored, columns } = lastRestore(serv);
  for (const { position, stateId } of restored) {
    const block = bot.blockAt(position);
    if (block && block.stateId !== stateId) return `${name} sees ${block.name} at ${positionKey(position)}`;
  }
  // The regenerated columns arrived: the client's column serialises as the server's does.
  for (const { x, z } of columns) {
    const mine = (bot.world as unknown as { getColumn(x: number, z: number): DumpableColumn | undefined }).getColumn(x, z);
    const theirs = serverColumn(serv, x, z);
    if (mine && theirs && !mine.dump().equals(theirs.dump())) return `${name}'s chunk ${x},${z} is not the regenerated one yet`;
  }
  if (agent.history.length || agent.commandLog.length || agent.task) return `${name}'s agent is not fresh`;
  return undefined;
}
