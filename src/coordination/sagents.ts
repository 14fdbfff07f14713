/**
 * `tree`, `chain` and `graph`: S-Agents' organisation of agents (Chen et al. 2024, §III;
 * re-implemented from the paper, which published no code; facts in
 * ../shared/notes/coordination-systems.md):
 * 1. **Organisation** (`./organisation.ts`): agent 0 is the root leader. `tree`: the root commands
 *    the leaves, leaves act and report and never command, everyone has at most one commander.
 *    `chain`: each agent commands the next, so an order to a later agent is relayed hop by hop and
 *    its report goes back the same way. `graph`: anyone may command anyone; every order passes the
 *    guard (at most one commander, no command cycle, no delegation loop, one delegation at most).
 * 2. **Hourglass**, per agent and order: perception (state and the group's message records
 *    `{time, speaker, respondent, message}`) → task planner (the `task_plan` role: inventories,
 *    objective, analysis, staged long-term plan, task at hand, informer) → action planner (the
 *    `action_plan` role: a JSON todo list; a direct todo runs as its `!command`, an "inform X to …"
 *    becomes an order in X's queue) → when the action queue is empty, the progress monitor (the
 *    `monitor` role: a rationale and `success | fail | unknown`); `unknown` plans again, at most
 *    `maxIterations` times ("a monitor that never says done" then fails the order with that reason).
 *    Each agent's iterations are its planning count (S-Agents' mPT).
 * 3. **Reports**: a leaf reports with the paper's fixed phrases ("I'll start the task X", "I have
 *    succeeded the task X", "I have failed the task X") and its inventory.
 * 4. **Non-obstructive collaboration**: no rounds. An agent whose order ends reports, and a ready
 *    order for it (or one a busy teammate has not started, which it takes over) starts at once; with
 *    a model the root plans again on each report while the others go on working.
 * 5. **Replanning**: when nothing runs and nothing is ready, the root plans again from the
 *    statuses and inventories (offline: the rules' plan of what is left; quotas still missing go to
 *    the agents with a record of success, the paper's "the agent that finished takes over").
 * 6. **Stops**: `maxFailures` failed orders or plans; `maxPlans` root plans; S-Agents' own rule, no
 *    progress for 40 minutes after more than 5 attempts (its "NaN"); the run's timeout.
 *
 * Offline (no planner, `--model oracle`): the root's plan comes from the rules (`./rule-plan.ts`,
 * or the task's quotas split evenly, `splitQuotas`), staged by dependency as the graph's edges; each
 * order runs on its agent through the offline policy's commands (`./execute.ts`), the world judges
 * it, and the report's fixed phrase follows the world's verdict. It is the strategy's upper bound.
 *
 * Bad model output never breaks a run: each role call has its bounded retry (`./roles/role.ts`);
 * an unusable task plan falls back to the rules' plan (or one order for the whole task), an unusable
 * action plan to the order given to the agent's own model loop, a failed monitor to the rules'
 * verdict (or `unknown`); every fallback's reason goes into the graph event's `change`.
 */
import { formatCounts, type Counts } from '../game/production.ts';
import type { LoadedTask } from '../tasks/schema.ts';
import { taskTargets } from '../tasks/loader.ts';
import type { GroupMessageRecord, OrganisationRecord } from '../tasks/eval/records.ts';
import { executeNode, historyLines, idleWithin, type NodeOutcome, orderText } from './execute.ts';
import { DEFAULT_GRAPH_OPTIONS, GraphRun, type GraphStrategyOptions, type GraphTeam, graphTeamOf } from './graph-run.ts';
import type { TaskNode } from './graph.ts';
import type { TeamMember } from './members.ts';
import {
  type Order,
  OrderBook,
  Organisation,
  type OrganisationKind,
  type ProgressStatus,
  reportText,
  splitQuotas,
  STALL,
  stalled,
} from './organisation.ts';
import { actionPlanRole } from './roles/action-plan.ts';
import { monitorRole } from './roles/monitor.ts';
import { callRole } from './roles/role.ts';
import { taskPlanRole } from './roles/task-plan.ts';
import { rulePlan, checkWork, type RulePlan } from './rule-plan.ts';
import type { CoordinationStrategy, StrategyEnd, StrategyRun } from './strategy.ts';

