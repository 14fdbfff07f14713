/**
 * The summary of an evaluation: success rate and mean score with 95 % confidence intervals
 * (see `stats.ts`: Wilson for rates, Student t for means), tokens and cost, and the means of the
 * runs' metrics (efficiency, balance, token cost, messages, actions, planning; see
 * `src/coordination/metrics.ts`), overall and per coordination strategy, task file, agent count,
 * depth, plan access, missing items, blocked actions and model; as a text table (cli-table3) for
 * the terminal and as CSV (csv-stringify).
 */
import Table from 'cli-table3';
import { stringify } from 'csv-stringify/sync';
import type { RunResult } from './records.ts';
import { FRACTION, meanInterval, wilsonInterval, type Estimate } from './stats.ts';

/** A way of grouping results: its name and each result's group (undefined = not in any group). */
export interface Dimension {
  name: string;
  group(result: RunResult): string | undefined;
}

/** The task file key of a run (its run id without the task id, the coordination and the episode). */
export function fileKeyOf(result: RunResult): string {
  const at = result.run_id.lastIndexOf(`/${result.task_id}/`);
  return (at > 0 ? result.run_id.slice(0, at) : result.run_id.split('/').slice(0, -2).join('/')) || result.task_file;
}

/** The model(s) a run was played with: one id, or the distinct ids joined with `+`. */
export function modelsOf(result: RunResult): string {
  return [...new Set(result.agents.map((a) => result.models[a] ?? 'unknown'))].join('+');
}

/** The dimensions of the summary, in the order they are printed. */
export const DIMENSIONS: readonly Dimension[] = [
  { name: 'all', group: () => 'all runs' },
  { name: 'coordination', group: (r) => r.coordination },
  { name: 'task file', group: fileKeyOf },
  { name: 'agents', group: (r) => String(r.agent_count) },
  { name: 'depth', group: (r) => (r.depth === undefined ? undefined : String(r.depth)) },
  { name: 'plan access', group: (r) => r.plan_access },
  { name: 'missing items', group: (r) => (r.missing_items === undefined ? undefined : r.missing_items.length ? 'some' : 'none') },
  {
    name: 'blocked actions',
    group: (r) => [...new Set(Object.values(r.blocked_actions ?? {}).flat())].sort().join(' ') || 'none',
  },
  { name: 'model', group: modelsOf },
];

/** One line of the summary: one group of one dimension. */
export interface SummaryRow {
  dimension: string;
  group: string;
  runs: number;
  successes: number;
  /** Success rate with its Wilson 95 % interval. */
  success: Estimate;
  /** Mean score (fraction in [0, 1]) with its t 95 % interval. */
  score: Estimate;
  /** Mean wall time of a run (s). */
  mean_duration_s: number;
  /** Runs that ended for another reason than success or timeout (missing agent, error). */
  failed_runs: number;
  tokens: { input: number; cached: number; output: number };
  /** Sum over the runs (USD); null when some run's model has no price. */
  cost_usd: number | null;
  /** Means over the runs of their metrics (runs recorded before metrics existed are left out). */
  metrics: MetricMeans;
}

/**
 * Means of the runs' metrics (`RunResult.metrics`); NaN where no run has the value (a balance
 * needs 2 agents). Times in s.
 */
export interface MetricMeans {
  /** Runs that have metrics. */
  runs: number;
  /** Play time (goals given to the end): the makespan of a successful run. */
  play_s: number;
  /** Completion per minute of play (VillagerAgent E). */
  efficiency_per_min: number;
  /** VillagerAgent's B as written, its code's, CausalMACE's BS. */
  balance: number;
  balance_code: number;
  balance_bs: number;
  token_cost: number;
  messages: number;
  actions: number;
  commands: number;
  /** Planning iterations per agent (S-Agents' mPT). */
  planning: number;
  /** Model calls and output tokens by role, summed over the runs. */
  roles: Record<string, { calls: number; output: number }>;
}

