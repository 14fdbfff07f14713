/**
 * The worlds of MineCollab's cooking and construction tasks, as lists of vanilla op commands
 * (`/fill`, `/setblock`, `/item replace`, `/summon`). The runner has agent 0 type them in chat,
 * so the same set-up works on the embedded server and on a user's server where the bot is op.
 *
 * Contents follow the MineCollab paper (arXiv 2504.17950, §3.2 "Cooking": a farm, animals, a
 * house with a crafting table, furnace, smoker and bed) and MINDcraft's cooking world set-up
 * (crops at full age, 8 of each animal). The layout is ours: compact, built with a few `/fill`s.
 */
import type { Blueprint } from './schema.ts';
import { levelCells } from './blueprint.ts';

/** A block position (integers). */
export interface Pos {
  x: number;
  y: number;
  z: number;
}

/** An inclusive box of block positions. */
export interface Box {
  min: Pos;
  max: Pos;
}

/** vanilla `commandModificationBlockLimit` default: most blocks one `/fill` may change. */
export const FILL_LIMIT = 32_768;

/** The animals of the cooking world, 8 of each (MINDcraft `cooking_tasks.js`). */
export const COOKING_ANIMALS = ['chicken', 'cow', 'llama', 'mooshroom', 'pig', 'rabbit', 'sheep'] as const;
/** How many of each {@link COOKING_ANIMALS} are summoned. */
export const ANIMALS_EACH = 8;
/** Half the side of the cleared grass plain around the origin, in blocks. */
export const PLAIN_RADIUS = 12;
/** Height of air cleared above the plain, in blocks. */
const PLAIN_HEIGHT = 10;

/** Where the cooking world puts things, relative to its origin (the block agent 0 stands in). */
export interface CookingLayout {
  /** Full-age crop rows: block name with state, and the box of its plants (y = origin y). */
  crops: { block: string; box: Box }[];
  craftingTable: Pos;
  furnace: Pos;
  smoker: Pos;
  /** The bed's head and foot. */
  bed: { head: Pos; foot: Pos };
  sugarCane: Pos[];
  mushrooms: { block: string; pos: Pos }[];
  /** Where each animal is summoned. */
  animals: { type: string; pos: Pos }[];
}

const at = (o: Pos, dx: number, dy: number, dz: number): Pos => ({ x: o.x + dx, y: o.y + dy, z: o.z + dz });
const xyz = (p: Pos): string => `${p.x} ${p.y} ${p.z}`;
const fill = (a: Pos, b: Pos, block: string, mode = ''): string => `/fill ${xyz(a)} ${xyz(b)} ${block}${mode ? ` ${mode}` : ''}`;

/**
 * The cooking world's layout around `origin` (the feet block of agent 0; the ground is one below).
 * East-south (+x, +z): the farm; north-west (−x, −z): the house; south-west: the animals;
 * north-east: the mushrooms. Everything lies within {@link PLAIN_RADIUS} of the origin.
 */
export function cookingLayout(origin: Pos): CookingLayout {
  const o = origin;
  const row = (block: string, z0: number, z1: number) => ({ block, box: { min: at(o, 3, 0, z0), max: at(o, 8, 0, z1) } });
  const animals = COOKING_ANIMALS.flatMap((type, a) =>
    Array.from({ length: ANIMALS_EACH }, (_, k) => ({ type, pos: at(o, -10 + k, 0, 3 + a) })),
  );
  return {
    // Water runs along z + 7 (x + 3 … x + 10): every farmland block is within 4 of it.
    crops: [row('wheat[age=7]', 3, 4), row('carrots[age=7]', 5, 6), row('potatoes[age=7]', 8, 9), row('beetroots[age=3]', 10, 11)],
    craftingTable: at(o, -5, 0, -9),
    furnace: at(o, -6, 0, -9),
    smoker: at(o, -7, 0, -9),
    bed: { foot: at(o, -9, 0, -6), head: at(o, -9, 0, -7) },
    // On grass beside the end of the water row.
    sugarCane: [at(o, 9, 0, 6), at(o, 10, 0, 6), at(o, 9, 0, 8), at(o, 10, 0, 8)],
    mushrooms: [
      { block: 'red_mushroom', pos: at(o, 3, 0, -4) },
      { block: 'red_mushroom', pos: at(o, 4, 0, -4) },
      { block: 'brown_mushroom', pos: at(o, 5, 0, -4) },
      { block: 'brown_mushroom', pos: at(o, 6, 0, -4) },
    ],
    animals,
  };
}

/**
 * The block commands of the cooking world around `origin`, in order (about 25 commands): clear
 * the plain, lay grass, farm with water and full-grown crops, sugar cane, mushrooms on podzol
 * (which keeps them alive in daylight, as on vanilla), and a 7×7 plank house with a doorway, a
 * crafting table, a furnace, a smoker and a bed.
 */
