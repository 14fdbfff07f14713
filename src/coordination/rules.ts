/**
 * Game rules that check a task graph's edges at no token cost: the game's own facts decide what an
 * LLM would otherwise be asked (CausalMACE §3.4 gives rules R to the model and prunes the edges R
 * does not explain; VillagerAgent's decomposer prompt states them as text). Only nodes with a typed
 * {@link Work} are checked; an edge touching a node without one is `unknown`.
 *
 * Items (recipes and smelting from minecraft-data via `src/game/production.ts`, tools from
 * minecraft-data's `harvestTools`; never hand-coded):
 * - **proved** A → B when B's work uses directly what A's work makes: B's production plan
 *   (`planProduction`, with what every other node makes at hand) consumes one of A's items; a
 *   `give` or `build` of B uses them; or B collects blocks whose every source needs a tool A makes
 *   (stone for cobblestone needs a pickaxe).
 * - **refuted** A → B when B needs nothing A makes: none of A's items can be used anywhere down the
 *   tree of B's work (every recipe variant, smelting input, the crafting table, and for smelting
 *   work every furnace fuel and the furnaces), and no tool of B's is among them.
 * - otherwise **unknown**: A's items are used further down B's tree (logs for a pickaxe whose
 *   planks and sticks another node makes): the edge may be implied by a path, or not needed.
 *
 * Blueprints (VillagerAgent's decomposer prompt: "the block at lower place should be placed first";
 * CausalMACE's rule "the block at the lower place should be placed first"; vanilla: a block is
 * placed against a solid face, so a block above air needs the block under it first):
 * - **proved** build A → build B when a block of B rests on a block of A (B has a block at
 *   (x, y, z) and A a non-air block at (x, y − 1, z)), or all of A lies below all of B (lower
 *   levels first);
 * - **refuted** when all of A lies above all of B, or they share levels and no block of B rests on
 *   A (side support is not modelled); a build that clears cells (`air`) yields drops, so as a
 *   source of items it is `unknown`, never refuted.
 *
 * Items are reasoned about, not who holds them: a `give` between the maker and the user is a node
 * of its own (collect → give → make), and an edge straight from the maker to the user is proved too.
 * One exception: a `give`'s items go to its recipient, so a node whose candidates are all others
 * cannot use them: give → B is **refuted** when B's candidates leave the recipient out.
 *
 * Missing edges come only from nodes that can still succeed: a failed node, or one waiting on a
 * failed node, would hold a new node back for ever (a rolling update plans around them).
 */
import { normalizeBlockName } from '../tasks/blueprint.ts';
import { type GameData, recipeIngredients, recipeNeedsTable } from '../game/data.ts';
import { blocksDropping, type Counts, itemForBlock, planProduction, smeltingInputs, usableRecipes } from '../game/production.ts';
import { smeltingTableFor } from '../game/smelting.ts';
import type { TaskGraph, TaskNode } from './graph.ts';
import { type BuildCell, describeWork, type Work } from './work.ts';

/** What the rules know of the game. */
export interface RuleContext {
  data: GameData;
  /** False turns the rules off: every edge is `unknown`, nothing is missing, nothing changes. Default true. */
  enabled?: boolean;
}

export type Verdict = 'proved' | 'refuted' | 'unknown';

/** The verdict on one edge, with the fact behind it. */
export interface EdgeCheck {
  from: string;
  to: string;
  verdict: Verdict;
  reason: string;
}

/** What {@link checkEdges} found. */
export interface RuleReport {
  /** Every active edge of the graph, checked. */
  edges: EdgeCheck[];
  /**
   * Proved edges the graph lacks, into nodes not yet started, without those a path of the graph
   * (or of the other missing edges) already implies.
   */
  missing: EdgeCheck[];
  /** Proved edges that cannot be added: the graph already leads the other way (the edge would close a cycle). */
  conflicts: EdgeCheck[];
}

/** Supply of another node's items in a plan (enough never to run out). */
const PLENTY = 1_000_000;
/** Ingredient levels followed down a tree (as `planProduction`'s bound). */
const MAX_DEPTH = 8;

/**
 * Checks every active edge of `graph`, and finds the proved edges it lacks.
 *
 * @throws nothing for bad work payloads: an item unknown to the version makes that node's edges `unknown`, saying so.
 */
