/**
 * One node's execution bound: counted from the node's start (VillagerAgent's 120 s), or from the
 * agent's last progress (S-Agents' orders, which the paper does not bound): work that keeps moving
 * runs past the bound, work that stops moving still ends at it. On vitest's fake clock: the test
 * moves time on and has the agent gather a log at each step.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { executeNode, type ExecutionBounds, type NodeOutcome } from '../../src/coordination/execute.ts';
import type { TaskNode } from '../../src/coordination/graph.ts';
import { FakeTeam } from './fake-team.ts';

const BOUND_MS = 300;
/** Between two of the agent's logs: well inside the bound, so only the total passes it. */
const STEP_MS = 60;

const node: TaskNode = {
  id: '1.q1',
  round: 1,
  description: 'collect 10 oak_log',
  milestones: [],
  retrievalPaths: [],
  candidates: ['Andy'],
  number: 1,
  predecessors: [],
  status: 'running',
  assigned: ['Andy'],
  work: { kind: 'collect', targets: { oak_log: 10 } },
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Executes the node while the agent gathers one log every {@link STEP_MS} up to `upTo`, each with
 * its typed outcome, or (`outcomes: false`) all in one long command whose outcome comes at its
 * end; it is done at 10, and short of them it stands still until stopped.
 */
async function execute(timeFrom: ExecutionBounds['timeFrom'], upTo: number, { outcomes = true } = {}) {
  const team = new FakeTeam({ Andy: { inventory: {} } });
  const andy = team.member('Andy')!;
  let finish!: () => void;
  const working = new Promise<void>((resolve) => (finish = resolve));
  team.behaviour = () => working;
  const stop = andy.stop.bind(andy);
  andy.stop = () => {
    finish();
    return stop();
  };
  const started = Date.now();
  let outcome: NodeOutcome | undefined;
  const executed = executeNode(node, andy, {
    bounds: { nodeTimeoutMs: BOUND_MS, maxOrders: 1, stopGraceMs: 1_000, ...(timeFrom ? { timeFrom } : {}) },
    teammate: (name) => team.member(name),
    signal: team.controller.signal,
  }).then((o) => (outcome = o));
  while (!outcome && (andy.inv.oak_log ?? 0) < upTo) {
    await vi.advanceTimersByTimeAsync(STEP_MS);
    if (outcome) break;
    andy.inv.oak_log = (andy.inv.oak_log ?? 0) + 1;
    if (outcomes) andy.outcome('!collectBlocks', { item: 'oak_log', n: 1 }, true, { gained: { oak_log: 1 } });
  }
  if (upTo >= 10) finish();
  while (!outcome) await vi.advanceTimersByTimeAsync(STEP_MS);
  await executed;
  return { outcome, ms: Date.now() - started, logs: andy.inv.oak_log ?? 0 };
}

test('counted from the start (the default), the bound cuts work that is still moving', async () => {
  const { outcome, logs } = await execute(undefined, 10);
  expect(outcome).toMatchObject({ status: 'failure', bound: 'time' });
  expect(logs).toBeLessThan(10);
});

test('counted from the last progress, work that keeps moving runs past the bound to its end', async () => {
  const { outcome, ms } = await execute('progress', 10);
  expect(outcome).toMatchObject({ status: 'success' });
  expect(outcome.bound).toBeUndefined();
  expect(ms).toBeGreaterThan(BOUND_MS);
});

test('counted from the last progress, work that stops moving ends a bound after its last step', async () => {
  const { outcome, logs, ms } = await execute('progress', 3);
  expect(outcome).toMatchObject({ status: 'failure', bound: 'time' });
  expect(outcome.summary).toMatch(/Andy holds 3 of 10 oak_log/);
  expect(logs).toBe(3);
  expect(ms).toBeGreaterThanOrEqual(3 * STEP_MS + BOUND_MS);
});

test('counted from the last progress, one long command that keeps gathering runs past the bound (the targets held are looked at)', async () => {
  const { outcome, ms } = await execute('progress', 10, { outcomes: false });
  expect(outcome).toMatchObject({ status: 'success' });
  expect(ms).toBeGreaterThan(BOUND_MS);
});
