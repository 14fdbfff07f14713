/**
 * Run records: the event stream of one task run (model requests and replies, commands, messages),
 * the sink that counts it, and the result line every run ends with.
 *
 * One sink ({@link RunEventSink}) receives every event of a run; {@link RunRecorder} is the sink
 * the task runner uses: it counts messages, commands, requests and tokens per agent and passes
 * each event on (to the run's folder, or to a live page).
 *
 * Files of a run folder (`<out>/runs/<run folder>/`, see `src/app/run-folder.ts`):
 * - `requests/<agent>.jsonl` — one {@link RequestEvent} per model call: system prompt, turns,
 *   reply, token usage;
 * - `commands.jsonl` — one {@link CommandEvent} per command, with its start time and duration;
 * - `messages.jsonl` — one {@link MessageEvent} per message sent or received;
 * - `inventories.json` — each agent's final inventory (item → count);
 * - `blueprint-diff.txt` — construction only: what still differs from the blueprint;
 * - `graph.jsonl` — graph strategies only: one {@link GraphEvent} per version of the task graph;
 * - `result.json` — the {@link RunResult}.
 */
import { z } from 'zod';
import type { CoordinationRole } from '../../models/types.ts';
import { costOf, priceFor, type PriceTable, type TokenCounts } from './prices.ts';

/** A chat turn as the model saw it. */
export interface RecordedTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** One model call. */
export interface RequestEvent {
  type: 'request';
  /** When the call started (ms since the epoch). */
  t: number;
  agent: string;
  /** `provider/model` or `oracle`. */
  model: string;
  /**
   * What the call was for: `conversing` (the agent's model loop), `respond` (respond-or-ignore
   * while acting), `memory` (a summary of old turns), `coding` (`!newAction`), `vision` (describing the bot's view), a
   * coordination strategy's role (`decompose`, `assign`, `reflect`, `summarise`, `dependency`,
   * `counterfactual`: the planner's calls, made on agent 0's model); `other` when the caller did not say.
   */
  purpose: 'conversing' | 'respond' | 'memory' | 'coding' | 'vision' | 'other' | CoordinationRole;
  /** The static part of the prompt (the same on every call of the agent). */
  system: string;
  /** The live part (the agent's state then), sent after the turns; absent when the call had none. */
  live?: string;
  turns: RecordedTurn[];
  /** Names of the tools offered (native tool calling). */
  tools?: string[];
  maxTokens?: number;
  /** The reply as the agent got it (tool calls rendered as command text; reasoning removed). */
  reply?: string;
  /** The reasoning the reply carried (`<think>` blocks or the provider's reasoning field), kept out of `reply`. */
  reasoning?: string;
  /** Why the call failed, when it did. */
  error?: string;
  /** Tokens from the provider's usage fields; absent when it reported none. */
  usage?: TokenCounts;
  /** Duration of the call (ms). */
  ms: number;
}

/** One command run by an agent (by its model or a player). */
export interface CommandEvent {
  type: 'command';
  /** When it started (ms since the epoch). */
  t: number;
  agent: string;
  /** The call as text, e.g. `!givePlayer("Jill", "paper", 1)`. */
  command: string;
  kind: 'query' | 'action';
  /** False when it failed: a failed outcome, or it threw (an error, its time bound, an interruption). */
  ok: boolean;
  /** Its outcome code (one of `OUTCOME_CODES` in `src/skills/outcome.ts`: `ok`, `not_found`, ...). */
  code?: string;
  /** Its report, or the error's message. */
  output: string;
  ms: number;
}

/** One message an agent sent or received: with another bot, or with a player in chat. */
export interface MessageEvent {
  type: 'message';
  t: number;
  agent: string;
  direction: 'sent' | 'received';
  /** The other bot or player; `*` for public chat sent to everyone. */
  peer: string;
  channel: 'bot' | 'whisper' | 'public';
  text: string;
}

/** The run's phases: set-up begins, play begins (goals given), the run ends. */
export interface PhaseEvent {
  type: 'phase';
  t: number;
  phase: 'setup' | 'play' | 'end';
  /** The end's reason and score. */
  detail?: string;
}

