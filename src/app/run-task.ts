/**
 * Runs one MineCollab task end to end: server, bots, set-up (inventories, human players, and the
 * cooking world or the construction site), each agent's goal loop and the opening conversation,
 * a check every game tick, and one result line with the run's full record.
 *
 * Task semantics are MINDcraft's (see `src/tasks/goals.ts` for the goal texts and blocked
 * commands); a run ends at the first success, at the timeout (with the last score), when an agent
 * has been missing for 30 s (score 0, as MINDcraft's "No other agents found"), on an error, or
 * when its `signal` aborts.
 */
import { appendFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../agent/agent.ts';
import { ConnectError } from '../agent/bot.ts';
import { requireUsableModels } from '../agent/model-choice.ts';
import { parseModelSpec } from '../models/spec.ts';
import { startAgents, type RunningBots, type ServerWorldChoice } from './start-bots.ts';
import { RunFolder } from './run-folder.ts';
import { ChatOutbox, type RateLimit } from '../conversation/outbox.ts';
import { gameData } from '../game/data.ts';
import { ConfigError, loadProfile, withTaskDomain, type Profile, type Settings } from '../settings/index.ts';
import { inventoryCounts } from '../skills/items.ts';
import { waitFor } from '../util/abort.ts';
import { checkBlueprint, diffLines, type BlockLookup } from '../tasks/blueprint.ts';
import { fileKeys, runFolder, taskConditions } from '../tasks/eval/campaign.ts';
import { RunRecorder, totals, type EndReason, type RunEvent, type RunEventSink, type RunResult } from '../tasks/eval/records.ts';
import { agentGoal, blockedActionsFor, humanSlots, openingLine, type HumanSlot } from '../tasks/goals.ts';
import { checkTaskForVersion, goalFor, perAgentTargets, TaskError, taskTargets } from '../tasks/loader.ts';
import type { Blueprint, LoadedTask } from '../tasks/schema.ts';
import { validatorFor, type Validation } from '../tasks/validators.ts';
import {
  ANIMALS_EACH,
  blueprintBox,
  COOKING_ANIMALS,
  cookingAnimalCommands,
  cookingBlockCommands,
  cookingFuelCommands,
  cookingLayout,
  fillBoxCommands,
  firstLevel,
  shiftBlueprint,
  type Pos,
} from '../tasks/worlds.ts';

/** The result line of a run: see {@link RunResult} (`src/tasks/eval/records.ts`). */
export type TaskResult = RunResult;

export interface TaskRunOptions {
  task: LoadedTask;
  settings: Settings;
  /** One profile per agent, in agent-index order (at least `agent_count`). */
  profiles: Profile[];
  /** Replaces every profile's model. */
  model?: Profile['model'];
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** `<file key>/<task id>/<episode>`; default from the task file's key and `episode`. */
  runId?: string;
  /** 1-based repetition of the task (default 1). */
  episode?: number;
  /**
   * The run's record folder (`requests/`, `commands.jsonl`, …, see `run-folder.ts`); none when
   * absent. Emptied first.
   */
  folder?: string;
  /** Receives every event of the run as it happens (a live page, a progress bar). */
  onEvent?: (event: RunEvent) => void;
  /** Receives the validator's score (0–1) whenever it changes during play (the dashboard's campaign view). */
  onScore?: (score: number) => void;
  /** Folder of the bots' memory files (default `bots`); evaluations give each worker its own. */
  botsDir?: string;
  /** How long to wait for each of the task's human players to join (ms; default 120 000). */
  humansTimeoutMs?: number;
  /** An agent off the server this long ends the run with score 0 (ms; default 30 000, MINDcraft's rule). */
  missingAgentMs?: number;
  /** Ends the run early: the result has `end_reason: 'interrupted'`. */
  signal?: AbortSignal;
  /**
   * Where the run's bots come from: by default a server and bots started for this run and closed
   * after it; evaluations pass a warm world (`./warm-world.ts`) that keeps them between runs.
   */
  world?: TaskWorld;
  /**
   * A task that cannot be played on the settings' Minecraft version (unknown item or block
   * names) ends at once in a result with `end_reason: 'error'` instead of a TaskError
   * (evaluations: the campaign goes on and the task counts as failed, as in MINDcraft, where the
   * `/give` of an unknown item fails and the task cannot be done).
   */
  unplayableAsResult?: boolean;
  /**
   * Called once set-up is done, before the goals are given (tests build or inspect the world here).
   * A rejection ends the run with `error`.
   */
  onReady?: (ready: TaskReady) => void | Promise<void>;
  /**
   * Called once the goals are given and the opening conversation has started (tests check the
   * play state here). A rejection ends the run with `error`.
   */
  onPlaying?: (ready: TaskReady) => void | Promise<void>;
}

/**
 * The embedded server's world for task runs: superflat, whatever the settings' `world` says
 * (construction blueprints and the cooking world are laid on it). A survival world is started with
 * `{ world: 'survival', seed }`; `findSpot` (../server/embedded.ts) finds a place in it from the
 * seed alone, e.g. a forest for crafting tasks (MineCollab's appendix "Task resetting").
 */
export const TASK_SERVER_WORLD: ServerWorldChoice = { world: 'superflat' };

/**
 * The bots of a run when they are not started for it (see {@link TaskRunOptions.world}).
 */
export interface TaskWorld {
  /**
   * The run's bots: one agent per profile on a server, started as `startAgents` starts them for
   * a run (`fallback: false`), their taps reporting to `events` and their log lines to `log`,
   * in a world as a fresh one would be.
   *
   * @throws ConfigError / ConnectError / Error as `startAgents` does.
   */
  open(request: {
    profiles: Profile[];
    /** The embedded server's world (see {@link TASK_SERVER_WORLD}). */
    serverWorld?: ServerWorldChoice;
    model?: Profile['model'];
    env?: NodeJS.ProcessEnv;
    botsDir?: string;
    events: RunEventSink;
    log: (line: string) => void;
  }): Promise<RunningBots>;
  /**
   * Takes the bots back once the run's result is final. `reusable` is false after an error or a
   * missing agent: the world is then closed rather than kept.
   */
  release(running: RunningBots, reusable: boolean): Promise<void>;
}

/** What {@link TaskRunOptions.onReady} gets. */
export interface TaskReady {
  agents: Agent[];
  /** Construction: the blueprint as placed in this world (see {@link shiftBlueprint}). */
  blueprint?: Blueprint;
  /** The block agent 0 stood in when set-up began (the cooking world's centre). */
  origin: Pos;
}

/** How long each set-up step may take before the run is abandoned (ms). */
const SETUP_TIMEOUT_MS = 15_000;

/** MINDcraft's rule: a run where an agent is missing for this long ends with score 0 (ms). */
export const MISSING_AGENT_MS = 30_000;

/** Default wait for the human players of a task to join (ms). */
export const HUMANS_TIMEOUT_MS = 120_000;

/**
 * Rate of set-up commands from an operator: a burst of 20, then one every 50 ms (20 a second).
 * Operators are exempt from vanilla's chat-spam kick (ServerGamePacketListenerImpl.detectRateSpam
 * skips ops; Spigot and Paper do the same), and set-up needs op anyway. Agents' own chat keeps
 * the default limit of their outbox ({@link ChatOutbox}).
 */
export const SETUP_RATE_LIMIT: RateLimit = { burst: 20, intervalMs: 50 };

/**
 * Loads the profiles of `dir` (the task profiles, `profiles/tasks/`), sorted by file name.
 *
 * @throws TaskError when there are fewer than `count`.
 */
export async function loadTaskProfiles(dir: string, count: number): Promise<Profile[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  if (files.length < count)
    throw new TaskError(
      `${dir}: the task needs ${count} agents but only ${files.length} profiles are there; add profiles (one JSON file per bot).`,
    );
  return Promise.all(files.slice(0, count).map((f) => loadProfile(path.join(dir, f))));
}

/**
 * The world's blocks as `bot` sees them: the block name, or undefined in chunks it has not
 * loaded. Reads state ids directly (no Block objects), cheap enough for a check every tick.
 */
export function botBlockLookup(bot: Bot): BlockLookup {
  const world = bot.world as unknown as { getColumnAt(p: Vec3): unknown; getBlockStateId(p: Vec3): number | null };
  return (x, y, z) => {
    const p = new Vec3(x, y, z);
    if (!world.getColumnAt(p)) return undefined;
    const id = world.getBlockStateId(p);
    return id === null || id === undefined ? undefined : bot.registry.blocksByStateId[id]?.name;
  };
}

/** What {@link checkTask} found. */
export interface TaskCheck {
  /** Things that will be ignored, one line each. */
  warnings: string[];
  /**
   * Why the task cannot be played on the settings' Minecraft version (an item or block name it
   * does not have, e.g. the benchmark's pre-1.14 `rose_red`), if it cannot.
   */
  unplayable?: string;
}

/**
 * Checks a task before anything starts: its human players are consistent, there are enough
 * profiles, and its items and blocks exist in the settings' Minecraft version.
 *
 * @throws TaskError for a human count that does not match `usernames` or too few profiles.
 */
export function checkTask(task: LoadedTask, settings: Settings, profiles: number): TaskCheck {
  humanSlots(task);
  if (profiles < task.agent_count) throw new TaskError(`task "${task.id}" needs ${task.agent_count} agents; ${profiles} profiles given`);
  try {
    return { warnings: checkTaskForVersion(task, gameData(settings.minecraft_version)) };
  } catch (err) {
    if (err instanceof TaskError) return { warnings: [], unplayable: err.message };
    throw err;
  }
}

/** A run ending: why, and the last validation. */
interface Ending {
  reason: EndReason;
  outcome: Validation;
  error?: string;
}

/**
 * Runs `options.task` and resolves with its result. Bad input (unknown items or blocks unless
 * `unplayableAsResult`, a human count that does not match `usernames`, too few profiles, a model
 * that cannot be used: never a silent fall back to the oracle) rejects with a TaskError or
 * ConfigError before anything starts; any later failure ends in a result with `success: false`,
 * an `end_reason` and an `error`, never a rejection.
 *
 * The task's validator ({@link validatorFor}, by `type`) runs every game tick of agent 0's bot;
 * the first success ends the run at once. At the timeout the run ends with the last check's score.
 */
export async function runTask(options: TaskRunOptions): Promise<TaskResult> {
  const { task, settings } = options;
  const log =
    options.log ??
    ((line: string) => {
      process.stderr.write(`${line}\n`);
    });
  const check = checkTask(task, settings, options.profiles.length);
  if (check.unplayable && !options.unplayableAsResult) throw new TaskError(check.unplayable);
  for (const warning of check.warnings) log(`Task ${task.id}: ${warning}`);
  const humans = humanSlots(task);
  const started = Date.now();
  const episode = options.episode ?? 1;
  const runId = options.runId ?? `${fileKeys([task.file]).get(task.file)}/${task.id}/${episode}`;
  const picked = options.profiles.slice(0, task.agent_count);
  requireUsableModels(
    picked.map((p) => ({ owner: options.model !== undefined ? '--model' : `profile "${p.name}"`, spec: options.model ?? p.model })),
    options.env,
  );
  // The task's domain layer (profiles/tasks/domains/: its prompts and examples) under each bot's own keys.
  const profiles = await withTaskDomain(picked, task.type);
  const folder = options.folder ? await RunFolder.create(options.folder) : undefined;
  const recorder = new RunRecorder(Object.fromEntries(profiles.map((p) => [p.name, modelName(options.model ?? p.model)])), {
    prices: settings.model_prices,
    forward: (event) => {
      folder?.write(event);
      options.onEvent?.(event);
    },
  });
  recorder.emit({ type: 'phase', t: started, phase: 'setup' });
  let playing: number | undefined;
  const goals: Record<string, string> = {};
  const failed: Validation = { success: false, score: 0 };

  const finish = async (ending: Ending, agents: Agent[], blueprint?: Blueprint): Promise<TaskResult> => {
    const ended = Date.now();
    recorder.emit({ type: 'phase', t: ended, phase: 'end', detail: `${ending.reason} ${ending.outcome.score}` });
    const perAgent = Object.fromEntries(profiles.map((p) => [p.name, recorder.stats(p.name)]));
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    const result: TaskResult = {
      run_id: runId,
      task_id: task.id,
      task_file: task.file,
      episode,
      type: task.type,
      agent_count: task.agent_count,
      human_count: humans.length,
      ...taskConditions(task),
      score: ending.outcome.score,
      success: ending.outcome.success,
      end_reason: ending.reason,
      ...(ending.error ? { error: ending.error } : {}),
      ...unsolvableReason(agents),
      timeout_s: task.timeout,
      duration_s: seconds(ended - started),
      setup_s: seconds((playing ?? ended) - started),
      play_s: seconds(playing === undefined ? 0 : ended - playing),
      started_at: new Date(started).toISOString(),
      agents: profiles.map((p) => p.name),
      models: Object.fromEntries(profiles.map((p, i) => [p.name, agents[i]?.model.id ?? perAgent[p.name]!.model])),
      goals,
      commands: Object.fromEntries(profiles.map((p, i) => [p.name, [...(agents[i]?.commandLog ?? [])]])),
      per_agent: perAgent,
      ...totals(perAgent),
    };
    if (folder) {
      const lookup = agents[0] ? botBlockLookup(agents[0].bot) : undefined;
      await folder
        .finish({
          result,
          inventories: Object.fromEntries(agents.map((a) => [a.name, safeInventory(a.bot)])),
          blueprintDiff: blueprint && lookup ? diffLines(checkBlueprint(blueprint, lookup)) : undefined,
        })
        .catch((err: Error) => log(`Could not write the run's records to ${folder.dir}: ${err.message}`));
    }
    return result;
  };

  if (check.unplayable) return finish({ reason: 'error', outcome: failed, error: `not played: ${check.unplayable}` }, []);
  if (options.signal?.aborted) return finish({ reason: 'interrupted', outcome: failed }, []);
  let running: RunningBots;
  try {
    running = options.world
      ? await options.world.open({
          profiles,
          serverWorld: TASK_SERVER_WORLD,
          model: options.model,
          env: options.env,
          botsDir: options.botsDir,
          events: recorder,
          log,
        })
      : await startAgents({
          settings,
          serverWorld: TASK_SERVER_WORLD,
          profiles,
          model: options.model,
          port: settings.server === 'embedded' ? 0 : undefined,
          env: options.env,
          log,
          fallback: false,
          events: recorder,
          botsDir: options.botsDir,
        });
  } catch (err) {
    // Bad input found by startAgents (a model that cannot be used) is the caller's to report.
    if (err instanceof ConfigError) throw err;
    const missing = err instanceof ConnectError;
    return finish(
      {
        reason: missing ? 'missing_agent' : 'error',
        outcome: failed,
        error: `${missing ? 'No other agents found: ' : ''}${(err as Error).message}`,
      },
      [],
    );
  }
  const { agents } = running;
  let last = failed;
  let placed: Blueprint | undefined;
  let reusable = false;
  const stop = new AbortController();
  const abort = () => stop.abort();
  // The signal may have fired while the bots joined.
  if (options.signal?.aborted) abort();
  else options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const { blueprint, origin } = await setUp(task, agents, humans, {
      log,
      humansTimeoutMs: options.humansTimeoutMs ?? HUMANS_TIMEOUT_MS,
      signal: stop.signal,
    });
    placed = blueprint;
    // The validator checks the world as placed (a construction blueprint may have been moved).
    const validate = validatorFor(blueprint ? { ...task, blueprint } : task);
    const names = { agents: agents.map((a) => a.name), humans: humans.map((h) => h.username) };
    assignTasks(task, agents, blueprint, names, goals);
    await options.onReady?.({ agents, blueprint, origin });
    if (stop.signal.aborted) return await finish({ reason: 'interrupted', outcome: failed }, agents, blueprint);
    playing = Date.now();
    recorder.emit({ type: 'phase', t: playing, phase: 'play' });
    // Each agent's goal starts its goal loop (MINDcraft: `!goal("...")`, whose first self-prompt
    // runs at once; ours would wait for the idle delay, so the first one is given here); then
    // agent 0 opens the conversation with the first other agent.
    for (const agent of agents) {
      agent.setGoal(goals[agent.name]!);
      agent.receive({ from: 'system', channel: 'system', text: agent.selfPrompter.promptText() });
    }
    if (humans.length) whisperGoals(agents[0]!, task, humans, names);
    const opening = openingLine(task, blueprint);
    if (agents.length > 1 && opening) await agents[0]!.startConversation(agents[1]!.name, opening);
    await options.onPlaying?.({ agents, blueprint, origin });
    const ending = await play(task, agents, running, validate, {
      missingAgentMs: options.missingAgentMs ?? MISSING_AGENT_MS,
      signal: stop.signal,
      onCheck: (v) => {
        if (v.score !== last.score || last === failed) options.onScore?.(v.score);
        last = v;
      },
    });
    // A run that ended by its own rules leaves a world a warm world can reset.
    reusable = ending.reason === 'success' || ending.reason === 'timeout';
    log(
      ending.reason === 'success'
        ? `Task ${task.id} succeeded.`
        : ending.reason === 'timeout'
          ? `Task ${task.id} timed out after ${task.timeout} s with score ${ending.outcome.score}.`
          : `Task ${task.id} ended (${ending.reason}): ${ending.error ?? ''}`,
    );
    return await finish(ending, agents, blueprint);
  } catch (err) {
    if (stop.signal.aborted) return await finish({ reason: 'interrupted', outcome: last }, agents, placed);
    const missing = err instanceof MissingPlayerError;
    return await finish(
      { reason: missing ? 'missing_agent' : 'error', outcome: missing ? failed : last, error: (err as Error).message },
      agents,
      placed,
    );
  } finally {
    options.signal?.removeEventListener('abort', abort);
    if (options.world) await options.world.release(running, reusable);
    else await running.close();
  }
}

