/**
 * The task graph alone: VillagerAgent's Algorithm 1 on a hand-worked round, cycles refused whole,
 * Algorithm 2's ready set and availability, the multi-agent split with its dependants' edges
 * remapped, snapshots and versions, and the retrieval paths into task data.
 */
import { describe, expect, test } from 'vitest';
import { TaskGraph, type Subtask } from '../../src/coordination/graph.ts';
import { outlinePaths, retrieve, retrieveAll } from '../../src/coordination/retrieval.ts';

const edgeList = (g: TaskGraph) => g.edges().map((e) => `${e.from}>${e.to}:${e.origin}`);

describe('Algorithm 1 (a decomposer round to nodes and edges)', () => {
  // Hand-worked: 1 and 2 have no prerequisite (2 inherits 1's: none); 3 requires 1; 4 and 5 list
  // none and inherit the previous node's predecessors ({1}); 6 requires 3, 4, 5; 7 requires 6, 2.
  const round: Subtask[] = [
    { id: '1', description: 'Collect 3 oak_log' },
    { id: '2', description: 'Collect 3 cobblestone' },
    { id: '3', description: 'Craft 12 oak_planks', requires: ['1'] },
    { id: '4', description: 'Craft 4 stick' },
    { id: '5', description: 'Craft a crafting_table' },
    { id: '6', description: 'Craft a wooden_pickaxe', requires: ['3', '4', '5'] },
    { id: '7', description: 'Mine 3 stone', requires: ['6', '2'] },
  ];

  test('edges from listed prerequisites, and inherited ones for nodes that list none', () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
    const r = g.addRound(round);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.round).toBe(1);
    expect(r.ids).toEqual({ 1: '1.1', 2: '1.2', 3: '1.3', 4: '1.4', 5: '1.5', 6: '1.6', 7: '1.7' });
    expect(edgeList(g)).toEqual([
      '1.1>1.3:llm',
      '1.1>1.4:algorithm',
      '1.1>1.5:algorithm',
      '1.3>1.6:llm',
      '1.4>1.6:llm',
      '1.5>1.6:llm',
      '1.6>1.7:llm',
      '1.2>1.7:llm',
    ]);
    expect(g.node('1.6')!.predecessors).toEqual(['1.3', '1.4', '1.5']);
    expect(g.node('1.2')!.predecessors).toEqual([]);
    // Candidates default to the whole team, number to 1.
    expect(g.node('1.1')).toMatchObject({ candidates: ['Alice', 'Bob'], number: 1, status: 'unknown', assigned: [] });
  });

  test("a later round names its nodes by round and may require the earlier rounds' nodes", () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    g.addRound(round);
    const r = g.addRound([
      { id: '1', description: 'Smelt 3 stone', requires: ['1.7'] },
      { id: '2', description: 'Place the furnace' },
    ]);
    expect(r.ok && r.ids).toEqual({ 1: '2.1', 2: '2.2' });
    expect(g.predecessors('2.1')).toEqual(['1.7']);
    expect(g.predecessors('2.2')).toEqual(['1.7']); // inherited from 2.1
    expect(g.edge('1.7', '2.2')!.origin).toBe('algorithm');
  });

  test('a round that closes a cycle is refused whole, with the cycle named', () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    g.addRound([{ id: '1', description: 'a' }]);
    const version = g.version;
    const r = g.addRound([
      { id: '1', description: 'b', requires: ['3'] },
      { id: '2', description: 'c', requires: ['1'] },
      { id: '3', description: 'd', requires: ['2'] },
    ]);
    expect(r).toEqual({ ok: false, problems: ['cycle: 1 → 2 → 3 → 1 (a subtask cannot wait for itself)'] });
    expect(g.nodes().map((n) => n.id)).toEqual(['1.1']);
    expect(g.edges()).toEqual([]);
    expect(g.version).toBe(version);
    expect(g.rounds).toBe(1);
  });

  test('the other problems of a round are named, and nothing of it is added', () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
    const problems = g.checkRound([
      { id: '1', description: 'a', requires: ['9'] },
      { id: '1', description: '' },
      { id: '2', description: 'b', requires: ['2'] },
      { id: '3', description: 'c', candidates: ['Carol'] },
      { id: '4', description: 'd', candidates: ['Alice'], number: 2 },
    ]);
    expect(problems).toEqual([
      'subtask id 1 appears twice',
      'subtask 1 requires 9, which is neither a subtask of this answer nor a node of the graph',
      'subtask 1 has no description',
      'subtask 2 requires itself',
      'subtask 3: unknown agent Carol (the team: Alice, Bob)',
      'subtask 4 needs 2 agents but has 1 candidate',
    ]);
    expect(g.addRound([{ id: '1', description: 'a', requires: ['9'] }]).ok).toBe(false);
    expect(g.nodes()).toEqual([]);
  });

  test('a node that requires a later one does not inherit an edge to itself', () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    const r = g.addRound([
      { id: '1', description: 'a', requires: ['2'] },
      { id: '2', description: 'b' },
    ]);
    expect(r.ok).toBe(true);
    expect(edgeList(g)).toEqual(['1.2>1.1:llm']);
  });
});

