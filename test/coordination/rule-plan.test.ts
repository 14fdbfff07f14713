/**
 * The rules' decomposition (`rulePlan`) of a VillagerBench construction, whose blocks are in the
 * material chests and whose cells are oriented: a `collect` per builder that lacks its blocks
 * before its builds, cells in place by state left out, and the rule reflection (`checkWork`)
 * comparing states.
 */
import { describe, expect, test } from 'vitest';
import { checkWork, rulePlan } from '../../src/coordination/rule-plan.ts';
import { gameData } from '../../src/game/data.ts';
import type { Blueprint } from '../../src/tasks/schema.ts';
import { TEST_VERSION } from '../helpers/version.ts';
import { FakeTeam } from './fake-team.ts';

const data = gameData(TEST_VERSION);

/** Two levels: a floor of two planks, then stairs facing west on one and a log along x on the other. */
const blueprint: Blueprint = {
  materials: {},
  levels: [
    { level: 0, coordinates: [0, -60, 0], placement: [['oak_planks', 'oak_planks']] },
    { level: 1, coordinates: [0, -59, 0], placement: [['oak_stairs[facing=west]', 'oak_log[axis=x]']] },
  ],
};
const chests = [{ x: 0, y: -60, z: 4 }];

function team(inventories: Record<string, Record<string, number>>) {
  const agents = Object.fromEntries(
    Object.entries(inventories).map(([name, inventory]) => [name, { inventory, task: { blueprint, materialChests: chests } }]),
  );
  return new FakeTeam(agents);
}

describe('rulePlan: VillagerBench construction from the material chests', () => {
  test('each builder lacking its blocks takes them first; levels bottom up; build cells keep their states', () => {
    const t = team({ Andy: {}, Jill: {} });
    const plan = rulePlan({ data, members: t.members, blueprint });
    expect(plan.kind).toBe('work');
    if (plan.kind !== 'work') return;
    const takes = plan.subtasks.filter((s) => s.work?.kind === 'collect');
    expect(takes.map((s) => s.candidates?.[0]).sort()).toEqual(['Andy', 'Jill']);
    const builds = plan.subtasks.filter((s) => s.work?.kind === 'build');
    const cells = builds.flatMap((s) => (s.work?.kind === 'build' ? s.work.cells : []));
    expect(cells.map((c) => c.block).sort()).toEqual(['oak_log[axis=x]', 'oak_planks', 'oak_planks', 'oak_stairs[facing=west]']);
    // What the takes bring is what the builds place, builder by builder.
    const taken: Record<string, number> = {};
    for (const s of takes)
      for (const [item, n] of Object.entries(s.work?.kind === 'collect' ? s.work.targets : {})) taken[item] = (taken[item] ?? 0) + n;
    expect(taken).toEqual({ oak_planks: 2, oak_stairs: 1, oak_log: 1 });
    for (const b of builds) {
      const take = takes.find((s) => s.candidates?.[0] === b.candidates?.[0]);
      if (take) expect(plan.edges).toContainEqual(expect.objectContaining({ from: take.id, to: b.id }));
    }
    for (const upper of builds.filter((s) => s.id.startsWith('L1')))
      for (const lower of builds.filter((s) => s.id.startsWith('L0')))
        expect(plan.edges).toContainEqual(expect.objectContaining({ from: lower.id, to: upper.id }));
  });

  test('a builder holding its blocks takes nothing; a cell in place counts only with its state', () => {
    const t = team({ Andy: { oak_planks: 2, oak_stairs: 1, oak_log: 1 } });
    t.world.set('0,-60,0', 'oak_planks');
    t.world.set('1,-60,0', 'oak_planks');
    t.world.set('0,-59,0', 'oak_stairs[facing=east,half=bottom]'); // turned the wrong way
    t.world.set('1,-59,0', 'oak_log[axis=x]');
    const plan = rulePlan({ data, members: t.members, blueprint });
    expect(plan.kind).toBe('work');
    if (plan.kind !== 'work') return;
    expect(plan.subtasks.some((s) => s.work?.kind === 'collect')).toBe(false);
    const cells = plan.subtasks.flatMap((s) => (s.work?.kind === 'build' ? s.work.cells : []));
    expect(cells).toEqual([{ x: 0, y: -59, z: 0, block: 'oak_stairs[facing=west]' }]);
    const member = t.members[0]!;
    const work = { kind: 'build' as const, cells };
    expect(checkWork({ work, member, teammate: () => undefined })).toMatchObject({ done: false });
    t.world.set('0,-59,0', 'oak_stairs[facing=west,half=bottom]');
    expect(checkWork({ work, member, teammate: () => undefined })).toMatchObject({ done: true });
    expect(rulePlan({ data, members: t.members, blueprint })).toMatchObject({ kind: 'done' });
  });

  test('no agent may place blocks: unsolvable, saying why', () => {
    const agents = { Andy: { inventory: {}, task: { blueprint, materialChests: chests, blockedActions: ['!placeBlockAt'] } } };
    expect(rulePlan({ data, members: new FakeTeam(agents).members, blueprint })).toEqual({
      kind: 'unsolvable',
      reason: 'no agent may place blocks (!placeBlockAt is blocked for all)',
    });
  });
});