/** A spec's model id for records before the model exists: `oracle` or `provider/model`. */
function modelName(spec: Profile['model']): string {
  if (spec === 'oracle') return spec;
  try {
    return parseModelSpec(spec).id;
  } catch {
    return typeof spec === 'string' ? spec : spec.model;
  }
}

/** A bot's inventory, or nothing when the bot has already left. */
function safeInventory(bot: Bot): Record<string, number> {
  try {
    return inventoryCounts(bot);
  } catch {
    return {};
  }
}

/** A task's human player did not join in time. */
class MissingPlayerError extends Error {}

/**
 * Plays until success, the timeout, a missing agent or the signal: the validator runs on every
 * game tick of agent 0's bot; presence is checked every second.
 */
function play(
  task: LoadedTask,
  agents: Agent[],
  running: RunningBots,
  validate: ReturnType<typeof validatorFor>,
  options: { missingAgentMs: number; signal: AbortSignal; onCheck: (v: Validation) => void },
): Promise<Ending> {
  const bot = agents[0]!.bot;
  const state = { inventories: () => agents.map((a) => safeInventory(a.bot)), lookup: botBlockLookup(bot) };
  return new Promise<Ending>((resolve) => {
    let latest: Validation = { success: false, score: 0 };
    let done = false;
    const missingSince = new Map<string, number>();
    const end = (ending: Omit<Ending, 'outcome'> & { outcome?: Validation }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(presence);
      bot.off('physicsTick', check);
      options.signal.removeEventListener('abort', interrupted);
      resolve({ outcome: latest, ...ending });
    };
    const check = () => {
      if (done || !validate) return;
      try {
        latest = validate(state);
      } catch {
        return; // a bot mid-reconnect: check again next tick
      }
      options.onCheck(latest);
      if (latest.success) end({ reason: 'success' });
    };
    const interrupted = () => end({ reason: 'interrupted' });
    const timer = setTimeout(() => {
      check();
      end({ reason: 'timeout' });
    }, task.timeout * 1000);
    const presence = setInterval(
      () => {
        const now = Date.now();
        running.sessions.forEach((session, i) => {
          const name = agents[i]!.name;
          if (session.online) {
            missingSince.delete(name);
            return;
          }
          const since = missingSince.get(name) ?? now;
          missingSince.set(name, since);
          if (now - since >= options.missingAgentMs) {
            end({
              reason: 'missing_agent',
              outcome: { success: false, score: 0 },
              error: `No other agents found: ${name} has been off the server for ${Math.round(options.missingAgentMs / 1000)} s`,
            });
          }
        });
      },
      Math.min(1000, options.missingAgentMs / 4),
    );
    if (options.signal.aborted) return interrupted();
    options.signal.addEventListener('abort', interrupted, { once: true });
    bot.on('physicsTick', check);
    check();
  });
}

