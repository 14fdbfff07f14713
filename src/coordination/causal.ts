/**
 * CausalMACE's planner (Chai et al. 2025, §3.4): the initial graph G_init from the dependency role
 * under the game rules R ({@link proposeDependencies}), and its refinement by causal intervention
 * ({@link interveneEdges}).
 *
 * Causal intervention, per edge X = (s_p → s_q):
 * - for each rule r_i, the counterfactual role writes r_i*, a rule contradicting it, and
 *   R_i* = R with r_i replaced by r_i*;
 * - Y ∈ {0, 1} is the pairwise dependency role's answer to "must s_p be done before s_q can start?"
 *   (`depends: true` → 1), asked under R and under each R_i*;
 * - ATE(r_i, X) = E[Y | X, do(R)] − E[Y | X, do(R_i*)] (eq. 1), each expectation estimated as the
 *   mean of `samples` answers (default 1: one answer is Y itself); answers that failed (after the
 *   role's retries) are left out of the mean, and a condition with no answer leaves that rule's
 *   ATE unknown;
 * - ATE(R, X) = the mean of the known ATE(r_i, X) (eq. 2; the paper averages over all k rules);
 * - the edge is removed (origin `ate_removed`) when ATE(R, X) = 0: the rules do not explain it.
 *   An edge whose ATE is unknown is kept. Read literally, eq. 2 lets a rule that adds the edge
 *   (+1) and one that removes it (−1) cancel to 0; that reading is kept, and the report shows
 *   each rule's effect.
 *
 * Queries: r_i* is a property of the rule, not of the edge, so each rule's counterfactual is asked
 * once per {@link interveneEdges} call and reused for every edge (k calls); each edge then costs
 * (k + 1) × `samples` dependency queries: one under R and one under each R_i*. Y under R is asked
 * again rather than taken from the proposal, so both sides of eq. 1 come from the same question.
 */
import type { TaskGraph } from './graph.ts';
import { counterfactualRole } from './roles/counterfactual.ts';
import { dependencyPairRole, dependencyRole, type Step } from './roles/dependency.ts';
import { callRole, type RoleCall } from './roles/role.ts';

/** How the intervention is run. */
export interface CausalOptions extends RoleCall {
  /** The game rules R, r_1 … r_k. */
  rules: string[];
  /** Answers per condition averaged for each expectation (default 1). */
  samples?: number;
}

/** One rule's effect on one edge. */
export interface RuleEffect {
  rule: string;
  /** r_i*, or null when the counterfactual role failed. */
  counterfactual: string | null;
  /** E[Y | X, do(R_i*)], or null when no answer came. */
  yStar: number | null;
  /** ATE(r_i, X), or null when unknown. */
  ate: number | null;
}

/** The intervention's result for one edge. */
export interface EdgeEffect {
  from: string;
  to: string;
  /** E[Y | X, do(R)], or null when no answer came. */
  yR: number | null;
  rules: RuleEffect[];
  /** ATE(R, X), or null when no rule's effect is known. */
  ate: number | null;
  removed: boolean;
  reason: string;
}

/** What {@link interveneEdges} did. */
export interface CausalReport {
  edges: EdgeEffect[];
  /** r_i* by rule (null where the role failed). */
  counterfactuals: Record<string, string | null>;
  /** Dependency questions asked (role calls, not counting their retries). */
  queries: number;
  removed: number;
  /** True when the call was cancelled before every edge was checked (the rest are kept). */
  aborted: boolean;
}

const steps = (graph: TaskGraph): Map<string, Step> => new Map(graph.nodes().map((n) => [n.id, { id: n.id, description: n.description }]));

/**
 * Builds G_init: for each node, the dependency role under `options.rules` lists the node's
 * dependencies, which are added as edges of origin `llm` (an edge that would close a cycle with
 * those already added is refused by the role's check, and retried).
 *
 * @returns the edges added and the nodes whose question failed (with why).
 */
export async function proposeDependencies(
  graph: TaskGraph,
  options: RoleCall & { rules: string[] },
): Promise<{ added: number; failures: { step: string; reason: string }[] }> {
  const all = [...steps(graph).values()];
  let added = 0;
  const failures: { step: string; reason: string }[] = [];
  for (const s of all) {
    if (options.signal?.aborted) break;
    const r = await callRole(dependencyRole, { steps: all, step: s.id, rules: options.rules, graph }, options);
    if (!r.ok) {
      failures.push({ step: s.id, reason: r.reason });
      continue;
    }
    for (const e of r.value) {
      const a = graph.addEdge(e.from, e.to, 'llm');
      if (a.ok && !a.existed) added++;
    }
  }
  return { added, failures };
}

/**
 * Refines the graph by causal intervention (see the module header): every active edge of `graph`
 * (or the given `edges`) is checked, and those with ATE(R, X) = 0 are removed.
 */
export async function interveneEdges(
  graph: TaskGraph,
  options: CausalOptions,
  edges: readonly { from: string; to: string }[] = graph.edges(),
): Promise<CausalReport> {
  const samples = Math.max(1, options.samples ?? 1);
  const byId = steps(graph);
  const report: CausalReport = { edges: [], counterfactuals: {}, queries: 0, removed: 0, aborted: false };
  for (const rule of options.rules) {
    if (options.signal?.aborted) return { ...report, aborted: true };
    const r = await callRole(counterfactualRole, { rule }, options);
    report.counterfactuals[rule] = r.ok ? r.value : null;
  }
  const expectation = async (from: Step, to: Step, rules: string[]): Promise<number | null> => {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < samples; i++) {
      if (options.signal?.aborted) break;
      report.queries++;
      const r = await callRole(dependencyPairRole, { from, to, rules }, options);
      if (r.ok) {
        sum += r.value ? 1 : 0;
        n++;
      }
    }
    return n ? sum / n : null;
  };
  for (const { from, to } of edges) {
    const a = byId.get(from);
    const b = byId.get(to);
    if (!a || !b || !graph.edge(from, to)) continue;
    if (options.signal?.aborted) return { ...report, aborted: true };
    const yR = await expectation(a, b, options.rules);
    const effects: RuleEffect[] = [];
    for (const [i, rule] of options.rules.entries()) {
      const counterfactual = report.counterfactuals[rule] ?? null;
      const yStar =
        counterfactual === null
          ? null
          : await expectation(
              a,
              b,
              options.rules.map((r, j) => (j === i ? counterfactual : r)),
            );
      effects.push({ rule, counterfactual, yStar, ate: yR === null || yStar === null ? null : yR - yStar });
    }
    if (options.signal?.aborted) return { ...report, aborted: true };
    const known = effects.map((e) => e.ate).filter((x): x is number => x !== null);
    const ate = known.length ? known.reduce((s, x) => s + x, 0) / known.length : null;
    const removed = ate !== null && Math.abs(ate) < 1e-9;
    const reason =
      ate === null
        ? 'ATE unknown (no usable answers): kept'
        : removed
          ? `ATE(R, X) = 0: the answer (${yR}) does not change when a rule is replaced by its counterfactual`
          : `ATE(R, X) = ${round(ate)}: the rules explain it`;
    if (removed && graph.removeEdge(from, to, 'ate_removed', reason)) report.removed++;
    report.edges.push({ from, to, yR, rules: effects, ate, removed, reason });
  }
  return report;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
