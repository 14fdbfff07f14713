/**
 * Every metric against numbers worked out by hand (see each test's comment).
 */
import { describe, expect, test } from 'vitest';
import {
  activeTimes,
  balance,
  balanceBS,
  balanceCode,
  completion,
  efficiency,
  efficiencyPerAgentTime,
  intervalsFromCommands,
  planningIterations,
  runMetrics,
  tokenCost,
  resultMetrics,
} from '../../src/coordination/metrics.ts';
import { RunRecorder, runMetricsSchema, type RequestEvent } from '../../src/tasks/eval/records.ts';

describe('active time from command intervals', () => {
  test('overlapping and touching intervals are merged', () => {
    // Alice: (0–10) ∪ (5–15) ∪ (15–20) = 0–20, plus 30–40: 30. Bob: 0–10: 10. Carol: none: 0.
    const intervals = [
      { agent: 'Alice', start: 0, end: 10 },
      { agent: 'Alice', start: 30, end: 40 },
      { agent: 'Alice', start: 5, end: 15 },
      { agent: 'Alice', start: 15, end: 20 },
      { agent: 'Bob', start: 0, end: 10 },
      { agent: 'Bob', start: 7, end: 3 },
    ];
    expect(activeTimes(intervals, ['Alice', 'Bob', 'Carol'])).toEqual({ Alice: 30, Bob: 10, Carol: 0 });
  });

  test('from commands.jsonl records: start t and duration ms, optionally of one kind', () => {
    const records = [
      { agent: 'Alice', t: 1000, ms: 500, kind: 'action' },
      { agent: 'Alice', t: 1200, ms: 10, kind: 'query' },
    ];
    expect(intervalsFromCommands(records)).toEqual([
      { agent: 'Alice', start: 1000, end: 1500 },
      { agent: 'Alice', start: 1200, end: 1210 },
    ]);
    expect(intervalsFromCommands(records, 'query')).toEqual([{ agent: 'Alice', start: 1200, end: 1210 }]);
  });
});

describe('completion and efficiency', () => {
  test('completion is the score clamped to [0, 1]', () => {
    expect([completion(0.6), completion(1.2), completion(-1), completion(NaN)]).toEqual([0.6, 1, 0, 0]);
  });

  test('VillagerAgent: per minute of wall time; CausalMACE eq. 6: per minute of summed agent time', () => {
    // 0.5 in 2 min = 0.25/min; agents active 1 min and 0.5 min: 0.5 / 1.5 = 1/3.
    expect(efficiency(0.5, 120_000)).toBe(0.25);
    expect(efficiencyPerAgentTime(0.5, [60_000, 30_000])).toBeCloseTo(1 / 3, 12);
    expect(efficiency(1, 0)).toBe(0);
    expect(efficiencyPerAgentTime(1, [0, 0])).toBe(0);
  });
});

describe('balance', () => {
  test("VillagerAgent's B = 1 − σ(t'), t' min-max normalised", () => {
    // t = [40, 20, 20] → t' = [1, 0, 0]; mean 1/3; σ² = ((2/3)² + 2·(1/3)²)/3 = 2/9; B = 1 − √(2/9).
    expect(balance([40, 20, 20])).toBeCloseTo(1 - Math.sqrt(2 / 9), 12);
    // Any two different times give t' = [0, 1], σ = 0.5.
    expect(balance([10, 9])).toBe(0.5);
    expect(balance([7, 7])).toBe(1);
    expect(balance([7])).toBeNull();
  });

  test("VillagerAgent's code: 1 − std(t / max t)", () => {
    // [40, 20, 20] → [1, 0.5, 0.5]; mean 2/3; σ² = ((1/3)² + 2·(1/6)²)/3 = 1/18.
    expect(balanceCode([40, 20, 20])).toBeCloseTo(1 - Math.sqrt(1 / 18), 12);
    // [10, 9] → [1, 0.9]: σ = 0.05 (Table 1's 2-agent figures are of this kind, ~0.95).
    expect(balanceCode([10, 9])).toBeCloseTo(0.95, 12);
    expect(balanceCode([0, 0])).toBe(1);
    expect(balanceCode([3])).toBeNull();
  });

  test("CausalMACE's BS: σ over a task's agents of |t_j − min| / (T_max − min), averaged over tasks", () => {
    // Task 1: t = [100, 80], T_max = 300 → x = [20/220, 0], σ = 10/220. Task 2: equal times, σ = 0.
    const task1 = { activeMs: [100, 80], limitMs: 300 };
    expect(balanceBS([task1])).toBeCloseTo(1 - 10 / 220, 12);
    expect(balanceBS([task1, { activeMs: [50, 50], limitMs: 300 }])).toBeCloseTo(1 - 10 / 440, 12);
    expect(balanceBS([{ activeMs: [5], limitMs: 300 }])).toBeNull();
  });
});

