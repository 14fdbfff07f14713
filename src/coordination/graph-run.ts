/**
 * What the two graph strategies (`dag`, `causal`) share: the team as {@link TeamMember}s, the task
 * graph and its records (`graph.jsonl`: every version, with what changed), the planner's role calls
 * (bounded, counted by role), the state manager, node execution and reflection, the rules, the
 * failure count behind the stop conditions, and the wake-up of the strategy's loop when a node ends.
 *
 * Bad model output never breaks a run: every role call is bounded and typed (`./roles/role.ts`);
 * what a failed call leaves undone falls back (a whole-task node, the deterministic assignment, the
 * rules' verdict or a failed node), and the reason goes into the graph event's `change` and a log line.
 */
import type { GameData } from '../game/data.ts';
import { formatCounts } from '../game/production.ts';
import type { ChatModel } from '../models/types.ts';
import type { GraphEvent } from '../tasks/eval/records.ts';
import type { Blueprint, LoadedTask } from '../tasks/schema.ts';
import { sleep } from '../util/abort.ts';
import { executeNode, historyLines, type ExecutionBounds, type NodeOutcome, type ReflectionResult, VILLAGER_BOUNDS } from './execute.ts';
import { TaskGraph, type TaskNode } from './graph.ts';
import { memberOf, type TeamMember } from './members.ts';
import { retrieveAll } from './retrieval.ts';
import { callRole, type RoleCall } from './roles/role.ts';
import { reflectRole } from './roles/reflect.ts';
import { RoleStats } from './roles/stats.ts';
import { agentSummaryRole, environmentSummaryRole } from './roles/summarise.ts';
import { applyRules } from './rules.ts';
import type { RulePlan } from './rule-plan.ts';
import { StateManager } from './state.ts';
import type { StrategyEnd, TeamRun } from './strategy.ts';
import { describeWork } from './work.ts';

/** A graph strategy's team: the {@link TeamRun} with its agents as {@link TeamMember}s. */
export interface GraphTeam {
  task: LoadedTask;
  /** Agent 0 first. */
  members: readonly TeamMember[];
  blueprint?: Blueprint | undefined;
  goals: Readonly<Record<string, string>>;
  data: GameData;
  planner: ChatModel | undefined;
  ruleChecks: boolean;
  record(event: Omit<GraphEvent, 'type' | 't'>): void;
  signal: AbortSignal;
  log(line: string): void;
}

/**
 * The graph team of a set-up team.
 *
 * @throws Error for a team without agents.
 */
export function graphTeamOf(team: TeamRun): GraphTeam {
  const first = team.agents[0];
  if (!first) throw new Error('a graph strategy needs at least one agent');
  return {
    task: team.task,
    members: team.agents.map(memberOf),
    blueprint: team.blueprint,
    goals: team.goals,
    data: first.data,
    planner: team.planner,
    ruleChecks: team.ruleChecks,
    record: (e) => team.record(e),
    signal: team.signal,
    log: (line) => team.log(line),
  };
}

/** Options of the graph strategies. */
export interface GraphStrategyOptions {
  /** Bounds of one node with a model (default VillagerAgent's: 6 steps, 120 s). */
  bounds: ExecutionBounds;
  /** Bounds of one node offline (default: no step bound, 120 s, 4 orders). */
  offlineBounds: ExecutionBounds;
  /** Failed subtasks (and failed decomposer rounds) before the strategy gives up (VillagerAgent's code: 3). */
  maxFailures: number;
  /** Bound on one role's model call, ms. */
  roleTimeoutMs: number;
  /** Tries after a role's first bad answer. */
  roleRetries: number;
  /** How long the environment summary is reused, ms (VillagerAgent: about 120 s). */
  stateCacheMs: number;
  /**
   * When the plan is done and the task's validator has not ended the run, how long to wait for it
   * (the validator reads the world every game tick; a hand-over seen a tick late) before giving up, ms.
   */
  doneGraceMs: number;
  /** Decomposer rounds at most (`dag`). */
  maxRounds: number;
  /**
   * With a model, whether the state manager writes each agent's summary after its subtasks (the
   * `summarise` role; VillagerAgent's). Default true; S-Agents' strategies keep the group's
   * messages instead.
   */
  stateSummaries?: boolean;
}

