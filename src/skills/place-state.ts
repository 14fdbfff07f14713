/**
 * Placing a block in a given state (`!placeBlockAt("oak_stairs[facing=west,half=bottom]", x, y, z)`).
 * The bot places it the way a player does: the server decides the state from the click (vanilla
 * `getStateForPlacement`, src/server/features/placing.ts), so the bot chooses the click that gives
 * the state asked for, which block face to click, where on it, and which way to look, stands where
 * that click is possible, places, and checks the state it got.
 *
 * The click rules (vanilla, per block family):
 * - stairs (`StairBlock`): `facing` is the look; `half=bottom` from a click on a block's top or the
 *   lower half of a side, `top` from a block's bottom or the upper half of a side;
 * - slabs (`SlabBlock`): `type=bottom|top` as stairs' half;
 * - doors (`DoorBlock`): placed by the lower half on a block's top; `facing` is the look, `hinge`
 *   follows where on the top the click lands (`DoorBlock.getHinge`);
 * - trapdoors (`TrapDoorBlock`): a click on a side faces out of that side, its half from the click
 *   height; a click on a top (`half=bottom`) or a bottom (`top`) faces against the look;
 * - fence gates (`FenceGateBlock`): `facing` is the look;
 * - levers and buttons (`FaceAttachedHorizontalDirectionalBlock`): `face=floor|ceiling` from a
 *   block's top or bottom, `facing` the look; `face=wall` from a side, facing out of it;
 * - pillars (`RotatedPillarBlock`: logs, stems, basalt...): `axis` is the clicked face's axis;
 * - other blocks with a horizontal `facing` (furnaces, chests...): facing the player, against the
 *   look (`HorizontalDirectionalBlock` users).
 * States no click gives are refused up front: `open=true`, `powered=true`, `waterlogged=true`,
 * stairs' `shape` other than `straight` (the shape follows the neighbours), a door's `half=upper`,
 * a slab's `type=double`. Other properties are checked after placing.
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Item } from 'prismarine-item';
import pathfinderPkg from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { abortable, throwIfAborted } from '../util/abort.ts';
import { describeProperties, formatBlockState, parseBlockState, type BlockStateSpec } from '../game/block-state.ts';
import { nameResolver } from '../game/names.ts';
import { doorHinge, HORIZONTAL_STEP, lookFacing, type HorizontalDirection } from '../game/placement.ts';
import { switchKinds } from '../game/switches.ts';
import { dropItemIds } from '../game/production.ts';
import { clickToPlace, digAt, isReplaceable, placeBlockAt } from './blocks.ts';
import { inventoryCounts, requireItem } from './items.ts';
import { boundedWalk, goTo, REACH } from './movement.ts';
import { formatPos } from './navigation.ts';
import { levelCells } from '../tasks/blueprint.ts';
import type { Blueprint } from '../tasks/schema.ts';
import { done, type Outcome, SkillError } from './outcome.ts';

const { goals } = pathfinderPkg;

/** How long the walk to a spot for the click may take, in ms. */
export const PLACE_WALK_MS = 30_000;
/** Eye height of a standing player, in blocks. */
const EYE_HEIGHT = 1.62;
/** A look counts as facing a direction when its sideways part is at most this share of its forward part (yaw within ~35°). */
const LOOK_SLACK = 0.7;

/** One way to place: click `face` of the block at `ref` at `point` (relative to `ref`'s corner), looking `look` (any when undefined). */
interface Click {
  ref: Vec3;
  face: Vec3;
  point: Vec3;
  look?: HorizontalDirection;
}

const UP = new Vec3(0, 1, 0);
const DOWN = new Vec3(0, -1, 0);
const HORIZONTALS: readonly HorizontalDirection[] = ['north', 'south', 'west', 'east'];
const OPPOSITE: Record<HorizontalDirection, HorizontalDirection> = { north: 'south', south: 'north', west: 'east', east: 'west' };

function step(direction: HorizontalDirection): Vec3 {
  const { x, z } = HORIZONTAL_STEP[direction];
  return new Vec3(x, 0, z);
}

function isHorizontal(value: string | undefined): value is HorizontalDirection {
  return value === 'north' || value === 'south' || value === 'west' || value === 'east';
}

