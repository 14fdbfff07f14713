/**
 * CausalMACE's planner against a scripted rule table: a fake model that writes each rule's
 * counterfactual, and answers "must p be done before q?" from a table indexed by the rule that was
 * replaced (none: the real rules R). Edges whose answer no rule changes (ATE 0) are removed.
 */
import { describe, expect, test } from 'vitest';
import { interveneEdges, proposeDependencies } from '../../src/coordination/causal.ts';
import { TaskGraph } from '../../src/coordination/graph.ts';
import { RoleStats } from '../../src/coordination/roles/stats.ts';
import type { ChatRequest } from '../../src/models/types.ts';
import { FakeModel } from './fake-model.ts';

const RULES = [
  'You can not place or use something unless you take it out of a container first.',
  'You can not place a block you have not equipped.',
  'The block at the lower place should be placed first.',
];
const counterfactual = (rule: string) => `NOT: ${rule}`;

/**
 * Y per edge, per condition: `R` (all rules), or the index of the rule replaced by its
 * counterfactual. 1.take → 1.low depends on the container rule; 1.low → 1.high on the height rule;
 * 1.sticks → 1.high is a hallucination that no rule explains (yes under every condition).
 */
const TABLE: Record<string, Record<'R' | 0 | 1 | 2, boolean>> = {
  '1.take>1.low': { R: true, 0: false, 1: true, 2: true },
  '1.low>1.high': { R: true, 0: true, 1: true, 2: false },
  '1.sticks>1.high': { R: true, 0: true, 1: true, 2: true },
};

/** The fake model's answer to a request, read from its last user turn. */
function answer(req: ChatRequest): string {
  const user = req.turns[req.turns.length - 1]!.content;
  const rule = /^The rule: (.*)$/m.exec(user);
  if (rule) return `{"counterfactual": "${counterfactual(rule[1]!)}"}`;
  const steps = [...user.matchAll(/^Step (\S+): /gm)].map((m) => m[1]);
  if (steps.length === 2) {
    const rules = /The game rules:\n((?:- .*\n?)*)/.exec(user)![1]!.trim().split('\n');
    const replaced = rules.findIndex((r) => r.startsWith('- NOT: '));
    const depends = TABLE[`${steps[0]}>${steps[1]}`]![replaced < 0 ? 'R' : (replaced as 0 | 1 | 2)];
    return `The rules say so. {"depends": ${depends}}`;
  }
  throw new Error(`unexpected prompt: ${user}`);
}

function graph(): TaskGraph {
  const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
  g.addRound([
    { id: 'take', description: 'take 3 stone from the chest' },
    { id: 'sticks', description: 'craft 4 sticks' },
    { id: 'low', description: 'place stone at (0, -60, 0)', requires: ['take'] },
    { id: 'high', description: 'place stone at (0, -59, 0)', requires: ['low', 'sticks'] },
  ]);
  return g;
}