export function cookingBlockCommands(origin: Pos): string[] {
  const o = origin;
  const l = cookingLayout(o);
  const r = PLAIN_RADIUS;
  const commands = [
    fill(at(o, -r, 0, -r), at(o, r, PLAIN_HEIGHT, r), 'air'),
    fill(at(o, -r, -1, -r), at(o, r, -1, r), 'grass_block'),
    fill(at(o, 3, -1, 3), at(o, 8, -1, 11), 'farmland[moisture=7]'),
    fill(at(o, 3, -1, 7), at(o, 10, -1, 7), 'water'),
    ...l.crops.map((c) => fill(c.box.min, c.box.max, c.block)),
    ...l.sugarCane.map((p) => fill(p, at(p, 0, 1, 0), 'sugar_cane')),
    fill(at(o, 3, -1, -4), at(o, 6, -1, -4), 'podzol'),
    ...l.mushrooms.map((m) => `/setblock ${xyz(m.pos)} ${m.block}`),
    // House: floor, walls 3 high and roof as one hollow box; a doorway in the east wall.
    fill(at(o, -10, -1, -10), at(o, -4, 3, -4), 'oak_planks', 'hollow'),
    fill(at(o, -4, 0, -7), at(o, -4, 1, -7), 'air'),
    `/setblock ${xyz(l.craftingTable)} crafting_table`,
    `/setblock ${xyz(l.furnace)} furnace[facing=south]`,
    `/setblock ${xyz(l.smoker)} smoker[facing=south]`,
    `/setblock ${xyz(l.bed.foot)} red_bed[facing=north,part=foot]`,
    `/setblock ${xyz(l.bed.head)} red_bed[facing=north,part=head]`,
  ];
  return commands;
}

/** Coal in the fuel slot (slot 1) of the furnace and the smoker: they are ready to cook. */
export function cookingFuelCommands(origin: Pos): string[] {
  const l = cookingLayout(origin);
  return [l.furnace, l.smoker].map((p) => `/item replace block ${xyz(p)} container.1 with coal 64`);
}

/** One `/summon` per animal of the cooking world (56). */
export function cookingAnimalCommands(origin: Pos): string[] {
  return cookingLayout(origin).animals.map((a) => `/summon ${a.type} ${a.pos.x + 0.5} ${a.pos.y} ${a.pos.z + 0.5}`);
}

/** The smallest box holding every cell of every level of `blueprint`. */
export function blueprintBox(blueprint: Blueprint): Box {
  const cells = blueprint.levels.flatMap(levelCells);
  if (cells.length === 0) throw new Error('the blueprint has no cells');
  const min = { x: Infinity, y: Infinity, z: Infinity };
  const max = { x: -Infinity, y: -Infinity, z: -Infinity };
  for (const c of cells) {
    for (const k of ['x', 'y', 'z'] as const) {
      min[k] = Math.min(min[k], c[k]);
      max[k] = Math.max(max[k], c[k]);
    }
  }
  return { min, max };
}

/**
 * `/fill` commands covering `box` with `block`, split into horizontal slabs so that none changes
 * more than {@link FILL_LIMIT} blocks.
 *
 * @throws RangeError when a single layer of the box is larger than the limit.
 */
export function fillBoxCommands(box: Box, block: string): string[] {
  const layer = (box.max.x - box.min.x + 1) * (box.max.z - box.min.z + 1);
  if (layer > FILL_LIMIT) throw new RangeError(`a ${layer}-block layer is larger than one /fill may change (${FILL_LIMIT})`);
  const step = Math.floor(FILL_LIMIT / layer);
  const commands: string[] = [];
  for (let y = box.min.y; y <= box.max.y; y += step) {
    commands.push(fill({ ...box.min, y }, { ...box.max, y: Math.min(box.max.y, y + step - 1) }, block));
  }
  return commands;
}

/**
 * The blueprint moved up or down by `dy` blocks (every level's y; x and z stay).
 *
 * MineCollab's blueprints are written for a vanilla superflat world, whose surface is y = −61, so
 * level 0 sits at y = −60. The embedded server's world is vanilla superflat too, so there `dy` is 0;
 * other worlds (a user's server with another surface) get the blueprint moved so that level 0 rests
 * on the ground where the agents stand.
 */
export function shiftBlueprint(blueprint: Blueprint, dy: number): Blueprint {
  if (dy === 0) return blueprint;
  return {
    ...blueprint,
    levels: blueprint.levels.map((l) => ({
      ...l,
      coordinates: [l.coordinates[0], l.coordinates[1] + dy, l.coordinates[2]] as [number, number, number],
    })),
  };
}

/** The level with the lowest `level` number (level 0 in the benchmark's files). */
export function firstLevel(blueprint: Blueprint): Blueprint['levels'][number] {
  const first = [...blueprint.levels].sort((a, b) => a.level - b.level)[0];
  if (!first) throw new Error('the blueprint has no levels');
  return first;
}