/**
 * Gives every agent its part of the task ({@link Agent.setTask}): its goal (MINDcraft's text, see
 * `agentGoal`), blocked actions (the task's, plus `!endGoal` and `!endConversation`), item
 * targets, the blueprint and `restrict_to_inventory`. Hell's Kitchen agents get only their own
 * target; construction agents get no item targets and the blueprint instead.
 *
 * @param goals filled with each agent's goal text.
 */
function assignTasks(
  task: LoadedTask,
  agents: Agent[],
  blueprint: Blueprint | undefined,
  names: { agents: string[]; humans: string[] },
  goals: Record<string, string>,
): void {
  const targets = taskTargets(task);
  const own = perAgentTargets(task);
  agents.forEach((agent, i) => {
    const goal = agentGoal(task, i, names, blueprint);
    goals[agent.name] = goal;
    const common = { goal, blockedActions: blockedActionsFor(task, i), restrictToInventory: task.restrict_to_inventory === true };
    if (blueprint) {
      agent.setTask({ ...common, blueprint });
    } else if (own) {
      const item = own[String(i)];
      agent.setTask({ ...common, targets: item ? { [item]: targets[item] ?? 1 } : undefined });
    } else {
      agent.setTask({ ...common, targets: task.type === 'techtree' || task.type === 'cooking' ? targets : undefined });
    }
  });
}

