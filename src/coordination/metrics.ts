/**
 * The metrics of the coordination papers, computed from a run's records. Every time is in ms
 * unless a name says minutes; scores are fractions (0–1) unless said.
 *
 * Sources:
 * - VillagerAgent (Dong et al. 2024, §4.1, Appendix A, Table 4): completion C, efficiency E, balance B, token cost;
 * - CausalMACE (Chai et al. 2025, §4.1.2, eq. 5–7): completion rate CR, efficiency E, balance BS;
 * - S-Agents (Chen et al. 2024, §IV a): mean prompt times (mPT), "the average times of hierarchical
 *   planning iterations of each agent".
 */
import { COORDINATION_ROLES } from '../models/types.ts';
import type { MetricsInput, RunMetricsRecord, Usage } from '../tasks/eval/records.ts';

/** One stretch of an agent's activity (ms since the epoch), e.g. a command from `commands.jsonl`. */
export interface Interval {
  agent: string;
  start: number;
  end: number;
}

/** A command as `commands.jsonl` records it (start `t` and duration `ms`). */
export interface CommandRecord {
  agent: string;
  t: number;
  ms: number;
  kind?: string;
}

/** Intervals of recorded commands (`kind` given: only those of that kind, e.g. `action`). */
export function intervalsFromCommands(records: readonly CommandRecord[], kind?: string): Interval[] {
  return records
    .filter((r) => kind === undefined || r.kind === kind)
    .map((r) => ({ agent: r.agent, start: r.t, end: r.t + Math.max(0, r.ms) }));
}

/**
 * Each agent's active time (ms): the length of the union of its intervals, overlapping and touching
 * ones merged (a query run during an action adds nothing). Agents named in `agents` with no
 * interval get 0; an interval ending before it starts counts nothing.
 */
export function activeTimes(intervals: readonly Interval[], agents: readonly string[] = []): Record<string, number> {
  const by = new Map<string, Interval[]>(agents.map((a) => [a, []]));
  for (const i of intervals) if (i.end > i.start) by.set(i.agent, [...(by.get(i.agent) ?? []), i]);
  const out: Record<string, number> = {};
  for (const [agent, list] of by) {
    list.sort((a, b) => a.start - b.start);
    let total = 0;
    let curStart = -Infinity;
    let curEnd = -Infinity;
    for (const i of list) {
      if (i.start > curEnd) {
        if (curEnd > curStart) total += curEnd - curStart;
        [curStart, curEnd] = [i.start, i.end];
      } else curEnd = Math.max(curEnd, i.end);
    }
    if (curEnd > curStart) total += curEnd - curStart;
    out[agent] = total;
  }
  return out;
}

/**
 * Completion: the task's score as a fraction, clamped to [0, 1] (VillagerAgent §4.1 C = indicators
 * detected / expected; CausalMACE eq. 5 CR = I_a / I_t; here the runner's score, which for
 * MineCollab is 1/0 for crafting and cooking and the blueprint fraction for construction).
 */
export function completion(score: number): number {
  return Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
}

/**
 * Efficiency E = completion / the run's execution time in minutes (VillagerAgent §4.1: "task
 * completion rate / total execution time"; its tables give %/min, i.e. 100 × this).
 *
 * @returns 0 for a run of no time.
 */
export function efficiency(completionFraction: number, wallMs: number): number {
  return wallMs > 0 ? completionFraction / (wallMs / 60_000) : 0;
}

/**
 * CausalMACE's efficiency (eq. 6): E = CR / Σ_j t_j, over the agents' execution times (minutes).
 *
 * @returns 0 when no agent was active.
 */
export function efficiencyPerAgentTime(completionFraction: number, activeMs: readonly number[]): number {
  const minutes = activeMs.reduce((s, t) => s + t, 0) / 60_000;
  return minutes > 0 ? completionFraction / minutes : 0;
}

/** The population standard deviation (numpy's default, ddof = 0). */
export function std(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
}

