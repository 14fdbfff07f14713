/**
 * `npm run eval`: runs every task of the given task files, N episodes each, on P workers, each
 * worker on its own embedded server (kept warm between runs of the same agents and reset after
 * each, see `./warm-world.ts`; a fresh one per run with `warmWorlds: false`) or on one of the
 * given external servers; keeps every finished run's result line in `<out>/results.jsonl` and its
 * records in `<out>/runs/<run>/`; at the end writes `summary.csv` and `report.html`.
 *
 * Everything that can be wrong with the input (a missing or invalid task file, too few profiles, a
 * model that cannot be used, an output folder that holds another evaluation) is found before any
 * server starts (TaskError / ConfigError). A task that cannot be played on the Minecraft version
 * (an item it names does not exist there) is announced up front and recorded as a run ending in
 * `error` with score 0, without a server. Stopping (the signal: Ctrl-C) ends
 * the runs in progress without recording them, keeps the finished ones, and still writes the
 * summary; `resume` skips the runs `results.jsonl` already has.
 *
 * The same campaign can also run as jobs on a Redis queue, played by workers on any machine
 * (`src/app/queue/`); both use this module's planning, run and summary functions.
 */
import { withServerVersion } from '../client/server-version.ts';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { requireUsableModels } from '../agent/model-choice.ts';
import { ConfigError, type Coordination, type Profile, type Settings } from '../settings/index.ts';
import { planCampaign, runFolder, type PlannedRun } from '../tasks/eval/campaign.ts';
import { parseResults, type GraphEvent, type RunResult } from '../tasks/eval/records.ts';
import { reportHtml } from '../tasks/eval/report.ts';
import { formatSummary, summarise, summaryCsv, type SummaryRow } from '../tasks/eval/summary.ts';
import { formatVillagerSummary, villagerSummary } from '../tasks/eval/villager-summary.ts';
import { appendResult, checkTask, loadTaskProfiles, runFolderOf, runTask, type TaskWorld } from './run-task.ts';
import { WarmWorld } from './warm-world.ts';
import type { CampaignBoard } from './dashboard/campaign.ts';

/** An external server to play on (`--servers host:port,...`). */
export interface ServerAddressOption {
  host: string;
  port: number;
}

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  /** Task files or folders of task files. */
  inputs: string[];
  /** Regular expression over task ids (`--ids`). */
  ids?: string;
  /** Runs per task and strategy (default 1). */
  episodes?: number;
  /** Coordination strategies to play every task with (`--coordination chat,dag`; default: the settings' one). */
  coordinations?: Coordination[];
  /** Caps every task's timeout (s, `--max-timeout`; see `CampaignOptions.maxTimeoutS`). */
  maxTimeoutS?: number;
  /** Agents per run of the VillagerBench tasks (`--agents`; see `CampaignOptions.agents`). */
  agents?: number;
  /** Workers running at once (default 1). */
  parallel?: number;
  /** Replaces every profile's model (`--model`). */
  model?: Profile['model'];
  /** The output folder: results.jsonl, runs/, summary.csv, report.html. */
  out: string;
  /** Skip the runs already in `<out>/results.jsonl` (default false: such a folder is refused). */
  resume?: boolean;
  /** External servers, one per worker at least; default: an embedded server per worker. */
  servers?: ServerAddressOption[];
  /**
   * Keep each worker's embedded server and bots between runs of the same agents, resetting what a
   * run changed (default true; see `./warm-world.ts`); false starts a fresh world for every run.
   */
  warmWorlds?: boolean;
  settings: Settings;
  /** The task profiles' folder (default `profiles/tasks`). */
  profilesDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Wait for a task's human players (ms). */
  humansTimeoutMs?: number;
  /** Lines about the evaluation (the runs' own logs go to `<out>/eval.log`). */
  log?: (line: string) => void;
  /** Called after every finished run and when a run starts. */
  onProgress?: (progress: EvaluationProgress) => void;
  /**
   * The dashboard's view of the campaign (`--dashboard`): told the runs planned, each run's start
   * (agents, timeout), its score as it changes, and its end with its records folder.
   */
  board?: CampaignBoard;
  /** Ctrl-C: stop starting runs, end the running ones unrecorded, keep what is finished. */
  signal?: AbortSignal;
}

/** What {@link EvaluateOptions.onProgress} gets. */
export interface EvaluationProgress {
  /** Runs this invocation has to make (resumed ones excluded). */
  total: number;
  done: number;
  successes: number;
  /** Input + output tokens of the finished runs. */
  tokens: number;
  running: number;
  /** The run just finished, if any. */
  last?: RunResult;
}

