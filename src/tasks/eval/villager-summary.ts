/**
 * The VillagerBench runs of an evaluation in the papers' terms (VillagerAgent Tables 1 and 3,
 * CausalMACE Table 1), by scenario, strategy and team size: completion C, VHR (construction), ACR
 * (cooking) as percentages with Student t 95 % intervals (`stats.ts`), efficiency E (% per
 * minute) and balance B (%), each a mean over the runs that have it.
 */
import Table from 'cli-table3';
import type { RunResult } from './records.ts';
import { FRACTION, meanInterval, type Estimate } from './stats.ts';

/** The scenario of a VillagerBench result type; undefined for other types. */
export function villagerScenario(type: string): string | undefined {
  return /^villager_(construction|cooking|escape)$/.exec(type)?.[1];
}

/** One group of VillagerBench runs. */
export interface VillagerRow {
  scenario: string;
  coordination: string;
  agents: number;
  runs: number;
  /** Fractions in [0, 1] with their intervals; `n` 0 where no run has the metric. */
  completion: Estimate;
  vhr: Estimate;
  acr: Estimate;
  /** Completion per minute of play (fraction per minute); NaN without metrics. */
  efficiencyPerMinute: number;
  /** VillagerAgent's B as written (fraction); NaN under 2 agents. */
  balance: number;
}

const metric = (r: RunResult, name: string): number | undefined => {
  const v = (r.metrics as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};

/** Groups the VillagerBench runs of `results` by scenario, strategy and team size (sorted). */
export function villagerSummary(results: readonly RunResult[]): VillagerRow[] {
  const groups = new Map<string, RunResult[]>();
  for (const r of results) {
    const scenario = villagerScenario(r.type);
    if (!scenario) continue;
    const key = `${scenario}\0${r.coordination}\0${String(r.agent_count).padStart(3, '0')}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.keys()].sort().map((key) => {
    const runs = groups.get(key)!;
    const [scenario, coordination] = key.split('\0') as [string, string];
    const of = (name: string) => runs.map((r) => metric(r, name)).filter((x): x is number => x !== undefined);
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : Number.NaN);
    return {
      scenario,
      coordination,
      agents: runs[0]!.agent_count,
      runs: runs.length,
      completion: meanInterval(
        runs.map((r) => r.score),
        FRACTION,
      ),
      vhr: meanInterval(of('vhr'), FRACTION),
      acr: meanInterval(of('acr'), FRACTION),
      efficiencyPerMinute: mean(of('efficiencyPerMinute')),
      balance: mean(of('balance')),
    };
  });
}

const percent = (e: Estimate): string =>
  e.n === 0 ? '–' : `${(100 * e.value).toFixed(1)} (${(100 * e.low).toFixed(1)}–${(100 * e.high).toFixed(1)})`;
const plain = (x: number, scale = 100) => (Number.isFinite(x) ? (scale * x).toFixed(2) : '–');

/** The rows as a text table (`''` for none): C, VHR and ACR in % with their 95 % intervals, E in %/min, B in %. */
export function formatVillagerSummary(rows: readonly VillagerRow[]): string {
  if (rows.length === 0) return '';
  const table = new Table({
    head: ['VillagerBench', 'strategy', 'agents', 'runs', 'C % (95% CI)', 'VHR % (95% CI)', 'ACR % (95% CI)', 'E %/min', 'B %'],
    style: { head: [], border: [] },
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  for (const r of rows)
    table.push([
      r.scenario,
      r.coordination,
      r.agents,
      r.runs,
      percent(r.completion),
      percent(r.vhr),
      percent(r.acr),
      plain(r.efficiencyPerMinute),
      plain(r.balance),
    ]);
  return table.toString();
}
