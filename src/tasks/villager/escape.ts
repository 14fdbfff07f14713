/**
 * VillagerBench's escape room challenge (Dong et al. 2024, §3 and Appendix B.3): rooms whose
 * mechanisms (levers, buttons, pressure plates, blocks to put in place) must be brought into given
 * states, alone, together or in turn, to open the way on.
 *
 * The format (VillagerBench's atom files): a JSON list of atoms, each one room's puzzle:
 * `{ init, condition, effect, in, out, activate_duration, split, merge, same_room, room_height,
 * room_width, wall_width, score, wait_interval, type, task_description, min_player }`. `init`,
 * `condition` and `effect` are lists of blocks `{ name, position, facing, face, powered, open,
 * axis, hinge, half, lock_key, command, random, sub_event, activate_mode }`, positions relative to
 * the room's centre (+z towards the exit; a door's position is its lower half). `init` builds the
 * room, `condition` says which states count, `effect` changes blocks or runs a `command` (`_pos_`
 * → `x y z`, `_position_` → `x=..,y=..,z=..`, `_merge_pos_`/`_split_pos_` → the next room's
 * centre) once the conditions hold: all (`type: "and"`, the default) or one (`"or"`).
 * `random: true` puts one copy per agent on free floor cells (seeded), with the conditions and
 * effects at its position following it. A block named `summon_<mob>` summons that mob.
 *
 * A run is `escape_<rooms>_<seed>`: the atoms a team of that size can play (`min_player`;
 * `split`/`merge` atoms need 2), shuffled by the seed and taken in turn, laid out along +z with
 * their centres {@link ROOM_SPACING} apart (the paper: 10), the team starting in the first. Each
 * room has its exit in the middle of its +z wall; an atom that neither builds nor clears that cell
 * gets an iron door there, opened when the room is done. `in` items are given to every agent.
 *
 * Judged from the world every tick ({@link EscapeJudge}):
 * - a condition holds while its block has every state it names (a weighted plate: `power` > 0
 *   for `powered=true`);
 * - `wait_interval` (default 4 s): a condition counts for that long after it last held, so an
 *   `and` room opens when every condition held within one window (two agents pressing buttons a
 *   few seconds apart); 0 or less: only at the same check;
 * - conditions are grouped by `sub_event`; a group whose conditions count fires its effects once;
 *   a room is done when its `final` group fires, or, without one, when every group has fired; a
 *   done room stays done. `activate_duration` (default 300 s): a group may fire again that long
 *   after its last firing (teleporting levers); once that long has passed and its conditions no
 *   longer count, its effects are undone: each block an effect changed goes back to what it was
 *   when the judge first looked (a door a button opened closes again), but for blocks at a
 *   condition's position, and once per firing (VillagerAgent `env/minecraft_define.py`,
 *   `MinecraftEvent.event_update`). A room's done stays;
 * - score per room: 1 when done, else the most of its conditions that ever counted at once over
 *   their number; the run's score is their mean weighted by each atom's `score` (VillagerAgent
 *   Appendix A.7 eq. 11; the plain mean when the scores are equal, as by default).
 *
 * Time budget: the papers give none for escape; ours: action 30 · D + 60 s, whole run
 * 60 · rooms + 360 s, D = Σ over the rooms of their conditions (Appendix A.8 eq. 12).
 */
import { z } from 'zod';
import { seededRandom } from '../random.ts';
import type { TimeBudget } from './construction.ts';
import { plainName, stateText, type BlockState, type StateLookup } from './states.ts';

const int = z.number().int();
const position = z.tuple([int, int, int]);

/** Longest `command` of an atom block (characters): a chat line is at most 256 once its placeholders are filled. */
export const MAX_COMMAND = 200;

