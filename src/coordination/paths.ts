/**
 * CausalMACE's worker side (Chai et al. 2025, §3.5): the graph's entry-to-exit paths found by
 * depth-first search, the busy rate of a path (eq. 3), least-busy path selection (eq. 4), and a
 * worker that finishes a path taking the next.
 *
 * Busy rate: br_p = Σ over the agents executing p of 1/d_i, where the paper's d_i is "the number
 * of subtasks between the current task of agent i and the path entrance". Read literally an agent
 * on the entrance has d_i = 0 and an infinite share; here d_i counts the subtasks from the entrance
 * up to and including the agent's current one (the entrance is 1, the next 2, …), so d_i ≥ 1, an
 * agent on the entrance adds 1 (the most: it competes for the same next subtasks, the paper's
 * "agent density near the path entries"), and the order of the shares is the paper's.
 */
import type { TaskGraph } from './graph.ts';

/** Default bound on the paths enumerated. */
export const DEFAULT_MAX_PATHS = 256;

/** The result of {@link enumeratePaths}. */
export interface PathSet {
  /** Paths as node ids, entry first, in DFS order (entries in node order, successors in edge order). */
  paths: string[][];
  /** True when the bound cut the enumeration (more paths exist). */
  truncated: boolean;
  /** Nodes on no returned path (only when truncated), for the caller to schedule otherwise. */
  uncovered: string[];
}

/**
 * Every path from an entry (a node with no active predecessor) to an exit (a node with no active
 * successor), by DFS. A node with neither is a path of its own.
 *
 * The number of paths can grow exponentially with the graph (a ladder of n diamonds has 2^n), so
 * the search stops at `maxPaths`: the paths found so far are returned with `truncated: true` and
 * the nodes they miss in `uncovered` (e.g. to run those through Algorithm 2's ready set). In a DAG
 * every branch of the search ends in a path, so the work is at most `maxPaths` × the longest path.
 */
export function enumeratePaths(graph: TaskGraph, options: { maxPaths?: number } = {}): PathSet {
  const maxPaths = options.maxPaths ?? DEFAULT_MAX_PATHS;
  const nodes = graph.nodes();
  const next = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  for (const e of graph.edges()) next.get(e.from)!.push(e.to);
  const entries = nodes.filter((n) => n.predecessors.length === 0).map((n) => n.id);
  const paths: string[][] = [];
  let truncated = false;
  const walk = (path: string[]): void => {
    if (truncated) return;
    const successors = next.get(path[path.length - 1]!)!;
    if (successors.length === 0) {
      if (paths.length >= maxPaths) truncated = true;
      else paths.push([...path]);
      return;
    }
    for (const s of successors) {
      path.push(s);
      walk(path);
      path.pop();
      if (truncated) return;
    }
  };
  for (const entry of entries) walk([entry]);
  const covered = new Set(paths.flat());
  return { paths, truncated, uncovered: truncated ? nodes.map((n) => n.id).filter((id) => !covered.has(id)) : [] };
}

/**
 * The busy rate of `path`: Σ 1/d_i over the agents' current subtasks that lie on it (d_i = the
 * subtask's 1-based place on the path; see the module header). Agents whose current subtask is not
 * on the path add nothing.
 *
 * @example busyRate(['a', 'b', 'c'], ['a', 'c']) // 1/1 + 1/3
 */
export function busyRate(path: readonly string[], current: readonly string[]): number {
  let br = 0;
  for (const node of current) {
    const i = path.indexOf(node);
    if (i >= 0) br += 1 / (i + 1);
  }
  return br;
}

/** What an agent does next, from {@link PathWorkers.next}. */
export type PathStep =
  /** Run `node` (it has been started in the graph for this agent). */
  | { kind: 'run'; node: string; path: number }
  /** `node` is not ready (a predecessor has not succeeded, or another agent runs it): ask again when the graph changes. */
  | { kind: 'wait'; node: string; path: number; on: string[] }
  /**
   * No unfinished path's next subtask lists this agent as a candidate now; `on` are the subtasks
   * further down the open paths it may do: ask again when the graph changes.
   */
  | { kind: 'idle'; on: string[] }
  /** Every path is finished (or failed), or none has a subtask this agent may do: nothing left for it. */
  | { kind: 'done' };

/** Options of {@link PathWorkers.next}. */
export interface NextOptions {
  /**
   * An agent whose path is blocked (its next subtask waits on a predecessor or runs on another
   * agent) takes instead an eligible path whose next subtask it can start now, least busy first;
   * and a free agent prefers such paths. Default false: the paper's choice by busy rate alone, in
   * which a blocked agent waits on its path. Without it, an agent waiting on its path for a
   * subtask that waits on that agent's own work elsewhere waits for ever.
   */
  preferReady?: boolean;
}

/**
 * Agents working through the paths of a graph (CausalMACE §3.5). A free agent takes the unfinished
 * path with the least busy rate (eq. 4; ties: the path with the most subtasks left, then the
 * earlier path), runs its subtasks in order, skipping those already succeeded, and when the path
 * is finished takes the next. A path with a failed subtask is given up (CausalMACE plans once and
 * describes no replanning; reopen the node in the graph to retry it).
 *
 * Candidates: an agent never takes a subtask that does not list it among its candidates. It takes
 * only paths whose next subtask it may do, and leaves its path when the next subtask is another
 * agent's (a hand-over's giver, a level's builder), to take another; with no such path it is
 * `idle` while open paths hold subtasks it may do later, else `done`.
 *
 * @example
 * const workers = new PathWorkers(graph, enumeratePaths(graph).paths);
 * const step = workers.next('Alice'); // { kind: 'run', node: '1.1', path: 0 }
 * // … Alice runs 1.1, then graph.finish('1.1', 'success') …
 * workers.next('Alice'); // the next subtask of her path
 */
