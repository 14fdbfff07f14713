/**
 * The graph strategies' loops on scripted teams (no server): VillagerAgent's `dag` and CausalMACE's
 * `causal`, offline (the rules' plan, judged from the world) and with a scripted model per role
 * (its bad answers given back, its failures falling back, a model that hangs), recorded as graph
 * events with the reasons.
 */
import { describe, expect, test } from 'vitest';
import { runCausal } from '../../src/coordination/causal-strategy.ts';
import { runDag } from '../../src/coordination/dag.ts';
import type { ChatRequest } from '../../src/models/types.ts';
import {
  agentSummaryRole,
  assignRole,
  counterfactualRole,
  decomposeRole,
  dependencyPairRole,
  dependencyRole,
  environmentSummaryRole,
  reflectRole,
} from '../../src/coordination/roles/index.ts';
import type { Blueprint } from '../../src/tasks/schema.ts';
import { type Answer, FakeModel } from './fake-model.ts';
import { doWork, FakeTeam } from './fake-team.ts';

const FAST = { doneGraceMs: 0 };

/** A pickaxe: Alice holds the planks, Bob the sticks; a crafting table in sight. */
const pickaxeTeam = () =>
  new FakeTeam({
    Alice: { inventory: { oak_planks: 3 }, task: { targets: { wooden_pickaxe: 1 } } },
    Bob: { inventory: { stick: 2 }, task: { targets: { wooden_pickaxe: 1 } } },
  });

/** Two levels of two stone blocks at (0..1, -60..-59, 0). */
const WALL: Blueprint = {
  levels: [
    { level: 0, coordinates: [0, -60, 0], placement: [['stone', 'stone']] },
    { level: 1, coordinates: [0, -59, 0], placement: [['stone', 'stone']] },
  ],
};
const wallTeam = () =>
  new FakeTeam({
    Alice: { inventory: { stone: 4 }, task: { blueprint: WALL } },
    Bob: { inventory: {}, task: { blueprint: WALL } },
  });
const wallDone = (t: FakeTeam) => ['0,-60,0', '1,-60,0', '0,-59,0', '1,-59,0'].every((k) => t.world.get(k) === 'stone');

type Role = 'decompose' | 'assign' | 'reflect' | 'agent' | 'environment' | 'dependency' | 'pair' | 'counterfactual';
const SYSTEMS: Record<Role, string> = {
  decompose: decomposeRole.system,
  assign: assignRole.system,
  reflect: reflectRole.system,
  agent: agentSummaryRole.system,
  environment: environmentSummaryRole.system,
  dependency: dependencyRole.system,
  pair: dependencyPairRole.system,
  counterfactual: counterfactualRole.system,
};

/** A model scripted per role (told apart by the system prompt); `n` counts that role's calls. */
function byRole(script: Partial<Record<Role, (req: ChatRequest, n: number) => Answer>>) {
  const calls = new Map<Role, number>();
  return new FakeModel((req) => {
    const role = (Object.keys(SYSTEMS) as Role[]).find((r) => SYSTEMS[r] === req.system);
    if (!role) throw new Error(`no role has the system prompt ${req.system.slice(0, 60)}`);
    const n = calls.get(role) ?? 0;
    calls.set(role, n + 1);
    const answer = script[role];
    if (!answer) return role === 'agent' || role === 'environment' ? 'Summary: all is well.' : new Error(`no script for ${role}`);
    return answer(req, n);
  });
}
const last = (req: ChatRequest) => req.turns[req.turns.length - 1]!.content;