describe('causal intervention', () => {
  test('an edge no rule explains has ATE 0 and is removed; the others are kept with their effects', async () => {
    const g = graph();
    const model = new FakeModel(answer);
    const stats = new RoleStats();
    const report = await interveneEdges(g, { model, stats, rules: RULES });

    expect(report.counterfactuals).toEqual(Object.fromEntries(RULES.map((r) => [r, counterfactual(r)])));
    const summary = report.edges.map((e) => [`${e.from}>${e.to}`, e.yR, e.rules.map((r) => r.ate), e.ate, e.removed]);
    expect(summary).toEqual([
      ['1.take>1.low', 1, [1, 0, 0], 1 / 3, false],
      ['1.low>1.high', 1, [0, 0, 1], 1 / 3, false],
      ['1.sticks>1.high', 1, [0, 0, 0], 0, true],
    ]);
    expect(g.edges().map((e) => `${e.from}>${e.to}`)).toEqual(['1.take>1.low', '1.low>1.high']);
    expect(g.edges({ includeRemoved: true }).find((e) => e.removed)).toMatchObject({
      from: '1.sticks',
      to: '1.high',
      origin: 'ate_removed',
      addedAs: 'llm',
      reason: 'ATE(R, X) = 0: the answer (1) does not change when a rule is replaced by its counterfactual',
    });
    expect(report.removed).toBe(1);
    // k + 1 = 4 dependency questions per edge, and one counterfactual per rule.
    expect(report.queries).toBe(12);
    expect(stats.get('dependency').calls).toBe(12);
    expect(stats.get('counterfactual').calls).toBe(3);
    expect(model.requests).toHaveLength(15);
  });

  test('n samples per condition: E[Y] is their mean', async () => {
    const g = graph();
    // Under R the model says yes every other time for the hallucinated edge; under every R_i* too.
    let flip = 0;
    const model = new FakeModel((req) => {
      const user = req.turns[req.turns.length - 1]!.content;
      if (user.includes('Step 1.sticks:')) return `{"depends": ${flip++ % 2 === 0}}`;
      return answer(req);
    });
    const report = await interveneEdges(g, { model, rules: RULES, samples: 2 }, [{ from: '1.sticks', to: '1.high' }]);
    expect(report.edges[0]).toMatchObject({ yR: 0.5, ate: 0, removed: true });
    expect(report.edges[0]!.rules.map((r) => r.yStar)).toEqual([0.5, 0.5, 0.5]);
    expect(report.queries).toBe(8);
  });

  test('a rule whose counterfactual fails is left out of the mean; an edge with no answer is kept', async () => {
    const g = graph();
    const model = new FakeModel((req) => {
      const user = req.turns[req.turns.length - 1]!.content;
      if (user.startsWith(`The rule: ${RULES[2]}`)) return 'I cannot contradict that.';
      if (user.includes('Step 1.low:') && user.includes('Step 1.high:')) return 'Yes, it must.';
      return answer(req);
    });
    const report = await interveneEdges(g, { model, rules: RULES, retries: 0 });
    expect(report.counterfactuals[RULES[2]!]).toBeNull();
    const take = report.edges.find((e) => e.from === '1.take')!;
    expect(take.rules.map((r) => r.ate)).toEqual([1, 0, null]);
    expect(take.ate).toBe(0.5);
    const low = report.edges.find((e) => e.from === '1.low')!;
    expect(low).toMatchObject({ yR: null, ate: null, removed: false, reason: 'ATE unknown (no usable answers): kept' });
    // The hallucinated edge: the two rules left change nothing.
    expect(report.edges.find((e) => e.from === '1.sticks')).toMatchObject({ ate: 0, removed: true });
  });

  test('cancelled: nothing more is asked, and what is left is kept', async () => {
    const g = graph();
    const controller = new AbortController();
    const model = new FakeModel((req) => {
      if (req.turns[0]!.content.includes('Step 1.high:')) controller.abort();
      return answer(req);
    });
    const report = await interveneEdges(g, { model, rules: RULES, signal: controller.signal });
    expect(report.aborted).toBe(true);
    expect(report.edges.map((e) => e.from)).toEqual(['1.take']);
    // 3 counterfactuals, 4 questions for the first edge, and the one cancelled.
    expect(model.requests).toHaveLength(8);
    expect(g.edges()).toHaveLength(3);
  });
});

test("the initial graph from the per-step dependency role (CausalMACE's G_init)", async () => {
  const g = new TaskGraph({ agents: ['Alice'] });
  g.addRound([
    { id: 'take', description: 'take stone from the chest' },
    { id: 'low', description: 'place stone low' },
    { id: 'high', description: 'place stone high' },
  ]);
  const byStep: Record<string, string> = {
    '1.take': '{"causal effect": [{"chosen_node": "1.take", "target_node": "1.low"}]}',
    '1.low': '{"causal effect": [{"chosen_node": "1.take", "target_node": "1.low"}, {"chosen_node": "1.low", "target_node": "1.high"}]}',
    '1.high': '{"causal effect": [{"chosen_node": "1.high", "target_node": "1.take"}]}', // closes a cycle: refused, retried, refused
  };
  const model = new FakeModel((req) => byStep[/The step to deal with now: (\S+)/.exec(req.turns[0]!.content)![1]!]!);
  const r = await proposeDependencies(g, { model, rules: RULES, retries: 1 });
  expect(r.added).toBe(2);
  expect(g.edges().map((e) => [e.from, e.to, e.origin])).toEqual([
    ['1.take', '1.low', 'llm'],
    ['1.low', '1.high', 'llm'],
  ]);
  expect(r.failures).toEqual([
    { step: '1.high', reason: 'dependency: no usable answer after 2 tries: these edges close a cycle: 1.take → 1.low → 1.high → 1.take' },
  ]);
});