/** What {@link evaluate} resolves with. */
export interface Evaluation {
  /** Every result of this campaign in results.jsonl (resumed ones included). */
  results: RunResult[];
  rows: SummaryRow[];
  /** The summary table as text. */
  table: string;
  /** Runs planned in all / skipped because already recorded / made now. */
  planned: number;
  skipped: number;
  made: number;
  /** True when the signal stopped it before every run was made. */
  interrupted: boolean;
  /** Wall time of this invocation (s). */
  wall_s: number;
  files: { results: string; csv: string; report: string; log: string };
}

/**
 * Parses `host:port,host:port`.
 *
 * @throws ConfigError for an entry that is not `host:port` with a port in 1–65535.
 */
export function parseServers(text: string): ServerAddressOption[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(.+):(\d+)$/.exec(entry);
      const port = m ? Number(m[2]) : NaN;
      if (!m || port < 1 || port > 65535) throw new ConfigError(`--servers: "${entry}" is not host:port (e.g. 127.0.0.1:55916)`);
      return { host: m[1]!, port };
    });
}

/**
 * Runs an evaluation (see the module comment).
 *
 * @throws TaskError / ConfigError for bad input, before any server starts.
 */
export async function evaluate(options: EvaluateOptions): Promise<Evaluation> {
  const began = Date.now();
  const log =
    options.log ??
    ((line: string) => {
      process.stderr.write(`${line}\n`);
    });
  const parallel = options.parallel ?? 1;
  if (!Number.isInteger(parallel) || parallel < 1) throw new ConfigError(`--parallel expects a whole number ≥ 1, got ${options.parallel}`);
  if (options.servers && options.servers.length < parallel) {
    throw new ConfigError(`--parallel ${parallel} needs ${parallel} servers (one per worker), --servers gives ${options.servers.length}`);
  }
  const { plan, profiles } = await prepareCampaign(options, log);
  const out = path.resolve(options.out);
  const files = evaluationFiles(out);
  const recorded = await previousResults(files, options.resume);
  const done = new Set(recorded.map((r) => r.run_id));
  const todo = plan.filter((r) => !done.has(r.runId));
  const skipped = plan.length - todo.length;
  if (skipped) log(`Resuming: ${skipped} of ${plan.length} runs are already in ${files.results}.`);

  const runLog = await openLog(files.log);
  const botsRoot = await mkdtemp(path.join(os.tmpdir(), 'mindcraft-eval-'));
  const progress: EvaluationProgress = { total: todo.length, done: 0, successes: 0, tokens: 0, running: 0 };
  options.board?.plan(
    todo.map((r) => ({
      runId: r.runId,
      taskId: r.task.id,
      file: r.task.file,
      ...(r.coordination ? { coordination: r.coordination } : {}),
    })),
  );
  options.onProgress?.({ ...progress });
  let appending = Promise.resolve();
  let next = 0;
  let fatal: Error | undefined;
  const worker = async (w: number) => {
    const server = options.servers?.[w];
    const settings: Settings = server
      ? { ...options.settings, server: 'external', host: server.host, port: server.port }
      : { ...options.settings, server: 'embedded' };
    // An embedded server and its bots stay warm between runs of the same agents (./warm-world.ts).
    const world =
      !server && options.warmWorlds !== false ? new WarmWorld({ settings, log: (line) => runLog.write(`[w${w}] ${line}`) }) : undefined;
    try {
      await runAll(w, settings, world);
    } finally {
      await world?.close();
    }
  };
  const runAll = async (w: number, settings: Settings, world: WarmWorld | undefined) => {
    for (let run = todo[next++]; run && !options.signal?.aborted; run = todo[next++]) {
      if (fatal) return;
      progress.running++;
      options.onProgress?.({ ...progress });
      options.board?.started(run.runId, { agents: profiles.slice(0, run.task.agent_count).map((p) => p.name), timeoutS: run.task.timeout });
      let result: RunResult;
      try {
        result = await playOne(run, settings, profiles, options, {
          out,
          botsDir: path.join(botsRoot, `worker-${w}`),
          log: (line) => runLog.write(`[w${w} ${run.runId}] ${line}`),
          world,
        });
      } catch (err) {
        // Not a run's failure (those end in a result) but the evaluation's, e.g. an unwritable --out:
        // no further run starts; the error is thrown once the other workers have ended theirs.
        fatal ??= err as Error;
        next = todo.length;
        return;
      } finally {
        progress.running--;
      }
      options.board?.finished(run.runId, {
        success: result.success,
        score: result.score,
        endReason: result.end_reason,
        folder: runFolderOf(out, run.runId),
      });
      if (result.end_reason === 'interrupted') continue;
      appending = appending.then(() => appendResult(out, result).then(() => undefined));
      await appending;
      progress.done++;
      if (result.success) progress.successes++;
      progress.tokens += result.tokens.input + result.tokens.output;
      options.onProgress?.({ ...progress, last: result });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(parallel, Math.max(1, todo.length)) }, (_, w) => worker(w)));
  } finally {
    await rm(botsRoot, { recursive: true, force: true });
    await runLog.close();
  }
  if (fatal) throw fatal;

  const { results, rows, table } = await writeSummaryFiles(files, options.inputs, plan);
  return {
    results,
    rows,
    table,
    planned: plan.length,
    skipped,
    made: progress.done,
    interrupted: options.signal?.aborted === true && progress.done + skipped < plan.length,
    wall_s: Math.round((Date.now() - began) / 100) / 10,
    files,
  };
}

