/**
 * Living mobs for the embedded server, as a vanilla Java 1.21 server shows them to clients:
 * - `/summon` for every living entity of minecraft-data (flying-squid only spawns its 9 'mob'
 *   entries), `/kill [targets]` with death, loot and `entity_destroy`;
 * - health and baby metadata (flying-squid sends no entity metadata on 1.20.2+);
 * - a light AI on one shared timer (every {@link AI_STEP_TICKS} ticks for all mobs): random
 *   strolls on the ground with step-up and gravity, panic runs for hurt passive mobs, hostile mobs
 *   walking toward the nearest survival player within {@link HOSTILE_FOLLOW_RANGE} blocks (no attacks);
 * - melee damage from the attacker's held item with the attack cooldown and the 10-tick
 *   invulnerability window, knockback, death (entity_status 3, then entity_destroy after
 *   {@link DEATH_TICKS} ticks) and loot from minecraft-data `entityLoot` as item entities.
 *
 * Game rules follow vanilla `LivingEntity` / `Player.attack` / `PanicGoal` / `RandomStrollGoal`
 * (Minecraft wiki "Damage", "Mob", "Attack cooldown"); numbers minecraft-data lacks (health,
 * movement speed, weapon damage) are in ./combat-data.ts with their source.
 */
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { Vec3 } from 'vec3';
import type { SquidServer } from '../embedded.ts';
import { DEFAULT_MOB, HAND, MOBS, WEAPONS, type MobStats, type WeaponStats } from './combat-data.ts';
import { parseSnbt, type NbtCompound } from './snbt.ts';
import { splitBracketedArguments } from './fill.ts';
import { spawnItemEntity } from './drops.ts';
import { commandAction, CommandError, displayName, requirePlayer, resolveTargets } from './targets.ts';
import { resolveLocation } from './teleport.ts';
import { sendFeedback, translatable } from './text.ts';
import type { CommandContext, SquidEntity, SquidPlayer } from './types.ts';

const require = createRequire(import.meta.url);

/** The AI runs once every this many server ticks (20 ticks = 1 s) for all mobs together. */
export const AI_STEP_TICKS = 2;
/** vanilla LivingEntity.tickDeath: the body is removed 20 ticks after death. */
export const DEATH_TICKS = 20;
/** vanilla: hits within 10 ticks of the last one only deal the damage exceeding it (invulnerableTime 20, half of it). */
const INVULNERABLE_TICKS = 10;
/** vanilla PanicGoal keeps running while the last hurt is under 100 ticks old. */
const PANIC_TICKS = 100;
/** vanilla LivingEntity.knockback strength for a melee hit, blocks per tick. */
const KNOCKBACK = 0.4;
/** vanilla gravity for living entities (blocks/tick²) and air drag per tick. */
const GRAVITY = 0.08;
const AIR_DRAG = 0.98;
/** vanilla ground friction for horizontal momentum per tick (block slipperiness 0.6 × 0.91). */
const GROUND_FRICTION = 0.546;
/** Players reach entities within 3 blocks plus vanilla's 3-block server-side tolerance. */
const ATTACK_REACH = 6;
/** Hostile mobs walk toward survival players within this many blocks (vanilla FOLLOW_RANGE 16 for zombies). */
export const HOSTILE_FOLLOW_RANGE = 16;
/** Random strolls: a new target within this many blocks, every {@link STROLL_MIN_TICKS}–{@link STROLL_MAX_TICKS} ticks. */
const STROLL_RADIUS = 5;
const STROLL_MIN_TICKS = 40;
const STROLL_MAX_TICKS = 140;
/** vanilla: item entities spawned by a dying mob can be picked up after 10 ticks. */
const LOOT_PICKUP_DELAY_TICKS = 10;
/** entity_status values (protocol): death animation. */
const STATUS_DEATH = 3;
/** minecraft-data entity types that are living mobs (everything /summon spawns through this module). */
const LIVING_TYPES = new Set(['animal', 'hostile', 'mob', 'ambient', 'water_creature', 'passive', 'living']);
/** Types whose members panic when hurt (vanilla: most animals and villagers have a PanicGoal). */
const PANICKING_TYPES = new Set(['animal', 'passive']);

