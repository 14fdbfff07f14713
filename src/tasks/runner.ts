/**
 * Runs one MineCollab task end to end: server, bots, set-up, the goal and conversation, a check
 * every game tick, and one result.
 */
import { appendFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import type { Agent } from '../agent/agent.ts';
import { startAgents } from '../agent/process.ts';
import { gameData } from '../game/data.ts';
import { loadProfile, type Profile, type Settings } from '../settings/index.ts';
import { inventoryCounts } from '../skills/items.ts';
import { waitFor } from '../util/abort.ts';
import { checkTaskForVersion, goalFor, TaskError, taskTargets } from './loader.ts';
import type { LoadedTask } from './schema.ts';

/** The final line of a run (one JSON object). */
export interface TaskResult {
  task_id: string;
  /** 1 for a completed crafting task, 0 otherwise. */
  score: number;
  success: boolean;
  duration_s: number;
  agents: string[];
  /** Commands each agent ran, in order. */
  commands: Record<string, string[]>;
  /** What went wrong, when the run could not be played to its end. */
  error?: string;
}

export interface TaskRunOptions {
  task: LoadedTask;
  settings: Settings;
  /** One profile per agent, in agent-index order (at least `agent_count`). */
  profiles: Profile[];
  /** Replaces every profile's model. */
  model?: Profile['model'];
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/** How long set-up may take per agent before the run is abandoned (ms). */
const SETUP_TIMEOUT_MS = 15_000;

/**
 * Loads the profiles of `dir` (the task profiles, `profiles/tasks/`), sorted by file name.
 *
 * @throws TaskError when there are fewer than `count`.
 */
export async function loadTaskProfiles(dir: string, count: number): Promise<Profile[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  if (files.length < count) throw new TaskError(`${dir}: the task needs ${count} agents but only ${files.length} profiles are there; add profiles (one JSON file per bot).`);
  return Promise.all(files.slice(0, count).map((f) => loadProfile(path.join(dir, f))));
}

/** True when one agent holds every target in the required count (MineCollab's crafting check). */
export function holdsTargets(bots: Bot[], targets: Record<string, number>): boolean {
  return bots.some((bot) => {
    const inv = inventoryCounts(bot);
    return Object.entries(targets).every(([item, n]) => (inv[item] ?? 0) >= n);
  });
}

/**
 * Runs `options.task` and resolves with its result. Bad input (unknown items, too few profiles)
 * rejects with a TaskError before anything starts; any later failure ends in a result with
 * `success: false` and `error`, never a rejection.
 */
export async function runTask(options: TaskRunOptions): Promise<TaskResult> {
  const { task, settings } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  checkTaskForVersion(task, gameData(settings.minecraft_version));
  if (options.profiles.length < task.agent_count) throw new TaskError(`task "${task.id}" needs ${task.agent_count} agents; ${options.profiles.length} profiles given`);
  const targets = taskTargets(task);
  const started = Date.now();
  const profiles = options.profiles.slice(0, task.agent_count);
  const result = (success: boolean, agents: Agent[], error?: string): TaskResult => ({
    task_id: task.id,
    score: success ? 1 : 0,
    success,
    duration_s: Math.round((Date.now() - started) / 100) / 10,
    agents: profiles.map((p) => p.name),
    commands: Object.fromEntries(agents.map((a) => [a.name, [...a.commandLog]])),
    ...(error ? { error } : {}),
  });

  let running;
  try {
    running = await startAgents({ settings, profiles, model: options.model, port: settings.server === 'embedded' ? 0 : undefined, env: options.env, log });
  } catch (err) {
    return result(false, [], (err as Error).message);
  }
  const { agents } = running;
  try {
    await setUp(task, agents, log);
    const bots = agents.map((a) => a.bot);
    const others = (i: number) => agents.filter((_, j) => j !== i).map((a) => a.name);
    agents.forEach((agent, i) => {
      agent.block(task.blocked_actions[String(i)] ?? []);
      agent.goal = goalFor(task, i);
      agent.taskTargets = targets;
      const team = others(i).length ? ` Work together with ${others(i).join(', ')}.` : '';
      agent.receive({ from: 'system', text: `Your goal: ${agent.goal}.${team}`, channel: 'system' });
    });
    if (task.agent_count > 1 && task.conversation) {
      await agents[0].startConversation(agents[1].name, task.conversation);
    }
    const success = await new Promise<boolean>((resolve) => {
      const check = () => {
        if (holdsTargets(bots, targets)) finish(true);
      };
      const timer = setTimeout(() => finish(false), task.timeout * 1000);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        bots[0].off('physicsTick', check);
        resolve(ok);
      };
      bots[0].on('physicsTick', check);
      check();
    });
    log(success ? `Task ${task.id} succeeded.` : `Task ${task.id} timed out after ${task.timeout} s.`);
    return result(success, agents);
  } catch (err) {
    return result(false, agents, (err as Error).message);
  } finally {
    await running.close();
  }
}

/** Clears and fills inventories, then brings the agents together (via op commands in chat). */
async function setUp(task: LoadedTask, agents: Agent[], log: (line: string) => void): Promise<void> {
  const [first] = agents;
  const origin = first.bot.entity.position.floored();
  await Promise.all(agents.map(async (agent, i) => {
    const { bot, name } = agent;
    const wanted = task.initial_inventory[String(i)] ?? {};
    bot.chat(`/clear ${name}`);
    const cleared = await waitFor(() => bot.inventory.items().length === 0, SETUP_TIMEOUT_MS);
    if (!cleared) throw new Error(`could not clear ${name}'s inventory: is the bot an operator on this server?`);
    for (const [item, count] of Object.entries(wanted)) bot.chat(`/give ${name} ${item} ${count}`);
    const filled = await waitFor(() => Object.entries(wanted).every(([item, n]) => inventoryCounts(bot)[item] === n), SETUP_TIMEOUT_MS);
    if (!filled) throw new Error(`${name}'s initial inventory did not arrive (wanted ${JSON.stringify(wanted)})`);
    if (i > 0) {
      bot.chat(`/tp ${name} ${origin.x + 2 * i} ${origin.y} ${origin.z}`);
      await waitFor(() => bot.entity.position.distanceTo(origin) < 2 * i + 1.5, SETUP_TIMEOUT_MS);
    }
  }));
  log(`Set up ${agents.length} agents for ${task.id}.`);
}

/** Appends `result` as one JSON line to `file`. */
export async function appendResult(file: string, result: TaskResult): Promise<void> {
  await appendFile(file, `${JSON.stringify(result)}\n`);
}
