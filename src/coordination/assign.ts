/**
 * VillagerAgent's agent controller (Dong et al. 2024, §3.3 and Algorithm 2): which free agents take
 * which ready nodes.
 *
 * 1. Ready nodes (`TaskGraph.ready`: unexecuted, every predecessor succeeded) that are available
 *    (at least `number` of their candidates free) and need all their free candidates are assigned
 *    those candidates directly, without a model (VillagerAgent's code), oldest node first. Two such
 *    nodes that want the same agent do not go to the model: the older one gets the agent, and the
 *    other is looked at again with the agents left.
 * 2. The rest is offered to the assign role (`./roles/assign.ts`), whose answer is checked by
 *    {@link validateAssignment}: the node was offered, each agent is free and a candidate, no agent
 *    twice, each node gets exactly its `number` of agents. A bad answer is retried with the problem
 *    given back (the role's bounded retry).
 * 3. When the role fails (still invalid after its retries, a timeout, a model error) or no role is
 *    given, {@link fallbackAssignment} decides: the oldest offered node first, each taking the first
 *    `number` of its free candidates in the order the caller listed the free agents (so a caller
 *    that lists the longest-idle agent first spreads the work).
 *
 * Assignments are returned, not applied: the caller starts the nodes (`TaskGraph.start`), after
 * splitting a multi-agent node (`TaskGraph.split`) if it wants one node per agent.
 */
import type { TaskGraph, TaskNode } from './graph.ts';

/** An agent (or several, for a multi-agent node) given a node. */
export interface Assignment {
  nodeId: string;
  agents: string[];
  /** The model's reason, or how the rule decided. */
  reason: string;
  /** Who decided: the direct rule, the assign role, or the fallback. */
  by: 'direct' | 'llm' | 'fallback';
}

/** What is left for the assign role after the direct assignments. */
export interface AssignmentOffer {
  /** Available nodes, in node order, not assigned directly. */
  nodes: TaskNode[];
  /** Free agents not assigned directly, in the caller's order. */
  free: string[];
}

/** The assign role's answer after parsing (`{reason, task_id, agent}` renamed). */
export interface ProposedAssignment {
  nodeId: string;
  agents: string[];
  reason: string;
}

/** How {@link assignReady} asks the assign role (e.g. `(offer) => callRole(assignRole, { offer }, call)`). */
export type AskAssignment = (offer: AssignmentOffer) => Promise<{ ok: true; value: ProposedAssignment[] } | { ok: false; reason: string }>;

/** The outcome of {@link assignReady}. */
export interface AssignmentRound {
  assignments: Assignment[];
  /** Why the role's answer was not used, when the fallback decided. */
  fallbackReason?: string;
}

/**
 * Step 1: the nodes that need all their free candidates, assigned those candidates; and what is
 * left to offer. A node assigned takes its agents out of the free set before the next node is looked at.
 */
export function directAssignments(graph: TaskGraph, free: readonly string[]): { assignments: Assignment[]; offer: AssignmentOffer } {
  const left = [...new Set(free)];
  const assignments: Assignment[] = [];
  const done = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const node of graph.available(left)) {
      if (done.has(node.id)) continue;
      const candidates = left.filter((a) => node.candidates.includes(a));
      if (candidates.length !== node.number) continue;
      assignments.push({
        nodeId: node.id,
        agents: candidates,
        reason: `needs ${node.number} and has exactly ${candidates.join(', ')} free`,
        by: 'direct',
      });
      done.add(node.id);
      for (const a of candidates) left.splice(left.indexOf(a), 1);
      changed = true;
      break;
    }
  }
  const nodes = graph.available(left).filter((n) => !done.has(n.id));
  return { assignments, offer: { nodes, free: left } };
}

/**
 * The problems of an assign-role answer for `offer` (empty when it can be used). Entries naming
 * the same node are merged first.
 */
export function validateAssignment(offer: AssignmentOffer, answer: readonly ProposedAssignment[]): string[] {
  const problems: string[] = [];
  const byNode = new Map<string, string[]>();
  for (const a of answer) byNode.set(a.nodeId, [...(byNode.get(a.nodeId) ?? []), ...a.agents]);
  const offered = new Map(offer.nodes.map((n) => [n.id, n]));
  const taken = new Map<string, string>();
  for (const [nodeId, agents] of byNode) {
    const node = offered.get(nodeId);
    if (!node) {
      problems.push(`task ${nodeId} is not one of the tasks to assign (${[...offered.keys()].join(', ') || 'none'})`);
      continue;
    }
    for (const agent of agents) {
      if (!offer.free.includes(agent)) problems.push(`${agent} is not a free agent (free: ${offer.free.join(', ') || 'none'})`);
      else if (!node.candidates.includes(agent))
        problems.push(`${agent} is not a candidate of task ${nodeId} (candidates: ${node.candidates.join(', ')})`);
      const before = taken.get(agent);
      if (before !== undefined) problems.push(`${agent} is assigned twice (tasks ${before} and ${nodeId})`);
      taken.set(agent, nodeId);
    }
    const distinct = new Set(agents).size;
    if (distinct !== node.number)
      problems.push(`task ${nodeId} needs ${node.number} agent${node.number === 1 ? '' : 's'}, the answer gives ${distinct}`);
  }
  if (byNode.size === 0 && fallbackAssignment(offer).length > 0) {
    problems.push(`no task was assigned, yet ${offer.nodes.map((n) => n.id).join(', ')} can be done by ${offer.free.join(', ')}`);
  }
  return problems;
}

/**
 * The deterministic fallback: offered nodes oldest first, each taking the first `number` of its
 * candidates among the agents still free, in the order of `offer.free`; a node without enough is skipped.
 */
export function fallbackAssignment(offer: AssignmentOffer): Assignment[] {
  const left = [...offer.free];
  const out: Assignment[] = [];
  for (const node of offer.nodes) {
    const agents = left.filter((a) => node.candidates.includes(a)).slice(0, node.number);
    if (agents.length < node.number) continue;
    for (const a of agents) left.splice(left.indexOf(a), 1);
    out.push({ nodeId: node.id, agents, reason: 'fallback: oldest ready task first, first free candidates', by: 'fallback' });
  }
  return out;
}

/**
 * One controller round of Algorithm 2: direct assignments, then the role's (validated) answer for
 * the rest, or the fallback. Never throws for the role's answer.
 *
 * @param free the free agents, in the order the fallback should prefer them.
 * @param ask the assign role; without it the fallback decides what is not direct.
 */
export async function assignReady(graph: TaskGraph, free: readonly string[], ask?: AskAssignment): Promise<AssignmentRound> {
  const { assignments, offer } = directAssignments(graph, free);
  if (offer.nodes.length === 0 || offer.free.length === 0) return { assignments };
  if (!ask) return { assignments: [...assignments, ...fallbackAssignment(offer)] };
  const answer = await ask(offer);
  // The role checks its answer already; checking again keeps a custom `ask` honest.
  const problems = answer.ok ? validateAssignment(offer, answer.value) : [answer.reason];
  if (answer.ok && problems.length === 0) {
    const merged = new Map<string, ProposedAssignment>();
    for (const a of answer.value) {
      const m = merged.get(a.nodeId);
      merged.set(a.nodeId, m ? { ...m, agents: [...new Set([...m.agents, ...a.agents])] } : { ...a, agents: [...new Set(a.agents)] });
    }
    return { assignments: [...assignments, ...[...merged.values()].map((a) => ({ ...a, by: 'llm' as const }))] };
  }
  return { assignments: [...assignments, ...fallbackAssignment(offer)], fallbackReason: problems.join('; ') };
}