describe('dag offline (the rules plan, the world judges)', () => {
  test('a hand-over before the make that uses it; the plan done, it gives up after the grace', async () => {
    const t = pickaxeTeam();
    const end = await runDag(t.graphTeam(), FAST);
    expect(end).toEqual({ kind: 'gave_up', reason: 'the plan is done (Alice holds 1 wooden_pickaxe), but the task is not' });
    expect(t.acts.map((a) => `${a.agent} ${a.what}`)).toEqual(['Bob !givePlayer(Alice, stick, 2)', 'Alice !craftItems(wooden_pickaxe, 1)']);
    const graph = t.last();
    expect(graph.nodes.map((n) => [n.id, n.status, n.assigned])).toEqual([
      ['1.g1', 'success', ['Bob']],
      ['1.m1', 'success', ['Alice']],
    ]);
    expect(graph.edges).toEqual([
      expect.objectContaining({ from: '1.g1', to: '1.m1', origin: 'rule_added', reason: expect.stringContaining('the plan: Alice makes') }),
    ]);
    expect(graph.nodes[1]!.feedback).toBe('Alice holds 1 wooden_pickaxe');
    expect(t.changes()[0]).toMatch(/^planned by the rules \(round 1\): 2 subtasks \(1\.g1, 1\.m1\), 1 edges$/);
    // The subtask is the agent's task data while it runs, taken back after.
    expect(t.members.map((m) => m.assignment)).toEqual([undefined, undefined]);
    expect(t.member('Bob')!.orders[0]).toContain('Your subtask 1.g1: Give 2 stick to Alice');
  });

  test('construction: level 1 after level 0; a node that fails is planned again from what is left', async () => {
    const t = wallTeam();
    let refused = false;
    t.behaviour = (m, order) => {
      // Bob's first build order: he runs nothing (he says he cannot), so the node fails.
      if (m.name === 'Bob' && m.assignment?.work?.kind === 'build' && !refused) {
        refused = true;
        m.journal.add({ kind: 'said', to: '*', text: 'I cannot finish it.' });
        return;
      }
      return doWork(m, order);
    };
    const end = await runDag(t.graphTeam({ blueprint: WALL }), FAST);
    expect(end.kind).toBe('gave_up');
    expect(wallDone(t)).toBe(true);
    const places = t.acts.filter((a) => a.what.startsWith('!placeBlockAt')).map((a) => a.what);
    const lastLow = places.map((p) => p.includes('-60')).lastIndexOf(true);
    const firstHigh = places.findIndex((p) => p.includes('-59'));
    expect(lastLow).toBeLessThan(firstHigh);
    const changes = t.changes();
    expect(changes).toContainEqual(expect.stringMatching(/^1\.L0-Bob failure: .*after no command on the last order/));

    // The rolling update: round 2 plans only the cells left.
    expect(changes).toContainEqual(expect.stringMatching(/^planned by the rules \(round 2\)/));
    const round1 = t.events.find((e) => e.change.startsWith('planned by the rules (round 1)'))!;
    expect(round1.nodes.map((n) => n.id)).toEqual(['1.g1', '1.L0-Alice', '1.L0-Bob', '1.L1-Alice', '1.L1-Bob']);
    expect(round1.edges.filter((e) => e.to === '1.L1-Bob').map((e) => e.from)).toEqual(['1.L0-Alice', '1.L0-Bob', '1.g1']);
  });

  test('a hand-over picked up by a teammate is passed on by it, and the give succeeds', async () => {
    const t = new FakeTeam({
      Alice: { inventory: { oak_planks: 3 }, task: { targets: { wooden_pickaxe: 1 } } },
      Bob: { inventory: { stick: 2 }, task: { targets: { wooden_pickaxe: 1 } } },
      Carol: { inventory: {}, task: { targets: { wooden_pickaxe: 1 } } },
    });
    t.behaviour = (m, order) => {
      const work = m.assignment?.work;
      if (m.name !== 'Bob' || work?.kind !== 'give') return doWork(m, order);
      // Carol stands nearer the throw and takes it.
      m.inv.stick = 0;
      t.member('Carol')!.inv.stick = 2;
      m.outcome('!givePlayer', { to: 'Alice', item: 'stick', n: 2 }, false, {
        handOver: { to: 'Alice', item: 'stick', count: 2, received: 0, takenBy: { Carol: 2 }, takenBack: 0, left: 0 },
      });
    };
    await runDag(t.graphTeam(), FAST);
    expect(t.acts.map((a) => `${a.agent} ${a.what}`)).toEqual([
      'Bob !givePlayer(Alice, stick, 2)',
      'Carol !givePlayer(Alice, stick, 2) for the coordinator',
      'Alice !craftItems(wooden_pickaxe, 1)',
    ]);
    expect(t.changes()).toContain('1.g1 success: Alice got 2 stick');
    expect(t.logs).toContain('[dag] Carol picked up 2 stick meant for Alice (1.g1): it passes them on');
  });

  test('three failures: it gives up with the count', async () => {
    const t = pickaxeTeam();
    t.behaviour = () => {}; // nobody does anything
    const end = await runDag(t.graphTeam(), FAST);
    expect(end).toEqual({ kind: 'gave_up', reason: '3 subtasks failed (VillagerAgent stops at 3)' });
    expect(t.changes().filter((c) => / failure: /.test(c))).toHaveLength(3);
  });

  test('a task the rules find impossible is given up at once, with why', async () => {
    const t = new FakeTeam({
      Alice: { inventory: {}, task: { targets: { diamond_pickaxe: 1 } } },
      Bob: { inventory: {}, task: { targets: { diamond_pickaxe: 1 } } },
    });
    const end = await runDag(t.graphTeam(), FAST);
    expect(end).toMatchObject({
      kind: 'gave_up',
      reason: expect.stringMatching(/^the rules find the task cannot be done: 1 diamond_pickaxe needs/),
    });
    expect(t.acts).toEqual([]);
  });
});

