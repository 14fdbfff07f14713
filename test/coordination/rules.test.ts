/**
 * The game rules on task graphs: a wooden pickaxe's recipe tree from oak logs (minecraft-data
 * recipes and harvest tools) and a two-level blueprint; verdicts per edge, missing required edges,
 * applying them to the graph, and the switch that turns them off.
 */
import { describe, expect, test } from 'vitest';
import { TaskGraph } from '../../src/coordination/graph.ts';
import { applyRules, checkEdges } from '../../src/coordination/rules.ts';
import { gameData } from '../../src/game/data.ts';
import { levelCells } from '../../src/tasks/blueprint.ts';
import type { Blueprint } from '../../src/tasks/schema.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const data = gameData(TEST_VERSION);
const verdicts = (r: ReturnType<typeof checkEdges>) => Object.fromEntries(r.edges.map((e) => [`${e.from}>${e.to}`, e.verdict]));

/**
 * logs (1) → planks (2) → sticks (3) → pickaxe (4, which also lists the logs) → cobblestone (5,
 * which the model made wait for the sticks instead of the pickaxe); wheat (6) that the model put
 * before the sticks.
 */
function pickaxeGraph(): TaskGraph {
  const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
  const r = g.addRound([
    { id: '1', description: 'collect logs', work: { kind: 'collect', targets: { oak_log: 3 } } },
    { id: '6', description: 'collect wheat', requires: [], work: { kind: 'collect', targets: { wheat: 2 } } },
    { id: '2', description: 'craft planks', requires: ['1'], work: { kind: 'make', targets: { oak_planks: 12 } } },
    { id: '3', description: 'craft sticks', requires: ['2', '6'], work: { kind: 'make', targets: { stick: 4 } } },
    { id: '4', description: 'craft the pickaxe', requires: ['1', '3'], work: { kind: 'make', targets: { wooden_pickaxe: 1 } } },
    { id: '5', description: 'mine cobblestone', requires: ['3'], work: { kind: 'collect', targets: { cobblestone: 3 } } },
  ]);
  expect(r.ok).toBe(true);
  return g;
}

