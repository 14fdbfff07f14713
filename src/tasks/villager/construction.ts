/**
 * VillagerBench's construction cooperation (Dong et al. 2024, §3 and Appendix B.1): a team builds
 * a blueprint whose blocks carry orientations, from materials in chests beside the site.
 *
 * The format (VillagerBench's blueprint files): a JSON list of blueprints
 * `{ name, size: [x, y, z], blocks: [{ name, position: [x, y, z], facing }] }`, positions relative
 * to the blueprint, `facing` one of `W | E | S | N` (the block's `facing` state: west, east,
 * south, north), `x | y | z` (its `axis`: logs, pillars) or `A` (none). Ours, optional: `half`
 * (`top | bottom`: stairs and trapdoors; a slab's `type`, which may also be `double`), a
 * `description` (the agent-facing text; written from the blocks without one) and `agents` (the
 * team size a generated task was made for). A task's id is `task_<index>` or the blueprint's name.
 *
 * Placement follows VillagerBench's: relative (x, y, z) goes to (x − ⌈size_x / 2⌉ − 8, −60 + y, z),
 * −60 being a superflat world's ground (the set-up moves it onto the ground it finds). Air, water
 * and lava entries are neither built nor judged.
 *
 * Judged from the world (VillagerAgent Appendix A.2, CausalMACE §4): completion C = blocks whose
 * position, name and wanted `facing`/`axis` (and our `half`/`type`) match / blueprint blocks; a
 * wanted property the placed block does not have (a `facing` on a plank) is not asked of it. VHR:
 * see `./views.ts`.
 *
 * Time budget (VillagerAgent Appendix A.3 eq. 6; the weights as `coordination-systems.md` gives
 * them): complexity c = Σ over the blocks of 2 · (1 / (n + 1) + 0.02 · h), n the block's
 * neighbours it may be placed against (see {@link constructionComplexity}), h its height above the
 * ground; action time (ln c + 1) · 60 + 180 s, whole run (ln c + 1) · 180 + 600 s (ln c + 1 taken
 * as 0 when negative: a blueprint of one or two blocks).
 */
import { z } from 'zod';
import type { GameData } from '../../game/data.ts';
import { itemForBlock } from '../../game/production.ts';
import { plainName, stateText, type BlockState, type StateLookup } from './states.ts';
import { compareViews, pixelOf, type Box, type ViewComparison } from './views.ts';

const int = z.number().int();

/** VillagerBench's orientation codes. */
export const VILLAGER_FACINGS = ['W', 'E', 'S', 'N', 'x', 'y', 'z', 'A'] as const;
export type VillagerFacing = (typeof VILLAGER_FACINGS)[number];

/** One block of a blueprint. */
export const villagerBlockSchema = z.strictObject({
  name: z.string().min(1),
  position: z.tuple([int, int, int]),
  facing: z.enum(VILLAGER_FACINGS).default('A'),
  half: z.enum(['top', 'bottom', 'double']).optional(),
});
export type VillagerBlock = z.infer<typeof villagerBlockSchema>;

/** One blueprint. */
export const villagerBlueprintSchema = z.strictObject({
  name: z.string().min(1),
  size: z.tuple([int.min(1), int.min(1), int.min(1)]),
  blocks: z.array(villagerBlockSchema).min(1),
  description: z.union([z.string(), z.array(z.string())]).optional(),
  agents: int.min(1).max(20).optional(),
});
export type VillagerBlueprint = z.infer<typeof villagerBlueprintSchema>;

/** A construction file: a list of blueprints. */
export const constructionFileSchema = z.array(villagerBlueprintSchema).min(1, 'at least one blueprint');

/** A superflat world's ground: where the lowest layer of a blueprint goes (y). */
export const SUPERFLAT_GROUND_Y = -60;

/** Entries that are neither built nor judged. */
const UNJUDGED = new Set(['air', 'water', 'lava']);

const FACING: Record<'W' | 'E' | 'S' | 'N', string> = { W: 'west', E: 'east', S: 'south', N: 'north' };

/** One block to build at its world position, with the properties the judge checks. */
export interface PlacedBlock {
  x: number;
  y: number;
  z: number;
  state: BlockState;
}

/** The state a blueprint block asks for: its name with `facing` or `axis` (and `half`, or a slab's `type`). */
export function wantedState(block: VillagerBlock): BlockState {
  const name = plainName(block.name);
  const properties: Record<string, string> = {};
  const f = block.facing;
  if (f === 'x' || f === 'y' || f === 'z') properties.axis = f;
  else if (f !== 'A') properties.facing = FACING[f];
  if (block.half) properties[name.endsWith('_slab') ? 'type' : 'half'] = block.half;
  return { name, properties };
}

