/** Loads MineCollab task files and checks them against the Minecraft version they will run on. */
import { readFile, stat } from 'node:fs/promises';
import { closestNames } from '../util/closest.ts';
import { nestingDepth } from '../util/nesting.ts';
import { validate } from '../settings/index.ts';
import type { GameData } from '../game/data.ts';
import { normalizeBlockName } from './blueprint.ts';
import { type LoadedTask, type Task, taskSchema } from './schema.ts';
import { checkVillagerForVersion } from './villager/check.ts';
import { parseEscapeId } from './villager/escape.ts';
import { findVillagerTask, loadVillagerFile, villagerKind, type VillagerLoadOptions } from './villager/load.ts';

/** A task file or task id that cannot be used; the message says what is wrong and where. */
export class TaskError extends Error {
  override name = 'TaskError';
}

/**
 * Largest task file read (bytes). The benchmark's largest is 54 KB; a file of a million tasks
 * would still fit.
 */
export const MAX_TASK_FILE_BYTES = 64 * 2 ** 20;

/** Deepest nesting of arrays and objects a task may have (a blueprint's rows of cells need 5). */
export const MAX_TASK_DEPTH = 16;

/**
 * Reads a task file: a JSON object mapping task ids to tasks (MineCollab), or one of
 * VillagerBench's files (a list of blueprints, farm tasks or escape atoms, or our escape file:
 * `./villager/load.ts`), whose team size `options.agents` sets (`--agents`).
 *
 * @returns every task of the file, validated, keyed by id.
 * @throws TaskError naming the file (and the task) when the file is missing, larger than
 *   {@link MAX_TASK_FILE_BYTES}, not JSON, nested deeper than {@link MAX_TASK_DEPTH}, or a task
 *   has a wrong field.
 */
