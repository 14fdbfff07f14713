/**
 * S-Agents' strategies (`tree`, `chain`, `graph`) on scripted teams (no server): offline (the
 * root's plan from the rules or the quotas, orders and fixed-phrase reports, no rounds) and with a
 * model scripted per role (task planner, action planner, monitor), its bad answers given back with
 * the reason and its failures falling back, every run ending with the reasons recorded.
 */
import { describe, expect, test } from 'vitest';
import { runSAgents } from '../../src/coordination/sagents.ts';
import { actionPlanRole, monitorRole, taskPlanRole } from '../../src/coordination/roles/index.ts';
import type { ChatRequest } from '../../src/models/types.ts';
import type { GroupMessageRecord } from '../../src/tasks/eval/records.ts';
import type { Blueprint } from '../../src/tasks/schema.ts';
import { type Answer, FakeModel } from './fake-model.ts';
import { doWork, FakeTeam } from './fake-team.ts';

const FAST = { doneGraceMs: 0 };

/** Two levels of two stone blocks at (0..1, -60..-59, 0): a small shelter's wall. */
const WALL: Blueprint = {
  levels: [
    { level: 0, coordinates: [0, -60, 0], placement: [['stone', 'stone']] },
    { level: 1, coordinates: [0, -59, 0], placement: [['stone', 'stone']] },
  ],
};
const wallDone = (t: FakeTeam) => ['0,-60,0', '1,-60,0', '0,-59,0', '1,-59,0'].every((k) => t.world.get(k) === 'stone');

/** Every group message recorded in the run, in order. */
const messages = (t: FakeTeam): GroupMessageRecord[] => t.events.flatMap((e) => e.organisation?.messages ?? []);
const lines = (t: FakeTeam, kind?: GroupMessageRecord['kind']) =>
  messages(t)
    .filter((m) => !kind || m.kind === kind)
    .map((m) => `${m.speaker}→${m.respondent}: ${m.message}`);

const logTeam = () =>
  new FakeTeam({
    Andy: { inventory: {} },
    Jill: { inventory: {} },
    Bob: { inventory: {} },
  });

describe('tree offline (the rules plan, the world judges, fixed-phrase reports)', () => {
  test('50 logs with 3 agents: 17/17/16 in one stage; orders from the root, reports with inventories', async () => {
    const t = logTeam();
    const end = await runSAgents(t.graphTeam(), 'tree', { ...FAST, quotas: () => ({ oak_log: 50 }) });
    expect(end).toEqual({ kind: 'gave_up', reason: 'the plan is done (the team holds 50 oak_log), but the task is not' });
    expect(t.members.map((m) => m.inv.oak_log)).toEqual([17, 17, 16]);
    const first = t.events[0]!;
    expect(first.change).toBe('organisation: tree with Andy as root (Andy→Jill, Andy→Bob)');
    expect(first.organisation).toMatchObject({
      kind: 'tree',
      root: 'Andy',
      edges: [
        { commander: 'Andy', subordinate: 'Jill' },
        { commander: 'Andy', subordinate: 'Bob' },
      ],
    });
    // The root works on its own share without an order; the leaves get theirs from it.
    expect(lines(t, 'order')).toEqual(['Andy→Jill: Jill, please Mine 17 oak_log', 'Andy→Bob: Bob, please Mine 16 oak_log']);
    expect(lines(t, 'report')).toEqual(
      expect.arrayContaining([
        "Jill→Andy: I'll start the task Mine 17 oak_log.",
        'Jill→Andy: I have succeeded the task Mine 17 oak_log. My inventory: 17 oak_log.',
        'Bob→Andy: I have succeeded the task Mine 16 oak_log. My inventory: 16 oak_log.',
      ]),
    );
    // No rounds: all three started before any finished.
    const changes = t.changes();
    const lastStart = Math.max(...['Andy', 'Jill', 'Bob'].map((a) => changes.findIndex((c) => new RegExp(` to ${a} \\(`).test(c))));
    expect(lastStart).toBeLessThan(changes.findIndex((c) => / success: /.test(c)));
    const org = t.last().organisation!;
    expect(org).toMatchObject({ orders: 2, reports: 2, refused: 0 });
    // The root planned twice (the plan, then "done"); each leaf once per order.
    expect(org.planning).toEqual({ Andy: 3, Jill: 1, Bob: 1 });
  });

  test('a leaf that fails: its report says so, and what it left goes to those that succeeded', async () => {
    const t = logTeam();
    t.behaviour = (m, order) => {
      if (m.name === 'Bob') {
        m.journal.add({ kind: 'said', to: '*', text: 'I find no logs.' });
        return;
      }
      return doWork(m, order);
    };
    await runSAgents(t.graphTeam(), 'tree', { ...FAST, quotas: () => ({ oak_log: 50 }) });
    expect(lines(t, 'report')).toContain('Bob→Andy: I have failed the task Mine 16 oak_log. My inventory: empty.');
    // Bob's 16 split between Andy and Jill, who succeeded.
    expect(t.member('Andy')!.inv.oak_log! + t.member('Jill')!.inv.oak_log!).toBe(50);
    expect(t.member('Bob')!.given).toHaveLength(1);
  });

  test('construction: level 1 after level 0, orders to the builders, the wall in place', async () => {
    const t = new FakeTeam({
      Andy: { inventory: { stone: 2 }, task: { blueprint: WALL } },
      Jill: { inventory: { stone: 2 }, task: { blueprint: WALL } },
    });
    const end = await runSAgents(t.graphTeam({ blueprint: WALL }), 'tree', FAST);
    expect(end.kind).toBe('gave_up');
    expect(wallDone(t)).toBe(true);
    const plan = t.events.find((e) => e.change.startsWith('planned by the rules'))!;
    for (const upper of plan.nodes.filter((n) => n.id.includes('L1-')))
      expect(upper.predecessors).toEqual(expect.arrayContaining(plan.nodes.filter((n) => n.id.includes('L0-')).map((n) => n.id)));
    expect(lines(t, 'order').every((l) => l.startsWith('Andy→Jill: Jill, please Place'))).toBe(true);
  });
});

