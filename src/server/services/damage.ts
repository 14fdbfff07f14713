/**
 * Damage to players as vanilla 1.21 deals it (`Player.hurt`, `LivingEntity.hurt`; Minecraft wiki
 * "Damage"): one entry point, {@link hurtPlayer}, for every source (mobs, lava, fire, falls,
 * drowning, effects, `/kill`, flying-squid's own `takeDamage`). It applies the game mode and game
 * rule exemptions, difficulty scaling, the 10-tick invulnerability window, the damage type's food
 * exhaustion, tells the clients (`damage_event`, `update_health`) and remembers the last source,
 * from which {@link deathMessage} builds vanilla's death message.
 *
 * Damage types (message id, exhaustion, scaling, death message type) come from the version's
 * `minecraft:damage_type` registry in minecraft-data (`loginPacket.dimensionCodec`), the same
 * registry the client receives, so `damage_event.sourceTypeId` is its index there.
 */
import type { SquidEntity, SquidPlayer, SquidServer } from '../types.ts';
import { addExhaustion } from './food.ts';
import { gameRule } from './game-rules.ts';
import { translatable, type TextComponent } from './text.ts';

/** What hurt a player: a vanilla damage type name (without `minecraft:`) and the entity behind it. */
export interface DamageSource {
  /** e.g. `mob_attack`, `arrow`, `lava`, `in_fire`, `on_fire`, `fall`, `drown`, `starve`, `magic`, `generic_kill`. */
  type: string;
  /** The entity that caused the damage (the zombie, the skeleton that shot), if any. */
  attacker?: SquidEntity;
}

/** One entry of the damage type registry. */
export interface DamageType {
  /** Index in the registry the client has (`damage_event.sourceTypeId`). */
  id: number;
  /** Death message key suffix: `death.attack.<messageId>`. */
  messageId: string;
  /** Food exhaustion the hit costs the victim. */
  exhaustion: number;
  /** `never`, `always` or `when_caused_by_living_non_player`. */
  scaling: string;
  /** `default`, `fall_variants` or `intentional_game_design`. */
  deathMessageType: string;
}

/** vanilla `LivingEntity.invulnerableTime` after a hit is 20 ticks; only damage above the last hit counts in the last 10 of them. */
const INVULNERABLE_TICKS = 10;
/** Damage types that hurt creative and spectator players (vanilla tag `bypasses_invulnerability`). */
const BYPASSES_INVULNERABILITY = new Set(['out_of_world', 'generic_kill']);
/** Damage types each game rule turns off (vanilla `Player.isInvulnerableTo`). */
const RULE_OF_TYPE: Record<string, 'fallDamage' | 'fireDamage' | 'drowningDamage' | 'freezeDamage'> = {
  fall: 'fallDamage',
  in_fire: 'fireDamage',
  on_fire: 'fireDamage',
  lava: 'fireDamage',
  hot_floor: 'fireDamage',
  campfire: 'fireDamage',
  drown: 'drowningDamage',
  freeze: 'freezeDamage',
};

const typesByServer = new WeakMap<SquidServer, Map<string, DamageType>>();

interface NbtValue {
  type: string;
  value: unknown;
}

/** The version's damage types by name (from the registry the client gets). */
export function damageTypes(serv: SquidServer): Map<string, DamageType> {
  let types = typesByServer.get(serv);
  if (types) return types;
  types = new Map();
  const login = (
    serv.registry as unknown as {
      loginPacket?: { dimensionCodec?: Record<string, { entries?: Array<{ key: string; value: { value: Record<string, NbtValue> } }> }> };
    }
  ).loginPacket;
  const entries = login?.dimensionCodec?.['minecraft:damage_type']?.entries ?? [];
  entries.forEach((entry, id) => {
    const fields = entry.value?.value ?? {};
    types.set(entry.key.replace(/^minecraft:/, ''), {
      id,
      messageId: String(fields.message_id?.value ?? 'generic'),
      exhaustion: Number(fields.exhaustion?.value ?? 0),
      scaling: String(fields.scaling?.value ?? 'never'),
      deathMessageType: String(fields.death_message_type?.value ?? 'default'),
    });
  });
  typesByServer.set(serv, types);
  return types;
}

/** A player's last hits, for the invulnerability window and the death message. */
interface HurtState {
  tick: number;
  amount: number;
  source: DamageSource | null;
}

const hurtStates = new WeakMap<SquidPlayer, HurtState>();

function hurtState(player: SquidPlayer): HurtState {
  let state = hurtStates.get(player);
  if (!state) {
    state = { tick: -Infinity, amount: 0, source: null };
    hurtStates.set(player, state);
  }
  return state;
}

/** The last source that hurt the player since they (re)spawned, or null. */
export function lastDamageSource(player: SquidPlayer): DamageSource | null {
  return hurtStates.get(player)?.source ?? null;
}

/** Forgets the player's last hits (on respawn). */
export function resetDamage(player: SquidPlayer): void {
  hurtStates.delete(player);
}