describe('recipes: a wooden pickaxe from oak logs', () => {
  test('each edge proved, refuted or unknown, with the fact behind it', () => {
    const report = checkEdges(pickaxeGraph(), { data });
    expect(verdicts(report)).toEqual({
      '1.1>1.2': 'proved', // planks are crafted from logs
      '1.2>1.3': 'proved', // sticks from planks
      '1.6>1.3': 'refuted', // nothing of a stick is wheat
      '1.1>1.4': 'unknown', // logs are down the pickaxe's tree, but planks and sticks come from 1.2 and 1.3
      '1.3>1.4': 'proved', // the pickaxe uses the sticks
      '1.3>1.5': 'unknown', // sticks go into a pickaxe, which digging needs
    });
    const reason = (from: string, to: string) => report.edges.find((e) => e.from === from && e.to === to)!.reason;
    expect(reason('1.1', '1.2')).toBe('make 12 oak_planks uses oak_log, which collect 3 oak_log makes');
    expect(reason('1.6', '1.3')).toBe('make 4 stick needs nothing collect 2 wheat makes (it makes wheat)');
    expect(reason('1.1', '1.4')).toBe('oak_log from collect 3 oak_log can be used further down the tree of make 1 wooden_pickaxe');
  });

  test('a required edge that is missing: the cobblestone needs the pickaxe', () => {
    const report = checkEdges(pickaxeGraph(), { data });
    expect(report.missing.map((m) => [m.from, m.to])).toEqual([['1.4', '1.5']]);
    expect(report.missing[0]!.reason).toMatch(
      // (1.21.9 added the copper pickaxe, between the wooden and the stone one)
      /^collect 3 cobblestone needs one of wooden_pickaxe, (copper_pickaxe, )?stone_pickaxe, .* to dig; make 1 wooden_pickaxe makes wooden_pickaxe$/,
    );
    // 1.2 → 1.4 is required too (the pickaxe uses planks), but the path 1.2 → 1.3 → 1.4 implies it.
    expect(report.missing.some((m) => m.from === '1.2' && m.to === '1.4')).toBe(false);
    expect(report.conflicts).toEqual([]);
  });

  test('applyRules drops the refuted edge and adds the missing one, both kept in the records', () => {
    const g = pickaxeGraph();
    const v = g.version;
    const r = applyRules(g, { data });
    expect([r.checked, r.removed, r.added]).toEqual([6, 1, 1]);
    expect(g.version).toBe(v + 2);
    expect(g.edge('1.6', '1.3')).toBeUndefined();
    expect(g.edge('1.4', '1.5')).toMatchObject({ origin: 'rule_added', addedAs: 'rule_added' });
    const removed = g.toJSON().edges.filter((e) => e.removed);
    expect(removed).toEqual([
      {
        from: '1.6',
        to: '1.3',
        origin: 'rule_removed',
        addedAs: 'llm',
        removed: true,
        reason: 'make 4 stick needs nothing collect 2 wheat makes (it makes wheat)',
      },
    ]);
    // Applying again changes nothing.
    expect(applyRules(g, { data })).toMatchObject({ removed: 0, added: 0 });
  });

  test('the switch: rules off answer unknown and change nothing', () => {
    const g = pickaxeGraph();
    const v = g.version;
    const r = applyRules(g, { data, enabled: false });
    expect([r.removed, r.added]).toEqual([0, 0]);
    expect(g.version).toBe(v);
    expect(new Set(r.report.edges.map((e) => e.verdict))).toEqual(new Set(['unknown']));
    expect(r.report.missing).toEqual([]);
  });

  test('nodes without work, and work naming no item of the version, are unknown and say why', () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    g.addRound([
      { id: '1', description: 'look around' },
      { id: '2', description: 'collect', requires: ['1'], work: { kind: 'collect', targets: { oak_log: 1 } } },
      { id: '3', description: 'craft', requires: ['2'], work: { kind: 'make', targets: { unobtainium: 1 } } },
    ]);
    const report = checkEdges(g, { data });
    expect(report.edges.map((e) => [e.verdict, e.reason])).toEqual([
      ['unknown', 'no work to check on 1.1'],
      ['unknown', `cannot check make 1 unobtainium: "unobtainium" is not an item in Minecraft ${TEST_VERSION}`],
    ]);
  });

  test('two nodes making the same item are independent', () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
    g.addRound([
      { id: '1', description: 'planks', work: { kind: 'make', targets: { oak_planks: 4 } } },
      { id: '2', description: 'more planks', requires: ['1'], work: { kind: 'make', targets: { oak_planks: 4 } } },
    ]);
    g.addRound([
      { id: '1', description: 'logs', work: { kind: 'collect', targets: { oak_log: 1 } } },
      { id: '2', description: 'more logs', requires: ['1'], work: { kind: 'collect', targets: { oak_log: 1 } } },
    ]);
    expect(verdicts(checkEdges(g, { data }))).toEqual({ '1.1>1.2': 'refuted', '2.1>2.2': 'refuted' });
  });

  test('a hand-over sits between the maker and the user', () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
    g.addRound([
      { id: '1', description: 'planks', work: { kind: 'make', targets: { oak_planks: 4 } } },
      { id: '2', description: 'give', requires: ['1'], work: { kind: 'give', to: 'Bob', items: { oak_planks: 2 } } },
      { id: '3', description: 'sticks', requires: ['2'], work: { kind: 'make', targets: { stick: 4 } } },
    ]);
    expect(verdicts(checkEdges(g, { data }))).toEqual({ '1.1>1.2': 'proved', '1.2>1.3': 'proved' });
  });

  test("a hand-over's items are its recipient's: a node only others may do does not wait for it", () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
    g.addRound([
      { id: '1', description: 'planks to Bob', candidates: ['Alice'], work: { kind: 'give', to: 'Bob', items: { oak_planks: 2 } } },
      { id: '2', description: "Alice's sticks", requires: ['1'], candidates: ['Alice'], work: { kind: 'make', targets: { stick: 4 } } },
      { id: '3', description: "Bob's sticks", requires: ['1'], candidates: ['Bob'], work: { kind: 'make', targets: { stick: 4 } } },
    ]);
    const r = checkEdges(g, { data });
    expect(verdicts(r)).toEqual({ '1.1>1.2': 'refuted', '1.1>1.3': 'proved' });
    expect(r.edges[0]!.reason).toBe('give 2 oak_planks to Bob hands them to Bob, who may not do make 4 stick (Alice may)');
  });

  test('no required edge from a failed node, or from one waiting on it', () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    g.addRound([
      { id: '1', description: 'logs', work: { kind: 'collect', targets: { oak_log: 1 } } },
      { id: '2', description: 'planks', requires: ['1'], work: { kind: 'make', targets: { oak_planks: 4 } } },
    ]);
    g.start('1.1', ['Alice']);
    g.finish('1.1', 'failure', 'no trees');
    // The next round makes planks and sticks again, from logs gathered anew.
    g.addRound([
      { id: '1', description: 'logs again', requires: [], work: { kind: 'collect', targets: { oak_log: 1 } } },
      { id: '2', description: 'planks and sticks', requires: ['1'], work: { kind: 'make', targets: { stick: 4 } } },
    ]);
    const missing = checkEdges(g, { data }).missing.map((e) => `${e.from}>${e.to}`);
    // 1.2's planks would prove 1.2 → 2.2, but 1.2 waits on the failed 1.1.
    expect(missing).not.toContain('1.2>2.2');
    expect(missing.filter((e) => e.startsWith('1.'))).toEqual([]);
  });
});

