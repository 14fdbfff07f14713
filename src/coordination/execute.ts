/**
 * One graph node executed on its agent (VillagerAgent §3.5, CausalMACE §3.5): the node becomes the
 * agent's current subtask (`AgentTask.assignment`) and an order from the coordinator; the agent
 * works through its normal model loop and commands, as a bounded goal; when it is idle after its
 * attempt (or a bound passes) a reflection says `{summary, status}`.
 *
 * Bounds ({@link ExecutionBounds}): VillagerAgent's base agent runs "at most 6 iterations or 120 s"
 * per subtask (its code: 7 iterations); an iteration is one ReAct step, here one command the
 * agent's model ran. When a bound is reached the agent is stopped (between two commands for the
 * step bound) and reflected on as it stands.
 *
 * Reflection: with a model, the reflect role reads the agent's actions and state (its answer's
 * failure falls back to the rules when the node has typed work, else the node fails with the
 * reason). Offline, the rules read the world ({@link checkWork}): while the work is not done, the
 * agent ran commands on its last order, and the bounds allow, it is told to go on (the offline
 * policy's model loop ends at `max_commands` per order); an order on which it ran nothing (it said
 * why it cannot go on) ends the node.
 */
import type { Assignment } from '../commands/context.ts';
import type { JournalEntry } from '../commands/journal.ts';
import type { Counts } from '../game/production.ts';
import { TOSS_GRACE_MS } from '../agent/modes/item_collecting.ts';
import { abortable, waitFor } from '../util/abort.ts';
import type { TaskNode } from './graph.ts';
import type { TeamMember } from './members.ts';
import { checkWork, type WorkCheck } from './rule-plan.ts';
import { describeWork } from './work.ts';

/** The bounds of one node's execution. */
export interface ExecutionBounds {
  /**
   * Commands the agent's model may run on one node (ReAct steps; VillagerAgent: 6). Undefined: no
   * bound (the offline policy, whose subtasks run to their end: a level of 20 cells takes 20).
   */
  maxIterations?: number | undefined;
  /** Time one node may take, ms (VillagerAgent: 120 s), counted as {@link ExecutionBounds.timeFrom} says. */
  nodeTimeoutMs: number;
  /**
   * Where {@link ExecutionBounds.nodeTimeoutMs} counts from: the node's start (default;
   * VillagerAgent's bound), or the agent's last progress on it (a command of its own that succeeded
   * or gained items, or more of a `collect` or `make` node's targets held, looked at every
   * {@link PROGRESS_POLL_MS} or a quarter of the bound), so that long work that keeps moving (S-Agents' orders, which the paper does
   * not bound: 10 iron ingots to mine and smelt) is not cut, and work that stops moving still ends.
   */
  timeFrom?: 'start' | 'progress';
  /** Orders one node may get offline: the first, then "go on" while the rules say it is not done. */
  maxOrders: number;
  /** How long a stopped agent may take to become idle, ms. */
  stopGraceMs: number;
  /**
   * A hand-over whose items lie on the ground near the recipient: how long to wait for the
   * recipient to pick them up before judging the give, ms (its item_collecting mode leaves another
   * player's throw alone for `TOSS_GRACE_MS`, 10 s, then walks to it). Default 15 000.
   */
  pickupWaitMs?: number;
}

/** How often a node whose bound counts from progress looks at the targets its agent holds (ms). */
export const PROGRESS_POLL_MS = 10_000;

/** VillagerAgent's bounds (§3.5 "at most 6 iterations or 120 s"). */
export const VILLAGER_BOUNDS: ExecutionBounds = { maxIterations: 6, nodeTimeoutMs: 120_000, maxOrders: 4, stopGraceMs: 10_000 };

/** Default {@link ExecutionBounds.pickupWaitMs}: the item_collecting mode's grace, and the walk. */
export const PICKUP_WAIT_MS = TOSS_GRACE_MS + 5_000;

/** What the reflection reads. */
export interface ReflectionInput {
  node: TaskNode;
  /** The agent's actions on the node and their results, oldest first, one line each. */
  history: string[];
  /** The agent's state now (items held, position). */
  state: string;
}

/** The reflection's verdict, or why it gave none. */
export type ReflectionResult = { ok: true; success: boolean; summary: string } | { ok: false; reason: string };

/** How a node ended. */
export interface NodeOutcome {
  status: 'success' | 'failure';
  /** The reflection's summary (the node's feedback F). */
  summary: string;
  /** Why the reflection did not decide (its failure, then the fallback's), when it did not. */
  fallback?: string;
  /** Commands the agent ran on the node. */
  commands: number;
  /** Orders it got (the first and the "go on"s). */
  orders: number;
  /** Which bound ended it, if one did: `steps`, `time`. */
  bound?: 'steps' | 'time';
  ms: number;
}

