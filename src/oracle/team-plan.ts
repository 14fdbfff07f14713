/**
 * Splitting an item task (crafting or cooking) among a team: who makes what, and who hands over
 * which items to whom. Pure: every agent computes the same plan from the same statuses, whatever
 * order it learnt them in.
 *
 * The rule: a job without a fixed worker goes to the member who may make it and needs the fewest
 * items moved to it (ties: the first name in alphabetical order). Items are then taken from the
 * worker's own inventory first, then from the other members in name order, with a tool the
 * worker's gathering needs and lacks (a teammate's pickaxe). Items the world gives (logs, crops,
 * meat) are gathered by the worker, not handed over.
 */
import { type GameData, type Recipe, recipeIngredients, recipeResultCount } from '../game/data.ts';
import {
  addCounts,
  type Counts,
  formatCounts,
  planProduction,
  type ProductionPlan,
  type ProductionSources,
  type ProductionStep,
  usableRecipes,
} from '../game/production.ts';

/** What the team knows of one member (from its status message, or its own view). */
export interface Member {
  name: string;
  inventory: Counts;
  /** May use `!craftRecipe`. */
  canCraft: boolean;
  /** May use `!givePlayer`. */
  canGive: boolean;
  /** May gather from the world (`!collectBlocks`, `!attack`). */
  canGather: boolean;
}

/** Something to make: `count` × `target`, by `worker` when the task fixes who (Hell's Kitchen). */
export interface Job {
  target: string;
  count: number;
  worker?: string;
  /** The teammate the made items are handed to (a helper's share of a worker's gathering, see {@link withHelpers}). */
  for?: string;
}

/** A job with its worker. */
export type PlannedJob = Job & { worker: string };

export interface Transfer {
  from: string;
  to: string;
  item: string;
  count: number;
}

export interface TeamPlan {
  /** Every job with its worker. */
  jobs: PlannedJob[];
  /** Hand-overs, in the order to make them. */
  transfers: Transfer[];
  /** Why the task cannot be done, when it cannot. */
  unsolvable?: string;
}

/**
 * Plans `jobs` for `members`. Jobs without a worker are made by one member together.
 *
 * @param sources what the world gives (the same for every member: they stand together).
 */