describe('Algorithm 2 (the ready set) and availability', () => {
  test('ready: unexecuted nodes whose predecessors all succeeded', () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
    g.addRound([
      { id: '1', description: 'logs' },
      { id: '2', description: 'planks', requires: ['1'] },
      { id: '3', description: 'sticks', requires: ['2'] },
      { id: '4', description: 'table', requires: ['2'] },
      { id: '5', description: 'pickaxe', requires: ['3', '4'] },
    ]);
    const ready = () => g.ready().map((n) => n.id);
    expect(ready()).toEqual(['1.1']);
    g.start('1.1', ['Alice']);
    expect(ready()).toEqual([]);
    expect(g.isSettled()).toBe(false);
    g.finish('1.1', 'success', 'Got 3 oak_log');
    expect(ready()).toEqual(['1.2']);
    g.start('1.2', ['Alice']);
    g.finish('1.2', 'success');
    expect(ready()).toEqual(['1.3', '1.4']);
    g.start('1.3', ['Alice']);
    g.finish('1.3', 'success');
    g.start('1.4', ['Bob']);
    g.finish('1.4', 'failure', 'No planks left');
    // A failed predecessor holds its dependants back: the graph is settled (time to decompose again).
    expect(ready()).toEqual([]);
    expect(g.isSettled()).toBe(true);
    g.reopen('1.4');
    expect(ready()).toEqual(['1.4']);
    expect(g.node('1.1')!.feedback).toBe('Got 3 oak_log');
  });

  test('available: at least `number` of the candidates are free', () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob', 'Carol'] });
    g.addRound([
      { id: '1', description: 'build the walls together', candidates: ['Alice', 'Bob', 'Carol'], number: 2 },
      { id: '2', description: 'fetch stone', candidates: ['Carol'] },
    ]);
    expect(g.available(['Alice']).map((n) => n.id)).toEqual([]);
    expect(g.available(['Alice', 'Carol']).map((n) => n.id)).toEqual(['1.1', '1.2']);
    expect(g.available(['Alice', 'Bob']).map((n) => n.id)).toEqual(['1.1']);
  });

  test('misuse by code throws with what is wrong', () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    g.addRound([{ id: '1', description: 'a' }]);
    expect(() => g.finish('9.9', 'success')).toThrow('no node "9.9"; nodes: 1.1');
    g.start('1.1', ['Alice']);
    expect(() => g.start('1.1', ['Alice'])).toThrow('node "1.1" is running; only a node not yet run can start');
    expect(() => new TaskGraph({ agents: [] })).toThrow('the team has no agents');
  });
});

