/**
 * `report.html`: one self-contained page (no network: Chart.js is inlined) with the summary
 * table, the coordination strategies side by side (their metrics, success by strategy, and for
 * the graph strategies each task's graphs next to each other, one per run: its last `graph.jsonl`
 * version), plots of success by agent count and by depth (with 95 % intervals), the score
 * distribution of construction runs, tokens per run, VillagerBench construction runs' five views
 * (expected beside built, with their IoU), and the list of runs.
 */
import { EDGE_LEGEND, graphSvg } from './graph-svg.ts';
import { PALETTE } from '../villager/views.ts';
import type { GraphEvent, RunResult } from './records.ts';
import { compactCount, metricCell, type SummaryRow } from './summary.ts';

/** What {@link reportHtml} needs. */
export interface ReportInput {
  title: string;
  results: readonly RunResult[];
  rows: readonly SummaryRow[];
  /** Chart.js's UMD build (`chart.js/dist/chart.umd.min.js`), inlined into the page. */
  chartJs: string;
  /** When the report was made (shown in the header). */
  generatedAt: Date;
  /** The last graph of each graph-strategy run, by run id (`graph.jsonl`'s last line). */
  graphs?: Readonly<Record<string, GraphEvent>>;
}

/** The strategies' metrics, one row each. */
function strategyRows(rows: readonly SummaryRow[]): string {
  return rows
    .filter((r) => r.dimension === 'coordination')
    .map((r) => {
      const m = r.metrics;
      const roles = Object.entries(m.roles)
        .map(([role, u]) => `${role} ${u.calls} (${compactCount(u.output)})`)
        .join(', ');
      return (
        `<tr><td>${esc(r.group)}</td><td>${r.runs}</td><td>${pct(r.success.value)} (${r.successes})</td><td>${pct(r.success.low)}–${pct(r.success.high)}</td>` +
        `<td>${r.score.value.toFixed(2)}</td><td>${metricCell(m.play_s, 1)}</td><td>${metricCell(m.efficiency_per_min)}</td>` +
        `<td>${metricCell(m.balance)}</td><td>${metricCell(m.balance_code)}</td><td>${metricCell(m.balance_bs)}</td>` +
        `<td>${metricCell(m.token_cost)}</td><td>${metricCell(m.messages, 1)}</td><td>${metricCell(m.actions, 1)}</td><td>${metricCell(m.planning, 1)}</td>` +
        `<td>${esc(roles || '–')}</td></tr>`
      );
    })
    .join('\n');
}

/** Each task's graphs, one per graph-strategy run, side by side by strategy. */
function graphSection(results: readonly RunResult[], graphs: Readonly<Record<string, GraphEvent>>): string {
  const byTask = new Map<string, RunResult[]>();
  for (const r of results)
    if (graphs[r.run_id]) byTask.set(`${r.task_id} #${r.episode}`, [...(byTask.get(`${r.task_id} #${r.episode}`) ?? []), r]);
  if (!byTask.size) return '<p class="note">No graph-strategy runs (dag, causal) with a graph.jsonl.</p>';
  const legend = EDGE_LEGEND.map(([origin, colour, words]) => `<span style="color:${colour}">━ ${esc(origin)}</span>: ${esc(words)}`).join(
    ' · ',
  );
  const tasks = [...byTask].map(([task, runs]) => {
    const cells = runs
      .sort((a, b) => a.coordination.localeCompare(b.coordination))
      .map((r) => {
        const g = graphs[r.run_id]!;
        const edges = r.metrics?.graph?.edges ?? {};
        const counts = Object.entries(edges)
          .map(([o, n]) => `${n} ${o}`)
          .join(', ');
        return (
          `<div class="graph"><div><b>${esc(r.coordination)}</b> · ${esc(r.end_reason)} · score ${r.score.toFixed(2)} · ${r.play_s.toFixed(1)} s · version ${g.version}` +
          `${counts ? ` · edges: ${esc(counts)}` : ''}${r.metrics?.graph ? ` · rules ${r.metrics.graph.rule_checked_edges ? 'on' : 'off'}` : ''}</div>` +
          `<div class="note">${esc(g.change)}</div>${graphSvg(g)}</div>`
        );
      })
      .join('');
    return `<h3>${esc(task)}</h3><div class="graphs">${cells}</div>`;
  });
  return `<p class="note">Boxes: green succeeded, red failed, grey not run; hover for the description, work and feedback. Edges: ${legend}.</p>${tasks.join('\n')}`;
}