/** The default options (see each field). */
export const DEFAULT_GRAPH_OPTIONS: GraphStrategyOptions = {
  bounds: VILLAGER_BOUNDS,
  offlineBounds: { nodeTimeoutMs: 120_000, maxOrders: 4, stopGraceMs: 10_000 },
  maxFailures: 3,
  roleTimeoutMs: 60_000,
  roleRetries: 2,
  stateCacheMs: 120_000,
  doneGraceMs: 5_000,
  maxRounds: 40,
};

/** What agents can do in one step, for the decomposer (the commands behind them are the agents' own). */
export const ABILITIES =
  'walk to players or places; collect blocks (logs, stone, crops) and pick up drops; hunt, milk or shear animals; craft items (a crafting table is placed as needed); smelt or cook in a furnace or smoker; give items to a teammate; put in and take from chests; place blocks at positions and dig them; check a blueprint level.';

/** The graph's nodes and edges as a graph event records them. */
export function graphRecord(strategy: string, graph: TaskGraph, change: string): Omit<GraphEvent, 'type' | 't'> {
  return {
    strategy,
    version: graph.version,
    change,
    nodes: graph.nodes().map((n) => ({
      id: n.id,
      description: n.description,
      status: n.status,
      candidates: n.candidates,
      assigned: n.assigned,
      number: n.number,
      predecessors: n.predecessors,
      ...(n.feedback !== undefined ? { feedback: n.feedback } : {}),
      ...(n.work ? { work: describeWork(n.work) } : {}),
    })),
    edges: graph.edges({ includeRemoved: true }).map((e) => ({
      from: e.from,
      to: e.to,
      origin: e.origin,
      ...(e.removed ? { removed: true } : {}),
      ...(e.reason ? { reason: e.reason } : {}),
    })),
  };
}

/** The shared state and steps of one graph strategy's run (see the module header). */
export class GraphRun {
  readonly team: GraphTeam;
  readonly strategy: string;
  readonly options: GraphStrategyOptions;
  readonly graph: TaskGraph;
  readonly stats = new RoleStats();
  readonly state: StateManager;
  /** Role calls on the planner; undefined offline. */
  readonly call: RoleCall | undefined;
  /** Failed subtasks and failed planning steps so far. */
  failures = 0;
  /** Agents running a node now, by name → node id. */
  readonly busy = new Map<string, string>();
  /** When each agent last became free (ms), for the fallback's longest-idle-first order. */
  readonly freeSince = new Map<string, number>();
  /** Node executions per agent. */
  readonly executions = new Map<string, number>();
  /** Tries per node. */
  readonly #attempts = new Map<string, number>();
  /**
   * Adds fields to every graph event (S-Agents' organisation, orders and reports); called once per
   * event, so it may hand over what is new since the previous one.
   */
  decorate: (() => Pick<GraphEvent, 'organisation'>) | undefined;
  #waiters: (() => void)[] = [];
  #pending = false;
  readonly #running = new Set<Promise<void>>();

  constructor(team: GraphTeam, strategy: string, options: Partial<GraphStrategyOptions> = {}) {
    this.team = team;
    this.strategy = strategy;
    this.options = { ...DEFAULT_GRAPH_OPTIONS, ...options };
    this.graph = new TaskGraph({ agents: team.members.map((m) => m.name) });
    const model = team.planner;
    this.call = model && {
      model,
      stats: this.stats,
      retries: this.options.roleRetries,
      timeoutMs: this.options.roleTimeoutMs,
      signal: team.signal,
    };
    const call = this.call;
    this.state = new StateManager({
      members: team.members,
      task: this.taskText(),
      cacheMs: this.options.stateCacheMs,
      ...(call && this.options.stateSummaries !== false
        ? {
            summariser: {
              agent: async (name, summary, actions) => {
                const r = await callRole(agentSummaryRole, { name, summary, actions }, call);
                if (!r.ok) this.note(`summarise ${name}: kept the plain summary (${r.reason})`);
                return r.ok ? r.value : undefined;
              },
              environment: async (task, observations) => {
                const r = await callRole(environmentSummaryRole, { task, observations }, call);
                if (!r.ok) this.note(`summarise the environment: kept the plain observations (${r.reason})`);
                return r.ok ? r.value : undefined;
              },
            },
          }
        : {}),
    });
    const now = Date.now();
    for (const m of team.members) this.freeSince.set(m.name, now);
  }

