/**
 * Melee combat against our mobs, as vanilla Java 1.21 `Player.attack` / `LivingEntity.hurt`
 * (Minecraft wiki "Damage", "Attack cooldown"): damage from the attacker's held item
 * (../services/combat-data.ts) scaled by the attack cooldown, the 10-tick invulnerability window,
 * knockback, panic for passive mobs, and death at 0 health (the mob service's `killMob`).
 */
import type { SquidPlayer, SquidServer } from '../types.ts';
import { HAND, WEAPONS, type WeaponStats } from '../services/combat-data.ts';
import { TICKS_PER_SECOND } from '../services/geometry.ts';
import { heldItem } from '../services/items.ts';
import { killMob, mobRegistry, mobState, sendMobMetadata, type MobRegistry, type MobState } from '../services/mobs.ts';

/** vanilla: hits within 10 ticks of the last one only deal the damage exceeding it (invulnerableTime 20, half of it). */
const INVULNERABLE_TICKS = 10;
/** vanilla LivingEntity.knockback strength for a melee hit, blocks per tick. */
const KNOCKBACK = 0.4;
/** Players reach entities within 3 blocks plus vanilla's 3-block server-side tolerance. */
const ATTACK_REACH = 6;
/** minecraft-data types whose members panic when hurt (vanilla: most animals and villagers have a PanicGoal). */
const PANICKING_TYPES = new Set(['animal', 'passive']);

/** The attack stats of the item a player holds in their main hand. */
export function heldWeapon(player: SquidPlayer): WeaponStats {
  const item = heldItem(player);
  return (item?.name && WEAPONS[item.name]) || HAND;
}

/** Mob ticks of each player's last attack or item switch (vanilla `attackStrengthTicker`). */
type AttackClock = WeakMap<SquidPlayer, number>;

/**
 * Melee damage of a player's hit now: the held item's attack damage scaled by the attack cooldown
 * (vanilla `Player.attack`: `damage × (0.2 + strength² × 0.8)`, strength = ticks since the last
 * attack or item switch ÷ (20 / attack speed), capped at 1). Resets the player's cooldown.
 */
function playerAttackDamage(registry: MobRegistry, clock: AttackClock, player: SquidPlayer): number {
  const weapon = heldWeapon(player);
  const last = clock.get(player) ?? -Infinity;
  const strength = Math.min(1, Math.max(0, (registry.tick - last + 0.5) / (TICKS_PER_SECOND / weapon.attackSpeed)));
  clock.set(player, registry.tick);
  return weapon.damage * (0.2 + strength * strength * 0.8);
}

/**
 * Hurts a mob (vanilla `LivingEntity.hurt`): within {@link INVULNERABLE_TICKS} of the last hit only
 * damage above that hit's counts; a player attacker's damage comes from their held item, and the
 * hit knocks the mob back and makes passive mobs panic. At 0 health the mob dies.
 */
function hurtMob(
  serv: SquidServer,
  registry: MobRegistry,
  clock: AttackClock,
  mob: MobState,
  baseDamage: number,
  attacker?: SquidPlayer,
): void {
  if (mob.dead) return;
  if (attacker && attacker.position.distanceTo(mob.entity.position) > ATTACK_REACH + mob.halfWidth) return;
  let damage = attacker ? playerAttackDamage(registry, clock, attacker) : baseDamage;
  if (registry.tick - mob.lastHurtTick < INVULNERABLE_TICKS) {
    if (damage <= mob.lastHurtDamage) return;
    const full = damage;
    damage -= mob.lastHurtDamage;
    mob.lastHurtDamage = full;
  } else {
    mob.lastHurtDamage = damage;
    mob.lastHurtTick = registry.tick;
  }
  mob.health = Math.max(0, mob.health - damage);
  mob.entity.health = mob.health;
  const watchers = mob.entity.getNearbyPlayers();
  serv._writeArray(
    'damage_event',
    {
      entityId: mob.entity.id,
      sourceTypeId: 0,
      sourceCauseId: attacker ? attacker.id + 1 : 0,
      sourceDirectId: attacker ? attacker.id + 1 : 0,
      sourcePosition: undefined,
    },
    watchers,
  );
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
  if (mob.health <= 0) {
    killMob(serv, mob, attacker);
    return;
  }
  const type = serv.registry.entities[mob.entity.entityType ?? -1]?.type;
  if (mob.stats.panic !== undefined && type !== undefined && PANICKING_TYPES.has(type)) {
    mob.target = null; // re-targeted by the next AI step while panicking
  }
}

/** Installs melee combat against mobs; needs the mob service. Hooks `newPlayer`. */
export function installMobCombat(serv: SquidServer): void {
  const registry = mobRegistry(serv);
  const clock: AttackClock = new WeakMap();
  serv.on('mobHurt', ({ entity, damage, attacker }) => {
    const mob = mobState(serv, entity);
    if (mob) hurtMob(serv, registry, clock, mob, damage, attacker);
  });
  serv.on('newPlayer', (player) => {
    // flying-squid's pvp passes no attacker to takeDamage: name the player for our mobs.
    player.on('attack', (data) => {
      if (data.attackedEntity && registry.mobs.has(data.attackedEntity.id)) data.attacker = player;
    });
    player._client.on('held_item_slot', () => clock.set(player, registry.tick));
  });
}
