import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { gameData } from '../../../src/game/data.ts';
import { checkTaskForVersion, loadTask, loadTaskFile, TaskError } from '../../../src/tasks/loader.ts';
import { constructionBudget } from '../../../src/tasks/villager/construction.ts';
import { DEFAULT_ESCAPE_RUNS } from '../../../src/tasks/villager/escape.ts';
import { TEST_VERSION } from '../../helpers/version.ts';

const FIXTURES = path.resolve('test/fixtures/villagerbench');
const fixture = (name: string) => path.join(FIXTURES, name);

async function tempFile(content: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vb-load-'));
  const file = path.join(dir, 'tasks.json');
  await writeFile(file, JSON.stringify(content));
  return file;
}

describe('VillagerBench construction files', () => {
  test('one task per blueprint, id task_<index> or its name, with the budget of its complexity', async () => {
    const tasks = await loadTaskFile(fixture('construction.json'));
    expect([...tasks.keys()]).toEqual(['task_0', 'task_1']);
    const hut = tasks.get('task_0')!;
    expect(hut.type).toBe('villager_construction');
    expect(hut.agent_count).toBe(2);
    // c = 1.04 + 0.70667 + 1.04 + 1.08 (see construction.test.ts): action 321 s, total 1023 s.
    expect(hut.villager?.budget).toMatchObject({ actionS: 321, totalS: 1023 });
    expect(hut.timeout).toBe(1023);
    expect(hut.goal).toContain('oak_stairs facing W at [-9 -60 0]');
    expect(hut.goal).toContain('oak_log axis y at [-8 -60 0]');
    // The air entry is neither built nor judged.
    expect(hut.villager?.scenario === 'construction' && hut.villager.blocks).toHaveLength(4);
    expect((await loadTask(fixture('construction.json'), 'pillar')).id).toBe('task_1');
    expect((await loadTask(fixture('construction.json'), 'task_1', { agents: 5 })).agent_count).toBe(5);
  });

  test('a bad facing is refused with its path and the values it may take', async () => {
    const file = await tempFile([{ name: 'b', size: [1, 1, 1], blocks: [{ name: 'stone', position: [0, 0, 0], facing: 'up' }] }]);
    await expect(loadTaskFile(file)).rejects.toThrow(TaskError);
    await expect(loadTaskFile(file)).rejects.toThrow(
      /key "0\.blocks\.0\.facing": expected one of "W"\|"E"\|"S"\|"N"\|"x"\|"y"\|"z"\|"A", found string "up"/,
    );
  });

  test('an unknown key and a short position are refused', async () => {
    const file = await tempFile([{ name: 'b', size: [1, 1, 1], blocks: [{ name: 'stone', position: [0, 0], colour: 'red' }] }]);
    const err = await loadTaskFile(file).catch((e: Error) => e);
    expect(String(err)).toMatch(/unknown key "colour" in "0\.blocks\.0"/);
    expect(String(err)).toMatch(/key "0\.blocks\.0\.position/);
  });

  test('the budget of a tiny blueprint does not go below 180 s of action and 600 s in all', () => {
    expect(constructionBudget(0.2)).toMatchObject({ actionS: 180, totalS: 600 });
  });
});

describe('VillagerBench farm files', () => {
  test('one task per entry, id its name; the goal names each ingredient and its source', async () => {
    const tasks = await loadTaskFile(fixture('cooking.json'), { agents: 3 });
    expect([...tasks.keys()]).toEqual(['cake_farm', 'bread_chest']);
    const cake = tasks.get('cake_farm')!;
    expect(cake.type).toBe('villager_cooking');
    expect(cake.agent_count).toBe(3);
    expect(cake.goal).toContain('sugar: sugar_cane in the farm');
    // D = (1 + 1) milk_bucket for milk + (1 + 1) hay for wheat + (1 + 2) cane from the farm for sugar = 7: 280 s, 1400 s.
    expect(cake.villager?.budget).toMatchObject({ complexity: 7, actionS: 280, totalS: 1400 });
  });

  test('a malformed source and a dangling sub-checkpoint are refused with their paths', async () => {
    const file = await tempFile([
      {
        name: 'x',
        target: 'bread',
        wheat: 'wheat on the moon',
        check_point: [{ name: 'bread', count: 1, score: 100, sub_check_point: ['flour'] }],
      },
    ]);
    const err = String(await loadTaskFile(file).catch((e: Error) => e));
    expect(err).toMatch(/key "0\.wheat": expected an ingredient source such as "wheat in chest"/);
    expect(err).toMatch(
      /key "0\.check_point\.0\.sub_check_point\.0": expected the name of one of the task's checkpoints \(bread\), found string "flour"/,
    );
  });

  test('two tasks of one name are refused', async () => {
    const one = { name: 'x', target: 'bread', check_point: [{ name: 'bread', count: 1, score: 100 }] };
    await expect(loadTaskFile(await tempFile([one, one]))).rejects.toThrow(/two farm tasks are named "x"/);
  });
});

describe('VillagerBench escape files', () => {
  test("our escape file: its runs, its team size; any other run on demand; the rooms' in-items given to every agent", async () => {
    const tasks = await loadTaskFile(fixture('escape.json'));
    expect([...tasks.keys()]).toEqual(['escape_1_0', 'escape_3_1']);
    const three = tasks.get('escape_3_1')!;
    expect(three.type).toBe('villager_escape');
    expect(three.agent_count).toBe(2);
    expect(three.initial_inventory).toEqual({ '0': { oak_planks: 2 }, '1': { oak_planks: 2 } });
    // D = 2 + 1 + 1 conditions (the or room's two levers: 2): 30 · 5 + 60 s; 60 · 3 + 360 s.
    expect(three.villager?.budget).toMatchObject({ complexity: 5, actionS: 210, totalS: 540 });
    const other = await loadTask(fixture('escape.json'), 'escape_4_9');
    expect(other.id).toBe('escape_4_9');
    expect(other.villager?.scenario === 'escape' && other.villager.rooms).toBe(4);
  });

  test("a bare atom list plays VillagerBench's 25 runs", async () => {
    const { atoms } = (await import('../../fixtures/villagerbench/escape.json', { with: { type: 'json' } })).default;
    const tasks = await loadTaskFile(await tempFile(atoms));
    expect([...tasks.keys()]).toEqual(DEFAULT_ESCAPE_RUNS);
  });

  test('a one-agent team cannot play atoms that need two; a bad type is refused with its path', async () => {
    const needsTwo = [{ condition: [{ name: 'lever', position: [0, 0, 0], powered: true }], min_player: 2 }];
    await expect(loadTaskFile(await tempFile(needsTwo), { agents: 1 })).rejects.toThrow(/none of the 1 atoms can be played by 1 agent/);
    const longCommand = [{ condition: [{ name: 'lever', position: [0, 0, 0], command: `/say ${'x'.repeat(200)}` }] }];
    await expect(loadTaskFile(await tempFile(longCommand))).rejects.toThrow(
      /key "0\.condition\.0\.command": expected a command of at most 200 characters/,
    );
    const badType = [{ condition: [{ name: 'lever', position: [0, 0, 0] }], type: 'xor' }];
    await expect(loadTaskFile(await tempFile(badType))).rejects.toThrow(/key "0\.type": expected one of "and"\|"or", found string "xor"/);
  });
});

describe('VillagerBench tasks against the Minecraft version', () => {
  test('the fixtures name only blocks, items and structures the version has', async () => {
    const data = gameData(TEST_VERSION);
    for (const file of ['construction.json', 'cooking.json', 'escape.json'])
      for (const task of (await loadTaskFile(fixture(file))).values()) expect(checkTaskForVersion(task, data)).toEqual([]);
  });

  test('an unknown block, item or structure is named with the closest valid names', async () => {
    const data = gameData(TEST_VERSION);
    const blueprint = await tempFile([{ name: 'b', size: [1, 1, 1], blocks: [{ name: 'oak_stair', position: [0, 0, 0], facing: 'W' }] }]);
    const oakStair = (await loadTaskFile(blueprint)).get('task_0')!;
    expect(() => checkTaskForVersion(oakStair, data)).toThrow(/blocks: "oak_stair" is not a block in Minecraft .* \(closest: "oak_stairs"/);
    const farm = await tempFile([
      {
        name: 'x',
        target: 'cake',
        component: [{ name: 'banana_farm', type: 'structure', position: [0, 0, 0] }],
        check_point: [{ name: 'caek', count: 1, score: 100 }],
      },
    ]);
    const err = String(
      await Promise.resolve()
        .then(async () => checkTaskForVersion((await loadTaskFile(farm)).get('x')!, data))
        .catch((e: Error) => e),
    );
    expect(err).toMatch(/check_point\[0\]: "caek" is not an item/);
    expect(err).toMatch(/component\[0\]: no structure "banana_farm": the structures are/);
  });
});
