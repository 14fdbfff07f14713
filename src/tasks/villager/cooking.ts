/**
 * VillagerBench's farm-to-table cooking (Dong et al. 2024, §3 and Appendix B.2): a team makes a
 * dish (cake, rabbit stew, ...) from ingredients in a chest, on a farm, in a pasture or in a mine,
 * scored by checkpoints.
 *
 * The format (VillagerBench's farm files): a JSON list of tasks
 * `{ name, target, <ingredient>: "<item> in chest | farm | pasture | mine", ...,
 *    component: [{ name, type: "block" | "structure", position: [x, y, z], facing?, items?: [{ name, count }] }],
 *    check_point: [{ name, count, score, sub_check_point: [names] }] }`.
 * A task's id is its `name`. Component positions are relative to the task's centre; a `structure`
 * is one of the named farm buildings (`./structures.ts`). Ours, optional: `agents` (the team size
 * a generated task was made for) and `description`.
 *
 * Judged from the agents' inventories every tick (VillagerAgent Appendix A.4, A.5):
 * - a checkpoint is done once one agent holds `count` of it, and stays done;
 * - score = Σ of the done checkpoints' scores, leaving out the sub-checkpoints of every done
 *   checkpoint (and theirs, down the tree), at most 100;
 * - ACR: each checkpoint item counts for the agent that held it first; with σ the standard
 *   deviation of those counts over the agents, σmax that of one agent holding them all and σmin
 *   that of the most even split, ACR = 1 − (σ − σmin) / (σmax − σmin) (eq. 8–9); 0 before anyone
 *   holds any, 1 when σmax = σmin (one agent, or one item).
 *
 * Time budget: the papers give none for cooking; ours follows VillagerAgent Appendix A.6 (eq. 10):
 * D = Σ over the ingredients of (1 + the steps to get it from its source, {@link sourceSteps}),
 * action time 40 · D s, whole run 200 · D s.
 */
import { z } from 'zod';
import type { TimeBudget } from './construction.ts';

const int = z.number().int();

/** Where an ingredient comes from. */
export const SOURCE_PLACES = ['chest', 'farm', 'pasture', 'mine'] as const;
export type SourcePlace = (typeof SOURCE_PLACES)[number];

/** `"<item> in <place>"`, e.g. `"rabbit in pasture"`. */
const SOURCE_TEXT = /^([a-z0-9_]+) in (chest|farm|pasture|mine)$/;

const itemStack = z.strictObject({ name: z.string().min(1), count: int.min(1) });

/** One component: a block (a chest with its items, a crafting table) or a named structure. */
export const farmComponentSchema = z.strictObject({
  name: z.string().min(1),
  type: z.enum(['block', 'structure']),
  position: z.tuple([int, int, int]),
  facing: z.enum(['north', 'south', 'west', 'east']).optional(),
  items: z.array(itemStack).optional(),
});
export type FarmComponent = z.infer<typeof farmComponentSchema>;

/** One checkpoint: an item to hold, how many, its score and the checkpoints it supersedes once done. */
export const checkPointSchema = z.strictObject({
  name: z.string().min(1),
  count: int.min(1),
  score: z.number().min(0),
  sub_check_point: z.array(z.string().min(1)).default([]),
});
export type CheckPoint = z.infer<typeof checkPointSchema>;

const KNOWN_KEYS = new Set(['name', 'target', 'component', 'check_point', 'agents', 'description']);

/**
 * One farm task. Every other key names an ingredient and must be a source (`"<item> in <place>"`);
 * sub-checkpoints must name checkpoints of the task.
 */
export const farmTaskSchema = z
  .looseObject({
    name: z.string().min(1),
    target: z.string().min(1),
    component: z.array(farmComponentSchema).default([]),
    check_point: z.array(checkPointSchema).min(1),
    agents: int.min(1).max(20).optional(),
    description: z.string().optional(),
  })
  .superRefine((task, ctx) => {
    for (const [key, value] of Object.entries(task)) {
      if (KNOWN_KEYS.has(key)) continue;
      if (typeof value !== 'string' || !SOURCE_TEXT.test(value))
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `an ingredient source such as "${key} in chest" (places: ${SOURCE_PLACES.join(', ')})`,
          input: value,
        });
    }
    const names = new Set(task.check_point.map((c) => c.name));
    task.check_point.forEach((c, i) =>
      c.sub_check_point.forEach((sub, j) => {
        if (!names.has(sub))
          ctx.addIssue({
            code: 'custom',
            path: ['check_point', i, 'sub_check_point', j],
            message: `the name of one of the task's checkpoints (${[...names].join(', ')})`,
            input: sub,
          });
      }),
    );
  });
export type FarmTask = z.infer<typeof farmTaskSchema>;

/** A farm file: a list of tasks. */
export const farmFileSchema = z.array(farmTaskSchema).min(1, 'at least one farm task');