export function planTeam(data: GameData, members: readonly Member[], jobs: readonly Job[], sources: ProductionSources): TeamPlan {
  const team = [...members].sort((a, b) => a.name.localeCompare(b.name));
  const left = new Map(team.map((m) => [m.name, { ...m.inventory }]));
  const plan: TeamPlan = { jobs: [], transfers: [] };
  const open = jobs.filter((j) => !j.worker);
  const fixed = jobs.filter((j): j is PlannedJob => j.worker !== undefined);

  const available = (worker: Member): Counts =>
    addCounts(left.get(worker.name)!, ...team.filter((m) => m.name !== worker.name && m.canGive).map((m) => left.get(m.name)!));
  const feasible = (worker: Member, p: ProductionPlan): boolean =>
    Object.keys(p.missing).length === 0 &&
    (worker.canCraft || !p.steps.some((s) => s.kind === 'craft')) &&
    (worker.canGather || !p.steps.some((s) => s.kind === 'gather' || s.kind === 'smelt'));
  // A gathering's tool (a pickaxe for iron ore) is not used up, so it is not among what the plan
  // consumes: one held by a teammate, and neither held nor made by the worker, is handed over too.
  const borrowed = (worker: Member, p: ProductionPlan): Counts => {
    const own = left.get(worker.name)!;
    const out: Counts = {};
    for (const s of p.steps) {
      if (s.kind !== 'gather' || !s.source.tools?.length) continue;
      const tools = s.source.tools;
      if (tools.some((t) => (own[t] ?? 0) > 0 || (out[t] ?? 0) > 0 || p.steps.some((c) => c.kind === 'craft' && c.item === t))) continue;
      const lent = tools.find((t) => team.some((m) => m.name !== worker.name && m.canGive && (left.get(m.name)![t] ?? 0) > 0));
      if (lent) out[lent] = 1;
    }
    return out;
  };
  const used = (worker: Member, p: ProductionPlan): Counts => addCounts(p.consumed, borrowed(worker, p));
  const moves = (worker: Member, p: ProductionPlan): number => {
    const own = left.get(worker.name)!;
    return Object.entries(used(worker, p)).reduce((sum, [item, n]) => sum + Math.max(0, n - (own[item] ?? 0)), 0);
  };
  const allocate = (worker: Member, consumed: Counts): void => {
    for (const [item, n] of Object.entries(consumed)) {
      const own = left.get(worker.name)!;
      const mine = Math.min(own[item] ?? 0, n);
      own[item] = (own[item] ?? 0) - mine;
      let rest = n - mine;
      for (const m of team) {
        if (rest === 0) break;
        if (m.name === worker.name || !m.canGive) continue;
        const inv = left.get(m.name)!;
        const held = inv[item] ?? 0;
        const give = Math.min(held, rest);
        if (give === 0) continue;
        inv[item] = held - give;
        rest -= give;
        plan.transfers.push({ from: m.name, to: worker.name, item, count: give });
      }
    }
  };

  if (open.length) {
    const targets: Counts = {};
    for (const j of open) targets[j.target] = (targets[j.target] ?? 0) + j.count;
    let best: { member: Member; plan: ProductionPlan; moves: number } | undefined;
    for (const m of team) {
      const p = planProduction(data, available(m), targets, sources);
      if (!feasible(m, p)) continue;
      const cost = moves(m, p);
      if (!best || cost < best.moves) best = { member: m, plan: p, moves: cost };
    }
    if (!best) return { ...plan, unsolvable: whyNot(data, team, targets, sources) };
    allocate(best.member, used(best.member, best.plan));
    for (const j of open) plan.jobs.push({ ...j, worker: best.member.name });
  }
  for (const j of fixed) {
    const worker = team.find((m) => m.name === j.worker);
    if (!worker) return { ...plan, unsolvable: `${j.worker} is not in the team` };
    const p = planProduction(data, available(worker), { [j.target]: j.count }, sources);
    if (!feasible(worker, p)) return { ...plan, unsolvable: whyNot(data, team, { [j.target]: j.count }, sources, worker) };
    allocate(worker, used(worker, p));
    plan.jobs.push(j);
  }
  return plan;
}

/**
 * The fewest items a helper's share holds: a helper goes through the whole chain of tools for it
 * (logs to an iron pickaxe for gold) while the worker waits for it at the end, which one item
 * (of a bucket's three iron) does not repay.
 */
const MIN_SHARE = 2;

/**
 * Hands a share of each worker's slowest gathering to the teammates the plan leaves free: the
 * items its plan smelts from what must be dug with a tool (8 gold ingots for a golden apple: the
 * ore, the pickaxe it takes, the furnace's 10 s an item). Each free member that may gather, craft
 * and give, and can make one of them itself from what it holds (after its hand-overs) and what the
 * world gives, makes an equal share (rounded down, at least {@link MIN_SHARE}) and hands it to the
 * worker, who counts on it and waits for it at the end (./work.ts). Pure, as {@link planTeam}.
 *
 * @returns `plan` with the helpers' jobs (`for` the worker) added; `plan` itself when no
 *   gathering is worth sharing or nobody is free.
 */
