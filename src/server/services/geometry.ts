/**
 * The geometry and time vocabulary of the server plugins: positions, the six directions as the
 * protocol numbers them, look angles, the player's body, and game ticks. One name for each:
 * a position is a {@link Position}, a direction a {@link Direction}, a duration in ticks says so.
 */
import { Vec3 } from 'vec3';

/** A position in blocks (block positions are integers; entity positions need not be). */
export interface Position {
  x: number;
  y: number;
  z: number;
}

/** A vec3 `Vec3` at (x, y, z), in blocks. */
export function vec(x: number, y: number, z: number): Vec3 {
  return new Vec3(x, y, z);
}

/** `position` as a vec3 `Vec3` (a copy). */
export function toVec(position: Position): Vec3 {
  return new Vec3(position.x, position.y, position.z);
}

/** The block a position is in, as integers (a copy). */
export function blockPosition(position: Position): Position {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}

/** A map key for a block position: `"x,y,z"` of the floored coordinates. */
export function blockKey(position: Position): string {
  return `${Math.floor(position.x)},${Math.floor(position.y)},${Math.floor(position.z)}`;
}

// ---------------------------------------------------------------------------------------------
// Directions

/** Horizontal directions, as block-state `facing` values. */
export type Horizontal = 'north' | 'south' | 'west' | 'east';
/** The six directions (block faces). */
export type Direction = Horizontal | 'up' | 'down';

/** Directions by protocol face number (`block_place` / `block_dig`): 0 down, 1 up, 2 north (-z), 3 south (+z), 4 west (-x), 5 east (+x). */
export const FACES: readonly Direction[] = ['down', 'up', 'north', 'south', 'west', 'east'];
/** The four horizontal directions, in protocol order. */
export const HORIZONTALS: readonly Horizontal[] = ['north', 'south', 'west', 'east'];

/** Unit offset of each direction, in blocks. */
export const DIRECTION_OFFSET: Readonly<Record<Direction, Position>> = {
  down: { x: 0, y: -1, z: 0 },
  up: { x: 0, y: 1, z: 0 },
  north: { x: 0, y: 0, z: -1 },
  south: { x: 0, y: 0, z: 1 },
  west: { x: -1, y: 0, z: 0 },
  east: { x: 1, y: 0, z: 0 },
};

/** The opposite of each direction. */
export const OPPOSITE: Readonly<Record<Direction, Direction>> = {
  down: 'up',
  up: 'down',
  north: 'south',
  south: 'north',
  west: 'east',
  east: 'west',
};
/** The opposite of each horizontal direction. */
export const OPPOSITE_HORIZONTAL: Readonly<Record<Horizontal, Horizontal>> = { north: 'south', south: 'north', west: 'east', east: 'west' };

/** vanilla `Direction.getClockWise` (seen from above). */
export const CLOCKWISE: Readonly<Record<Horizontal, Horizontal>> = { north: 'east', east: 'south', south: 'west', west: 'north' };
/** vanilla `Direction.getCounterClockWise`. */
export const COUNTER_CLOCKWISE: Readonly<Record<Horizontal, Horizontal>> = { north: 'west', west: 'south', south: 'east', east: 'north' };

/** True for the four horizontal directions. */
export function isHorizontal(direction: string): direction is Horizontal {
  return (HORIZONTALS as readonly string[]).includes(direction);
}

/** `position` moved `n` blocks (default 1) towards `direction`, as a new Vec3. */
export function offset(position: Position, direction: Direction, n = 1): Vec3 {
  const o = DIRECTION_OFFSET[direction];
  return new Vec3(position.x + o.x * n, position.y + o.y * n, position.z + o.z * n);
}

/**
 * The horizontal direction a player looks towards, from their yaw in degrees as the client sends
 * it (Notchian: 0 = south/+z, 90 = west, 180 = north, 270 = east). Same as vanilla
 * `Direction.fromYRot`.
 */
export function horizontalFacing(yawDegrees: number): Horizontal {
  const order: Horizontal[] = ['south', 'west', 'north', 'east'];
  return order[Math.floor(yawDegrees / 90 + 0.5) & 3]!;
}

/**
 * The direction a player standing at `feet` looks in when placing a block at `placed`, taken from
 * their eyes to the block's centre (the look ray of a placement ends on that block's face): the
 * dominant axis, horizontal only or with up/down (vanilla `getHorizontalDirection` /
 * `getNearestLookingDirection`).
 */
export function lookDirectionTo(feet: Position, placed: Position, horizontalOnly: boolean): Direction {
  const dx = placed.x + 0.5 - feet.x;
  const dy = placed.y + 0.5 - (feet.y + PLAYER_EYE_HEIGHT);
  const dz = placed.z + 0.5 - feet.z;
  if (!horizontalOnly && Math.abs(dy) > Math.abs(dx) && Math.abs(dy) > Math.abs(dz)) return dy > 0 ? 'up' : 'down';
  if (Math.abs(dx) > Math.abs(dz)) return dx > 0 ? 'east' : 'west';
  return dz > 0 ? 'south' : 'north';
}

// ---------------------------------------------------------------------------------------------
// Angles

/** Degrees → protocol angle byte (1/256 of a turn, signed), as flying-squid stores yaw and pitch. */
export function degreesToByte(degrees: number): number {
  let b = Math.floor(((((degrees % 360) + 360) % 360) * 256) / 360);
  if (b > 127) b -= 256;
  return b;
}

/** Protocol angle byte (1/256 of a turn) → degrees. */
export function byteToDegrees(angle: number): number {
  return (angle * 360) / 256;
}

// ---------------------------------------------------------------------------------------------
// The player's body (vanilla `Player` dimensions)

/** Eye height of a standing player, in blocks. */
export const PLAYER_EYE_HEIGHT = 1.62;
/** Half the width of a player's hitbox (0.6 wide), in blocks. */
export const PLAYER_HALF_WIDTH = 0.3;
/** Height of a standing player's hitbox, in blocks. */
export const PLAYER_HEIGHT = 1.8;
/** How far a player may use or break blocks, from the eyes: vanilla's 4.5 + 1 block of slack. */
export const BLOCK_REACH = 6;

// ---------------------------------------------------------------------------------------------
// Time

/** Server ticks per second (vanilla). */
export const TICKS_PER_SECOND = 20;
/** Length of one tick, in ms. */
export const MS_PER_TICK = 1000 / TICKS_PER_SECOND;
/** Ticks in one Minecraft day. */
export const DAY_TICKS = 24_000;

/** `ticks` as milliseconds. */
export function ticksToMs(ticks: number): number {
  return ticks * MS_PER_TICK;
}

/** A speed in blocks per tick as blocks per second (flying-squid's physics unit). */
export function perTickToPerSecond(velocity: Position): Position {
  return { x: velocity.x * TICKS_PER_SECOND, y: velocity.y * TICKS_PER_SECOND, z: velocity.z * TICKS_PER_SECOND };
}

/** The time of day in ticks, 0–23999, from the server's game time. */
export function timeOfDay(time: number | bigint): number {
  return ((Number(time) % DAY_TICKS) + DAY_TICKS) % DAY_TICKS;
}
