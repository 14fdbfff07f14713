/** Loads MineCollab task files and checks them against the Minecraft version they will run on. */
import { readFile } from 'node:fs/promises';
import { closestNames } from '../util/closest.ts';
import { validate } from '../settings/index.ts';
import type { GameData } from '../game/data.ts';
import { type LoadedTask, type Task, taskSchema } from './schema.ts';

/** A task file or task id that cannot be used; the message says what is wrong and where. */
export class TaskError extends Error {
  override name = 'TaskError';
}

/**
 * Reads a task file: a JSON object mapping task ids to tasks.
 *
 * @returns every task of the file, validated, keyed by id.
 * @throws TaskError when the file is missing, is not JSON, or a task has a wrong field.
 */
export async function loadTaskFile(file: string): Promise<Map<string, LoadedTask>> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new TaskError(e.code === 'ENOENT' ? `${file}: task file not found` : `${file}: not valid JSON (${e.message})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new TaskError(`${file}: expected an object mapping task ids to tasks`);
  }
  const tasks = new Map<string, LoadedTask>();
  for (const [id, value] of Object.entries(raw)) {
    let task: Task;
    try {
      task = validate(taskSchema, value, `${file}, task "${id}"`);
    } catch (err) {
      throw new TaskError((err as Error).message);
    }
    tasks.set(id, { ...task, id, file });
  }
  return tasks;
}

/**
 * Loads one task by id.
 *
 * @throws TaskError when the id is not in the file (naming the closest ids) or the file is invalid.
 */
export async function loadTask(file: string, id: string): Promise<LoadedTask> {
  const tasks = await loadTaskFile(file);
  const task = tasks.get(id);
  if (!task) {
    const ids = [...tasks.keys()];
    const hint = ids.length ? ` Closest id: "${closestNames(id, ids, 1)[0]}". The file has ${ids.length} tasks.` : ' The file has no tasks.';
    throw new TaskError(`${file}: no task "${id}".${hint}`);
  }
  return task;
}

/** The target item names of a task, with the count each agent set must hold. */
export function taskTargets(task: Task): Record<string, number> {
  const targets = typeof task.target === 'string' ? [task.target] : Array.isArray(task.target) ? task.target : Object.keys(task.target ?? {});
  const n = task.number_of_target;
  return Object.fromEntries(targets.map((t) => [t, typeof n === 'number' ? n : (n?.[t] ?? 1)]));
}

/** The goal text for agent `index`. */
export function goalFor(task: Task, index: number): string {
  return typeof task.goal === 'string' ? task.goal : (task.goal[String(index)] ?? Object.values(task.goal)[0] ?? '');
}

/**
 * Checks that every item a crafting task names exists in `data`'s Minecraft version and that
 * per-agent maps only name agents the task has.
 *
 * @throws TaskError naming the task, the field, the unknown name and the closest valid name.
 */
export function checkTaskForVersion(task: LoadedTask, data: GameData): void {
  const problems: string[] = [];
  const itemNames = Object.keys(data.itemsByName);
  const checkItem = (name: string, where: string) => {
    if (!data.itemsByName[name]) problems.push(`${where}: "${name}" is not an item in Minecraft ${data.version.minecraftVersion} (closest: ${closestNames(name, itemNames).map((c) => `"${c}"`).join(", ")})`);
  };
  for (const [agent, inv] of Object.entries(task.initial_inventory)) {
    if (Number(agent) >= task.agent_count) problems.push(`initial_inventory: agent "${agent}" but agent_count is ${task.agent_count}`);
    for (const item of Object.keys(inv)) checkItem(item, `initial_inventory["${agent}"]`);
  }
  for (const agent of Object.keys(task.blocked_actions)) {
    if (Number(agent) >= task.agent_count) problems.push(`blocked_actions: agent "${agent}" but agent_count is ${task.agent_count}`);
  }
  if (task.type === 'techtree' || task.type === 'cooking') {
    for (const item of Object.keys(taskTargets(task))) checkItem(item, 'target');
  }
  if (problems.length) throw new TaskError(`${task.file}, task "${task.id}": ${problems.join('; ')}`);
}
