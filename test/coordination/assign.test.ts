/**
 * Who takes which node: VillagerAgent's controller (Algorithm 2: direct assignments, the assign
 * role's checked answer, the fallback) and CausalMACE's workers (DFS paths, busy rate, least-busy
 * path, the next path when one is finished), on small hand-worked graphs.
 */
import { describe, expect, test } from 'vitest';
import { assignReady, directAssignments, fallbackAssignment, validateAssignment } from '../../src/coordination/assign.ts';
import { TaskGraph } from '../../src/coordination/graph.ts';
import { busyRate, enumeratePaths, PathWorkers } from '../../src/coordination/paths.ts';
import { askWithRole } from '../../src/coordination/roles/assign.ts';
import { RoleStats } from '../../src/coordination/roles/stats.ts';
import { FakeModel } from './fake-model.ts';

const agents = ['Alice', 'Bob', 'Carol'];

function controllerGraph(): TaskGraph {
  const g = new TaskGraph({ agents });
  g.addRound([
    { id: '1', description: 'craft sticks', candidates: ['Alice'] },
    { id: '2', description: 'build the wall', candidates: ['Bob', 'Carol'], number: 2 },
    { id: '3', description: 'fetch stone' },
    { id: '4', description: 'fetch logs' },
  ]);
  return g;
}

/** Sticks only Alice may craft; stone and logs anyone may fetch. */
function roleGraph(): TaskGraph {
  const g = new TaskGraph({ agents });
  g.addRound([
    { id: '1', description: 'craft sticks', candidates: ['Alice'] },
    { id: '2', description: 'fetch stone' },
    { id: '3', description: 'fetch logs' },
  ]);
  return g;
}

