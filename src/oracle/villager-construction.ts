/**
 * The policy's VillagerBench construction: a team builds a blueprint of oriented blocks from
 * materials in chests (VillagerAgent, Dong et al. 2024, Appendix B.1: the agents are given the
 * materials, they need not gather them). Every agent computes the same split from the blueprint
 * and the team's names, so no chat is needed:
 * 1. its cells ({@link splitVillagerBuild}): each level's cells in an order where each rests on
 *    what is placed before it, dealt out to the team in runs, so no two agents place one cell;
 * 2. it takes the items its cells take from the material chests (`AgentTask.materialChests`, the
 *    data of the goal's line naming them; `!goToCoordinates`, then
 *    `!takeFromChest` per item; an item a chest lacks is looked for in the next);
 * 3. level by level, bottom up, it asks `!checkBlueprintLevel` (the blueprint's cells are states,
 *    `oak_stairs[facing=west]`, compared by state) and places its cells the check lists with
 *    `!placeBlockAt("<state>", x, y, z)` once each has a block to be placed against, digging a
 *    wrong block first; it waits off the site for teammates' cells, and after a while places those
 *    whose items it holds to spare; after the top level it goes over the levels again from the
 *    bottom, at most twice (a level it left waiting may still have a hole of its own);
 * 4. a cell with nothing beside it to click for its state is placed from a scaffold
 *    (`!placeBlockAt` builds it of dirt): asked for twice, the builder digs ground for the dirt
 *    ({@link ScaffoldDigs}).
 */
import type { GameData } from '../game/data.ts';
import { type Counts, itemForBlock } from '../game/production.ts';
import type { BlockPos, BlueprintCheckData } from '../skills/outcome.ts';
import { normalizeBlockName } from '../tasks/blueprint.ts';
import type { Blueprint } from '../tasks/schema.ts';
import { blueprintBox } from '../tasks/worlds.ts';
import { blueprintCells, type Cell, cellKey } from './construction-plan.ts';
import type { Observation } from './observation.ts';
import { WAIT } from './retry.ts';

/** Tries of one cell's command before the builder leaves that cell (for a while). */
const MAX_CELL_ATTEMPTS = 4;
/** Level checks with nothing of its own to do before a builder places teammates' cells. */
const TAKEOVER_WAITS = 6;
/** Level checks with nothing to do before a builder gives up on a level and goes on to the next. */
const MAX_WAITS = 60;
/**
 * Passes over the levels again from the bottom once the top one is complete: a level left after
 * {@link MAX_WAITS} (a teammate's cell that had not come) may still have a hole this agent fills.
 */
const MAX_SWEEPS = 2;
/**
 * Returns to the chests when a builder's own cells lack their blocks in hand: a take that came up
 * short (two players taking from one chest at the same moment) or blocks lost on the way; the
 * chests may still hold them.
 */
const MAX_REFETCHES = 2;
/** Tries of one `!takeFromChest` that failed for a reason other than the chest lacking the item. */
const MAX_TAKE_TRIES = 3;

/** A chest position, whole blocks. */
export type ChestPos = BlockPos;

/** One cell to place, with the state it must have. */
export interface StateCell extends Cell {
  /** The block state to place (`oak_stairs[facing=west]`), the name for a block with none. */
  state: string;
}

/** Who places what: every cell's builder, and the cells in the order they are placed. */
export interface VillagerSplit {
  /** Cells to place, lowest level first, each level in an order where a cell rests on one before it. */
  order: StateCell[];
  /** `x,y,z` → the builder of that cell. */
  owner: Map<string, string>;
}

const NEIGHBOURS: readonly [number, number, number][] = [
  [1, 0, 0],
  [-1, 0, 0],
  [0, 0, 1],
  [0, 0, -1],
];

/**
 * Orders one level's cells so that each can be placed against a block already there: first those
 * on a block of the level below (or on the ground, for the lowest level), full blocks before
 * oriented ones; then, breadth first, those beside a cell already ordered. Cells with nothing to
 * rest on at all come last.
 */