export async function loadTaskFile(file: string, options: VillagerLoadOptions = {}): Promise<Map<string, LoadedTask>> {
  let raw: unknown;
  try {
    const { size } = await stat(file);
    if (size > MAX_TASK_FILE_BYTES)
      throw new TaskError(
        `${file}: ${(size / 2 ** 20).toFixed(1)} MB, more than a task file may be (${MAX_TASK_FILE_BYTES / 2 ** 20} MB): split it into several files`,
      );
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if (err instanceof TaskError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new TaskError(e.code === 'ENOENT' ? `${file}: task file not found` : `${file}: not valid JSON (${e.message})`);
  }
  if (villagerKind(raw)) {
    if (nestingDepth(raw, MAX_TASK_DEPTH) > MAX_TASK_DEPTH)
      throw new TaskError(`${file}: nested more than ${MAX_TASK_DEPTH} levels deep; a VillagerBench file needs at most about 6`);
    try {
      return loadVillagerFile(raw, file, options);
    } catch (err) {
      throw new TaskError((err as Error).message);
    }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new TaskError(
      `${file}: expected an object mapping task ids to tasks (MineCollab), or a list of VillagerBench blueprints, farm tasks or escape atoms`,
    );
  }
  const tasks = new Map<string, LoadedTask>();
  for (const [id, value] of Object.entries(raw)) {
    // Measured before validation, whose recursion a deep value would overflow ("Maximum call stack size exceeded").
    if (nestingDepth(value, MAX_TASK_DEPTH) > MAX_TASK_DEPTH)
      throw new TaskError(`${file}, task "${id}": nested more than ${MAX_TASK_DEPTH} levels deep; a task needs at most about 6`);
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
 * Loads one task by id: a key of the file, a VillagerBench blueprint's `name`, or, in an escape
 * file, any run `escape_<rooms>_<seed>`.
 *
 * @throws TaskError when the id is not in the file (naming the closest ids) or the file is invalid.
 */
export async function loadTask(file: string, id: string, options: VillagerLoadOptions = {}): Promise<LoadedTask> {
  const tasks = await loadTaskFile(file, parseEscapeId(id) ? { ...options, runs: [...(options.runs ?? []), id] } : options);
  const task = findVillagerTask(tasks, id);
  if (!task) {
    const ids = [...tasks.keys()];
    const hint = ids.length
      ? ` Closest id: "${closestNames(id, ids, 1)[0]}". The file has ${ids.length} tasks.`
      : ' The file has no tasks.';
    throw new TaskError(`${file}: no task "${id}".${hint}`);
  }
  return task;
}

/**
 * The per-agent targets of a Hell's Kitchen task (agent index → item name), or undefined when the
 * task is not one. Two shapes count:
 * - the benchmark's: `target` is a list with one item per agent, and the task id ends with
 *   `hells_kitchen` (MINDcraft's own test, e.g. `multiagent_cooking_bread_cake_hells_kitchen`);
 * - a map from agent index to item name, e.g. `{"0": "bread", "1": "cake"}` (keys all digits,
 *   values strings; an item → count map such as `{"bread": 1}` is not per-agent).
 */
export function perAgentTargets(task: Task & { id?: string }): Record<string, string> | undefined {
  const { target } = task;
  if (Array.isArray(target)) {
    if (!task.id?.endsWith('hells_kitchen') || target.length !== task.agent_count) return undefined;
    return Object.fromEntries(target.map((item, i) => [String(i), item]));
  }
  if (target && typeof target === 'object') {
    const entries = Object.entries(target);
    if (entries.length > 0 && entries.every(([k, v]) => /^\d+$/.test(k) && typeof v === 'string')) {
      return Object.fromEntries(entries as [string, string][]);
    }
  }
  return undefined;
}

/**
 * The target items of a task with the count to hold: `number_of_target` when given (one count or a
 * count per item), else the count of an item → count `target` map, else 1. For a Hell's Kitchen
 * task these are all agents' targets together (see {@link perAgentTargets} for who holds what).
 */
export function taskTargets(task: Task & { id?: string }): Record<string, number> {
  const t = task.target;
  const own = perAgentTargets(task);
  const names = own ? Object.values(own) : typeof t === 'string' ? [t] : Array.isArray(t) ? t : Object.keys(t ?? {});
  const n = task.number_of_target;
  const fromMap = (name: string): number | undefined => {
    const v = t && typeof t === 'object' && !Array.isArray(t) ? t[name] : undefined;
    return typeof v === 'number' ? v : undefined;
  };
  return Object.fromEntries(names.map((name) => [name, typeof n === 'number' ? n : (n?.[name] ?? fromMap(name) ?? 1)]));
}

/** The goal text for agent `index`. */
export function goalFor(task: Task, index: number): string {
  return typeof task.goal === 'string' ? task.goal : (task.goal[String(index)] ?? Object.values(task.goal)[0] ?? '');
}

/**
 * Checks that every item a task names (inventories, crafting and cooking targets) and every block
 * of a construction blueprint exist in `data`'s Minecraft version, and that per-agent maps only
 * name agents the task has; a VillagerBench task's blocks, items and structures too
 * (`./villager/check.ts`).
 *
 * A task with human players must list as many `usernames` as its `human_count`; their inventories
 * are the `initial_inventory` entries after the agents' (`agent_count + i`).
 *
 * An `initial_inventory` entry beyond the agents and humans is ignored with a warning, not an
 * error: the benchmark ships such a task (`construction_tasks/custom/church_two_agents.json` has
 * `agent_count: 1` and inventories for agents 0 and 1), and MINDcraft only gives inventories to
 * the agents it starts. So is a `blocked_actions` entry beyond the agents (every task of
 * `crafting_tasks/test_tasks/1_agent.json` has one for agent 1).
 *
 * @returns warnings (things that will be ignored), one line each.
 * @throws TaskError naming the task, the field, the unknown name and the closest valid name.
 */
export function checkTaskForVersion(task: LoadedTask, data: GameData): string[] {
  const problems: string[] = [];
  const warnings: string[] = [];
  const itemNames = Object.keys(data.itemsByName);
  const blockNames = Object.keys(data.blocksByName);
  const checkItem = (name: string, where: string) => {
    if (!data.itemsByName[name])
      problems.push(
        `${where}: "${name}" is not an item in Minecraft ${data.version.minecraftVersion} (closest: ${closestNames(name, itemNames)
          .map((c) => `"${c}"`)
          .join(', ')})`,
      );
  };
  const humans = task.human_count ?? 0;
  if (humans !== (task.usernames?.length ?? 0)) {
    problems.push(`human_count is ${humans} but usernames lists ${task.usernames?.length ?? 0} player(s); they must match`);
  }
  for (const [agent, inv] of Object.entries(task.initial_inventory)) {
    if (Number(agent) >= task.agent_count + humans)
      warnings.push(
        `initial_inventory: agent "${agent}" is ignored, agent_count is ${task.agent_count}${humans ? ` and human_count ${humans}` : ''}`,
      );
    for (const item of Object.keys(inv)) checkItem(item, `initial_inventory["${agent}"]`);
  }
  for (const agent of Object.keys(task.blocked_actions)) {
    if (Number(agent) >= task.agent_count)
      warnings.push(`blocked_actions: agent "${agent}" is ignored, agent_count is ${task.agent_count}`);
  }
  if (task.type === 'techtree' || task.type === 'cooking' || task.type === 'collection') {
    for (const item of Object.keys(taskTargets(task))) checkItem(item, 'target');
  }
  if (task.type === 'construction' && !task.blueprint) problems.push('a construction task needs a "blueprint"');
  const unknownBlocks = new Set<string>();
  for (const level of task.blueprint?.levels ?? []) {
    for (const row of level.placement)
      for (const cell of row) {
        const name = normalizeBlockName(cell);
        if (!data.blocksByName[name] && !unknownBlocks.has(name)) {
          unknownBlocks.add(name);
          problems.push(
            `blueprint level ${level.level}: "${cell}" is not a block in Minecraft ${data.version.minecraftVersion} (closest: ${closestNames(
              name,
              blockNames,
            )
              .map((c) => `"${c}"`)
              .join(', ')})`,
          );
        }
      }
  }
  if (task.villager) problems.push(...checkVillagerForVersion(task.villager, data));
  if (problems.length) throw new TaskError(`${task.file}, task "${task.id}": ${problems.join('; ')}`);
  return warnings;
}