describe('token cost (VillagerAgent eq. 4)', () => {
  test('completion tokens per action / ((score + 1) + actions)', () => {
    // 1260 output tokens over 10 actions = 126 per action (Table 4's scale); score 0.7 = 70 %.
    expect(tokenCost({ outputTokens: 1260, actions: 10, score: 0.7 })).toBeCloseTo(126 / 81, 12);
    expect(tokenCost({ outputTokens: 1260, actions: 10, score: 0.7, scoreUnits: 'fraction' })).toBeCloseTo(126 / 11.7, 12);
    // No action: every output token counts, over (0 + 1) + 0.
    expect(tokenCost({ outputTokens: 50, actions: 0, score: 0 })).toBe(50);
  });
});

test('planning iterations per agent and their mean', () => {
  expect(planningIterations({ Alice: 4, Bob: 3 })).toEqual({ perAgent: { Alice: 4, Bob: 3 }, mean: 3.5 });
  expect(planningIterations({}).mean).toBe(0);
});

test('every metric of one run from its records', () => {
  // Alice acts 0–60 s and queries inside it; Bob acts 0–30 s. Score 0.5 in 2 minutes.
  const m = runMetrics({
    score: 0.5,
    wallMs: 120_000,
    agents: ['Alice', 'Bob'],
    commands: [
      { agent: 'Alice', t: 0, ms: 60_000, kind: 'action' },
      { agent: 'Alice', t: 10_000, ms: 100, kind: 'query' },
      { agent: 'Bob', t: 0, ms: 30_000, kind: 'action' },
    ],
    usageByRole: { decompose: { calls: 2, input: 2000, output: 300 }, assign: { calls: 1, input: 500, output: 50 } },
    usageByAgent: { Alice: { calls: 5, input: 5000, output: 400 }, Bob: { calls: 3, input: 3000, output: 250 } },
    messages: 6,
    planning: { Alice: 2, Bob: 1 },
    limitMs: 300_000,
  });
  expect(m).toMatchObject({
    completion: 0.5,
    efficiencyPerMinute: 0.25,
    activeMs: { Alice: 60_000, Bob: 30_000 },
    balance: 0.5,
    outputTokens: 1000,
    modelCalls: 11,
    messages: 6,
    actions: 2,
    wallMs: 120_000,
    planning: { perAgent: { Alice: 2, Bob: 1 }, mean: 1.5 },
    tokensByRole: { decompose: { calls: 2, input: 2000, output: 300 }, assign: { calls: 1, input: 500, output: 50 } },
  });
  expect(m.efficiencyPerAgentMinute).toBeCloseTo(0.5 / 1.5, 12);
  // t / max = [1, 0.5]: σ = 0.25.
  expect(m.balanceCode).toBeCloseTo(0.75, 12);
  // x = [30/270, 0]: σ = 15/270.
  expect(m.balanceBS).toBeCloseTo(1 - 15 / 270, 12);
  // 1000 tokens / 2 actions = 500; / (50 + 1 + 2).
  expect(m.tokenCost).toBeCloseTo(500 / 53, 12);
});