const esc = (s: string | number) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON safe inside a `<script>` element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
/** A script's text safe inside a `<script>` element. */
const scriptText = (code: string) => code.replace(/<\/script/gi, '<\\/script');

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

/** One bar chart of success rates of one dimension's groups, with their intervals. */
function rateSeries(rows: readonly SummaryRow[], dimension: string) {
  const mine = rows.filter((r) => r.dimension === dimension);
  return {
    labels: mine.map((r) => r.group),
    rate: mine.map((r) => r.success.value),
    ci: mine.map((r) => [r.success.low, r.success.high]),
    n: mine.map((r) => r.runs),
  };
}

/** Most VillagerBench runs whose views the page draws (each is about 10 small pictures). */
export const MAX_VIEW_RUNS = 50;

/** Packed views as a result line's `judged.views` holds them (`PackedViews` of `../villager/views.ts`). */
interface PackedViewsRecord {
  legend: string[];
  views: { name: string; iou: number; expected: string[]; built: string[] }[];
}

function packedViews(value: unknown): PackedViewsRecord | undefined {
  const v = value as Partial<PackedViewsRecord> | undefined;
  const rows = (x: unknown) => Array.isArray(x) && x.every((r) => typeof r === 'string');
  return v &&
    Array.isArray(v.legend) &&
    Array.isArray(v.views) &&
    v.views.every((w) => typeof w.iou === 'number' && rows(w.expected) && rows(w.built))
    ? (v as PackedViewsRecord)
    : undefined;
}

/** A block name's colour: a hue from its name, the same on every page. */
function blockColour(name: string): string {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${h},55%,55%)`;
}

/** One packed view as a small SVG grid (6 px a pixel), block names in the cells' titles. */
function viewSvg(rows: readonly string[], legend: readonly string[]): string {
  const px = 6;
  const width = Math.max(1, ...rows.map((r) => r.length)) * px;
  const cells = rows.flatMap((row, r) =>
    [...row].flatMap((ch, c) => {
      if (ch === '.') return [];
      const name = legend[PALETTE.indexOf(ch)] ?? '?';
      return [
        `<rect x="${c * px}" y="${r * px}" width="${px}" height="${px}" fill="${blockColour(name)}"><title>${esc(name)}</title></rect>`,
      ];
    }),
  );
  return `<svg width="${width}" height="${rows.length * px}" style="background:#f6f6f6">${cells.join('')}</svg>`;
}

/** Each VillagerBench construction run's five views, expected beside built (at most {@link MAX_VIEW_RUNS}). */
function viewSection(results: readonly RunResult[]): string {
  const runs = results.flatMap((r) => {
    const views = packedViews((r.judged as { views?: unknown } | undefined)?.views);
    return views ? [{ r, views }] : [];
  });
  if (!runs.length) return '<p class="note">No VillagerBench construction runs with views.</p>';
  const shown = runs.slice(0, MAX_VIEW_RUNS).map(({ r, views }) => {
    const pairs = views.views
      .map(
        (v) =>
          `<div class="graph"><b>${esc(v.name)}</b> IoU ${v.iou.toFixed(2)}<br>${viewSvg(v.expected, views.legend)} ${viewSvg(v.built, views.legend)}</div>`,
      )
      .join('');
    return `<p>${esc(r.run_id)} · ${esc(r.coordination)} · completion ${r.score.toFixed(2)} · VHR ${metricCell(Number((r.metrics as Record<string, unknown> | undefined)?.vhr ?? Number.NaN))}</p><div class="graphs">${pairs}</div>`;
  });
  const more = runs.length > MAX_VIEW_RUNS ? `<p class="note">${runs.length - MAX_VIEW_RUNS} more runs not drawn.</p>` : '';
  return `<p class="note">Each view: the blueprint's (left) beside the built one (right), the first block along each ray (VillagerAgent §4.1 eq. 3); VHR is the mean IoU of the five.</p>${shown.join('\n')}${more}`;
}

