/**
 * Living mobs' shared state: which entities are our mobs ({@link MobState}), the mob clock, and
 * the life cycle every mob feature uses — {@link spawnMob} (any living entity of minecraft-data;
 * flying-squid only spawns its 9 'mob' entries) and {@link killMob} (death animation,
 * `entity_destroy` {@link DEATH_TICKS} ticks later) — and their health, baby and (sheep) wool
 * metadata for clients (flying-squid sends no entity metadata on 1.20.2+).
 *
 * The behaviour lives in features that react to this service's events: `mobHurt` (damage,
 * knockback, panic: ../features/mob-combat.ts) and `mobDied` (loot: ../features/mob-loot.ts);
 * movement is ../features/mob-ai.ts, `/summon` and `/kill` ../features/mob-commands.ts.
 */
import { randomUUID } from 'node:crypto';
import { Vec3 } from 'vec3';
import type { SquidEntity, SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { DEFAULT_MOB, MOBS, type MobStats } from './combat-data.ts';
import { degreesToByte } from './geometry.ts';
import { metadataIndex } from './protocol.ts';
import { LEVEL_XP, MAX_LEVEL, PROFESSIONS, VILLAGER_TYPES, type Profession, type VillagerType } from '../../game/villagers.ts';

/** vanilla LivingEntity.tickDeath: the body is removed 20 ticks after death. */
export const DEATH_TICKS = 20;
/** entity_status values (protocol): death animation. */
const STATUS_DEATH = 3;
/** minecraft-data entity types that are living mobs (everything /summon spawns through this service). */
export const LIVING_TYPES: ReadonlySet<string> = new Set(['animal', 'hostile', 'mob', 'ambient', 'water_creature', 'passive', 'living']);

/** Server-side state of one mob. */
export interface MobState {
  entity: SquidEntity;
  /** minecraft-data entity name, e.g. 'cow'. */
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
  /** Mob tick of the next random stroll. */
  nextStrollTick: number;
  /** Mob tick and damage of the last hit (invulnerability and panic). */
  lastHurtTick: number;
  lastHurtDamage: number;
  /** Hostile mobs: the mob tick of their next attack, and a creeper's fuse (ticks lit). */
  nextAttackTick?: number;
  swell?: number;
  /**
   * Hostile mobs: the player they chase (entity id), the mob tick they last saw it and last looked
   * (../features/mob-ai.ts: vanilla `NearestAttackableTargetGoal` with `mustSee`), and the mob tick
   * of their next look for a player.
   */
  chase?: { player: number; seenTick: number; lookedTick: number };
  /** Ticks the mob still burns (zombies and skeletons in daylight: ../features/mob-ai.ts). */
  fireTicks?: number;
  nextTargetSearchTick?: number;
  /** Sheep: the fleece's dye colour index ({@link WOOL_COLOURS}) and whether it is sheared. */
  wool?: { colour: number; sheared: boolean };
  /** Villagers: their biome type, profession, level (1–5) and experience (../../game/villagers.ts). */
  villager?: VillagerData;
}

/** A villager's `VillagerData` (vanilla), with its trading experience. */
export interface VillagerData {
  type: VillagerType;
  profession: Profession;
  level: number;
  xp: number;
  /**
   * The player trading with it, if one is (vanilla `AbstractVillager.tradingPlayer`): it stands
   * still (vanilla `Villager` stops its navigation while trading) and no one else can trade.
   */
  tradingWith?: SquidPlayer | undefined;
}

/**
 * Dye colours by index, as vanilla's `DyeColor` ids (a sheep's metadata `wool` byte carries the
 * index in its low 4 bits); `<colour>_wool` is the matching wool item.
 */
export const WOOL_COLOURS = [
  'white',
  'orange',
  'magenta',
  'light_blue',
  'yellow',
  'lime',
  'pink',
  'gray',
  'light_gray',
  'cyan',
  'purple',
  'blue',
  'brown',
  'green',
  'red',
  'black',
] as const;
/** Sheep metadata `wool` byte: bit 0x10 = sheared, low 4 bits = colour. */
const SHEARED_BIT = 0x10;

/** The mobs of one server and their clock. */
export interface MobRegistry {
  /** Living (and dying, until removed) mobs by entity id. */
  mobs: Map<number, MobState>;
  /** Server ticks since the service was installed (the mobs' clock). */
  tick: number;
}

const registries = new WeakMap<SquidServer, MobRegistry>();

/**
 * The mob registry of a server.
 *
 * @throws Error when the mob service is not installed.
 */
export function mobRegistry(serv: SquidServer): MobRegistry {
  const registry = registries.get(serv);
  if (!registry) throw new Error('mob service not installed');
  return registry;
}

/** The mob state behind a flying-squid entity, if it is one of our mobs. */
export function mobState(serv: SquidServer, entity: SquidEntity | undefined): MobState | undefined {
  return entity ? registries.get(serv)?.mobs.get(entity.id) : undefined;
}

/** Every living mob (dying ones included until their body is removed). */
export function allMobs(serv: SquidServer): MobState[] {
  return [...(registries.get(serv)?.mobs.values() ?? [])];
}

/**
 * Installs the mob registry: the mob clock, and mob metadata for every player a mob is shown to.
 * Hooks `newPlayer`, so it must run before players join.
 */
export function installMobs(serv: SquidServer): void {
  const registry: MobRegistry = { mobs: new Map(), tick: 0 };
  registries.set(serv, registry);
  serv.on('tick', () => {
    registry.tick++;
  });
  serv.on('newPlayer', (player) => {
    const spawnEntity = player.spawnEntity;
    player.spawnEntity = (entity) => {
      spawnEntity(entity);
      const mob = registry.mobs.get(entity.id);
      if (mob) sendMobMetadata(serv, mob, [player]);
    };
  });
}

/** Where and how {@link spawnMob} spawns a mob. */
export interface SpawnMobOptions {
  world: SquidWorld;
  /** Feet position, in blocks. */
  position: Vec3;
  /** Spawn as a baby (vanilla `Age` < 0 for animals, `IsBaby` for zombies). */
  baby?: boolean;
  /** Yaw in degrees (0 = south); random when omitted. */
  yaw?: number;
  /** Sheep: the fleece's colour, an index of {@link WOOL_COLOURS} (default 0, white). */
  woolColour?: number;
  /** Villagers: profession (default `none`), level (default 1) and type (default `plains`). */
  villager?: Partial<Pick<VillagerData, 'type' | 'profession' | 'level'>>;
}

function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

/**
 * Spawns a living mob by minecraft-data name (e.g. 'cow', 'zombie') and shows it to nearby
 * players with its health and baby metadata. Damage dealt to it (flying-squid's `takeDamage`)
 * is reported as a `mobHurt` event.
 *
 * @returns the mob's state (its flying-squid entity is `state.entity`).
 * @throws Error for a name that is not a living entity in minecraft-data, when the mob service
 *   is not installed, or when flying-squid's `max-entities` is reached.
 */
export function spawnMob(serv: SquidServer, name: string, options: SpawnMobOptions): MobState {
  const registry = mobRegistry(serv);
  const info = serv.registry.entitiesByName[name.replace(/^minecraft:/, '')];
  if (!info || !LIVING_TYPES.has(info.type)) throw new Error(`not a living entity: ${name}`);
  const stats = MOBS[info.name] ?? DEFAULT_MOB;
  const entity = serv.initEntity('mob', info.id, options.world, options.position.clone());
  entity.uuid = randomUUID();
  entity.name = info.name;
  // No `size`: flying-squid's own entity physics (entities.js) skips the mob; the mob-ai feature moves it.
  entity.velocity = new Vec3(0, 0, 0);
  entity.yaw = degreesToByte(options.yaw ?? Math.random() * 360);
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
    nextStrollTick: registry.tick + randomInt(10, 60),
    lastHurtTick: -Infinity,
    lastHurtDamage: 0,
  };
  if (info.name === 'sheep') {
    const colour = options.woolColour ?? 0;
    if (!Number.isInteger(colour) || colour < 0 || colour >= WOOL_COLOURS.length)
      throw new Error(`woolColour ${colour} is not a dye colour index 0–${WOOL_COLOURS.length - 1}`);
    mob.wool = { colour, sheared: false };
  }
  if (info.name === 'villager') {
    const { type = 'plains', profession = 'none', level = 1 } = options.villager ?? {};
    if (!VILLAGER_TYPES.includes(type) || !PROFESSIONS.includes(profession) || !Number.isInteger(level) || level < 1 || level > MAX_LEVEL)
      throw new Error(`villager data ${JSON.stringify(options.villager)} is not a type, profession and level 1–${MAX_LEVEL}`);
    mob.villager = { type, profession, level, xp: LEVEL_XP[level - 1]! };
  }
  entity.updateHealth = (health) => {
    mob.health = health;
    entity.health = health;
  };
  entity.takeDamage = ({ damage, attacker }) => {
    serv.emit('mobHurt', { entity, damage: damage ?? 1, attacker });
  };
  registry.mobs.set(entity.id, mob);
  entity.updateAndSpawn();
  return mob;
}

