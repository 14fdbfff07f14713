/**
 * Vanilla Java 1.21 combat and mob numbers that minecraft-data does not carry (it has no item
 * attack attributes and no entity attributes). Sources: Minecraft wiki pages "Sword", "Axe",
 * "Pickaxe", "Shovel", "Hoe", "Trident", "Mace", "Damage" (attack damage and attack speed
 * attributes, Java Edition 1.21), and each mob's page ("Health points", "Speed" = the
 * `generic.movement_speed` attribute) — the values of the vanilla `*.createAttributes()` methods.
 * Anything not listed uses the defaults below.
 */

/** Attack damage (half-hearts, base 1 included) and attack speed (attacks per second) of a held item. */
export interface WeaponStats {
  damage: number;
  attackSpeed: number;
}

/** Empty hand / any item not listed: vanilla player base attack damage 1, attack speed 4. */
export const HAND: WeaponStats = { damage: 1, attackSpeed: 4 };

/** Weapons and tools, by minecraft-data item name. */
export const WEAPONS: Readonly<Record<string, WeaponStats>> = {
  wooden_sword: { damage: 4, attackSpeed: 1.6 },
  golden_sword: { damage: 4, attackSpeed: 1.6 },
  stone_sword: { damage: 5, attackSpeed: 1.6 },
  iron_sword: { damage: 6, attackSpeed: 1.6 },
  diamond_sword: { damage: 7, attackSpeed: 1.6 },
  netherite_sword: { damage: 8, attackSpeed: 1.6 },
  wooden_axe: { damage: 7, attackSpeed: 0.8 },
  golden_axe: { damage: 7, attackSpeed: 1 },
  stone_axe: { damage: 9, attackSpeed: 0.8 },
  iron_axe: { damage: 9, attackSpeed: 0.9 },
  diamond_axe: { damage: 9, attackSpeed: 1 },
  netherite_axe: { damage: 10, attackSpeed: 1 },
  wooden_pickaxe: { damage: 2, attackSpeed: 1.2 },
  golden_pickaxe: { damage: 2, attackSpeed: 1.2 },
  stone_pickaxe: { damage: 3, attackSpeed: 1.2 },
  iron_pickaxe: { damage: 4, attackSpeed: 1.2 },
  diamond_pickaxe: { damage: 5, attackSpeed: 1.2 },
  netherite_pickaxe: { damage: 6, attackSpeed: 1.2 },
  wooden_shovel: { damage: 2.5, attackSpeed: 1 },
  golden_shovel: { damage: 2.5, attackSpeed: 1 },
  stone_shovel: { damage: 3.5, attackSpeed: 1 },
  iron_shovel: { damage: 4.5, attackSpeed: 1 },
  diamond_shovel: { damage: 5.5, attackSpeed: 1 },
  netherite_shovel: { damage: 6.5, attackSpeed: 1 },
  wooden_hoe: { damage: 1, attackSpeed: 1 },
  golden_hoe: { damage: 1, attackSpeed: 1 },
  stone_hoe: { damage: 1, attackSpeed: 2 },
  iron_hoe: { damage: 1, attackSpeed: 3 },
  diamond_hoe: { damage: 1, attackSpeed: 4 },
  netherite_hoe: { damage: 1, attackSpeed: 4 },
  trident: { damage: 9, attackSpeed: 1.1 },
  mace: { damage: 6, attackSpeed: 0.6 },
};

/**
 * A mob's vanilla attributes.
 * - `health`: max health in half-hearts (random-health horses/llamas: the middle of their range;
 *   slimes and magma cubes: the smallest size);
 * - `speed`: `generic.movement_speed`; the ground speed it gives is about 20·speed²/0.454 blocks/s
 *   (vanilla mob travel with ground friction 0.6·0.91);
 * - `panic`: speed multiplier while fleeing after being hurt (vanilla `PanicGoal`), passive mobs only;
 * - `moves`: false for mobs that do not walk on the ground (fliers, swimmers, stationary).
 */
export interface MobStats {
  health: number;
  speed: number;
  panic?: number;
  moves?: boolean;
}

/** Defaults for mobs not listed in {@link MOBS}. */
export const DEFAULT_MOB: MobStats = { health: 20, speed: 0.25 };