/**
 * VillagerAgent's balance B (§4.1, eq. 1–2): t' = (t − min t) / (max t − min t), B = 1 − σ(t'),
 * with t the agents' active times and σ the population standard deviation.
 *
 * As written, any two agents with different times give t' = [0, 1] and B = 0.5, so the paper's
 * 2-agent B of 95.38 % (Table 1) cannot come from it: it comes from the code's formula
 * ({@link balanceCode}). Both are given.
 *
 * @returns 1 when every agent was active equally long (t' is 0/0 then: no imbalance); null for
 *   fewer than 2 agents (Table 6: "inapplicable for a single-player scenario").
 */
export function balance(activeMs: readonly number[]): number | null {
  if (activeMs.length < 2) return null;
  const lo = Math.min(...activeMs);
  const hi = Math.max(...activeMs);
  if (hi === lo) return 1;
  return 1 - std(activeMs.map((t) => (t - lo) / (hi - lo)));
}

/**
 * VillagerAgent's balance as its code computes it: 1 − std(t / max t) (population std).
 *
 * @returns 1 when no agent was active (nothing to balance); null for fewer than 2 agents.
 */
export function balanceCode(activeMs: readonly number[]): number | null {
  if (activeMs.length < 2) return null;
  const hi = Math.max(...activeMs);
  if (hi <= 0) return 1;
  return 1 - std(activeMs.map((t) => t / hi));
}

/** One task's agent times for {@link balanceBS}. */
export interface BalanceTask {
  /** Each agent's execution time (ms), ET. */
  activeMs: readonly number[];
  /** The task's time limit T_max (ms): "the maximum action time for each task". */
  limitMs: number;
}

/**
 * CausalMACE's balance BS (eq. 7): BS = 1 − (1/N) Σ_j std(|t_j − min(ET)| / (T_max − min(ET))).
 *
 * Reading: a standard deviation of one number is 0, so the std runs over a task's agents (t_j the
 * execution time of agent j, ET the task's set of them) and the mean (1/N) Σ over the N tasks
 * averaged, as Table 2 reports BS per task type; T_max is the task's time limit, not max(ET).
 * Per task: x_j = |t_j − min ET| / (T_max − min ET), then σ(x) over the agents.
 *
 * @returns null when no task has 2 or more agents; a task whose limit is not above min(ET)
 *   counts as balanced (σ = 0).
 */
export function balanceBS(tasks: readonly BalanceTask[]): number | null {
  const usable = tasks.filter((t) => t.activeMs.length >= 2);
  if (!usable.length) return null;
  const spread = usable.map((t) => {
    const lo = Math.min(...t.activeMs);
    const range = t.limitMs - lo;
    return range > 0 ? std(t.activeMs.map((x) => Math.abs(x - lo) / range)) : 0;
  });
  return 1 - spread.reduce((s, x) => s + x, 0) / spread.length;
}

/** Inputs of {@link tokenCost}. */
export interface TokenCostInput {
  /** Completion (output) tokens of the run. */
  outputTokens: number;
  /** Valid actions executed. */
  actions: number;
  /** The task score as a fraction (0–1). */
  score: number;
  /** The score's unit in the formula: `percent` (default, see {@link tokenCost}) or `fraction`. */
  scoreUnits?: 'percent' | 'fraction';
}

/**
 * VillagerAgent's token cost (eq. 4, Table 4): Cost = CompletionTokens / ((Score + ε) + ActionNum),
 * ε = 1.
 * - CompletionTokens is, in the paper's words, "the average token usage to complete each action":
 *   completion (output) tokens / actions, which is what Table 4's Tokens column (101–131) shows; a
 *   run with no action puts all its output tokens in the numerator.
 * - The score's unit is not stated. VillagerBench reports every score in percent, and ε = 1 is
 *   there "to prevent a score from dropping to zero", a small guard next to 0–100 but most of the
 *   term next to 0–1; so by default the fraction is turned into percent. `scoreUnits: 'fraction'`
 *   uses it as it is. Only costs computed the same way compare.
 */
export function tokenCost(input: TokenCostInput): number {
  const perAction = input.actions > 0 ? input.outputTokens / input.actions : input.outputTokens;
  const score = completion(input.score) * ((input.scoreUnits ?? 'percent') === 'percent' ? 100 : 1);
  return perAction / (score + 1 + Math.max(0, input.actions));
}