/** The blueprint's blocks at their superflat positions (see the module comment); air, water and lava left out. */
export function placeBlueprint(blueprint: VillagerBlueprint): PlacedBlock[] {
  const dx = -Math.ceil(blueprint.size[0] / 2) - 8;
  return blueprint.blocks
    .filter((b) => !UNJUDGED.has(plainName(b.name)))
    .map((b) => ({ x: b.position[0] + dx, y: b.position[1] + SUPERFLAT_GROUND_Y, z: b.position[2], state: wantedState(b) }));
}

/** The blocks moved up or down by `dy`. */
export function shiftBlocks(blocks: readonly PlacedBlock[], dy: number): PlacedBlock[] {
  return blocks.map((b) => ({ ...b, y: b.y + dy }));
}

/**
 * The smallest box holding every block.
 *
 * @throws Error for no blocks.
 */
export function blocksBox(blocks: readonly PlacedBlock[]): Box {
  if (blocks.length === 0) throw new Error('the blueprint has no blocks to build (only air, water or lava)');
  const min = { x: Infinity, y: Infinity, z: Infinity };
  const max = { x: -Infinity, y: -Infinity, z: -Infinity };
  for (const b of blocks)
    for (const k of ['x', 'y', 'z'] as const) {
      min[k] = Math.min(min[k], b[k]);
      max[k] = Math.max(max[k], b[k]);
    }
  return { min, max };
}

/** Whether `block` is two blocks tall (a door, a tall plant): minecraft-data gives it a `half` of upper and lower. */
function twoTall(data: GameData, block: string): boolean {
  const half = data.blocksByName[block]?.states?.find((s) => s.name === 'half');
  return !!half?.values?.includes('upper');
}

/**
 * The items a build takes, by item: one per block, two for a double slab, none for the upper half
 * of a two-tall block standing on its lower half.
 *
 * @throws Error naming a block that no item places, and what to do.
 */
export function blueprintMaterials(data: GameData, blocks: readonly PlacedBlock[]): Record<string, number> {
  const counts: Record<string, number> = {};
  const names = new Map(blocks.map((b) => [`${b.x},${b.y},${b.z}`, b.state.name]));
  for (const b of blocks) {
    const name = b.state.name;
    if (twoTall(data, name) && names.get(`${b.x},${b.y - 1},${b.z}`) === name) continue;
    const item = itemForBlock(data, name);
    if (!item) throw new Error(`no item places ${name} in Minecraft ${data.version.minecraftVersion}: leave it out of the blueprint`);
    counts[item] = (counts[item] ?? 0) + (b.state.properties.type === 'double' ? 2 : 1);
  }
  return counts;
}

const DIRECTIONS: readonly (readonly [number, number, number])[] = [
  [-1, 0, 0],
  [1, 0, 0],
  [0, -1, 0],
  [0, 1, 0],
  [0, 0, -1],
  [0, 0, 1],
];

/**
 * Whether a block of orientation `facing` may be placed against its neighbour in direction `d`:
 * a block facing W is not placed against its west neighbour (E, S, N likewise); an axis-x block
 * only against the ones above and below, axis y only west and east, axis z only north and south.
 */
function placeableAgainst(facing: VillagerFacing, d: readonly [number, number, number]): boolean {
  switch (facing) {
    case 'W':
      return d[0] !== -1;
    case 'E':
      return d[0] !== 1;
    case 'N':
      return d[2] !== -1;
    case 'S':
      return d[2] !== 1;
    case 'x':
      return d[1] !== 0;
    case 'y':
      return d[0] !== 0;
    case 'z':
      return d[2] !== 0;
    case 'A':
      return true;
  }
}

/**
 * VillagerBench's construction complexity c (see the module comment): Σ over the judged blocks of
 * 2 · (1 / (n + 1) + 0.02 · h), n the neighbours among the blueprint's blocks it may be placed
 * against, h its height above the layer under the blueprint's lowest. 0 for no blocks.
 */
export function constructionComplexity(blueprint: VillagerBlueprint): number {
  const blocks = blueprint.blocks.filter((b) => !UNJUDGED.has(plainName(b.name)));
  if (blocks.length === 0) return 0;
  const filled = new Set(blocks.map((b) => b.position.join(',')));
  const ground = Math.min(...blocks.map((b) => b.position[1])) - 1;
  let c = 0;
  for (const b of blocks) {
    const [x, y, z] = b.position;
    const n = DIRECTIONS.filter((d) => filled.has(`${x + d[0]},${y + d[1]},${z + d[2]}`) && placeableAgainst(b.facing, d)).length;
    c += 2 * (1 / (n + 1) + 0.02 * (y - ground));
  }
  return c;
}

/** A scenario's time budget (s). */
export interface TimeBudget {
  /** The complexity it comes from. */
  complexity: number;
  /** Most seconds of the agents' action time. */
  actionS: number;
  /** Most seconds of the whole run (the task's timeout). */
  totalS: number;
}