/** One block of an atom's `init`, `condition` or `effect`. */
export const atomBlockSchema = z.strictObject({
  name: z.string().min(1),
  position,
  facing: z.enum(['north', 'south', 'west', 'east', 'up', 'down']).optional(),
  face: z.enum(['floor', 'wall', 'ceiling']).optional(),
  powered: z.boolean().optional(),
  open: z.boolean().optional(),
  axis: z.enum(['x', 'y', 'z']).optional(),
  hinge: z.enum(['left', 'right']).optional(),
  half: z.enum(['upper', 'lower', 'top', 'bottom']).optional(),
  lock_key: z.string().optional(),
  /** Typed in chat with its placeholders filled (up to about 30 more characters): at most {@link MAX_COMMAND} characters. */
  command: z
    .string()
    .max(MAX_COMMAND, `a command of at most ${MAX_COMMAND} characters (chat takes 256, and the placeholders grow)`)
    .optional(),
  random: z.boolean().optional(),
  sub_event: z.string().optional(),
  activate_mode: z.enum(['level']).optional(),
});
export type AtomBlock = z.infer<typeof atomBlockSchema>;

/** One atom: a room's puzzle. */
export const atomSchema = z.strictObject({
  init: z.array(atomBlockSchema).default([]),
  condition: z.array(atomBlockSchema).min(1, 'at least one condition'),
  effect: z.array(atomBlockSchema).default([]),
  in: z.record(z.string(), int.min(1)).default({}),
  out: z.record(z.string(), int.min(1)).default({}),
  activate_duration: z.number().positive().default(300),
  split: z.boolean().default(false),
  merge: z.boolean().default(false),
  same_room: z.boolean().default(true),
  room_height: int.min(3).max(16).default(4),
  room_width: int.min(2).max(8).default(3),
  wall_width: int.min(1).max(3).default(1),
  score: z.number().positive().default(1),
  wait_interval: z.number().default(4),
  type: z.enum(['and', 'or']).default('and'),
  task_description: z.string().default(''),
  min_player: int.min(1).max(20).default(1),
});
export type Atom = z.infer<typeof atomSchema>;

/** A VillagerBench atom file: a list of atoms. */
export const atomFileSchema = z.array(atomSchema).min(1, 'at least one atom');

const RUN_ID = /^escape_(\d+)_(\d+)$/;

/** Our escape file: atoms with the runs to play and the team size they were made for. */
export const escapeFileSchema = z.strictObject({
  atoms: atomFileSchema,
  runs: z.array(z.string().regex(RUN_ID, 'a run id such as escape_3_7')).min(1),
  agents: int.min(1).max(20).optional(),
});

/** VillagerBench's escape runs for a bare atom file: 1–5 rooms, seeds 0–4 (25 runs, §4). */
export const DEFAULT_ESCAPE_RUNS: readonly string[] = [1, 2, 3, 4, 5].flatMap((rooms) =>
  [0, 1, 2, 3, 4].map((seed) => `escape_${rooms}_${seed}`),
);

/** Most rooms a run may chain. */
export const MAX_ROOMS = 30;

/** Distance between the centres of two rooms (blocks; the paper: "centers spaced 10 units apart"). */
export const ROOM_SPACING = 10;

/** `escape_<rooms>_<seed>` read; undefined for another id. */
export function parseEscapeId(id: string): { rooms: number; seed: number } | undefined {
  const m = RUN_ID.exec(id);
  return m ? { rooms: Number(m[1]), seed: Number(m[2]) } : undefined;
}

/** A block position. */
export interface Pos {
  x: number;
  y: number;
  z: number;
}

/** A block of a room at its world position with the states it sets or asks for. */
export interface RoomBlock {
  name: string;
  at: Pos;
  /** The states named (`powered`, `open`, `facing`, ...), as vanilla writes them. */
  states: Record<string, string>;
  command?: string;
  lockKey?: string;
  subEvent: string;
}