function metricMeans(runs: readonly RunResult[]): MetricMeans {
  const withMetrics = runs.filter((r) => r.metrics !== undefined);
  const mean = (f: (r: RunResult) => number | null | undefined) => {
    const xs = withMetrics.map(f).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    return xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN;
  };
  const roles: MetricMeans['roles'] = {};
  for (const r of withMetrics)
    for (const [role, u] of Object.entries(r.metrics!.tokensByRole)) {
      const t = (roles[role] ??= { calls: 0, output: 0 });
      t.calls += u.calls;
      t.output += u.output;
    }
  return {
    runs: withMetrics.length,
    play_s: mean((r) => r.play_s),
    efficiency_per_min: mean((r) => r.metrics?.efficiencyPerMinute),
    balance: mean((r) => r.metrics?.balance),
    balance_code: mean((r) => r.metrics?.balanceCode),
    balance_bs: mean((r) => r.metrics?.balanceBS),
    token_cost: mean((r) => r.metrics?.tokenCost),
    messages: mean((r) => r.metrics?.messages),
    actions: mean((r) => r.metrics?.actions),
    commands: mean((r) => r.commands_run),
    planning: mean((r) => r.metrics?.planning.mean),
    roles,
  };
}

/** Summarises `results` along `dimensions` (default {@link DIMENSIONS}); groups sorted naturally. */
export function summarise(results: readonly RunResult[], dimensions: readonly Dimension[] = DIMENSIONS): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const dim of dimensions) {
    const groups = new Map<string, RunResult[]>();
    for (const r of results) {
      const g = dim.group(r);
      if (g === undefined) continue;
      groups.set(g, [...(groups.get(g) ?? []), r]);
    }
    const names = [...groups.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    for (const group of names) rows.push(row(dim.name, group, groups.get(group)!));
  }
  return rows;
}