/**
 * Whispers each human player their goal (the goal map's entry after the agents', else the
 * task's goal) and who they play with, from agent 0.
 */
function whisperGoals(first: Agent, task: LoadedTask, humans: HumanSlot[], names: { agents: string[]; humans: string[] }): void {
  const outbox = new ChatOutbox((line) => first.bot.chat(line), SETUP_RATE_LIMIT);
  humans.forEach((human, i) => {
    const others = [...names.agents, ...names.humans.filter((n) => n !== human.username)];
    outbox.whisper(human.username, `Your goal: ${goalFor(task, task.agent_count + i)} You play with ${others.join(', ')}.`);
  });
  // The lines are queued; close once they have gone (the outbox sends its burst at once).
  setTimeout(() => outbox.close(), 5_000).unref();
}

/** How long an ordered set-up command may go without feedback before the next is sent (ms). */
const FEEDBACK_WAIT_MS = 500;

/** Sends set-up op commands for one bot. */
interface Commander {
  /** Sends `lines` through a fast outbox ({@link SETUP_RATE_LIMIT}), without waiting. */
  send(lines: string[]): void;
  /**
   * Sends `lines` one at a time, each after the previous one's feedback line (or after
   * {@link FEEDBACK_WAIT_MS} without one, e.g. on a server with `sendCommandFeedback` off). Use it
   * when commands overlap: some servers (flying-squid) run commands concurrently, so a `/fill` of
   * grass could otherwise land after the farmland that should replace it.
   */
  sendInOrder(lines: string[]): Promise<void>;
  close(): void;
}