/** A click on `face` of the block across that face from `pos`, at the face's centre (a side: at height `y`). */
function clickFrom(pos: Vec3, face: Vec3, options: { y?: number; x?: number; z?: number; look?: HorizontalDirection } = {}): Click {
  const ref = pos.minus(face);
  const point = new Vec3(
    options.x ?? 0.5 + face.x * 0.5,
    face.y !== 0 ? 0.5 + face.y * 0.5 : (options.y ?? 0.5),
    options.z ?? 0.5 + face.z * 0.5,
  );
  return { ref, face, point, ...(options.look ? { look: options.look } : {}) };
}

/** Clicks giving the lower (`bottom`) or upper (`top`) half: a block's top or bottom, or a side's lower or upper half. */
function halfClicks(pos: Vec3, half: string | undefined, look?: HorizontalDirection): Click[] {
  const sides = (y: number) => HORIZONTALS.map((d) => clickFrom(pos, step(d), { y, look }));
  if (half === 'top') return [clickFrom(pos, DOWN, { look }), ...sides(0.75)];
  return [clickFrom(pos, UP, { look }), ...sides(0.25)];
}

/** Refuses properties no click gives (see the module's notes), naming what to do instead. */
function refuseUnclickable(spec: BlockStateSpec): void {
  const { name, properties: p } = spec;
  const refuse = (why: string) => {
    throw new SkillError('invalid', `${formatBlockState(spec)} cannot be placed by a click: ${why}`);
  };
  if (p.open === 'true') refuse('a block is placed closed; place it, then open it (!activate).');
  if (p.powered === 'true') refuse('a block is placed unpowered; place it, then power it (!activate).');
  if (p.waterlogged === 'true') refuse('a block is waterlogged only when placed in water.');
  if (name.endsWith('_stairs') && p.shape && p.shape !== 'straight')
    refuse('stairs are placed straight; their shape follows the stairs beside them.');
  if (name.endsWith('_door') && p.half === 'upper') refuse('a door is placed by its lower half: give the cell below with half=lower.');
  if (name.endsWith('_door') && p.hinge && !p.facing) refuse('give the facing with the hinge (the hinge side depends on it).');
  if (name.endsWith('_slab') && p.type === 'double') refuse('place the slab twice in the same cell (type=bottom, then again).');
}

/** The clicks that give `spec` at `pos`, best first (see the module's rules). */
function clicksFor(bot: Bot, spec: BlockStateSpec, pos: Vec3): Click[] {
  const { name, properties: p } = spec;
  const facing = isHorizontal(p.facing) ? p.facing : undefined;
  const any = [clickFrom(pos, UP), ...HORIZONTALS.map((d) => clickFrom(pos, step(d))), clickFrom(pos, DOWN)];
  const kind = switchKinds(bot.registry).get(name)?.kind;
  if (name.endsWith('_stairs')) return halfClicks(pos, p.half, facing);
  if (name.endsWith('_slab')) return halfClicks(pos, p.type, undefined);
  if (name.endsWith('_door')) {
    if (!facing || !p.hinge) return [clickFrom(pos, UP, { look: facing })];
    const spots = [0.25, 0.75].flatMap((x) => [0.25, 0.75].map((z) => ({ x, z })));
    const spot = spots.find((s) => doorHinge(facing, s.x, s.z) === p.hinge)!;
    return [clickFrom(pos, UP, { look: facing, x: spot.x, z: spot.z })];
  }
  if (name.endsWith('_trapdoor')) {
    const y = p.half === 'top' ? 0.75 : 0.25;
    const sides = facing ? [clickFrom(pos, step(facing), { y })] : HORIZONTALS.map((d) => clickFrom(pos, step(d), { y }));
    const look = facing ? OPPOSITE[facing] : undefined;
    const vertical = p.half === 'top' ? clickFrom(pos, DOWN, { look }) : clickFrom(pos, UP, { look });
    return p.half === undefined ? [...sides, clickFrom(pos, UP, { look }), clickFrom(pos, DOWN, { look })] : [...sides, vertical];
  }
  if (name.endsWith('_fence_gate')) return any.map((c) => ({ ...c, ...(facing ? { look: facing } : {}) }));
  if (kind === 'lever' || kind === 'button') {
    const floor = clickFrom(pos, UP, { look: facing });
    const ceiling = clickFrom(pos, DOWN, { look: facing });
    const walls = facing ? [clickFrom(pos, step(facing))] : HORIZONTALS.map((d) => clickFrom(pos, step(d)));
    if (p.face === 'floor') return [floor];
    if (p.face === 'ceiling') return [ceiling];
    if (p.face === 'wall') return walls;
    return [...walls, floor, ceiling];
  }
  if (p.axis === 'y') return [clickFrom(pos, UP), clickFrom(pos, DOWN)];
  if (p.axis === 'x') return [clickFrom(pos, new Vec3(1, 0, 0)), clickFrom(pos, new Vec3(-1, 0, 0))];
  if (p.axis === 'z') return [clickFrom(pos, new Vec3(0, 0, 1)), clickFrom(pos, new Vec3(0, 0, -1))];
  if (facing) return any.map((c) => ({ ...c, look: OPPOSITE[facing] }));
  return any;
}