/** One room of a chain. */
export interface Room {
  index: number;
  /** The atom it was made from (its index in the file). */
  atom: number;
  centre: Pos;
  /** Interior half-width, wall thickness, height (blocks). */
  width: number;
  wall: number;
  height: number;
  /** The exit cell (lower of two), in the middle of the +z wall. */
  exit: Pos;
  /** The chain's own iron door in the exit, when the atom leaves that cell alone. */
  gate: boolean;
  init: RoomBlock[];
  conditions: RoomBlock[];
  effects: RoomBlock[];
  type: 'and' | 'or';
  waitS: number;
  activateS: number;
  score: number;
  description: string;
}

/** A chain of rooms: one run's escape. */
export interface EscapeChain {
  rooms: Room[];
  /** Items every agent starts with (the rooms' `in` items). */
  inventory: Record<string, number>;
  /** Where agent i starts (in the first room). */
  starts: Pos[];
  /** The box the rooms take (walls included), to clear before building. */
  box: { min: Pos; max: Pos };
}

const STATE_KEYS = ['facing', 'face', 'powered', 'open', 'axis', 'hinge', 'half'] as const;

function statesOf(b: AtomBlock): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of STATE_KEYS) if (b[k] !== undefined) out[k] = String(b[k]);
  return out;
}

const key = (p: Pos) => `${p.x},${p.y},${p.z}`;
const samePos = (p: readonly number[], q: readonly number[]) => p[0] === q[0] && p[1] === q[1] && p[2] === q[2];

/**
 * Chains `rooms` rooms from `atoms` for `agents` agents with `seed` (see the module comment), the
 * first room's centre at `origin` (floor level).
 *
 * @throws Error when no atom suits the team, or a room has no floor cell left for a random block.
 */
