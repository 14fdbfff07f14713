/** The task generators: MineCollab's format, seeded determinism, solvable splits, and the fixtures they wrote. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { addCounts, planProduction } from '../../src/game/production.ts';
import {
  COOKING_WORLD_SOURCES,
  generateCollectionTasks,
  generateConstructionTasks,
  generateCookingTasks,
  generateCraftingTasks,
  generateShelterTasks,
} from '../../src/tasks/generate.ts';
import { checkTaskForVersion, perAgentTargets, taskTargets } from '../../src/tasks/loader.ts';
import { type LoadedTask, taskSchema } from '../../src/tasks/schema.ts';
import { blueprintClashes } from '../../src/oracle/construction-plan.ts';

const data = gameData('1.21.4');

function valid(tasks: Record<string, unknown>): LoadedTask[] {
  return Object.entries(tasks).map(([id, raw]) => {
    const task = { ...taskSchema.parse(raw), id, file: 'generated' } as LoadedTask;
    expect(checkTaskForVersion(task, data)).toEqual([]);
    return task;
  });
}

describe('generated tasks', () => {
  test("collection: one task per entry, empty hands, the counts to hold as a team; the project files are these (S-Agents' tasks)", async () => {
    // S-Agents §IV: 50 and 100 logs, 50 and 100 stone, 20 iron ingots.
    const targets = [
      ['oak_log', 50],
      ['oak_log', 100],
      ['cobblestone', 50],
      ['cobblestone', 100],
      ['iron_ingot', 20],
    ] as const;
    for (const agents of [1, 2, 3]) {
      const tasks = generateCollectionTasks(data, { agents, targets });
      const loaded = valid(tasks);
      expect(loaded.map((t) => [t.type, t.target, t.number_of_target, t.agent_count])).toEqual(
        targets.map(([item, n]) => ['collection', item, n, agents]),
      );
      for (const t of loaded) expect(Object.values(t.initial_inventory)).toEqual(Array.from({ length: agents }, () => ({})));
      const file = JSON.parse(await readFile(path.resolve(`tasks/collection/${agents}_agent.json`), 'utf8')) as unknown;
      expect(file).toEqual(tasks);
    }
    expect(() => generateCollectionTasks(data, { agents: 1, targets: [['oak_logs', 5]] })).toThrow(/"oak_logs" is not an item/);
    expect(() => generateCollectionTasks(data, { agents: 1, targets: [] })).toThrow(/--targets/);
  });

  test("crafting: valid MineCollab tasks, the same for the same seed, solvable from the agents' pool", () => {
    const options = { agents: 3, count: 12, seed: 5, depth: 1, blocked: ['!craftRecipe', '!getCraftingPlan'] };
    const tasks = generateCraftingTasks(data, options);
    expect(generateCraftingTasks(data, options)).toEqual(tasks);
    expect(generateCraftingTasks(data, { ...options, seed: 6 })).not.toEqual(tasks);
    for (const task of valid(tasks)) {
      expect(task).toMatchObject({ type: 'techtree', agent_count: 3, depth: 1, number_of_target: 1 });
      const pool = addCounts(...Object.values(task.initial_inventory));
      expect(planProduction(data, pool, { [task.target as string]: 1 }).missing).toEqual({});
      // The crafting command is blocked for one agent at most, never for all.
      expect(Object.values(task.blocked_actions).filter((b) => b.includes('!craftRecipe')).length).toBe(1);
    }
  });

  test('crafting with missing items: the left-out items are ones the world gives, and are not handed out', () => {
    const tasks = generateCraftingTasks(data, {
      agents: 2,
      count: 3,
      seed: 14,
      depth: 1,
      missing: 1,
      targets: ['chest', 'wooden_pickaxe', 'ladder', 'oak_slab'],
    });
    for (const task of valid(tasks)) {
      const missing = (task as { missing_items?: string[] }).missing_items ?? [];
      expect(missing).toHaveLength(1);
      expect(missing[0]).toMatch(/_log$|cobblestone|dirt|sand|gravel/);
      expect(Object.values(task.initial_inventory).some((inv) => missing[0]! in inv)).toBe(false);
    }
  });

  test("cooking: dishes the cooking world can make, hand-outs dealt, Hell's Kitchen per-agent targets", () => {
    for (const task of valid(generateCookingTasks(data, { agents: 4, count: 8, seed: 3 }))) {
      const pool = addCounts(...Object.values(task.initial_inventory));
      expect(planProduction(data, pool, taskTargets(task), COOKING_WORLD_SOURCES).missing).toEqual({});
      expect(Object.keys(task.recipes as object)).toEqual(Object.keys(taskTargets(task)));
    }
    for (const task of valid(generateCookingTasks(data, { agents: 2, count: 4, seed: 4, hellsKitchen: true }))) {
      expect(task.id.endsWith('hells_kitchen')).toBe(true);
      expect(Object.keys(perAgentTargets(task) ?? {})).toEqual(['0', '1']);
    }
    expect(() => generateCookingTasks(data, { agents: 3, count: 1, seed: 1, hellsKitchen: true })).toThrow(RangeError);
  });

  test('construction: consistent blueprints (no clashing levels), materials exactly the cells, dealt out', () => {
    for (const task of valid(generateConstructionTasks(data, { agents: 2, count: 6, seed: 8, size: 5, levels: 3 }))) {
      expect(blueprintClashes(task.blueprint!)).toEqual([]);
      const cells: Record<string, number> = {};
      for (const l of task.blueprint!.levels)
        for (const row of l.placement) for (const b of row) if (b !== 'air') cells[b] = (cells[b] ?? 0) + 1;
      expect(task.blueprint!.materials).toEqual(cells);
      expect(addCounts(...Object.values(task.initial_inventory))).toEqual(cells);
    }
  });

  test('shelter (S-Agents): a stone foundation, wooden walls with a doorway, a stone roof; agent 0 the stone, the others the planks', () => {
    for (const agents of [1, 2, 3]) {
      for (const task of valid(generateShelterTasks(data, { agents, count: 4, seed: 9, size: 5, walls: 2 }))) {
        const levels = task.blueprint!.levels;
        expect(blueprintClashes(task.blueprint!)).toEqual([]);
        const kinds = levels.map((l) => [...new Set(l.placement.flat())].filter((b) => b !== 'air'));
        const stone = kinds[0]![0]!;
        expect(kinds[0]).toEqual([stone]);
        expect(kinds.at(-1)).toEqual([stone]);
        const wood = kinds[1]![0]!;
        expect(wood).toMatch(/_planks$/);
        for (const k of kinds.slice(1, -1)) expect(k).toEqual([wood]);
        // A doorway in the front wall, two blocks high.
        const door = levels[1]!.placement[0]!.indexOf('air');
        expect(door).toBeGreaterThan(0);
        expect(levels[2]!.placement[0]![door]).toBe('air');
        const inv = task.initial_inventory;
        expect(addCounts(...Object.values(inv))).toEqual(task.blueprint!.materials);
        if (agents === 1) expect(Object.keys(inv[0]!).sort()).toEqual([stone, wood].sort());
        else {
          expect(inv[0]).toEqual({ [stone]: task.blueprint!.materials![stone] });
          const shares = Array.from({ length: agents - 1 }, (_, i) => inv[i + 1]![wood]!);
          expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
        }
      }
    }
    expect(() => generateShelterTasks(data, { agents: 2, count: 1, seed: 1, size: 2 })).toThrow(/--size must be 3–9, got 2/);
    expect(() => generateShelterTasks(data, { agents: 2, count: 1, seed: 1, walls: 1 })).toThrow(/wall height\) must be 2–3, got 1/);
  });

  test('the fixtures in test/fixtures/generated are what the generator writes for their seeds', async () => {
    const read = async (file: string) => JSON.parse(await readFile(path.resolve('test/fixtures/generated', file), 'utf8'));
    expect(await read('crafting_3_agents_depth_1_blocked.json')).toEqual(
      generateCraftingTasks(data, { agents: 3, count: 4, seed: 12, depth: 1, blocked: ['!craftRecipe'] }),
    );
    expect(await read('cooking_2_agents_hells_kitchen.json')).toEqual(
      generateCookingTasks(data, { agents: 2, count: 3, seed: 23, hellsKitchen: true }),
    );
    expect(await read('shelter_3_agents.json')).toEqual(generateShelterTasks(data, { agents: 3, count: 2, seed: 41, size: 3, walls: 2 }));
    expect(await read('construction_2_agents.json')).toEqual(
      generateConstructionTasks(data, { agents: 2, count: 3, seed: 31, size: 4, levels: 2 }),
    );
  });
});
