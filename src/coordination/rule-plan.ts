/**
 * The offline decomposition (no model): a task's subtasks and their edges from the game's rules and
 * the team's real state, as a graph strategy's decomposer and dependency roles would give them.
 * Every agent's plan is the offline policy's own (`src/oracle/`), so a strategy's offline runs are
 * its upper bound on the same bots:
 * - items (crafting, cooking): who makes what and who hands what to whom, from the agents'
 *   inventories, their blocked commands and what the world in their sight gives, with what the
 *   task's world supplies (`AgentTask.supplies`: the cooking world's crops and animals) (`planTeam`);
 *   one `give` node per giver and recipient, one `make` node per worker, each give before the
 *   recipient's make;
 * - construction: the blueprint's cells still unlike the world (an oriented cell unlike it until
 *   its block has the state it names), split among the builders by who holds the blocks
 *   (`planConstruction`); one `give` node per giver and recipient, one `build` node per level and
 *   builder; a builder's builds after the hand-overs to it, and level L after level L − 1
 *   (VillagerAgent's "lower blocks first"; `./rules.ts` proves both). VillagerBench's blocks are
 *   in chests (`AgentTask.materialChests`): the cells split as the offline policy splits them, and
 *   a `collect` node per builder that lacks its blocks (taken from the chests) before its builds.
 *
 * Planned again on the state after a failure (VillagerAgent's rolling update), it plans only what
 * is left: targets already held end it (`done`), cells already in place are left out.
 *
 * It also judges a node's work from the world ({@link checkWork}): the rule-based reflection.
 */
import type { GameData } from '../game/data.ts';
import { type Counts, formatCounts } from '../game/production.ts';
import type { BuildCell, Work } from '../game/work.ts';
import { blueprintCells, cellKey, planConstruction } from '../oracle/construction-plan.ts';
import { itemsFor, splitVillagerBuild } from '../oracle/villager-construction.ts';
import { type Job, type Member, planTeam, type Transfer } from '../oracle/team-plan.ts';
import { sourcesFrom } from '../skills/surroundings.ts';
import { cellMatches, normalizeBlockName } from '../tasks/blueprint.ts';
import type { Blueprint } from '../tasks/schema.ts';
import type { TeamMember } from './members.ts';
import type { Subtask } from './rounds.ts';

/** A dependency of the plan between two of its subtasks (local ids), with the rule behind it. */
export interface PlanEdge {
  from: string;
  to: string;
  reason: string;
}

/** What {@link rulePlan} found: work (subtasks and edges), nothing left to do, or why it cannot be done. */
export type RulePlan =
  { kind: 'work'; subtasks: Subtask[]; edges: PlanEdge[] } | { kind: 'done'; reason: string } | { kind: 'unsolvable'; reason: string };

/** What {@link rulePlan} reads. */
export interface RulePlanInput {
  data: GameData;
  /** The team, agent 0 first (its view of the world judges construction cells). */
  members: readonly TeamMember[];
  /** Construction: the blueprint as placed in this world. */
  blueprint?: Blueprint | undefined;
}

/**
 * The subtasks left of the team's task (see the module header). Subtasks carry no `requires`:
 * the edges come separately, for the caller to add as the rules' own.
 */
export function rulePlan(input: RulePlanInput): RulePlan {
  return input.blueprint ? buildPlan(input, input.blueprint) : itemPlan(input);
}

const holds = (inventory: Counts, targets: Counts) => Object.entries(targets).every(([item, n]) => (inventory[item] ?? 0) >= n);
const sameCounts = (a: Counts, b: Counts) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, n]) => b[k] === n);

