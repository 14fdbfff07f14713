/**
 * Splitting a construction blueprint among builders: who places which cell, and which materials
 * change hands first so that the work is shared. Pure: every agent computes the same split from
 * the same inventories.
 *
 * Rules: a cell is placed by a builder holding its material. Materials of members who may not
 * build go to the builder with the least work; then, material by material in name order, while a
 * builder has more than its share of cells, the busiest hands some of that material to the builder
 * with the least work. Each material's cells are dealt out in proportion to the holdings, interleaved, so
 * every level has work for everyone.
 */
import type { Counts } from '../game/production.ts';
import { levelCells } from '../tasks/blueprint.ts';
import type { Blueprint } from '../tasks/schema.ts';
import type { Transfer } from './team-plan.ts';

/** What the team knows of one member for a construction (from its status). */
export interface Builder {
  name: string;
  inventory: Counts;
  /** May use `!placeBlockAt`. */
  canBuild: boolean;
  /** May use `!givePlayer`. */
  canGive: boolean;
}

/** A blueprint cell: position and block. */
export interface Cell {
  x: number;
  y: number;
  z: number;
  block: string;
  level: number;
  /** The block state the blueprint writes for the cell (`oak_stairs[facing=west]`), when it writes one. */
  state?: string;
}

export interface BuildPlan {
  /** `x,y,z` → the builder who places that cell. */
  owner: Map<string, string>;
  transfers: Transfer[];
  /** Cells nobody can place (too little material), when there are any. */
  faults: Cell[];
  /** Why the blueprint cannot be completed, when it cannot. */
  unsolvable?: string;
}

/** The key of a position in {@link BuildPlan.owner}. */
export const cellKey = (p: { x: number; y: number; z: number }): string => `${p.x},${p.y},${p.z}`;

/**
 * The cells that need a block placed, bottom level first. The upper half of a two-block-tall block
 * (a door: the same block directly below in the blueprint) needs no item of its own.
 */
export function blueprintCells(blueprint: Blueprint): Cell[] {
  const levels = [...blueprint.levels].sort((a, b) => a.level - b.level);
  const all = levels.flatMap((l) => levelCells(l).map((c) => ({ ...c, level: l.level })));
  const at = new Map(all.map((c) => [cellKey(c), c.block]));
  return all.filter((c) => c.block !== 'air' && !(TALL.test(c.block) && at.get(cellKey({ ...c, y: c.y - 1 })) === c.block));
}

/** A cell that two levels of a blueprint fill with different blocks. */
export interface Clash {
  x: number;
  y: number;
  z: number;
  blocks: string[];
  levels: number[];
}

/**
 * Cells that levels disagree on (e.g. every level of a blueprint given the same y): such a
 * blueprint can never score 100, since one cell cannot hold two blocks.
 */
export function blueprintClashes(blueprint: Blueprint): Clash[] {
  const seen = new Map<string, { block: string; level: number }>();
  const clashes = new Map<string, Clash>();
  for (const level of blueprint.levels) {
    for (const c of levelCells(level)) {
      const key = cellKey(c);
      const before = seen.get(key);
      if (!before) {
        seen.set(key, { block: c.block, level: level.level });
        continue;
      }
      if (before.block === c.block) continue;
      const clash = clashes.get(key) ?? { x: c.x, y: c.y, z: c.z, blocks: [before.block], levels: [before.level] };
      if (!clash.blocks.includes(c.block)) {
        clash.blocks.push(c.block);
        clash.levels.push(level.level);
      }
      clashes.set(key, clash);
    }
  }
  return [...clashes.values()];
}

const TALL = /_door$|^tall_|_bed$|^sunflower$|^lilac$|^rose_bush$|^peony$|^large_fern$/;

/**
 * Splits `blueprint` among `members`.
 *
 * @returns the plan; `unsolvable` (with `faults`) when the team holds too little of some material
 *   or nobody may build.
 */