/**
 * Planning iterations per agent (the planning calls each agent made), with their mean over the
 * agents listed: S-Agents' mPT (§IV a).
 */
export function planningIterations(byAgent: Readonly<Record<string, number>>): { perAgent: Record<string, number>; mean: number } {
  const values = Object.values(byAgent);
  return { perAgent: { ...byAgent }, mean: values.length ? values.reduce((s, x) => s + x, 0) / values.length : 0 };
}

/** Tokens and calls of a run, by role or by agent (e.g. `RoleStats.toJSON()`). */
export type UsageByName = Readonly<Record<string, { calls: number; input: number; output: number; cachedInput?: number }>>;

/** What {@link runMetrics} reads. */
export interface RunInput {
  /** The task score, 0–1. */
  score: number;
  /** The run's wall time, ms. */
  wallMs: number;
  agents: readonly string[];
  /** Commands as recorded (`commands.jsonl`): agents' activity and, by default, the actions counted. */
  commands: readonly CommandRecord[];
  /** Valid actions (default: the commands of kind `action`, or all commands when none has a kind). */
  actions?: number;
  /** Model use by role (the coordination layer's roles) and by agent (their own model loops). */
  usageByRole?: UsageByName;
  usageByAgent?: UsageByName;
  /** Messages sent between agents. */
  messages?: number;
  /** Planning calls per agent. */
  planning?: Readonly<Record<string, number>>;
  /** The task's time limit, ms (T_max of BS). */
  limitMs?: number;
}

/** Every metric of one run. */
export interface RunMetrics {
  completion: number;
  /** VillagerAgent E: completion per minute of wall time. */
  efficiencyPerMinute: number;
  /** CausalMACE E (eq. 6): completion per minute of summed agent time. */
  efficiencyPerAgentMinute: number;
  activeMs: Record<string, number>;
  balance: number | null;
  balanceCode: number | null;
  /** CausalMACE BS of this one run (needs `limitMs`). */
  balanceBS: number | null;
  tokenCost: number;
  outputTokens: number;
  tokensByRole: Record<string, { calls: number; input: number; output: number }>;
  tokensByAgent: Record<string, { calls: number; input: number; output: number }>;
  modelCalls: number;
  planning: { perAgent: Record<string, number>; mean: number };
  messages: number;
  actions: number;
  wallMs: number;
}

/** Every metric of one run, from its records (see each function for its definition). */
export function runMetrics(input: RunInput): RunMetrics {
  const c = completion(input.score);
  const hasKinds = input.commands.some((r) => r.kind !== undefined);
  const activeMs = activeTimes(intervalsFromCommands(input.commands), input.agents);
  const times = input.agents.map((a) => activeMs[a] ?? 0);
  const actions = input.actions ?? (hasKinds ? input.commands.filter((r) => r.kind === 'action').length : input.commands.length);
  const pick = (u: UsageByName | undefined) =>
    Object.fromEntries(Object.entries(u ?? {}).map(([k, v]) => [k, { calls: v.calls, input: v.input, output: v.output }]));
  const tokensByRole = pick(input.usageByRole);
  const tokensByAgent = pick(input.usageByAgent);
  const all = [...Object.values(tokensByRole), ...Object.values(tokensByAgent)];
  const outputTokens = all.reduce((s, u) => s + u.output, 0);
  return {
    completion: c,
    efficiencyPerMinute: efficiency(c, input.wallMs),
    efficiencyPerAgentMinute: efficiencyPerAgentTime(c, times),
    activeMs,
    balance: balance(times),
    balanceCode: balanceCode(times),
    balanceBS: input.limitMs === undefined ? null : balanceBS([{ activeMs: times, limitMs: input.limitMs }]),
    tokenCost: tokenCost({ outputTokens, actions, score: c }),
    outputTokens,
    tokensByRole,
    tokensByAgent,
    modelCalls: all.reduce((s, u) => s + u.calls, 0),
    planning: planningIterations(input.planning ?? {}),
    messages: input.messages ?? 0,
    actions,
    wallMs: input.wallMs,
  };
}