function itemPlan({ data, members }: RulePlanInput): RulePlan {
  if (members.some((m) => m.task()?.escape))
    return {
      kind: 'unsolvable',
      reason:
        'the rules plan no VillagerBench escape rooms (their conditions are not items or cells): play them with --coordination chat, or give the strategy a model to plan with',
    };
  const wants = members.map((m) => ({ ...(m.task()?.targets ?? {}) }));
  if (wants.every((w) => Object.keys(w).length === 0)) return { kind: 'done', reason: 'the task gives no item targets' };
  const same = wants.every((w) => sameCounts(w, wants[0]!));
  if (same) {
    const holder = members.find((m) => holds(m.inventory(), wants[0]!));
    if (holder) return { kind: 'done', reason: `${holder.name} holds ${formatCounts(wants[0]!)}` };
  } else if (members.every((m, i) => holds(m.inventory(), wants[i]!))) {
    return { kind: 'done', reason: 'every agent holds its own targets' };
  }
  const team: Member[] = members.map((m) => ({
    name: m.name,
    inventory: m.inventory(),
    canCraft: m.canUse('!craftRecipe'),
    canGive: m.canUse('!givePlayer'),
    canGather: m.canUse('!collectBlocks'),
  }));
  // As the offline policy plans (src/oracle/team.ts): one worker for a shared target, the task's
  // collector when it names one; else (Hell's Kitchen) each agent its own, those held left out.
  const collector = members[0]?.task()?.collector;
  const able = team.find((p) => p.name === collector && p.canCraft && p.canGather);
  const jobs: Job[] = same
    ? Object.entries(wants[0]!).map(([target, count]) => ({ target, count, ...(able ? { worker: able.name } : {}) }))
    : members.flatMap((m, i) =>
        holds(m.inventory(), wants[i]!) ? [] : Object.entries(wants[i]!).map(([target, count]) => ({ target, count, worker: m.name })),
      );
  const seen = { blocks: new Set<string>(), mobs: new Set<string>() };
  for (const m of members) {
    const s = m.surroundings();
    for (const b of s.blocks) seen.blocks.add(b);
    for (const x of s.mobs) seen.mobs.add(x);
  }
  // What the task's world supplies (the cooking world's crops and animals) comes as task data.
  const supplies = members.find((m) => m.task()?.supplies)?.task()?.supplies;
  const sources = sourcesFrom(data, { blocks: [...seen.blocks], mobs: [...seen.mobs], inventory: {}, supplies });
  const plan = planTeam(data, team, jobs, sources);
  if (plan.unsolvable) return { kind: 'unsolvable', reason: plan.unsolvable };
  const { subtasks, edges, givesTo } = gives(plan.transfers);
  const byWorker = new Map<string, Counts>();
  for (const j of plan.jobs)
    byWorker.set(j.worker, { ...(byWorker.get(j.worker) ?? {}), [j.target]: (byWorker.get(j.worker)?.[j.target] ?? 0) + j.count });
  let k = 0;
  for (const [worker, targets] of [...byWorker].sort(([a], [b]) => a.localeCompare(b))) {
    const id = `m${++k}`;
    subtasks.push({
      id,
      description: `Make ${formatCounts(targets)}: craft, smelt or gather what it takes, with what you hold and what the world gives`,
      milestones: [`hold ${formatCounts(targets)}`],
      candidates: [worker],
      work: { kind: 'make', targets },
    });
    for (const g of givesTo.get(worker) ?? [])
      edges.push({ from: g.id, to: id, reason: `${worker} makes ${formatCounts(targets)} with ${formatCounts(g.items)} given` });
  }
  return { kind: 'work', subtasks, edges };
}

function buildPlan({ data, members }: RulePlanInput, blueprint: Blueprint): RulePlan {
  const look = members[0];
  // The cells already in place are left out (air to the planner); an oriented cell is in place
  // when its block has the state it names.
  const left: Blueprint = {
    ...blueprint,
    levels: blueprint.levels.map((l) => ({
      ...l,
      placement: l.placement.map((row, r) =>
        row.map((block, c) => {
          const [x, y, z] = [l.coordinates[0] + c, l.coordinates[1], l.coordinates[2] + r];
          const actual = look?.stateAt?.(x, y, z) ?? look?.blockAt(x, y, z);
          return actual !== undefined && cellMatches(block, actual) ? 'air' : block;
        }),
      ),
    })),
  };
  const cells = blueprintCells(left);
  if (cells.length === 0) return { kind: 'done', reason: 'every cell of the blueprint is in place' };
  const chests = members.find((m) => m.task()?.materialChests?.length)?.task()?.materialChests;
  const split = chests ? fromChests(data, members, left) : fromInventories(members, left);
  if ('unsolvable' in split) return { kind: 'unsolvable', reason: split.unsolvable };
  const { subtasks, edges, before, owner } = split;
  // Cells by level, then by builder.
  const levels = new Map<number, Map<string, BuildCell[]>>();
  for (const cell of cells) {
    const builder = owner.get(cellKey(cell));
    if (!builder) continue;
    const level = levels.get(cell.level) ?? new Map<string, BuildCell[]>();
    level.set(builder, [...(level.get(builder) ?? []), { x: cell.x, y: cell.y, z: cell.z, block: cell.state ?? cell.block }]);
    levels.set(cell.level, level);
  }
  let below: string[] = [];
  for (const level of [...levels.keys()].sort((a, b) => a - b)) {
    const here: string[] = [];
    for (const [builder, cells] of [...levels.get(level)!].sort(([a], [b]) => a.localeCompare(b))) {
      const id = `L${level}-${builder}`;
      const blocks: Counts = {};
      for (const c of cells) {
        const name = normalizeBlockName(c.block);
        blocks[name] = (blocks[name] ?? 0) + 1;
      }
      subtasks.push({
        id,
        description: `Place ${cells.length} block${cells.length === 1 ? '' : 's'} of level ${level} (${formatCounts(blocks)}) at y=${cells[0]!.y}`,
        milestones: [`the ${cells.length} cells of level ${level} placed`],
        candidates: [builder],
        work: { kind: 'build', cells },
      });
      for (const b of below) edges.push({ from: b, to: id, reason: `lower levels first: level ${level} after the level below` });
      for (const g of before.get(builder) ?? []) {
        const used = Object.keys(g.items).filter((item) => item in blocks);
        if (used.length) edges.push({ from: g.id, to: id, reason: `${builder} places the ${used.join(', ')} ${g.how}` });
      }
      here.push(id);
    }
    below = here;
  }
  return { kind: 'work', subtasks, edges };
}