export function planConstruction(blueprint: Blueprint, members: readonly Builder[]): BuildPlan {
  const team = [...members].sort((a, b) => a.name.localeCompare(b.name));
  const builders = team.filter((m) => m.canBuild);
  const cells = blueprintCells(blueprint);
  const plan: BuildPlan = { owner: new Map(), transfers: [], faults: [] };
  const clashes = blueprintClashes(blueprint);
  if (clashes.length) {
    const where = clashes
      .slice(0, 3)
      .map((c) => `(${c.x}, ${c.y}, ${c.z}) is ${c.blocks.join(' or ')} in levels ${c.levels.join(', ')}`)
      .join('; ');
    return {
      ...plan,
      faults: clashes.map((c) => ({ x: c.x, y: c.y, z: c.z, block: c.blocks[0]!, level: c.levels[0]! })),
      unsolvable: `the blueprint is inconsistent: its levels want different blocks in the same ${clashes.length} cells, e.g. ${where}`,
    };
  }
  if (builders.length === 0) return { ...plan, faults: cells, unsolvable: 'none of us may place blocks' };
  const byMaterial = new Map<string, Cell[]>();
  for (const c of cells) byMaterial.set(c.block, [...(byMaterial.get(c.block) ?? []), c]);
  const hold = new Map(team.map((m) => [m.name, { ...m.inventory }]));
  const load = (name: string): number => [...byMaterial].reduce((s, [m, list]) => s + Math.min(hold.get(name)![m] ?? 0, list.length), 0);
  const move = (from: string, to: string, item: string, count: number) => {
    if (count <= 0) return;
    const source = hold.get(from)!;
    source[item] = (source[item] ?? 0) - count;
    hold.get(to)![item] = (hold.get(to)![item] ?? 0) + count;
    plan.transfers.push({ from, to, item, count });
  };
  const leastLoaded = () => [...builders].sort((a, b) => load(a.name) - load(b.name) || a.name.localeCompare(b.name))[0]!.name;

  // Materials of members who may not build go to builders.
  for (const m of team.filter((t) => !t.canBuild && t.canGive)) {
    for (const material of byMaterial.keys()) move(m.name, leastLoaded(), material, hold.get(m.name)![material] ?? 0);
  }
  // Share the work: while a builder has more than its share, the busiest one hands material to
  // the least busy (one who holds every block gives to each teammate in turn).
  const share = Math.ceil(cells.length / builders.length);
  for (const material of [...byMaterial.keys()].sort()) {
    const need = byMaterial.get(material)!.length;
    const have = (name: string) => Math.min(hold.get(name)![material] ?? 0, need);
    for (;;) {
      const taker = leastLoaded();
      const giver = builders
        .filter((b) => b.canGive && b.name !== taker && have(b.name) > 0 && load(b.name) > share)
        .sort((a, b) => load(b.name) - load(a.name) || a.name.localeCompare(b.name))[0];
      const count = giver ? Math.min(load(giver.name) - share, share - load(taker), have(giver.name)) : 0;
      if (!giver || count <= 0) break;
      move(giver.name, taker, material, count);
    }
  }
  // Deal each material's cells to its holders in proportion, interleaved.
  for (const [material, list] of byMaterial) {
    const quota = builders.map((b) => ({ name: b.name, q: hold.get(b.name)![material] ?? 0, got: 0 })).filter((h) => h.q > 0);
    for (const cell of list) {
      const open = quota.filter((h) => h.got < h.q);
      if (open.length === 0) {
        plan.faults.push(cell);
        continue;
      }
      const pick = open.reduce((a, b) => ((a.q - a.got) / a.q >= (b.q - b.got) / b.q ? a : b));
      pick.got++;
      plan.owner.set(cellKey(cell), pick.name);
    }
  }
  if (plan.faults.length) {
    const short = new Map<string, number>();
    for (const f of plan.faults) short.set(f.block, (short.get(f.block) ?? 0) + 1);
    const what = [...short].map(([b, n]) => `${n} more ${b}`).join(', ');
    const where = plan.faults
      .slice(0, 6)
      .map((f) => `(${f.x}, ${f.y}, ${f.z})`)
      .join(', ');
    plan.unsolvable = `the blueprint needs ${what} than we hold, for the cells at ${where}${plan.faults.length > 6 ? ` and ${plan.faults.length - 6} more` : ''}`;
  }
  return plan;
}
