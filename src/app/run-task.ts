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
import { withServerVersion } from '../client/server-version.ts';
import { appendFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Agent } from '../agent/agent.ts';
import type { CommandContext } from '../commands/context.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import { ConnectError } from '../agent/bot.ts';
import { requireUsableModels } from '../agent/model-choice.ts';
import { parseModelSpec } from '../models/spec.ts';
import { startAgents, type RunningBots, type ServerWorldChoice } from './start-bots.ts';
import { RunFolder } from './run-folder.ts';
import { gameData } from '../game/data.ts';
import { ConfigError, loadProfile, withTaskDomain, type Coordination, type Profile, type Settings } from '../settings/index.ts';
import { checkBlueprint, diffLines } from '../tasks/blueprint.ts';
import { fileKeys, runFolder, runIdOf, taskConditions } from '../tasks/eval/campaign.ts';
import { RunRecorder, totals, type RunEvent, type RunEventSink, type RunResult } from '../tasks/eval/records.ts';
import { humanSlots } from '../tasks/goals.ts';
import { strategyFor } from '../coordination/strategies.ts';
import { resultMetrics } from '../coordination/metrics.ts';
import { checkTaskForVersion, TaskError } from '../tasks/loader.ts';
import type { Blueprint, LoadedTask } from '../tasks/schema.ts';
import { validatorFor, type Validation } from '../tasks/validators.ts';
import type { Pos } from '../tasks/worlds.ts';
import { botBlockLookup, MISSING_AGENT_MS, play, safeInventory, type Ending } from './task-play.ts';
import { assignTasks, HUMANS_TIMEOUT_MS, MissingPlayerError, setUp, whisperGoals } from './task-setup.ts';
import { findTaskSpot, taskServerWorld, taskWorldSeed, type TaskSpot } from './task-spot.ts';
import { SurvivalGenerator } from '../server/worldgen/generator.ts';

/** The result line of a run: see {@link RunResult} (`src/tasks/eval/records.ts`). */
export type TaskResult = RunResult;

