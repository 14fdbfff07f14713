import { describe, expect, test } from 'vitest';
import type { BlockLookup } from '../../src/tasks/blueprint.ts';
import { taskSchema, type Task } from '../../src/tasks/schema.ts';
import { perAgentTargets, validatorFor, type TaskState } from '../../src/tasks/validators.ts';
import {
  blueprintBox,
  cookingBlockCommands,
  cookingLayout,
  fillBoxCommands,
  FILL_LIMIT,
  PLAIN_RADIUS,
  shiftBlueprint,
} from '../../src/tasks/worlds.ts';

type Inv = Record<string, number>;
const task = (fields: Record<string, unknown>, id?: string): Task & { id?: string } => ({
  ...taskSchema.parse({ goal: 'g', ...fields }),
  id,
});
const state = (inventories: Inv[], lookup: BlockLookup = () => 'air'): TaskState => ({ inventories: () => inventories, lookup });

describe('item validators', () => {
  test('techtree: one agent must hold every target in its count', () => {
    const v = validatorFor(task({ type: 'techtree', target: 'compass', number_of_target: 2, agent_count: 2 }))!;
    expect(v(state([{ compass: 1 }, { compass: 1 }]))).toEqual({ success: false, score: 0 });
    expect(v(state([{}, { compass: 2 }]))).toEqual({ success: true, score: 1 });
  });

  test("collection: the team's inventories together hold every target in its count", () => {
    const v = validatorFor(task({ type: 'collection', target: 'oak_log', number_of_target: 50, agent_count: 3 }))!;
    expect(v(state([{ oak_log: 20 }, { oak_log: 20 }, { oak_log: 9 }]))).toEqual({ success: false, score: 0 });
    expect(v(state([{ oak_log: 20 }, { oak_log: 20, dirt: 3 }, { oak_log: 10 }]))).toEqual({ success: true, score: 1 });
  });

  test('cooking with an item → count map: counts come from the map, all in one inventory', () => {
    const v = validatorFor(task({ type: 'cooking', agent_count: 2, target: { bread: 2, golden_apple: 1 } }))!;
    expect(v(state([{ bread: 2 }, { golden_apple: 1 }])).success).toBe(false);
    expect(v(state([{ bread: 1, golden_apple: 1 }, {}])).success).toBe(false);
    expect(v(state([{}, { bread: 2, golden_apple: 1 }])).success).toBe(true);
  });

  test("Hell's Kitchen (benchmark shape: list + id suffix): each agent holds its own target", () => {
    const t = task(
      { type: 'cooking', agent_count: 2, target: ['bread', 'golden_apple'] },
      'multiagent_cooking_bread_golden_apple_hells_kitchen',
    );
    expect(perAgentTargets(t)).toEqual({ 0: 'bread', 1: 'golden_apple' });
    const v = validatorFor(t)!;
    expect(v(state([{ bread: 1, golden_apple: 1 }, {}])).success).toBe(false); // one agent with both is not enough
    expect(v(state([{ golden_apple: 1 }, { bread: 1 }])).success).toBe(false); // swapped
    expect(v(state([{ bread: 1 }, { golden_apple: 1 }]))).toEqual({ success: true, score: 1 });
  });

  test("Hell's Kitchen as an agent index → item map; a list without the suffix is an ordinary target list", () => {
    const v = validatorFor(task({ type: 'cooking', agent_count: 2, target: { 0: 'cake', 1: 'bread' } }))!;
    expect(v(state([{ cake: 1 }, { bread: 1 }])).success).toBe(true);
    expect(v(state([{ cake: 1, bread: 1 }, {}])).success).toBe(false);
    const plain = task({ type: 'cooking', agent_count: 2, target: ['bread', 'cake'] }, 'multiagent_cooking_bread_cake');
    expect(perAgentTargets(plain)).toBeUndefined();
    expect(validatorFor(plain)!(state([{ bread: 1, cake: 1 }, {}])).success).toBe(true);
  });

  test('other types have no validator', () => {
    expect(validatorFor(task({ type: 'debug' }))).toBeUndefined();
    expect(validatorFor(task({ type: 'toString' }))).toBeUndefined();
  });
});