/** A node of a coordination strategy's task graph, as a graph event records it. */
export interface GraphNodeRecord {
  id: string;
  description: string;
  status: 'unknown' | 'running' | 'success' | 'failure';
  /** Agents that may do it, and those doing or done with it. */
  candidates: string[];
  assigned: string[];
  /** Agents it needs at once. */
  number: number;
  predecessors: string[];
  /** What the reflection said of it, once done. */
  feedback?: string;
  /** Its typed work in words (`give 2 wheat to Jill`), when it has one. */
  work?: string;
}

/** An edge of a task graph: where it came from, and whether a check removed it. */
export interface GraphEdgeRecord {
  from: string;
  to: string;
  /** Proposed by the planner (`llm`), made by the graph's own algorithm, or added or removed by a check. */
  origin: 'llm' | 'algorithm' | 'rule_added' | 'rule_removed' | 'ate_removed';
  removed?: boolean;
  /** The rule or intervention result behind it, when one added or removed it. */
  reason?: string;
}

/** One version of a coordination strategy's graph (`graph.jsonl`): every node, edge, status and assignment. */
export interface GraphEvent {
  type: 'graph';
  t: number;
  /** The strategy (`dag`, `causal`, ...). */
  strategy: string;
  /** Bumped at every change of the graph. */
  version: number;
  /** What changed, e.g. `decomposed (round 2)`, `assigned n3 to Jill`, `n3 success`. */
  change: string;
  nodes: GraphNodeRecord[];
  edges: GraphEdgeRecord[];
  /** S-Agents' strategies (`tree`, `chain`, `graph`): the organisation, its orders and reports. */
  organisation?: OrganisationRecord;
}

/** One message of S-Agents' group records (`{time, speaker, respondent, message}`, §III-B.1). */
export interface GroupMessageRecord {
  /** When it was sent, ms since the epoch. */
  time: number;
  speaker: string;
  respondent: string;
  message: string;
  /** An order (or a hop of a relayed one), a report, or an order the guard refused (never delivered). */
  kind: 'order' | 'report' | 'refused';
}

/** An S-Agents run's organisation as a graph event records it. */
export interface OrganisationRecord {
  kind: 'tree' | 'chain' | 'graph';
  root: string;
  /** Who may command whom. */
  edges: { commander: string; subordinate: string }[];
  /** Hourglass iterations (planning passes) per agent so far: S-Agents' mPT is their mean. */
  planning: Record<string, number>;
  /** Orders given, reports received, orders refused by the guard, so far. */
  orders: number;
  reports: number;
  refused: number;
  /** When a subtask last succeeded (ms since the epoch), for S-Agents' "NaN" rule. */
  lastProgress?: number;
  /** The group's messages since the previous version (each message is recorded once). */
  messages: GroupMessageRecord[];
}

/** Everything a run reports while it runs. */
export type RunEvent = RequestEvent | CommandEvent | MessageEvent | PhaseEvent | GraphEvent;

/** Where run events go. Implementations must not throw. */
export interface RunEventSink {
  emit(event: RunEvent): void;
}

/** Per-agent counts of a run. */
export interface AgentStats {
  /** `provider/model` or `oracle`. */
  model: string;
  messages_sent: number;
  messages_received: number;
  commands_run: number;
  commands_failed: number;
  /** Model calls. */
  requests: number;
  /** Model calls that failed. */
  request_errors: number;
  tokens: { input: number; cached: number; cache_write: number; output: number };
  /** US dollars by the price table; 0 without tokens; null when the model used tokens but has no price. */
  cost_usd: number | null;
}

/** Model use of one kind: calls and tokens. */
export interface Usage {
  calls: number;
  input: number;
  output: number;
}

/**
 * What a run's metrics are computed from (`RunRecorder.metricsInput`), gathered as the events pass.
 * Bounded by the run: one entry per command, per agent and purpose, and the last graph.
 */
export interface MetricsInput {
  /** Every command: agent, start (ms since the epoch), duration (ms), kind. */
  commands: { agent: string; t: number; ms: number; kind: 'query' | 'action' }[];
  /** Model use by agent, then by the request's purpose (`conversing`, `decompose`, …). */
  requests: Record<string, Record<string, Usage>>;
  /** Messages sent (to bots, whispers, public chat), per agent. */
  messagesSent: Record<string, number>;
  /** The last version of a graph strategy's graph, if any. */
  graph?: GraphEvent;
}

/**
 * Counts a run's events per agent and passes each one on.
 *
 * @example
 * const recorder = new RunRecorder({ Andy: 'oracle' }, { forward: (e) => folder.write(e) });
 * recorder.emit({ type: 'command', t: Date.now(), agent: 'Andy', command: '!inventory', kind: 'query', ok: true, output: '…', ms: 3 });
 * recorder.stats('Andy').commands_run; // 1
 */
