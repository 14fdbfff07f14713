/**
 * Coordination strategies: how a team of agents works on a task once it is set up. Every
 * strategy gets the same team (the agents, each already given its part of the task with
 * `setTask`), the same task, and gives the agents their work through their one way in
 * (`Agent.receive`, `setGoal`); the task runner's validator alone decides success, from the world.
 * A strategy reads what its agents did from their journals (typed outcomes), never from chat text.
 */
import type { Agent } from '../agent/agent.ts';
import type { ChatModel } from '../models/types.ts';
import type { Coordination } from '../settings/index.ts';
import type { LoadedTask, Blueprint } from '../tasks/schema.ts';
import type { GraphEvent } from '../tasks/eval/records.ts';

export type { Coordination } from '../settings/index.ts';

/** One task's team, set up and ready to work. */
export interface TeamRun {
  task: LoadedTask;
  /** The task's agents, in agent-index order. */
  agents: readonly Agent[];
  /** Construction: the blueprint as placed in this world. */
  blueprint?: Blueprint | undefined;
  /** Each agent's goal text (MINDcraft's words for the task, see `src/tasks/goals.ts`), by name. */
  goals: Readonly<Record<string, string>>;
  /**
   * The model of the strategy's own roles (planner, assigner, reflection...): the run's model, or
   * undefined when the team plays offline (the oracle): the roles then come from the game's rules.
   */
  planner: ChatModel | undefined;
  /** Check proposed dependency edges against the game's rules (the `rule_checked_edges` setting). */
  ruleChecks: boolean;
  /** Receives every version of the strategy's graph, for `graph.jsonl` and the dashboard. */
  record(event: Omit<GraphEvent, 'type' | 't'>): void;
  /** Fires when the run ends (success, timeout, interruption): the strategy stops. */
  signal: AbortSignal;
  log(line: string): void;
}

/**
 * How a strategy stopped: `gave_up` when its own stop conditions hold (VillagerAgent: too many
 * failed subtasks), with the reason; `stopped` when the run ended first (the signal).
 */
export type StrategyEnd = { kind: 'stopped' } | { kind: 'gave_up'; reason: string };

/** A started strategy. */
export interface StrategyRun {
  /** Settles when the strategy stops (see {@link StrategyEnd}); never rejects. */
  ended: Promise<StrategyEnd>;
}

/** A coordination strategy (see the module comment). */
export interface CoordinationStrategy {
  readonly name: Coordination;
  /**
   * Starts the team on the task: resolves once the team is at work (goals given, first orders
   * out), with how it will end. Keeps the team working until it stops or the signal fires. A
   * failure of its own ends it with `gave_up` and the reason, never a rejection.
   */
  start(team: TeamRun): Promise<StrategyRun>;
}