export function checkEdges(graph: TaskGraph, context: RuleContext): RuleReport {
  const edges = graph.edges();
  if (context.enabled === false) {
    return {
      edges: edges.map((e) => ({ from: e.from, to: e.to, verdict: 'unknown', reason: 'rules are off' })),
      missing: [],
      conflicts: [],
    };
  }
  const nodes = graph.nodes();
  const facts = new Facts(context.data, nodes);
  const checked = edges.map((e) => ({ from: e.from, to: e.to, ...facts.verdict(e.from, e.to) }));

  const proved: EdgeCheck[] = [];
  const dead = deadNodes(graph);
  for (const b of nodes) {
    if (b.status !== 'unknown') continue;
    for (const a of nodes) {
      if (a.id === b.id || dead.has(a.id) || graph.edge(a.id, b.id)) continue;
      const v = facts.verdict(a.id, b.id);
      if (v.verdict === 'proved') proved.push({ from: a.id, to: b.id, ...v });
    }
  }
  // Keep a missing edge only when nothing else (the graph, or other missing edges) leads from A to B.
  const all = [...edges, ...proved];
  const missing: EdgeCheck[] = [];
  const conflicts: EdgeCheck[] = [];
  for (const p of proved) {
    if (graph.reaches(p.from, p.to)) continue;
    if (graph.reaches(p.to, p.from)) {
      conflicts.push({ ...p, reason: `${p.reason}; but ${p.to} already leads to ${p.from}` });
      continue;
    }
    if (!reachableWithout(all, p.from, p.to)) missing.push(p);
  }
  return { edges: checked, missing, conflicts };
}

/**
 * Applies the rules to `graph`: removes refuted edges (origin `rule_removed`, with the reason), then
 * adds the proved ones still missing (origin `rule_added`). Does nothing when the rules are off.
 *
 * @returns how many edges were checked, removed and added, and the report it acted on (the edges'
 *   verdicts before the removal; missing and conflicts after it).
 */
export function applyRules(
  graph: TaskGraph,
  context: RuleContext,
): { checked: number; removed: number; added: number; report: RuleReport } {
  const before = checkEdges(graph, context);
  if (context.enabled === false) return { checked: before.edges.length, removed: 0, added: 0, report: before };
  let removed = 0;
  for (const e of before.edges) if (e.verdict === 'refuted' && graph.removeEdge(e.from, e.to, 'rule_removed', e.reason)) removed++;
  // Looked for again: a refuted edge removed may have been what made a required one a conflict.
  const after = removed ? checkEdges(graph, context) : before;
  let added = 0;
  for (const m of after.missing) {
    const r = graph.addEdge(m.from, m.to, 'rule_added', m.reason);
    if (r.ok && !r.existed) added++;
  }
  return {
    checked: before.edges.length,
    removed,
    added,
    report: { edges: before.edges, missing: after.missing, conflicts: after.conflicts },
  };
}

/** Failed nodes and the nodes that wait on one (through active edges): they will not succeed. */
function deadNodes(graph: TaskGraph): Set<string> {
  const dead = new Set(
    graph
      .nodes()
      .filter((n) => n.status === 'failure')
      .map((n) => n.id),
  );
  const queue = [...dead];
  while (queue.length) {
    for (const next of graph.successors(queue.shift()!)) {
      const n = graph.node(next);
      if (!dead.has(next) && n && n.status !== 'success') {
        dead.add(next);
        queue.push(next);
      }
    }
  }
  return dead;
}

/** Whether `edges` lead from `from` to `to` by some path other than the direct edge. */
function reachableWithout(edges: readonly { from: string; to: string }[], from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of edges) if (!(e.from === from && e.to === to)) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    for (const n of next.get(queue.shift()!) ?? []) {
      if (n === to) return true;
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return false;
}

/** What each node's work makes and needs, computed once per check. */
class Facts {
  readonly #data: GameData;
  readonly #nodes: Map<string, TaskNode>;
  readonly #direct = new Map<string, { items: Set<string>; tools: string[] } | { error: string }>();
  readonly #could = new Map<string, Set<string> | { error: string }>();

  constructor(data: GameData, nodes: readonly TaskNode[]) {
    this.#data = data;
    this.#nodes = new Map(nodes.map((n) => [n.id, n]));
  }

