/**
 * Oracle teams playing MineCollab-format tasks on the embedded server (test/e2e/*-oracle.test.ts):
 * one run through `runTask`, as `npm run task` plays it, with the agents' oracle models kept to
 * read what they decided.
 */
import path from 'node:path';
import { testSettings } from './version.ts';
import { loadTask } from '../../src/tasks/loader.ts';
import type { LoadedTask } from '../../src/tasks/schema.ts';
import { loadTaskProfiles, runTask, type TaskReady, type TaskRunOptions } from '../../src/app/run-task.ts';
import type { OracleModel } from '../../src/oracle/model.ts';

/** Generated task files kept for tests (written by `npm run generate` with fixed seeds). */
const FIXTURES = path.resolve('test/fixtures/generated');
const settings = testSettings({ chat_bot_messages: false });

/** The most a test lets a run play (s): solved runs take 5–60 s; a stuck one ends in time to be shown. */
const MAX_TIMEOUT_S = 150;
/** Log lines kept of a run, to print when it fails. */
const LOG_TAIL = 300;

/**
 * Plays `task` with oracle agents, its timeout capped at {@link MAX_TIMEOUT_S} (or `extra.maxTimeoutS`); `onReady` runs once
 * the world is set up, before play; `extra.coordination` picks the strategy (default `chat`), and
 * `extra.folder` keeps the run's records. A run that does not succeed prints the tail of its log.
 */
export async function play(
  task: LoadedTask,
  onReady?: (ready: TaskReady) => void | Promise<void>,
  extra: Pick<TaskRunOptions, 'commands' | 'coordination' | 'folder' | 'onEvent' | 'onPlaying'> & { maxTimeoutS?: number } = {},
) {
  const { maxTimeoutS = MAX_TIMEOUT_S, ...options } = extra;
  const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), task.agent_count);
  let oracles: OracleModel[] = [];
  const lines: string[] = [];
  const started = Date.now();
  const result = await runTask({
    task: { ...task, timeout: Math.min(task.timeout, maxTimeoutS) },
    settings,
    profiles,
    model: 'oracle',
    ...options,
    log: (line) => {
      lines.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${line}`);
      if (lines.length > LOG_TAIL) lines.shift();
    },
    onReady: async (ready) => {
      oracles = ready.agents.map((a) => a.model as OracleModel);
      await onReady?.(ready);
    },
  });
  if (!result.success)
    console.log(`${task.id}: ${result.end_reason}, score ${result.score}; the run's last ${lines.length} log lines:\n${lines.join('\n')}`);
  return { result, oracles };
}

/** Task `id` of the generated fixture `file`. */
export const fixture = (file: string, id: string) => loadTask(path.join(FIXTURES, file), id);

/** A hand-written crafting task in MineCollab's format (timeout 90 s unless `extra` says). */
export function craftingTask(
  id: string,
  target: string,
  inventories: Record<string, Record<string, number>>,
  extra: Partial<LoadedTask> = {},
): LoadedTask {
  const agents = Object.keys(inventories).length;
  return {
    id,
    file: 'inline',
    type: 'techtree',
    goal: `Collaborate with other agents to craft an ${target}`,
    conversation: `Let's work together to craft an ${target}.`,
    agent_count: agents,
    target,
    number_of_target: 1,
    timeout: 90,
    initial_inventory: inventories,
    blocked_actions: {},
    ...extra,
  };
}