test("a run's recorder gathers what its result metrics need: roles apart from the agents' own calls, and the last graph", () => {
  const recorder = new RunRecorder({ Alice: 'fake/m', Bob: 'fake/m' });
  const request = (agent: string, purpose: RequestEvent['purpose'], output: number): RequestEvent => ({
    type: 'request',
    t: 0,
    agent,
    model: 'fake/m',
    purpose,
    system: '',
    turns: [],
    usage: { input: 100, cached: 0, cacheWrite: 0, output },
    ms: 5,
  });
  // The planner's calls run on agent 0's model: they count by role, not as Alice's own.
  recorder.emit(request('Alice', 'decompose', 40));
  recorder.emit(request('Alice', 'reflect', 10));
  recorder.emit(request('Alice', 'conversing', 20));
  recorder.emit(request('Alice', 'conversing', 20));
  recorder.emit(request('Bob', 'conversing', 30));
  recorder.emit(request('Bob', 'memory', 5));
  recorder.emit({
    type: 'command',
    t: 1_000,
    agent: 'Alice',
    command: '!craftRecipe("stick", 1)',
    kind: 'action',
    ok: true,
    output: '',
    ms: 3_000,
  });
  recorder.emit({
    type: 'command',
    t: 2_000,
    agent: 'Bob',
    command: '!givePlayer("Alice", "stick", 1)',
    kind: 'action',
    ok: true,
    output: '',
    ms: 1_000,
  });
  recorder.emit({ type: 'message', t: 3_000, agent: 'Bob', direction: 'sent', peer: 'Alice', channel: 'bot', text: 'hi' });
  recorder.emit({ type: 'message', t: 3_000, agent: 'Alice', direction: 'received', peer: 'Bob', channel: 'bot', text: 'hi' });
  const node = (id: string, status: 'success' | 'failure', assigned: string[]) => ({
    id,
    description: id,
    status,
    candidates: assigned,
    assigned,
    number: 1,
    predecessors: [],
  });
  recorder.emit({
    type: 'graph',
    t: 4_000,
    strategy: 'dag',
    version: 7,
    change: '1.2 success',
    nodes: [node('1.1', 'success', ['Bob']), node('1.2', 'success', ['Alice']), node('1.3', 'failure', ['Alice'])],
    edges: [
      { from: '1.1', to: '1.2', origin: 'rule_added' },
      { from: '1.1', to: '1.3', origin: 'rule_removed', removed: true },
    ],
  });
  const m = resultMetrics(recorder.metricsInput(), {
    score: 1,
    wallMs: 60_000,
    agents: ['Alice', 'Bob'],
    limitMs: 120_000,
    coordination: 'dag',
    ruleChecks: true,
  });
  expect(m.tokensByRole).toEqual({
    decompose: { calls: 1, input: 100, output: 40 },
    reflect: { calls: 1, input: 100, output: 10 },
    act: { calls: 4, input: 400, output: 75 },
  });
  expect(m.tokensByAgent).toEqual({ Alice: { calls: 2, input: 200, output: 40 }, Bob: { calls: 2, input: 200, output: 35 } });
  expect(m.outputTokens).toBe(125);
  expect(m.modelCalls).toBe(6);
  expect(m.planning).toEqual({ perAgent: { Alice: 2, Bob: 1 }, mean: 1.5 });
  expect(m.messages).toBe(1);
  expect(m.activeMs).toEqual({ Alice: 3_000, Bob: 1_000 });
  expect(m.actions).toBe(2);
  expect(m.graph).toEqual({
    rule_checked_edges: true,
    nodes: { success: 2, failure: 1 },
    edges: { rule_added: 1, rule_removed: 1 },
    versions: 7,
    executions: { Alice: 2, Bob: 1 },
  });
  // The record's schema takes it as it is.
  expect(runMetricsSchema.parse(m)).toEqual(m);
});