export function withHelpers(data: GameData, members: readonly Member[], plan: TeamPlan, sources: ProductionSources): TeamPlan {
  if (plan.unsolvable) return plan;
  const holding = (name: string): Counts => {
    const inv = { ...members.find((m) => m.name === name)?.inventory };
    for (const t of plan.transfers) {
      if (t.to === name) inv[t.item] = (inv[t.item] ?? 0) + t.count;
      if (t.from === name) inv[t.item] = (inv[t.item] ?? 0) - t.count;
    }
    return inv;
  };
  const busy = new Set(plan.jobs.map((j) => j.worker));
  const free = [...members]
    .filter((m) => !busy.has(m.name) && m.canGather && m.canCraft && m.canGive)
    .sort((a, b) => a.name.localeCompare(b.name));
  const jobs = [...plan.jobs];
  for (const job of plan.jobs) {
    if (free.length === 0) break;
    const own = planProduction(data, holding(job.worker), { [job.target]: job.count }, sources);
    const dug = new Set(own.steps.flatMap((s) => (s.kind === 'gather' && s.source.tools?.length ? [s.item] : [])));
    const slowest = own.steps
      .filter((s): s is Extract<ProductionStep, { kind: 'smelt' }> => s.kind === 'smelt' && dug.has(s.input))
      .reduce<Extract<ProductionStep, { kind: 'smelt' }> | undefined>((best, s) => (!best || s.count > best.count ? s : best), undefined);
    if (!slowest) continue;
    const able = free.filter(
      (m) => Object.keys(planProduction(data, holding(m.name), { [slowest.item]: 1 }, sources).missing).length === 0,
    );
    const share = Math.floor(slowest.count / (able.length + 1));
    if (share < MIN_SHARE) continue;
    for (const helper of able) {
      jobs.push({ target: slowest.item, count: share, worker: helper.name, for: job.worker });
      free.splice(free.indexOf(helper), 1);
    }
  }
  return { ...plan, jobs };
}

/** The reason no member can make `targets`, for the team's one "cannot be done" message. */
function whyNot(data: GameData, team: readonly Member[], targets: Counts, sources: ProductionSources, only?: Member): string {
  const what = formatCounts(targets);
  const pool = addCounts(...team.filter((m) => m.canGive || m === only).map((m) => m.inventory));
  // Named without the crafting table first (planning one would take the planks the target needs).
  const withTable = planProduction(data, pool, targets, sources);
  const p = planProduction(data, pool, targets, { ...sources, tableNearby: true });
  if (withTable.missing.crafting_table && !p.missing.crafting_table) p.missing.crafting_table = withTable.missing.crafting_table;
  // A target with nothing of it at hand is named by its ingredients.
  const named: Counts = {};
  for (const [item, n] of Object.entries(p.missing)) {
    // The recipe variant the team holds most of; what it lacks of it is what is missing.
    const held = (r: Recipe) => [...recipeIngredients(r)].reduce((sum, [id, k]) => sum + Math.min(k, pool[data.items[id]!.name] ?? 0), 0);
    const recipe =
      item in targets
        ? usableRecipes(data, data.itemsByName[item]!.id).reduce<Recipe | undefined>(
            (best, r) => (!best || held(r) > held(best) ? r : best),
            undefined,
          )
        : undefined;
    if (!recipe) {
      named[item] = (named[item] ?? 0) + n;
      continue;
    }
    const times = Math.ceil(n / recipeResultCount(recipe));
    for (const [id, k] of recipeIngredients(recipe)) {
      const name = data.items[id]!.name;
      const short = k * times - (pool[name] ?? 0);
      if (short > 0) named[name] = (named[name] ?? 0) + short;
    }
  }
  const missing = formatCounts(named);
  if (missing) return `${what} needs ${missing}, which nobody has and the world here does not give`;
  const crafters = only ? (only.canCraft ? [only] : []) : team.filter((m) => m.canCraft);
  if (crafters.length === 0) return `${what} must be crafted, and ${only ? `${only.name} may` : 'none of us may'} not craft`;
  return `${what} needs gathering that ${only ? `${only.name} may` : 'none of us who may craft may'} not do`;
}

/** The hand-overs `name` makes, in order. */
export function transfersFrom(plan: { transfers: readonly Transfer[] }, name: string): Transfer[] {
  return plan.transfers.filter((t) => t.from === name);
}