/** Construction scores in ten bins of 0.1 (the last one holds 1.0). */
function scoreHistogram(results: readonly RunResult[]) {
  const scores = results.filter((r) => r.type === 'construction').map((r) => r.score);
  const bins = Array.from({ length: 10 }, () => 0);
  for (const s of scores) bins[Math.min(9, Math.max(0, Math.floor(s * 10)))]!++;
  return { labels: bins.map((_, i) => `${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`), counts: bins, n: scores.length };
}

/** The page. */
export function reportHtml(input: ReportInput): string {
  const { results, rows } = input;
  const data = {
    coordination: rateSeries(rows, 'coordination'),
    agents: rateSeries(rows, 'agents'),
    depth: rateSeries(rows, 'depth'),
    scores: scoreHistogram(results),
    tokens: {
      labels: results.map((r) => r.run_id),
      input: results.map((r) => r.tokens.input),
      output: results.map((r) => r.tokens.output),
    },
  };
  const summaryRows = rows
    .map(
      (r) =>
        `<tr><td>${esc(r.dimension)}</td><td>${esc(r.group)}</td><td>${r.runs}</td><td>${pct(r.success.value)} (${r.successes})</td>` +
        `<td>${pct(r.success.low)}–${pct(r.success.high)}</td><td>${r.score.value.toFixed(2)}</td>` +
        `<td>${Number.isNaN(r.score.low) ? '–' : `${r.score.low.toFixed(2)}–${r.score.high.toFixed(2)}`}</td>` +
        `<td>${compactCount(r.tokens.input)} / ${compactCount(r.tokens.output)}</td><td>${r.cost_usd === null ? 'n/a' : `$${r.cost_usd.toFixed(4)}`}</td></tr>`,
    )
    .join('\n');
  const runRows = results
    .map(
      (r, i) =>
        `<tr class="${r.success ? 'ok' : 'bad'}"><td>${i + 1}</td><td>${esc(r.run_id)}</td><td>${esc(r.type)}</td><td>${r.agent_count}</td><td>${esc(r.coordination)}</td>` +
        `<td>${esc(
          Object.values(r.models)
            .filter((m, i, a) => a.indexOf(m) === i)
            .join(', '),
        )}</td><td>${r.score.toFixed(2)}</td><td>${esc(r.end_reason)}</td>` +
        `<td>${r.duration_s.toFixed(1)}</td><td>${r.setup_s.toFixed(1)}</td><td>${r.commands_run} / ${r.commands_failed}</td><td>${r.messages_sent}</td>` +
        `<td>${compactCount(r.tokens.input)} / ${compactCount(r.tokens.output)}</td><td>${r.cost_usd === null ? 'n/a' : `$${r.cost_usd.toFixed(4)}`}</td>` +
        `<td>${esc(r.error ?? '')}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(input.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:22px}h2{font-size:17px;margin-top:32px}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
td:first-child,td:nth-child(2),th{text-align:left}td{word-break:break-word}tr.bad td{background:#fff4f4}tr.ok td{background:#f4fff4}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:24px}
.chart{height:300px}.note{color:#666;font-size:12px}
.graphs{display:flex;gap:16px;overflow-x:auto;align-items:flex-start}.graph{border:1px solid #ddd;padding:6px;flex:none}
</style></head><body>
<h1>${esc(input.title)}</h1>
<p class="note">${results.length} runs · made ${esc(input.generatedAt.toISOString())} · intervals are 95 %: Wilson for success rates, Student t for mean scores.</p>
<h2>Strategies side by side</h2>
<p class="note">Means over each strategy's runs (metrics defined in src/coordination/metrics.ts): play s from the goals to the end; efficiency = completion per minute of play (VillagerAgent); B = 1 − σ of the agents' normalised active times (VillagerAgent, as written and as its code computes it), BS = CausalMACE's balance against the task's time limit; token cost = VillagerAgent's Table 4; planning = the agents' model-loop calls each (S-Agents' mPT); calls by role (output tokens).</p>
<table><tr><th>strategy</th><th>runs</th><th>success</th><th>95% CI</th><th>mean score</th><th>play s</th><th>eff./min</th><th>B</th><th>B (code)</th><th>BS</th><th>token cost</th><th>messages</th><th>actions</th><th>planning/agent</th><th>calls by role</th></tr>
${strategyRows(rows)}
</table>
<div class="charts">
<div><h2>Success by strategy</h2><div class="chart"><canvas id="coordination"></canvas></div></div>
<div><h2>Success by agent count</h2><div class="chart"><canvas id="agents"></canvas></div></div>
<div><h2>Success by depth</h2><div class="chart"><canvas id="depth"></canvas></div></div>
<div><h2>Construction score distribution</h2><div class="chart"><canvas id="scores"></canvas></div></div>
<div><h2>Tokens per run</h2><div class="chart"><canvas id="tokens"></canvas></div></div>
</div>
<h2>Task graphs</h2>
${graphSection(results, input.graphs ?? {})}
<h2>VillagerBench views</h2>
${viewSection(results)}
<h2>Summary</h2>
<table><tr><th>by</th><th>group</th><th>runs</th><th>success</th><th>95% CI</th><th>mean score</th><th>95% CI</th><th>tokens in / out</th><th>cost</th></tr>
${summaryRows}
</table>
<h2>Runs</h2>
<table><tr><th>#</th><th>run</th><th>type</th><th>agents</th><th>strategy</th><th>model</th><th>score</th><th>end</th><th>wall s</th><th>set-up s</th><th>commands / failed</th><th>messages</th><th>tokens in / out</th><th>cost</th><th>error</th></tr>
${runRows}
</table>
<script>${scriptText(input.chartJs)}</script>
<script>
const DATA = ${scriptJson(data)};
const percent = { min: 0, max: 1, ticks: { callback: (v) => Math.round(v * 100) + '%' } };
function rates(id, s, label) {
  const el = document.getElementById(id);
  if (!s.labels.length) { el.parentElement.innerHTML = '<p class="note">No runs with this field.</p>'; return; }
  new Chart(el, { data: { labels: s.labels.map((l, i) => label + ' ' + l + ' (n=' + s.n[i] + ')'), datasets: [
    { type: 'bar', label: 'success rate', data: s.rate, backgroundColor: '#4e79a7', order: 1 },
    { type: 'bar', label: '95% interval', data: s.ci, backgroundColor: 'rgba(30,30,30,0.7)', barPercentage: 0.06, grouped: false, order: 0 },
  ] }, options: { maintainAspectRatio: false, animation: false, scales: { y: percent } } });
}
rates('coordination', DATA.coordination, '');
rates('agents', DATA.agents, 'agents:');
rates('depth', DATA.depth, 'depth');
if (DATA.scores.n) new Chart(document.getElementById('scores'), { type: 'bar', data: { labels: DATA.scores.labels, datasets: [{ label: 'construction runs', data: DATA.scores.counts, backgroundColor: '#59a14f' }] }, options: { maintainAspectRatio: false, animation: false } });
else document.getElementById('scores').parentElement.innerHTML = '<p class="note">No construction runs.</p>';
new Chart(document.getElementById('tokens'), { type: 'bar', data: { labels: DATA.tokens.labels.map((_, i) => String(i + 1)), datasets: [
  { label: 'input', data: DATA.tokens.input, backgroundColor: '#f28e2b' }, { label: 'output', data: DATA.tokens.output, backgroundColor: '#e15759' },
] }, options: { maintainAspectRatio: false, animation: false, scales: { x: { stacked: true, title: { display: true, text: 'run (see the list below)' } }, y: { stacked: true } },
  plugins: { tooltip: { callbacks: { title: (items) => DATA.tokens.labels[items[0].dataIndex] } } } } });
</script>
</body></html>
`;
}
