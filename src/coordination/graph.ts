/**
 * The task graph of the graph-based coordination strategies: VillagerAgent's DAG of subtask nodes
 * (Dong et al. 2024, §3.1–3.3 and Appendix A.1) and CausalMACE's causal dependency graph (Chai et
 * al. 2025, §3.4–3.5). Pure and synchronous: no model, no server, no agent.
 *
 * A node is VillagerAgent's quadruple (T description, D data, C assigned agents, F feedback), with
 * the fields of its code: milestones, retrieval paths into the task data (`./retrieval.ts`),
 * candidate agents, `number` (agents needed), status and an optional typed {@link Work}.
 *
 * Edges run from a prerequisite to its dependant and remember where they came from
 * ({@link EdgeOrigin}). Removing an edge keeps it, marked removed with why, so run records show
 * what the rules or the causal intervention pruned. Every change bumps {@link TaskGraph.version}.
 *
 * Ids: a decomposer round's subtasks carry ids local to the round (VillagerAgent's prompt numbers
 * them from 1 every round); the graph names the node `<round>.<local id>` (`2.1` is subtask 1 of
 * round 2), so later rounds can refer to earlier nodes without clashing.
 *
 * The graph never throws for what a model proposed: {@link TaskGraph.addRound} and
 * {@link TaskGraph.addEdge} answer with the problems instead (cycle named), so a role can give them
 * back to the model. Misuse by code (an unknown id in {@link TaskGraph.finish}) throws.
 */
import { planRound, type Subtask } from './rounds.ts';
import type { Work } from './work.ts';

export { findCycle, type Subtask } from './rounds.ts';

/** A node's state (VillagerAgent's code: unknown, running, success, failure). */
export type NodeStatus = 'unknown' | 'running' | 'success' | 'failure';

/**
 * Where an edge came from, or what removed it:
 * - `llm`: a prerequisite the model listed (VillagerAgent's `required_subtasks`, CausalMACE's
 *   dependency role);
 * - `algorithm`: inherited by Algorithm 1 from the previous node of the round;
 * - `rule_added`: required by the game rules (`./rules.ts`) and missing;
 * - `rule_removed`: refuted by the game rules;
 * - `ate_removed`: causal intervention found no effect of the rules on it (CausalMACE eq. 1–2).
 */
export type EdgeOrigin = 'llm' | 'algorithm' | 'rule_added' | 'rule_removed' | 'ate_removed';
/** The origins that add an edge. */
export type AddedOrigin = Extract<EdgeOrigin, 'llm' | 'algorithm' | 'rule_added'>;
/** The origins that remove one. */
export type RemovedOrigin = Extract<EdgeOrigin, 'rule_removed' | 'ate_removed'>;

/** A dependency: `from` must succeed before `to` may start. */
export interface Edge {
  from: string;
  to: string;
  /** How it was added, or (when `removed`) what removed it. */
  origin: EdgeOrigin;
  /** How it was added (stays when it is removed). */
  addedAs: AddedOrigin;
  removed: boolean;
  /** Why it was added or removed, when a rule or the intervention said so. */
  reason?: string;
}

/** A node of the graph (a copy: changing it changes nothing). */
export interface TaskNode {
  id: string;
  /** The decomposer round that added it (1-based). */
  round: number;
  description: string;
  milestones: string[];
  retrievalPaths: string[];
  candidates: string[];
  /** Agents needed at once, at least 1. */
  number: number;
  /** Sources of its active incoming edges, in the order they were added. */
  predecessors: string[];
  status: NodeStatus;
  /** The reflection's summary after execution (VillagerAgent's F), if any. */
  feedback?: string;
  /** Agents executing or having executed it. */
  assigned: string[];
  work?: Work;
  /** The multi-agent node this one was split from ({@link TaskGraph.split}). */
  splitFrom?: string;
}

/** The answer to {@link TaskGraph.addRound}. */
export type RoundResult = { ok: true; round: number; ids: Record<string, string>; edges: Edge[] } | { ok: false; problems: string[] };

/** The answer to {@link TaskGraph.addEdge}. */
export type EdgeResult = { ok: true; edge: Edge; existed: boolean } | { ok: false; reason: string };

/** One agent's share of a split multi-agent node. */
export interface SplitPart {
  agent: string;
  /** The agent's own description (VillagerAgent's second call); default: the node's. */
  description?: string;
  milestones?: string[];
  work?: Work;
}

/** Everything about the graph, for run records. */
export interface GraphSnapshot {
  version: number;
  agents: string[];
  rounds: number;
  nodes: TaskNode[];
  /** Every edge, removed ones included, in the order they were added. */
  edges: Edge[];
  /** Nodes split into one node per agent, as they were when split, with their parts' ids. */
  splits: { node: TaskNode; into: string[] }[];
}

