/**
 * Status effects on players (vanilla `MobEffectInstance`; Minecraft wiki "Effect"): each player's
 * active effects with amplifier and remaining ticks, and the packets that tell clients
 * (`entity_effect`, `remove_entity_effect`), which also make a client apply the movement effects
 * (speed, slowness) to itself. Effect ids are minecraft-data's (the version's registry ids). The
 * effects feature ticks them and runs `/effect`.
 */
import type { SquidPlayer, SquidServer } from '../types.ts';

/** One active effect. */
export interface ActiveEffect {
  /** minecraft-data effect id (registry id on 1.20.5+). */
  id: number;
  /** Vanilla resource name without namespace, e.g. `speed`, `instant_health`. */
  name: string;
  /** 0 = level I. */
  amplifier: number;
  /** Ticks left; -1 = infinite. */
  duration: number;
  /** Whether particles show (the client's `entity_effect` flags). */
  showParticles: boolean;
}

/** `entity_effect` flag bits (protocol): ambient, show particles, show icon. */
const FLAG_PARTICLES = 0x02;
const FLAG_ICON = 0x04;

const effectsByPlayer = new WeakMap<SquidPlayer, Map<string, ActiveEffect>>();

/** A player's active effects by name (created on first use). */
export function effectsOf(player: SquidPlayer): Map<string, ActiveEffect> {
  let effects = effectsByPlayer.get(player);
  if (!effects) {
    effects = new Map();
    effectsByPlayer.set(player, effects);
  }
  return effects;
}

/** minecraft-data's effect for a vanilla name (`speed`, `minecraft:instant_health`), or undefined. */
export function effectByName(serv: SquidServer, name: string): { id: number; name: string } | undefined {
  const plain = name.replace(/^minecraft:/, '');
  const camel = plain
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  const effect = serv.registry.effectsByName[camel] as { id: number } | undefined;
  return effect ? { id: effect.id, name: plain } : undefined;
}

/** The players who see `player`'s effects: themselves and those around. */
function viewers(player: SquidPlayer): SquidPlayer[] {
  return [player, ...player.getNearbyPlayers().filter((p) => p !== player)];
}

/** Sends an effect to the player and those around (vanilla `ClientboundUpdateMobEffectPacket`). */
export function sendEffect(serv: SquidServer, player: SquidPlayer, effect: ActiveEffect): void {
  serv._writeArray(
    'entity_effect',
    {
      entityId: player.id,
      effectId: effect.id,
      amplifier: effect.amplifier,
      duration: effect.duration,
      flags: (effect.showParticles ? FLAG_PARTICLES : 0) | FLAG_ICON,
      hideParticles: !effect.showParticles,
    },
    viewers(player).filter((p) => !p.disconnected),
  );
}

/**
 * Adds or upgrades an effect (vanilla `MobEffectInstance.update`): a stronger amplifier replaces
 * the current one, an equal one extends it if longer; a weaker one is ignored.
 *
 * @returns false when nothing changed (vanilla `commands.effect.give.failed`).
 */
export function addEffect(serv: SquidServer, player: SquidPlayer, effect: ActiveEffect): boolean {
  const effects = effectsOf(player);
  const current = effects.get(effect.name);
  const longer = (a: number, b: number): boolean => (a === -1 ? b !== -1 : b !== -1 && a > b);
  if (
    current &&
    (effect.amplifier < current.amplifier || (effect.amplifier === current.amplifier && !longer(effect.duration, current.duration)))
  )
    return false;
  effects.set(effect.name, { ...effect });
  sendEffect(serv, player, effect);
  return true;
}

/** Removes one effect and tells the clients. @returns false when the player did not have it. */
export function removeEffect(serv: SquidServer, player: SquidPlayer, name: string): boolean {
  const effects = effectsOf(player);
  const effect = effects.get(name);
  if (!effect) return false;
  effects.delete(name);
  serv._writeArray(
    'remove_entity_effect',
    { entityId: player.id, effectId: effect.id },
    viewers(player).filter((p) => !p.disconnected),
  );
  return true;
}

/** Removes every effect. @returns how many were removed. */
export function clearEffects(serv: SquidServer, player: SquidPlayer): number {
  const names = [...effectsOf(player).keys()];
  for (const name of names) removeEffect(serv, player, name);
  return names.length;
}