export function chainRooms(atoms: readonly Atom[], rooms: number, seed: number, agents: number, origin: Pos): EscapeChain {
  const rand = seededRandom(seed).next;
  const usable = atoms.map((a, i) => ({ a, i })).filter(({ a }) => a.min_player <= agents && (!(a.split || a.merge) || agents >= 2));
  if (usable.length === 0)
    throw new Error(
      `none of the ${atoms.length} atoms can be played by ${agents} agent(s): each needs more players (min_player, split, merge)`,
    );
  for (let i = usable.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [usable[i], usable[j]] = [usable[j]!, usable[i]!];
  }
  const chosen = Array.from({ length: rooms }, (_, k) => usable[k % usable.length]!);
  const inventory: Record<string, number> = {};
  // Each centre {@link ROOM_SPACING} past the one before, or farther when wide rooms need it.
  let z = origin.z;
  const built = chosen.map(({ a, i }, k): Room => {
    const width = a.room_width;
    const wall = a.wall_width;
    if (k > 0) {
      const before = chosen[k - 1]!.a;
      z += Math.max(ROOM_SPACING, before.room_width + before.wall_width + width + wall + 2);
    }
    const centre = { x: origin.x, y: origin.y, z };
    const abs = (p: readonly number[]): Pos => ({ x: centre.x + p[0]!, y: centre.y + p[1]!, z: centre.z + p[2]! });
    const exit = { x: centre.x, y: centre.y, z: centre.z + width + wall };
    const taken = new Set<string>();
    for (const b of a.init) if (!b.random) taken.add(key(abs(b.position)));
    const floorCell = (): Pos => {
      const free: Pos[] = [];
      for (let dx = -width; dx <= width; dx++)
        for (let dz = -width; dz <= width; dz++) {
          const p = { x: centre.x + dx, y: centre.y, z: centre.z + dz };
          // Not the walk from the entrance to the exit (the centre column), not a cell taken.
          if (dx !== 0 && !taken.has(key(p))) free.push(p);
        }
      if (free.length === 0) throw new Error(`room ${k + 1} (atom ${i}): no free floor cell left for a random block`);
      const p = free[Math.floor(rand() * free.length)]!;
      taken.add(key(p));
      return p;
    };
    const block = (b: AtomBlock, at: Pos): RoomBlock => ({
      name: plainName(b.name),
      at,
      states: statesOf(b),
      ...(b.command !== undefined ? { command: b.command } : {}),
      ...(b.lock_key !== undefined ? { lockKey: b.lock_key } : {}),
      subEvent: b.sub_event ?? '',
    });
    const init: RoomBlock[] = [];
    const conditions: RoomBlock[] = [];
    const effects: RoomBlock[] = [];
    const randomAt = (p: readonly number[]) => a.init.some((b) => b.random && samePos(b.position, p));
    for (const b of a.init) {
      const positions = b.random ? Array.from({ length: agents }, floorCell) : [abs(b.position)];
      for (const at of positions) {
        init.push(block(b, at));
        if (!b.random) continue;
        for (const c of a.condition) if (samePos(c.position, b.position)) conditions.push(block(c, at));
        for (const e of a.effect) if (samePos(e.position, b.position)) effects.push(block(e, at));
      }
    }
    for (const c of a.condition) if (!randomAt(c.position)) conditions.push(block(c, abs(c.position)));
    for (const e of a.effect) if (!randomAt(e.position)) effects.push(block(e, abs(e.position)));
    // An effect on an init block keeps the init's states it does not name (a door's facing, hinge).
    for (const e of effects) {
      const was = init.find((b) => key(b.at) === key(e.at) && b.name === e.name);
      if (was) e.states = { ...was.states, ...e.states };
    }
    for (const [item, n] of Object.entries(a.in)) inventory[item] = Math.max(inventory[item] ?? 0, n);
    const touchesExit = [...init, ...effects].some(
      (b) => b.at.x === exit.x && b.at.z === exit.z && (b.at.y === exit.y || b.at.y === exit.y + 1),
    );
    return {
      index: k,
      atom: i,
      centre,
      width,
      wall,
      height: a.room_height,
      exit,
      gate: !touchesExit,
      init,
      conditions,
      effects,
      type: a.type,
      waitS: a.wait_interval,
      activateS: a.activate_duration,
      score: a.score,
      description: a.task_description,
    };
  });
  const first = built[0]!;
  const starts = Array.from({ length: agents }, (_, i) => ({
    x: first.centre.x - 1 + (i % 3),
    y: first.centre.y,
    z: first.centre.z - first.width + Math.floor(i / 3),
  }));
  const reach = Math.max(...built.map((r) => r.width + r.wall));
  const last = built.at(-1)!;
  return {
    rooms: built,
    inventory,
    starts,
    box: {
      min: { x: origin.x - reach, y: origin.y - 1, z: origin.z - reach - 1 },
      max: { x: origin.x + reach, y: origin.y + Math.max(...built.map((r) => r.height)), z: last.centre.z + reach + 2 },
    },
  };
}

const xyz = (p: Pos) => `${p.x} ${p.y} ${p.z}`;

/** A command with its placeholders filled: `_pos_`, `_position_`, `_merge_pos_`, `_split_pos_` (the next room's centre). */
export function fillCommand(command: string, at: Pos, next: Pos): string {
  return command
    .replaceAll('_position_', `x=${at.x},y=${at.y},z=${at.z}`)
    .replaceAll('_merge_pos_', xyz(next))
    .replaceAll('_split_pos_', xyz(next))
    .replaceAll('_pos_', xyz(at));
}

/** Where the room after `room` begins (its centre), or the cell past the last room's exit. */
export function nextCentre(chain: EscapeChain, room: Room): Pos {
  return chain.rooms[room.index + 1]?.centre ?? { ...room.exit, z: room.exit.z + 2 };
}

/** Whether a block name is a door (two halves). */
const isDoor = (name: string) => name.endsWith('_door');

/** Options of {@link blockCommands}. */
export interface BlockCommandOptions {
  /** Set-up: the block is always placed (an effect with only a command leaves its block as it is). */
  init?: boolean;
  /**
   * The properties a block has (minecraft-data's states), when known: the states it lacks are left
   * out of `/setblock` (an atom may give a standing torch a `facing`), which would refuse them.
   */
  propertiesOf?: (name: string) => readonly string[] | undefined;
}