/** Who builds which cell (`x,y,z` → builder), and the subtasks that bring each builder its blocks. */
interface BuildSplit {
  subtasks: Subtask[];
  edges: PlanEdge[];
  owner: Map<string, string>;
  /** Per builder: the subtasks bringing it blocks (`how`: "given", "taken from the chests"). */
  before: Map<string, { id: string; items: Counts; how: string }[]>;
}

/** MineCollab: the blocks are in the builders' inventories; who lacks some is given them (`planConstruction`). */
function fromInventories(members: readonly TeamMember[], left: Blueprint): BuildSplit | { unsolvable: string } {
  const builders = members.map((m) => ({
    name: m.name,
    inventory: m.inventory(),
    canBuild: m.canUse('!placeBlockAt'),
    canGive: m.canUse('!givePlayer'),
  }));
  const plan = planConstruction(left, builders);
  if (plan.unsolvable) return { unsolvable: plan.unsolvable };
  const { subtasks, edges, givesTo } = gives(plan.transfers);
  const before = new Map([...givesTo].map(([to, list]) => [to, list.map((g) => ({ ...g, how: 'given' }))]));
  return { subtasks, edges, owner: plan.owner, before };
}

/**
 * VillagerBench: the blocks are in the material chests (`AgentTask.materialChests`, VillagerAgent
 * Appendix B.1). The cells are split as the offline policy splits them without a strategy
 * (`splitVillagerBuild`: runs of neighbouring cells per builder, level by level), and each builder
 * that lacks its cells' items first takes them from the chests (a `collect`, from the task's
 * chest supplies). Planned again after a failure, a cell whose builder lacks its block goes first
 * to a teammate holding one to spare.
 */
function fromChests(data: GameData, members: readonly TeamMember[], left: Blueprint): BuildSplit | { unsolvable: string } {
  const builders = members.filter((m) => m.canUse('!placeBlockAt'));
  if (builders.length === 0) return { unsolvable: 'no agent may place blocks (!placeBlockAt is blocked for all)' };
  const split = splitVillagerBuild(
    left,
    builders.map((m) => m.name),
  );
  const owner = new Map(split.owner);
  const names = builders.map((m) => m.name).sort((a, b) => a.localeCompare(b));
  const cellsOf = (name: string) => split.order.filter((c) => owner.get(cellKey(c)) === name);
  // Planned again after a failure, the blocks are in the builders' hands more than in the chests:
  // a cell whose builder lacks its block goes to a builder holding one to spare.
  const spare = new Map(names.map((name) => [name, { ...builders.find((m) => m.name === name)!.inventory() }]));
  for (const name of names)
    for (const [item, n] of Object.entries(itemsFor(data, cellsOf(name)))) spare.get(name)![item] = (spare.get(name)![item] ?? 0) - n;
  for (const name of names) {
    for (const cell of cellsOf(name)) {
      const item = itemsFor(data, [cell]);
      const [needed] = Object.keys(item);
      if (!needed || (spare.get(name)![needed] ?? 0) >= 0) continue;
      const giver = names.find((other) => other !== name && (spare.get(other)![needed] ?? 0) > 0);
      if (!giver) continue;
      owner.set(cellKey(cell), giver);
      spare.get(giver)![needed]! -= 1;
      spare.get(name)![needed]! += 1;
    }
  }
  const subtasks: Subtask[] = [];
  const before = new Map<string, { id: string; items: Counts; how: string }[]>();
  for (const name of names) {
    const items = itemsFor(data, cellsOf(name));
    if (Object.values(spare.get(name)!).every((n) => n >= 0)) continue;
    const id = `t-${name}`;
    subtasks.push({
      id,
      description: `Take ${formatCounts(items)} from the material chests`,
      milestones: [`hold ${formatCounts(items)}`],
      candidates: [name],
      work: { kind: 'collect', targets: items },
    });
    before.set(name, [{ id, items, how: 'taken from the chests' }]);
  }
  return { subtasks, edges: [], owner, before };
}