/** Where the eyes would be with the feet in cell `node`. */
function eyesAt(node: { x: number; y: number; z: number }): Vec3 {
  return new Vec3(node.x + 0.5, node.y + EYE_HEIGHT, node.z + 0.5);
}

/** Whether a click can be made from eyes at `eyes`: in reach, looking the way it needs. */
function clickableFrom(click: Click, eyes: Vec3): boolean {
  const target = click.ref.plus(click.point);
  if (eyes.distanceTo(target) > REACH) return false;
  if (!click.look) return true;
  const dx = target.x - eyes.x;
  const dz = target.z - eyes.z;
  const s = HORIZONTAL_STEP[click.look];
  const forward = dx * s.x + dz * s.z;
  const sideways = Math.abs(dx * s.z - dz * s.x);
  return forward > 0.5 && sideways <= forward * LOOK_SLACK && lookFacing(dx, dz) === click.look;
}

/** A pathfinder goal: a standing cell outside `avoid` from which one of `clicks` can be made. */
class GoalClick extends goals.Goal {
  readonly #clicks: Click[];
  readonly #avoid: Vec3[];
  readonly #spots: Vec3[];
  constructor(clicks: Click[], avoid: Vec3[]) {
    super();
    this.#clicks = clicks;
    this.#avoid = avoid;
    // Where each click is best made from: 2 blocks back from the point, along the look when it has one.
    this.#spots = clicks.map((c) => {
      const target = c.ref.plus(c.point);
      const back = c.look ? step(OPPOSITE[c.look]).scaled(2.5) : c.face.y === 0 ? c.face.scaled(2) : new Vec3(2, 0, 0);
      return new Vec3(target.x + back.x, avoid[0]!.y, target.z + back.z);
    });
  }
  override heuristic(node: { x: number; y: number; z: number }): number {
    return Math.min(...this.#spots.map((s) => Math.hypot(node.x + 0.5 - s.x, node.y - s.y, node.z + 0.5 - s.z)));
  }
  override isEnd(node: { x: number; y: number; z: number }): boolean {
    if (this.#avoid.some((a) => a.x === node.x && a.z === node.z && (a.y === node.y || a.y === node.y + 1))) return false;
    return this.#clicks.some((c) => clickableFrom(c, eyesAt(node)));
  }
  override hasChanged(): boolean {
    return false;
  }
  override isValid(): boolean {
    return true;
  }
}

/** Whether the block in the bot's view has every property of `spec`. */
function matches(block: Block | null, spec: BlockStateSpec): boolean {
  if (block?.name !== spec.name) return false;
  const props = block.getProperties();
  return Object.entries(spec.properties).every(([k, v]) => String(props[k]) === v);
}

/** The block's state in the `name[k=v,...]` form, every property shown. */
function stateText(block: Block): string {
  const props = Object.fromEntries(Object.entries(block.getProperties()).map(([k, v]) => [k, String(v)]));
  return formatBlockState({ name: block.name, properties: props });
}

/**
 * Parses the block argument of `!placeBlockAt`: a block name as a model writes it (`Oak Stairs`),
 * optionally with a state (`oak_stairs[facing=west,half=bottom]`), checked against minecraft-data.
 *
 * @throws SkillError `invalid` naming the valid properties or values, or the closest block names.
 */
export function parsePlacement(bot: Bot, text: string): BlockStateSpec {
  const resolver = nameResolver(bot.version);
  try {
    return parseBlockState(bot.registry, text, (written) => {
      const r = resolver.block(written);
      if (r.ok) return r.name;
      const closest = r.suggestions.length ? `; closest block names: ${r.suggestions.join(', ')}` : '';
      throw new SkillError('invalid', `"${written}" is not a block${closest}.`);
    });
  } catch (err) {
    if (err instanceof SkillError) throw err;
    throw new SkillError('invalid', (err as Error).message);
  }
}

/** The most blocks a scaffold for one placement may take: a column standing under the cell to click. */
export const SCAFFOLD_MAX = 3;

/** A scaffold: `cells` (lowest first) filled with `item`, each with the state it was placed in. */
interface Scaffold {
  item: string;
  cells: { at: Vec3; stateId: number }[];
}

const NEIGHBOURS = [UP, DOWN, new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1)];

