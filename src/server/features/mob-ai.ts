/**
 * A light mob AI on one shared timer (every {@link AI_STEP_TICKS} ticks for all mobs): random
 * strolls on the ground with step-up and gravity, panic runs for hurt passive mobs, hostile mobs
 * going for the nearest survival or adventure player they see within their follow range, knockback
 * momentum, and zombies and skeletons burning in daylight. Goals follow vanilla `PanicGoal` / `RandomStrollGoal` / `MeleeAttackGoal`
 * priorities; speeds come from the mob's movement-speed attribute (../services/combat-data.ts).
 *
 * Hostile mobs attack as vanilla's goals do (../services/combat-data.ts `HOSTILE_ATTACKS`, with
 * sources): zombies and spiders hit what their attack box reaches every 20 ticks (the player is
 * knocked back), skeletons shoot from up to 15 blocks with a line of sight (the arrow's damage is
 * dealt at once, no arrow entity), creepers light their fuse within 3 blocks and explode after 30
 * ticks (vanilla explosion damage to players within 6 blocks; blocks are not destroyed). Spiders
 * only pick a target at night (vanilla: not in bright light). Damage goes through the damage
 * service (difficulty, invulnerability, death messages).
 */
import { Vec3 } from 'vec3';
import type { SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { cellTop, collides, groundBelow } from '../services/collision.ts';
import { degreesToByte } from '../services/geometry.ts';
import { CREEPER, HOSTILE_ATTACKS, MELEE_REACH, type HostileAttack } from '../services/combat-data.ts';
import { hurtPlayer } from '../services/damage.ts';
import { discardMob, mobRegistry, type MobRegistry, type MobState } from '../services/mobs.ts';
import { skyDarken } from '../worldgen/monsters.ts';

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
/** Ticks between a hostile mob's looks for a player to chase (vanilla `NearestAttackableTargetGoal` `randomInterval` 10). */
const TARGET_SEARCH_TICKS = 10;
/** How long a hostile mob keeps chasing a player it no longer sees (vanilla `TargetGoal.unseenMemoryTicks`, 60). */
const UNSEEN_MEMORY_TICKS = 60;
/** Hostile mobs without a listed attack notice players within this many blocks (vanilla default `follow_range`). */
export const HOSTILE_FOLLOW_RANGE = 16;
/** vanilla `LivingEntity.knockback` strength of a mob's melee hit, blocks per tick. */
const MELEE_KNOCKBACK = 0.4;
/** Player hitbox: half width and height (vanilla `EntityDimensions` of a standing player). */
const PLAYER_HALF_WIDTH = 0.3;
const PLAYER_HEIGHT = 1.8;
const PLAYER_EYES = 1.62;
/** Velocity packets are in 1/8000 block per tick (protocol). */
const VELOCITY_UNIT = 8000;
/** Random strolls: a new target within this many blocks, every {@link STROLL_MIN_TICKS}–{@link STROLL_MAX_TICKS} ticks. */
const STROLL_RADIUS = 5;
const STROLL_MIN_TICKS = 40;
const STROLL_MAX_TICKS = 140;

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
  serv.on('tick', () => {
    if (registry.tick % AI_STEP_TICKS !== 0 || registry.mobs.size === 0) return;
    for (const mob of registry.mobs.values()) {
      try {
        stepMob(serv, registry, mob);
      } catch (err) {
        serv.debug?.(`mob ${mob.entity.id} AI step failed: ${String(err)}`);
      }
    }
  });
}