/** The request purposes of the coordination roles; every other purpose is an agent's own call (`act`). */
const ROLE_PURPOSES: ReadonlySet<string> = new Set(COORDINATION_ROLES);

/** What {@link resultMetrics} adds to a run's records. */
export interface ResultContext {
  /** The task score, 0–1. */
  score: number;
  /** The run's play time (goals given to the end), ms. */
  wallMs: number;
  agents: readonly string[];
  /** The task's timeout, ms (T_max of BS). */
  limitMs: number;
  /** The run's coordination strategy and whether the rules checked its edges (graph strategies). */
  coordination: string;
  ruleChecks: boolean;
}

/**
 * The result line's `metrics` of a run, from what its recorder gathered (`RunRecorder.metricsInput`):
 * - active time and actions from the commands (`commands.jsonl`);
 * - tokens and calls by role from the requests' purposes: the planner's roles (`decompose`,
 *   `assign`, `reflect`, `summarise`, `dependency`, `counterfactual`) and `act`, every call the
 *   agents make themselves (their model loop, respond-or-ignore, memory, coding, vision), also
 *   given per agent (`tokensByAgent`);
 * - planning iterations per agent: its `conversing` calls (the model loop's steps, S-Agents' mPT);
 * - messages: every message an agent sent (to a bot, a whisper, public chat);
 * - graph strategies: the last graph's nodes by status, edges by origin (removed ones by what
 *   removed them), its version count, the nodes each agent was given, and `rule_checked_edges`.
 */
export function resultMetrics(input: MetricsInput, ctx: ResultContext): RunMetricsRecord {
  const usageByRole: Record<string, { calls: number; input: number; output: number }> = {};
  const usageByAgent: Record<string, { calls: number; input: number; output: number }> = {};
  const planning: Record<string, number> = Object.fromEntries(ctx.agents.map((a) => [a, 0]));
  const add = (to: Record<string, { calls: number; input: number; output: number }>, key: string, u: Usage) => {
    const t = (to[key] ??= { calls: 0, input: 0, output: 0 });
    t.calls += u.calls;
    t.input += u.input;
    t.output += u.output;
  };
  for (const [agent, byPurpose] of Object.entries(input.requests)) {
    for (const [purpose, u] of Object.entries(byPurpose)) {
      if (ROLE_PURPOSES.has(purpose)) add(usageByRole, purpose, u);
      else add(usageByAgent, agent, u);
      if (purpose === 'conversing') planning[agent] = (planning[agent] ?? 0) + u.calls;
    }
  }
  const m = runMetrics({
    score: ctx.score,
    wallMs: ctx.wallMs,
    agents: ctx.agents,
    commands: input.commands,
    usageByRole,
    usageByAgent,
    messages: Object.values(input.messagesSent).reduce((s, n) => s + n, 0),
    planning,
    limitMs: ctx.limitMs,
  });
  // `act`: the agents' own calls, beside the planner's roles (already in the totals above).
  const act = { calls: 0, input: 0, output: 0 };
  for (const u of Object.values(usageByAgent)) add({ act }, 'act', u);
  const out: RunMetricsRecord = { ...m, tokensByRole: { ...m.tokensByRole, ...(act.calls ? { act } : {}) } };
  const g = input.graph;
  if (g) {
    const nodes: Record<string, number> = {};
    for (const n of g.nodes) nodes[n.status] = (nodes[n.status] ?? 0) + 1;
    const edges: Record<string, number> = {};
    for (const e of g.edges) edges[e.origin] = (edges[e.origin] ?? 0) + 1;
    const executions: Record<string, number> = Object.fromEntries(ctx.agents.map((a) => [a, 0]));
    for (const n of g.nodes) for (const a of n.assigned) executions[a] = (executions[a] ?? 0) + 1;
    out.graph = { rule_checked_edges: ctx.ruleChecks, nodes, edges, versions: g.version, executions };
  }
  return out;
}
