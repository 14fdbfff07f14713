/**
 * The worlds of the VillagerBench construction and cooking tasks as vanilla op commands
 * (`/fill`, `/setblock`, `/item replace`, `/summon`), which the set-up has agent 0 type, so that
 * the same set-up works on the embedded server and on a server where the bot is op. (The escape
 * rooms' commands are in `./escape.ts`.)
 *
 * - Construction: the materials in chests in a row south (+z) of the site (Appendix B.1: "a chest
 *   contains a variety of building materials"), the agents south of the chests.
 * - Cooking: a yard of glass walls around the task's centre (23 × 27 blocks, from one block behind
 *   the centre towards +z), the task's blocks, filled chests, structures (`./structures.ts`) and
 *   animals.
 */
import type { GameData } from '../../game/data.ts';
import { blocksBox, type PlacedBlock } from './construction.ts';
import type { FarmTask } from './cooking.ts';
import type { Pos } from './escape.ts';
import { structurePlan } from './structures.ts';

const xyz = (p: Pos) => `${p.x} ${p.y} ${p.z}`;
const add = (p: Pos, dx: number, dy: number, dz: number): Pos => ({ x: p.x + dx, y: p.y + dy, z: p.z + dz });

/** Slots of a single chest. */
export const CHEST_SLOTS = 27;

/**
 * Splits `items` into loads of at most {@link CHEST_SLOTS} stacks, each stack at most the item's
 * stack size (minecraft-data), in the order given.
 */
export function chestLoads(data: GameData, items: Readonly<Record<string, number>>): Record<string, number>[] {
  const loads: Record<string, number>[] = [];
  let load: Record<string, number> = {};
  let used = 0;
  for (const [item, count] of Object.entries(items)) {
    const stack = data.itemsByName[item]?.stackSize ?? 64;
    for (let left = count; left > 0; left -= stack) {
      if (used === CHEST_SLOTS) {
        loads.push(load);
        load = {};
        used = 0;
      }
      load[item] = (load[item] ?? 0) + Math.min(stack, left);
      used++;
    }
  }
  if (used > 0) loads.push(load);
  return loads;
}

/**
 * `/item replace` commands filling the chest at `at` with `items`, a stack per slot.
 *
 * @throws RangeError when the items take more than {@link CHEST_SLOTS} slots (split them with {@link chestLoads}).
 */
export function chestItemCommands(data: GameData, at: Pos, items: Readonly<Record<string, number>>): string[] {
  const commands: string[] = [];
  let slot = 0;
  for (const [item, count] of Object.entries(items)) {
    const stack = data.itemsByName[item]?.stackSize ?? 64;
    for (let left = count; left > 0; left -= stack) {
      if (slot >= CHEST_SLOTS) throw new RangeError(`the items do not fit in one chest (${CHEST_SLOTS} slots): ${JSON.stringify(items)}`);
      commands.push(`/item replace block ${xyz(at)} container.${slot++} with ${item} ${Math.min(stack, left)}`);
    }
  }
  return commands;
}

/** Where a construction's things go. */
export interface ConstructionLayout {
  /** The material chests, west to east, and what each holds. */
  chests: { at: Pos; items: Record<string, number> }[];
  /** Where agent i starts. */
  start(i: number): Pos;
  /** The box cleared before the build: the site, a margin, the chests' row and the agents' rows. */
  clear: { min: Pos; max: Pos };
}

/** A construction's layout: chests every other block along x, 3 blocks south of the site; agents 2 further south. */
export function constructionLayout(
  data: GameData,
  blocks: readonly PlacedBlock[],
  materials: Readonly<Record<string, number>>,
): ConstructionLayout {
  const box = blocksBox(blocks);
  const ground = box.min.y;
  const row = box.max.z + 3;
  const chests = chestLoads(data, materials).map((items, i) => ({ at: { x: box.min.x + 2 * i, y: ground, z: row }, items }));
  const start = (i: number): Pos => ({ x: box.min.x + (i % 8), y: ground, z: row + 2 + Math.floor(i / 8) });
  return {
    chests,
    start,
    clear: {
      min: { x: box.min.x - 2, y: ground, z: box.min.z - 2 },
      max: { x: Math.max(box.max.x, box.min.x + 2 * chests.length, box.min.x + 8) + 2, y: box.max.y + 2, z: row + 4 },
    },
  };
}