describe('blueprints: a block rests on the one below, lower levels first', () => {
  // Level 0 at y = -60: stone in three cells of a 2 × 2; level 1 at y = -59: oak_planks over the
  // north-west stone.
  const blueprint: Blueprint = {
    levels: [
      {
        level: 0,
        coordinates: [0, -60, 0],
        placement: [
          ['stone', 'stone'],
          ['stone', 'air'],
        ],
      },
      {
        level: 1,
        coordinates: [0, -59, 0],
        placement: [
          ['oak_planks', 'air'],
          ['air', 'air'],
        ],
      },
    ],
  };
  const [level0, level1] = blueprint.levels.map((l) => levelCells(l).filter((c) => c.block !== 'air'));

  test('the upper level waits for the lower; the reverse edge is refuted; same-level halves are independent', () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
    g.addRound([
      { id: 'west', description: 'level 0, west column', work: { kind: 'build', cells: level0!.filter((c) => c.x === 0) } },
      {
        id: 'east',
        description: 'level 0, east column',
        requires: ['west'],
        work: { kind: 'build', cells: level0!.filter((c) => c.x === 1) },
      },
      { id: 'top', description: 'level 1', requires: ['east'], work: { kind: 'build', cells: level1! } },
      { id: 'stone', description: 'fetch stone', requires: ['top'], work: { kind: 'collect', targets: { stone: 3 } } },
    ]);
    const report = checkEdges(g, { data });
    expect(report.edges.map((e) => [`${e.from}>${e.to}`, e.verdict, e.reason])).toEqual([
      ['1.west>1.east', 'refuted', 'no block of y=-60..-60 rests on a block of y=-60..-60, and neither lies wholly below the other'],
      ['1.east>1.top', 'proved', 'lower levels first: y=-60..-60 before y=-59..-59'],
      ['1.top>1.stone', 'refuted', 'collect 3 stone needs nothing build 1 cell (y=-59) makes (it makes no items)'],
    ]);
    // The stone must be fetched before level 0, but the model's chain runs the other way: conflicts.
    // west → top (the planks rest on the west column) is implied by west → east → top for now.
    expect(report.missing).toEqual([]);
    expect(report.conflicts.map((m) => [m.from, m.to])).toEqual([
      ['1.stone', '1.west'],
      ['1.stone', '1.east'],
    ]);
    // Once the refuted edges are gone, the required ones are missing, and added.
    const r = applyRules(g, { data });
    expect([r.removed, r.added]).toEqual([2, 3]);
    expect(r.report.missing.map((m) => [m.from, m.to, m.reason])).toEqual([
      ['1.stone', '1.west', 'build 2 cells (y=-60) uses stone, which collect 3 stone makes'],
      ['1.stone', '1.east', 'build 1 cell (y=-60) uses stone, which collect 3 stone makes'],
      ['1.west', '1.top', 'a block rests on the one below: oak_planks at (0, -59, 0) on the block below it'],
    ]);
    expect(r.report.conflicts).toEqual([]);
    expect(g.ready().map((n) => n.id)).toEqual(['1.stone']);
  });

  test('an upper level before a lower one is refuted, and the right order is then added', () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    g.addRound([
      { id: 'top', description: 'level 1', work: { kind: 'build', cells: level1! } },
      { id: 'bottom', description: 'level 0', requires: ['top'], work: { kind: 'build', cells: level0! } },
    ]);
    const before = checkEdges(g, { data });
    expect(before.edges.map((e) => [e.verdict, e.reason])).toEqual([['refuted', 'lower levels first: y=-59..-59 lies above y=-60..-60']]);
    // The required edge would close a cycle with the wrong one: a conflict until that is removed.
    expect(before.conflicts.map((c) => [c.from, c.to])).toEqual([['1.bottom', '1.top']]);
    applyRules(g, { data });
    expect(g.edges().map((e) => [e.from, e.to, e.origin])).toEqual([['1.bottom', '1.top', 'rule_added']]);
  });
});
