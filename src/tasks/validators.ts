/**
 * Task validators: what "done" means for each MineCollab task `type`, as a small pluggable set.
 *
 * Semantics follow the MineCollab paper (arXiv 2504.17950, §3) and MINDcraft's validators
 * (`src/agent/tasks/tasks.js`, `cooking_tasks.js`, `construction_tasks.js`):
 * - `techtree` (crafting): success when one agent holds every target in its count;
 * - `cooking`: the same, except for Hell's Kitchen tasks, where every agent must hold its own
 *   target (MINDcraft: `task_id` ends with `hells_kitchen` and `target[i]` is agent i's dish);
 * - `collection` (ours, after S-Agents' gathering tasks): success when the team's inventories
 *   together hold every target in its count;
 * - `construction`: the blueprint score, 100 × matching / (matching + mismatching) cells with
 *   cells where blueprint and world are both air skipped; success at 100;
 * - VillagerBench's `villager_construction`, `villager_cooking` and `villager_escape`: see
 *   `./villager/judges.ts`;
 * - any other type has no validator: the run lasts until its timeout and scores 0.
 *
 * Validators are pure functions over a {@link TaskState} (inventories and a block lookup), so they
 * can be tested without a server. Every {@link Validation.score} is a fraction in [0, 1]: crafting
 * and cooking give 1 or 0, construction the blueprint score / 100.
 */
import { checkBlueprint, constructionScore, type BlockLookup } from './blueprint.ts';
import type { Task } from './schema.ts';
import { perAgentTargets, taskTargets } from './loader.ts';
import type { EffectRunner } from './villager/escape.ts';
import { villagerConstructionValidator, villagerCookingValidator, villagerEscapeValidator } from './villager/judges.ts';
import type { StateLookup } from './villager/states.ts';
import type { VillagerSpec } from './villager/spec.ts';

export { perAgentTargets };

/** What a validator may look at, read fresh for every check. */
export interface TaskState {
  /** Each agent's inventory (item name → count), in agent-index order. */
  inventories(): Record<string, number>[];
  /** The world's blocks (as one agent's bot sees them); undefined for blocks it cannot see. */
  lookup: BlockLookup;
  /** The world's blocks with their properties (VillagerBench: orientations, levers, plates). */
  states?: StateLookup;
  /** The agents' names, in agent-index order (VillagerBench cooking: who held an item first). */
  agents?: readonly string[];
  /** The judge's clock (ms; default `Date.now`): VillagerBench's timed escape conditions. */
  now?(): number;
  /** Changes the world for a judge (VillagerBench's escape effects); absent: the judge only reads. */
  runner?: EffectRunner;
}

/** One check's outcome. */
export interface Validation {
  success: boolean;
  /** Fraction in [0, 1]: 1 or 0 for item tasks, the construction score / 100 for construction. */
  score: number;
  /** The scenario's own metrics by name (VillagerBench: `completion`, `vhr`, `acr`, `rooms_done`...). */
  metrics?: Record<string, number>;
  /** What the judgement rests on, for the records (VillagerBench construction: `views`, see `./villager/views.ts`'s `PackedViews`). */
  detail?: Record<string, unknown>;
}

/** Checks a task's state; called every game tick while the task runs. */
export type Validator = (state: TaskState) => Validation;

/** Makes the validator of one task (called once per run). */
export type ValidatorFactory = (task: Task & { id?: string; villager?: VillagerSpec }) => Validator;

/** True when `inventory` holds at least the count of every item of `targets`. */
export function holdsAll(inventory: Record<string, number>, targets: Record<string, number>): boolean {
  return Object.entries(targets).every(([item, n]) => (inventory[item] ?? 0) >= n);
}

/** 1/0 validation from a boolean. */
function binary(success: boolean): Validation {
  return { success, score: success ? 1 : 0 };
}

/** How many of `item` an agent must hold (`number_of_target`, default 1). */
function countOf(task: Task, item: string): number {
  const n = task.number_of_target;
  return typeof n === 'number' ? n : (n?.[item] ?? 1);
}

/** Crafting: one agent holds every target (MINDcraft `checkItemPresence`). */
export const techtreeValidator: ValidatorFactory = (task) => {
  const targets = taskTargets(task);
  return (state) => binary(state.inventories().some((inv) => holdsAll(inv, targets)));
};

/** Cooking: as crafting; Hell's Kitchen: each agent holds its own target. */
export const cookingValidator: ValidatorFactory = (task) => {
  const own = perAgentTargets(task);
  if (!own) return techtreeValidator(task);
  return (state) => {
    const inventories = state.inventories();
    return binary(Object.entries(own).every(([agent, item]) => (inventories[Number(agent)]?.[item] ?? 0) >= countOf(task, item)));
  };
};

/**
 * Collection: the team's inventories together hold every target in its count (S-Agents'
 * "collective collection": the group gathers a specified amount of wood, stone or iron, §IV).
 */
export const collectionValidator: ValidatorFactory = (task) => {
  const targets = taskTargets(task);
  return (state) => {
    const pooled: Record<string, number> = {};
    for (const inv of state.inventories()) for (const [item, n] of Object.entries(inv)) pooled[item] = (pooled[item] ?? 0) + n;
    return binary(holdsAll(pooled, targets));
  };
};

/**
 * Construction: the blueprint score of the world. Success needs a score of 100 with every cell
 * seen (an unseen cell is not counted by the score but could still be wrong).
 *
 * @throws Error when the task has no `blueprint`.
 */
export const constructionValidator: ValidatorFactory = (task) => {
  const { blueprint } = task;
  if (!blueprint) throw new Error(`construction task${task.id ? ` "${task.id}"` : ''} has no blueprint`);
  return (state) => {
    const check = checkBlueprint(blueprint, state.lookup);
    const percent = constructionScore(check);
    return { success: percent === 100 && check.unknown.length === 0, score: percent / 100 };
  };
};

/** The validators by task `type`; add an entry to support a new type. */
export const VALIDATORS: Readonly<Record<string, ValidatorFactory>> = {
  techtree: techtreeValidator,
  cooking: cookingValidator,
  collection: collectionValidator,
  construction: constructionValidator,
  villager_construction: villagerConstructionValidator,
  villager_cooking: villagerCookingValidator,
  villager_escape: villagerEscapeValidator,
};

/** The validator for `task`'s type, or undefined when the type has none (run until timeout, score 0). */
export function validatorFor(task: Task & { id?: string; villager?: VillagerSpec }): Validator | undefined {
  return Object.hasOwn(VALIDATORS, task.type) ? VALIDATORS[task.type]!(task) : undefined;
}