  get names(): string[] {
    return this.team.members.map((m) => m.name);
  }

  member(name: string): TeamMember | undefined {
    return this.team.members.find((m) => m.name === name);
  }

  /** Bounds of a node: the model's, or offline ones. */
  get bounds(): ExecutionBounds {
    return this.team.planner ? this.options.bounds : this.options.offlineBounds;
  }

  /** The team's task in words: the agents' goals (one text when they share it). */
  taskText(): string {
    const goals = Object.entries(this.team.goals);
    const texts = new Set(goals.map(([, g]) => g));
    const own = this.team.task.goal;
    if (texts.size <= 1) return goals[0]?.[1] ?? (typeof own === 'string' ? own : Object.values(own).join('\n'));
    return goals.map(([name, g]) => `${name}: ${g}`).join('\n');
  }

  /** The data retrieval paths point into: the task as given, with the blueprint as placed. */
  taskData(): unknown {
    return { ...this.team.task, ...(this.team.blueprint ? { blueprint: this.team.blueprint } : {}) };
  }

  /**
   * Records the graph now (a `graph.jsonl` line) with what changed, and logs it. Once the run has
   * ended (its records are closed) it only logs.
   */
  record(change: string): void {
    this.team.log(`[${this.strategy}] ${change}`);
    if (this.team.signal.aborted) return;
    try {
      this.team.record({ ...graphRecord(this.strategy, this.graph, change), ...this.decorate?.() });
    } catch {
      // a failing record never stops the team
    }
  }

  /** A log line (a fallback's reason) that changes nothing in the graph. */
  note(line: string): void {
    this.team.log(`[${this.strategy}] ${line}`);
  }

  /**
   * Resolves at the next node end (or other {@link wake}), or when the run ends; at once when one
   * came since the last call (the loop reads the graph again after each).
   */
  changed(): Promise<void> {
    if (this.team.signal.aborted || this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        this.team.signal.removeEventListener('abort', done);
        resolve();
      };
      this.#waiters.push(done);
      this.team.signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Wakes the strategy's loop. */
  wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    if (waiters.length === 0) this.#pending = true;
    for (const w of waiters) w();
  }

  /** Free agents, longest idle first. */
  free(): string[] {
    return this.names.filter((n) => !this.busy.has(n)).sort((a, b) => (this.freeSince.get(a) ?? 0) - (this.freeSince.get(b) ?? 0));
  }

  /** Nodes running now. */
  get running(): number {
    return this.busy.size;
  }

  /** Adds a rule plan's subtasks (one round) and its edges as the rules' own; false when it added nothing. */
  addRulePlan(plan: Extract<RulePlan, { kind: 'work' }>): boolean {
    const round = this.graph.addRound(plan.subtasks);
    if (!round.ok) {
      this.note(`the rule plan was refused (a bug): ${round.problems.join('; ')}`);
      return false;
    }
    let added = 0;
    for (const e of plan.edges) {
      const r = this.graph.addEdge(round.ids[e.from]!, round.ids[e.to]!, 'rule_added', `the plan: ${e.reason}`);
      if (r.ok && !r.existed) added++;
    }
    this.record(
      `planned by the rules (round ${round.round}): ${plan.subtasks.length} subtasks (${plan.subtasks.map((s) => round.ids[s.id]).join(', ')}), ${added} edges`,
    );
    return plan.subtasks.length > 0;
  }

  /** Adds one node for the whole task, open to every agent: the fallback of a failed decomposition. */
  addWholeTask(reason: string): void {
    const r = this.graph.addRound([{ id: 'all', description: `The whole task: ${this.taskText()}` }]);
    this.record(`fallback: one node for the whole task${r.ok ? ` (${r.ids.all})` : ''}, because ${reason}`);
  }