/** The construction budget of complexity `c`: action (ln c + 1) · 60 + 180 s, total (ln c + 1) · 180 + 600 s, rounded. */
export function constructionBudget(c: number): TimeBudget {
  const l = c > 0 ? Math.max(0, Math.log(c) + 1) : 0;
  return { complexity: c, actionS: Math.round(l * 60 + 180), totalS: Math.round(l * 180 + 600) };
}

const SHORT: Record<string, string> = { west: 'W', east: 'E', south: 'S', north: 'N' };

/**
 * The agent-facing blueprint: one line per layer and kind of block (name and orientation) with
 * its world positions, lowest layer first.
 *
 * @example describeBlocks('hut', blocks)[1] // 'layer y=-60: oak_stairs facing W at [-11 -60 0] [-10 -60 0]'
 */
export function describeBlocks(name: string, blocks: readonly PlacedBlock[]): string[] {
  const layers = new Map<number, Map<string, PlacedBlock[]>>();
  for (const b of [...blocks].sort((p, q) => p.y - q.y || p.z - q.z || p.x - q.x)) {
    const layer = layers.get(b.y) ?? new Map<string, PlacedBlock[]>();
    layers.set(b.y, layer);
    const key = stateText(b.state.name, b.state.properties);
    layer.set(key, [...(layer.get(key) ?? []), b]);
  }
  const lines = [`Blueprint ${name}: build each block at its position with its orientation, lowest layer first.`];
  for (const [y, kinds] of layers)
    for (const list of kinds.values()) {
      const { name: block, properties: p } = list[0]!.state;
      const orientation = p.facing ? `facing ${SHORT[p.facing] ?? p.facing}` : p.axis ? `axis ${p.axis}` : 'facing A';
      const half = p.half ? ` half ${p.half}` : p.type ? ` type ${p.type}` : '';
      lines.push(`layer y=${y}: ${block} ${orientation}${half} at ${list.map((b) => `[${b.x} ${b.y} ${b.z}]`).join(' ')}`);
    }
  return lines;
}

/** One check of the construction judge. */
export interface ConstructionCheck {
  /** Completion C: matching blocks / blueprint blocks, in [0, 1]. */
  completion: number;
  matched: number;
  total: number;
  /** View hit rate, in [0, 1]. */
  vhr: number;
  views: ViewComparison[];
  /** The first {@link MAX_WRONG_CELLS} blueprint cells that do not match, with the state wanted and the one there. */
  wrong: WrongCell[];
}

/** A blueprint cell that does not match the world: its position, the state it wants and the one there (`air` when empty). */
export interface WrongCell {
  x: number;
  y: number;
  z: number;
  wanted: string;
  actual: string;
}

/** Most cells a check lists as wrong (the records say which cells a run missed, not all of a bare site's). */
export const MAX_WRONG_CELLS = 10;

/**
 * Whether the world's block is the wanted one: the same name, and each wanted property the block
 * has with the wanted value (see the module comment).
 */
export function blockMatches(wanted: BlockState, actual: BlockState | undefined): boolean {
  if (!actual || plainName(actual.name) !== wanted.name) return false;
  for (const [key, value] of Object.entries(wanted.properties)) {
    const have = actual.properties[key];
    if (have !== undefined && have !== value) return false;
  }
  return true;
}

/**
 * The construction judge of `blocks`: reads the blueprint's box through `states` at each call and
 * scores it. Undefined while part of the box is not loaded.
 */
export function constructionJudge(blocks: readonly PlacedBlock[]): (states: StateLookup) => ConstructionCheck | undefined {
  const box = blocksBox(blocks);
  const expected = new Map(blocks.map((b) => [`${b.x},${b.y},${b.z}`, b.state.name]));
  return (states) => {
    const seen = new Map<string, BlockState>();
    for (let y = box.min.y; y <= box.max.y; y++)
      for (let z = box.min.z; z <= box.max.z; z++)
        for (let x = box.min.x; x <= box.max.x; x++) {
          const s = states(x, y, z);
          if (!s) return undefined;
          seen.set(`${x},${y},${z}`, s);
        }
    const wrong: WrongCell[] = [];
    let matched = 0;
    for (const b of blocks) {
      const actual = seen.get(`${b.x},${b.y},${b.z}`);
      if (blockMatches(b.state, actual)) matched++;
      else if (wrong.length < MAX_WRONG_CELLS)
        wrong.push({
          x: b.x,
          y: b.y,
          z: b.z,
          wanted: stateText(b.state.name, b.state.properties),
          actual: actual ? stateText(actual.name, actual.properties) : 'air',
        });
    }
    const { views, vhr } = compareViews(
      box,
      (x, y, z) => pixelOf(expected.get(`${x},${y},${z}`)),
      (x, y, z) => {
        const s = seen.get(`${x},${y},${z}`);
        return pixelOf(s && plainName(s.name));
      },
    );
    return { completion: matched / blocks.length, matched, total: blocks.length, vhr, views, wrong };
  };
}