/** Moves along one horizontal axis, stepping up one block when the way is blocked by a low obstacle (vanilla jump). */
function moveAxis(serv: SquidServer, mob: MobState, pos: Vec3, axis: 'x' | 'z', amount: number): boolean {
  if (amount === 0) return true;
  const next = pos.clone();
  next[axis] += amount;
  if (!collides(serv, mob.entity.world, mob, next)) {
    pos[axis] = next[axis];
    return true;
  }
  const stepped = next.offset(0, 1, 0);
  if (mob.onGround && !collides(serv, mob.entity.world, mob, stepped) && !collides(serv, mob.entity.world, mob, pos.offset(0, 1, 0))) {
    // Only a step of at most one block: the obstacle's top must be reachable.
    const ground = groundBelow(serv, mob.entity.world, mob, stepped);
    if (ground > pos.y && ground <= pos.y + 1) {
      pos[axis] = next[axis];
      pos.y = ground;
      return true;
    }
  }
  return false;
}

/** True while the world's time is night (time of day 13 000–23 000): when spiders pick targets. */
function isNight(serv: SquidServer): boolean {
  const day = ((Number(serv.time) % 24_000) + 24_000) % 24_000;
  return day >= 13_000 && day < 23_000;
}

/** Whether a hostile mob may chase `player`: alive, in survival or adventure, in its world. */
function huntable(mob: MobState, player: SquidPlayer): boolean {
  return player.world === mob.entity.world && player.health > 0 && (player.gameMode === 0 || player.gameMode === 2);
}

/** Whether the mob's eyes see the player's (vanilla `LivingEntity.hasLineOfSight`: no block with a collision shape between). */
function sees(serv: SquidServer, mob: MobState, player: SquidPlayer): boolean {
  return lineOfSight(
    serv,
    mob.entity.world,
    mob.entity.position.offset(0, mob.height * 0.85, 0),
    player.position.offset(0, PLAYER_EYES, 0),
  );
}

/**
 * The player a hostile mob goes for (vanilla `NearestAttackableTargetGoal` with `mustSee`, and
 * `TargetGoal`'s memory): the nearest survival or adventure player within its follow range that
 * it sees, looked for every {@link TARGET_SEARCH_TICKS} ticks; it keeps that player while in
 * range and seen within the last {@link UNSEEN_MEMORY_TICKS} ticks. So monsters in a cave do not
 * come for a player on the ground above.
 */
function chasedPlayer(serv: SquidServer, registry: MobRegistry, mob: MobState): SquidPlayer | undefined {
  const range = HOSTILE_ATTACKS[mob.name]?.followRange ?? HOSTILE_FOLLOW_RANGE;
  if ((mob.name === 'spider' || mob.name === 'cave_spider') && !isNight(serv)) return undefined;
  const now = registry.tick;
  const chase = mob.chase;
  if (chase) {
    const player = serv.players.find((p) => p.id === chase.player);
    if (player && huntable(mob, player) && player.position.distanceTo(mob.entity.position) <= range) {
      if (now - chase.lookedTick >= TARGET_SEARCH_TICKS) {
        chase.lookedTick = now;
        if (sees(serv, mob, player)) chase.seenTick = now;
      }
      if (now - chase.seenTick <= UNSEEN_MEMORY_TICKS) return player;
    }
    mob.chase = undefined;
  }
  if (now < (mob.nextTargetSearchTick ?? 0)) return undefined;
  mob.nextTargetSearchTick = now + TARGET_SEARCH_TICKS;
  const inRange = serv.players
    .filter((p) => huntable(mob, p) && p.position.distanceTo(mob.entity.position) <= range)
    .sort((a, b) => a.position.distanceTo(mob.entity.position) - b.position.distanceTo(mob.entity.position));
  const player = inRange.find((p) => sees(serv, mob, p));
  if (player) mob.chase = { player: player.id, seenTick: now, lookedTick: now };
  return player;
}

/** Mobs that burn in daylight (vanilla `isSunSensitive`: zombies, zombie villagers, drowned, skeletons, strays; not husks). */
const SUN_SENSITIVE: ReadonlySet<string> = new Set(['zombie', 'zombie_villager', 'drowned', 'skeleton', 'stray']);
/** Seconds a sunburn sets a mob on fire for (vanilla `igniteForSeconds(8)`), and the fire's damage every 20 ticks. */
const SUNBURN_TICKS = 8 * 20;
const FIRE_DAMAGE = 1;