describe('chain and graph offline', () => {
  test('chain: an order to the last agent is relayed hop by hop, and its report comes back the same way', async () => {
    const t = logTeam();
    await runSAgents(t.graphTeam(), 'chain', { ...FAST, quotas: () => ({ oak_log: 30 }) });
    expect(lines(t, 'order')).toEqual([
      'Andy→Jill: Jill, please Mine 10 oak_log',
      'Andy→Jill: pass on to Bob: Mine 10 oak_log',
      'Jill→Bob: Bob, please Mine 10 oak_log',
    ]);
    expect(lines(t, 'report')).toEqual(
      expect.arrayContaining([
        'Bob→Jill: I have succeeded the task Mine 10 oak_log. My inventory: 10 oak_log.',
        'Jill→Andy: I have succeeded the task Mine 10 oak_log. My inventory: 10 oak_log.',
      ]),
    );
    expect(t.last().organisation).toMatchObject({ kind: 'chain', orders: 3, refused: 0 });
  });

  test('graph: the same plan, every edge recorded', async () => {
    const t = logTeam();
    await runSAgents(t.graphTeam(), 'graph', { ...FAST, quotas: () => ({ oak_log: 3 }) });
    expect(t.members.map((m) => m.inv.oak_log)).toEqual([1, 1, 1]);
    expect(t.last().organisation!.edges).toHaveLength(6);
  });
});

type Role = 'task_plan' | 'action_plan' | 'monitor';
const SYSTEMS: Record<Role, string> = { task_plan: taskPlanRole.system, action_plan: actionPlanRole.system, monitor: monitorRole.system };

/** A model scripted per role (told apart by the system prompt): `who` is the planning agent's name. */
function byRole(script: Record<Role, (req: ChatRequest, who: string, n: number) => Answer>) {
  const calls = new Map<string, number>();
  return new FakeModel((req) => {
    const role = (Object.keys(SYSTEMS) as Role[]).find((r) => SYSTEMS[r] === req.system);
    if (!role) throw new Error(`no role has the system prompt ${req.system.slice(0, 60)}`);
    const first = req.turns[0]!.content;
    const who = /Your name: (\w+)/.exec(first)?.[1] ?? '?';
    const key = `${role}:${who}`;
    const n = calls.get(key) ?? 0;
    calls.set(key, n + 1);
    return script[role](req, who, n);
  });
}
const plan = (at: string, informer = 'system') =>
  JSON.stringify({ objective: 'Collect 4 oak_log', analysis: 'two agents', plan: [`Stage 1: ${at}`], task_at_hand: at, informer });