describe('edges added and removed by later steps', () => {
  test('addEdge refuses cycles and self-edges, and keeps an existing edge', () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    g.addRound([
      { id: 'a', description: 'a' },
      { id: 'b', description: 'b', requires: ['a'] },
      { id: 'c', description: 'c', requires: ['b'] },
    ]);
    expect(g.addEdge('1.c', '1.a', 'llm')).toEqual({ ok: false, reason: '1.c → 1.a would close a cycle: 1.c → 1.a → 1.b → 1.c' });
    expect(g.addEdge('1.a', '1.a', 'llm')).toEqual({ ok: false, reason: '"1.a" cannot depend on itself' });
    expect(g.addEdge('1.a', '9', 'llm')).toEqual({ ok: false, reason: 'no node "9"' });
    const v = g.version;
    expect(g.addEdge('1.a', '1.b', 'rule_added')).toMatchObject({ ok: true, existed: true, edge: { origin: 'llm' } });
    expect(g.version).toBe(v);
    expect(g.addEdge('1.a', '1.c', 'rule_added', 'uses the logs')).toMatchObject({ ok: true, existed: false });
    expect(g.version).toBe(v + 1);
  });

  test('a removed edge stays in the records with what removed it', () => {
    const g = new TaskGraph({ agents: ['Alice'] });
    g.addRound([
      { id: '1', description: 'a' },
      { id: '2', description: 'b', requires: ['1'] },
    ]);
    expect(g.removeEdge('1.1', '1.2', 'ate_removed', 'ATE 0')).toBe(true);
    expect(g.removeEdge('1.1', '1.2', 'ate_removed')).toBe(false);
    expect(g.edges()).toEqual([]);
    expect(g.edges({ includeRemoved: true })).toEqual([
      { from: '1.1', to: '1.2', origin: 'ate_removed', addedAs: 'llm', removed: true, reason: 'ATE 0' },
    ]);
    expect(g.ready().map((n) => n.id)).toEqual(['1.1', '1.2']);
  });
});

describe('splitting a multi-agent node', () => {
  test("one node per agent, and every dependant's edge remapped to every part", () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob', 'Carol'] });
    g.addRound([
      { id: '1', description: 'collect stone' },
      { id: '2', description: 'build the wall', requires: ['1'], candidates: ['Alice', 'Bob'], number: 2 },
      { id: '3', description: 'build the roof', requires: ['2'] },
      { id: '4', description: 'place the door', requires: ['2', '1'] },
    ]);
    const v = g.version;
    const r = g.split('1.2', [
      { agent: 'Alice', description: 'build the west half of the wall' },
      { agent: 'Bob', description: 'build the east half of the wall', milestones: ['east half done'] },
    ]);
    expect(r).toEqual({ ok: true, ids: ['1.2:Alice', '1.2:Bob'] });
    expect(g.version).toBe(v + 1);
    expect(g.nodes().map((n) => n.id)).toEqual(['1.1', '1.2:Alice', '1.2:Bob', '1.3', '1.4']);
    expect(g.node('1.2:Bob')).toMatchObject({ candidates: ['Bob'], number: 1, splitFrom: '1.2', milestones: ['east half done'] });
    expect(g.predecessors('1.2:Alice')).toEqual(['1.1']);
    expect(g.predecessors('1.3')).toEqual(['1.2:Alice', '1.2:Bob']);
    expect(g.predecessors('1.4').sort()).toEqual(['1.1', '1.2:Alice', '1.2:Bob']);
    // The dependant waits for both parts.
    g.start('1.1', ['Carol']);
    g.finish('1.1', 'success');
    g.start('1.2:Alice', ['Alice']);
    g.finish('1.2:Alice', 'success');
    expect(g.ready().map((n) => n.id)).toEqual(['1.2:Bob']);
    g.start('1.2:Bob', ['Bob']);
    g.finish('1.2:Bob', 'success');
    expect(g.ready().map((n) => n.id)).toEqual(['1.3', '1.4']);
    expect(g.toJSON().splits).toEqual([{ node: expect.objectContaining({ id: '1.2', number: 2 }), into: ['1.2:Alice', '1.2:Bob'] }]);
  });

  test('a split with an agent who is not a candidate, or twice, is refused', () => {
    const g = new TaskGraph({ agents: ['Alice', 'Bob', 'Carol'] });
    g.addRound([{ id: '1', description: 'wall', candidates: ['Alice', 'Bob'], number: 2 }]);
    expect(g.split('1.1', [{ agent: 'Carol' }])).toEqual({ ok: false, reason: 'Carol is not a candidate of "1.1" (Alice, Bob)' });
    expect(g.split('1.1', [{ agent: 'Alice' }, { agent: 'Alice' }])).toEqual({ ok: false, reason: 'Alice appears twice' });
    expect(g.nodes().map((n) => n.id)).toEqual(['1.1']);
  });
});