describe('construction validator', () => {
  const blueprint = {
    levels: [
      {
        level: 0,
        coordinates: [0, 5, 0],
        placement: [
          ['stone', 'stone'],
          ['air', 'dirt'],
        ],
      },
      {
        level: 1,
        coordinates: [0, 6, 0],
        placement: [
          ['stone', 'air'],
          ['air', 'air'],
        ],
      },
    ],
  };
  const world =
    (blocks: Record<string, string>, unknown: string[] = []): BlockLookup =>
    (x, y, z) =>
      unknown.includes(`${x},${y},${z}`) ? undefined : (blocks[`${x},${y},${z}`] ?? 'air');
  const v = validatorFor(task({ type: 'construction', blueprint }))!;

  test('the score is the matching fraction; both-air cells are skipped; success only at 100', () => {
    expect(v(state([], world({})))).toEqual({ success: false, score: 0 });
    // 2 of the 4 wanted blocks, plus a stray block where air belongs: 2 / (2 + 2 + 1).
    expect(v(state([], world({ '0,5,0': 'stone', '1,5,0': 'stone', '1,6,1': 'dirt' })))).toEqual({ success: false, score: 0.4 });
    expect(v(state([], world({ '0,5,0': 'stone', '1,5,0': 'stone', '1,5,1': 'minecraft:dirt', '0,6,0': 'stone' })))).toEqual({
      success: true,
      score: 1,
    });
  });

  test('a cell the bot cannot see blocks success even when everything seen matches', () => {
    const seen = world({ '0,5,0': 'stone', '1,5,0': 'stone', '1,5,1': 'dirt' }, ['0,6,0']);
    expect(v(state([], seen))).toEqual({ success: false, score: 1 });
  });

  test('a construction task without a blueprint cannot be validated', () => {
    expect(() => validatorFor(task({ type: 'construction' }, 'x'))).toThrow(/construction task "x" has no blueprint/);
  });
});

describe('task worlds', () => {
  test('blueprints move vertically only; their box is where the cells are', () => {
    const bp = taskSchema.shape.blueprint.parse({
      levels: [
        { level: 0, coordinates: [-60, -60, 6], placement: [['stone', 'air', 'stone']] },
        { level: 1, coordinates: [-60, -59, 6], placement: [['air'], ['stone']] },
      ],
    })!;
    const moved = shiftBlueprint(bp, 65);
    expect(moved.levels.map((l) => l.coordinates)).toEqual([
      [-60, 5, 6],
      [-60, 6, 6],
    ]);
    expect(bp.levels[0]!.coordinates).toEqual([-60, -60, 6]); // the original is untouched
    expect(blueprintBox(moved)).toEqual({ min: { x: -60, y: 5, z: 6 }, max: { x: -58, y: 6, z: 7 } });
  });

  test('a large box is cleared in slabs no larger than the /fill limit', () => {
    const box = { min: { x: 0, y: 0, z: 0 }, max: { x: 99, y: 9, z: 99 } }; // 100 000 blocks
    const cmds = fillBoxCommands(box, 'air');
    expect(cmds).toEqual(['/fill 0 0 0 99 2 99 air', '/fill 0 3 0 99 5 99 air', '/fill 0 6 0 99 8 99 air', '/fill 0 9 0 99 9 99 air']);
    for (const c of cmds) {
      const [x1, y1, z1, x2, y2, z2] = c.split(' ').slice(1, 7).map(Number);
      expect((x2! - x1! + 1) * (y2! - y1! + 1) * (z2! - z1! + 1)).toBeLessThanOrEqual(FILL_LIMIT);
    }
    expect(() => fillBoxCommands({ min: { x: 0, y: 0, z: 0 }, max: { x: 199, y: 0, z: 199 } }, 'air')).toThrow(RangeError);
  });

  test('the cooking world stays on its plain and every /fill is within the limit', () => {
    const o = { x: 100, y: 5, z: -40 };
    const l = cookingLayout(o);
    const points = [
      l.craftingTable,
      l.furnace,
      l.smoker,
      l.bed.head,
      l.bed.foot,
      ...l.sugarCane,
      ...l.mushrooms.map((m) => m.pos),
      ...l.animals.map((a) => a.pos),
      ...l.crops.flatMap((c) => [c.box.min, c.box.max]),
    ];
    for (const p of points) {
      expect(Math.abs(p.x - o.x)).toBeLessThanOrEqual(PLAIN_RADIUS);
      expect(Math.abs(p.z - o.z)).toBeLessThanOrEqual(PLAIN_RADIUS);
    }
    expect(l.animals).toHaveLength(56);
    const cmds = cookingBlockCommands(o);
    expect(cmds[0]).toBe('/fill 88 5 -52 112 15 -28 air');
    for (const c of cmds.filter((c) => c.startsWith('/fill'))) {
      const [x1, y1, z1, x2, y2, z2] = c.split(' ').slice(1, 7).map(Number);
      expect((x2! - x1! + 1) * (y2! - y1! + 1) * (z2! - z1! + 1)).toBeLessThanOrEqual(FILL_LIMIT);
    }
  });
});