  /** Checks the graph's edges by the game's rules when they are on (`rule_checked_edges`). */
  checkRules(): void {
    if (!this.team.ruleChecks) return;
    const r = applyRules(this.graph, { data: this.team.data });
    if (r.removed || r.added)
      this.record(`rules: ${r.checked} edges checked, ${r.removed} refuted and removed, ${r.added} required and added`);
    else this.note(`rules: ${r.checked} edges checked, none refuted, none missing`);
  }

  /** Counts a failure; true when the strategy must stop (VillagerAgent: 3). */
  fail(): boolean {
    this.failures++;
    return this.failures >= this.options.maxFailures;
  }

  /**
   * Runs `nodeId` (already started in the graph) on `agent` in the background: execution,
   * reflection, the node's outcome and feedback, the agent's state summary; then wakes the loop.
   * `onFinish` runs after the graph is updated (e.g. to reopen a failed node). `execute` replaces
   * the node's execution (default {@link executeNode}: an order through the agent's model loop, then
   * the reflection or the rules); it must not reject.
   */
  launch(
    nodeId: string,
    agent: string,
    how: string,
    onFinish?: (node: TaskNode, status: 'success' | 'failure', outcome: NodeOutcome) => void,
    execute?: (node: TaskNode, member: TeamMember, attempt: number) => Promise<NodeOutcome>,
  ): void {
    const member = this.member(agent);
    const node = this.graph.node(nodeId);
    if (!member || !node) return;
    this.busy.set(agent, nodeId);
    this.executions.set(agent, (this.executions.get(agent) ?? 0) + 1);
    const attempt = (this.#attempts.get(nodeId) ?? 0) + 1;
    this.#attempts.set(nodeId, attempt);
    this.record(`${nodeId} to ${agent} (${how})`);
    const task = (async () => {
      // Its builder too: one left standing in a cell of its own (on the walls, where the roof
      // goes) cannot place the block there, and the offline policy does not step off by itself.
      await this.clearSite(agent, [agent]);
      const cursor = member.journal.last;
      const retrieved = retrieveAll(this.taskData(), node.retrievalPaths);
      const context = Object.keys(retrieved.values).length ? `Task data: ${JSON.stringify(retrieved.values).slice(0, 1_500)}` : undefined;
      const outcome = execute
        ? await execute(node, member, attempt)
        : await executeNode(node, member, {
            bounds: this.bounds,
            teammate: (name) => this.member(name),
            signal: this.team.signal,
            attempt,
            relay: (from, to, item, count) => this.relay(nodeId, from, to, item, count),
            ...(context ? { context } : {}),
            ...(this.call ? { reflect: (input) => this.reflect(input.node, input.history, input.state) } : {}),
          });
      if (this.team.signal.aborted) return;
      this.graph.finish(nodeId, outcome.status, outcome.summary);
      // Done with its own cells, it may stand in a teammate's.
      await this.clearSite(agent, [agent]);
      if (outcome.fallback) this.note(`${nodeId}: ${outcome.fallback}`);
      const failedOut = outcome.status === 'failure' && this.fail();
      this.record(
        `${nodeId} ${outcome.status}: ${outcome.summary}${outcome.bound ? ` (${outcome.bound} bound)` : ''}${outcome.fallback ? ` [fallback: ${outcome.fallback}]` : ''}`,
      );
      onFinish?.(this.graph.node(nodeId)!, outcome.status, outcome);
      await this.state.update(agent, `${nodeId} ${outcome.status}: ${outcome.summary}`, historyLines(member.journal.since(cursor)));
      if (failedOut) this.note(`${this.failures} failures: the strategy stops`);
    })()
      .catch((err: Error) => this.note(`${nodeId}: ${err.message}`))
      .finally(() => {
        this.busy.delete(agent);
        this.freeSince.set(agent, Date.now());
        this.#running.delete(task);
        this.wake();
      });
    this.#running.add(task);
  }

  /**
   * Plays `body` on this run. Never rejects: a failure of the strategy's own ends the run with
   * `gave_up` and the reason.
   */
  async play(body: () => Promise<StrategyEnd>): Promise<StrategyEnd> {
    try {
      return await body();
    } catch (err) {
      return this.end({ kind: 'gave_up', reason: `the strategy failed: ${(err as Error).message}` });
    }
  }

  /** Resolves once every node running now has ended and been recorded. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }

  /**
   * Construction: idle agents (not `except`'s builder, unless listed in `also`) standing in a cell
   * still to be built by an unfinished node step off it (`!moveAway`): the server refuses a block
   * where a player stands (the offline policy's chat play has the agents without cells walk off
   * the site for the same reason).
   */
  async clearSite(except: string, also: readonly string[] = []): Promise<void> {
    if (!this.team.blueprint) return;
    const cells = new Set<string>();
    for (const n of this.graph.nodes())
      if ((n.status === 'unknown' || n.status === 'running') && n.work?.kind === 'build')
        for (const c of n.work.cells) if (c.block !== 'air') cells.add(`${c.x},${c.y},${c.z}`);
    if (!cells.size) return;
    for (const m of this.team.members) {
      if ((m.name === except || this.busy.has(m.name)) && !also.includes(m.name)) continue;
      const p = m.position();
      // A player fills its feet's block and the one above.
      if (p && (cells.has(`${p.x},${p.y},${p.z}`) || cells.has(`${p.x},${p.y + 1},${p.z}`))) {
        this.note(`${m.name} steps off a cell still to be built at (${p.x}, ${p.y}, ${p.z})`);
        await m.stepAside(3);
      }
    }
  }

  /**
   * A free agent that picked up a hand-over meant for `to` passes it on (`!givePlayer` for the
   * coordinator); false when it is busy or not in the team.
   */
  async relay(nodeId: string, from: string, to: string, item: string, count: number): Promise<boolean> {
    const member = this.member(from);
    if (!member || this.busy.has(from) || this.team.signal.aborted) return false;
    this.busy.set(from, nodeId);
    try {
      this.note(`${from} picked up ${count} ${item} meant for ${to} (${nodeId}): it passes them on`);
      await member.passOn(to, item, count);
      return true;
    } finally {
      this.busy.delete(from);
      this.wake();
    }
  }

  /** The reflect role on a node's actions. */
  async reflect(node: TaskNode, history: string[], state: string): Promise<ReflectionResult> {
    const r = await callRole(reflectRole, { task: node.description, milestones: node.milestones, history, state }, this.call!);
    return r.ok ? { ok: true, success: r.value.success, summary: r.value.summary } : { ok: false, reason: r.reason };
  }

  /** Each agent's record of subtasks done and failed (the controller's "experience"). */
  experience(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of this.names) {
      const mine = this.graph.nodes().filter((n) => n.assigned.includes(name) && (n.status === 'success' || n.status === 'failure'));
      const ok = mine.filter((n) => n.status === 'success').map((n) => n.id);
      const bad = mine.filter((n) => n.status === 'failure').map((n) => n.id);
      out[name] = `succeeded ${ok.join(', ') || 'none'}; failed ${bad.join(', ') || 'none'}`;
    }
    return out;
  }