  verdict(from: string, to: string): { verdict: Verdict; reason: string } {
    const a = this.#nodes.get(from);
    const b = this.#nodes.get(to);
    if (!a?.work || !b?.work) return { verdict: 'unknown', reason: `no work to check on ${!a?.work ? from : to}` };
    if (a.work.kind === 'build' && b.work.kind === 'build') {
      const structural = buildVerdict(a.work.cells, b.work.cells);
      if (structural) return structural;
    }
    if (a.work.kind === 'give' && !b.candidates.includes(a.work.to))
      return {
        verdict: 'refuted',
        reason: `${describeWork(a.work)} hands them to ${a.work.to}, who may not do ${describeWork(b.work)} (${b.candidates.join(', ')} may)`,
      };
    const makes = this.#makes(a.work);
    const direct = this.#directNeeds(b);
    if ('error' in direct) return { verdict: 'unknown', reason: direct.error };
    const used = [...makes].filter((i) => direct.items.has(i));
    if (used.length)
      return { verdict: 'proved', reason: `${describeWork(b.work)} uses ${used.join(', ')}, which ${describeWork(a.work)} makes` };
    const tool = [...makes].find((i) => direct.tools.includes(i));
    if (tool)
      return {
        verdict: 'proved',
        reason: `${describeWork(b.work)} needs one of ${direct.tools.join(', ')} to dig; ${describeWork(a.work)} makes ${tool}`,
      };
    if (a.work.kind === 'build' && a.work.cells.some((c) => c.block === 'air')) {
      return { verdict: 'unknown', reason: `${describeWork(a.work)} clears cells, whose drops are not modelled` };
    }
    const could = this.#couldUse(b);
    if ('error' in could) return { verdict: 'unknown', reason: could.error };
    const down = [...makes].filter((i) => could.has(i));
    if (down.length)
      return {
        verdict: 'unknown',
        reason: `${down.join(', ')} from ${describeWork(a.work)} can be used further down the tree of ${describeWork(b.work)}`,
      };
    const what = makes.size ? `makes ${[...makes].join(', ')}` : 'makes no items';
    return { verdict: 'refuted', reason: `${describeWork(b.work)} needs nothing ${describeWork(a.work)} makes (it ${what})` };
  }