/**
 * The shortest column of at most {@link SCAFFOLD_MAX} empty cells from the cell `ref` downwards
 * whose lowest cell touches a solid block other than `pos` (where the block is wanted), lowest
 * first, none of them a cell to `keepClear`; undefined when none is that short.
 */
function scaffoldColumn(bot: Bot, ref: Vec3, pos: Vec3, keepClear: (cell: Vec3) => boolean): Vec3[] | undefined {
  const cells: Vec3[] = [];
  for (let cell = ref; cells.length < SCAFFOLD_MAX; cell = cell.offset(0, -1, 0)) {
    if (cell.equals(pos) || keepClear(cell) || !isReplaceable(bot.blockAt(cell))) return undefined;
    cells.unshift(cell);
    const touches = NEIGHBOURS.some((f) => {
      const n = cell.plus(f);
      return !n.equals(pos) && !cells.some((c) => c.equals(n)) && bot.blockAt(n)?.boundingBox === 'block';
    });
    if (touches) return cells;
  }
  return undefined;
}

/**
 * The pathfinder's scaffolding blocks (`Movements.scafoldingBlocks`: dirt and cobblestone by
 * default, what it pillars and bridges with), by name: the only blocks a scaffold is built of, so
 * that the blocks a bot carries for a build are never spent on one.
 */
function scaffoldingBlocks(bot: Bot): string[] {
  return bot.pathfinder.movements.scafoldingBlocks.map((id) => bot.registry.items[id]?.name).filter((n): n is string => !!n);
}

/**
 * A scaffolding block ({@link scaffoldingBlocks}) the bot holds `need` of, that drops itself when
 * dug with what it holds (cobblestone needs a pickaxe), the softest first (minecraft-data's hardness).
 */
function scaffoldItem(bot: Bot, need: number): string | undefined {
  const counts = inventoryCounts(bot);
  const usable = scaffoldingBlocks(bot).flatMap((name) => {
    const block = bot.registry.blocksByName[name];
    const item = bot.registry.itemsByName[name];
    if (!block || !item || (counts[name] ?? 0) < need) return [];
    if (!dropItemIds(block).includes(item.id)) return [];
    const tools = Object.keys(block.harvestTools ?? {}).map((id) => bot.registry.items[Number(id)]?.name);
    if (tools.length && !tools.some((t) => t && counts[t])) return [];
    return [{ name, hardness: block.hardness ?? 0 }];
  });
  return usable.sort((a, b) => a.hardness - b.hardness || a.name.localeCompare(b.name))[0]?.name;
}

/** Whether a placed `spec` hangs on the block it was clicked against (vanilla `canSurvive`: doors on the block below, levers and buttons on theirs). */
function hangsOnClicked(bot: Bot, spec: BlockStateSpec): boolean {
  const kind = switchKinds(bot.registry).get(spec.name)?.kind;
  return spec.name.endsWith('_door') || kind === 'lever' || kind === 'button';
}

/**
 * Places `spec.name` from the inventory at `pos` in the state `spec.properties` gives (the others
 * as the click leaves them): picks a click that gives it (module notes), walks within
 * {@link PLACE_WALK_MS} to a cell that click can be made from, places, and checks the state.
 *
 * Where no block stands to be clicked for that state (a log along x on a lone block: nothing to
 * its east or west), it first builds a scaffold as a player does: a column of up to
 * {@link SCAFFOLD_MAX} scaffolding blocks from the inventory (the pathfinder's: dirt, cobblestone)
 * under the cell to click, places, then digs the scaffold again and picks it up (left standing when
 * the placed block hangs on it: doors, levers, buttons). A scaffold never stands in a cell
 * `keepClear` names: there the error says to place that cell's block first.
 *
 * @returns `ok` (`Placed oak_stairs[facing=west,half=bottom] at (1, 2, 3).`) with `data.position`,
 *   `data.spent`.
 * @throws SkillError, each with `data.position`: `invalid` for a state no click gives, a cell taken
 *   by another block, or no solid block to click and no scaffold that short; `missing_items` (also
 *   when no block in the inventory can make the scaffold); `unreachable`; `refused_by_server` when
 *   the server refused the block or gave it another state (named).
 */