function row(dimension: string, group: string, runs: RunResult[]): SummaryRow {
  const successes = runs.filter((r) => r.success).length;
  const sum = (f: (r: RunResult) => number) => runs.reduce((a, r) => a + f(r), 0);
  return {
    dimension,
    group,
    runs: runs.length,
    successes,
    success: wilsonInterval(successes, runs.length),
    score: meanInterval(
      runs.map((r) => r.score),
      FRACTION,
    ),
    mean_duration_s: sum((r) => r.duration_s) / runs.length,
    failed_runs: runs.filter((r) => r.end_reason === 'error' || r.end_reason === 'missing_agent').length,
    tokens: { input: sum((r) => r.tokens.input), cached: sum((r) => r.tokens.cached), output: sum((r) => r.tokens.output) },
    cost_usd: runs.some((r) => r.cost_usd === null) ? null : Math.round(sum((r) => r.cost_usd ?? 0) * 1e6) / 1e6,
    metrics: metricMeans(runs),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const interval = (e: Estimate, f: (x: number) => string) => (Number.isNaN(e.low) ? '–' : `${f(e.low)}–${f(e.high)}`);
/** `12.3k`, `4.5M`: token counts for a narrow column. */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return `${(n / 1e3).toFixed(1)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}
const usd = (x: number | null) => (x === null ? 'n/a' : `$${x < 10 ? x.toFixed(4) : x.toFixed(2)}`);

/** A metric mean for a table cell: `–` when no run has it. */
export function metricCell(x: number, digits = 2): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

/**
 * The strategies side by side (the `coordination` rows), with the means of their metrics; '' when
 * the runs played only `chat` without metrics.
 */
export function formatStrategies(rows: readonly SummaryRow[]): string {
  const mine = rows.filter((r) => r.dimension === 'coordination');
  if (!mine.some((r) => r.metrics.runs > 0)) return '';
  const table = new Table({
    head: [
      'strategy',
      'runs',
      'success',
      'mean score',
      'play s',
      'eff./min',
      'B',
      'B (code)',
      'BS',
      'token cost',
      'messages',
      'actions',
      'planning/agent',
    ],
    style: { head: [], border: [] },
    colAligns: ['left', ...Array.from({ length: 12 }, () => 'right' as const)],
  });
  for (const r of mine) {
    const m = r.metrics;
    table.push([
      r.group,
      r.runs,
      `${pct(r.success.value)} (${r.successes})`,
      r.score.value.toFixed(2),
      metricCell(m.play_s, 1),
      metricCell(m.efficiency_per_min),
      metricCell(m.balance),
      metricCell(m.balance_code),
      metricCell(m.balance_bs),
      metricCell(m.token_cost),
      metricCell(m.messages, 1),
      metricCell(m.actions, 1),
      metricCell(m.planning, 1),
    ]);
  }
  return table.toString();
}

/**
 * The summary as a text table, one block of rows per dimension (dimensions with a single group
 * are left out, they split nothing, except "all" and "model"), then the strategies' metrics
 * ({@link formatStrategies}).
 */
export function formatSummary(rows: readonly SummaryRow[]): string {
  const table = new Table({
    head: ['by', 'group', 'runs', 'success', '95% CI', 'mean score', '95% CI', 'tokens in/out', 'cost'],
    style: { head: [], border: [] },
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.dimension, (counts.get(r.dimension) ?? 0) + 1);
  for (const r of rows) {
    if (r.dimension !== 'all' && r.dimension !== 'model' && (counts.get(r.dimension) ?? 0) < 2) continue;
    table.push([
      r.dimension,
      r.group,
      r.runs,
      `${pct(r.success.value)} (${r.successes})`,
      interval(r.success, pct),
      r.score.value.toFixed(2),
      interval(r.score, (x) => x.toFixed(2)),
      `${compactCount(r.tokens.input)}/${compactCount(r.tokens.output)}`,
      usd(r.cost_usd),
    ]);
  }
  const strategies = formatStrategies(rows);
  return strategies ? `${table.toString()}\n${strategies}` : table.toString();
}

/** The CSV columns of {@link summaryCsv}, in order. */
export const SUMMARY_CSV_COLUMNS = [
  'dimension',
  'group',
  'runs',
  'successes',
  'success_rate',
  'success_ci_low',
  'success_ci_high',
  'mean_score',
  'score_ci_low',
  'score_ci_high',
  'mean_duration_s',
  'failed_runs',
  'input_tokens',
  'cached_tokens',
  'output_tokens',
  'cost_usd',
  'metric_runs',
  'mean_play_s',
  'mean_efficiency_per_min',
  'mean_balance',
  'mean_balance_code',
  'mean_balance_bs',
  'mean_token_cost',
  'mean_messages',
  'mean_actions',
  'mean_commands',
  'mean_planning',
] as const;

/** The summary as CSV (RFC 4180, header line first); empty CI cells where n < 1. */
export function summaryCsv(rows: readonly SummaryRow[]): string {
  const num = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(6)) : '');
  return stringify(
    rows.map((r) => [
      r.dimension,
      r.group,
      r.runs,
      r.successes,
      num(r.success.value),
      num(r.success.low),
      num(r.success.high),
      num(r.score.value),
      num(r.score.low),
      num(r.score.high),
      num(r.mean_duration_s),
      r.failed_runs,
      r.tokens.input,
      r.tokens.cached,
      r.tokens.output,
      r.cost_usd ?? '',
      r.metrics.runs,
      num(r.metrics.play_s),
      num(r.metrics.efficiency_per_min),
      num(r.metrics.balance),
      num(r.metrics.balance_code),
      num(r.metrics.balance_bs),
      num(r.metrics.token_cost),
      num(r.metrics.messages),
      num(r.metrics.actions),
      num(r.metrics.commands),
      num(r.metrics.planning),
    ]),
    { header: true, columns: [...SUMMARY_CSV_COLUMNS] },
  );
}