/** One ingredient and where it comes from. */
export interface IngredientSource {
  ingredient: string;
  item: string;
  place: SourcePlace;
}

/** The task's ingredient fields, in file order. */
export function ingredientSources(task: FarmTask): IngredientSource[] {
  const out: IngredientSource[] = [];
  for (const [key, value] of Object.entries(task)) {
    if (KNOWN_KEYS.has(key) || typeof value !== 'string') continue;
    const m = SOURCE_TEXT.exec(value);
    if (m) out.push({ ingredient: key, item: m[1]!, place: m[2] as SourcePlace });
  }
  return out;
}

/**
 * Steps between a source and its ingredient: 0 for the ingredient itself in a chest; 1 more when
 * it is another item (sugar cane for sugar, hay for wheat); 1 more when it must be gathered
 * (farm, pasture, mine) rather than taken.
 */
export function sourceSteps(source: IngredientSource): number {
  return (source.item === source.ingredient ? 0 : 1) + (source.place === 'chest' ? 0 : 1);
}

/** The task's dependency complexity D (see the module comment). */
export function cookingComplexity(task: FarmTask): number {
  return ingredientSources(task).reduce((c, s) => c + 1 + sourceSteps(s), 0);
}

/** The cooking budget of complexity D (at least 1): action 40 · D s, total 200 · D s. */
export function cookingBudget(complexity: number): TimeBudget {
  const c = Math.max(complexity, 1);
  return { complexity, actionS: 40 * c, totalS: 200 * c };
}

/**
 * The checkpoints counted when `done` are done: the done ones, less the sub-checkpoints (and
 * theirs, down the tree) of every done one.
 */
export function countedCheckpoints(checkpoints: readonly CheckPoint[], done: ReadonlySet<string>): CheckPoint[] {
  const byName = new Map(checkpoints.map((c) => [c.name, c]));
  const suppressed = new Set<string>();
  for (const name of done) {
    const stack = [...(byName.get(name)?.sub_check_point ?? [])];
    while (stack.length) {
      const sub = stack.pop()!;
      if (suppressed.has(sub)) continue;
      suppressed.add(sub);
      stack.push(...(byName.get(sub)?.sub_check_point ?? []));
    }
  }
  return checkpoints.filter((c) => done.has(c.name) && !suppressed.has(c.name));
}

/** Population standard deviation. */
function std(xs: readonly number[]): number {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
}

/**
 * The agent contribution rate of per-agent counts (see the module comment).
 *
 * @example contributionRate([3, 1]) // 0.5: σ = 1, σmax = σ([4, 0]) = 2, σmin = σ([2, 2]) = 0
 */
export function contributionRate(counts: readonly number[]): number {
  const total = counts.reduce((s, n) => s + n, 0);
  if (total === 0) return 0;
  const n = counts.length;
  const max = std(counts.map((_, i) => (i === 0 ? total : 0)));
  const min = std(counts.map((_, i) => Math.floor(total / n) + (i < total % n ? 1 : 0)));
  if (max === min) return 1;
  return Math.min(1, Math.max(0, 1 - (std(counts) - min) / (max - min)));
}

/** One check of the cooking judge. */
export interface CookingCheck {
  /** Checkpoint points, at most 100. */
  points: number;
  /** Checkpoints counted (done and not superseded), by name. */
  counted: string[];
  /** Per agent: the checkpoint items it held first. */
  firsts: Record<string, string[]>;
  /** Agent contribution rate, in [0, 1]. */
  acr: number;
  /** The target's checkpoint is done. */
  targetDone: boolean;
}

/**
 * The cooking judge of one run: fed each agent's inventory (agents by name, in team order) at
 * every check, it keeps which checkpoints are done and who held each checkpoint item first.
 */
export function cookingJudge(task: FarmTask, agents: readonly string[]): (inventories: readonly Record<string, number>[]) => CookingCheck {
  const done = new Set<string>();
  const firstHolder = new Map<string, string>();
  return (inventories) => {
    inventories.forEach((inv, i) => {
      const agent = agents[i] ?? String(i);
      for (const c of task.check_point) {
        const have = inv[c.name] ?? 0;
        if (have > 0 && !firstHolder.has(c.name)) firstHolder.set(c.name, agent);
        if (have >= c.count) done.add(c.name);
      }
    });
    const counted = countedCheckpoints(task.check_point, done);
    const points = Math.min(
      100,
      counted.reduce((s, c) => s + c.score, 0),
    );
    const firsts: Record<string, string[]> = Object.fromEntries(agents.map((a) => [a, [] as string[]]));
    for (const [item, agent] of firstHolder) (firsts[agent] ??= []).push(item);
    return {
      points,
      counted: counted.map((c) => c.name),
      firsts,
      acr: contributionRate(Object.values(firsts).map((items) => items.length)),
      targetDone: done.has(task.target),
    };
  };
}