export interface TaskRunOptions {
  task: LoadedTask;
  settings: Settings;
  /** One profile per agent, in agent-index order (at least `agent_count`). */
  profiles: Profile[];
  /** Replaces every profile's model. */
  model?: Profile['model'];
  /** How the team works together (default: the settings' `coordination`). */
  coordination?: Coordination;
  /** Every command the agents may have (default: all of them); the task, settings and profiles narrow it. */
  commands?: CommandRegistry<CommandContext>;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** `<file key>/<task id>/[<coordination>/]<episode>`; default from the task file's key, the coordination and `episode` (`runIdOf`). */
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
 * The embedded server's world for cooking and construction runs: superflat, whatever the settings'
 * `world` says (construction blueprints and the cooking world are laid on it). Crafting and
 * collection runs play in the survival world of the settings' seed, at a spot found for the task
 * (`taskServerWorld`, `findTaskSpot`: ./task-spot.ts).
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
    commands?: CommandRegistry<CommandContext>;
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
  // An "auto" version is the server's (src/client/server-version.ts): the task's items are checked for it.
  const versioned = await withServerVersion(settings);
  const check = checkTask(task, versioned, options.profiles.length);
  const coordination = options.coordination ?? settings.coordination;
  const strategy = strategyFor(coordination);
  if (check.unplayable && !options.unplayableAsResult) throw new TaskError(check.unplayable);
  for (const warning of check.warnings) log(`Task ${task.id}: ${warning}`);
  const humans = humanSlots(task);
  const started = Date.now();
  const episode = options.episode ?? 1;
  const runId = options.runId ?? runIdOf(fileKeys([task.file]).get(task.file)!, task.id, episode, coordination);
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
  let worldRecord: TaskResult['world'];
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
      coordination,
      ...(worldRecord ? { world: worldRecord } : {}),
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
      metrics: {
        ...resultMetrics(recorder.metricsInput(), {
          score: ending.outcome.score,
          wallMs: playing === undefined ? 0 : ended - playing,
          agents: profiles.map((p) => p.name),
          limitMs: task.timeout * 1000,
          coordination,
          ruleChecks: settings.rule_checked_edges,
        }),
        // The task's own metrics by name (VillagerBench: vhr, acr, rooms_done...).
        ...ending.outcome.metrics,
      },
      // What the judgement rests on (VillagerBench construction: the five views, for report.html).
      ...(ending.outcome.detail ? { judged: ending.outcome.detail } : {}),
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
  // Crafting and collection: the survival world, at a spot that holds what the task needs.
  const data = gameData(versioned.minecraft_version);
  const serverWorld = settings.server === 'embedded' ? taskServerWorld(data, task, taskWorldSeed(settings)) : TASK_SERVER_WORLD;
  let spot: TaskSpot | undefined;
  if (serverWorld.world === 'survival') {
    try {
      spot = findTaskSpot(new SurvivalGenerator(serverWorld.seed!), data, task, episode);
    } catch (err) {
      return finish({ reason: 'error', outcome: failed, error: `no spot for the task: ${(err as Error).message}` }, []);
    }
    worldRecord = {
      kind: 'survival',
      seed: serverWorld.seed!,
      spot: { x: spot.x, y: spot.y, z: spot.z, biome: spot.biome },
      holds_needs: spot.holdsNeeds,
    };
    log(
      `Task ${task.id}: survival world ${serverWorld.seed}, spot ${spot.x}, ${spot.y}, ${spot.z} (${spot.biome})${spot.holdsNeeds ? '' : ', which does not hold all the task needs'}.`,
    );
  }
  let running: RunningBots;
  try {
    running = options.world
      ? await options.world.open({
          profiles,
          serverWorld,
          model: options.model,
          ...(options.commands ? { commands: options.commands } : {}),
          env: options.env,
          botsDir: options.botsDir,
          events: recorder,
          log,
        })
      : await startAgents({
          settings,
          serverWorld,
          profiles,
          model: options.model,
          port: settings.server === 'embedded' ? 0 : undefined,
          env: options.env,
          log,
          fallback: false,
          events: recorder,
          botsDir: options.botsDir,
          ...(options.commands ? { commands: options.commands } : {}),
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
  /** Stops the coordination strategy once the run has ended. */
  const teamStop = new AbortController();
  const abort = () => stop.abort();
  // The signal may have fired while the bots joined.
  if (options.signal?.aborted) abort();
  else options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const {
      blueprint,
      origin,
      task: played = task,
    } = await setUp(task, agents, humans, {
      log,
      humansTimeoutMs: options.humansTimeoutMs ?? HUMANS_TIMEOUT_MS,
      signal: stop.signal,
      ...(spot ? { stands: spot.stands } : {}),
    });
    placed = blueprint;
    // The validator checks the world as placed (a construction blueprint may have been moved).
    // A VillagerBench task comes back as placed (its blocks or rooms where the set-up put them).
    const validate = validatorFor(blueprint ? { ...played, blueprint } : played);
    const names = { agents: agents.map((a) => a.name), humans: humans.map((h) => h.username) };
    assignTasks(played, agents, blueprint, names, goals, { mobs: spot?.mobs ?? [], ores: spot?.ores ?? [] });
    await options.onReady?.({ agents, blueprint, origin });
    if (stop.signal.aborted) return await finish({ reason: 'interrupted', outcome: failed }, agents, blueprint);
    playing = Date.now();
    recorder.emit({ type: 'phase', t: playing, phase: 'play' });
    // The coordination strategy puts the team to work (chat: each agent's goal loop and agent 0's
    // opening line, as MINDcraft does); it stops when the run ends.
    const team = await strategy.start({
      task,
      agents,
      blueprint,
      goals,
      planner: agents[0]?.model.id === 'oracle' ? undefined : agents[0]?.model,
      ruleChecks: settings.rule_checked_edges,
      record: (event) => recorder.emit({ type: 'graph', t: Date.now(), ...event }),
      signal: teamStop.signal,
      log,
    });
    if (humans.length) whisperGoals(agents[0]!, task, humans, names);
    await options.onPlaying?.({ agents, blueprint, origin });
    const ending = await play(task, agents, running, validate, {
      missingAgentMs: options.missingAgentMs ?? MISSING_AGENT_MS,
      signal: stop.signal,
      teamEnded: team.ended,
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
    teamStop.abort();
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