/**
 * Daylight burns zombies and skeletons (vanilla `Zombie.aiStep` / `AbstractSkeleton.aiStep` with
 * `Mob.isSunBurnTick`): by day, with the sky above its eyes in full light (brightness above 0.5:
 * light 13 or more, the sky's light less its darkening) and not in water, a mob catches fire on a
 * tick with chance `(brightness − 0.4) × 2 / 30` (4 % in full sun) for 8 s; burning deals 1 every
 * 20 ticks (vanilla `on_fire` damage), and it dies at 0. So monsters that come out of a cave by day
 * do not last.
 */
function burnInSunlight(serv: SquidServer, mob: MobState): void {
  if (!SUN_SENSITIVE.has(mob.name)) return;
  const world = mob.entity.world;
  const eyes = mob.entity.position.offset(0, mob.height * 0.85, 0).floored();
  if (!world.sync.getColumnAt(eyes)) return;
  const darken = skyDarken(Number(serv.time));
  const light = Math.max(world.sync.getSkyLight(eyes) - darken, world.sync.getBlockLight(eyes));
  // vanilla DimensionType brightness with ambient light 0: x / (4 − 3x), x = light / 15.
  const brightness = light / 15 / (4 - (3 * light) / 15);
  const inWater = serv.registry.blocksByStateId[world.sync.getBlockStateId(eyes)]?.name === 'water';
  const daylight = darken < 4 && world.sync.getSkyLight(eyes) === 15 && !inWater && brightness > 0.5;
  for (let t = 0; t < AI_STEP_TICKS; t++) {
    if (daylight && Math.random() * 30 < (brightness - 0.4) * 2) mob.fireTicks = Math.max(mob.fireTicks ?? 0, SUNBURN_TICKS);
  }
  if (inWater) mob.fireTicks = 0;
  if (!mob.fireTicks) return;
  const before = mob.fireTicks;
  mob.fireTicks = Math.max(0, before - AI_STEP_TICKS);
  // One hurt each time the fire's clock passes a multiple of 20 ticks.
  if (Math.floor(before / 20) === Math.floor(mob.fireTicks / 20)) return;
  // Through the mob service's damage event (./mob-combat.ts: invulnerability, the hurt shown, death).
  serv.emit('mobHurt', { entity: mob.entity, damage: FIRE_DAMAGE });
}