export class PathWorkers {
  readonly #graph: TaskGraph;
  readonly #paths: readonly (readonly string[])[];
  /** agent → index of the path it executes. */
  readonly #on = new Map<string, number>();

  constructor(graph: TaskGraph, paths: readonly (readonly string[])[]) {
    for (const p of paths) for (const id of p) if (!graph.has(id)) throw new Error(`PathWorkers: path node "${id}" is not in the graph`);
    this.#graph = graph;
    this.#paths = paths.map((p) => [...p]);
  }

  /** The paths, as given. */
  get paths(): readonly (readonly string[])[] {
    return this.#paths;
  }

  /** The path each agent executes (agent → path index). */
  assignments(): Record<string, number> {
    return Object.fromEntries(this.#on);
  }

  /** The busy rate of every path now (eq. 3), from the agents' current subtasks. */
  busyRates(exclude?: string): number[] {
    const current = [...this.#on.entries()].filter(([a]) => a !== exclude);
    return this.#paths.map((p, i) =>
      busyRate(
        p,
        current.filter(([, pi]) => pi === i).map(([, pi]) => this.#current(pi) ?? ''),
      ),
    );
  }

  /**
   * The agent's next step: on its path, the first subtask not yet succeeded. When its path is
   * finished or failed, its next subtask is not one the agent may do, or it has none, it takes the
   * least busy unfinished path whose next subtask it may do (see {@link NextOptions} for blocked paths).
   */
  next(agent: string, options: NextOptions = {}): PathStep {
    let pi = this.#on.get(agent);
    if (pi !== undefined && (this.#state(pi) !== 'open' || !this.#eligible(agent, pi))) {
      this.#on.delete(agent);
      pi = undefined;
    }
    if (pi === undefined) {
      pi = this.#choose(agent, options.preferReady === true);
      if (pi === undefined) return this.#idle(agent);
      this.#on.set(agent, pi);
    } else if (options.preferReady && !this.#runnable(agent, pi)) {
      const other = this.#choose(agent, true);
      if (other !== undefined && this.#runnable(agent, other)) this.#on.set(agent, (pi = other));
    }
    const node = this.#current(pi)!;
    const n = this.#graph.node(node)!;
    if (n.status === 'running') {
      if (n.assigned.includes(agent)) return { kind: 'run', node, path: pi };
      return { kind: 'wait', node, path: pi, on: [node] };
    }
    const waiting = n.predecessors.filter((p) => this.#graph.node(p)!.status !== 'success');
    if (waiting.length) return { kind: 'wait', node, path: pi, on: waiting };
    this.#graph.start(node, [agent]);
    return { kind: 'run', node, path: pi };
  }

  /** The agent stops working on paths (it left the team). */
  release(agent: string): void {
    this.#on.delete(agent);
  }

  #current(pi: number): string | undefined {
    return this.#paths[pi]!.find((id) => this.#graph.node(id)!.status !== 'success');
  }

  #state(pi: number): 'open' | 'finished' | 'failed' {
    const id = this.#current(pi);
    if (id === undefined) return 'finished';
    return this.#graph.node(id)!.status === 'failure' ? 'failed' : 'open';
  }

  /** The agent may do the next subtask of path `pi`. */
  #eligible(agent: string, pi: number): boolean {
    const id = this.#current(pi);
    return id !== undefined && this.#graph.node(id)!.candidates.includes(agent);
  }

  /** The agent can start (or is running) the next subtask of path `pi` now. */
  #runnable(agent: string, pi: number): boolean {
    const n = this.#graph.node(this.#current(pi)!)!;
    if (n.status === 'running') return n.assigned.includes(agent);
    return n.status === 'unknown' && n.predecessors.every((p) => this.#graph.node(p)!.status === 'success');
  }

  /** `idle` with the subtasks of open paths the agent may do later, or `done` when there are none. */
  #idle(agent: string): PathStep {
    const later = new Set<string>();
    for (let pi = 0; pi < this.#paths.length; pi++) {
      if (this.#state(pi) !== 'open') continue;
      for (const id of this.#paths[pi]!) {
        const n = this.#graph.node(id)!;
        if (n.status !== 'success' && n.candidates.includes(agent)) later.add(id);
      }
    }
    return later.size ? { kind: 'idle', on: [...later] } : { kind: 'done' };
  }

  #choose(agent: string, preferReady: boolean): number | undefined {
    const rates = this.busyRates(agent);
    let best: number | undefined;
    const left = (pi: number) => this.#paths[pi]!.filter((id) => this.#graph.node(id)!.status !== 'success').length;
    const ready = (pi: number) => (preferReady && this.#runnable(agent, pi) ? 1 : 0);
    for (let pi = 0; pi < this.#paths.length; pi++) {
      if (this.#state(pi) !== 'open' || !this.#eligible(agent, pi)) continue;
      if (
        best === undefined ||
        ready(pi) > ready(best) ||
        (ready(pi) === ready(best) && (rates[pi]! < rates[best]! || (rates[pi] === rates[best] && left(pi) > left(best))))
      )
        best = pi;
    }
    return best;
  }
}