/** What {@link prepareCampaign} needs: the campaign and what its runs are checked against. */
export type CampaignInput = Pick<
  EvaluateOptions,
  'inputs' | 'ids' | 'episodes' | 'coordinations' | 'maxTimeoutS' | 'agents' | 'model' | 'settings' | 'profilesDir' | 'env' | 'servers'
>;

/** A campaign checked and ready to run: its runs and the task profiles they play with. */
export interface PreparedCampaign {
  plan: PlannedRun[];
  /** The task profiles, as many as the largest task needs, in agent-index order. */
  profiles: Profile[];
}

/**
 * Plans a campaign and checks everything before any server starts (shared by the local pool and
 * the queue, `src/app/queue/`): task files, enough task profiles, each task against the Minecraft
 * version (tasks it cannot play are announced through `log`: their runs end as errors), and every
 * model.
 *
 * @throws TaskError / ConfigError for bad input.
 */
export async function prepareCampaign(options: CampaignInput, log: (line: string) => void): Promise<PreparedCampaign> {
  const plan = await planCampaign({
    inputs: options.inputs,
    ids: options.ids,
    episodes: options.episodes,
    coordinations: options.coordinations ?? [options.settings.coordination],
    maxTimeoutS: options.maxTimeoutS,
    agents: options.agents,
  });
  const maxAgents = Math.max(...plan.map((r) => r.task.agent_count));
  const profiles = await loadTaskProfiles(path.resolve(options.profilesDir ?? 'profiles/tasks'), maxAgents);
  // An "auto" version is the server's (src/client/server-version.ts): the tasks' items are checked for it.
  const settings = await withServerVersion(options.settings, options.servers?.[0]);
  const checked = new Set<string>();
  const unplayable: string[] = [];
  for (const run of plan) {
    const key = `${run.task.file}\0${run.task.id}`;
    if (checked.has(key)) continue;
    checked.add(key);
    const check = checkTask(run.task, settings, profiles.length);
    for (const warning of check.warnings) log(`${run.task.file}, task ${run.task.id}: ${warning}`);
    if (check.unplayable) unplayable.push(check.unplayable);
  }
  if (unplayable.length) {
    log(
      `${unplayable.length} task(s) cannot be played on Minecraft ${settings.minecraft_version}; their runs are recorded as errors with score 0 (leave them out with --ids):\n  ${unplayable.join('\n  ')}`,
    );
  }
  requireUsableModels(
    profiles.map((p) => ({
      owner: options.model !== undefined ? '--model' : `profile "${p.name}" (${options.profilesDir ?? 'profiles/tasks'})`,
      spec: options.model ?? p.model,
    })),
    options.env,
  );
  return { plan, profiles };
}

/** The files of an evaluation's output folder `out` (absolute when `out` is). */
export function evaluationFiles(out: string): Evaluation['files'] {
  return {
    results: path.join(out, 'results.jsonl'),
    csv: path.join(out, 'summary.csv'),
    report: path.join(out, 'report.html'),
    log: path.join(out, 'eval.log'),
  };
}

/**
 * The results already in `files.results` (none when it is missing or empty).
 *
 * @throws ConfigError when it holds results and `resume` is not set; Error for a line that is not
 *   a result.
 */
export async function previousResults(files: Evaluation['files'], resume: boolean | undefined): Promise<RunResult[]> {
  const previous = await readFile(files.results, 'utf8').catch(() => undefined);
  if (previous !== undefined && previous.trim() && !resume) {
    throw new ConfigError(
      `${files.results} already holds results: pass --resume to continue that evaluation, or choose another --out folder`,
    );
  }
  return previous ? parseResults(previous, files.results) : [];
}