/** By minecraft-data entity name. */
export const MOBS: Readonly<Record<string, MobStats>> = {
  // Animals
  armadillo: { health: 12, speed: 0.14, panic: 2 },
  axolotl: { health: 14, speed: 1, moves: false },
  bee: { health: 10, speed: 0.3, moves: false },
  camel: { health: 32, speed: 0.09, panic: 4 },
  cat: { health: 10, speed: 0.3, panic: 1.5 },
  chicken: { health: 4, speed: 0.25, panic: 1.4 },
  cow: { health: 10, speed: 0.2, panic: 2 },
  donkey: { health: 22.5, speed: 0.175, panic: 1.2 },
  fox: { health: 10, speed: 0.3, panic: 2.2 },
  frog: { health: 10, speed: 1, panic: 1 },
  goat: { health: 10, speed: 0.2, panic: 2 },
  hoglin: { health: 40, speed: 0.3 },
  horse: { health: 22.5, speed: 0.225, panic: 1.2 },
  llama: { health: 22.5, speed: 0.175, panic: 1.2 },
  mooshroom: { health: 10, speed: 0.2, panic: 2 },
  mule: { health: 22.5, speed: 0.175, panic: 1.2 },
  ocelot: { health: 10, speed: 0.3, panic: 1.33 },
  panda: { health: 20, speed: 0.15, panic: 2 },
  parrot: { health: 6, speed: 0.2, moves: false },
  pig: { health: 10, speed: 0.25, panic: 1.25 },
  polar_bear: { health: 30, speed: 0.25, panic: 2 },
  rabbit: { health: 3, speed: 0.3, panic: 2.2 },
  sheep: { health: 8, speed: 0.23, panic: 1.25 },
  skeleton_horse: { health: 15, speed: 0.2, panic: 1.2 },
  sniffer: { health: 14, speed: 0.1, panic: 2 },
  strider: { health: 20, speed: 0.175, panic: 1.65 },
  trader_llama: { health: 22.5, speed: 0.175, panic: 1.2 },
  turtle: { health: 30, speed: 0.25, panic: 1.2 },
  wolf: { health: 40, speed: 0.3, panic: 1.5 },
  zombie_horse: { health: 15, speed: 0.2, panic: 1.2 },
  // Hostile
  blaze: { health: 20, speed: 0.23, moves: false },
  bogged: { health: 16, speed: 0.25 },
  breeze: { health: 30, speed: 0.63 },
  cave_spider: { health: 12, speed: 0.3 },
  creaking: { health: 1, speed: 0.4 },
  creeper: { health: 20, speed: 0.25 },
  drowned: { health: 20, speed: 0.23 },
  elder_guardian: { health: 80, speed: 0.3, moves: false },
  enderman: { health: 40, speed: 0.3 },
  endermite: { health: 8, speed: 0.25 },
  evoker: { health: 24, speed: 0.5 },
  giant: { health: 100, speed: 0.5 },
  guardian: { health: 30, speed: 0.5, moves: false },
  husk: { health: 20, speed: 0.23 },
  illusioner: { health: 32, speed: 0.5 },
  piglin: { health: 16, speed: 0.35 },
  piglin_brute: { health: 50, speed: 0.35 },
  pillager: { health: 24, speed: 0.35 },
  ravager: { health: 100, speed: 0.3 },
  silverfish: { health: 8, speed: 0.25 },
  skeleton: { health: 20, speed: 0.25 },
  spider: { health: 16, speed: 0.3 },
  stray: { health: 20, speed: 0.25 },
  vex: { health: 14, speed: 0.25, moves: false },
  vindicator: { health: 24, speed: 0.35 },
  warden: { health: 500, speed: 0.3 },
  witch: { health: 26, speed: 0.25 },
  wither: { health: 300, speed: 0.6, moves: false },
  wither_skeleton: { health: 20, speed: 0.25 },
  zoglin: { health: 40, speed: 0.25 },
  zombie: { health: 20, speed: 0.23 },
  zombie_villager: { health: 20, speed: 0.23 },
  zombified_piglin: { health: 20, speed: 0.23 },
  // minecraft-data type 'mob', ambient, water, other passive
  allay: { health: 20, speed: 0.1, moves: false },
  ender_dragon: { health: 200, speed: 0.7, moves: false },
  ghast: { health: 10, speed: 0.7, moves: false },
  iron_golem: { health: 100, speed: 0.25 },
  magma_cube: { health: 1, speed: 0.2 },
  phantom: { health: 20, speed: 0.7, moves: false },
  shulker: { health: 30, speed: 0, moves: false },
  slime: { health: 1, speed: 0.2 },
  snow_golem: { health: 4, speed: 0.2 },
  bat: { health: 6, speed: 0.1, moves: false },
  cod: { health: 3, speed: 1, moves: false },
  pufferfish: { health: 3, speed: 1, moves: false },
  salmon: { health: 3, speed: 1, moves: false },
  tadpole: { health: 6, speed: 1, moves: false },
  tropical_fish: { health: 3, speed: 1, moves: false },
  dolphin: { health: 10, speed: 1.2, moves: false },
  glow_squid: { health: 10, speed: 0.7, moves: false },
  squid: { health: 10, speed: 0.7, moves: false },
  villager: { health: 20, speed: 0.5, panic: 0.6 },
  wandering_trader: { health: 20, speed: 0.5, panic: 0.6 },
};

