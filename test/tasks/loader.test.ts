import { mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import {
  checkTaskForVersion,
  goalFor,
  loadTask,
  loadTaskFile,
  MAX_TASK_DEPTH,
  MAX_TASK_FILE_BYTES,
  TaskError,
  taskTargets,
} from '../../src/tasks/loader.ts';
import { SERVER_VERSIONS } from '../../src/game/versions.ts';

const CRAFTING = path.resolve('test/fixtures/benchmark/crafting_tasks/test_tasks');
const COOKING = path.resolve('test/fixtures/benchmark/cooking_tasks/require_collab_test_2_items');
const CONSTRUCTION = path.resolve('test/fixtures/benchmark/construction_tasks/custom');

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempFile(content: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mc-task-'));
  made.push(dir);
  const file = path.join(dir, 'tasks.json');
  await writeFile(file, content);
  return file;
}

describe('MineCollab task files', () => {
  test('every crafting task file of the benchmark loads', async () => {
    const files = (await readdir(CRAFTING)).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    let total = 0;
    for (const f of files) {
      const tasks = await loadTaskFile(path.join(CRAFTING, f));
      expect(tasks.size).toBeGreaterThan(0);
      for (const task of tasks.values()) {
        expect(task.type).toBe('techtree');
        expect(Object.keys(taskTargets(task)).length).toBeGreaterThan(0);
        total++;
      }
    }
    expect(total).toBeGreaterThan(50);
  });

  test('a task keeps the benchmark fields', async () => {
    const task = await loadTask(
      path.join(CRAFTING, '2_agent.json'),
      'multiagent_crafting_purple_banner_full_plan_requires_ctable__depth_0',
    );
    expect(task.agent_count).toBe(2);
    expect(task.initial_inventory['1']).toEqual({ purple_wool: 3, crafting_table: 1 });
    expect(taskTargets(task)).toEqual({ purple_banner: 1 });
    expect(goalFor(task, 1)).toMatch(/purple_banner/);
    expect(task.timeout).toBe(300);
    expect(task.requires_ctable).toBe(true);
  });

  test('an unknown task id names the closest id', async () => {
    const err = await loadTask(path.join(CRAFTING, '2_agent.json'), 'multiagent_crafting_purple_baner').catch((e) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect(err.message).toMatch(/no task "multiagent_crafting_purple_baner"\. Closest id: "multiagent_crafting_purple_banner/);
  });

  test('invalid files are rejected precisely', async () => {
    await expect(loadTaskFile('/nonexistent/tasks.json')).rejects.toThrow(/task file not found/);
    await expect(loadTaskFile(await tempFile('{ "a": '))).rejects.toThrow(/not valid JSON/);
    await expect(loadTaskFile(await tempFile('[]'))).rejects.toThrow(/expected an object mapping task ids/);
    const bad = await tempFile(JSON.stringify({ t1: { type: 'techtree', goal: 'x', agent_count: 'two', timeout: -5 } }));
    const err: Error = await loadTaskFile(bad).catch((e) => e);
    expect(err.message).toMatch(/task "t1": key "agent_count": expected number, found string "two"/);
    expect(err.message).toMatch(/key "timeout"/);
    const blocked = await tempFile(JSON.stringify({ t2: { type: 'techtree', goal: 'x', blocked_actions: { 0: ['getCraftingPlan'] } } }));
    await expect(loadTaskFile(blocked)).rejects.toThrow(/blocked_actions\.0\.0/);
  });

  test('a deeply nested or huge file gets an error naming the file, the task and what is wrong', async () => {
    const depth = 100_000;
    const deep = await tempFile(
      `{"ok": {"type": "techtree", "goal": "x", "agent_count": 1}, "t": {"type": "techtree", "goal": "x", "agent_count": 1, "initial_inventory": ${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    );
    await expect(loadTaskFile(deep)).rejects.toThrow(TaskError);
    await expect(loadTaskFile(deep)).rejects.toThrow(
      `${deep}, task "t": nested more than ${MAX_TASK_DEPTH} levels deep; a task needs at most about 6`,
    );
    const huge = await tempFile('');
    await truncate(huge, MAX_TASK_FILE_BYTES + 1); // a sparse file: no need to write it
    await expect(loadTaskFile(huge)).rejects.toThrow(`${huge}: 64.0 MB, more than a task file may be (64 MB): split it into several files`);
  });

  test('names unknown in the version are reported with the closest valid name', async () => {
    const task = await loadTask(path.join(CRAFTING, '2_agent.json'), 'multiagent_crafting_magenta_wool_full_plan__depth_2');
    expect(() => checkTaskForVersion(task, gameData('1.21.4'))).toThrow(
      /initial_inventory\["0"\]: "rose_red" is not an item in Minecraft 1\.21\.4/,
    );
    const ok = await loadTask(path.join(CRAFTING, '2_agent.json'), 'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0');
    expect(checkTaskForVersion(ok, gameData('1.21.4'))).toEqual([]); // no problems (it would throw) and no warnings
  });

  test.each(SERVER_VERSIONS)('every cooking and construction task file of the benchmark loads and fits %s', async (version) => {
    const data = gameData(version);
    const seen: Record<string, number> = {};
    for (const dir of [COOKING, CONSTRUCTION]) {
      for (const f of (await readdir(dir)).filter((f) => f.endsWith('.json'))) {
        for (const task of (await loadTaskFile(path.join(dir, f))).values()) {
          seen[task.type] = (seen[task.type] ?? 0) + 1;
          checkTaskForVersion(task, data);
        }
      }
    }
    expect(seen).toEqual({ cooking: 36, construction: 3 });
  });

  test("cooking targets: an item → count map keeps its counts; Hell's Kitchen lists one dish per agent", async () => {
    const task = await loadTask(path.join(COOKING, '3_agent.json'), 'multiagent_cooking_2_1_bread_1_golden_apple');
    expect(taskTargets(task)).toEqual({ golden_apple: 1, bread: 1 });
    expect(taskTargets({ ...task, target: { bread: 3 } })).toEqual({ bread: 3 });
    const hk = await loadTask(path.join(COOKING, '2_agent_hells_kitchen.json'), 'multiagent_cooking_bread_golden_apple_hells_kitchen');
    expect(hk.target).toEqual(['bread', 'golden_apple']);
    expect(taskTargets(hk)).toEqual({ bread: 1, golden_apple: 1 });
    expect(hk.difficulty).toBe('medium'); // generator metadata is kept
    const blocked = await loadTask(path.join(COOKING, '2_agent_block_recipe.json'), 'multiagent_cooking_2_1_bread_1_golden_apple');
    expect(blocked.blocked_access_to_recipe).toEqual(['0']);
  });

  test('construction: the blueprint is kept; inventories and blocked_actions for agents beyond agent_count are a warning; bad blocks and targets an error', async () => {
    const church = await loadTask(path.join(CONSTRUCTION, 'church_two_agents.json'), 'church_two_agent');
    expect(church.blueprint!.levels).toHaveLength(15);
    expect(church.blueprint!.levels[0]!.coordinates).toEqual([-18, -60, 29]);
    expect(checkTaskForVersion(church, gameData('1.21.4'))).toEqual(['initial_inventory: agent "1" is ignored, agent_count is 1']);
    const solo = await loadTask(path.join(CRAFTING, '1_agent.json'), 'multiagent_crafting_pink_wool_full_plan__depth_0');
    expect(solo.blocked_actions).toEqual({ 0: [], 1: [] });
    expect(checkTaskForVersion(solo, gameData('1.21.4'))).toEqual(['blocked_actions: agent "1" is ignored, agent_count is 1']);
    const badBlock = {
      ...church,
      blueprint: { levels: [{ level: 0, coordinates: [0, 0, 0] as [number, number, number], placement: [['stone_brick']] }] },
    };
    expect(() => checkTaskForVersion(badBlock, gameData('1.21.4'))).toThrow(
      /blueprint level 0: "stone_brick" is not a block in Minecraft 1\.21\.4 \(closest: "stone_bricks"/,
    );
    expect(() => checkTaskForVersion({ ...church, blueprint: undefined }, gameData('1.21.4'))).toThrow(
      /a construction task needs a "blueprint"/,
    );
    const badTarget = await tempFile(JSON.stringify({ t: { type: 'cooking', goal: 'x', target: { bread: 'many' } } }));
    await expect(loadTaskFile(badTarget)).rejects.toThrow(
      /task "t": key "target": expected an item name, a list of item names, an item → count map or an agent index → item map, found an object/,
    );
    const byItem = await tempFile(
      JSON.stringify({ t: { type: 'techtree', goal: 'x', target: 'stick', initial_inventory: { oak_planks: 2 } } }),
    );
    await expect(loadTaskFile(byItem)).rejects.toThrow(/task "t": key "initial_inventory": "oak_planks" is not an agent index such as "0"/);
    const noLevels = await tempFile(
      JSON.stringify({ t: { type: 'construction', goal: 'x', blueprint: { levels: [{ level: 0, coordinates: [0, 0], placement: [] }] } } }),
    );
    await expect(loadTaskFile(noLevels)).rejects.toThrow(/blueprint\.levels\.0\.coordinates/);
  });
});