/**
 * Summarises the results of `plan` in `files.results` (a run recorded twice counts once) and
 * writes `summary.csv` and `report.html` next to it: the same files whatever ran the runs.
 */
export async function writeSummaryFiles(
  files: Evaluation['files'],
  inputs: readonly string[],
  plan: readonly PlannedRun[],
): Promise<Pick<Evaluation, 'results' | 'rows' | 'table'>> {
  const planned = new Set(plan.map((r) => r.runId));
  const text = await readFile(files.results, 'utf8').catch(() => '');
  const results = parseResults(text, files.results).filter((r) => planned.has(r.run_id));
  const rows = summarise(results);
  await writeFile(files.csv, summaryCsv(rows));
  const graphs: Record<string, GraphEvent> = {};
  for (const r of results) {
    if (r.coordination === 'chat') continue;
    const graph = await lastGraph(path.join(path.dirname(files.results), 'runs', runFolder(r.run_id), 'graph.jsonl'));
    if (graph) graphs[r.run_id] = graph;
  }
  await writeFile(
    files.report,
    reportHtml({
      title: `MineCollab evaluation: ${inputs.map((i) => path.basename(i)).join(', ')}`,
      results,
      rows,
      chartJs: await chartJs(),
      generatedAt: new Date(),
      graphs,
    }),
  );
  // VillagerBench runs also in the papers' terms (C, VHR, ACR, E, B by scenario, strategy and team size).
  const villager = formatVillagerSummary(villagerSummary(results));
  return { results, rows, table: villager ? `${formatSummary(rows)}\n${villager}` : formatSummary(rows) };
}

/** The last graph of a run's `graph.jsonl`, or undefined when it has none (or none readable). */
async function lastGraph(file: string): Promise<GraphEvent | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const line = text.trimEnd().split('\n').at(-1);
  if (!line) return undefined;
  try {
    const event = JSON.parse(line) as GraphEvent;
    return event.type === 'graph' && Array.isArray(event.nodes) && Array.isArray(event.edges) ? event : undefined;
  } catch {
    return undefined;
  }
}

/** What {@link playOne} takes from the evaluation's options. */
export type PlayOptions = Pick<EvaluateOptions, 'model' | 'env' | 'humansTimeoutMs' | 'signal' | 'board'>;

/**
 * Plays one planned run on `settings`' server (embedded: a fresh one on a free port) and returns
 * its result; its records go to `<where.out>/runs/<run folder>/`. A run's own failure ends in a
 * result (`error`, `missing_agent`, …); the signal ends it as `interrupted`.
 *
 * @throws ConfigError when a model cannot be used here; Error when the run cannot be recorded.
 */
export async function playOne(
  run: PlannedRun,
  settings: Settings,
  profiles: Profile[],
  options: PlayOptions,
  where: { out: string; botsDir: string; log: (line: string) => void; world?: TaskWorld },
): Promise<RunResult> {
  return runTask({
    task: run.task,
    settings,
    profiles: profiles.slice(0, run.task.agent_count),
    model: options.model,
    env: options.env,
    runId: run.runId,
    episode: run.episode,
    ...(run.coordination ? { coordination: run.coordination } : {}),
    folder: runFolderOf(where.out, run.runId),
    botsDir: where.botsDir,
    humansTimeoutMs: options.humansTimeoutMs,
    signal: options.signal,
    log: where.log,
    unplayableAsResult: true,
    onScore: options.board && ((score) => options.board!.score(run.runId, score)),
    // The dashboard shows a graph strategy's live graph.
    onEvent: options.board && ((event) => event.type === 'graph' && options.board!.graph(run.runId, event)),
    world: where.world,
  });
}

/** A timestamped line logger appending to `file`, and its close. */
export async function openLog(file: string): Promise<{ write: (line: string) => void; close: () => Promise<void> }> {
  await mkdir(path.dirname(file), { recursive: true });
  const stream = createWriteStream(file, { flags: 'a' });
  stream.on('error', () => {});
  return {
    write: (line) => {
      stream.write(`${new Date().toISOString()} ${line}\n`);
    },
    close: async () => {
      stream.end();
      await finished(stream).catch(() => {});
    },
  };
}

/** Chart.js's minified UMD build, inlined into report.html so the page needs no network. */
async function chartJs(): Promise<string> {
  const require = createRequire(import.meta.url);
  return readFile(path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}