/**
 * How a hostile mob attacks players (vanilla 1.21 goals and attributes; Minecraft wiki pages
 * "Zombie", "Spider", "Skeleton", "Creeper", "Attribute"):
 * - `melee` (`MeleeAttackGoal`): hits a player its attack box reaches (the mob's box widened by
 *   vanilla's `DEFAULT_ATTACK_REACH` ≈ 0.83 blocks) once every 20 ticks, for the
 *   `attack_damage` attribute (normal difficulty; `mob_attack` damage scales with difficulty);
 * - `ranged` (`RangedBowAttackGoal`): shoots within `range` blocks with a line of sight every
 *   `interval` ticks (20 on hard); the arrow deals `ceil(1.6 × (2 + 0.11 × difficulty))` on
 *   normal: base damage 2 plus the difficulty term (`AbstractArrow.setBaseDamageFromMob`), times
 *   the bow's launch speed 1.6 (`AbstractSkeleton.performRangedAttack`) → 4;
 * - `explode` (`SwellGoal`, `Creeper`): starts its 30-tick fuse within 3 blocks, lets it die down
 *   beyond 7, and explodes with power 3 (`explosionRadius`).
 * `followRange` is the `follow_range` attribute: how far the mob notices a player (zombies 35,
 * the default 16 otherwise).
 */
export interface HostileAttack {
  kind: 'melee' | 'ranged' | 'explode';
  /** Damage on normal difficulty, half-hearts (melee and ranged). */
  damage: number;
  followRange: number;
  /** Ticks between attacks (melee, ranged on easy/normal). */
  interval: number;
  /** Ranged: the most blocks it shoots from. */
  range?: number;
}

/** vanilla `Mob.DEFAULT_ATTACK_REACH`: sqrt(2.04) − 0.6 blocks added around the attacker's box. */
export const MELEE_REACH = Math.sqrt(2.04) - 0.6;
/** vanilla `MeleeAttackGoal.getAttackInterval`: 20 ticks. */
const MELEE_INTERVAL = 20;
/** vanilla `Creeper`: fuse ticks (`maxSwell`), ignition and give-up distances, explosion power. */
export const CREEPER = { fuseTicks: 30, igniteDistance: 3, cancelDistance: 7, power: 3 } as const;

const ZOMBIE: HostileAttack = { kind: 'melee', damage: 3, followRange: 35, interval: MELEE_INTERVAL };
const SKELETON: HostileAttack = { kind: 'ranged', damage: 4, followRange: 16, interval: 40, range: 15 };

/** Hostile attacks by minecraft-data entity name. */
export const HOSTILE_ATTACKS: Readonly<Record<string, HostileAttack>> = {
  zombie: ZOMBIE,
  husk: ZOMBIE,
  zombie_villager: ZOMBIE,
  drowned: ZOMBIE,
  spider: { kind: 'melee', damage: 2, followRange: 16, interval: MELEE_INTERVAL },
  cave_spider: { kind: 'melee', damage: 2, followRange: 16, interval: MELEE_INTERVAL },
  skeleton: SKELETON,
  stray: SKELETON,
  bogged: SKELETON,
  creeper: { kind: 'explode', damage: 0, followRange: 16, interval: 0 },
};
