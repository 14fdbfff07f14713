/**
 * A decomposer round turned into nodes and edges with VillagerAgent's Algorithm 1 (Dong et al.
 * 2024, Appendix A.1), and the checks that refuse a round whole. Pure: `TaskGraph.addRound` applies
 * the plan when it has no problems.
 */
import type { Work } from './work.ts';

/** A subtask as a decomposer round proposes it (the model's JSON, validated and renamed). */
export interface Subtask {
  /** Id local to the round (`1`, `2`, … in VillagerAgent's prompt). */
  id: string;
  description: string;
  milestones?: string[];
  /** Paths into the task data, `~/meta-data/blueprint/0` style (see `./retrieval.ts`). */
  retrievalPaths?: string[];
  /** Prerequisites: local ids of this round, or ids of nodes already in the graph (`1.2`). */
  requires?: string[];
  /** Agents that may do it; empty or absent means every agent of the team. */
  candidates?: string[];
  /** Agents it needs at once (default 1). */
  number?: number;
  work?: Work;
}

/** A node as a round adds it. */
export interface RoundNode {
  id: string;
  round: number;
  description: string;
  milestones: string[];
  retrievalPaths: string[];
  candidates: string[];
  number: number;
  status: 'unknown';
  assigned: string[];
  work?: Work;
}

/** What a round adds, or its problems. */
export interface RoundPlan {
  problems: string[];
  /** Local id → node id. */
  ids: Record<string, string>;
  nodes: RoundNode[];
  /** Edges in the order added: `llm` from listed prerequisites, `algorithm` inherited. */
  edges: { from: string; to: string; origin: 'llm' | 'algorithm' }[];
}

/**
 * Plans round `context.round` of `subtasks` (see `TaskGraph.addRound` for the rules and problems).
 *
 * @param context.exists whether an id names a node already in the graph.
 */
export function planRound(
  subtasks: readonly Subtask[],
  context: { round: number; agents: readonly string[]; exists(id: string): boolean },
): RoundPlan {
  const { round } = context;
  const problems: string[] = [];
  const ids: Record<string, string> = {};
  const local = new Set<string>();
  for (const s of subtasks) {
    const id = String(s.id ?? '').trim();
    if (!id) problems.push('a subtask has no id');
    else if (local.has(id)) problems.push(`subtask id ${id} appears twice`);
    local.add(id);
    ids[id] = `${round}.${id}`;
  }
  const resolve = (ref: string): string | undefined => (local.has(ref) ? ids[ref] : context.exists(ref) ? ref : undefined);
  const nodes: RoundNode[] = [];
  const edges: RoundPlan['edges'] = [];
  const seenEdge = new Set<string>();
  const add = (from: string, to: string, origin: 'llm' | 'algorithm') => {
    if (seenEdge.has(`${from}\u0000${to}`)) return;
    seenEdge.add(`${from}\u0000${to}`);
    edges.push({ from, to, origin });
  };
  let previous: string | undefined;
  subtasks.forEach((s) => {
    const sid = String(s.id ?? '').trim();
    const gid = ids[sid] ?? `${round}.${sid}`;
    const label = `subtask ${sid || '(no id)'}`;
    if (!s.description?.trim()) problems.push(`${label} has no description`);
    const candidates = s.candidates?.length ? [...new Set(s.candidates)] : [...context.agents];
    const unknown = candidates.filter((c) => !context.agents.includes(c));
    if (unknown.length)
      problems.push(
        `${label}: unknown agent${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the team: ${context.agents.join(', ')})`,
      );
    const number = s.number ?? 1;
    if (!Number.isInteger(number) || number < 1)
      problems.push(`${label}: number must be a whole number of agents, at least 1 (got ${number})`);
    else if (number > candidates.length)
      problems.push(`${label} needs ${number} agents but has ${candidates.length} candidate${candidates.length === 1 ? '' : 's'}`);
    const requires = [...new Set((s.requires ?? []).map((r) => String(r).trim()))];
    const preds: string[] = [];
    for (const r of requires) {
      if (r === sid) problems.push(`${label} requires itself`);
      else {
        const p = resolve(r);
        if (p) preds.push(p);
        else problems.push(`${label} requires ${r}, which is neither a subtask of this answer nor a node of the graph`);
      }
    }
    if (preds.length) for (const p of preds) add(p, gid, 'llm');
    else if (previous !== undefined)
      for (const e of edges.filter((e) => e.to === previous && e.from !== gid)) add(e.from, gid, 'algorithm');
    previous = gid;
    const rec: RoundNode = {
      id: gid,
      round,
      description: s.description ?? '',
      milestones: [...(s.milestones ?? [])],
      retrievalPaths: [...(s.retrievalPaths ?? [])],
      candidates,
      number,
      status: 'unknown',
      assigned: [],
    };
    if (s.work) rec.work = structuredClone(s.work);
    nodes.push(rec);
  });
  if (!problems.length) {
    const cycle = findCycle(
      nodes.map((n) => n.id),
      edges,
    );
    if (cycle) {
      const byGlobal = new Map(Object.entries(ids).map(([l, g]) => [g, l]));
      problems.push(`cycle: ${cycle.map((g) => byGlobal.get(g) ?? g).join(' → ')} (a subtask cannot wait for itself)`);
    }
  }
  return { problems, ids, nodes, edges };
}

/**
 * A cycle among `edges` through one of `starts`, as node ids with the first repeated at the end
 * (`['a', 'b', 'a']`), or undefined. (A round's new edges only point into its new nodes, so a cycle
 * it closes runs through one of them.)
 */
export function findCycle(starts: readonly string[], edges: readonly { from: string; to: string }[]): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of next.get(n) ?? []) {
      if (state.get(m) === 'open') return [...stack.slice(stack.indexOf(m)), m];
      if (!state.has(m)) {
        const c = visit(m);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const s of starts) {
    if (state.has(s)) continue;
    const c = visit(s);
    if (c) return c;
  }
  return undefined;
}