export async function placeStateAt(
  bot: Bot,
  spec: BlockStateSpec,
  pos: Vec3,
  signal: AbortSignal,
  keepClear: (cell: Vec3) => boolean = () => false,
): Promise<Outcome> {
  const position = { x: pos.x, y: pos.y, z: pos.z };
  const wanted = formatBlockState(spec);
  const at = formatPos(pos, 0);
  const fail = (code: 'invalid' | 'refused_by_server' | 'unreachable', text: string) => new SkillError(code, text, { position });
  try {
    refuseUnclickable(spec);
  } catch (err) {
    throw err instanceof SkillError ? fail('invalid', err.message) : err;
  }
  const here = bot.blockAt(pos);
  if (!here) throw fail('unreachable', `${at} is not loaded; walk closer first.`);
  if (matches(here, spec)) return done(`${stateText(here)} is already at ${at}.`, { position });
  if (here.boundingBox !== 'empty' || here.name === 'water' || here.name === 'lava')
    throw fail('invalid', `${at} is taken by ${here.name}; dig it first.`);
  const item = (() => {
    try {
      return requireItem(bot, spec.name);
    } catch (err) {
      if (err instanceof SkillError) throw new SkillError(err.code, err.message, { ...err.data, position });
      throw err;
    }
  })();
  const solidClicks = () => clicksFor(bot, spec, pos).filter((c) => bot.blockAt(c.ref)?.boundingBox === 'block');
  let clicks = solidClicks();
  let scaffold: Scaffold | undefined;
  if (!clicks.length) {
    const refs = clicksFor(bot, spec, pos).map((c) => c.ref);
    const cells = refs
      .map((ref) => scaffoldColumn(bot, ref, pos, keepClear))
      .filter((c) => c !== undefined)
      .sort((a, b) => a.length - b.length)[0];
    const needed = `${refs.map((r) => formatPos(r, 0)).join(' or ')} must be a solid block`;
    const pending = refs.filter((r) => keepClear(r));
    if (!cells)
      throw fail(
        'invalid',
        pending.length
          ? `Nothing solid to click to place ${wanted} at ${at}: ${needed}; place the blueprint's block at ${pending.map((r) => formatPos(r, 0)).join(' or ')} first.`
          : `Nothing solid to click to place ${wanted} at ${at}: ${needed}, and no scaffold of up to ${SCAFFOLD_MAX} blocks reaches one from a solid block.`,
      );
    const material = scaffoldItem(bot, cells.length);
    if (!material)
      throw new SkillError(
        'missing_items',
        `Nothing solid to click to place ${wanted} at ${at}: ${needed}. Carry ${cells.length} ${scaffoldingBlocks(bot).join(' or ')} (cobblestone with a pickaxe) to build a scaffold there and take it down again.`,
        { position, scaffold: { blocks: cells.length } },
      );
    scaffold = { item: material, cells: [] };
    for (const cell of cells) {
      await placeBlockAt(bot, material, cell.x, cell.y, cell.z, signal);
      scaffold.cells.push({ at: cell, stateId: bot.blockAt(cell)!.stateId });
    }
    clicks = solidClicks();
  }
  let outcome: Outcome;
  try {
    outcome = await clickFor(bot, spec, pos, clicks, item, signal);
  } catch (err) {
    if (scaffold && !signal.aborted) await takeDown(bot, scaffold, signal).catch(() => {});
    throw err;
  }
  if (!scaffold) return outcome;
  const where = scaffold.cells.map((c) => formatPos(c.at, 0)).join(', ');
  if (hangsOnClicked(bot, spec))
    return done(
      `${outcome.text.slice(0, -1)}, against a scaffold of ${scaffold.item} at ${where}, left standing: it holds the ${spec.name}.`,
      outcome.data,
    );
  const left = await takeDown(bot, scaffold, signal).then(
    () => '',
    (err: unknown) => {
      throwIfAborted(signal);
      return ` (not taken down: ${err instanceof Error ? err.message : String(err)})`;
    },
  );
  return done(
    `${outcome.text.slice(0, -1)}, from a scaffold of ${scaffold.cells.length} ${scaffold.item} at ${where}, taken down after${left}.`,
    outcome.data,
  );
}

/**
 * Digs a scaffold's cells again, top first, picking up what they drop. A cell no longer in the state
 * its scaffold block was placed in is left: someone else's block stands there now (a teammate who
 * dug the scaffold out to put their own in).
 */