type NodeRecord = Omit<TaskNode, 'predecessors'>;

const key = (from: string, to: string) => `${from}\u0000${to}`;

/**
 * A task graph for one team.
 *
 * @example
 * const g = new TaskGraph({ agents: ['Alice', 'Bob'] });
 * g.addRound([
 *   { id: '1', description: 'Collect 3 oak_log' },
 *   { id: '2', description: 'Craft 12 oak_planks', requires: ['1'] },
 * ]); // nodes 1.1 and 1.2, edge 1.1 → 1.2
 * g.ready(); // [1.1]
 */
export class TaskGraph {
  readonly agents: readonly string[];
  #version = 0;
  #rounds = 0;
  readonly #nodes = new Map<string, NodeRecord>();
  /** Every edge ever added, in order; active ones are also in #active. */
  readonly #edges: Edge[] = [];
  readonly #active = new Map<string, Edge>();
  readonly #splits: { node: TaskNode; into: string[] }[] = [];

  /** @param options.agents the team's agent names (candidates must be among them). */
  constructor(options: { agents: readonly string[] }) {
    if (options.agents.length === 0) throw new Error('TaskGraph: the team has no agents; pass at least one agent name');
    this.agents = [...options.agents];
  }

  /** Bumped on every change (nodes, edges, statuses, assignments). */
  get version(): number {
    return this.#version;
  }

  /** Decomposer rounds added so far. */
  get rounds(): number {
    return this.#rounds;
  }

  has(id: string): boolean {
    return this.#nodes.has(id);
  }

  /** The node with `id`, or undefined. */
  node(id: string): TaskNode | undefined {
    const n = this.#nodes.get(id);
    return n && this.#view(n);
  }

