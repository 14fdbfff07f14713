/**
 * The block collision model of the server's own physics (mobs, item entities): a block cell is a
 * full-width column from its bottom up to the top of its collision shape (minecraft-data's
 * `shapes`: a slab 0.5, farmland 0.9375, a fence 1.5, a flower 0 = passable); cells in chunks
 * that are not loaded count as solid; entities move through them with {@link moveWithCollisions}.
 * Entity positions are feet positions (the centre of the box's bottom face), as in vanilla and the
 * protocol. Units are blocks.
 */
import { Vec3 } from 'vec3';
import type { SquidServer, SquidWorld } from '../types.ts';
import { blockOfState } from './blocks.ts';

/** An entity's collision box: half its width and its height, in blocks. */
export interface EntityBox {
  halfWidth: number;
  height: number;
}

/** Tolerance for touching faces (blocks): a box resting on a face does not overlap it. */
const EPS = 1e-3;

const shapeTops = new WeakMap<SquidServer, Map<number, number>>();

/** Height of the top of a block state's collision shape within its cell (0 = passable), cached per server. */
function shapeTop(serv: SquidServer, stateId: number): number {
  let tops = shapeTops.get(serv);
  if (!tops) shapeTops.set(serv, (tops = new Map()));
  let top = tops.get(stateId);
  if (top === undefined) {
    const shapes: number[][] = blockOfState(serv, stateId).shapes ?? [];
    top = shapes.reduce((max, shape) => Math.max(max, shape[4] ?? 0), 0);
    tops.set(stateId, top);
  }
  return top;
}

/** Collision top of the block cell at (x, y, z) within the cell (0 = passable, 1 = full, 1.5 = fence); unloaded chunks count as 1. */
export function cellTop(serv: SquidServer, world: SquidWorld, x: number, y: number, z: number): number {
  const pos = new Vec3(x, y, z);
  if (!world.sync.getColumnAt(pos)) return 1;
  return shapeTop(serv, world.sync.getBlockStateId(pos));
}

/** The block columns (x, z) that `box` with its feet at `feet` stands over. */
function* footprint(box: EntityBox, feet: Vec3): Generator<[number, number]> {
  for (let x = Math.floor(feet.x - box.halfWidth + EPS); x <= Math.floor(feet.x + box.halfWidth - EPS); x++) {
    for (let z = Math.floor(feet.z - box.halfWidth + EPS); z <= Math.floor(feet.z + box.halfWidth - EPS); z++) yield [x, z];
  }
}

/** Whether `box` with its feet at `feet` overlaps a solid block of `world`. */
export function collides(serv: SquidServer, world: SquidWorld, box: EntityBox, feet: Vec3): boolean {
  for (const [x, z] of footprint(box, feet)) {
    // From the cell below: a fence's or wall's shape reaches 0.5 into the cell above it.
    for (let y = Math.floor(feet.y - 0.5); y <= Math.floor(feet.y + box.height - EPS); y++) {
      const top = cellTop(serv, world, x, y, z);
      if (top > 0 && y + top > feet.y + EPS && y < feet.y + box.height - EPS) return true;
    }
  }
  return false;
}

/**
 * The highest collision top under `box`'s footprint at `feet` between `feet.y - depth` and its
 * feet (blocks), or -Infinity when there is none: where a box falling `depth` blocks lands.
 */
export function groundBelow(serv: SquidServer, world: SquidWorld, box: EntityBox, feet: Vec3, depth = 0.5): number {
  let best = -Infinity;
  for (const [x, z] of footprint(box, feet)) {
    for (let y = Math.floor(feet.y - EPS); y >= Math.floor(feet.y - depth) - 1; y--) {
      const top = cellTop(serv, world, x, y, z);
      if (top > 0 && y + top <= feet.y + EPS && y + top >= feet.y - depth) {
        best = Math.max(best, y + top);
        break;
      }
    }
  }
  return best;
}

/** The longest move made in one piece (blocks): well under a block, so a move never passes one and enters at most one new cell per axis. */
const MAX_MOVE_BLOCKS = 0.2;

/**
 * Moves `box` at `feet` by `motion` (blocks) through `world`'s blocks, y first, then x and z, in
 * pieces of at most {@link MAX_MOVE_BLOCKS}; a component stopped by a block is zeroed in `motion`
 * and the box rests against the block's face. Mutates `feet` and `motion`.
 *
 * @returns whether the box landed on a block (moving down, stopped).
 */
export function moveWithCollisions(serv: SquidServer, world: SquidWorld, box: EntityBox, feet: Vec3, motion: Vec3): boolean {
  let landed = false;
  for (const axis of ['y', 'x', 'z'] as const) {
    const total = motion[axis];
    const pieces = Math.ceil(Math.abs(total) / MAX_MOVE_BLOCKS);
    for (let i = 0; i < pieces; i++) {
      const amount = total / pieces;
      if (axis === 'y' && amount < 0) {
        const ground = groundBelow(serv, world, box, feet, -amount);
        if (ground > -Infinity) {
          feet.y = ground;
          motion.y = 0;
          landed = true;
          break;
        }
      }
      const next = feet.clone();
      next[axis] += amount;
      if (!collides(serv, world, box, next)) {
        feet[axis] = next[axis];
        continue;
      }
      // Against the face of the block entered: horizontally, full-width columns at whole coordinates.
      if (axis !== 'y')
        feet[axis] =
          amount > 0 ? Math.floor(next[axis] + box.halfWidth) - box.halfWidth : Math.floor(next[axis] - box.halfWidth) + 1 + box.halfWidth;
      motion[axis] = 0;
      break;
    }
  }
  return landed;
}