function commander(bot: Bot): Commander {
  const outbox = new ChatOutbox((line) => bot.chat(line), SETUP_RATE_LIMIT);
  const feedback = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        bot.off('messagestr', onMessage);
        resolve();
      };
      const onMessage = (_text: string, position: string) => {
        if (position === 'system' || position === 'game_info') done();
      };
      const timer = setTimeout(done, FEEDBACK_WAIT_MS);
      bot.on('messagestr', onMessage);
    });
  return {
    send: (lines) => lines.forEach((l) => outbox.raw(l)),
    async sendInOrder(lines) {
      for (const line of lines) {
        const answered = feedback();
        outbox.raw(line);
        await answered;
      }
    },
    close: () => outbox.close(),
  };
}

async function must(what: string, check: () => boolean): Promise<void> {
  if (!(await waitFor(check, SETUP_TIMEOUT_MS))) throw new Error(`set-up failed: ${what} (is the bot an operator on this server?)`);
}

/** How far around a point {@link groundLevel} looks, and the spacing of the columns it reads (blocks). */
const GROUND_RADIUS = 16;
const GROUND_STEP = 2;

/**
 * The natural ground height around `at`: in each column of a square of {@link GROUND_RADIUS}
 * blocks around it (every {@link GROUND_STEP} blocks), going up from the bottom of the world, the
 * first block that is not a full block once solid ground has begun (the air above a flat world's
 * surface); the height most columns give (the lowest of equals). Buildings standing on the
 * ground, also one under `at` itself (a bot that spawned on a table: flying-squid puts players on
 * top of whatever is at a random spot), cover few of the columns and do not count. Meant for flat
 * worlds, as construction tasks are.
 *
 * @param bot what reads the world: mineflayer's `blockAt` and the dimension's height.
 * @returns undefined when no column around `at` is loaded.
 */