describe('tree with a model (the hourglass per agent)', () => {
  test('bad answers get a bounded retry with the reason; orders to unknown agents and a leaf that delegates are refused', async () => {
    const t = new FakeTeam({ Andy: { inventory: {} }, Jill: { inventory: {} } });
    const model = byRole({
      task_plan: (_req, who, n) =>
        who === 'Andy' && n === 0
          ? 'I think we should gather wood.'
          : plan(who === 'Andy' ? 'Andy mines 2, Jill mines 2' : 'mine 2 oak_log'),
      action_plan: (req, who, n) => {
        if (who === 'Andy')
          return n === 0
            ? '["inform Steve to mine 2 oak_log"]'
            : n === 1
              ? '["inform Jill to mine 2 oak_log", "Mine 2 oak_log"]'
              : '["Mine 0 oak_log"]';
        // Jill first delegates (a leaf may not), then does it herself.
        return req.turns.length === 1 ? '["inform Andy to mine 2 oak_log"]' : '["Mine 2 oak_log"]';
      },
      monitor: (req) => {
        const inv = /Inventory: (.*)/.exec(req.turns[0]!.content)?.[1] ?? '';
        return JSON.stringify({ rationale: `inventory: ${inv}`, status: /2 oak_log/.test(inv) ? 'success' : 'unknown' });
      },
    });
    const end = await runSAgents(t.graphTeam({ planner: model }), 'tree', { ...FAST, maxPlans: 2 });
    expect(end.kind).toBe('gave_up');
    expect(t.members.map((m) => m.inv.oak_log)).toEqual([2, 2]);
    expect(t.member('Jill')!.commands).toEqual(['!collectBlocks("oak_log", 2)']);
    // The retries carried the reasons back to the model.
    const retries = model.requests.filter((r) => r.turns.length > 1).map((r) => r.turns.at(-1)!.content);
    expect(retries).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/the answer has no JSON/),
        expect.stringMatching(/Steve is not in the team/),
        expect.stringMatching(/you are a leaf; do the task yourself/),
      ]),
    );
    expect(lines(t, 'order')).toEqual(['Andy→Jill: Jill, please mine 2 oak_log']);
    expect(lines(t, 'report')).toContain('Jill→Andy: I have succeeded the task mine 2 oak_log. My inventory: 2 oak_log.');
    // mPT counts the hourglass iterations: the root's plans and Jill's one pass.
    expect(t.last().organisation!.planning.Jill).toBe(1);
    const purposes = new Set(model.requests.map((r) => r.purpose));
    expect([...purposes].sort()).toEqual(['action_plan', 'monitor', 'task_plan']);
  });

  test('a monitor that never says done: the order fails after its iterations, with the reason', async () => {
    const t = new FakeTeam({ Andy: { inventory: {} }, Jill: { inventory: {} } });
    const model = byRole({
      task_plan: (_req, who) => plan(who === 'Andy' ? 'Jill mines 1 oak_log' : 'mine 1 oak_log'),
      action_plan: (_req, who) => (who === 'Andy' ? '["inform Jill to mine 1 oak_log"]' : '["Mine 1 oak_log"]'),
      monitor: () => 'Task result judgment: nothing is said of it. Final task status: unknown',
    });
    const end = await runSAgents(t.graphTeam({ planner: model }), 'tree', { ...FAST, maxIterations: 2, maxFailures: 1 });
    expect(end).toEqual({ kind: 'gave_up', reason: '1 orders or plans failed (the strategy stops at 1)' });
    expect(t.changes()).toEqual(expect.arrayContaining([expect.stringMatching(/failure: the monitor never said done after 2 iterations/)]));
    expect(lines(t, 'report')).toContain('Jill→Andy: I have failed the task mine 1 oak_log. My inventory: 2 oak_log.');
    expect(t.last().organisation!.planning.Jill).toBe(2);
  });

  test('a task planner that never answers usably: the rules plan instead, and the reason is recorded', async () => {
    const t = new FakeTeam({
      Andy: { inventory: { stone: 2 }, task: { blueprint: WALL } },
      Jill: { inventory: { stone: 2 }, task: { blueprint: WALL } },
    });
    const model = byRole({
      task_plan: () => '{"objective": ',
      action_plan: () => '["Mine 1 stone"]',
      monitor: () => '{"rationale": "placed", "status": "success"}',
    });
    t.behaviour = doWork;
    await runSAgents(t.graphTeam({ planner: model, blueprint: WALL }), 'tree', { ...FAST, maxPlans: 1 });
    expect(t.changes()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^fallback: the rules planned, because the task planner failed: task_plan: no usable answer after 3 tries/),
      ]),
    );
  });
});

describe('graph with a model: the guard', () => {
  test('a delegation back to the commander (a command cycle) is refused and given back to the model', async () => {
    const t = new FakeTeam({ Andy: { inventory: {} }, Jill: { inventory: {} } });
    const model = byRole({
      task_plan: (_req, who) => plan(who === 'Andy' ? 'Jill mines 1 oak_log' : 'mine 1 oak_log'),
      action_plan: (req, who) =>
        who === 'Andy'
          ? '["inform Jill to mine 1 oak_log"]'
          : req.turns.length === 1
            ? '["inform Andy to mine 1 oak_log"]'
            : '["Mine 1 oak_log"]',
      monitor: (req) =>
        JSON.stringify({ rationale: 'see inventory', status: /1 oak_log/.test(req.turns[0]!.content) ? 'success' : 'unknown' }),
    });
    await runSAgents(t.graphTeam({ planner: model }), 'graph', { ...FAST, maxPlans: 1 });
    const retries = model.requests.filter((r) => r.turns.length > 1).map((r) => r.turns.at(-1)!.content);
    expect(retries).toEqual(expect.arrayContaining([expect.stringMatching(/a command cycle: Andy already commands Jill/)]));
    expect(t.member('Jill')!.inv.oak_log).toBe(1);
  });
});
