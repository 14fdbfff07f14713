/**
 * An evaluation campaign: which runs to make (every task of the given files, filtered by id,
 * times the coordination strategies, times N episodes), the stable id and folder of each run, and
 * the conditions a run is grouped by in the summary (depth, plan access, missing items, blocked
 * actions).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { COORDINATIONS, type Coordination } from '../../settings/index.ts';
import { loadTaskFile, TaskError } from '../loader.ts';
import type { LoadedTask } from '../schema.ts';

/** One run of a campaign. */
export interface PlannedRun {
  /**
   * `<file key>/<task id>/<episode>`, or `<file key>/<task id>/<coordination>/<episode>` for a
   * strategy other than `chat` ({@link runIdOf}); stable across invocations (what `--resume` matches).
   */
  runId: string;
  /** Folder name of the run under `<out>/runs/`. */
  folder: string;
  task: LoadedTask;
  /** 1-based. */
  episode: number;
  /** How the team works together; absent: the settings' `coordination`. */
  coordination?: Coordination;
}

/**
 * A run's id: `<file key>/<task id>/<episode>`, with the coordination before the episode when it
 * is not `chat` (so a campaign's `chat` runs keep the ids they had before strategies existed).
 *
 * @example runIdOf('test_tasks/2_agent', 'cake', 1, 'dag') // 'test_tasks/2_agent/cake/dag/1'
 */
export function runIdOf(fileKey: string, taskId: string, episode: number, coordination: Coordination = 'chat'): string {
  return coordination === 'chat' ? `${fileKey}/${taskId}/${episode}` : `${fileKey}/${taskId}/${coordination}/${episode}`;
}

/**
 * `--coordination chat,dag,causal`: the strategies named, in order, each once.
 *
 * @throws TaskError naming a value that is not a strategy, and the strategies there are.
 */
export function parseCoordinations(text: string): Coordination[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length)
    throw new TaskError(`--coordination expects one or more of ${COORDINATIONS.join(', ')} (comma-separated), got "${text}"`);
  const out: Coordination[] = [];
  for (const n of names) {
    if (!(COORDINATIONS as readonly string[]).includes(n))
      throw new TaskError(`--coordination: "${n}" is not a strategy; use ${COORDINATIONS.join(', ')} (e.g. --coordination chat,dag)`);
    if (!out.includes(n as Coordination)) out.push(n as Coordination);
  }
  return out;
}

/** What to run. */
export interface CampaignOptions {
  /** Task files, or folders searched (recursively) for `*.json` task files. */
  inputs: readonly string[];
  /** Keep only tasks whose id matches this regular expression (e.g. `depth_0$` or `compass|clock`). */
  ids?: string;
  /** Runs per task and strategy (default 1). */
  episodes?: number;
  /**
   * The coordination strategies each task is played with (`--coordination chat,dag`): a campaign
   * dimension like episodes. Default: one run per task with the settings' strategy (no
   * `coordination` on the planned run).
   */
  coordinations?: readonly Coordination[];
  /**
   * Caps every task's `timeout` (s; `--max-timeout`): for smoke runs, and for policies that finish
   * or give up early (the oracle), so that an unsolvable task does not play out its 300–500 s. A
   * run's `timeout_s` records the timeout it had. Default: each task's own.
   */
  maxTimeoutS?: number;
  /** Agents per run of the VillagerBench tasks (`--agents`; default: each task's own, else 2). */
  agents?: number;
}

/**
 * The task files of `inputs`: files as given, folders expanded to their `*.json` files
 * (recursively, sorted), each file once.
 *
 * @throws TaskError for an input that does not exist or a folder without task files.
 */
export async function taskFiles(inputs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => undefined);
    if (!info) throw new TaskError(`${input}: no such task file or folder`);
    if (info.isDirectory()) {
      const found = (await readdir(input, { recursive: true }))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => path.join(input, f));
      if (found.length === 0) throw new TaskError(`${input}: no task files (*.json) in this folder`);
      files.push(...found);
    } else {
      files.push(input);
    }
  }
  return [...new Set(files.map((f) => path.normalize(f)))];
}

/**
 * Short keys for task files: the file's folder and name without `.json` (`test_tasks/2_agent`),
 * or more of its path where two files would share a key.
 */
export function fileKeys(files: readonly string[]): Map<string, string> {
  const parts = (f: string) =>
    path
      .resolve(f)
      .replace(/\.json$/i, '')
      .split(path.sep)
      .filter(Boolean);
  const keys = new Map<string, string>();
  for (let depth = 2; ; depth++) {
    keys.clear();
    for (const f of files) keys.set(f, parts(f).slice(-depth).join('/'));
    const values = [...keys.values()];
    if (new Set(values).size === values.length || depth > 64) return keys;
  }
}