/** One give subtask per giver and recipient (their items together), in the plan's order. */
function gives(transfers: readonly Transfer[]): {
  subtasks: Subtask[];
  edges: PlanEdge[];
  givesTo: Map<string, { id: string; items: Counts }[]>;
} {
  const byPair = new Map<string, { from: string; to: string; items: Counts }>();
  for (const t of transfers) {
    const key = `${t.from}\u0000${t.to}`;
    const entry = byPair.get(key) ?? { from: t.from, to: t.to, items: {} };
    entry.items[t.item] = (entry.items[t.item] ?? 0) + t.count;
    byPair.set(key, entry);
  }
  const subtasks: Subtask[] = [];
  const givesTo = new Map<string, { id: string; items: Counts }[]>();
  let k = 0;
  for (const g of byPair.values()) {
    const id = `g${++k}`;
    subtasks.push({
      id,
      description: `Give ${formatCounts(g.items)} to ${g.to}`,
      milestones: [`${g.to} holds the ${formatCounts(g.items)}`],
      candidates: [g.from],
      work: { kind: 'give', to: g.to, items: g.items },
    });
    givesTo.set(g.to, [...(givesTo.get(g.to) ?? []), { id, items: g.items }]);
  }
  return { subtasks, edges: [], givesTo };
}

/** What {@link checkWork} reads: the agent that did the node, its teammates, and what happened. */
export interface WorkCheckInput {
  work: Work;
  /** The agent the node was assigned to. */
  member: TeamMember;
  /** A give's recipient's inventory when the node started. */
  recipientBefore?: Counts | undefined;
  /** Items the recipient picked up from this agent's hand-overs during the node (`!givePlayer`'s typed outcome). */
  handedOver?: Counts | undefined;
  /** The team, to read a recipient's inventory. */
  teammate(name: string): TeamMember | undefined;
}

/** The rule-based reflection's verdict on a node's work. */
export interface WorkCheck {
  done: boolean;
  /** What the world says, e.g. `Jill holds 2 of 3 wheat given`, `12 of 12 cells in place`. */
  detail: string;
}

/**
 * Whether `input.work` is done, from the world and the inventories (never from what the agent said):
 * - `make`, `collect`: the agent holds the targets;
 * - `give`: the recipient picked up the items: by the hand-overs' typed outcomes (the recipient's
 *   pick-ups), or else by the gain of its inventory since the node started;
 * - `build`: every cell holds its block, as the agent's bot sees the world (a cell written as a
 *   state, `oak_stairs[facing=west]`, with that state).
 */
export function checkWork(input: WorkCheckInput): WorkCheck {
  const { work, member } = input;
  switch (work.kind) {
    case 'make':
    case 'collect': {
      const inv = member.inventory();
      const short = Object.entries(work.targets).filter(([item, n]) => (inv[item] ?? 0) < n);
      if (!short.length) return { done: true, detail: `${member.name} holds ${formatCounts(work.targets)}` };
      return {
        done: false,
        detail: `${member.name} holds ${short.map(([item, n]) => `${inv[item] ?? 0} of ${n} ${item}`).join(', ')}`,
      };
    }
    case 'give': {
      const recipient = input.teammate(work.to);
      const now = recipient?.inventory() ?? {};
      const got = (item: string) =>
        Math.max(input.handedOver?.[item] ?? 0, input.recipientBefore ? (now[item] ?? 0) - (input.recipientBefore[item] ?? 0) : 0);
      const short = Object.entries(work.items).filter(([item, n]) => got(item) < n);
      if (!short.length) return { done: true, detail: `${work.to} got ${formatCounts(work.items)}` };
      return { done: false, detail: `${work.to} got ${short.map(([item, n]) => `${got(item)} of ${n} ${item}`).join(', ')}` };
    }
    case 'build': {
      const at = (c: BuildCell) => member.stateAt?.(c.x, c.y, c.z) ?? member.blockAt(c.x, c.y, c.z);
      const wrong = work.cells.filter((c) => !cellMatches(c.block, at(c) ?? ''));
      const placed = work.cells.length - wrong.length;
      if (!wrong.length) return { done: true, detail: `${placed} of ${work.cells.length} cells in place` };
      const first = wrong[0]!;
      return {
        done: false,
        detail: `${placed} of ${work.cells.length} cells in place; e.g. (${first.x}, ${first.y}, ${first.z}) is ${at(first) ?? 'unseen'}, not ${first.block}`,
      };
    }
  }
}
