/**
 * A light mob AI on one shared timer (every {@link AI_STEP_TICKS} ticks for all mobs): random
 * strolls on the ground with step-up and gravity, panic runs for hurt passive mobs, hostile mobs
 * walking toward the nearest survival player within {@link HOSTILE_FOLLOW_RANGE} blocks (no
 * attacks), and knockback momentum. Goals follow vanilla `PanicGoal` / `RandomStrollGoal` /
 * `MoveTowardsTargetGoal` priorities; speeds come from the mob's movement-speed attribute
 * (../services/combat-data.ts).
 */
import { Vec3 } from 'vec3';
import type { SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { blockOfState } from '../services/blocks.ts';
import { degreesToByte } from '../services/geometry.ts';
import { mobRegistry, type MobRegistry, type MobState } from '../services/mobs.ts';

/** The AI runs once every this many server ticks (20 ticks = 1 s) for all mobs together. */
export const AI_STEP_TICKS = 2;
/** vanilla PanicGoal keeps running while the last hurt is under 100 ticks old. */
const PANIC_TICKS = 100;
/** vanilla gravity for living entities (blocks/tick²) and air drag per tick. */
const GRAVITY = 0.08;
const AIR_DRAG = 0.98;
/** vanilla ground friction for horizontal momentum per tick (block slipperiness 0.6 × 0.91). */
const GROUND_FRICTION = 0.546;
/** vanilla horizontal drag in the air per tick. */
const AIR_FRICTION = 0.91;
/** Hostile mobs walk toward survival players within this many blocks (vanilla FOLLOW_RANGE 16 for zombies). */
export const HOSTILE_FOLLOW_RANGE = 16;
/** Random strolls: a new target within this many blocks, every {@link STROLL_MIN_TICKS}–{@link STROLL_MAX_TICKS} ticks. */
const STROLL_RADIUS = 5;
const STROLL_MIN_TICKS = 40;
const STROLL_MAX_TICKS = 140;

/** The AI's own caches. */
interface AiState {
  /** Collision-shape top by block state id. */
  shapeTops: Map<number, number>;
}

function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

/** Vanilla ground speed in blocks per tick for a movement-speed attribute (travel with friction 0.546). */
function groundSpeed(attribute: number): number {
  return (attribute * attribute) / (1 - GROUND_FRICTION);
}

/** Installs the shared AI timer; needs the mob service. */
export function installMobAi(serv: SquidServer): void {
  const registry = mobRegistry(serv);
  const ai: AiState = { shapeTops: new Map() };
  serv.on('tick', () => {
    if (registry.tick % AI_STEP_TICKS !== 0 || registry.mobs.size === 0) return;
    for (const mob of registry.mobs.values()) {
      try {
        stepMob(serv, registry, ai, mob);
      } catch (err) {
        serv.debug?.(`mob ${mob.entity.id} AI step failed: ${String(err)}`);
      }
    }
  });
}

/** Height of the top of a block state's collision shape within its cell (0 = passable), cached. */
function shapeTop(serv: SquidServer, ai: AiState, stateId: number): number {
  let top = ai.shapeTops.get(stateId);
  if (top === undefined) {
    const shapes: number[][] = blockOfState(serv, stateId).shapes ?? [];
    top = shapes.reduce((max, shape) => Math.max(max, shape[4] ?? 0), 0);
    ai.shapeTops.set(stateId, top);
  }
  return top;
}

/** Collision top of the block cell at (x, y, z) in world coordinates; unloaded chunks count as solid. */
function cellTop(serv: SquidServer, ai: AiState, world: SquidWorld, x: number, y: number, z: number): number {
  const pos = new Vec3(x, y, z);
  if (!world.sync.getColumnAt(pos)) return 1;
  return shapeTop(serv, ai, world.sync.getBlockStateId(pos));
}

/**
 * Whether the mob's box with feet at `pos` overlaps a solid block. Blocks are treated as
 * full-width columns up to their collision top (fences 1.5, slabs 0.5).
 */
function collides(serv: SquidServer, ai: AiState, mob: MobState, pos: Vec3): boolean {
  const eps = 1e-3;
  for (let x = Math.floor(pos.x - mob.halfWidth + eps); x <= Math.floor(pos.x + mob.halfWidth - eps); x++) {
    for (let z = Math.floor(pos.z - mob.halfWidth + eps); z <= Math.floor(pos.z + mob.halfWidth - eps); z++) {
      for (let y = Math.floor(pos.y - 0.5); y <= Math.floor(pos.y + mob.height - eps); y++) {
        const top = cellTop(serv, ai, mob.entity.world, x, y, z);
        if (top > 0 && y + top > pos.y + eps && y < pos.y + mob.height - eps) return true;
      }
    }
  }
  return false;
}

/**
 * Highest collision top under the mob's footprint at `pos` between `pos.y - depth` and its feet
 * (blocks), or -Infinity when there is none: where a falling mob lands.
 */
function groundBelow(serv: SquidServer, ai: AiState, mob: MobState, pos: Vec3, depth = 0.5): number {
  const eps = 1e-3;
  let best = -Infinity;
  for (let x = Math.floor(pos.x - mob.halfWidth + eps); x <= Math.floor(pos.x + mob.halfWidth - eps); x++) {
    for (let z = Math.floor(pos.z - mob.halfWidth + eps); z <= Math.floor(pos.z + mob.halfWidth - eps); z++) {
      for (let y = Math.floor(pos.y - eps); y >= Math.floor(pos.y - depth) - 1; y--) {
        const top = cellTop(serv, ai, mob.entity.world, x, y, z);
        if (top > 0 && y + top <= pos.y + eps && y + top >= pos.y - depth) { best = Math.max(best, y + top); break; }
      }
    }
  }
  return best;
}

/** Moves along one horizontal axis, stepping up one block when the way is blocked by a low obstacle (vanilla jump). */
function moveAxis(serv: SquidServer, ai: AiState, mob: MobState, pos: Vec3, axis: 'x' | 'z', amount: number): boolean {
  if (amount === 0) return true;
  const next = pos.clone();
  next[axis] += amount;
  if (!collides(serv, ai, mob, next)) { pos[axis] = next[axis]; return true; }
  const stepped = next.offset(0, 1, 0);
  if (mob.onGround && !collides(serv, ai, mob, stepped) && !collides(serv, ai, mob, pos.offset(0, 1, 0))) {
    // Only a step of at most one block: the obstacle's top must be reachable.
    const ground = groundBelow(serv, ai, mob, stepped);
    if (ground > pos.y && ground <= pos.y + 1) { pos[axis] = next[axis]; pos.y = ground; return true; }
  }
  return false;
}

function nearestSurvivalPlayer(serv: SquidServer, mob: MobState): SquidPlayer | undefined {
  let best: SquidPlayer | undefined;
  let bestDistance = HOSTILE_FOLLOW_RANGE;
  for (const player of serv.players) {
    if (player.world !== mob.entity.world || player.health <= 0 || (player.gameMode !== 0 && player.gameMode !== 2)) continue;
    const d = player.position.distanceTo(mob.entity.position);
    if (d <= bestDistance) { best = player; bestDistance = d; }
  }
  return best;
}

/** One AI step ({@link AI_STEP_TICKS} ticks) of one mob: choose a goal, walk, fall, send the new position. */
function stepMob(serv: SquidServer, registry: MobRegistry, ai: AiState, mob: MobState): void {
  if (mob.dead) return;
  const entity = mob.entity;
  const pos = entity.position.clone();
  const panicking = mob.stats.panic !== undefined && registry.tick - mob.lastHurtTick < PANIC_TICKS;
  const moves = mob.stats.moves !== false && mob.stats.speed > 0;

  // Goals (vanilla goal priorities: panic > follow player > stroll).
  if (moves) {
    if (panicking) {
      if (!mob.target) { mob.target = randomTarget(pos); mob.targetSpeed = mob.stats.panic!; }
    } else if (mob.hostile) {
      const player = nearestSurvivalPlayer(serv, mob);
      if (player) {
        mob.target = player.position.distanceTo(pos) > 1.5 ? player.position.clone() : null;
        mob.targetSpeed = 1;
      } else if (mob.targetSpeed !== 1) mob.target = null;
    }
    if (!mob.target && registry.tick >= mob.nextStrollTick) {
      mob.target = randomTarget(pos);
      mob.targetSpeed = 1;
      mob.nextStrollTick = registry.tick + randomInt(STROLL_MIN_TICKS, STROLL_MAX_TICKS);
    }
  }

  // Idle on the ground with no momentum: nothing to simulate (most mobs, most of the time).
  if (!mob.target && mob.onGround && mob.motion.x === 0 && mob.motion.y === 0 && mob.motion.z === 0) return;

  // Horizontal: walking plus knockback momentum.
  let walkX = 0;
  let walkZ = 0;
  if (mob.target) {
    const dx = mob.target.x - pos.x;
    const dz = mob.target.z - pos.z;
    const distance = Math.hypot(dx, dz);
    const step = groundSpeed(mob.stats.speed * mob.targetSpeed * (mob.baby ? 1.5 : 1)) * AI_STEP_TICKS;
    if (distance <= step) {
      walkX = dx; walkZ = dz;
      mob.target = null;
    } else {
      walkX = (dx / distance) * step; walkZ = (dz / distance) * step;
    }
    if (distance > 1e-3) entity.yaw = degreesToByte((Math.atan2(-dx, dz) * 180) / Math.PI);
  }
  let momentumX = 0;
  let momentumZ = 0;
  for (let t = 0; t < AI_STEP_TICKS; t++) {
    momentumX += mob.motion.x; momentumZ += mob.motion.z;
    const friction = mob.onGround ? GROUND_FRICTION : AIR_FRICTION;
    mob.motion.x *= friction; mob.motion.z *= friction;
  }
  if (Math.abs(mob.motion.x) < 0.003) mob.motion.x = 0;
  if (Math.abs(mob.motion.z) < 0.003) mob.motion.z = 0;
  const movedX = moveAxis(serv, ai, mob, pos, 'x', walkX + momentumX);
  const movedZ = moveAxis(serv, ai, mob, pos, 'z', walkZ + momentumZ);
  if (!movedX) mob.motion.x = 0;
  if (!movedZ) mob.motion.z = 0;
  if ((!movedX || !movedZ) && mob.target) mob.target = null; // blocked: give up this target

  // Vertical: gravity and landing.
  let dy = 0;
  for (let t = 0; t < AI_STEP_TICKS; t++) {
    dy += mob.motion.y;
    mob.motion.y = (mob.motion.y - GRAVITY) * AIR_DRAG;
  }
  const ground = dy <= 0 ? groundBelow(serv, ai, mob, pos, Math.max(-dy, 1e-3)) : -Infinity;
  if (ground > -Infinity) {
    pos.y = ground;
    mob.motion.y = 0;
    mob.onGround = true;
  } else {
    const next = pos.offset(0, dy, 0);
    if (!collides(serv, ai, mob, next)) { pos.y = next.y; mob.onGround = false; } else { mob.motion.y = 0; mob.onGround = dy < 0; }
  }

  if (!pos.equals(entity.position)) {
    const turned = mob.target !== null;
    void entity.sendPosition(pos, mob.onGround);
    if (turned) {
      entity._writeOthersNearby('entity_look', { entityId: entity.id, yaw: entity.yaw, pitch: 0, onGround: mob.onGround });
      entity._writeOthersNearby('entity_head_rotation', { entityId: entity.id, headYaw: entity.yaw });
    }
  }
}

/** A random point within {@link STROLL_RADIUS} blocks horizontally (vanilla RandomStrollGoal / PanicGoal pick within 5–10). */
function randomTarget(from: Vec3): Vec3 {
  const angle = Math.random() * Math.PI * 2;
  const distance = 1 + Math.random() * (STROLL_RADIUS - 1);
  return new Vec3(from.x + Math.cos(angle) * distance, from.y, from.z + Math.sin(angle) * distance);
}