export function groundLevel(bot: Pick<Bot, 'blockAt' | 'game'>, at: Pos): number | undefined {
  const game = bot.game as { minY?: number; height?: number };
  const minY = game.minY ?? 0;
  const maxY = minY + (game.height ?? 384);
  const column = (x: number, z: number): number | undefined => {
    let solidBelow = false;
    for (let y = minY; y < maxY; y++) {
      const block = bot.blockAt(new Vec3(x, y, z));
      if (!block) return undefined;
      const solid = block.boundingBox === 'block';
      if (solidBelow && !solid) return y;
      solidBelow ||= solid;
    }
    return undefined;
  };
  const votes = new Map<number, number>();
  for (let dx = -GROUND_RADIUS; dx <= GROUND_RADIUS; dx += GROUND_STEP) {
    for (let dz = -GROUND_RADIUS; dz <= GROUND_RADIUS; dz += GROUND_STEP) {
      const y = column(at.x + dx, at.z + dz);
      if (y !== undefined) votes.set(y, (votes.get(y) ?? 0) + 1);
    }
  }
  let best: [number, number] | undefined;
  for (const [y, n] of votes) if (!best || n > best[1] || (n === best[1] && y < best[0])) best = [y, n];
  return best?.[0];
}

/** Options of {@link setUp}. */
interface SetUpOptions {
  log: (line: string) => void;
  humansTimeoutMs: number;
  signal: AbortSignal;
}