/** Options of S-Agents' strategies (besides the graph strategies' own). */
export interface SAgentsOptions extends GraphStrategyOptions {
  /** Hourglass iterations one order may take before it fails (the monitor kept saying `unknown`). Default 4. */
  maxIterations: number;
  /** Time one order may take with a model, ms (the paper sets none; default 5 min). */
  orderTimeoutMs: number;
  /** Root plans at most in a run. Default 30. */
  maxPlans: number;
  /** How many times an order may be passed on in a `graph` (default 1). */
  maxDelegations: number;
  /** S-Agents' stall rule (default its 40 minutes after more than 5 attempts). */
  stall: { minutes: number; attempts: number };
  /** Group messages kept for the prompts (the oldest are dropped). Default 200. */
  maxMessages: number;
  /**
   * The task's collection quotas (item → count, for the whole team), split evenly across the agents
   * offline (S-Agents' example of the task planner's rules, §III); undefined for tasks without
   * quotas, which the rules plan. Default: a collection task's targets.
   */
  quotas?: ((task: LoadedTask) => Counts | undefined) | undefined;
}

/** A collection task's targets as quotas (S-Agents' collective collection); none for other tasks. */
export function collectionQuotas(task: LoadedTask): Counts | undefined {
  return task.type === 'collection' ? taskTargets(task) : undefined;
}

/** The default options (see each field). */
export const DEFAULT_SAGENTS_OPTIONS: SAgentsOptions = {
  ...DEFAULT_GRAPH_OPTIONS,
  // The paper sets no bound on an order, only its stall rule: offline, an order fails after 5
  // minutes without progress, not 5 minutes in all (VillagerAgent's 120 s a subtask cut a share of
  // 17 logs in the survival world short at 10 of them; 10 iron ingots take longer than 5 minutes).
  offlineBounds: { ...DEFAULT_GRAPH_OPTIONS.offlineBounds, nodeTimeoutMs: 300_000, timeFrom: 'progress' },
  stateSummaries: false,
  maxIterations: 4,
  orderTimeoutMs: 300_000,
  maxPlans: 30,
  maxDelegations: 1,
  stall: STALL,
  maxMessages: 200,
  quotas: collectionQuotas,
};

/**
 * S-Agents' strategy with the `kind` of organisation and `options`.
 *
 * @example const strategy = sagentsStrategy('chain', { maxIterations: 2 });
 */
export function sagentsStrategy(kind: OrganisationKind, options: Partial<SAgentsOptions> = {}): CoordinationStrategy {
  return {
    name: kind,
    start(team): Promise<StrategyRun> {
      return Promise.resolve({ ended: runSAgents(graphTeamOf(team), kind, options) });
    },
  };
}

/** The tree of agents (S-Agents' own). */
export const tree: CoordinationStrategy = sagentsStrategy('tree');
/** The chain of agents (S-Agents' comparison: a fixed relay). */
export const chain: CoordinationStrategy = sagentsStrategy('chain');
/** The graph of agents (S-Agents' comparison: fully connected, guarded). */
export const graphOfAgents: CoordinationStrategy = sagentsStrategy('graph');

/**
 * Runs S-Agents' organisation on `team` until it stops or the run ends (see the module header).
 * Never rejects: a failure of its own ends it with `gave_up` and the reason.
 */
export async function runSAgents(team: GraphTeam, kind: OrganisationKind, options: Partial<SAgentsOptions> = {}): Promise<StrategyEnd> {
  const s = new SAgentsRun(team, kind, { ...DEFAULT_SAGENTS_OPTIONS, ...options });
  try {
    return await s.run.play(() => s.loop());
  } finally {
    await s.run.settled();
  }
}

