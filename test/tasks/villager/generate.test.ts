/**
 * `npm run generate -- villager-construction | villager-cooking | escape`: the same seed writes the
 * same file; the files load, pass the version check, and are judged (empty world 0, the task done 1).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { generate } from '../../../src/app/generate.ts';
import { gameData } from '../../../src/game/data.ts';
import { checkTaskForVersion, loadTaskFile } from '../../../src/tasks/loader.ts';
import type { LoadedTask } from '../../../src/tasks/schema.ts';
import { validatorFor, type TaskState } from '../../../src/tasks/validators.ts';
import { chainRooms } from '../../../src/tasks/villager/escape.ts';
import type { BlockState } from '../../../src/tasks/villager/states.ts';
import { TEST_VERSION } from '../../helpers/version.ts';

const data = gameData(TEST_VERSION);

async function generated(kind: string, seed: number, extra: string[] = []): Promise<{ file: string; text: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vb-gen-'));
  const file = path.join(dir, `${kind}.json`);
  await generate([kind, '--out', file, '--seed', String(seed), '--count', '12', '--version', TEST_VERSION, ...extra]);
  return { file, text: await readFile(file, 'utf8') };
}

const state = (partial: Partial<TaskState>): TaskState => ({ inventories: () => [{}, {}], lookup: () => 'air', ...partial });
const air: BlockState = { name: 'air', properties: {} };

async function loaded(kind: string, seed: number, extra: string[] = []): Promise<LoadedTask[]> {
  const { file, text } = await generated(kind, seed, extra);
  expect((await generated(kind, seed, extra)).text).toBe(text);
  expect((await generated(kind, seed + 1, extra)).text).not.toBe(text);
  const tasks = [...(await loadTaskFile(file)).values()];
  for (const task of tasks) expect(checkTaskForVersion(task, data)).toEqual([]);
  return tasks;
}

describe('generated VillagerBench tasks', () => {
  test('construction: oriented houses that load, and score 1 when built as given', async () => {
    const tasks = await loaded('villager-construction', 3, ['--agents', '3']);
    expect(tasks).toHaveLength(12);
    expect(tasks.every((t) => t.agent_count === 3)).toBe(true);
    const facings = new Set<string>();
    for (const task of tasks) {
      const spec = task.villager!;
      if (spec.scenario !== 'construction') throw new Error('not construction');
      for (const b of spec.blocks)
        facings.add(`${b.state.name.replace(/^.*_/, '')}:${b.state.properties.facing ?? b.state.properties.axis ?? ''}`);
      const built = new Map(spec.blocks.map((b) => [`${b.x},${b.y},${b.z}`, b.state]));
      const validate = validatorFor(task)!;
      expect(validate(state({ states: () => air })).score).toBe(0);
      expect(validate(state({ states: (x, y, z) => built.get(`${x},${y},${z}`) ?? air }))).toMatchObject({
        success: true,
        metrics: { completion: 1, vhr: 1 },
      });
    }
    // Stairs facing in from both roof edges, pillars upright, lintels across.
    expect([...facings]).toEqual(expect.arrayContaining(['stairs:east', 'stairs:west', 'log:y', 'log:x']));
  });

  test('cooking: dishes from minecraft-data recipes with sourced ingredients; holding the dish scores 1', async () => {
    const tasks = await loaded('villager-cooking', 5);
    expect(tasks).toHaveLength(12);
    for (const task of tasks) {
      const spec = task.villager!;
      if (spec.scenario !== 'cooking') throw new Error('not cooking');
      const validate = validatorFor(task)!;
      expect(validate(state({ inventories: () => [{}, {}] })).score).toBe(0);
      // Every ingredient held: their scores, under 100; then the dish: 100.
      const ingredients = Object.fromEntries(spec.farm.check_point.slice(1).map((c) => [c.name, c.count]));
      const partial = validate(state({ inventories: () => [ingredients, {}] }));
      expect(partial.score).toBeGreaterThan(0);
      expect(partial.score).toBeLessThan(1);
      expect(validate(state({ inventories: () => [ingredients, { [spec.farm.target]: 1 }] }))).toMatchObject({ success: true, score: 1 });
    }
  });

  test('escape: runs of 1–5 rooms that load, and are escaped when every condition holds', async () => {
    const tasks = await loaded('escape', 9, ['--agents', '2']);
    expect(tasks.map((t) => t.id).slice(0, 5)).toEqual(['escape_1_9', 'escape_2_10', 'escape_3_11', 'escape_4_12', 'escape_5_13']);
    for (const task of tasks) {
      const spec = task.villager!;
      if (spec.scenario !== 'escape') throw new Error('not escape');
      const chain = chainRooms(spec.atoms, spec.rooms, spec.seed, task.agent_count, { x: 0, y: -60, z: 0 });
      const validate = validatorFor({ ...task, villager: { ...spec, chain } })!;
      expect(validate(state({ states: () => air, now: () => 0 })).score).toBe(0);
      const held = new Map(
        chain.rooms.flatMap((r) => r.conditions.map((c) => [`${c.at.x},${c.at.y},${c.at.z}`, { name: c.name, properties: c.states }])),
      );
      expect(validate(state({ states: (x, y, z) => held.get(`${x},${y},${z}`) ?? air, now: () => 50 }))).toMatchObject({
        success: true,
        score: 1,
      });
    }
  });
});