/**
 * The op commands that put a room block in place: both halves of a door, a `summon_<mob>`, a lock,
 * and the block's own command. The one place a block of an atom becomes world changes, for the
 * set-up and for effects alike ({@link applyEffect}).
 */
export function blockCommands(b: RoomBlock, next: Pos, options: BlockCommandOptions = {}): string[] {
  const out: string[] = [];
  const known = options.propertiesOf?.(b.name);
  const states = known ? Object.fromEntries(Object.entries(b.states).filter(([k]) => known.includes(k))) : b.states;
  if (b.name.startsWith('summon_')) out.push(`/summon ${b.name.slice('summon_'.length)} ${b.at.x + 0.5} ${b.at.y} ${b.at.z + 0.5}`);
  else if (isDoor(b.name)) {
    const { half: _half, ...rest } = states;
    out.push(`/setblock ${xyz(b.at)} ${stateText(b.name, { ...rest, half: 'lower' })}`);
    out.push(`/setblock ${xyz({ ...b.at, y: b.at.y + 1 })} ${stateText(b.name, { ...rest, half: 'upper' })}`);
  } else if (options.init || b.command === undefined || Object.keys(b.states).length > 0 || b.name === 'air') {
    out.push(`/setblock ${xyz(b.at)} ${stateText(b.name, states)}`);
  }
  if (b.lockKey) out.push(`/data merge block ${xyz(b.at)} {lock:${JSON.stringify(b.lockKey)}}`);
  if (b.command) out.push(fillCommand(b.command, b.at, next));
  return out;
}

/** How the judge changes the world: runs op commands (agent 0 types them during a run). */
export interface EffectRunner {
  command(lines: string[]): void;
}

/**
 * Applies one effect of a room: its block commands ({@link blockCommands}), and, for air over a
 * door's lower half, its upper half too. Every change the escape judge makes goes through here.
 */
export function applyEffect(runner: EffectRunner, chain: EscapeChain, room: Room, effect: RoomBlock, before: BlockState | undefined): void {
  const lines = blockCommands(effect, nextCentre(chain, room));
  if (effect.name === 'air' && before && isDoor(before.name) && before.properties.half === 'lower')
    lines.push(`/setblock ${xyz({ ...effect.at, y: effect.at.y + 1 })} air`);
  if (lines.length) runner.command(lines);
}

/** The iron door the chain puts in a room's exit, closed or open. */
export function gateCommands(room: Room, open: boolean): string[] {
  return blockCommands({ name: 'iron_door', at: room.exit, states: { facing: 'south', open: String(open) }, subEvent: '' }, room.exit);
}

/**
 * The commands that build the chain: the box cleared, a floor, each room's walls and floor
 * (bedrock, a glass roof, an entrance in the −z wall but the first room's, a walled passage from
 * the room before, the exit cell in the +z wall left for the atom or the gate), the gates, the
 * atoms' `init` blocks (without the states `propertiesOf` says a block lacks).
 */