/** One AI step ({@link AI_STEP_TICKS} ticks) of one mob: choose a goal, walk, fall, send the new position. */
function stepMob(serv: SquidServer, registry: MobRegistry, mob: MobState): void {
  if (mob.dead) return;
  burnInSunlight(serv, mob);
  if (mob.dead) return;
  const entity = mob.entity;
  const pos = entity.position.clone();
  const panicking = mob.stats.panic !== undefined && registry.tick - mob.lastHurtTick < PANIC_TICKS;
  // A villager trading with a player stands still (vanilla `Villager`: trading stops its navigation).
  const trading = !!mob.villager?.tradingWith;
  if (trading) mob.target = null;
  const moves = mob.stats.moves !== false && mob.stats.speed > 0 && !trading;

  // Goals (vanilla goal priorities: panic > follow player > stroll).
  if (moves) {
    if (panicking) {
      if (!mob.target) {
        mob.target = randomTarget(pos);
        mob.targetSpeed = mob.stats.panic!;
      }
    } else if (mob.hostile) {
      const player = chasedPlayer(serv, registry, mob);
      const attack = HOSTILE_ATTACKS[mob.name];
      if (player) {
        const keepWalking = attack ? attackPlayer(serv, registry, mob, attack, player) : player.position.distanceTo(pos) > 1.5;
        mob.target = keepWalking ? player.position.clone() : null;
        mob.targetSpeed = 1;
      } else {
        if (mob.swell) mob.swell = Math.max(0, mob.swell - AI_STEP_TICKS);
        if (mob.targetSpeed !== 1) mob.target = null;
      }
      if (mob.dead) return;
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
      walkX = dx;
      walkZ = dz;
      mob.target = null;
    } else {
      walkX = (dx / distance) * step;
      walkZ = (dz / distance) * step;
    }
    if (distance > 1e-3) entity.yaw = degreesToByte((Math.atan2(-dx, dz) * 180) / Math.PI);
  }
  let momentumX = 0;
  let momentumZ = 0;
  for (let t = 0; t < AI_STEP_TICKS; t++) {
    momentumX += mob.motion.x;
    momentumZ += mob.motion.z;
    const friction = mob.onGround ? GROUND_FRICTION : AIR_FRICTION;
    mob.motion.x *= friction;
    mob.motion.z *= friction;
  }
  if (Math.abs(mob.motion.x) < 0.003) mob.motion.x = 0;
  if (Math.abs(mob.motion.z) < 0.003) mob.motion.z = 0;
  const movedX = moveAxis(serv, mob, pos, 'x', walkX + momentumX);
  const movedZ = moveAxis(serv, mob, pos, 'z', walkZ + momentumZ);
  if (!movedX) mob.motion.x = 0;
  if (!movedZ) mob.motion.z = 0;
  if ((!movedX || !movedZ) && mob.target) mob.target = null; // blocked: give up this target

  // Vertical: gravity and landing.
  let dy = 0;
  for (let t = 0; t < AI_STEP_TICKS; t++) {
    dy += mob.motion.y;
    mob.motion.y = (mob.motion.y - GRAVITY) * AIR_DRAG;
  }
  const ground = dy <= 0 ? groundBelow(serv, mob.entity.world, mob, pos, Math.max(-dy, 1e-3)) : -Infinity;
  if (ground > -Infinity) {
    pos.y = ground;
    mob.motion.y = 0;
    mob.onGround = true;
  } else {
    const next = pos.offset(0, dy, 0);
    if (!collides(serv, mob.entity.world, mob, next)) {
      pos.y = next.y;
      mob.onGround = false;
    } else {
      mob.motion.y = 0;
      mob.onGround = dy < 0;
    }
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

/** Whether the player's hitbox is within the mob's attack box (vanilla `Mob.isWithinMeleeAttackRange`). */
function withinMeleeReach(mob: MobState, player: SquidPlayer): boolean {
  const m = mob.entity.position;
  const p = player.position;
  const reach = mob.halfWidth + MELEE_REACH + PLAYER_HALF_WIDTH;
  return Math.abs(m.x - p.x) <= reach && Math.abs(m.z - p.z) <= reach && p.y < m.y + mob.height && p.y + PLAYER_HEIGHT > m.y;
}

/** Whether nothing solid lies on the straight line between two points (sampled every 0.2 blocks). */
function lineOfSight(serv: SquidServer, world: SquidWorld, from: Vec3, to: Vec3): boolean {
  const distance = from.distanceTo(to);
  const steps = Math.ceil(distance / 0.2);
  for (let i = 1; i < steps; i++) {
    const at = from.plus(to.minus(from).scaled(i / steps));
    const top = cellTop(serv, world, Math.floor(at.x), Math.floor(at.y), Math.floor(at.z));
    if (top > 0 && at.y - Math.floor(at.y) < top) return false;
  }
  return true;
}

/** Sends a player the knockback of a hit from `from` (vanilla `LivingEntity.knockback`, strength 0.4). */
function knockBack(player: SquidPlayer, from: Vec3): void {
  const dx = player.position.x - from.x;
  const dz = player.position.z - from.z;
  const length = Math.hypot(dx, dz) || 1;
  const velocity = {
    x: Math.round((dx / length) * MELEE_KNOCKBACK * VELOCITY_UNIT),
    y: Math.round(MELEE_KNOCKBACK * VELOCITY_UNIT),
    z: Math.round((dz / length) * MELEE_KNOCKBACK * VELOCITY_UNIT),
  };
  player._client.write('entity_velocity', {
    entityId: player.id,
    velocity,
    velocityX: velocity.x,
    velocityY: velocity.y,
    velocityZ: velocity.z,
  });
}

/**
 * One AI step of a hostile mob's attack on `player` (vanilla `MeleeAttackGoal`,
 * `RangedBowAttackGoal`, `SwellGoal`).
 *
 * @returns whether the mob should keep walking toward the player.
 */
function attackPlayer(serv: SquidServer, registry: MobRegistry, mob: MobState, attack: HostileAttack, player: SquidPlayer): boolean {
  const entity = mob.entity;
  const distance = player.position.distanceTo(entity.position);
  const ready = registry.tick >= (mob.nextAttackTick ?? 0);
  const viewers = [player, ...player.getNearbyPlayers().filter((p) => p !== player)];
  switch (attack.kind) {
    case 'melee':
      if (withinMeleeReach(mob, player)) {
        if (ready) {
          mob.nextAttackTick = registry.tick + attack.interval;
          serv._writeArray('animation', { entityId: entity.id, animation: 0 }, viewers);
          if (hurtPlayer(serv, player, attack.damage, { type: 'mob_attack', attacker: entity }) > 0) knockBack(player, entity.position);
        }
        return distance > 1;
      }
      return true;
    case 'ranged': {
      const eyes = entity.position.offset(0, mob.height * 0.85, 0);
      const seen = distance <= (attack.range ?? 15) && lineOfSight(serv, entity.world, eyes, player.position.offset(0, PLAYER_EYES, 0));
      if (seen && ready) {
        mob.nextAttackTick = registry.tick + (serv.difficulty === 3 ? attack.interval / 2 : attack.interval);
        serv._writeArray('animation', { entityId: entity.id, animation: 0 }, viewers);
        hurtPlayer(serv, player, attack.damage, { type: 'arrow', attacker: entity });
      }
      // vanilla: walks up to 3/4 of its range, then holds its ground.
      return !seen || distance > (attack.range ?? 15) * 0.75;
    }
    case 'explode': {
      if (distance < CREEPER.igniteDistance) mob.swell = (mob.swell ?? 0) + AI_STEP_TICKS;
      else if (distance > CREEPER.cancelDistance) mob.swell = Math.max(0, (mob.swell ?? 0) - AI_STEP_TICKS);
      else if (mob.swell) mob.swell += AI_STEP_TICKS;
      if ((mob.swell ?? 0) >= CREEPER.fuseTicks) explode(serv, mob);
      return !mob.swell;
    }
  }
}

/**
 * A creeper's explosion (vanilla `Explosion`, power 3): each player within 2 × power blocks takes
 * `(impact² + impact) / 2 × 7 × 2 × power + 1` with `impact = 1 − distance / (2 × power)` (no
 * block shields them), as `player_explosion` damage ("blown up by Creeper"); the creeper is
 * gone. Blocks are not destroyed.
 */
function explode(serv: SquidServer, mob: MobState): void {
  const centre = mob.entity.position.clone();
  const diameter = CREEPER.power * 2;
  serv._writeArray('entity_status', { entityId: mob.entity.id, entityStatus: 3 }, mob.entity.getNearbyPlayers());
  for (const player of serv.players) {
    if (player.world !== mob.entity.world) continue;
    const distance = player.position.distanceTo(centre) / diameter;
    if (distance > 1) continue;
    const impact = 1 - distance;
    const damage = Math.floor(((impact * impact + impact) / 2) * 7 * diameter + 1);
    // vanilla DamageSources.explosion: with a living source (the creeper) the type is player_explosion.
    hurtPlayer(serv, player, damage, { type: 'player_explosion', attacker: mob.entity });
  }
  serv.playSound?.('entity.generic.explode', mob.entity.world, centre, { volume: 4, soundCategory: 'hostile' });
  discardMob(serv, mob);
}