function supportOrder(cells: StateCell[], below: ReadonlySet<string>, ground: boolean): StateCell[] {
  const byKey = new Map(cells.map((c) => [cellKey(c), c]));
  const rests = (c: StateCell) => ground || below.has(cellKey({ ...c, y: c.y - 1 }));
  const first = cells.filter(rests).sort((a, b) => Number(a.state !== a.block) - Number(b.state !== b.block));
  const done = new Set(first.map(cellKey));
  const order = [...first];
  for (let i = 0; i < order.length; i++) {
    const c = order[i]!;
    for (const [dx, dy, dz] of NEIGHBOURS) {
      const key = cellKey({ x: c.x + dx, y: c.y + dy, z: c.z + dz });
      const next = byKey.get(key);
      if (next && !done.has(key)) {
        done.add(key);
        order.push(next);
      }
    }
  }
  return [...order, ...cells.filter((c) => !done.has(cellKey(c)))];
}

/**
 * Splits a blueprint among `team` (names; sorted here, so every agent gets the same split): each
 * level's cells in {@link supportOrder}, cut into as many runs of (nearly) equal length as
 * builders (neighbouring cells to one builder, so builders keep out of each other's way), the runs
 * dealt out from where the level below stopped (a level of fewer cells than builders does not
 * always go to the same ones).
 *
 * @throws RangeError for an empty team.
 */
export function splitVillagerBuild(blueprint: Blueprint, team: readonly string[]): VillagerSplit {
  if (team.length === 0) throw new RangeError('splitVillagerBuild: no builders; pass the team by name');
  const names = [...new Set(team)].sort((a, b) => a.localeCompare(b));
  const cells = blueprintCells(blueprint).map((c) => ({ ...c, state: c.state ?? c.block }));
  const levels = [...new Set(cells.map((c) => c.level))].sort((a, b) => a - b);
  const order: StateCell[] = [];
  const owner = new Map<string, string>();
  const placed = new Set<string>();
  let offset = 0;
  levels.forEach((level, i) => {
    const ordered = supportOrder(
      cells.filter((c) => c.level === level),
      placed,
      i === 0,
    );
    const n = names.length;
    ordered.forEach((c, j) => owner.set(cellKey(c), names[(Math.floor((j * n) / ordered.length) + offset) % n]!));
    offset += ordered.length;
    for (const c of ordered) placed.add(cellKey(c));
    order.push(...ordered);
  });
  return { order, owner };
}

/** The items `cells` take: one per cell, the item that places its block (minecraft-data). */
export function itemsFor(data: GameData, cells: readonly Cell[]): Counts {
  const items: Counts = {};
  for (const c of cells) {
    const item = itemForBlock(data, c.block);
    if (item) items[item] = (items[item] ?? 0) + 1;
  }
  return items;
}

/** One agent's VillagerBench building, from its observations (see the module comment). */
export class VillagerBuilder {
  readonly #data: GameData;
  #split: VillagerSplit | undefined;
  #phase: 'fetch' | 'build' | 'done' = 'fetch';
  #chest = 0;
  /**
   * `chest index:item` → its `!takeFromChest` tries at that chest: positive while the last try is
   * out or answered (taken, or the chest lacks it: not asked again), negative (−tries) after a try
   * that failed otherwise (a busy chest), to be tried again up to {@link MAX_TAKE_TRIES}.
   */
  readonly #taken = new Map<string, number>();
  #walkedTo = -1;
  #level: number | undefined;
  #check: BlueprintCheckData | undefined;
  #queue: string[] = [];
  readonly #attempts = new Map<string, number>();
  readonly #refused = new Set<string>();
  #waits = 0;
  #offSite: string | undefined;
  readonly #scaffold = new ScaffoldDigs();
  /** Passes over the levels again from the bottom after the top one (see {@link MAX_SWEEPS}). */
  #sweeps = 0;
  /** Returns to the chests for blocks found missing while building (see {@link MAX_REFETCHES}). */
  #refetches = 0;