/** Server-side state of one mob. */
export interface MobState {
  entity: SquidEntity;
  name: string;
  stats: MobStats;
  hostile: boolean;
  baby: boolean;
  /** Half of the minecraft-data width, and the height, in blocks. */
  halfWidth: number;
  height: number;
  health: number;
  dead: boolean;
  onGround: boolean;
  /** Momentum from knockback and falling, in blocks per tick. */
  motion: Vec3;
  /** Where the mob is walking to, and at which speed multiplier. */
  target: Vec3 | null;
  targetSpeed: number;
  nextStrollTick: number;
  lastHurtTick: number;
  lastHurtDamage: number;
}

interface ModuleState {
  mobs: Map<number, MobState>;
  tick: number;
  /** Ticks since each player's attack strength was last reset (vanilla attackStrengthTicker). */
  lastAttackTick: WeakMap<SquidPlayer, number>;
  shapeTops: Map<number, number>;
}

const states = new WeakMap<SquidServer, ModuleState>();

/** The mob state behind a flying-squid entity, if this module spawned it. */
export function mobState(serv: SquidServer, entity: SquidEntity): MobState | undefined {
  return states.get(serv)?.mobs.get(entity.id);
}

/** Every living mob this module tracks (dying ones included until their body is removed). */
export function allMobs(serv: SquidServer): MobState[] {
  return [...(states.get(serv)?.mobs.values() ?? [])];
}

/** Vanilla ground speed in blocks per tick for a movement-speed attribute (travel with friction 0.546). */
function groundSpeed(attribute: number): number {
  return (attribute * attribute) / (1 - GROUND_FRICTION);
}

/**
 * Installs mobs: `/summon`, `/kill`, the shared AI timer, melee combat against our mobs and their
 * metadata for clients. Hooks `newPlayer`, so it must run before players join.
 */
export function mobsPlugin(serv: SquidServer): void {
  const module: ModuleState = { mobs: new Map(), tick: 0, lastAttackTick: new WeakMap(), shapeTops: new Map() };
  states.set(serv, module);

  serv.on('newEntity', (entity: SquidEntity) => {
    // flying-squid names every object 'unknown' (minecraft-data 1.21 has no `objects`): use the entity name so `@e[type=item]` works.
    if (entity.type === 'object' && (entity.name === undefined || entity.name === 'unknown')) {
      entity.name = serv.registry.entities[entity.entityType ?? -1]?.name ?? entity.name;
    }
  });

  serv.on('newPlayer', (player: SquidPlayer) => {
    const spawnEntity = player.spawnEntity;
    player.spawnEntity = (entity: SquidEntity) => {
      spawnEntity(entity);
      const mob = module.mobs.get(entity.id);
      if (mob) sendMobMetadata(serv, mob, [player]);
    };
    player.on('attack', (data: { attackedEntity: SquidEntity; attacker?: SquidPlayer }) => {
      if (module.mobs.has(data.attackedEntity?.id)) data.attacker = player;
    });
    player._client.on('held_item_slot', () => module.lastAttackTick.set(player, module.tick));
  });

  serv.on('tick', () => {
    module.tick++;
    if (module.tick % AI_STEP_TICKS !== 0 || module.mobs.size === 0) return;
    for (const mob of module.mobs.values()) {
      try {
        stepMob(serv, module, mob);
      } catch (err) {
        serv.debug?.(`mob ${mob.entity.id} AI step failed: ${String(err)}`);
      }
    }
  });

  installMobCommands(serv, module);
}

// ---------------------------------------------------------------------------------------------
// Spawning

export interface SpawnMobOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  world: any;
  /** Feet position, in blocks. */
  position: Vec3;
  /** Spawn as a baby (vanilla `Age` < 0 for animals, `IsBaby` for zombies). */
  baby?: boolean;
  /** Yaw in degrees (0 = south); random when omitted. */
  yaw?: number;
}