describe("Algorithm 2's assignment", () => {
  test('a node that needs all its free candidates is assigned them directly', () => {
    const g = controllerGraph();
    const { assignments, offer } = directAssignments(g, agents);
    expect(assignments.map((a) => [a.nodeId, a.agents, a.by])).toEqual([
      ['1.1', ['Alice'], 'direct'],
      ['1.2', ['Bob', 'Carol'], 'direct'],
    ]);
    // Every agent is taken: 1.3 and 1.4 are no longer available.
    expect(offer).toEqual({ nodes: [], free: [] });
  });

  test('agents wanted by several nodes go to the oldest node that needs all its free candidates', () => {
    const g = controllerGraph();
    const { assignments, offer } = directAssignments(g, ['Carol', 'Alice']);
    // 1.1 needs Alice; 1.2 needs Bob too (not available); 1.3 and 1.4 have only Carol free: 1.3 gets her.
    expect(assignments.map((a) => [a.nodeId, a.agents])).toEqual([
      ['1.1', ['Alice']],
      ['1.3', ['Carol']],
    ]);
    expect(offer).toEqual({ nodes: [], free: [] });
  });

  test('a node with more free candidates than it needs is offered to the role', () => {
    const { assignments, offer } = directAssignments(roleGraph(), agents);
    expect(assignments.map((a) => [a.nodeId, a.agents])).toEqual([['1.1', ['Alice']]]);
    expect(offer.free).toEqual(['Bob', 'Carol']);
    expect(offer.nodes.map((n) => n.id)).toEqual(['1.2', '1.3']);
  });

  test('the checks of an answer', () => {
    const g = controllerGraph();
    const offer = { nodes: g.ready(), free: ['Alice', 'Carol'] };
    expect(validateAssignment(offer, [{ nodeId: '1.3', agents: ['Carol'], reason: '' }])).toEqual([]);
    expect(
      validateAssignment(offer, [
        { nodeId: '1.9', agents: ['Alice'], reason: '' },
        { nodeId: '1.1', agents: ['Bob'], reason: '' },
        { nodeId: '1.3', agents: ['Alice'], reason: '' },
        { nodeId: '1.4', agents: ['Alice'], reason: '' },
        { nodeId: '1.2', agents: ['Carol'], reason: '' },
      ]),
    ).toEqual([
      'task 1.9 is not one of the tasks to assign (1.1, 1.2, 1.3, 1.4)',
      'Bob is not a free agent (free: Alice, Carol)',
      'Alice is assigned twice (tasks 1.3 and 1.4)',
      'task 1.2 needs 2 agents, the answer gives 1',
    ]);
    expect(validateAssignment({ nodes: [g.node('1.1')!], free: ['Carol'] }, [{ nodeId: '1.1', agents: ['Carol'], reason: '' }])).toEqual([
      'Carol is not a candidate of task 1.1 (candidates: Alice)',
    ]);
  });

  test('the fallback: oldest offered node first, the first free candidates in the given order', () => {
    const g = controllerGraph();
    expect(fallbackAssignment({ nodes: g.ready(), free: ['Carol', 'Bob', 'Alice'] }).map((a) => [a.nodeId, a.agents])).toEqual([
      ['1.1', ['Alice']],
      ['1.2', ['Carol', 'Bob']],
    ]);
    expect(
      fallbackAssignment({ nodes: [g.node('1.3')!, g.node('1.4')!], free: ['Carol', 'Bob'] }).map((a) => [a.nodeId, a.agents]),
    ).toEqual([
      ['1.3', ['Carol']],
      ['1.4', ['Bob']],
    ]);
  });

  test("the role's answer is used when valid, after a retry with the problem", async () => {
    const model = FakeModel.script([
      '[{"reason": "x", "task_id": "1.2", "agent": "Alice"}, {"reason": "y", "task_id": "1.3", "agent": "Bob"}]',
      '[{"reason": "Carol is by the logs", "task_id": "1.3", "agent": "Carol"}, {"reason": "Bob has a pickaxe", "task_id": "1.2", "agent": "Bob"}]',
    ]);
    const stats = new RoleStats();
    const round = await assignReady(roleGraph(), agents, askWithRole({ model, stats }, { environment: 'logs to the north' }));
    expect(round.assignments).toEqual([
      { nodeId: '1.1', agents: ['Alice'], reason: 'needs 1 and has exactly Alice free', by: 'direct' },
      { nodeId: '1.3', agents: ['Carol'], reason: 'Carol is by the logs', by: 'llm' },
      { nodeId: '1.2', agents: ['Bob'], reason: 'Bob has a pickaxe', by: 'llm' },
    ]);
    expect(round.fallbackReason).toBeUndefined();
    expect(model.lastUser(0)).toContain('Free agents: Bob, Carol');
    expect(model.lastUser(0)).toContain('logs to the north');
    expect(model.lastUser(1)).toContain('Alice is not a free agent (free: Bob, Carol)');
    expect(stats.get('assign')).toMatchObject({ calls: 2, retries: 1 });
  });

  test('an answer that stays invalid ends in the fallback, with the reason', async () => {
    const model = FakeModel.script(['I would give the stone to Carol.']);
    const round = await assignReady(roleGraph(), ['Carol', 'Alice', 'Bob'], askWithRole({ model }));
    expect(model.requests).toHaveLength(3);
    expect(round.assignments.map((a) => [a.nodeId, a.agents, a.by])).toEqual([
      ['1.1', ['Alice'], 'direct'],
      ['1.2', ['Carol'], 'fallback'],
      ['1.3', ['Bob'], 'fallback'],
    ]);
    expect(round.fallbackReason).toBe('assign: no usable answer after 3 tries: the answer has no JSON (no {…} object or […] list)');
  });

  test('without a role the fallback decides what is not direct', async () => {
    const round = await assignReady(roleGraph(), agents);
    expect(round.assignments.map((a) => [a.nodeId, a.agents, a.by])).toEqual([
      ['1.1', ['Alice'], 'direct'],
      ['1.2', ['Bob'], 'fallback'],
      ['1.3', ['Carol'], 'fallback'],
    ]);
  });

  test('no model is asked when everything is direct', async () => {
    const model = FakeModel.script(['[]']);
    const round = await assignReady(controllerGraph(), agents, askWithRole({ model }));
    expect(round.assignments).toHaveLength(2);
    expect(model.requests).toHaveLength(0);
  });
});

/**
 * The worker graph: a → b → d, a → c → d, and e alone.
 * DFS paths: [a, b, d], [a, c, d], [e].
 */