async function takeDown(bot: Bot, scaffold: Scaffold, signal: AbortSignal): Promise<void> {
  for (const { at, stateId } of scaffold.cells.toReversed()) {
    if (bot.blockAt(at)?.stateId === stateId) await digAt(bot, at.x, at.y, at.z, signal);
  }
}

/** Walks to where one of `clicks` can be made, places `spec` with it, and checks the state the server gave. */
async function clickFor(bot: Bot, spec: BlockStateSpec, pos: Vec3, clicks: Click[], item: Item, signal: AbortSignal): Promise<Outcome> {
  const position = { x: pos.x, y: pos.y, z: pos.z };
  const wanted = formatBlockState(spec);
  const at = formatPos(pos, 0);
  const fail = (code: 'refused_by_server' | 'unreachable', text: string) => new SkillError(code, text, { position });
  const avoid = spec.name.endsWith('_door') ? [pos, pos.offset(0, 1, 0)] : [pos];
  const goal = new GoalClick(clicks, avoid);
  const feet = () => bot.entity.position.floored();
  if (!goal.isEnd(feet())) {
    await boundedWalk(signal, PLACE_WALK_MS, `a spot to place ${wanted} at ${at} from`, (bound) => goTo(bot, goal, bound), { position });
  }
  throwIfAborted(signal);
  const eyes = bot.entity.position.offset(0, EYE_HEIGHT, 0);
  const click = clicks.find((c) => clickableFrom(c, eyes)) ?? clicks.find((c) => clickableFrom(c, eyesAt(feet())));
  if (!click) throw fail('unreachable', `Could not get where ${wanted} can be placed at ${at} from.`);
  await abortable(bot.equip(item, 'hand'), signal);
  const place = (bot as Bot & { _placeBlockWithOptions(ref: Block, face: Vec3, options: object): Promise<void> })._placeBlockWithOptions;
  await clickToPlace(
    bot,
    () => place(bot.blockAt(click.ref)!, click.face, { delta: click.point, swingArm: 'right' }),
    pos,
    spec.name,
    signal,
  );
  const placed = bot.blockAt(pos);
  if (placed?.name !== spec.name)
    throw fail('refused_by_server', `Placing ${wanted} at ${at} failed (there is ${placed?.name ?? 'nothing'}).`);
  if (!matches(placed, spec))
    throw fail(
      'refused_by_server',
      `Placed ${spec.name} at ${at}, but the server made it ${stateText(placed)}, not ${wanted}. Its properties: ${describeProperties(bot.registry, spec.name)}.`,
    );
  return done(`Placed ${wanted} at ${at}.`, { position, spent: { [spec.name]: 1 } });
}

/**
 * `!placeBlockAt`: places `text`, a block name ({@link placeBlockAt}) or a block with a state
 * ({@link placeStateAt}), at (x, y, z). `keepClear` names cells a scaffold must not stand in (the
 * agent's blueprint's cells still to be built: {@link blueprintKeepsClear}).
 *
 * @throws SkillError `invalid` for a malformed state or an unknown block, property or value (the
 *   valid ones named), and as the two functions throw.
 */
export async function placeBlockWithState(
  bot: Bot,
  text: string,
  x: number,
  y: number,
  z: number,
  signal: AbortSignal,
  keepClear?: (cell: Vec3) => boolean,
): Promise<Outcome> {
  const pos = new Vec3(Math.floor(x), Math.floor(y), Math.floor(z));
  let spec: BlockStateSpec;
  try {
    spec = parsePlacement(bot, text);
  } catch (err) {
    if (err instanceof SkillError) throw new SkillError(err.code, err.message, { ...err.data, position: { x: pos.x, y: pos.y, z: pos.z } });
    throw err;
  }
  if (!Object.keys(spec.properties).length) return placeBlockAt(bot, spec.name, pos.x, pos.y, pos.z, signal);
  return placeStateAt(bot, spec, pos, signal, keepClear);
}

/**
 * The cells of `blueprint` that want a block (not air): a scaffold standing in one would take a
 * teammate's cell, or be taken for the cell's block.
 */
export function blueprintKeepsClear(blueprint: Blueprint | undefined): (cell: Vec3) => boolean {
  if (!blueprint) return () => false;
  const wanted = new Set(
    blueprint.levels.flatMap((l) =>
      levelCells(l)
        .filter((c) => c.block !== 'air')
        .map((c) => `${c.x},${c.y},${c.z}`),
    ),
  );
  return (cell) => wanted.has(`${cell.x},${cell.y},${cell.z}`);
}