/**
 * Spawns a living mob by minecraft-data name (e.g. 'cow', 'zombie') and shows it to nearby
 * players with its health and baby metadata.
 *
 * @returns the mob's state (its flying-squid entity is `state.entity`).
 * @throws Error for a name that is not a living entity in minecraft-data, or when flying-squid's
 *   `max-entities` is reached.
 */
export function spawnMob(serv: SquidServer, name: string, options: SpawnMobOptions): MobState {
  const module = states.get(serv);
  if (!module) throw new Error('mobs plugin not installed');
  const info = serv.registry.entitiesByName[name.replace(/^minecraft:/, '')];
  if (!info || !LIVING_TYPES.has(info.type)) throw new Error(`not a living entity: ${name}`);
  const stats = MOBS[info.name] ?? DEFAULT_MOB;
  const entity: SquidEntity = serv.initEntity('mob', info.id, options.world, options.position.clone());
  const yawDegrees = options.yaw ?? Math.random() * 360;
  entity.uuid = randomUUID();
  entity.name = info.name;
  // No `size`: flying-squid's own entity physics (entities.js) skips the mob; this module moves it.
  entity.velocity = new Vec3(0, 0, 0);
  entity.yaw = degreesToByte(yawDegrees);
  entity.pitch = 0;
  entity.headPitch = 0;
  entity.metadata = [];
  entity.health = stats.health;
  const scale = options.baby ? 0.5 : 1;
  const mob: MobState = {
    entity,
    name: info.name,
    stats,
    hostile: info.type === 'hostile',
    baby: Boolean(options.baby),
    halfWidth: ((info.width ?? 0.6) * scale) / 2,
    height: (info.height ?? 1.8) * scale,
    health: stats.health,
    dead: false,
    onGround: false,
    motion: new Vec3(0, 0, 0),
    target: null,
    targetSpeed: 1,
    nextStrollTick: module.tick + randomInt(10, 60),
    lastHurtTick: -Infinity,
    lastHurtDamage: 0,
  };
  entity.updateHealth = (health: number) => { mob.health = health; entity.health = health; };
  entity.takeDamage = ({ damage, attacker }: { damage?: number; attacker?: SquidPlayer }) => hurtMob(serv, mob, damage ?? 1, attacker);
  module.mobs.set(entity.id, mob);
  entity.updateAndSpawn();
  return mob;
}

function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

/** Degrees → protocol angle byte (1/256 of a turn, signed), as flying-squid stores yaw. */
function degreesToByte(degrees: number): number {
  let b = Math.floor((((degrees % 360) + 360) % 360) * 256 / 360);
  if (b > 127) b -= 256;
  return b;
}

/** Writes the mob's health and (where it has one) baby flag to `players` (1.20.2+ only; older versions get flying-squid's). */
function sendMobMetadata(serv: SquidServer, mob: MobState, players: SquidPlayer[]): void {
  if (!serv.registry.version['>=']('1.20.2') || players.length === 0) return;
  const keys: string[] = serv.registry.entities[mob.entity.entityType ?? -1]?.metadataKeys ?? [];
  const metadata: Array<{ key: number; type: string; value: unknown }> = [];
  const health = keys.indexOf('health');
  if (health >= 0) metadata.push({ key: health, type: 'float', value: Math.max(0, mob.health) });
  const baby = keys.indexOf('baby');
  if (baby >= 0) metadata.push({ key: baby, type: 'boolean', value: mob.baby });
  if (metadata.length === 0) return;
  const packet = { entityId: mob.entity.id, metadata };
  for (const player of players) if (!player.disconnected) player._client.write('entity_metadata', packet);
}

// ---------------------------------------------------------------------------------------------
// Combat, death, loot

/** The attack stats of the item a player holds in their main hand. */
export function heldWeapon(player: SquidPlayer): WeaponStats {
  const item = player.inventory?.slots?.[36 + (player.heldItemSlot ?? 0)];
  return (item?.name && WEAPONS[item.name]) || HAND;
}

/**
 * Melee damage of a player's hit now: the held item's attack damage scaled by the attack cooldown
 * (vanilla `Player.attack`: `damage × (0.2 + strength² × 0.8)`, strength = ticks since the last
 * attack or item switch ÷ (20 / attack speed), capped at 1). Resets the player's cooldown.
 */