/** What {@link executeNode} works with besides the node and its agent. */
export interface ExecutionContext {
  bounds: ExecutionBounds;
  /** The reflect role (with a model); without it the rules judge (the node must have typed work). */
  reflect?: (input: ReflectionInput) => Promise<ReflectionResult>;
  /** A teammate by name (a give's recipient). */
  teammate(name: string): TeamMember | undefined;
  /** Any extra words for the order (the node's retrieved task data). */
  context?: string;
  /**
   * Which try of the node this is (1 first). A node given again is a new subtask for the agent:
   * its assignment's id carries the try (`1.2/2`), so a policy that remembers a subtask by its id
   * (the offline policy) starts it afresh.
   */
  attempt?: number;
  /**
   * Has `from` pass on `count` of `item` to `to` (a hand-over a teammate picked up instead of its
   * recipient), when `from` is free; resolves false when it is not (the node is then judged as it stands).
   */
  relay?(from: string, to: string, item: string, count: number): Promise<boolean>;
  signal: AbortSignal;
}

/** One line per journal entry of the node, for the reflection and the state summary. */
export function historyLines(entries: readonly JournalEntry[]): string[] {
  const lines: string[] = [];
  for (const e of entries) {
    if (e.kind === 'outcome') {
      const args = Object.values(e.outcome.args)
        .map((v) => JSON.stringify(v))
        .join(', ');
      lines.push(`${e.outcome.command}(${args}): ${e.outcome.ok ? '' : `[${e.outcome.code}] `}${e.outcome.text.slice(0, 300)}`);
    } else if (e.kind === 'said') lines.push(`said to ${e.to}: ${e.text.slice(0, 300)}`);
  }
  return lines;
}

/** The order that starts a node, in words for a model. */
export function orderText(node: TaskNode, context?: string): string {
  const parts = [`Your subtask ${node.id}: ${node.description}`];
  if (node.milestones.length) parts.push(`Milestones: ${node.milestones.join('; ')}.`);
  if (node.work) parts.push(`Exactly: ${describeWork(node.work)}.`);
  if (context) parts.push(context);
  parts.push('Do only this subtask, with your commands. When it is done, or you cannot go on, say so in one line.');
  return parts.join('\n');
}

/**
 * Executes `node` on `member` (see the module header). Never rejects; the signal ends it as a
 * failure at once.
 */