test('the snapshot has every node, edge (removed too), status and assignment, and the version', () => {
  const g = new TaskGraph({ agents: ['Alice'] });
  g.addRound([
    { id: '1', description: 'a', milestones: ['m'], retrievalPaths: ['~/x'] },
    { id: '2', description: 'b', requires: ['1'], work: { kind: 'collect', targets: { oak_log: 1 } } },
  ]);
  g.start('1.1', ['Alice']);
  g.removeEdge('1.1', '1.2', 'rule_removed', 'unrelated');
  const snap = JSON.parse(JSON.stringify(g));
  expect(snap).toEqual({
    version: 3,
    agents: ['Alice'],
    rounds: 1,
    nodes: [
      {
        id: '1.1',
        round: 1,
        description: 'a',
        milestones: ['m'],
        retrievalPaths: ['~/x'],
        candidates: ['Alice'],
        number: 1,
        predecessors: [],
        status: 'running',
        assigned: ['Alice'],
      },
      {
        id: '1.2',
        round: 1,
        description: 'b',
        milestones: [],
        retrievalPaths: [],
        candidates: ['Alice'],
        number: 1,
        predecessors: [],
        status: 'unknown',
        assigned: [],
        work: { kind: 'collect', targets: { oak_log: 1 } },
      },
    ],
    edges: [{ from: '1.1', to: '1.2', origin: 'rule_removed', addedAs: 'llm', removed: true, reason: 'unrelated' }],
    splits: [],
  });
});

describe('retrieval paths into the task data', () => {
  const data = {
    'meta-data': {
      blueprint: [{ c: 1 }, { c: 2 }],
      ingredients: ['wheat', 'sugar'],
      'ingredient-places': { wheat: 'farm' },
    },
    goal: 'make a cake',
  };

  test('exact paths, list indexes, and the whole data', () => {
    expect(retrieve(data, '~/meta-data/blueprint/0')).toEqual({ ok: true, value: { c: 1 } });
    expect(retrieve(data, 'meta-data/ingredients/1')).toEqual({ ok: true, value: 'sugar' });
    expect(retrieve(data, '~')).toEqual({ ok: true, value: data });
    expect(retrieve(data, '~/GOAL')).toEqual({ ok: true, value: 'make a cake' });
  });

  test('prefix matching: one key followed, several at the end gathered, several in the middle ambiguous', () => {
    expect(retrieve(data, '~/meta/blue/1')).toEqual({ ok: true, value: { c: 2 } });
    expect(retrieve(data, '~/meta-data/ingredient-p')).toEqual({ ok: true, value: { wheat: 'farm' } });
    expect(retrieve(data, '~/meta-data/ingr')).toEqual({
      ok: true,
      value: { ingredients: ['wheat', 'sugar'], 'ingredient-places': { wheat: 'farm' } },
    });
    expect(retrieve(data, '~/meta-data/ingr/0')).toEqual({
      ok: false,
      reason: '~/meta-data/ingr/0: "ingr" is ambiguous at ~/meta-data (ingredients, ingredient-places)',
    });
  });

  test('what matched nothing is named, with what was there', () => {
    expect(retrieve(data, '~/meta-data/blueprint/5')).toEqual({
      ok: false,
      reason: '~/meta-data/blueprint/5: ~/meta-data/blueprint has 2 elements; no index 5',
    });
    expect(retrieve(data, '~/recipes')).toEqual({ ok: false, reason: '~/recipes: ~ has no key "recipes" (keys: meta-data, goal)' });
    expect(retrieve(data, '~/goal/x')).toEqual({ ok: false, reason: '~/goal/x: ~/goal is string, which has no "x"' });
    expect(retrieveAll(data, ['~/goal', '~/nope'])).toEqual({
      values: { '~/goal': 'make a cake' },
      problems: ['~/nope: ~ has no key "nope" (keys: meta-data, goal)'],
    });
  });

  test('the outline lists the paths a decomposer may write', () => {
    expect(outlinePaths(data, 2)).toEqual([
      '~/meta-data: object (blueprint, ingredients, ingredient-places)',
      '~/meta-data/blueprint: list of 2',
      '~/meta-data/ingredients: list of 2',
      '~/meta-data/ingredient-places: object (wheat)',
      '~/goal: "make a cake"',
    ]);
  });
});