describe('causal offline', () => {
  test('workers take only paths whose next node lists them; levels in order; every path done', async () => {
    const t = wallTeam();
    // Bob stands in a cell of level 0: he steps off before anyone builds.
    t.member('Bob')!.pos = { x: 0, y: -60, z: 0 };
    const end = await runCausal(t.graphTeam({ blueprint: WALL }), FAST);
    expect(t.acts[0]).toEqual({ agent: 'Bob', what: '!moveAway(3)' });
    expect(t.logs).toContain('[causal] Bob steps off a cell still to be built at (0, -60, 0)');
    expect(end).toEqual({ kind: 'gave_up', reason: 'every path is done, but the task is not' });
    expect(wallDone(t)).toBe(true);
    const graph = t.last();
    for (const n of graph.nodes) {
      expect(n.status).toBe('success');
      expect(n.candidates).toEqual(expect.arrayContaining(n.assigned));
    }
    expect(t.changes()).toContainEqual(expect.stringMatching(/^\d+ paths$/));
  });
});

describe('dag with a model, scripted per role', () => {
  test('bad decompositions and assignments are given back; the reflection judges; an empty round ends it', async () => {
    const t = pickaxeTeam();
    t.behaviour = (m) => m.outcome('!collectBlocks', { block: 'oak_log', n: 3 }, true);
    const model = byRole({
      decompose: (_req, n) =>
        [
          'We should first collect some logs and then craft the planks.',
          '[{"id": 1, "description": "Collect 3 oak_log", "required_subtasks": [2]}, {"id": 2, "description": "Craft oak_planks", "required_subtasks": [1]}]',
          'Here: [{"id": 1, "description": "Collect 3 oak_log"}, {"id": 2, "description": "Craft 12 oak_planks", "required subtasks": [1]}]',
          '[]',
        ][n]!,
      assign: (_req, n) =>
        [
          '[{"task_id": "1.1", "agent": "Zed"}]',
          '[{"reason": "Bob is free", "task_id": "1.1", "agent": "Bob"}]',
          '[{"reason": "Alice is free", "task_id": "1.2", "agent": "Alice"}]',
        ][n]!,
      reflect: () => '{"summary": "done as asked", "task_status": true}',
    });
    const end = await runDag(t.graphTeam({ planner: model }), FAST);
    expect(end).toEqual({ kind: 'gave_up', reason: 'the decomposer has nothing more to do, but the task is not done' });
    const graph = t.last();
    expect(graph.nodes.map((n) => [n.id, n.status, n.assigned, n.feedback])).toEqual([
      ['1.1', 'success', ['Bob'], 'done as asked'],
      ['1.2', 'success', ['Alice'], 'done as asked'],
    ]);
    expect(graph.edges).toEqual([expect.objectContaining({ from: '1.1', to: '1.2', origin: 'llm' })]);
    const decompose = model.requests.filter((r) => r.purpose === 'decompose');
    expect(decompose).toHaveLength(4);
    // The retries carry what was wrong.
    expect(last(decompose[1]!)).toMatch(/That answer cannot be used: .*JSON/);
    expect(last(decompose[2]!)).toMatch(/cycle: 1 → 2 → 1/);
    const assign = model.requests.filter((r) => r.purpose === 'assign');
    expect(last(assign[1]!)).toMatch(/Zed is not a free agent/);
    expect(model.requests.every((r) => r.purpose !== undefined)).toBe(true);
  });

  test('a node that needs two agents is split into one per agent; its dependant waits for both parts', async () => {
    const t = pickaxeTeam();
    t.behaviour = (m) => m.outcome('!collectBlocks', { block: 'oak_log', n: 1 }, true);
    const model = byRole({
      decompose: (_req, n) =>
        n === 0
          ? '[{"id": 1, "description": "Gather 8 oak_log together", "number": 2}, {"id": 2, "description": "Craft planks", "required_subtasks": [1], "assigned_agents": ["Alice"]}]'
          : '[]',
      reflect: () => '{"summary": "ok", "task_status": true}',
    });
    await runDag(t.graphTeam({ planner: model }), FAST);
    expect(t.changes()).toContain('1.1 split into 1.1:Alice, 1.1:Bob for Alice, Bob');
    const graph = t.last();
    expect(graph.nodes.map((n) => [n.id, n.status, n.assigned])).toEqual([
      ['1.1:Alice', 'success', ['Alice']],
      ['1.1:Bob', 'success', ['Bob']],
      ['1.2', 'success', ['Alice']],
    ]);
    expect(graph.nodes[2]!.predecessors).toEqual(['1.1:Alice', '1.1:Bob']);
    // Each part's order names the partner.
    expect(t.member('Bob')!.orders[0]).toContain('Gather 8 oak_log together (together with Alice)');
  });

  test('every role answers badly: the fallbacks, each with its reason, and it gives up at 3 failures', async () => {
    const t = pickaxeTeam();
    t.behaviour = () => {};
    const model = new FakeModel(() => 'I am not sure what you mean.');
    const end = await runDag(t.graphTeam({ planner: model }), FAST);
    expect(end).toEqual({ kind: 'gave_up', reason: '3 subtasks failed (VillagerAgent stops at 3)' });
    const changes = t.changes();
    expect(changes).toContainEqual(
      expect.stringMatching(
        /^fallback: one node for the whole task \(1\.all\), because the decomposer failed: decompose: no usable answer after 3 tries: the answer has no JSON/,
      ),
    );
    expect(changes).toContainEqual(expect.stringMatching(/^1\.all to (Alice|Bob) \(fallback: assign: no usable answer after 3 tries/));
    expect(changes).toContainEqual(expect.stringMatching(/^1\.all failure: no reflection: reflect: no usable answer/));
    expect(t.logs).toContainEqual(expect.stringMatching(/^\[dag\] assign: the fallback decided \(assign: no usable answer/));
  });

  test('a model that hangs: every call ends at its bound, and the run still ends', async () => {
    const t = pickaxeTeam();
    t.behaviour = () => {};
    const model = new FakeModel(() => new Promise<string>(() => {}));
    const end = await runDag(t.graphTeam({ planner: model }), { ...FAST, roleTimeoutMs: 30, roleRetries: 0 });
    expect(end).toEqual({ kind: 'gave_up', reason: '3 subtasks failed (VillagerAgent stops at 3)' });
    expect(t.changes()).toContainEqual(
      expect.stringMatching(/because the decomposer failed: decompose: the model gave no answer within 30 ms/),
    );
  });

  test("the model's typed work lets the rules add the edge it forgot and drop the one it invented", async () => {
    const t = new FakeTeam({
      Alice: { inventory: { oak_planks: 3 }, task: { targets: { wooden_pickaxe: 1 } } },
      Bob: { inventory: { stick: 2 }, task: { targets: { wooden_pickaxe: 1 } } },
      Carol: { inventory: {}, task: { targets: { wooden_pickaxe: 1 } } },
    });
    t.behaviour = doWork;
    const model = byRole({
      decompose: (_req, n) =>
        n === 0
          ? JSON.stringify([
              {
                id: 3,
                description: 'Alice crafts the pickaxe',
                assigned_agents: ['Alice'],
                work: { kind: 'make', targets: { wooden_pickaxe: 1 } },
              },
              {
                id: 1,
                description: 'Bob gives Alice the sticks',
                assigned_agents: ['Bob'],
                work: { kind: 'give', to: 'Alice', items: { stick: 2 } },
              },
              {
                id: 2,
                description: 'Alice collects logs',
                assigned_agents: ['Alice'],
                required_subtasks: [1],
                work: { kind: 'collect', targets: { oak_log: 1 } },
              },
            ])
          : '[]',
      reflect: () => '{"summary": "ok", "task_status": true}',
    });
    await runDag(t.graphTeam({ planner: model }), FAST);
    const rules = t.events.find((e) => e.change.startsWith('rules:'))!;
    expect(rules.change).toMatch(/1 refuted and removed, 2 required and added/);
    const byKey = Object.fromEntries(rules.edges.map((e) => [`${e.from}>${e.to}`, e]));
    // A log does not need sticks: refuted. The pickaxe needs the sticks given, and (the rules read
    // recipes, not inventories) planks from the logs collected: added.
    expect(byKey['1.1>1.2']).toMatchObject({ origin: 'rule_removed', removed: true });
    expect(byKey['1.1>1.3']).toMatchObject({ origin: 'rule_added', reason: expect.stringContaining('uses stick') });
    expect(byKey['1.2>1.3']).toMatchObject({ origin: 'rule_added', reason: expect.stringContaining('uses oak_log') });
  });
});

describe('causal with a model, scripted per role', () => {
  test('dependency edges, the intervention removes the edge with ATE 0, workers run the paths', async () => {
    const t = pickaxeTeam();
    t.behaviour = (m) => m.outcome('!collectBlocks', { block: 'oak_log', n: 1 }, true);
    const model = byRole({
      decompose: () =>
        '[{"id": 1, "description": "Collect logs", "required_subtasks": [3]}, {"id": 2, "description": "Craft planks"}, {"id": 3, "description": "Shear a sheep"}]',
      dependency: (req) => {
        const step = /The step to deal with now: (\S+)/.exec(last(req))![1];
        return step === '1.3'
          ? '{"causal effect": [{"chosen_node": "1.1", "target_node": "1.3"}]}'
          : '{"causal effect": [{"chosen_node": "1.1", "target_node": "1.2"}]}';
      },
      counterfactual: (req) => `{"counterfactual": "It is not true that: ${/The rule: (.*)/.exec(last(req))![1]}"}`,
      // Planks need logs under R, not once a rule is replaced; wool never depends on logs.
      pair: (req) => {
        const text = last(req);
        const planks = text.includes('Step 1.2');
        return `{"depends": ${planks && !text.includes('It is not true that')}}`;
      },
      reflect: () => '{"summary": "ok", "status": "success"}',
    });
    const end = await runCausal(t.graphTeam({ planner: model }), FAST);
    expect(end).toEqual({ kind: 'gave_up', reason: 'every path is done, but the task is not' });
    const graph = t.last();
    expect(graph.edges.map((e) => [e.from, e.to, e.origin, e.removed ?? false])).toEqual([
      ['1.1', '1.2', 'llm', false],
      ['1.1', '1.3', 'ate_removed', true],
    ]);
    expect(graph.nodes.every((n) => n.status === 'success')).toBe(true);
    expect(t.changes()).toContainEqual(expect.stringMatching(/^causal intervention: 2 edges, 10 questions, 1 removed at ATE 0$/));
    const purposes = new Set(model.requests.map((r) => r.purpose));
    expect([...purposes].sort()).toEqual(['counterfactual', 'decompose', 'dependency', 'reflect', 'summarise']);
  });

  test('every role answers badly: one whole-task node, failures, and it gives up', async () => {
    const t = pickaxeTeam();
    t.behaviour = () => {};
    const model = new FakeModel(() => '{"broken": [1, 2');
    const end = await runCausal(t.graphTeam({ planner: model }), FAST);
    expect(end).toEqual({ kind: 'gave_up', reason: '3 subtasks failed (the strategy stops at 3)' });
    expect(t.changes()).toContainEqual(
      expect.stringMatching(
        /^fallback: one node for the whole task \(1\.all\), because the decomposition failed: decompose: no usable answer/,
      ),
    );
    expect(t.changes()).toContainEqual(expect.stringMatching(/^1\.all opened again \(failure 2 of 3\)$/));
    // A node given again is a new subtask to its agent: the id carries the try.
    expect(t.members.flatMap((m) => m.given).sort()).toEqual(['1.all', '1.all/2']);
  });
});
