/**
 * What the offline policy reads for one decision: the facts a prompt gives a model, as data. The
 * agent's state now (inventory, what it sees, its task) and what happened since its last decision
 * (its journal's entries: messages, command outcomes by code and data, conversation notices).
 */
import type { AgentTask } from '../commands/context.ts';
import type { JournalEntry } from '../commands/journal.ts';
import type { Counts } from '../game/production.ts';
import type { Blueprint } from '../tasks/schema.ts';
import type { StateLookup } from '../tasks/villager/states.ts';

export interface Observation {
  name: string;
  inventory: Counts;
  /** Item targets the task gave this agent (item → count); undefined without an item task. */
  targets: Counts | undefined;
  /** The construction blueprint the task gave this agent, if any. */
  blueprint: Blueprint | undefined;
  /**
   * The agent's part of the task as data: its goal text, its teammates, a cooking team's collector,
   * a partner's recipe, what its world supplies, whether the team shares a dish's ingredients out,
   * and under a coordination strategy its current subtask.
   */
  task?:
    | Pick<
        AgentTask,
        'goal' | 'teammates' | 'collector' | 'partnerRecipe' | 'assignment' | 'supplies' | 'escape' | 'materialChests' | 'shareIngredients'
      >
    | undefined;
  /** Where the agent stands (its feet's block), as `!stats` shows it. */
  position?: { x: number; y: number; z: number } | undefined;
  /** The block the agent sees at a position with its properties (a switch's `powered`, a door's `open`); undefined where not loaded. */
  stateAt?: StateLookup | undefined;
  /** Whether this agent may use a command (tasks block some). */
  canUse(command: string): boolean;
  /** The bot this agent is talking with, if any. */
  partner: string | undefined;
  /** Names of the blocks in sight (within 32 blocks, as far as `!craftRecipe` and `!smeltItem` look). */
  blocks: readonly string[];
  /** Names of the blocks farther off or underground that `!collectBlocks` reaches (64 blocks): to dig, not to use. */
  reachable?: readonly string[];
  /** Names of the mobs in sight. */
  mobs: readonly string[];
  /** What happened since the last decision, oldest first (the agent's journal entries). */
  records: readonly JournalEntry[];
}