  /** Every node, in the order they were added (a split node's parts take its place). */
  nodes(): TaskNode[] {
    return [...this.#nodes.values()].map((n) => this.#view(n));
  }

  /** Edges, in the order they were added; removed ones only with `includeRemoved`. */
  edges(options: { includeRemoved?: boolean } = {}): Edge[] {
    return (options.includeRemoved ? this.#edges : [...this.#active.values()]).map((e) => ({ ...e }));
  }

  /** The active edge `from → to`, if any. */
  edge(from: string, to: string): Edge | undefined {
    const e = this.#active.get(key(from, to));
    return e && { ...e };
  }

  /** Sources of the active edges into `id`. */
  predecessors(id: string): string[] {
    const out: string[] = [];
    for (const e of this.#active.values()) if (e.to === id) out.push(e.from);
    return out;
  }

  /** Targets of the active edges out of `id`. */
  successors(id: string): string[] {
    const out: string[] = [];
    for (const e of this.#active.values()) if (e.from === id) out.push(e.to);
    return out;
  }

  /**
   * Whether a path of active edges leads from `from` to `to` (a node reaches itself).
   */
  reaches(from: string, to: string): boolean {
    return this.#path(from, to) !== undefined;
  }

  /**
   * The problems of a decomposer round, without adding it (empty when it can be added). The same
   * checks as {@link addRound}.
   */
  checkRound(subtasks: readonly Subtask[]): string[] {
    return this.#plan(subtasks).problems;
  }

  #plan(subtasks: readonly Subtask[]) {
    return planRound(subtasks, { round: this.#rounds + 1, agents: this.agents, exists: (id) => this.#nodes.has(id) });
  }

  /**
   * Adds a decomposer round with VillagerAgent's Algorithm 1 (Appendix A.1): every node gets an
   * edge from each prerequisite it lists (origin `llm`); a node that lists none, and is not the
   * first of the round, gets an edge from each predecessor of the previous node of the round
   * (origin `algorithm`), so siblings share prerequisites and run in parallel.
   *
   * "The previous node's predecessors" are read as its predecessors in the graph being built
   * (listed or inherited), so a run of nodes without prerequisites all inherit the same ones; the
   * algorithm's listing could also be read as the previous node's listed set only, which would
   * stop the inheritance after one sibling.
   *
   * The round is refused whole (nothing added, version unchanged) when it has problems: a
   * duplicate or empty id, an empty description, a prerequisite that is neither in the round nor
   * in the graph, a node requiring itself, an unknown candidate agent, a `number` below 1 or above
   * its candidates, or a cycle (named: `cycle: 1 → 2 → 1`). An empty round adds nothing.
   */
  addRound(subtasks: readonly Subtask[]): RoundResult {
    const plan = this.#plan(subtasks);
    if (plan.problems.length) return { ok: false, problems: plan.problems };
    if (subtasks.length === 0) return { ok: true, round: this.#rounds, ids: {}, edges: [] };
    this.#rounds++;
    for (const n of plan.nodes) this.#nodes.set(n.id, n);
    const edges = plan.edges.map((e) => this.#insert(e.from, e.to, e.origin));
    this.#version++;
    return { ok: true, round: this.#rounds, ids: plan.ids, edges: edges.map((e) => ({ ...e })) };
  }

  /**
   * Adds the edge `from → to` (CausalMACE's dependency role, the game rules). An edge already
   * active is kept as it is (`existed: true`, no version bump).
   *
   * @returns `{ ok: false, reason }` for an unknown node, a self-edge, or an edge that would close
   *   a cycle (named).
   */
  addEdge(from: string, to: string, origin: AddedOrigin, reason?: string): EdgeResult {
    for (const id of [from, to]) if (!this.#nodes.has(id)) return { ok: false, reason: `no node "${id}"` };
    if (from === to) return { ok: false, reason: `"${from}" cannot depend on itself` };
    const existing = this.#active.get(key(from, to));
    if (existing) return { ok: true, edge: { ...existing }, existed: true };
    const back = this.#path(to, from);
    if (back) return { ok: false, reason: `${from} → ${to} would close a cycle: ${[from, to, ...back].join(' → ')}` };
    const edge = this.#insert(from, to, origin, reason);
    this.#version++;
    return { ok: true, edge: { ...edge }, existed: false };
  }

  /**
   * Removes the active edge `from → to`, keeping it in the records with `origin` set to what
   * removed it (`rule_removed`, `ate_removed`) and the reason.
   *
   * @returns false when there is no such active edge.
   */
  removeEdge(from: string, to: string, by: RemovedOrigin, reason?: string): boolean {
    const e = this.#active.get(key(from, to));
    if (!e) return false;
    this.#active.delete(key(from, to));
    e.removed = true;
    e.origin = by;
    if (reason !== undefined) e.reason = reason;
    this.#version++;
    return true;
  }

  /**
   * Algorithm 2's ready set (VillagerAgent, Appendix A.1): the unexecuted nodes (status
   * `unknown`) whose predecessors all succeeded, in node order.
   */
  ready(): TaskNode[] {
    return [...this.#nodes.values()].filter((n) => n.status === 'unknown' && this.#predecessorsDone(n.id)).map((n) => this.#view(n));
  }

  /**
   * The ready nodes that are available to `free` agents (VillagerAgent §3.3 and its code): at
   * least `number` of the node's candidates are free.
   */
  available(free: readonly string[]): TaskNode[] {
    const set = new Set(free);
    return this.ready().filter((n) => n.candidates.filter((c) => set.has(c)).length >= n.number);
  }

  /**
   * Opens a failed node again (status `unknown`, assignment and feedback kept for the records),
   * for a strategy that retries failures in place.
   *
   * @throws Error when the node does not exist or has not failed.
   */
  reopen(id: string): void {
    const n = this.#must(id);
    if (n.status !== 'failure') throw new Error(`TaskGraph.reopen: node "${id}" is ${n.status}; only a failed node can be opened again`);
    n.status = 'unknown';
    this.#version++;
  }

  /** Nothing runs and nothing is ready: VillagerAgent's trigger for the next decomposer round. */
  isSettled(): boolean {
    for (const n of this.#nodes.values()) if (n.status === 'running') return false;
    return this.ready().length === 0;
  }

  /**
   * Marks `id` running with `agents` assigned.
   *
   * @throws Error when the node does not exist or is not `unknown` (a caller's bug).
   */
  start(id: string, agents: readonly string[]): void {
    const n = this.#must(id);
    if (n.status !== 'unknown') throw new Error(`TaskGraph.start: node "${id}" is ${n.status}; only a node not yet run can start`);
    n.status = 'running';
    n.assigned = [...agents];
    this.#version++;
  }

  /**
   * Records the outcome of `id` with the reflection's summary as its feedback.
   *
   * @throws Error when the node does not exist or `status` is not `success` or `failure`.
   */
  finish(id: string, status: 'success' | 'failure', feedback?: string): void {
    const n = this.#must(id);
    if (status !== 'success' && status !== 'failure')
      throw new Error(`TaskGraph.finish: status must be success or failure, not ${String(status)}`);
    n.status = status;
    if (feedback !== undefined) n.feedback = feedback;
    this.#version++;
  }

  /**
   * Splits a multi-agent node into one node per agent (VillagerAgent splits a node assigned to
   * several agents after its second controller call). Each part `<id>:<agent>` needs 1 agent, has
   * that agent as its only candidate (and assigned, if the node was assigned), and takes the node's
   * place in node order. Every active edge into the node is copied into each part, and every
   * active edge out of it is copied out of each part, so a dependant waits for all parts: the
   * reference renumbers the parts without remapping the dependants' edges (its issue #10), which
   * this fixes. The node's removed edges stay in the records; the node itself is kept in
   * {@link GraphSnapshot.splits}.
   *
   * @returns the parts' ids, or `{ ok: false, reason }` when the node does not exist, has finished,
   *   a part's agent is not a candidate or appears twice, or no part is given.
   */
  split(id: string, parts: readonly SplitPart[]): { ok: true; ids: string[] } | { ok: false; reason: string } {
    const n = this.#nodes.get(id);
    if (!n) return { ok: false, reason: `no node "${id}"` };
    if (n.status === 'success' || n.status === 'failure') return { ok: false, reason: `node "${id}" has finished (${n.status})` };
    if (parts.length === 0) return { ok: false, reason: `no parts to split "${id}" into` };
    const seen = new Set<string>();
    for (const p of parts) {
      if (!n.candidates.includes(p.agent))
        return { ok: false, reason: `${p.agent} is not a candidate of "${id}" (${n.candidates.join(', ')})` };
      if (seen.has(p.agent)) return { ok: false, reason: `${p.agent} appears twice` };
      seen.add(p.agent);
    }
    const ids = parts.map((p) => `${id}:${p.agent}`);
    for (const pid of ids) if (this.#nodes.has(pid)) return { ok: false, reason: `a node "${pid}" exists already` };

    const incoming = [...this.#active.values()].filter((e) => e.to === id);
    const outgoing = [...this.#active.values()].filter((e) => e.from === id);
    this.#splits.push({ node: this.#view(n), into: ids });
    // Rebuild the node map so the parts take the node's place in order.
    const entries = [...this.#nodes.entries()];
    this.#nodes.clear();
    for (const [nid, rec] of entries) {
      if (nid !== id) {
        this.#nodes.set(nid, rec);
        continue;
      }
      parts.forEach((p, i) => {
        const part: NodeRecord = {
          ...structuredClone(n),
          id: ids[i]!,
          description: p.description ?? n.description,
          milestones: [...(p.milestones ?? n.milestones)],
          candidates: [p.agent],
          number: 1,
          assigned: n.assigned.length ? [p.agent] : [],
          splitFrom: id,
        };
        if (p.work) part.work = structuredClone(p.work);
        this.#nodes.set(part.id, part);
      });
    }
    for (const e of [...incoming, ...outgoing]) this.#active.delete(key(e.from, e.to));
    for (const pid of ids) {
      for (const e of incoming) this.#insert(e.from, pid, e.addedAs, e.reason);
      for (const e of outgoing) this.#insert(pid, e.to, e.addedAs, e.reason);
    }
    this.#version++;
    return { ok: true, ids };
  }

  /** Every node, edge (removed ones too), status and assignment, for run records. */
  toJSON(): GraphSnapshot {
    return {
      version: this.#version,
      agents: [...this.agents],
      rounds: this.#rounds,
      nodes: this.nodes(),
      edges: this.edges({ includeRemoved: true }),
      splits: this.#splits.map((s) => ({ node: structuredClone(s.node), into: [...s.into] })),
    };
  }

  #view(n: NodeRecord): TaskNode {
    return { ...structuredClone(n), predecessors: this.predecessors(n.id) };
  }

  #must(id: string): NodeRecord {
    const n = this.#nodes.get(id);
    if (!n) throw new Error(`TaskGraph: no node "${id}"; nodes: ${[...this.#nodes.keys()].join(', ') || 'none'}`);
    return n;
  }

  #predecessorsDone(id: string): boolean {
    for (const e of this.#active.values()) if (e.to === id && this.#nodes.get(e.from)?.status !== 'success') return false;
    return true;
  }

  #insert(from: string, to: string, origin: AddedOrigin, reason?: string): Edge {
    const edge: Edge = { from, to, origin, addedAs: origin, removed: false };
    if (reason !== undefined) edge.reason = reason;
    this.#edges.push(edge);
    this.#active.set(key(from, to), edge);
    return edge;
  }

  /** A path of active edges from `from` to `to`, as the nodes after `from`; [] when equal. */
  #path(from: string, to: string): string[] | undefined {
    if (from === to) return [];
    const next = new Map<string, string[]>();
    for (const e of this.#active.values()) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const parent = new Map<string, string>();
    const queue = [from];
    const seen = new Set([from]);
    while (queue.length) {
      const at = queue.shift()!;
      for (const n of next.get(at) ?? []) {
        if (seen.has(n)) continue;
        seen.add(n);
        parent.set(n, at);
        if (n === to) {
          const path = [n];
          for (let p = at; p !== from; p = parent.get(p)!) path.unshift(p);
          return path;
        }
        queue.push(n);
      }
    }
    return undefined;
  }
}