function workerGraph(): TaskGraph {
  const g = new TaskGraph({ agents });
  g.addRound([
    { id: 'a', description: 'a' },
    { id: 'b', description: 'b', requires: ['a'] },
    { id: 'c', description: 'c', requires: ['a'] },
    { id: 'd', description: 'd', requires: ['b', 'c'] },
    { id: 'e', description: 'e', requires: [] },
  ]);
  // e lists no prerequisite and so inherits d's (Algorithm 1); for a lone node, take them away.
  for (const p of g.predecessors('1.e')) g.removeEdge(p, '1.e', 'rule_removed');
  return g;
}

describe("CausalMACE's workers", () => {
  test('DFS finds every entry-to-exit path', () => {
    expect(enumeratePaths(workerGraph())).toEqual({
      paths: [['1.a', '1.b', '1.d'], ['1.a', '1.c', '1.d'], ['1.e']],
      truncated: false,
      uncovered: [],
    });
  });

  test('a bound on paths cuts a graph with exponentially many, and says what it missed', () => {
    // Three diamonds in a row: 2 × 2 × 2 = 8 paths.
    const g = new TaskGraph({ agents });
    g.addRound([
      { id: 's', description: 's' },
      { id: 'x1', description: 'x', requires: ['s'] },
      { id: 'y1', description: 'y', requires: ['s'] },
      { id: 'm1', description: 'm', requires: ['x1', 'y1'] },
      { id: 'x2', description: 'x', requires: ['m1'] },
      { id: 'y2', description: 'y', requires: ['m1'] },
      { id: 'm2', description: 'm', requires: ['x2', 'y2'] },
      { id: 'x3', description: 'x', requires: ['m2'] },
      { id: 'y3', description: 'y', requires: ['m2'] },
      { id: 'm3', description: 'm', requires: ['x3', 'y3'] },
    ]);
    expect(enumeratePaths(g).paths).toHaveLength(8);
    const cut = enumeratePaths(g, { maxPaths: 2 });
    expect(cut.truncated).toBe(true);
    expect(cut.paths).toEqual([
      ['1.s', '1.x1', '1.m1', '1.x2', '1.m2', '1.x3', '1.m3'],
      ['1.s', '1.x1', '1.m1', '1.x2', '1.m2', '1.y3', '1.m3'],
    ]);
    expect(cut.uncovered).toEqual(['1.y1', '1.y2']);
  });

  test('busy rate: Σ 1/d_i with d_i the 1-based place of the current subtask on the path', () => {
    expect(busyRate(['a', 'b', 'c', 'd'], ['a', 'c'])).toBeCloseTo(1 + 1 / 3, 12);
    expect(busyRate(['a', 'b', 'c', 'd'], ['d', 'd'])).toBeCloseTo(0.5, 12);
    expect(busyRate(['a', 'b'], ['x'])).toBe(0);
    expect(busyRate(['a'], [])).toBe(0);
  });

  test('free agents take the least busy path; a finished path is followed by the next', () => {
    const g = workerGraph();
    const w = new PathWorkers(g, enumeratePaths(g).paths);
    // All at 0: the tie goes to the path with the most subtasks left, then the earlier one.
    expect(w.next('Alice')).toEqual({ kind: 'run', node: '1.a', path: 0 });
    // Path 0 has Alice on its entrance (1/1); paths 1 and 2 are at 0: path 1 has more left.
    expect(w.busyRates('Bob')).toEqual([1, 0, 0]);
    expect(w.next('Bob')).toEqual({ kind: 'wait', node: '1.a', path: 1, on: ['1.a'] });
    // Paths 0 and 1 each have an agent on their entrance: Carol takes e.
    expect(w.busyRates('Carol')).toEqual([1, 1, 0]);
    expect(w.next('Carol')).toEqual({ kind: 'run', node: '1.e', path: 2 });
    g.finish('1.a', 'success');
    expect(w.next('Alice')).toEqual({ kind: 'run', node: '1.b', path: 0 });
    expect(w.next('Bob')).toEqual({ kind: 'run', node: '1.c', path: 1 });
    // Alice is on b (2nd of path 0), Bob on c (2nd of path 1).
    expect(w.busyRates()).toEqual([0.5, 0.5, 1]);
    g.finish('1.e', 'success');
    // Carol's path is finished: she takes the least busy unfinished one (a tie at 1/2: the earlier).
    expect(w.next('Carol')).toEqual({ kind: 'wait', node: '1.b', path: 0, on: ['1.b'] });
    g.finish('1.b', 'success');
    expect(w.next('Alice')).toEqual({ kind: 'wait', node: '1.d', path: 0, on: ['1.c'] });
    g.finish('1.c', 'success');
    expect(w.next('Carol')).toEqual({ kind: 'run', node: '1.d', path: 0 });
    expect(w.next('Bob')).toEqual({ kind: 'wait', node: '1.d', path: 1, on: ['1.d'] });
    g.finish('1.d', 'success');
    expect(['Alice', 'Bob', 'Carol'].map((a) => w.next(a))).toEqual([{ kind: 'done' }, { kind: 'done' }, { kind: 'done' }]);
  });

  test('a path with a failed subtask is given up', () => {
    const g = workerGraph();
    const w = new PathWorkers(g, [['1.e'], ['1.a', '1.b']]);
    expect(w.next('Alice')).toEqual({ kind: 'run', node: '1.a', path: 1 });
    g.finish('1.a', 'failure', 'no logs');
    expect(w.next('Alice')).toEqual({ kind: 'run', node: '1.e', path: 0 });
    g.finish('1.e', 'success');
    expect(w.next('Alice')).toEqual({ kind: 'done' });
  });

  test('an agent takes only subtasks listing it; a blocked agent takes a ready path with preferReady', () => {
    // Alice builds level 0 and, after Bob's level 0, level 1; Bob's level 0 needs Alice's
    // hand-over g, which needs Carol's planks x.
    const g = new TaskGraph({ agents });
    g.addRound([
      { id: 'a0', description: 'Alice: level 0', candidates: ['Alice'] },
      { id: 'x', description: 'Carol: planks to Alice', candidates: ['Carol'] },
      { id: 'g', description: 'Alice: planks to Bob', candidates: ['Alice'], requires: ['x'] },
      { id: 'b0', description: 'Bob: level 0', candidates: ['Bob'], requires: ['g'] },
      { id: 'a1', description: 'Alice: level 1', candidates: ['Alice'], requires: ['a0', 'b0'] },
    ]);
    const w = new PathWorkers(g, enumeratePaths(g).paths);
    expect(w.paths).toEqual([
      ['1.a0', '1.a1'],
      ['1.x', '1.g', '1.b0', '1.a1'],
    ]);
    // Path 1 starts with Carol's x: Alice takes path 0, Bob has nothing he may do yet.
    expect(w.next('Alice')).toEqual({ kind: 'run', node: '1.a0', path: 0 });
    expect(w.next('Carol')).toEqual({ kind: 'run', node: '1.x', path: 1 });
    expect(w.next('Bob')).toEqual({ kind: 'idle', on: ['1.b0'] });
    g.finish('1.a0', 'success');
    g.finish('1.x', 'success');
    // By the paper's rule Alice waits on a1, which waits on her own hand-over g: for ever.
    expect(w.next('Alice')).toEqual({ kind: 'wait', node: '1.a1', path: 0, on: ['1.b0'] });
    expect(w.next('Alice', { preferReady: true })).toEqual({ kind: 'run', node: '1.g', path: 1 });
    // g is Alice's: Carol leaves path 1 and has nothing left.
    expect(w.next('Carol', { preferReady: true })).toEqual({ kind: 'done' });
    g.finish('1.g', 'success');
    expect(w.next('Bob', { preferReady: true })).toEqual({ kind: 'run', node: '1.b0', path: 1 });
    // b0 is Bob's: Alice goes back to a1 and waits for it.
    expect(w.next('Alice', { preferReady: true })).toEqual({ kind: 'wait', node: '1.a1', path: 0, on: ['1.b0'] });
    g.finish('1.b0', 'success');
    expect(w.next('Alice', { preferReady: true })).toEqual({ kind: 'run', node: '1.a1', path: 0 });
    expect(g.node('1.a1')!.assigned).toEqual(['Alice']);
    // Never a subtask of another's: Bob and Carol are done.
    expect([w.next('Bob'), w.next('Carol')]).toEqual([{ kind: 'done' }, { kind: 'done' }]);
  });
});