export function escapeBuildCommands(chain: EscapeChain, propertiesOf?: BlockCommandOptions['propertiesOf']): string[] {
  const { min, max } = chain.box;
  const out = [`/fill ${xyz(min)} ${xyz(max)} air`, `/fill ${xyz(min)} ${xyz({ ...max, y: min.y })} smooth_stone`];
  for (const room of chain.rooms) {
    const c = room.centre;
    const r = room.width + room.wall;
    const top = c.y + room.height;
    // A hollow box of bedrock from the floor (under the feet) to the roof, roofed with glass.
    out.push(`/fill ${xyz({ x: c.x - r, y: c.y - 1, z: c.z - r })} ${xyz({ x: c.x + r, y: top, z: c.z + r })} bedrock hollow`);
    out.push(`/fill ${xyz({ x: c.x - r, y: top, z: c.z - r })} ${xyz({ x: c.x + r, y: top, z: c.z + r })} glass`);
    if (room.index > 0) {
      // Between this room and the one before: a wall across, with a passage to this room's entrance.
      const from = chain.rooms[room.index - 1]!.exit.z + 1;
      const to = c.z - r - 1;
      if (to >= from) {
        out.push(`/fill ${xyz({ x: c.x - r, y: c.y, z: from })} ${xyz({ x: c.x + r, y: top, z: to })} bedrock`);
        out.push(`/fill ${xyz({ x: c.x, y: c.y, z: from })} ${xyz({ x: c.x, y: c.y + 1, z: to })} air`);
      }
      // The entrance (the first room has none: the team starts inside).
      out.push(`/fill ${xyz({ x: c.x, y: c.y, z: c.z - r })} ${xyz({ x: c.x, y: c.y + 1, z: c.z - room.width - 1 })} air`);
    }
    if (room.gate) out.push(...gateCommands(room, false));
    for (const b of room.init)
      out.push(...blockCommands(b, nextCentre(chain, room), { init: true, ...(propertiesOf ? { propertiesOf } : {}) }));
  }
  return out;
}

/** Whether the world's block has every state a condition names (a weighted plate's `power` for `powered`). */
export function conditionHolds(c: RoomBlock, actual: BlockState | undefined): boolean {
  if (!actual || plainName(actual.name) !== c.name) return false;
  for (const [k, v] of Object.entries(c.states)) {
    const have = actual.properties[k];
    if (k === 'powered' && have === undefined && actual.properties.power !== undefined) {
      if ((actual.properties.power !== '0') !== (v === 'true')) return false;
    } else if (have !== undefined && have !== v) return false;
  }
  return true;
}

/** The escape budget (see the module comment). */
export function escapeBudget(chain: EscapeChain): TimeBudget {
  const d = chain.rooms.reduce((s, r) => s + r.conditions.length, 0);
  return { complexity: d, actionS: 30 * d + 60, totalS: 60 * chain.rooms.length + 360 };
}

/** One check of the escape judge. */
export interface EscapeCheck {
  /** Per room: 1 when done, else the most conditions that counted at once over their number. */
  rooms: number[];
  done: number;
  /** The rooms' scores weighted by their atoms' scores, in [0, 1]. */
  score: number;
  escaped: boolean;
}

interface Group {
  name: string;
  conditions: number[];
  effects: RoomBlock[];
  /** Last firing (ms); -Infinity never. */
  firedAt: number;
  /** Its effects' blocks as the judge first saw them, to undo them with; undefined before the first check. */
  before: (BlockState | undefined)[] | undefined;
  /** Whether its last firing's effects were undone. */
  undone: boolean;
}

/**
 * The escape judge of one chain (see the module comment): call {@link check} every tick with the
 * world's states and the time; it fires the rooms' effects through {@link applyEffect}.
 */
export class EscapeJudge {
  readonly #chain: EscapeChain;
  readonly #heldAt: number[][];
  readonly #groups: Group[][];
  readonly #done: boolean[];
  readonly #best: number[];