/**
 * Writes the mob's health, (where it has one) baby flag, (sheep) wool and (villagers) villager
 * data to `players` (1.20.2+ only; older versions get flying-squid's).
 */
export function sendMobMetadata(serv: SquidServer, mob: MobState, players: SquidPlayer[]): void {
  if (!serv.registry.version['>=']('1.20.2') || players.length === 0) return;
  const metadata: Array<{ key: number; type: string; value: unknown }> = [];
  const health = metadataIndex(serv, mob.entity.entityType, 'health');
  if (health >= 0) metadata.push({ key: health, type: 'float', value: Math.max(0, mob.health) });
  const baby = metadataIndex(serv, mob.entity.entityType, 'baby');
  if (baby >= 0) metadata.push({ key: baby, type: 'boolean', value: mob.baby });
  const wool = mob.wool ? metadataIndex(serv, mob.entity.entityType, 'wool') : -1;
  if (wool >= 0) metadata.push({ key: wool, type: 'byte', value: (mob.wool!.sheared ? SHEARED_BIT : 0) | mob.wool!.colour });
  const villager = mob.villager ? metadataIndex(serv, mob.entity.entityType, 'villager_data') : -1;
  if (villager >= 0) {
    const data = mob.villager!;
    // Registry ids (../../game/villagers.ts keeps vanilla's registry order).
    const value = {
      villagerType: VILLAGER_TYPES.indexOf(data.type),
      villagerProfession: PROFESSIONS.indexOf(data.profession),
      level: data.level,
    };
    metadata.push({ key: villager, type: 'villager_data', value });
  }
  if (metadata.length === 0) return;
  const packet = { entityId: mob.entity.id, metadata };
  for (const player of players) if (!player.disconnected) player._client.write('entity_metadata', packet);
}