/** The commands placing and filling a construction's material chests. */
export function constructionChestCommands(data: GameData, layout: ConstructionLayout): string[] {
  return layout.chests.flatMap((c) => [`/setblock ${xyz(c.at)} chest[facing=south]`, ...chestItemCommands(data, c.at, c.items)]);
}

/** The yard of a farm task around its centre: x −11 to 11, z −1 to 25, clear up to 8 above. */
export const FARM_YARD = { minX: -11, maxX: 11, minZ: -1, maxZ: 25, height: 8 } as const;

/** A farm task's world in absolute positions. */
export interface FarmWorld {
  yard: { min: Pos; max: Pos };
  /** Block commands in order: the yard cleared, ground and walls, structures, components. */
  blocks: string[];
  /** Chest fillings, once the chests stand. */
  chestItems: string[];
  /** One `/summon` per animal. */
  summons: string[];
  /** Blocks whose presence says the world is built: a name at a position. */
  landmarks: { at: Pos; name: string }[];
  /** Animals summoned, by type. */
  animals: Record<string, number>;
  /** Where agent i starts: beside the centre. */
  start(i: number): Pos;
}

/**
 * The world of farm task `task` around `centre` (floor level, where agent 0 stands).
 *
 * @throws Error for a structure this project does not build; RangeError for a chest's items that
 *   do not fit.
 */
export function farmWorld(data: GameData, task: FarmTask, centre: Pos): FarmWorld {
  const y = centre.y;
  const min = { x: centre.x + FARM_YARD.minX, y, z: centre.z + FARM_YARD.minZ };
  const max = { x: centre.x + FARM_YARD.maxX, y: y + FARM_YARD.height, z: centre.z + FARM_YARD.maxZ };
  const wall = (a: Pos, b: Pos) => `/fill ${xyz(a)} ${xyz({ ...b, y: y + 3 })} glass`;
  const blocks = [
    `/fill ${xyz(min)} ${xyz(max)} air`,
    `/fill ${xyz({ ...min, y: y - 1 })} ${xyz({ ...max, y: y - 1 })} grass_block`,
    // Glass walls keep the animals in.
    wall(min, { x: max.x, y, z: min.z }),
    wall({ x: min.x, y, z: max.z }, max),
    wall(min, { x: min.x, y, z: max.z }),
    wall({ x: max.x, y, z: min.z }, max),
  ];
  const chestItems: string[] = [];
  const summons: string[] = [];
  const landmarks: { at: Pos; name: string }[] = [];
  const animals: Record<string, number> = {};
  for (const c of task.component) {
    const at = add(centre, c.position[0], c.position[1], c.position[2]);
    if (c.type === 'structure') {
      const plan = structurePlan(c.name);
      for (const b of plan.blocks) blocks.push(`/setblock ${xyz(add(at, b.dx, b.dy, b.dz))} ${b.state}`);
      for (const chest of plan.chests) chestItems.push(...chestItemCommands(data, add(at, chest.dx, chest.dy, chest.dz), chest.items));
      for (const a of plan.animals) {
        summons.push(`/summon ${a.name} ${at.x + a.dx + 0.5} ${at.y} ${at.z + a.dz + 0.5}`);
        animals[a.name] = (animals[a.name] ?? 0) + 1;
      }
      const last = plan.blocks.at(-1);
      if (last) landmarks.push({ at: add(at, last.dx, last.dy, last.dz), name: last.state.replace(/\[.*$/, '') });
    } else {
      blocks.push(`/setblock ${xyz(at)} ${c.facing ? `${c.name}[facing=${c.facing}]` : c.name}`);
      landmarks.push({ at, name: c.name });
      const items: Record<string, number> = {};
      for (const s of c.items ?? []) items[s.name] = (items[s.name] ?? 0) + s.count;
      chestItems.push(...chestItemCommands(data, at, items));
    }
  }
  return {
    yard: { min, max },
    blocks,
    chestItems,
    summons,
    landmarks,
    animals,
    start: (i) => ({ x: centre.x - 2 + 2 * (i % 3), y, z: centre.z + 1 + Math.floor(i / 3) }),
  };
}
