import { describe, expect, test } from 'vitest';
import {
  blueprintCheckData,
  blueprintScore,
  changeLine,
  checkBlueprint,
  checkLevel,
  constructionScore,
  diffLines,
  findLevel,
  formatBlueprint,
  formatBlueprintCheck,
  formatLevelCheck,
  levelCells,
  levelCheckData,
  normalizeBlockState,
  type BlockLookup,
} from '../../src/tasks/blueprint.ts';
import { blueprintSchema, type Blueprint } from '../../src/tasks/schema.ts';

const blueprint: Blueprint = blueprintSchema.parse({
  materials: { stone: 3, oak_planks: 1 },
  levels: [
    {
      level: 0,
      coordinates: [10, 64, 20],
      placement: [
        ['stone', 'stone'],
        ['air', 'minecraft:oak_planks'],
      ],
    },
    { level: 1, coordinates: [10, 65, 20], placement: [['stone', 'air']] },
  ],
});

/** A world from a map of "x,y,z" → name; anything else is air, unless listed as unknown. */
function world(blocks: Record<string, string>, unknown: string[] = []): BlockLookup {
  return (x, y, z) => (unknown.includes(`${x},${y},${z}`) ? undefined : (blocks[`${x},${y},${z}`] ?? 'air'));
}

describe('blueprint comparison', () => {
  test('cells map placement[r][c] to (x + c, y, z + r)', () => {
    const cells = levelCells(blueprint.levels[0]!);
    expect(cells).toContainEqual({ x: 11, y: 64, z: 21, block: 'oak_planks' });
    expect(cells).toContainEqual({ x: 10, y: 64, z: 21, block: 'air' });
    expect(cells).toContainEqual({ x: 11, y: 64, z: 20, block: 'stone' });
  });

  test('an empty world needs every block placed; both-air cells are skipped from the score', () => {
    const check = checkLevel(findLevel(blueprint, 0)!, world({}));
    expect(diffLines(check)).toEqual(['Place stone at (10, 64, 20)', 'Place stone at (11, 64, 20)', 'Place oak_planks at (11, 64, 21)']);
    expect(check.matching).toBe(0);
    expect(constructionScore(check)).toBe(0);
  });

  test('wrong blocks are replaced, blocks where air belongs removed, and the score counts matches', () => {
    const lookup = world({
      '10,64,20': 'stone',
      '11,64,20': 'dirt',
      '10,64,21': 'cobblestone',
      '11,64,21': 'oak_planks',
      '10,65,20': 'stone',
      '11,65,20': 'cave_air',
    });
    const check = checkBlueprint(blueprint, lookup);
    expect(diffLines(check)).toEqual(['Replace the dirt at (11, 64, 20) with stone', 'Remove the cobblestone at (10, 64, 21)']);
    expect(check.matching).toBe(3);
    expect(blueprintScore(blueprint, lookup)).toBe(60); // 3 / (3 + 2)
    expect(formatLevelCheck(1, checkLevel(blueprint.levels[1]!, lookup))).toBe('Level 1 is complete.');
    expect(formatBlueprintCheck(blueprint, lookup)).toBe(
      [
        'Level 0 needs 2 changes:',
        'Replace the dirt at (11, 64, 20) with stone',
        'Remove the cobblestone at (10, 64, 21)',
        'Level 1 is complete.',
        'Construction score: 60%.',
      ].join('\n'),
    );
  });

  test('a finished build scores 100; unknown cells are listed but not counted', () => {
    const done = world({ '10,64,20': 'stone', '11,64,20': 'stone', '11,64,21': 'oak_planks', '10,65,20': 'stone' });
    expect(blueprintScore(blueprint, done)).toBe(100);
    expect(formatBlueprintCheck(blueprint, done)).toMatch(/The blueprint is complete\.$/);
    const partlyUnknown = checkBlueprint(blueprint, world({ '10,64,20': 'stone' }, ['11,64,20']));
    expect(partlyUnknown.unknown).toHaveLength(1);
    expect(diffLines(partlyUnknown)).toContain('Cannot see (11, 64, 20) (should be stone)');
    expect(constructionScore(partlyUnknown)).toBeCloseTo(100 / 3); // 1 match, 2 to place
  });

  test("a check's data lists its changes in the text's order; the text is written from it", () => {
    const lookup = world({ '10,64,20': 'stone', '11,64,20': 'dirt', '10,64,21': 'cobblestone' }, ['11,64,21']);
    const level = levelCheckData(0, checkLevel(blueprint.levels[0]!, lookup));
    expect(level).toEqual({
      level: 0,
      complete: false,
      changes: [
        { action: 'replace', position: { x: 11, y: 64, z: 20 }, block: 'stone', current: 'dirt' },
        { action: 'remove', position: { x: 10, y: 64, z: 21 }, current: 'cobblestone' },
        { action: 'unseen', position: { x: 11, y: 64, z: 21 }, block: 'oak_planks' },
      ],
    });
    expect(level.changes.map(changeLine)).toEqual(diffLines(checkLevel(blueprint.levels[0]!, lookup)));
    const whole = blueprintCheckData(blueprint, lookup);
    expect(whole).toMatchObject({ complete: false, score: blueprintScore(blueprint, lookup) });
    expect(whole.changes).toEqual([...level.changes, { action: 'place', position: { x: 10, y: 65, z: 20 }, block: 'stone' }]);
    expect(whole.levels!.map((l) => l.level)).toEqual([0, 1]);
    expect(formatBlueprintCheck(blueprint, lookup).split('\n').slice(1, 4)).toEqual(level.changes.map(changeLine));
  });

  test('formatBlueprint lists materials and every level with its rows', () => {
    const text = formatBlueprint(blueprint);
    expect(text).toContain('Materials: 3 stone, 1 oak_planks');
    expect(text).toContain('Level 0 at y=64, starting at (10, 64, 20)');
    expect(text).toContain('row 1 (z=21): air, oak_planks');
    expect(findLevel(blueprint, 7)).toBeUndefined();
  });

  test('state cells compare orientation where the lookup gives it, and show states; names-only cells stay by name', () => {
    const oriented: Blueprint = blueprintSchema.parse({
      levels: [{ level: 0, coordinates: [0, 64, 0], placement: [['oak_stairs[facing=west]', 'oak_log[axis=x]', 'stone']] }],
    });
    const lookup = world({
      '0,64,0': 'oak_stairs[facing=east,half=bottom,shape=straight]',
      '1,64,0': 'oak_log[axis=x]',
      '2,64,0': 'stone',
    });
    const check = checkLevel(oriented.levels[0]!, lookup);
    expect(check.matching).toBe(2);
    expect(diffLines(check)).toEqual([
      'Replace the oak_stairs[facing=east,half=bottom,shape=straight] at (0, 64, 0) with oak_stairs[facing=west]',
    ]);
    // Right way round: complete; a lookup of names only compares names.
    expect(
      checkLevel(
        oriented.levels[0]!,
        world({ '0,64,0': 'oak_stairs[facing=west,half=top]', '1,64,0': 'oak_log[axis=x]', '2,64,0': 'stone' }),
      ).mismatches,
    ).toEqual([]);
    expect(checkLevel(oriented.levels[0]!, world({ '0,64,0': 'oak_stairs', '1,64,0': 'oak_log', '2,64,0': 'stone' })).matching).toBe(3);
    // A names-only blueprint read with states: the world's block shown by name, as before.
    expect(
      diffLines(
        checkLevel(
          blueprint.levels[0]!,
          world({ '10,64,20': 'oak_stairs[facing=west]', '11,64,20': 'stone', '10,64,21': 'air', '11,64,21': 'oak_planks' }),
        ),
      ),
    ).toEqual(['Replace the oak_stairs at (10, 64, 20) with stone']);
    expect(formatBlueprint(oriented)).toContain('row 0 (z=0): oak_stairs[facing=west], oak_log[axis=x], stone');
    expect(levelCells(oriented.levels[0]!)[0]).toEqual({ x: 0, y: 64, z: 0, block: 'oak_stairs', state: 'oak_stairs[facing=west]' });
    expect(normalizeBlockState('minecraft:Oak_Stairs[facing=west, half=bottom]')).toBe('oak_stairs[facing=west,half=bottom]');
  });
});
