/**
 * A coordination strategy's task graph (one `graph.jsonl` version) drawn as a self-contained SVG,
 * for `report.html`: nodes in columns by depth (the longest chain of active edges before them),
 * coloured by status; active edges as arrows coloured by origin, removed ones dashed.
 */
import type { GraphEvent } from './records.ts';

const STATUS_FILL: Record<string, string> = { success: '#cdeccd', failure: '#f6c6c6', running: '#fbe9a6', unknown: '#eeeeee' };
const ORIGIN_STROKE: Record<string, string> = {
  llm: '#333333',
  algorithm: '#888888',
  rule_added: '#1f77b4',
  rule_removed: '#ff7f0e',
  ate_removed: '#9467bd',
};
/** What each edge colour means, for a legend. */
export const EDGE_LEGEND: readonly [origin: string, colour: string, words: string][] = [
  ['llm', ORIGIN_STROKE.llm!, 'proposed by the planner'],
  ['algorithm', ORIGIN_STROKE.algorithm!, "Algorithm 1's inheritance"],
  ['rule_added', ORIGIN_STROKE.rule_added!, 'required by the game rules'],
  ['rule_removed', ORIGIN_STROKE.rule_removed!, 'refuted by the game rules (dashed)'],
  ['ate_removed', ORIGIN_STROKE.ate_removed!, 'removed at ATE 0 (dashed)'],
];

const W = 170;
const H = 44;
const GAP_X = 50;
const GAP_Y = 14;
/** Nodes drawn at most (a graph beyond it is cut, saying so). */
const MAX_NODES = 80;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The SVG of `graph` (see the module header). */
export function graphSvg(graph: Pick<GraphEvent, 'nodes' | 'edges'>): string {
  const nodes = graph.nodes.slice(0, MAX_NODES);
  const ids = new Set(nodes.map((n) => n.id));
  const edges = graph.edges.filter((e) => ids.has(e.from) && ids.has(e.to));
  const depth = new Map<string, number>(nodes.map((n) => [n.id, 0]));
  // Longest chain of active edges (a DAG: at most |nodes| passes).
  for (let pass = 0; pass < nodes.length; pass++) {
    let changed = false;
    for (const e of edges) {
      if (e.removed) continue;
      const d = depth.get(e.from)! + 1;
      if (d > depth.get(e.to)!) {
        depth.set(e.to, d);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const columns = new Map<number, string[]>();
  for (const n of nodes) columns.set(depth.get(n.id)!, [...(columns.get(depth.get(n.id)!) ?? []), n.id]);
  const at = new Map<string, { x: number; y: number }>();
  for (const [d, col] of columns) col.forEach((id, i) => at.set(id, { x: 10 + d * (W + GAP_X), y: 10 + i * (H + GAP_Y) }));
  const width = 20 + Math.max(1, columns.size) * (W + GAP_X) - GAP_X;
  const height =
    20 + Math.max(1, ...[...columns.values()].map((c) => c.length)) * (H + GAP_Y) - GAP_Y + (graph.nodes.length > MAX_NODES ? 20 : 0);
  const lines = edges.map((e) => {
    const a = at.get(e.from)!;
    const b = at.get(e.to)!;
    const [x1, y1, x2, y2] = [a.x + W, a.y + H / 2, b.x, b.y + H / 2];
    const stroke = ORIGIN_STROKE[e.origin] ?? '#333';
    const back = x2 <= x1;
    const path = back
      ? `M${x1},${y1} C${x1 + 40},${y1 - 40} ${x2 - 40},${y2 - 40} ${x2},${y2}`
      : `M${x1},${y1} C${(x1 + x2) / 2},${y1} ${(x1 + x2) / 2},${y2} ${x2},${y2}`;
    return `<path d="${path}" fill="none" stroke="${stroke}" stroke-width="1.4"${e.removed ? ' stroke-dasharray="4 3" opacity="0.8"' : ''} marker-end="url(#arrow-${e.origin})"><title>${esc(`${e.from} → ${e.to}: ${e.origin}${e.reason ? ` (${e.reason})` : ''}`)}</title></path>`;
  });
  const boxes = nodes.map((n) => {
    const p = at.get(n.id)!;
    const who = n.assigned.length
      ? n.assigned.join(', ')
      : n.candidates.length <= 2
        ? n.candidates.join(', ')
        : `${n.candidates.length} candidates`;
    const title = `${n.id} [${n.status}] ${n.description}${n.work ? ` — ${n.work}` : ''}${n.feedback ? `\nfeedback: ${n.feedback}` : ''}`;
    return (
      `<g><title>${esc(title)}</title><rect x="${p.x}" y="${p.y}" width="${W}" height="${H}" rx="5" fill="${STATUS_FILL[n.status] ?? '#eee'}" stroke="#999"/>` +
      `<text x="${p.x + 6}" y="${p.y + 16}" font-size="11" font-weight="bold">${esc(cut(`${n.id} ${who}`, 30))}</text>` +
      `<text x="${p.x + 6}" y="${p.y + 33}" font-size="10">${esc(cut(n.description, 32))}</text></g>`
    );
  });
  const markers = Object.entries(ORIGIN_STROKE).map(
    ([origin, colour]) =>
      `<marker id="arrow-${origin}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colour}"/></marker>`,
  );
  const more =
    graph.nodes.length > MAX_NODES
      ? `<text x="10" y="${height - 6}" font-size="11">… ${graph.nodes.length - MAX_NODES} more nodes not drawn</text>`
      : '';
  return `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui,sans-serif"><defs>${markers.join('')}</defs>${lines.join('')}${boxes.join('')}${more}</svg>`;
}