  /**
   * Gives the validator `doneGraceMs` to end the run after the plan is done, then gives up with
   * `reason`; `stopped` if the run ends first.
   */
  async graceThenGiveUp(reason: string): Promise<StrategyEnd> {
    await sleep(this.options.doneGraceMs, this.team.signal).catch(() => {});
    return this.end({ kind: 'gave_up', reason });
  }

  /** The strategy's end: recorded (a `gave_up` with its reason) and the planner's calls by role logged. */
  async end(ending: StrategyEnd): Promise<StrategyEnd> {
    if (this.team.signal.aborted) ending = { kind: 'stopped' };
    this.record(ending.kind === 'gave_up' ? `gave up: ${ending.reason}` : 'stopped: the run ended');
    const tokens = this.stats.total();
    if (tokens.calls)
      this.note(
        `planner calls by role: ${Object.entries(this.stats.toJSON())
          .map(([role, c]) => `${role} ${c.calls} (${c.failures} failed, ${c.input}/${c.output} tokens)`)
          .join(', ')}`,
      );
    return ending;
  }

  /** Every node's agent(s) and status, for a summary line. */
  summary(): string {
    const counts: Record<string, number> = {};
    for (const n of this.graph.nodes()) counts[n.status] = (counts[n.status] ?? 0) + 1;
    return formatCounts(counts);
  }
}