/** A run id as a folder name: `/` becomes `__`, anything but letters, digits, `-`, `_` and `.` becomes `_`. */
export function runFolder(runId: string): string {
  return runId.replaceAll('/', '__').replace(/[^\w.-]/g, '_');
}

/**
 * Expands a campaign into its runs, in file order, task order, strategy order, then episode.
 *
 * @throws TaskError for a missing or invalid file, a bad `ids` pattern, `episodes` < 1, or a
 *   campaign with no task at all.
 */
export async function planCampaign(options: CampaignOptions): Promise<PlannedRun[]> {
  const episodes = options.episodes ?? 1;
  if (!Number.isInteger(episodes) || episodes < 1) throw new TaskError(`--episodes expects a whole number ≥ 1, got ${episodes}`);
  const cap = options.maxTimeoutS;
  if (cap !== undefined && !(cap > 0)) throw new TaskError(`--max-timeout expects a number of seconds > 0, got ${cap}`);
  let pattern: RegExp | undefined;
  try {
    pattern = options.ids ? new RegExp(options.ids) : undefined;
  } catch (err) {
    throw new TaskError(`--ids: not a regular expression (${(err as Error).message})`);
  }
  const files = await taskFiles(options.inputs);
  const keys = fileKeys(files);
  const runs: PlannedRun[] = [];
  for (const file of files) {
    const tasks = await loadTaskFile(file, options.agents === undefined ? {} : { agents: options.agents });
    for (const loaded of tasks.values()) {
      if (pattern && !pattern.test(loaded.id)) continue;
      const task = cap !== undefined && loaded.timeout > cap ? { ...loaded, timeout: cap } : loaded;
      for (const coordination of options.coordinations ?? [undefined]) {
        for (let episode = 1; episode <= episodes; episode++) {
          const runId = runIdOf(keys.get(file)!, task.id, episode, coordination);
          runs.push({ runId, folder: runFolder(runId), task, episode, ...(coordination ? { coordination } : {}) });
        }
      }
    }
  }
  if (runs.length === 0) {
    throw new TaskError(
      `no task to run: ${files.length} file(s)${pattern ? ` have no task id matching /${options.ids}/` : ' have no tasks'}`,
    );
  }
  return runs;
}

/** The conditions of a task that results are grouped by (present only where the task has them). */
export interface TaskConditions {
  /** Crafting-tree depth of the generated task (generator metadata `depth`). */
  depth?: number;
  /** Items no agent holds (generator metadata `missing_items`). */
  missing_items?: string[];
  /** The task's own blocked commands per agent index, agents with none left out. */
  blocked_actions?: Record<string, string[]>;
  /**
   * Who may read the plan: crafting, the agents without `!getCraftingPlan` blocked; cooking, the
   * agents not in `blocked_access_to_recipe`. `full` = all, `partial` = some, `none` = no agent.
   */
  plan_access?: 'full' | 'partial' | 'none';
  restrict_to_inventory?: boolean;
}

/** Reads {@link TaskConditions} from a task's fields and generator metadata. */
export function taskConditions(task: LoadedTask): TaskConditions {
  const out: TaskConditions = {};
  const meta = task as Record<string, unknown>;
  if (typeof meta.depth === 'number') out.depth = meta.depth;
  if (Array.isArray(meta.missing_items)) out.missing_items = meta.missing_items.map(String);
  const blocked = Object.fromEntries(Object.entries(task.blocked_actions).filter(([, list]) => list.length > 0));
  if (Object.keys(blocked).length) out.blocked_actions = blocked;
  const agents = Array.from({ length: task.agent_count }, (_, i) => String(i));
  let withoutPlan: number | undefined;
  if (task.type === 'techtree' && Object.keys(task.blocked_actions).length) {
    withoutPlan = agents.filter((i) => task.blocked_actions[i]?.includes('!getCraftingPlan')).length;
  } else if (task.type === 'cooking' && Array.isArray(meta.blocked_access_to_recipe)) {
    const lacking = new Set(meta.blocked_access_to_recipe.map(String));
    withoutPlan = agents.filter((i) => lacking.has(i)).length;
  }
  if (withoutPlan !== undefined) out.plan_access = withoutPlan === 0 ? 'full' : withoutPlan === agents.length ? 'none' : 'partial';
  if (task.restrict_to_inventory !== undefined) out.restrict_to_inventory = task.restrict_to_inventory;
  return out;
}