export class RunRecorder implements RunEventSink {
  readonly #stats = new Map<string, AgentStats>();
  readonly #metrics: MetricsInput = { commands: [], requests: {}, messagesSent: {} };
  readonly #forward: ((event: RunEvent) => void) | undefined;
  readonly #prices: Readonly<PriceTable>;

  /**
   * @param models agent name → model id, for the agents known up front (others are added as
   *   their events arrive).
   * @param options `forward` gets every event after counting (its errors are ignored); `prices`
   *   overrides the built-in price table.
   */
  constructor(models: Record<string, string> = {}, options: { forward?: (event: RunEvent) => void; prices?: Readonly<PriceTable> } = {}) {
    this.#forward = options.forward;
    this.#prices = options.prices ?? {};
    for (const [agent, model] of Object.entries(models)) this.#entry(agent).model = model;
  }

  emit(event: RunEvent): void {
    if (event.type === 'request') {
      const s = this.#entry(event.agent);
      s.model = event.model;
      s.requests++;
      if (event.error) s.request_errors++;
      if (event.usage) {
        s.tokens.input += event.usage.input;
        s.tokens.cached += event.usage.cached;
        s.tokens.cache_write += event.usage.cacheWrite;
        s.tokens.output += event.usage.output;
      }
      const byPurpose = (this.#metrics.requests[event.agent] ??= {});
      const u = (byPurpose[event.purpose] ??= { calls: 0, input: 0, output: 0 });
      u.calls++;
      u.input += event.usage?.input ?? 0;
      u.output += event.usage?.output ?? 0;
    } else if (event.type === 'command') {
      const s = this.#entry(event.agent);
      s.commands_run++;
      if (!event.ok) s.commands_failed++;
      this.#metrics.commands.push({ agent: event.agent, t: event.t, ms: event.ms, kind: event.kind });
    } else if (event.type === 'message') {
      const s = this.#entry(event.agent);
      if (event.direction === 'sent') {
        s.messages_sent++;
        this.#metrics.messagesSent[event.agent] = (this.#metrics.messagesSent[event.agent] ?? 0) + 1;
      } else s.messages_received++;
    } else if (event.type === 'graph') {
      this.#metrics.graph = event;
    }
    try {
      this.#forward?.(event);
    } catch {
      // a failing writer must not break the run; the counts stay right
    }
  }

  /** What the run's metrics are computed from, so far (a copy). */
  metricsInput(): MetricsInput {
    return structuredClone(this.#metrics);
  }

  /** The counts of `agent` so far, with its cost (zeros for an agent with no events). */
  stats(agent: string): AgentStats {
    const s = this.#entry(agent);
    const price = priceFor(s.model, this.#prices);
    const tokens: TokenCounts = {
      input: s.tokens.input,
      cached: s.tokens.cached,
      cacheWrite: s.tokens.cache_write,
      output: s.tokens.output,
    };
    const none = tokens.input === 0 && tokens.output === 0;
    return { ...s, tokens: { ...s.tokens }, cost_usd: none ? 0 : price ? roundUsd(costOf(tokens, price)) : null };
  }

  #entry(agent: string): AgentStats {
    let s = this.#stats.get(agent);
    if (!s) {
      s = {
        model: 'unknown',
        messages_sent: 0,
        messages_received: 0,
        commands_run: 0,
        commands_failed: 0,
        requests: 0,
        request_errors: 0,
        tokens: { input: 0, cached: 0, cache_write: 0, output: 0 },
        cost_usd: 0,
      };
      this.#stats.set(agent, s);
    }
    return s;
  }
}

/** Dollars rounded to a millionth of a dollar (cost lines stay short, sums stay exact enough). */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

/** Why a run ended. `interrupted` runs (Ctrl-C) are never written to results.jsonl. */
/**
 * Why a run ended: the task was done, its time ran out, an agent was missing (MINDcraft's rule),
 * an error, an interruption, or the coordination strategy gave up by its own stop conditions.
 */
export const END_REASONS = ['success', 'timeout', 'missing_agent', 'error', 'interrupted', 'gave_up'] as const;
export type EndReason = (typeof END_REASONS)[number];

const tokensSchema = z.object({ input: z.number(), cached: z.number(), cache_write: z.number(), output: z.number() });

const agentStatsSchema = z.object({
  model: z.string(),
  messages_sent: z.number(),
  messages_received: z.number(),
  commands_run: z.number(),
  commands_failed: z.number(),
  requests: z.number(),
  request_errors: z.number(),
  tokens: tokensSchema,
  cost_usd: z.number().nullable(),
});

const usageSchema = z.object({ calls: z.number(), input: z.number(), output: z.number() });

/**
 * The metrics of a run (the result line's `metrics`; see `src/coordination/metrics.ts`, where each
 * is defined with its source). Times in ms; fractions in [0, 1].
 */
export const runMetricsSchema = z.looseObject({
  /** The task score (VillagerAgent C, CausalMACE CR). */
  completion: z.number(),
  /** Completion per minute of play (VillagerAgent E). */
  efficiencyPerMinute: z.number(),
  /** Completion per minute of summed agent time (CausalMACE eq. 6). */
  efficiencyPerAgentMinute: z.number(),
  /** Each agent's active time: the union of its commands' intervals. */
  activeMs: z.record(z.string(), z.number()),
  /** VillagerAgent's B as the paper writes it; its code's variant; CausalMACE's BS. Null under 2 agents. */
  balance: z.number().nullable(),
  balanceCode: z.number().nullable(),
  balanceBS: z.number().nullable(),
  /** VillagerAgent's token cost (Table 4). */
  tokenCost: z.number(),
  outputTokens: z.number(),
  /** Calls and tokens by role (`decompose` … `counterfactual`; `act`: the agents' own calls). */
  tokensByRole: z.record(z.string(), usageSchema),
  /** The agents' own calls and tokens, by agent. */
  tokensByAgent: z.record(z.string(), usageSchema),
  modelCalls: z.number(),
  /** Planning iterations per agent (its conversing model calls) and their mean (S-Agents' mPT). */
  planning: z.object({ perAgent: z.record(z.string(), z.number()), mean: z.number() }),
  /** Messages the agents sent (to each other and in chat). */
  messages: z.number(),
  /** Action commands run. */
  actions: z.number(),
  /** The run's play time (goals given to the end). */
  wallMs: z.number(),
  /**
   * S-Agents' time cost (§IV a), minutes: the play time of a run that succeeded, else "NaN" (its
   * runs count as failed when there is no progress for 40 minutes after more than 5 attempts).
   */
  timeCostMinutes: z.union([z.number(), z.literal('NaN')]).optional(),
  /** S-Agents' strategies: the organisation's orders, reports and refused orders. */
  organisation: z.object({ kind: z.string(), orders: z.number(), reports: z.number(), refused: z.number(), mPT: z.number() }).optional(),
  /** Graph strategies: the last graph in numbers, and whether the rules checked its edges. */
  graph: z
    .object({
      rule_checked_edges: z.boolean(),
      nodes: z.record(z.string(), z.number()),
      /** Edges by origin: active ones (llm, algorithm, rule_added) and removed ones (rule_removed, ate_removed). */
      edges: z.record(z.string(), z.number()),
      versions: z.number(),
      /** Node executions per agent. */
      executions: z.record(z.string(), z.number()),
    })
    .optional(),
});
export type RunMetricsRecord = z.infer<typeof runMetricsSchema>;

/**
 * The result line of one run (one JSON object; `npm run task` prints it, an evaluation appends it
 * to `results.jsonl`). Fields of the task's generator metadata (`depth`, `missing_items`,
 * `blocked_actions`, `plan_access`, `restrict_to_inventory`) are present only when the task has them.
 */
export const runResultSchema = z.looseObject({
  /** `<file key>/<task id>/<episode>` (see `src/tasks/eval/campaign.ts`). */
  run_id: z.string(),
  task_id: z.string(),
  /** The task file as given. */
  task_file: z.string(),
  /** 1-based repetition of this task in the evaluation. */
  episode: z.number().int().min(1),
  type: z.string(),
  agent_count: z.number().int(),
  human_count: z.number().int(),
  depth: z.number().optional(),
  missing_items: z.array(z.string()).optional(),
  /** The task's own blocked commands per agent index (only agents with some). */
  blocked_actions: z.record(z.string(), z.array(z.string())).optional(),
  /** Who may read the plan or recipe: every agent, some, or none. */
  plan_access: z.enum(['full', 'partial', 'none']).optional(),
  restrict_to_inventory: z.boolean().optional(),
  /** How the team worked together (`chat`, `dag`, `causal`...; see src/coordination/). Older records: `chat`. */
  coordination: z.string().default('chat'),
  /**
   * The world played in, when it is a survival world (crafting and collection tasks): its seed,
   * the task's spot (agent 0's stand, blocks) and whether that spot holds all the task needs.
   */
  world: z
    .object({
      kind: z.literal('survival'),
      seed: z.number().int(),
      spot: z.object({ x: z.number(), y: z.number(), z: z.number(), biome: z.string() }),
      holds_needs: z.boolean(),
    })
    .optional(),
  /**
   * A fraction in [0, 1]. Crafting and cooking: 1 when done, else 0. Construction: the blueprint
   * score / 100 when the run ended. Types without a validator, a missing agent: 0.
   */
  score: z.number(),
  success: z.boolean(),
  end_reason: z.enum(END_REASONS),
  /** What went wrong (missing agent, error). */
  error: z.string().optional(),
  /** Why the task cannot be done, when an agent's policy found so (it said so once in chat). */
  unsolvable: z.string().optional(),
  /** The run's timeout (s): the task's own, or `--max-timeout` when lower. */
  timeout_s: z.number().optional(),
  /** Wall time of the whole run: server and bots start-up, set-up and play (s). */
  duration_s: z.number(),
  /** Start-up and set-up: until the goals were given (s). */
  setup_s: z.number(),
  /** From the goals to the end (s). */
  play_s: z.number(),
  /** ISO time the run started. */
  started_at: z.string(),
  agents: z.array(z.string()),
  /** Agent → `provider/model` (or `oracle`). */
  models: z.record(z.string(), z.string()),
  /** The goal each agent's goal loop was started with. */
  goals: z.record(z.string(), z.string()),
  /** Commands each agent ran, in order. */
  commands: z.record(z.string(), z.array(z.string())),
  per_agent: z.record(z.string(), agentStatsSchema),
  messages_sent: z.number(),
  messages_received: z.number(),
  commands_run: z.number(),
  commands_failed: z.number(),
  requests: z.number(),
  tokens: tokensSchema,
  /** US dollars by the price table; null when some model has no price. */
  cost_usd: z.number().nullable(),
  /** The run's metrics (older records have none). */
  metrics: runMetricsSchema.optional(),
  /**
   * What the task's judge rested its last judgement on, when it says (VillagerBench construction:
   * `views`, the five views expected and built: `src/tasks/villager/views.ts`'s `PackedViews`).
   */
  judged: z.record(z.string(), z.unknown()).optional(),
});
export type RunResult = z.infer<typeof runResultSchema>;

/** The totals of a run's per-agent counts (the top-level count fields of {@link RunResult}). */
export function totals(
  perAgent: Record<string, AgentStats>,
): Pick<RunResult, 'messages_sent' | 'messages_received' | 'commands_run' | 'commands_failed' | 'requests' | 'tokens' | 'cost_usd'> {
  const all = Object.values(perAgent);
  const sum = (f: (s: AgentStats) => number) => all.reduce((a, s) => a + f(s), 0);
  return {
    messages_sent: sum((s) => s.messages_sent),
    messages_received: sum((s) => s.messages_received),
    commands_run: sum((s) => s.commands_run),
    commands_failed: sum((s) => s.commands_failed),
    requests: sum((s) => s.requests),
    tokens: {
      input: sum((s) => s.tokens.input),
      cached: sum((s) => s.tokens.cached),
      cache_write: sum((s) => s.tokens.cache_write),
      output: sum((s) => s.tokens.output),
    },
    cost_usd: all.some((s) => s.cost_usd === null) ? null : roundUsd(sum((s) => s.cost_usd ?? 0)),
  };
}

/**
 * Parses `results.jsonl` text: one {@link RunResult} per non-empty line. A run recorded twice
 * (a resumed evaluation that re-ran it) counts once, the last line winning.
 *
 * @throws Error naming the line number of a line that is not a valid result.
 */
export function parseResults(text: string, file = 'results.jsonl'): RunResult[] {
  const byId = new Map<string, RunResult>();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = runResultSchema.safeParse(value);
    if (!parsed.success)
      throw new Error(
        `${file}:${i + 1}: not a run result (${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')})`,
      );
    byId.set(parsed.data.run_id, parsed.data);
  });
  return [...byId.values()];
}