  constructor(data: GameData) {
    this.#data = data;
  }

  /** The next command (or line) of this agent's building. */
  decide(obs: Observation, chests: readonly ChestPos[], lastCommand: string): string {
    const blueprint = obs.blueprint!;
    const split = (this.#split ??= splitVillagerBuild(blueprint, [obs.name, ...(obs.task?.teammates ?? [])]));
    this.#read(obs);
    const scaffold = this.#scaffold.next(obs);
    if (this.#phase === 'fetch') {
      const take = this.#fetch(obs, chests, split);
      if (take) return take;
      this.#phase = 'build';
    }
    if (this.#phase === 'done') return this.#walkOff(obs, lastCommand) ?? '';
    if (scaffold) return scaffold;
    return this.#build(obs, split, lastCommand);
  }

  /** What the last commands told: the level checks, chests that lack an item, refused placements. */
  #read(obs: Observation): void {
    for (const r of obs.records) {
      if (r.kind !== 'outcome') continue;
      const o = r.outcome;
      if (o.command === '!checkBlueprintLevel' && o.data?.blueprint) this.#check = o.data.blueprint;
      if (o.command === '!takeFromChest' && !o.ok && o.code !== 'not_found' && o.code !== 'partial') {
        const key = `${this.#chest}:${String(o.args.item_name)}`;
        const tries = this.#taken.get(key) ?? 0;
        if (tries < MAX_TAKE_TRIES) this.#taken.set(key, -(tries + 1));
      }
      if (o.command === '!placeBlockAt' && o.code === 'refused_by_server' && o.data?.position) this.#refused.add(cellKey(o.data.position));
    }
  }

  /** The next step of taking this agent's items from the chests; undefined when it has them or no chest has more. */
  #fetch(obs: Observation, chests: readonly ChestPos[], split: VillagerSplit): string | undefined {
    const wanted = itemsFor(
      this.#data,
      split.order.filter((c) => split.owner.get(cellKey(c)) === obs.name),
    );
    const short = Object.entries(wanted).filter(([item, n]) => (obs.inventory[item] ?? 0) < n);
    while (short.length > 0 && this.#chest < chests.length) {
      const chest = chests[this.#chest]!;
      const open = short.find(([item]) => (this.#taken.get(`${this.#chest}:${item}`) ?? 0) <= 0);
      if (!open) {
        this.#chest++;
        continue;
      }
      if (this.#walkedTo !== this.#chest) {
        this.#walkedTo = this.#chest;
        // The agents' side of the chest (south): this chest is the nearest one there.
        return `!goToCoordinates(${chest.x}, ${chest.y}, ${chest.z + 1}, 0)`;
      }
      const [item, n] = open;
      const key = `${this.#chest}:${item}`;
      this.#taken.set(key, Math.abs(this.#taken.get(key) ?? 0) + 1);
      return `!takeFromChest("${item}", ${n - (obs.inventory[item] ?? 0)})`;
    }
    return undefined;
  }

  #build(obs: Observation, split: VillagerSplit, lastCommand: string): string {
    const levels = [...new Set(split.order.map((c) => c.level))].sort((a, b) => a - b);
    this.#level ??= levels[0];
    const check = this.#check;
    this.#check = undefined;
    if (check?.level !== undefined && check.level === this.#level) {
      if (check.complete) {
        const level = check.level;
        this.#waits = 0;
        this.#attempts.clear();
        this.#level = levels.find((l) => l > level);
        if (this.#level === undefined && this.#sweeps < MAX_SWEEPS) {
          // Again from the bottom: a level left after MAX_WAITS (a teammate's cell that did not
          // come) may have a hole only its owner fills.
          this.#sweeps++;
          this.#level = levels[0];
        } else if (this.#level === undefined) {
          this.#phase = 'done';
          return 'My part of the blueprint is built.';
        }
      } else {
        const names = [...new Set(split.owner.values())].sort((a, b) => a.localeCompare(b));
        const ownerOf = (p: BlockPos) => split.owner.get(cellKey(p)) ?? names[Math.abs(p.x + p.z) % names.length];
        this.#queue = this.#commands(obs, split, check, ownerOf);
        const lacking = check.changes.some((c) => {
          const item =
            c.action === 'place' && c.block && ownerOf(c.position) === obs.name && itemForBlock(this.#data, normalizeBlockName(c.block));
          return item && (obs.inventory[item] ?? 0) === 0;
        });
        if (this.#queue.length === 0 && this.#waits >= TAKEOVER_WAITS && lacking && this.#refetches < MAX_REFETCHES) {
          // Its own cells' blocks are not in hand (a take came up short, or they were lost): to
          // the chests again for what is short.
          this.#refetches++;
          this.#phase = 'fetch';
          this.#chest = 0;
          this.#taken.clear();
          this.#walkedTo = -1;
          return WAIT;
        }
        if (this.#queue.length === 0 && this.#waits >= TAKEOVER_WAITS) {
          // Teammates' cells whose items this agent holds beyond its own cells above.
          const spare = { ...obs.inventory };
          for (const c of split.order) {
            const item = itemForBlock(this.#data, c.block);
            if (item && c.level > check.level && split.owner.get(cellKey(c)) === obs.name) spare[item] = (spare[item] ?? 0) - 1;
          }
          this.#queue = this.#commands(obs, split, check, (p) => {
            const change = check.changes.find((c) => c.action === 'place' && cellKey(c.position) === cellKey(p));
            const item = change?.block && itemForBlock(this.#data, normalizeBlockName(change.block));
            if (!item || (spare[item] ?? 0) <= 0) return ownerOf(p);
            spare[item]! -= 1;
            return obs.name;
          });
        }
        if (this.#queue.length === 0) {
          if (++this.#waits > MAX_WAITS) {
            // Nothing more this agent can do here: on to the next level (its cells there may still be placed).
            const level = check.level;
            this.#waits = 0;
            this.#level = levels.find((l) => l > level);
            if (this.#level === undefined) this.#phase = 'done';
            return WAIT;
          }
          // Cells given up on get another chance now and then (a teammate may have moved away).
          if (this.#waits % 5 === 0) this.#attempts.clear();
          return this.#walkOff(obs, lastCommand) ?? WAIT;
        }
        this.#waits = 0;
      }
    }
    const next = this.#queue.shift();
    if (next) {
      this.#attempts.set(next, (this.#attempts.get(next) ?? 0) + 1);
      return next;
    }
    return `!checkBlueprintLevel(${this.#level})`;
  }

  /**
   * The commands for `owner`'s cells among a level check's changes, in the split's order: place
   * into air (when this agent holds the item and the cell touches a block to place against: the
   * ground or a lower level below it, or a cell of its level that is there or placed before it in
   * this list), dig a wrong block and place, dig a block that should not be there; a cell refused
   * before is tried from elsewhere (`!moveAway` first). A cell with nothing to rest on waits for the
   * teammates' cells beside it.
   */
  #commands(obs: Observation, split: VillagerSplit, check: BlueprintCheckData, ownerOf: (p: BlockPos) => string | undefined): string[] {
    const rank = new Map(split.order.map((c, i) => [cellKey(c), i]));
    const cells = new Map(split.order.map((c) => [cellKey(c), c]));
    const lowest = split.order[0]?.level;
    const missing = new Set(check.changes.filter((c) => c.action === 'place' || c.action === 'unseen').map((c) => cellKey(c.position)));
    const there = (p: BlockPos) => {
      const c = cells.get(cellKey(p));
      return c !== undefined && c.level <= check.level! && !missing.has(cellKey(p));
    };
    const touches = (p: BlockPos) =>
      cells.get(cellKey(p))?.level === lowest ||
      there({ ...p, y: p.y - 1 }) ||
      NEIGHBOURS.some(([dx, , dz]) => there({ x: p.x + dx, y: p.y, z: p.z + dz }));
    const mine = check.changes
      .filter((c) => c.action !== 'unseen' && ownerOf(c.position) === obs.name)
      .sort((a, b) => (rank.get(cellKey(a.position)) ?? -1) - (rank.get(cellKey(b.position)) ?? -1));
    const out: string[] = [];
    for (const change of mine) {
      const p = change.position;
      const dig = `!digAt(${p.x}, ${p.y}, ${p.z})`;
      const place = change.block ? `!placeBlockAt("${change.block}", ${p.x}, ${p.y}, ${p.z})` : undefined;
      const item = change.block && itemForBlock(this.#data, normalizeBlockName(change.block));
      if (change.action === 'place' && (!item || (obs.inventory[item] ?? 0) <= 0 || !touches(p))) continue;
      const steps = change.action === 'remove' ? [dig] : change.action === 'replace' ? [dig, place!] : [place!];
      if (steps.some((s) => (this.#attempts.get(s) ?? 0) >= MAX_CELL_ATTEMPTS)) continue;
      if (this.#refused.delete(cellKey(p))) out.push('!moveAway(2)');
      out.push(...steps);
      missing.delete(cellKey(p));
    }
    return out;
  }

  /** A walk off the site (a body in a cell blocks it), to this agent's own spot west of it; once per wait. */
  #walkOff(obs: Observation, lastCommand: string): string | undefined {
    const box = blueprintBox(obs.blueprint!);
    const p = obs.position;
    const onSite = p && p.x > box.min.x - 2 && p.x < box.max.x + 2 && p.z > box.min.z - 2 && p.z < box.max.z + 2;
    if (!onSite || (this.#offSite && lastCommand === this.#offSite)) return undefined;
    const names = [obs.name, ...(obs.task?.teammates ?? [])].sort((a, b) => a.localeCompare(b));
    this.#offSite = `!goToCoordinates(${box.min.x - 3}, ${box.min.y}, ${box.min.z + 2 * names.indexOf(obs.name)}, 1)`;
    return this.#offSite;
  }
}

/**
 * When a builder digs ground for a scaffold (`!placeBlockAt`'s `data.scaffold`: the blocks it lacks
 * to build one where a cell has nothing to click): not at a cell's first ask, which gets a wait (a
 * teammate's block beside it may be on its way, and a scaffold would stand in that teammate's
 * cell), but at the second, then as many ground blocks as asked ({@link scaffoldDig}).
 */
export class ScaffoldDigs {
  readonly #asked = new Set<string>();
  #left = 0;

  /** Reads `obs`'s outcomes (call once per decision); the dig or the wait due now, if any. */
  next(obs: Observation): string | undefined {
    const asked = obs.records.findLast(
      (r) =>
        r.kind === 'outcome' && r.outcome.command === '!placeBlockAt' && r.outcome.code === 'missing_items' && r.outcome.data?.scaffold,
    );
    if (asked?.kind === 'outcome') {
      const at = asked.outcome.data!.position;
      const key = at ? cellKey(at) : '';
      if (!this.#asked.has(key)) {
        this.#asked.add(key);
        return WAIT;
      }
      this.#left = asked.outcome.data!.scaffold!.blocks;
    }
    return this.#left > 0 ? scaffoldDig(obs, --this.#left) : undefined;
  }
}

/**
 * The `k`-th ground block to dig for a scaffold's blocks (its dirt is picked up): in a row of this
 * agent's own east of the blueprint's site, clear of the site, its chests and the teammates' rows
 * (a player digs the ground for blocks to stand a scaffold of: the blueprint's materials are all
 * spoken for).
 */
function scaffoldDig(obs: Observation, k: number): string {
  const box = blueprintBox(obs.blueprint!);
  const names = [obs.name, ...(obs.task?.teammates ?? [])].sort((a, b) => a.localeCompare(b));
  return `!digAt(${box.max.x + 3 + names.indexOf(obs.name)}, ${box.min.y - 1}, ${box.min.z + k})`;
}