/**
 * Clears and fills inventories (the agents', and the human players' once they have joined);
 * builds the cooking world or clears the construction site; brings the agents together
 * (construction: onto level 0) and the human players to them. Every step waits until agent 0's
 * bot sees its effect. All through op commands in chat.
 *
 * @throws MissingPlayerError when a human player does not join within `humansTimeoutMs`.
 */
async function setUp(
  task: LoadedTask,
  agents: Agent[],
  humans: HumanSlot[],
  options: SetUpOptions,
): Promise<{ blueprint?: Blueprint; origin: Pos }> {
  const first = agents[0]!;
  const feet = first.bot.entity.position.floored();
  const origin: Pos = { x: feet.x, y: feet.y, z: feet.z };
  const commanders = agents.map((a) => commander(a.bot));
  try {
    if (humans.length) await waitForHumans(first.bot, humans, options);
    await Promise.all(
      agents.map(async (agent, i) => {
        const { bot, name } = agent;
        const wanted = task.initial_inventory[String(i)] ?? {};
        commanders[i]!.send([`/clear ${name}`]);
        await must(`could not clear ${name}'s inventory`, () => bot.inventory.items().length === 0);
        commanders[i]!.send(Object.entries(wanted).map(([item, count]) => `/give ${name} ${item} ${count}`));
        await must(`${name}'s initial inventory did not arrive (wanted ${JSON.stringify(wanted)})`, () =>
          Object.entries(wanted).every(([item, n]) => inventoryCounts(bot)[item] === n),
        );
      }),
    );
    // Human players: agent 0 clears their inventories and gives them theirs (MINDcraft does the same).
    for (const human of humans) {
      await commanders[0]!.sendInOrder([
        `/clear ${human.username}`,
        ...Object.entries(human.inventory).map(([item, count]) => `/give ${human.username} ${item} ${count}`),
      ]);
    }
    let blueprint: Blueprint | undefined;
    let meeting: Pos;
    if (task.type === 'construction' && task.blueprint) {
      // Level 0 sits on the natural ground (vanilla superflat: y = -60, as the blueprints assume),
      // which structures built on it, unlike agent 0's feet, do not change.
      const ground = groundLevel(first.bot, origin) ?? origin.y;
      blueprint = shiftBlueprint(task.blueprint, ground - firstLevel(task.blueprint).coordinates[1]);
      const [x, y, z] = firstLevel(blueprint).coordinates;
      await teleportAll(agents, commanders, (i) => ({ x: x + 2 * i, y, z }));
      await clearSite(first.bot, commanders[0]!, blueprint);
      // Humans stand beside the site, not in it (MINDcraft: 5 blocks past its far x side).
      meeting = { x: blueprintBox(blueprint).max.x + 5, y, z };
    } else {
      if (task.type === 'cooking') await buildCookingWorld(first.bot, commanders[0]!, origin);
      await teleportAll(agents.slice(1), commanders.slice(1), (i) => ({ x: origin.x + 2 * (i + 1), y: origin.y, z: origin.z }));
      meeting = { x: origin.x, y: origin.y, z: origin.z + 2 };
    }
    await bringHumans(first.bot, commanders[0]!, humans, meeting);
    options.log(
      `Set up ${agents.length} agents${humans.length ? ` and ${humans.length} player(s)` : ''} for ${task.id}${task.type === 'cooking' ? ' in the cooking world' : blueprint ? ' at the construction site' : ''}.`,
    );
    return { blueprint, origin };
  } finally {
    commanders.forEach((c) => c.close());
  }
}

/**
 * Waits until every human player of the task is on the server (in agent 0's player list).
 *
 * @throws MissingPlayerError naming the players still missing after `humansTimeoutMs`.
 */
async function waitForHumans(bot: Bot, humans: HumanSlot[], options: SetUpOptions): Promise<void> {
  const missing = () => humans.filter((h) => !bot.players[h.username]).map((h) => h.username);
  if (missing().length) options.log(`Waiting up to ${Math.round(options.humansTimeoutMs / 1000)} s for ${missing().join(', ')} to join.`);
  const joined = await waitFor(() => missing().length === 0 || options.signal.aborted, options.humansTimeoutMs);
  if (options.signal.aborted) throw new Error('interrupted');
  if (!joined)
    throw new MissingPlayerError(
      `No other agents found: human player(s) ${missing().join(', ')} did not join within ${Math.round(options.humansTimeoutMs / 1000)} s`,
    );
}