/** The state of one S-Agents run. */
class SAgentsRun {
  readonly run: GraphRun;
  readonly team: GraphTeam;
  readonly org: Organisation;
  readonly book: OrderBook;
  readonly options: SAgentsOptions;
  /** Hourglass iterations per agent. */
  readonly planning: Record<string, number>;
  readonly counts = { orders: 0, reports: 0, refused: 0 };
  /** Orders started (attempts), and when a subtask last succeeded. */
  attempts = 0;
  lastProgress = Date.now();
  /** Root plans so far. */
  plans = 0;
  #messages: GroupMessageRecord[] = [];
  #fresh: GroupMessageRecord[] = [];
  /** The orders (hops) each node's order opened, root first. */
  readonly #ordersOf = new Map<string, Order[]>();
  /** Direct todos the root planned for itself, by node. */
  readonly #todosOf = new Map<string, string[]>();
  /** The order a delegated node passes on, by node. */
  readonly #parentOf = new Map<string, number>();
  /** The agent a node was planned for (another candidate may take it over when that one is busy). */
  readonly #preferred = new Map<string, string>();
  /** Reports since the root last planned (with a model, each one makes it plan again). */
  #reportsSincePlan = 0;
  /** When each agent last planned (its conversation starts there). */
  readonly #plannedAt = new Map<string, number>();
  readonly #previous = new Map<string, { objective: string; plan: string }>();
  #local = 0;

  constructor(team: GraphTeam, kind: OrganisationKind, options: SAgentsOptions) {
    this.team = team;
    this.options = options;
    this.run = new GraphRun(team, kind, options);
    this.org = new Organisation(
      kind,
      team.members.map((m) => m.name),
    );
    this.book = new OrderBook(this.org, kind === 'chain' ? this.org.agents.length : options.maxDelegations);
    this.planning = Object.fromEntries(this.org.agents.map((a) => [a, 0]));
    this.run.decorate = () => ({ organisation: this.record() });
  }

  get root(): string {
    return this.org.root;
  }

  /** The organisation record of the next graph event (messages since the previous one). */
  record(): OrganisationRecord {
    return {
      kind: this.org.kind,
      root: this.root,
      edges: this.org.edges(),
      planning: { ...this.planning },
      ...this.counts,
      lastProgress: this.lastProgress,
      messages: this.#fresh.splice(0),
    };
  }