export async function executeNode(node: TaskNode, member: TeamMember, ctx: ExecutionContext): Promise<NodeOutcome> {
  const started = Date.now();
  const { bounds, signal } = ctx;
  const cursor = member.journal.last;
  const work = node.work;
  const recipient = work?.kind === 'give' ? ctx.teammate(work.to) : undefined;
  const recipientBefore = recipient?.inventory();
  const handedOver: Counts = {};
  /** A hand-over left items on the ground (for the recipient to pick up). */
  let lying = false;
  /** Items of this node's hand-overs that teammates picked up instead: taker → item → count. */
  const taken = new Map<string, Counts>();
  let commands = 0;
  /** When the agent last made progress on the node (see {@link ExecutionBounds.timeFrom}). */
  let progressAt = started;
  /** Of a `collect` or `make` node's targets, how many the agent holds (up to each target's count). */
  const held = (): number => {
    if (work?.kind !== 'collect' && work?.kind !== 'make') return 0;
    const inv = member.inventory();
    return Object.entries(work.targets).reduce((sum, [item, n]) => sum + Math.min(inv[item] ?? 0, n), 0);
  };
  let heldBefore = held();
  let bound: NodeOutcome['bound'];
  let stopping: Promise<void> | undefined;
  const stop = (why: 'steps' | 'time') => {
    bound ??= why;
    stopping ??= member
      .stop(`subtask ${node.id}: its ${why === 'steps' ? `${bounds.maxIterations} steps are` : 'time is'} up`)
      .catch(() => {});
    return stopping;
  };
  const unsubscribe = member.journal.subscribe((entry) => {
    if (entry.kind !== 'outcome') return;
    const handOver = entry.outcome.data?.handOver;
    if (entry.outcome.command === '!givePlayer' && handOver && work?.kind === 'give' && handOver.to === work.to) {
      handedOver[handOver.item] = (handedOver[handOver.item] ?? 0) + handOver.received;
      if (handOver.lying) lying = true;
      for (const [taker, n] of Object.entries(handOver.takenBy)) {
        if (taker === work.to || n <= 0) continue;
        const t = taken.get(taker) ?? {};
        t[handOver.item] = (t[handOver.item] ?? 0) + n;
        taken.set(taker, t);
      }
    }
    if (entry.by !== 'model') return;
    commands++;
    if (entry.outcome.ok || Object.keys(entry.outcome.data?.gained ?? {}).length) progressAt = Date.now();
    if (bounds.maxIterations !== undefined && commands >= bounds.maxIterations) void stop('steps');
  });
  const attempt = ctx.attempt ?? 1;
  const assignment: Assignment = {
    node: attempt > 1 ? `${node.id}/${attempt}` : node.id,
    description: node.description,
    ...(work ? { work } : {}),
  };
  const check = (): WorkCheck | undefined => work && checkWork({ work, member, recipientBefore, handedOver, teammate: ctx.teammate });
  let orders = 0;
  const deadline = () => (bounds.timeFrom === 'progress' ? progressAt : started) + bounds.nodeTimeoutMs;
  const end = (status: 'success' | 'failure', summary: string, fallback?: string): NodeOutcome => ({
    status,
    summary,
    ...(fallback ? { fallback } : {}),
    commands,
    orders,
    ...(bound ? { bound } : {}),
    ms: Date.now() - started,
  });
  try {
    member.assign(assignment);
    let last: WorkCheck | undefined;
    for (;;) {
      const before = commands;
      orders++;
      member.order(
        orders === 1
          ? orderText(node, ctx.context)
          : `Your subtask ${node.id} is not done yet (${last?.detail ?? 'not done'}). Go on with it.`,
      );
      // Counted from progress, the wait looks at the targets held every `poll` ms (one command can
      // gather for minutes before its outcome); progress moves the deadline on.
      const poll = bounds.timeFrom === 'progress' ? Math.min(PROGRESS_POLL_MS, bounds.nodeTimeoutMs / 4) : Infinity;
      let finished = await idleWithin(member, Math.min(deadline() - Date.now(), poll), signal);
      while (!finished && !signal.aborted) {
        const now = held();
        if (now > heldBefore) {
          heldBefore = now;
          progressAt = Date.now();
        }
        const left = deadline() - Date.now();
        if (left <= 0) break;
        finished = await idleWithin(member, Math.min(left, poll), signal);
      }
      if (signal.aborted) return end('failure', 'the run ended first');
      if (!finished) {
        await stop('time');
        await idleWithin(member, bounds.stopGraceMs, signal);
      } else if (stopping) await idleWithin(member, bounds.stopGraceMs, signal);
      if (ctx.reflect) break;
      last = check();
      if (!last) return end('failure', 'nothing to check the node by (no typed work) and no model to reflect');
      if (!last.done && work?.kind === 'give' && taken.size && ctx.relay) {
        // Teammates picked up the hand-over (the nearest one takes a throw): they pass it on, as
        // the offline policy's giver asks them to in its chat play.
        for (const [taker, items] of [...taken]) {
          taken.delete(taker);
          for (const [item, n] of Object.entries(items)) if (await ctx.relay(taker, work.to, item, n)) lying = true;
        }
      }
      if (!last.done && lying) {
        // The items lie by the recipient: its item_collecting mode picks them up.
        await waitFor(() => check()?.done === true, bounds.pickupWaitMs ?? PICKUP_WAIT_MS, signal, 250).catch(() => false);
        lying = false;
        last = check()!;
      }
      if (last.done) return end('success', last.detail);
      const why = bound
        ? `its ${bound === 'steps' ? 'step' : 'time'} bound`
        : commands === before
          ? 'no command on the last order (the agent said it cannot go on)'
          : orders >= bounds.maxOrders
            ? `${orders} orders`
            : undefined;
      if (why) return end('failure', `${last.detail} after ${why}`);
    }
    const entries = member.journal.since(cursor);
    const history = historyLines(entries);
    const inv = member.inventory();
    const pos = member.position();
    const state = `holds ${
      Object.keys(inv).length
        ? Object.entries(inv)
            .map(([k, n]) => `${n} ${k}`)
            .join(', ')
        : 'nothing'
    }${pos ? `; at (${pos.x}, ${pos.y}, ${pos.z})` : ''}`;
    const r = await ctx.reflect({ node, history, state });
    if (signal.aborted) return end('failure', 'the run ended first');
    if (r.ok) return end(r.success ? 'success' : 'failure', r.summary);
    const ruled = check();
    if (ruled) return end(ruled.done ? 'success' : 'failure', ruled.detail, `reflection failed (${r.reason}); the rules judged`);
    return end('failure', `no reflection: ${r.reason}`);
  } finally {
    unsubscribe();
    member.assign(undefined);
  }
}

/** Waits until `member` is idle: true, or false when `ms` pass first (or the signal fires). */
export async function idleWithin(member: TeamMember, ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0 || signal.aborted) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await abortable(Promise.race([member.idle().then(() => true), timeout]), signal).catch(() => false);
  } finally {
    clearTimeout(timer);
  }
}