/**
 * Damage after difficulty scaling (vanilla `Player.hurt`: peaceful 0, easy `min(d / 2 + 1, d)`,
 * normal `d`, hard `d × 1.5`), for types that scale with the source.
 */
export function scaleForDifficulty(serv: SquidServer, amount: number, type: DamageType | undefined, attacker?: SquidEntity): number {
  const scales =
    type?.scaling === 'always' ||
    (type?.scaling === 'when_caused_by_living_non_player' && attacker !== undefined && attacker.type !== 'player');
  if (!scales) return amount;
  switch (serv.difficulty) {
    case 0:
      return 0;
    case 1:
      return Math.min(amount / 2 + 1, amount);
    case 3:
      return amount * 1.5;
    default:
      return amount;
  }
}

/** True while the player cannot be hurt by `source` at all (game mode, game rules, death). */
export function immuneTo(serv: SquidServer, player: SquidPlayer, source: DamageSource): boolean {
  if (player.health <= 0 || player.disconnected) return true;
  if ((player.gameMode === 1 || player.gameMode === 3) && !BYPASSES_INVULNERABILITY.has(source.type)) return true;
  const rule = RULE_OF_TYPE[source.type];
  return rule !== undefined && !gameRule(serv, rule);
}

/**
 * Hurts a player: vanilla rules for who can be hurt, difficulty scaling, the invulnerability
 * window (a hit within 10 ticks of the last counts only for the damage above it), the damage
 * type's food exhaustion, `damage_event` to the victim and the players who see them, and the new
 * health (`update_health`; at 0 the player dies, see the player-state feature).
 *
 * @param amount damage in half-hearts before difficulty scaling.
 * @returns the damage dealt (0 when the hit was ignored).
 */
export function hurtPlayer(serv: SquidServer, player: SquidPlayer, amount: number, source: DamageSource): number {
  if (amount <= 0 || immuneTo(serv, player, source)) return 0;
  const type = damageTypes(serv).get(source.type);
  let damage = scaleForDifficulty(serv, amount, type, source.attacker);
  if (damage <= 0) return 0;
  const state = hurtState(player);
  const tick = serv.tickCount;
  if (tick - state.tick < INVULNERABLE_TICKS) {
    if (damage <= state.amount) return 0;
    const full = damage;
    damage -= state.amount;
    state.amount = full;
  } else {
    state.amount = damage;
    state.tick = tick;
  }
  state.source = source;
  if (type && type.exhaustion > 0) addExhaustion(serv, player, type.exhaustion);
  const viewers = [player, ...player.getNearbyPlayers().filter((p) => p !== player)];
  const cause = source.attacker ? source.attacker.id + 1 : 0;
  serv._writeArray(
    'damage_event',
    {
      entityId: player.id,
      sourceTypeId: type?.id ?? 0,
      sourceCauseId: cause,
      sourceDirectId: cause,
      sourcePosition: undefined,
    },
    viewers,
  );
  player.updateHealth(Math.max(0, player.health - damage));
  return damage;
}

/** The name a death message shows for an entity: the player's name, or the mob's translated type. */
function entityName(serv: SquidServer, entity: SquidEntity): TextComponent | string {
  if (entity.type === 'player') return (entity as SquidPlayer).username;
  return translatable(`entity.minecraft.${entity.name ?? serv.registry.entities[entity.entityType ?? -1]?.name ?? 'unknown'}`);
}

/**
 * The vanilla death message for a player who just died (`CombatTracker.getDeathMessage`):
 * `death.fell.accident.generic` for falls, `death.attack.<message id>` with the victim (and the
 * attacker's name when an entity caused it), `death.attack.generic` when nothing is known.
 */
export function deathMessage(serv: SquidServer, player: SquidPlayer): TextComponent {
  const source = lastDamageSource(player);
  if (!source) return translatable('death.attack.generic', [player.username]);
  const type = damageTypes(serv).get(source.type);
  if (type?.deathMessageType === 'fall_variants') return translatable('death.fell.accident.generic', [player.username]);
  if (type?.deathMessageType === 'intentional_game_design')
    return translatable(`death.attack.${type.messageId}.message`, [player.username, '[Intentional Game Design]']);
  const key = `death.attack.${type?.messageId ?? 'generic'}`;
  // vanilla DamageSource.getLocalizedDeathMessage: with a causing entity, the key takes its name.
  if (source.attacker) return translatable(key, [player.username, entityName(serv, source.attacker)]);
  return translatable(key, [player.username]);
}

/**
 * Makes flying-squid's `player.takeDamage` (its pvp and commands) go through {@link hurtPlayer}:
 * `player_attack` when a player is named as the attacker, else `generic`. Call once per player.
 */
export function routeTakeDamage(serv: SquidServer, player: SquidPlayer): void {
  player.takeDamage = ({ damage = 1, attacker }: { damage?: number; attacker?: SquidPlayer } = {}) => {
    hurtPlayer(serv, player, damage, attacker ? { type: 'player_attack', attacker } : { type: 'generic' });
  };
  player.on('spawned', () => resetDamage(player));
}