/**
 * Kills a mob: death animation (`entity_status` 3), a `mobDied` event (its loot), and removal
 * (`entity_destroy`) {@link DEATH_TICKS} ticks later. No-op for a mob already dead.
 *
 * @param killer the player who dealt the killing blow, if any.
 */
export function killMob(serv: SquidServer, mob: MobState, killer?: SquidPlayer): void {
  if (mob.dead) return;
  const registry = mobRegistry(serv);
  mob.dead = true;
  mob.health = 0;
  mob.entity.health = 0;
  mob.target = null;
  const watchers = mob.entity.getNearbyPlayers();
  sendMobMetadata(serv, mob, watchers);
  serv._writeArray('entity_status', { entityId: mob.entity.id, entityStatus: STATUS_DEATH }, watchers);
  serv.emit('mobDied', { entity: mob.entity, killer });
  const removeAt = registry.tick + DEATH_TICKS;
  const remove = (): void => {
    if (registry.tick < removeAt) return;
    serv.off('tick', remove);
    registry.mobs.delete(mob.entity.id);
    if (serv.entities[mob.entity.id] === mob.entity) mob.entity.destroy();
  };
  serv.on('tick', remove);
}

/**
 * Removes a mob at once without death or loot (vanilla `Entity.discard`, e.g. a creeper that
 * exploded): clients get `entity_destroy`.
 */
export function discardMob(serv: SquidServer, mob: MobState): void {
  mob.dead = true;
  mob.target = null;
  mobRegistry(serv).mobs.delete(mob.entity.id);
  if (serv.entities[mob.entity.id] === mob.entity) mob.entity.destroy();
}

/**
 * Removes every entity but the players (mobs, animals, dropped items) without loot or death
 * animation, as a fresh world has none (the warm world's reset).
 */
export function removeNonPlayers(serv: SquidServer): void {
  const registry = mobRegistry(serv);
  for (const entity of Object.values(serv.entities)) {
    if (entity.type === 'player') continue;
    registry.mobs.delete(entity.id);
    entity.destroy();
  }
}