  #makes(work: Work): Set<string> {
    switch (work.kind) {
      case 'collect':
      case 'make':
        return new Set(Object.keys(work.targets));
      case 'give':
        return new Set(Object.keys(work.items));
      case 'build':
        return new Set();
    }
  }

  /** Items B's work uses directly (with what the other nodes make at hand), and the tools it digs with. */
  #directNeeds(b: TaskNode): { items: Set<string>; tools: string[] } | { error: string } {
    const memo = this.#direct.get(b.id);
    if (memo) return memo;
    let out: { items: Set<string>; tools: string[] } | { error: string };
    const work = b.work!;
    try {
      switch (work.kind) {
        case 'make': {
          // What the others make is at hand, except B's own targets (held targets would count as used).
          const supply: Counts = {};
          for (const n of this.#nodes.values()) if (n.id !== b.id && n.work) for (const i of this.#makes(n.work)) supply[i] = PLENTY;
          for (const t of Object.keys(work.targets)) delete supply[t];
          const plan = planProduction(this.#data, supply, work.targets, { smelt: true }, { expand: 'raw' });
          out = { items: new Set(Object.keys(plan.consumed)), tools: [] };
          break;
        }
        case 'collect': {
          this.#known(Object.keys(work.targets));
          out = { items: new Set(), tools: [...new Set(Object.keys(work.targets).flatMap((i) => toolsFor(this.#data, i)))] };
          break;
        }
        case 'give':
          this.#known(Object.keys(work.items));
          out = { items: new Set(Object.keys(work.items)), tools: [] };
          break;
        case 'build':
          out = { items: new Set(work.cells.filter((c) => c.block !== 'air').map((c) => blockItem(this.#data, c.block))), tools: [] };
          break;
      }
    } catch (err) {
      out = { error: `cannot check ${describeWork(work)}: ${(err as Error).message}` };
    }
    this.#direct.set(b.id, out);
    return out;
  }

  /** Every item that could be used anywhere down the tree of B's work. */
  #couldUse(b: TaskNode): Set<string> | { error: string } {
    const memo = this.#could.get(b.id);
    if (memo) return memo;
    const work = b.work!;
    const roots =
      work.kind === 'make' || work.kind === 'collect'
        ? Object.keys(work.targets)
        : work.kind === 'give'
          ? Object.keys(work.items)
          : work.cells.filter((c) => c.block !== 'air').map((c) => blockItem(this.#data, c.block));
    let out: Set<string> | { error: string };
    try {
      this.#known(roots);
      const set = new Set<string>();
      const direct = this.#directNeeds(b);
      const tools = 'tools' in direct ? direct.tools : [];
      // A collect is not made from its items' recipes: only its tools (and their trees) matter. A
      // make uses what goes into its targets, not the targets; a give or build uses its items.
      for (const r of work.kind === 'collect' ? tools : work.kind === 'make' ? roots : [...roots, ...tools]) {
        if (work.kind !== 'make') set.add(r);
        for (const i of treeOf(this.#data, r)) set.add(i);
      }
      out = set;
    } catch (err) {
      out = { error: `cannot check ${describeWork(work)}: ${(err as Error).message}` };
    }
    this.#could.set(b.id, out);
    return out;
  }

  #known(items: readonly string[]): void {
    for (const i of items)
      if (!this.#data.itemsByName[i]) throw new Error(`"${i}" is not an item in Minecraft ${this.#data.version.minecraftVersion}`);
  }
}

/** The structural verdict of build A → build B, or undefined when the blueprint rules say nothing. */
function buildVerdict(a: readonly BuildCell[], b: readonly BuildCell[]): { verdict: Verdict; reason: string } | undefined {
  const solidA = a.filter((c) => c.block !== 'air');
  const solidB = b.filter((c) => c.block !== 'air');
  if (!solidA.length || !solidB.length) return undefined;
  const below = new Set(solidA.map((c) => `${c.x},${c.y},${c.z}`));
  const rests = solidB.find((c) => below.has(`${c.x},${c.y - 1},${c.z}`));
  if (rests)
    return {
      verdict: 'proved',
      reason: `a block rests on the one below: ${rests.block} at (${rests.x}, ${rests.y}, ${rests.z}) on the block below it`,
    };
  const [aLo, aHi] = span(solidA);
  const [bLo, bHi] = span(solidB);
  if (aHi < bLo) return { verdict: 'proved', reason: `lower levels first: y=${aLo}..${aHi} before y=${bLo}..${bHi}` };
  if (aLo > bHi) return { verdict: 'refuted', reason: `lower levels first: y=${aLo}..${aHi} lies above y=${bLo}..${bHi}` };
  return {
    verdict: 'refuted',
    reason: `no block of y=${bLo}..${bHi} rests on a block of y=${aLo}..${aHi}, and neither lies wholly below the other`,
  };
}

function span(cells: readonly { y: number }[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of cells) [lo, hi] = [Math.min(lo, c.y), Math.max(hi, c.y)];
  return [lo, hi];
}

/** The item placed to make `block`: the item of the same name, else what the block drops (wall_torch → torch). */
function blockItem(data: GameData, cell: string): string {
  const block = normalizeBlockName(cell);
  if (!data.itemsByName[block] && !data.blocksByName[block])
    throw new Error(`"${block}" is not a block in Minecraft ${data.version.minecraftVersion}`);
  const name = itemForBlock(data, block);
  if (!name) throw new Error(`no item places "${block}"`);
  return name;
}

/**
 * Tools needed to dig what gives `item`: empty when some block dropping it needs no tool, or no
 * block drops it (a mob's drop, a chest's item); else every harvest tool of those blocks
 * (minecraft-data `harvestTools`).
 */
function toolsFor(data: GameData, item: string): string[] {
  const blocks = blocksDropping(data, item).map((n) => data.blocksByName[n]!);
  if (!blocks.length || blocks.some((b) => !b.harvestTools)) return [];
  const tools = new Set<string>();
  for (const b of blocks) for (const id of Object.keys(b.harvestTools!)) tools.add(data.items[Number(id)]!.name);
  return [...tools];
}

const treeCache = new WeakMap<GameData, Map<string, Set<string>>>();

/**
 * Every item that can go into making `item`: each recipe variant's ingredients (usable recipes of
 * `production.ts`), smelting inputs, the crafting table for 3x3 recipes, and for anything smelted
 * every fuel of the furnace table and the furnaces; followed down to {@link MAX_DEPTH} levels.
 */
function treeOf(data: GameData, item: string): Set<string> {
  let cache = treeCache.get(data);
  if (!cache) treeCache.set(data, (cache = new Map()));
  const hit = cache.get(item);
  if (hit) return hit;
  const out = new Set<string>();
  let smelts = false;
  let table = false;
  let level = [item];
  const seen = new Set([item]);
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const nextLevel: string[] = [];
    const add = (name: string) => {
      out.add(name);
      if (!seen.has(name)) {
        seen.add(name);
        nextLevel.push(name);
      }
    };
    for (const name of level) {
      const id = data.itemsByName[name]?.id;
      if (id === undefined) continue;
      for (const r of usableRecipes(data, id)) {
        if (recipeNeedsTable(r)) table = true;
        for (const ing of recipeIngredients(r).keys()) add(data.items[ing]!.name);
      }
      const inputs = smeltingInputs(data, name);
      if (inputs.length) smelts = true;
      for (const i of inputs) add(i);
    }
    level = nextLevel;
  }
  const extra: string[] = [];
  if (table && item !== 'crafting_table') extra.push('crafting_table');
  if (smelts) {
    const fuels = smeltingTableFor(data).fuels;
    for (const id of fuels.keys()) out.add(data.items[id]!.name);
    extra.push('furnace', 'smoker', 'blast_furnace');
  }
  cache.set(item, out);
  for (const e of extra) {
    if (!data.itemsByName[e]) continue;
    out.add(e);
    for (const i of treeOf(data, e)) out.add(i);
  }
  return out;
}