function playerAttackDamage(module: ModuleState, player: SquidPlayer): number {
  const weapon = heldWeapon(player);
  const last = module.lastAttackTick.get(player) ?? -Infinity;
  const strength = Math.min(1, Math.max(0, (module.tick - last + 0.5) / (20 / weapon.attackSpeed)));
  module.lastAttackTick.set(player, module.tick);
  return weapon.damage * (0.2 + strength * strength * 0.8);
}

/**
 * Hurts a mob (vanilla `LivingEntity.hurt`): within {@link INVULNERABLE_TICKS} of the last hit only
 * damage above that hit's counts; a player attacker's damage comes from their held item, and the
 * hit knocks the mob back and makes passive mobs panic. At 0 health the mob dies.
 */
function hurtMob(serv: SquidServer, mob: MobState, baseDamage: number, attacker?: SquidPlayer): void {
  const module = states.get(serv)!;
  if (mob.dead) return;
  if (attacker && attacker.position.distanceTo(mob.entity.position) > ATTACK_REACH + mob.halfWidth) return;
  let damage = attacker ? playerAttackDamage(module, attacker) : baseDamage;
  if (module.tick - mob.lastHurtTick < INVULNERABLE_TICKS) {
    if (damage <= mob.lastHurtDamage) return;
    const full = damage;
    damage -= mob.lastHurtDamage;
    mob.lastHurtDamage = full;
  } else {
    mob.lastHurtDamage = damage;
    mob.lastHurtTick = module.tick;
  }
  mob.health = Math.max(0, mob.health - damage);
  mob.entity.health = mob.health;
  const watchers: SquidPlayer[] = mob.entity.getNearbyPlayers();
  serv._writeArray('damage_event', {
    entityId: mob.entity.id,
    sourceTypeId: 0,
    sourceCauseId: attacker ? attacker.id + 1 : 0,
    sourceDirectId: attacker ? attacker.id + 1 : 0,
    sourcePosition: undefined,
  }, watchers);
  sendMobMetadata(serv, mob, watchers);
  if (attacker) {
    // vanilla LivingEntity.knockback(0.4, attacker.x - x, attacker.z - z): away from the attacker.
    const dx = mob.entity.position.x - attacker.position.x;
    const dz = mob.entity.position.z - attacker.position.z;
    const length = Math.hypot(dx, dz) || 1;
    mob.motion.x = mob.motion.x / 2 + (dx / length) * KNOCKBACK;
    mob.motion.z = mob.motion.z / 2 + (dz / length) * KNOCKBACK;
    if (mob.onGround) mob.motion.y = Math.min(KNOCKBACK, mob.motion.y / 2 + KNOCKBACK);
    mob.onGround = false;
  }
  if (mob.health <= 0) { killMob(serv, mob, attacker); return; }
  if (mob.stats.panic !== undefined && PANICKING_TYPES.has(serv.registry.entities[mob.entity.entityType ?? -1]?.type)) {
    mob.target = null; // re-targeted by the next AI step while panicking
  }
}

/**
 * Kills a mob: death animation (`entity_status` 3), loot from minecraft-data `entityLoot` as item
 * entities (player-kill-only entries when `killer` is set; babies drop nothing), and removal
 * (`entity_destroy`) {@link DEATH_TICKS} ticks later.
 */
export function killMob(serv: SquidServer, mob: MobState, killer?: SquidPlayer): void {
  if (mob.dead) return;
  const module = states.get(serv)!;
  mob.dead = true;
  mob.health = 0;
  mob.entity.health = 0;
  mob.target = null;
  const watchers: SquidPlayer[] = mob.entity.getNearbyPlayers();
  sendMobMetadata(serv, mob, watchers);
  serv._writeArray('entity_status', { entityId: mob.entity.id, entityStatus: STATUS_DEATH }, watchers);
  if (!mob.baby) dropLoot(serv, mob, Boolean(killer));
  const removeAt = module.tick + DEATH_TICKS;
  const remove = (): void => {
    if (module.tick < removeAt) return;
    serv.off('tick', remove);
    module.mobs.delete(mob.entity.id);
    if (serv.entities[mob.entity.id] === mob.entity) mob.entity.destroy();
  };
  serv.on('tick', remove);
}