  /** Adds a message to the group's records. */
  say(speaker: string, respondent: string, message: string, kind: GroupMessageRecord['kind']): void {
    const m: GroupMessageRecord = { time: Date.now(), speaker, respondent, message, kind };
    this.#messages.push(m);
    this.#fresh.push(m);
    const max = this.options.maxMessages;
    if (this.#messages.length > max) this.#messages.splice(0, this.#messages.length - max);
    if (this.#fresh.length > max) this.#fresh.splice(0, this.#fresh.length - max);
  }

  /** The group's messages to or from `name` since `since` (ms), as prompt lines. */
  conversation(name: string, since = 0): string[] {
    return this.#messages
      .filter((m) => m.time >= since && (m.speaker === name || m.respondent === name || name === this.root))
      .map((m) => `[${new Date(m.time).toISOString().slice(11, 19)}] ${m.speaker} to ${m.respondent}: ${m.message}`);
  }

  async loop(): Promise<StrategyEnd> {
    const { run, team } = this;
    run.record(
      `organisation: ${this.org.kind} with ${this.root} as root (${
        this.org
          .edges()
          .map((e) => `${e.commander}→${e.subordinate}`)
          .join(', ') || 'no edges: one agent'
      })`,
    );
    for (;;) {
      if (team.signal.aborted) return run.end({ kind: 'stopped' });
      if (run.failures >= run.options.maxFailures)
        return run.end({
          kind: 'gave_up',
          reason: `${run.failures} orders or plans failed (the strategy stops at ${run.options.maxFailures})`,
        });
      if (stalled(this.attempts, Date.now() - this.lastProgress, this.options.stall))
        return run.end({
          kind: 'gave_up',
          reason: `no progress for ${this.options.stall.minutes} minutes after ${this.attempts} attempts (S-Agents' NaN rule)`,
        });
      const started = this.dispatch();
      const planAgain = started === 0 && run.running === 0;
      // With a model, the root plans again on each report while the others go on (no rounds).
      const onReport = !!run.call && this.#reportsSincePlan > 0 && run.free().some((a) => !this.readyFor(a).length);
      if (planAgain || onReport) {
        if (this.plans >= this.options.maxPlans)
          return planAgain ? run.end({ kind: 'gave_up', reason: `${this.plans} root plans and the task is not done` }) : await this.#wait();
        const r = await this.plan();
        if (r.kind === 'end') return await r.end;
        if (r.kind === 'nothing' && !planAgain) await run.changed();
        continue;
      }
      await run.changed();
    }
  }

  async #wait(): Promise<StrategyEnd> {
    // Out of root plans while orders still run: let them end, then stop.
    while (this.run.running > 0 && !this.team.signal.aborted) await this.run.changed();
    if (this.team.signal.aborted) return this.run.end({ kind: 'stopped' });
    return this.run.end({ kind: 'gave_up', reason: `${this.plans} root plans and the task is not done` });
  }

  /** The ready nodes `agent` may take, its own first. */
  readyFor(agent: string): TaskNode[] {
    const ready = this.run.graph.ready().filter((n) => n.candidates.includes(agent));
    const own = ready.filter((n) => (this.#preferred.get(n.id) ?? n.candidates[0]) === agent);
    // Another's order is taken over only when its agent is busy (the paper: the one that finished takes over).
    const others = ready.filter((n) => !own.includes(n) && this.run.busy.has(this.#preferred.get(n.id) ?? ''));
    return [...own, ...others];
  }

  /** Starts a ready order on every free agent that has one; returns how many started. */
  dispatch(): number {
    let started = 0;
    for (const agent of this.run.free()) {
      const node = this.readyFor(agent)[0];
      if (!node) continue;
      const preferred = this.#preferred.get(node.id) ?? node.candidates[0];
      const how = preferred === agent ? 'its order' : `taken over from ${preferred}, who is busy`;
      if (!this.#give(node, agent)) continue;
      this.run.graph.start(node.id, [agent]);
      this.attempts++;
      this.say(agent, this.org.commanderOf(agent) ?? this.root, reportText('start', node.description), 'report');
      this.run.launch(
        node.id,
        agent,
        how,
        (n, status) => this.#report(n, agent, status),
        this.run.call ? (n, m, attempt) => this.#hourglass(n, m, attempt) : (n, m, attempt) => this.#offline(n, m, attempt),
      );
      started++;
    }
    return started;
  }

  /**
   * Opens the order(s) that give `node` to `agent`: none for the root's own work; one hop in a tree
   * or graph, every hop of the relay in a chain. False (the node failed, the reason recorded) when
   * the guard refuses one.
   */
  #give(node: TaskNode, agent: string): boolean {
    const parent = this.#parentOf.get(node.id);
    const from = parent !== undefined ? this.book.open().find((o) => o.id === parent)?.to : undefined;
    if (agent === this.root && from === undefined) {
      this.#ordersOf.set(node.id, []);
      return true;
    }
    const hops = from !== undefined ? [from, agent] : this.org.routeFromRoot(agent);
    const opened: Order[] = [];
    let previous = parent;
    for (let i = 1; i < hops.length; i++) {
      const [a, b] = [hops[i - 1]!, hops[i]!];
      const r = this.book.give(a, b, node.description, previous);
      if (!r.ok) {
        for (const o of opened) this.book.close(o.id);
        this.counts.refused++;
        this.say(a, b, node.description, 'refused');
        this.run.graph.start(node.id, [agent]);
        this.run.graph.finish(node.id, 'failure', `order refused: ${r.reason}`);
        this.run.fail();
        this.run.record(`${node.id}: the order ${a}→${b} was refused (${r.reason})`);
        return false;
      }
      opened.push(r.order);
      previous = r.order.id;
      this.counts.orders++;
      this.say(a, b, i < hops.length - 1 ? `pass on to ${agent}: ${node.description}` : `${b}, please ${node.description}`, 'order');
    }
    this.#ordersOf.set(node.id, opened);
    return true;
  }

  /** A finished order: the fixed-phrase report back up its hops, its orders closed, progress noted. */
  #report(node: TaskNode, agent: string, status: 'success' | 'failure'): void {
    const opened = this.#ordersOf.get(node.id) ?? [];
    const member = this.run.member(agent);
    const text = reportText(status === 'success' ? 'success' : 'fail', node.description, member?.inventory());
    for (const o of [...opened].reverse()) {
      this.say(o.to, o.from, text, 'report');
      this.counts.reports++;
      this.book.close(o.id);
    }
    if (status === 'success') this.lastProgress = Date.now();
    this.#reportsSincePlan++;
    // The report goes into the records now (the run may end at this very success).
    if (opened.length) this.run.record(`${agent} reported ${node.id} ${status === 'success' ? 'succeeded' : 'failed'}`);
  }

  /** One order offline: the offline policy executes it through its commands; the world judges it. */
  #offline(node: TaskNode, member: TeamMember, attempt: number): Promise<NodeOutcome> {
    this.planning[member.name] = (this.planning[member.name] ?? 0) + 1;
    return executeNode(node, member, {
      bounds: this.run.bounds,
      teammate: (name) => this.run.member(name),
      signal: this.team.signal,
      attempt,
      relay: (from, to, item, count) => this.run.relay(node.id, from, to, item, count),
    });
  }

  /** What `member` perceives (S-Agents §III-B.1), in words. */
  perception(member: TeamMember): string {
    const p = member.perceive();
    const pos = member.position();
    const s = member.surroundings();
    const parts = [
      pos ? `at (${pos.x}, ${pos.y}, ${pos.z})` : 'position unknown',
      p.biome ? `biome ${p.biome}` : undefined,
      p.timeOfDay !== undefined ? `time of day ${p.timeOfDay} ticks` : undefined,
      p.health !== undefined ? `health ${p.health}/20` : undefined,
      p.food !== undefined ? `hunger ${p.food}/20` : undefined,
      p.equipment && Object.keys(p.equipment).length
        ? `equipment ${Object.entries(p.equipment)
            .map(([slot, item]) => `${slot} ${item}`)
            .join(', ')}`
        : undefined,
      `nearby blocks ${s.blocks.slice(0, 24).join(', ') || 'none seen'}`,
    ];
    return parts.filter(Boolean).join('; ');
  }

  inventoryText(member: TeamMember): string {
    const inv = member.inventory();
    return Object.keys(inv).length ? formatCounts(inv) : 'an empty inventory';
  }

  /** A root plan: the rules' offline, the task and action planners' with a model. */
  async plan(): Promise<{ kind: 'added' } | { kind: 'nothing' } | { kind: 'end'; end: StrategyEnd | Promise<StrategyEnd> }> {
    this.plans++;
    this.planning[this.root] = (this.planning[this.root] ?? 0) + 1;
    this.#reportsSincePlan = 0;
    const r = this.run.call ? await this.#modelPlan() : this.#rulePlan();
    if (r.kind === 'added') this.run.checkRules();
    return r;
  }

  /** The root's plan from the rules: the task's quotas split evenly, or the rules' plan of what is left. */
  #rulePlan(): { kind: 'added' } | { kind: 'end'; end: StrategyEnd | Promise<StrategyEnd> } {
    const { run, team } = this;
    const quotas = this.options.quotas?.(team.task);
    const plan: RulePlan = quotas
      ? quotaPlan(quotas, team.members, this.#succeeded())
      : rulePlan({ data: team.data, members: team.members, blueprint: team.blueprint });
    if (plan.kind === 'unsolvable')
      return { kind: 'end', end: run.end({ kind: 'gave_up', reason: `the rules find the task cannot be done: ${plan.reason}` }) };
    if (plan.kind === 'done') return { kind: 'end', end: run.graceThenGiveUp(`the plan is done (${plan.reason}), but the task is not`) };
    const before = new Set(run.graph.nodes().map((n) => n.id));
    if (!run.addRulePlan(plan)) return { kind: 'end', end: run.end({ kind: 'gave_up', reason: 'the rules planned nothing' }) };
    for (const n of run.graph.nodes()) {
      if (before.has(n.id)) continue;
      const local = n.id.slice(n.id.indexOf('.') + 1);
      const preferred = plan.subtasks.find((s) => s.id === local)?.candidates?.[0];
      if (preferred) this.#preferred.set(n.id, preferred);
    }
    return { kind: 'added' };
  }

  /** Agents with a succeeded order. */
  #succeeded(): string[] {
    return [...new Set(this.run.graph.nodes().flatMap((n) => (n.status === 'success' ? n.assigned : [])))];
  }

  /** The root's hourglass with a model: task planner, action planner, orders. */
  async #modelPlan(): Promise<{ kind: 'added' } | { kind: 'nothing' } | { kind: 'end'; end: StrategyEnd | Promise<StrategyEnd> }> {
    const { run, team } = this;
    const root = run.member(this.root)!;
    const since = this.#plannedAt.get(this.root) ?? 0;
    this.#plannedAt.set(this.root, Date.now());
    const employees = this.org.agents.filter((a) => this.org.mayCommand(this.root, a));
    const previous = this.#previous.get(this.root);
    const tp = await callRole(
      taskPlanRole,
      {
        name: this.root,
        root: true,
        employees,
        task: run.taskText(),
        inventories: Object.fromEntries(team.members.map((m) => [m.name, this.inventoryText(m)])),
        perception: this.perception(root),
        conversation: this.conversation(this.root, since),
        progress: run.experience(),
        ...(previous ? { previousObjective: previous.objective, previousPlan: previous.plan } : {}),
      },
      run.call!,
    );
    if (team.signal.aborted) return { kind: 'end', end: run.end({ kind: 'stopped' }) };
    if (!tp.ok) {
      run.fail();
      return this.#fallbackPlan(`the task planner failed: ${tp.reason}`);
    }
    this.#previous.set(this.root, { objective: tp.value.objective, plan: tp.value.plan.join('\n') });
    if (!tp.value.taskAtHand) {
      if (run.running > 0) {
        run.note('the root has nothing new to give while orders run');
        return { kind: 'nothing' };
      }
      return { kind: 'end', end: run.graceThenGiveUp('the root has nothing more to do, but the task is not done') };
    }
    const ap = await callRole(
      actionPlanRole,
      {
        name: this.root,
        task: tp.value.taskAtHand,
        mayInform: employees,
        agents: [...this.org.agents],
        guard: (to) => (to === this.root ? undefined : this.book.check(this.root, to)),
      },
      run.call!,
    );
    if (team.signal.aborted) return { kind: 'end', end: run.end({ kind: 'stopped' }) };
    if (!ap.ok) {
      run.fail();
      // The task at hand as one order for the root, done by its own model loop.
      return this.#add([{ agent: this.root, description: tp.value.taskAtHand }], `the action planner failed: ${ap.reason}`);
    }
    const own = ap.value.flatMap((t) => (t.kind === 'command' ? [t.command] : []));
    const orders = ap.value.flatMap((t) => (t.kind === 'inform' ? [{ agent: t.to, description: t.task }] : []));
    const parts = [...orders, ...(own.length ? [{ agent: this.root, description: own.join('; '), todos: own }] : [])];
    return this.#add(parts, `planned by ${this.root} (${tp.value.plan.length} stages; at hand: ${tp.value.taskAtHand.slice(0, 160)})`);
  }

  /** The fallback of a failed task plan: the rules' plan, or one order for the whole task. */
  #fallbackPlan(reason: string): { kind: 'added' } | { kind: 'nothing' } {
    const plan = this.options.quotas?.(this.team.task)
      ? quotaPlan(this.options.quotas(this.team.task)!, this.team.members, this.#succeeded())
      : rulePlan({ data: this.team.data, members: this.team.members, blueprint: this.team.blueprint });
    if (plan.kind === 'work' && this.run.addRulePlan(plan)) {
      this.run.record(`fallback: the rules planned, because ${reason}`);
      return { kind: 'added' };
    }
    return this.#add([{ agent: this.root, description: `The whole task: ${this.run.taskText()}` }], `fallback: ${reason}`);
  }

  /** Adds orders (one node each) in one round, with no edges between them. */
  #add(parts: { agent: string; description: string; todos?: string[] }[], change: string): { kind: 'added' } | { kind: 'nothing' } {
    if (!parts.length) {
      this.run.note(`${change}: nothing to give`);
      return { kind: 'nothing' };
    }
    const subtasks = parts.map((p) => ({ id: `o${++this.#local}`, description: p.description, candidates: [p.agent] }));
    const round = this.run.graph.addRound(subtasks);
    if (!round.ok) {
      this.run.fail();
      this.run.note(`${change}: the orders were refused (${round.problems.join('; ')})`);
      return { kind: 'nothing' };
    }
    parts.forEach((p, i) => {
      const id = round.ids[subtasks[i]!.id]!;
      this.#preferred.set(id, p.agent);
      if (p.todos) this.#todosOf.set(id, p.todos);
    });
    this.run.record(`${change}: ${parts.map((p, i) => `${round.ids[subtasks[i]!.id]} to ${p.agent}`).join(', ')}`);
    return { kind: 'added' };
  }