  constructor(chain: EscapeChain) {
    this.#chain = chain;
    this.#heldAt = chain.rooms.map((r) => r.conditions.map(() => -Infinity));
    this.#groups = chain.rooms.map((r) => {
      const names = [...new Set(r.conditions.map((c) => c.subEvent))];
      return names.map((name) => ({
        name,
        conditions: r.conditions.flatMap((c, i) => (c.subEvent === name ? [i] : [])),
        // Effects without a sub-event go with a room's single group, or with its final one.
        effects: r.effects.filter((e) => e.subEvent === name || (e.subEvent === '' && (names.length === 1 || name === 'final'))),
        firedAt: -Infinity,
        before: undefined,
        undone: false,
      }));
    });
    this.#done = chain.rooms.map(() => false);
    this.#best = chain.rooms.map(() => 0);
  }

  /**
   * One check at `nowMs` (any clock in ms, increasing): reads each condition block through
   * `states`, fires what holds through `runner`, and scores.
   */
  check(states: StateLookup, runner: EffectRunner, nowMs: number): EscapeCheck {
    this.#chain.rooms.forEach((room, r) => {
      const heldAt = this.#heldAt[r]!;
      const window = Math.max(0, room.waitS) * 1000;
      const counts = room.conditions.map((c, i) => {
        if (conditionHolds(c, states(c.at.x, c.at.y, c.at.z))) heldAt[i] = nowMs;
        return heldAt[i] === nowMs || nowMs - heldAt[i]! <= window;
      });
      this.#best[r] = Math.max(this.#best[r]!, counts.filter(Boolean).length);
      const groups = this.#groups[r]!;
      const fired = groups.map((g) => {
        g.before ??= g.effects.map((e) => states(e.at.x, e.at.y, e.at.z));
        const met = room.type === 'or' ? g.conditions.some((i) => counts[i]) : g.conditions.every((i) => counts[i]);
        if (nowMs - g.firedAt >= room.activateS * 1000) {
          if (met) {
            g.firedAt = nowMs;
            g.undone = false;
            for (const e of g.effects) applyEffect(runner, this.#chain, room, e, states(e.at.x, e.at.y, e.at.z));
          } else if (g.firedAt > -Infinity && !g.undone) {
            g.undone = true;
            this.#undo(room, g, states, runner);
          }
        }
        return g.firedAt > -Infinity;
      });
      const final = groups.findIndex((g) => g.name === 'final');
      const done = final >= 0 ? fired[final]! : fired.every(Boolean);
      if (done && !this.#done[r]) {
        this.#done[r] = true;
        if (room.gate) runner.command(gateCommands(room, true));
      }
    });
    const rooms = this.#chain.rooms.map((room, r) => (this.#done[r] ? 1 : this.#best[r]! / room.conditions.length));
    const weights = this.#chain.rooms.map((room) => room.score);
    const total = weights.reduce((s, w) => s + w, 0);
    const done = this.#done.filter(Boolean).length;
    return { rooms, done, score: rooms.reduce((s, v, i) => s + v * weights[i]!, 0) / total, escaped: done === rooms.length };
  }

  /**
   * Puts back the blocks a group's effects changed, as the judge first saw them: not those at a
   * condition's position (the agents' own mechanisms), nor a summon's (no block changed).
   */
  #undo(room: Room, group: Group, states: StateLookup, runner: EffectRunner): void {
    group.effects.forEach((e, i) => {
      const was = group.before?.[i];
      if (!was || e.name.startsWith('summon_') || room.conditions.some((c) => c.at.x === e.at.x && c.at.y === e.at.y && c.at.z === e.at.z))
        return;
      const block: RoomBlock = { name: plainName(was.name), at: e.at, states: { ...was.properties }, subEvent: e.subEvent };
      applyEffect(runner, this.#chain, room, block, states(e.at.x, e.at.y, e.at.z));
    });
  }
}

/** The agent-facing description of a chain: each room with its hint, mechanisms, positions and wanted states. */
export function describeChain(chain: EscapeChain): string {
  const lines = [
    `Escape through ${chain.rooms.length} room(s) in a row towards +z. Each room's exit is in the middle of its +z wall; do the room's task to open it, then go on.`,
  ];
  for (const room of chain.rooms) {
    const wants = room.conditions.map((c) => `${stateText(c.name, c.states)} at [${c.at.x} ${c.at.y} ${c.at.z}]`).join('; ');
    const together =
      room.type === 'or'
        ? ' Any one of them.'
        : room.conditions.length > 1
          ? room.waitS > 0
            ? ` All of them within ${room.waitS} s of each other.`
            : ' All of them at the same time.'
          : '';
    lines.push(
      `Room ${room.index + 1} (centre [${xyz(room.centre)}]): ${room.description || 'open the exit.'} Needed: ${wants}.${together}`,
    );
  }
  return lines.join('\n');
}