/** Teleports each human player to `to` (side by side) and waits until agent 0 sees them there. */
async function bringHumans(bot: Bot, commands: Commander, humans: HumanSlot[], to: Pos): Promise<void> {
  await Promise.all(
    humans.map(async (human, i) => {
      const p = { x: to.x + 2 * i + 0.5, y: to.y, z: to.z + 0.5 };
      commands.send([`/tp ${human.username} ${p.x} ${p.y} ${p.z}`]);
      const target = new Vec3(p.x, p.y, p.z);
      await must(`${human.username} was not brought to (${to.x + 2 * i}, ${to.y}, ${to.z})`, () => {
        const entity = bot.players[human.username]?.entity;
        return entity !== undefined && entity.position.distanceTo(target) < 1.5;
      });
    }),
  );
}

async function teleportAll(agents: Agent[], commanders: Commander[], to: (i: number) => Pos): Promise<void> {
  await Promise.all(
    agents.map(async (agent, i) => {
      const p = to(i);
      commanders[i]!.send([`/tp ${agent.name} ${p.x + 0.5} ${p.y} ${p.z + 0.5}`]);
      await must(
        `${agent.name} was not teleported to (${p.x}, ${p.y}, ${p.z})`,
        () => agent.bot.entity.position.distanceTo(new Vec3(p.x + 0.5, p.y, p.z + 0.5)) < 1.5,
      );
    }),
  );
}

/** Empties the blueprint's volume with `/fill air` and waits until the bot sees it empty. */
async function clearSite(bot: Bot, commands: Commander, blueprint: Blueprint): Promise<void> {
  const box = blueprintBox(blueprint);
  commands.send(fillBoxCommands(box, 'air'));
  const lookup = botBlockLookup(bot);
  await must('the construction site was not cleared', () => {
    for (let x = box.min.x; x <= box.max.x; x++)
      for (let y = box.min.y; y <= box.max.y; y++)
        for (let z = box.min.z; z <= box.max.z; z++) {
          if (lookup(x, y, z) !== 'air') return false;
        }
    return true;
  });
}

/**
 * Builds the cooking world around `origin` ({@link cookingBlockCommands}), then fuels the furnace
 * and smoker and summons the animals once the blocks are there.
 */
async function buildCookingWorld(bot: Bot, commands: Commander, origin: Pos): Promise<void> {
  const layout = cookingLayout(origin);
  const nameAt = (p: Pos) => bot.blockAt(new Vec3(p.x, p.y, p.z))?.name;
  const lastCrop = layout.crops.at(-1)!.box.max;
  await commands.sendInOrder(cookingBlockCommands(origin));
  await must(
    'the cooking world was not built',
    () =>
      nameAt(layout.smoker) === 'smoker' &&
      nameAt(layout.bed.head) === 'red_bed' &&
      nameAt(lastCrop) === 'beetroots' &&
      nameAt(layout.sugarCane.at(-1)!) === 'sugar_cane' &&
      nameAt(layout.mushrooms.at(-1)!.pos) === 'brown_mushroom',
  );
  commands.send([...cookingFuelCommands(origin), ...cookingAnimalCommands(origin)]);
  const centre = new Vec3(origin.x, origin.y, origin.z);
  await must('the animals did not appear', () =>
    COOKING_ANIMALS.every(
      (type) => Object.values(bot.entities).filter((e) => e.name === type && e.position.distanceTo(centre) < 48).length >= ANIMALS_EACH,
    ),
  );
}

/**
 * Appends `result` as one JSON line to `<dir>/results.jsonl` (the folder is made if needed).
 *
 * @returns the file written.
 */
export async function appendResult(dir: string, result: TaskResult): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'results.jsonl');
  await appendFile(file, `${JSON.stringify(result)}\n`);
  return file;
}

/** The run folder of `result` under an output folder (`<dir>/runs/<run folder>`). */
export function runFolderOf(dir: string, runId: string): string {
  return path.join(dir, 'runs', runFolder(runId));
}

/** `{ unsolvable: reason }` when an agent's policy found the task cannot be done, else `{}`. */
function unsolvableReason(agents: Agent[]): { unsolvable?: string } {
  const reason = agents.map((a) => a.model.unsolvable).find((r) => r !== undefined);
  return reason === undefined ? {} : { unsolvable: reason };
}