  /**
   * One order with a model: the agent's hourglass (see the module header). The root's own work
   * arrives with its todos planned; a leaf plans its order itself.
   */
  async #hourglass(node: TaskNode, member: TeamMember, attempt: number): Promise<NodeOutcome> {
    const { run, team, options } = this;
    const started = Date.now();
    const deadline = started + options.orderTimeoutMs;
    const cursor = member.journal.last;
    let commands = 0;
    let orders = 0;
    let todos = this.#todosOf.get(node.id);
    const actions: string[] = [];
    const end = (status: 'success' | 'failure', summary: string, fallback?: string): NodeOutcome => ({
      status,
      summary,
      ...(fallback ? { fallback } : {}),
      commands,
      orders,
      ms: Date.now() - started,
    });
    const mine = this.#ordersOf.get(node.id)?.at(-1);
    const mayInform =
      this.org.kind === 'graph' ? this.org.agents.filter((a) => a !== member.name && this.org.mayCommand(member.name, a)) : [];
    let fallback: string | undefined;
    member.assign({ node: attempt > 1 ? `${node.id}/${attempt}` : node.id, description: node.description });
    try {
      for (let i = 1; i <= options.maxIterations; i++) {
        if (team.signal.aborted) return end('failure', 'the run ended first');
        if (Date.now() >= deadline) return end('failure', `no verdict within ${options.orderTimeoutMs} ms`, fallback);
        const since = this.#plannedAt.get(member.name) ?? started;
        if (!todos) {
          this.planning[member.name] = (this.planning[member.name] ?? 0) + 1;
          this.#plannedAt.set(member.name, Date.now());
          const tp = await callRole(
            taskPlanRole,
            {
              name: member.name,
              root: false,
              employees: [],
              task: node.description,
              inventories: { [member.name]: this.inventoryText(member) },
              perception: this.perception(member),
              conversation: this.conversation(member.name, since),
            },
            run.call!,
          );
          if (!tp.ok) run.note(`${node.id}: ${member.name}'s task planner failed (${tp.reason}); it acts on the order as given`);
          const task = tp.ok && tp.value.taskAtHand ? tp.value.taskAtHand : node.description;
          const ap = await callRole(
            actionPlanRole,
            {
              name: member.name,
              task,
              mayInform,
              agents: [...this.org.agents],
              guard: (to) => this.book.check(member.name, to, mine?.id),
            },
            run.call!,
          );
          if (team.signal.aborted) return end('failure', 'the run ended first');
          if (!ap.ok) {
            // The order goes to the agent's own model loop instead.
            fallback = `${member.name}'s action planner failed (${ap.reason}); the order went to its own model loop`;
            run.note(`${node.id}: ${fallback}`);
            orders++;
            member.order(orderText(node));
            await idleWithin(member, deadline - Date.now(), team.signal);
            actions.push(...historyLines(member.journal.since(cursor)).slice(-12));
            todos = [];
          } else {
            todos = ap.value.flatMap((t) => (t.kind === 'command' ? [t.command] : []));
            for (const t of ap.value) if (t.kind === 'inform') this.#delegate(member.name, t.to, t.task, mine);
          }
        }
        for (const command of todos) {
          if (team.signal.aborted || Date.now() >= deadline) break;
          const r = await member.command(command);
          commands++;
          actions.push(`${command}: ${r.ok ? '' : '[failed] '}${r.text.slice(0, 300)}`);
        }
        todos = undefined;
        // The action queue is empty: the progress monitor.
        const verdict = await this.#monitor(node, member, actions, since);
        if (verdict.status === 'success') return end('success', verdict.rationale, fallback ?? verdict.fallback);
        if (verdict.status === 'fail') return end('failure', verdict.rationale, fallback ?? verdict.fallback);
      }
      return end('failure', `the monitor never said done after ${options.maxIterations} iterations`, fallback);
    } finally {
      member.assign(undefined);
    }
  }

  /** A delegation in a graph: an order from `from` to `to`, passing on `parent`. */
  #delegate(from: string, to: string, task: string, parent: Order | undefined): void {
    const subtask = { id: `o${++this.#local}`, description: task, candidates: [to] };
    const round = this.run.graph.addRound([subtask]);
    if (!round.ok) return;
    const id = round.ids[subtask.id]!;
    this.#preferred.set(id, to);
    if (parent) this.#parentOf.set(id, parent.id);
    this.run.record(`${from} delegated ${id} to ${to}: ${task}`);
    this.run.wake();
  }

  /** The monitor on an order: the role's verdict, else the rules' (typed work), else `unknown`. */
  async #monitor(
    node: TaskNode,
    member: TeamMember,
    actions: string[],
    since: number,
  ): Promise<{ status: ProgressStatus; rationale: string; fallback?: string }> {
    const r = await callRole(
      monitorRole,
      {
        task: node.description,
        conversation: this.conversation(member.name, since),
        inventory: this.inventoryText(member),
        actions: actions.slice(-20),
      },
      this.run.call!,
    );
    if (r.ok) return r.value;
    const ruled = node.work && checkWork({ work: node.work, member, teammate: (n) => this.run.member(n) });
    const fallback = `the monitor failed (${r.reason})${ruled ? '; the rules judged' : '; status unknown'}`;
    this.run.note(`${node.id}: ${fallback}`);
    if (ruled) return { status: ruled.done ? 'success' : 'unknown', rationale: ruled.detail, fallback };
    return { status: 'unknown', rationale: 'no verdict', fallback };
  }
}

