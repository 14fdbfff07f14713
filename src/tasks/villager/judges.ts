/**
 * The VillagerBench judges as task validators (`../validators.ts` lists them by type): each reads
 * the world (blocks, inventories) at every check, never the agents' claims, and reports the score
 * as a fraction with its scenario's metrics by name:
 * - `villager_construction`: score = completion; metrics `completion`, `vhr`, `blocks_matched`,
 *   `blocks`; detail `views` (the five views expected and built, packed) and `wrong` (the first
 *   cells that do not match, wanted and actual state); success when every block matches;
 * - `villager_cooking`: score = checkpoint points / 100; metrics `completion`, `points`, `acr`,
 *   `checkpoints`; success when the target's checkpoint is done or the points reach 100;
 * - `villager_escape`: score = the rooms' weighted mean; metrics `completion`, `rooms_done`,
 *   `rooms`; success when every room is done. Its effects go through the state's `runner`.
 */
import { constructionJudge } from './construction.ts';
import { cookingJudge } from './cooking.ts';
import { EscapeJudge, type EffectRunner } from './escape.ts';
import type { VillagerSpec } from './spec.ts';
import type { StateLookup } from './states.ts';
import { packViews } from './views.ts';

/** What the judges read and do: the fields of the task validators' `TaskState` they use. */
export interface JudgeState {
  inventories(): Record<string, number>[];
  states?: StateLookup;
  agents?: readonly string[];
  now?(): number;
  runner?: EffectRunner;
}

/** One judgement: the validators' `Validation`. */
export interface Judgement {
  success: boolean;
  score: number;
  metrics?: Record<string, number>;
  detail?: Record<string, unknown>;
}

/** A task as a judge factory takes it. */
interface TaskOf {
  id?: string;
  villager?: VillagerSpec;
}
/** Makes a judge for one task (called once per run). */
type JudgeFactory = (task: TaskOf) => (state: JudgeState) => Judgement;

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const notYet: Judgement = { success: false, score: 0 };

/** @throws Error when the task is not of `scenario`. */
function specOf<S extends VillagerSpec['scenario']>(task: TaskOf, scenario: S) {
  const v = task.villager;
  if (v?.scenario !== scenario) throw new Error(`task${task.id ? ` "${task.id}"` : ''} is not a VillagerBench ${scenario} task`);
  return v as Extract<NonNullable<typeof v>, { scenario: S }>;
}

/** Construction: completion and VHR (`./construction.ts`, `./views.ts`). */
export const villagerConstructionValidator: JudgeFactory = (task) => {
  const judge = constructionJudge(specOf(task, 'construction').blocks);
  return (state: JudgeState) => {
    const check = state.states && judge(state.states);
    if (!check) return notYet;
    return {
      success: check.matched === check.total,
      score: check.completion,
      metrics: { completion: round(check.completion), vhr: round(check.vhr), blocks_matched: check.matched, blocks: check.total },
      detail: { views: packViews(check.views), ...(check.wrong.length ? { wrong: check.wrong } : {}) },
    };
  };
};

/** Cooking: checkpoint points and ACR (`./cooking.ts`). */
export const villagerCookingValidator: JudgeFactory = (task) => {
  const { farm } = specOf(task, 'cooking');
  let judge: ReturnType<typeof cookingJudge> | undefined;
  return (state: JudgeState) => {
    const inventories = state.inventories();
    judge ??= cookingJudge(farm, state.agents ?? inventories.map((_, i) => String(i)));
    const check = judge(inventories);
    return {
      success: check.targetDone || check.points >= 100,
      score: check.points / 100,
      metrics: { completion: round(check.points / 100), points: check.points, acr: round(check.acr), checkpoints: check.counted.length },
    };
  };
};

/**
 * Escape: the rooms' scores (`./escape.ts`).
 *
 * @throws Error when the task's rooms have not been laid out (`villager.chain`, set by the set-up).
 */
export const villagerEscapeValidator: JudgeFactory = (task) => {
  const { chain } = specOf(task, 'escape');
  if (!chain) throw new Error(`escape task "${task.id ?? ''}" has no rooms laid out yet: its set-up chains them`);
  const judge = new EscapeJudge(chain);
  return (state: JudgeState) => {
    if (!state.states) return notYet;
    const check = judge.check(state.states, state.runner ?? { command: () => {} }, state.now?.() ?? Date.now());
    return {
      success: check.escaped,
      score: check.score,
      metrics: { completion: round(check.score), rooms_done: check.done, rooms: check.rooms.length },
    };
  };
};