/** Spawns the mob's loot (minecraft-data `entityLoot`: drop chance and stack-size range per entry). */
function dropLoot(serv: SquidServer, mob: MobState, byPlayer: boolean): void {
  const loot = serv.registry.entityLoot?.[mob.name]?.drops as Array<{ item: string; dropChance: number; stackSizeRange: [number, number?]; playerKill?: boolean }> | undefined;
  if (!loot) return;
  const Item = require('prismarine-item')(serv.registry);
  const pos = mob.entity.position;
  for (const entry of loot) {
    if (entry.playerKill && !byPlayer) continue;
    if (Math.random() >= entry.dropChance) continue;
    const [min, max = min] = entry.stackSizeRange;
    const count = randomInt(min, max);
    const info = serv.registry.itemsByName[entry.item];
    if (count <= 0 || !info) continue;
    spawnItemEntity(serv, {
      world: mob.entity.world,
      position: { x: pos.x, y: pos.y + 0.5, z: pos.z },
      // vanilla ItemEntity: a small random horizontal toss and 0.2 blocks/tick up (here in blocks/s).
      velocity: { x: (Math.random() - 0.5) * 2, y: 4, z: (Math.random() - 0.5) * 2 },
      item: new Item(info.id, count),
      pickupDelayTicks: LOOT_PICKUP_DELAY_TICKS,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// AI and movement

/** Height of the top of a block state's collision shape within its cell (0 = passable), cached. */
function shapeTop(serv: SquidServer, module: ModuleState, stateId: number): number {
  let top = module.shapeTops.get(stateId);
  if (top === undefined) {
    const Block = require('prismarine-block')(serv.registry);
    const shapes: number[][] = Block.fromStateId(stateId, 0).shapes ?? [];
    top = shapes.reduce((max, shape) => Math.max(max, shape[4] ?? 0), 0);
    module.shapeTops.set(stateId, top);
  }
  return top;
}

/** Collision top of the block cell at (x, y, z) in world coordinates; unloaded chunks count as solid. */
function cellTop(serv: SquidServer, module: ModuleState, world: SquidEntity, x: number, y: number, z: number): number {
  const pos = new Vec3(x, y, z);
  if (!world.sync.getColumnAt(pos)) return 1;
  return shapeTop(serv, module, world.sync.getBlockStateId(pos));
}

/**
 * Whether the mob's box with feet at `pos` overlaps a solid block. Blocks are treated as
 * full-width columns up to their collision top (fences 1.5, slabs 0.5).
 */
function collides(serv: SquidServer, module: ModuleState, mob: MobState, pos: Vec3): boolean {
  const eps = 1e-3;
  for (let x = Math.floor(pos.x - mob.halfWidth + eps); x <= Math.floor(pos.x + mob.halfWidth - eps); x++) {
    for (let z = Math.floor(pos.z - mob.halfWidth + eps); z <= Math.floor(pos.z + mob.halfWidth - eps); z++) {
      for (let y = Math.floor(pos.y - 0.5); y <= Math.floor(pos.y + mob.height - eps); y++) {
        const top = cellTop(serv, module, mob.entity.world, x, y, z);
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
function groundBelow(serv: SquidServer, module: ModuleState, mob: MobState, pos: Vec3, depth = 0.5): number {
  const eps = 1e-3;
  let best = -Infinity;
  for (let x = Math.floor(pos.x - mob.halfWidth + eps); x <= Math.floor(pos.x + mob.halfWidth - eps); x++) {
    for (let z = Math.floor(pos.z - mob.halfWidth + eps); z <= Math.floor(pos.z + mob.halfWidth - eps); z++) {
      for (let y = Math.floor(pos.y - eps); y >= Math.floor(pos.y - depth) - 1; y--) {
        const top = cellTop(serv, module, mob.entity.world, x, y, z);
        if (top > 0 && y + top <= pos.y + eps && y + top >= pos.y - depth) { best = Math.max(best, y + top); break; }
      }
    }
  }
  return best;
}

/** Moves along one horizontal axis, stepping up one block when the way is blocked by a low obstacle (vanilla jump). */
function moveAxis(serv: SquidServer, module: ModuleState, mob: MobState, pos: Vec3, axis: 'x' | 'z', amount: number): boolean {
  if (amount === 0) return true;
  const next = pos.clone();
  next[axis] += amount;
  if (!collides(serv, module, mob, next)) { pos[axis] = next[axis]; return true; }
  const stepped = next.offset(0, 1, 0);
  if (mob.onGround && !collides(serv, module, mob, stepped) && !collides(serv, module, mob, pos.offset(0, 1, 0))) {
    // Only a step of at most one block: the obstacle's top must be reachable.
    const ground = groundBelow(serv, module, mob, stepped);
    if (ground > pos.y && ground <= pos.y + 1) { pos[axis] = next[axis]; pos.y = ground; return true; }
  }
  return false;
}

function nearestSurvivalPlayer(serv: SquidServer, mob: MobState): SquidPlayer | undefined {
  let best: SquidPlayer | undefined;
  let bestDistance = HOSTILE_FOLLOW_RANGE;
  for (const player of serv.players as SquidPlayer[]) {
    if (player.world !== mob.entity.world || player.health <= 0 || (player.gameMode !== 0 && player.gameMode !== 2)) continue;
    const d = player.position.distanceTo(mob.entity.position);
    if (d <= bestDistance) { best = player; bestDistance = d; }
  }
  return best;
}

/** One AI step ({@link AI_STEP_TICKS} ticks) of one mob: choose a goal, walk, fall, send the new position. */
function stepMob(serv: SquidServer, module: ModuleState, mob: MobState): void {
  if (mob.dead) return;
  const entity = mob.entity;
  const pos: Vec3 = entity.position.clone();
  const panicking = mob.stats.panic !== undefined && module.tick - mob.lastHurtTick < PANIC_TICKS;
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
    if (!mob.target && module.tick >= mob.nextStrollTick) {
      mob.target = randomTarget(pos);
      mob.targetSpeed = 1;
      mob.nextStrollTick = module.tick + randomInt(STROLL_MIN_TICKS, STROLL_MAX_TICKS);
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
    const friction = mob.onGround ? GROUND_FRICTION : 0.91;
    mob.motion.x *= friction; mob.motion.z *= friction;
  }
  if (Math.abs(mob.motion.x) < 0.003) mob.motion.x = 0;
  if (Math.abs(mob.motion.z) < 0.003) mob.motion.z = 0;
  const movedX = moveAxis(serv, module, mob, pos, 'x', walkX + momentumX);
  const movedZ = moveAxis(serv, module, mob, pos, 'z', walkZ + momentumZ);
  if (!movedX) mob.motion.x = 0;
  if (!movedZ) mob.motion.z = 0;
  if ((!movedX || !movedZ) && mob.target) mob.target = null; // blocked: give up this target

  // Vertical: gravity and landing.
  let dy = 0;
  for (let t = 0; t < AI_STEP_TICKS; t++) {
    dy += mob.motion.y;
    mob.motion.y = (mob.motion.y - GRAVITY) * AIR_DRAG;
  }
  const ground = dy <= 0 ? groundBelow(serv, module, mob, pos, Math.max(-dy, 1e-3)) : -Infinity;
  if (ground > -Infinity) {
    pos.y = ground;
    mob.motion.y = 0;
    mob.onGround = true;
  } else {
    const next = pos.offset(0, dy, 0);
    if (!collides(serv, module, mob, next)) { pos.y = next.y; mob.onGround = false; } else { mob.motion.y = 0; mob.onGround = dy < 0; }
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

// ---------------------------------------------------------------------------------------------
// Commands

/**
 * Accepts vanilla 1.13+ selector options where flying-squid knows older names:
 * `type=minecraft:cow` → `type=cow`, `limit=N` → `c=N`, `distance=..R` → `r=R`; `sort=` is dropped.
 */
export function normaliseSelector(selector: string): string {
  const match = /^(@[aeprs])\[(.*)\]$/.exec(selector);
  if (!match) return selector;
  const options = match[2]!.split(',').map((o) => o.trim()).filter(Boolean).flatMap((option) => {
    const [key, value = ''] = option.split('=').map((p) => p.trim()) as [string, string | undefined];
    if (key === 'type') return [`type=${value.replace(/^(!?)minecraft:/, '$1')}`];
    if (key === 'limit') return [`c=${value}`];
    if (key === 'sort') return [];
    if (key === 'distance') {
      const range = /^(\d*\.?\d*)\.\.(\d*\.?\d*)$/.exec(value);
      if (range) return [...(range[1] ? [`rm=${range[1]}`] : []), ...(range[2] ? [`r=${range[2]}`] : [])];
      return [`r=${value}`];
    }
    return [option];
  });
  return options.length ? `${match[1]}[${options.join(',')}]` : match[1]!;
}

function installMobCommands(serv: SquidServer, module: ModuleState): void {
  const summonUsage = '/summon <entity> [<x> <y> <z>] [<nbt>]';
  serv.commands.add({
    base: 'summon',
    info: 'Summons an entity',
    usage: summonUsage,
    op: true,
    action: commandAction(serv, (_args, ctx, raw) => {
      const args = splitBracketedArguments(raw);
      if (args.length !== 1 && args.length !== 4 && args.length !== 5) throw new CommandError({ text: `Usage: ${summonUsage}` });
      const name = args[0]!.replace(/^minecraft:/, '');
      const info = serv.registry.entitiesByName[name];
      if (!info) throw new CommandError(translatable('argument.resource.not_found', [args[0]!, 'minecraft:entity_type']));
      const origin: Vec3 = ctx.player?.position ?? new Vec3(0, 0, 0);
      const position = args.length >= 4 ? resolveLocation(args.slice(1, 4), origin) : origin.clone();
      const nbt = args[4] === undefined ? {} : parseSnbt(args[4]);
      const data = (typeof nbt === 'object' && !Array.isArray(nbt) ? nbt : {}) as NbtCompound;
      const world = ctx.player?.world ?? serv.overworld;
      if (info.type === 'player') throw new CommandError(translatable('commands.summon.failed'));
      try {
        if (LIVING_TYPES.has(info.type)) {
          const baby = (typeof data.Age === 'number' && data.Age < 0) || data.IsBaby === 1;
          spawnMob(serv, name, { world, position, baby });
        } else {
          serv.spawnObject(info.id, world, position, {});
        }
      } catch (err) {
        serv.debug?.(`summon ${name} failed: ${String(err)}`);
        throw new CommandError(translatable('commands.summon.failed'));
      }
      sendFeedback(serv, ctx.player, translatable('commands.summon.success', [info.displayName ?? name]));
    }),
  });

  serv.commands.add({
    base: 'kill',
    info: 'Kills entities',
    usage: '/kill [<targets>]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      if (args.length > 1) throw new CommandError({ text: 'Usage: /kill [<targets>]' });
      const targets = (args[0] === undefined ? [requirePlayer(ctx)] : resolveTargets(serv, normaliseSelector(args[0]), ctx as CommandContext))
        .filter((entity) => !module.mobs.get(entity.id)?.dead);
      if (targets.length === 0) throw new CommandError(translatable('argument.entity.notfound.entity'));
      for (const entity of targets) killEntity(serv, module, entity);
      sendFeedback(serv, ctx.player, targets.length === 1
        ? translatable('commands.kill.success.single', [displayName(targets[0]!)])
        : translatable('commands.kill.success.multiple', [targets.length]));
    }),
  });
}

/** Vanilla `/kill` on one entity: our mobs die with loot, players die, anything else is removed. */
function killEntity(serv: SquidServer, module: ModuleState, entity: SquidEntity): void {
  const mob = module.mobs.get(entity.id);
  if (mob) { killMob(serv, mob); return; }
  if (entity.type === 'player') {
    if (entity.health > 0) entity.takeDamage({ damage: entity.health });
    return;
  }
  entity.destroy();
}