/**
 * The root's offline plan for quotas (item → count for the team): what the team does not hold yet,
 * split evenly (`splitQuotas`) across the agents that may collect, or across those with a record
 * of success when some have one (the paper's "the agent that finished takes over"). One `collect`
 * order per agent, all in one stage (independent work); what one leaves undone is planned again
 * for those that succeeded.
 */
export function quotaPlan(quotas: Readonly<Counts>, members: readonly TeamMember[], succeeded: readonly string[] = []): RulePlan {
  const held: Counts = {};
  for (const m of members) for (const [item, n] of Object.entries(m.inventory())) held[item] = (held[item] ?? 0) + n;
  const left: Counts = {};
  for (const [item, n] of Object.entries(quotas)) if ((held[item] ?? 0) < n) left[item] = n - (held[item] ?? 0);
  if (!Object.keys(left).length) return { kind: 'done', reason: `the team holds ${formatCounts(quotas)}` };
  const collectors = members.filter((m) => m.canUse('!collectBlocks')).map((m) => m.name);
  if (!collectors.length) return { kind: 'unsolvable', reason: 'no agent may collect (!collectBlocks is blocked for every agent)' };
  const proven = collectors.filter((c) => succeeded.includes(c));
  const workers = proven.length ? proven : collectors;
  const shares = splitQuotas(left, workers);
  const subtasks = workers.flatMap((agent, i) => {
    const share = shares[agent]!;
    if (!Object.keys(share).length) return [];
    const inv = members.find((m) => m.name === agent)!.inventory();
    const targets = Object.fromEntries(Object.entries(share).map(([item, n]) => [item, (inv[item] ?? 0) + n]));
    return [
      {
        id: `q${i + 1}`,
        description: `Mine ${Object.entries(share)
          .map(([item, n]) => `${n} ${item}`)
          .join(' and ')}`,
        milestones: [`hold ${formatCounts(targets)}`],
        candidates: [agent],
        work: { kind: 'collect' as const, targets },
      },
    ];
  });
  return { kind: 'work', subtasks, edges: [] };
}
