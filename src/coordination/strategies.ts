/**
 * How a team works together, selectable per run (the `coordination` setting, `--coordination`):
 * every strategy plays the same tasks with the same bots, commands, validators and records.
 * - `chat` (`./chat.ts`): MINDcraft's goal loops and pairwise chat;
 * - `dag` (`./dag.ts`): VillagerAgent's task graph, controller and state manager;
 * - `causal` (`./causal-strategy.ts`): CausalMACE's causally checked graph and path workers.
 */
import type { Coordination } from '../settings/index.ts';
import { causal } from './causal-strategy.ts';
import { chatStrategy } from './chat.ts';
import { dag } from './dag.ts';
import type { CoordinationStrategy } from './strategy.ts';

export type { CoordinationStrategy, StrategyEnd, StrategyRun, TeamRun } from './strategy.ts';

const STRATEGIES: Record<Coordination, CoordinationStrategy | undefined> = {
  chat: chatStrategy,
  dag,
  causal,
};

/**
 * The strategy called `name`.
 *
 * @throws Error for a strategy this build does not have yet.
 */
export function strategyFor(name: Coordination): CoordinationStrategy {
  const strategy = STRATEGIES[name];
  if (!strategy) throw new Error(`The "${name}" coordination is not available yet; use "chat".`);
  return strategy;
}
