/**
 * Status effects as vanilla 1.21 (Minecraft wiki "Effect", "Commands/effect"; vanilla
 * `MobEffect.applyEffectTick` / `shouldApplyEffectTickThisTick`):
 * - `/effect give <targets> <effect> [seconds|infinite] [amplifier] [hideParticles]` (default 30 s;
 *   instant effects apply once) and `/effect clear <targets> [effect]`, with vanilla feedback;
 * - every tick: regeneration heals 1 every `50 >> amplifier` ticks, poison hurts 1 (`magic`, never
 *   below 1 health) every `25 >> amplifier`, wither hurts 1 every `40 >> amplifier`, hunger adds
 *   0.005 × (amplifier + 1) exhaustion, saturation restores amplifier + 1 food and
 *   2 × (amplifier + 1) saturation; instant_health heals `4 << amplifier`, instant_damage hurts
 *   `6 << amplifier` (`magic`); speed and slowness act on the client, which applies them itself;
 * - effects run out, and death clears them.
 */
import type { SquidPlayer, SquidServer } from '../types.ts';
import { commandAction, CommandError, parseInteger, usageError } from '../services/command-arguments.ts';
import { hurtPlayer } from '../services/damage.ts';
import { addEffect, clearEffects, effectByName, effectsOf, removeEffect, type ActiveEffect } from '../services/effects.ts';
import { addExhaustion } from '../services/food.ts';
import { displayName, resolvePlayers } from '../services/selectors.ts';
import { sendFeedback, translatable, type TextComponent } from '../services/text.ts';

/** vanilla `/effect give` default duration, in seconds. */
const DEFAULT_SECONDS = 30;
/** vanilla: the most seconds `/effect give` accepts. */
const MAX_SECONDS = 1_000_000;
const MAX_HEALTH = 20;
const MAX_FOOD = 20;
const INSTANT = new Set(['instant_health', 'instant_damage', 'saturation']);

function heal(player: SquidPlayer, amount: number): void {
  if (player.health <= 0 || player.health >= MAX_HEALTH) return;
  player.updateHealth(Math.min(MAX_HEALTH, player.health + amount));
}

/** Applies one tick (or the instant action) of an effect. */
function applyEffect(serv: SquidServer, player: SquidPlayer, effect: ActiveEffect, tick: number): void {
  const every = (base: number): boolean => {
    const interval = base >> effect.amplifier;
    return interval <= 0 || tick % interval === 0;
  };
  switch (effect.name) {
    case 'regeneration':
      if (every(50)) heal(player, 1);
      break;
    case 'poison':
      if (every(25) && player.health > 1) hurtPlayer(serv, player, 1, { type: 'magic' });
      break;
    case 'wither':
      if (every(40)) hurtPlayer(serv, player, 1, { type: 'wither' });
      break;
    case 'hunger':
      addExhaustion(serv, player, 0.005 * (effect.amplifier + 1));
      break;
    case 'saturation':
      if (player.gameMode === 0 || player.gameMode === 2) {
        player.food = Math.min(MAX_FOOD, player.food + effect.amplifier + 1);
        player.foodSaturation = Math.min(player.food, (player.foodSaturation || 0) + 2 * (effect.amplifier + 1));
        player.updateHealth(player.health);
      }
      break;
    case 'instant_health':
      heal(player, Math.max(4 << effect.amplifier, 0));
      break;
    case 'instant_damage':
      hurtPlayer(serv, player, 6 << effect.amplifier, { type: 'magic' });
      break;
    default:
      break;
  }
}

function effectName(name: string): TextComponent {
  return translatable(`effect.minecraft.${name}`);
}

/** Installs effect ticking, clearing on death and `/effect`. */
export function installEffects(serv: SquidServer): void {
  serv.on('tick', () => {
    for (const player of serv.players) {
      const effects = effectsOf(player);
      if (effects.size === 0) continue;
      for (const effect of [...effects.values()]) {
        if (player.health <= 0) break;
        applyEffect(serv, player, effect, effect.duration === -1 ? serv.tickCount : effect.duration);
        if (effect.duration > 0) effect.duration--;
        if (effect.duration === 0) removeEffect(serv, player, effect.name);
      }
    }
  });
  serv.on('playerDied', (player) => {
    clearEffects(serv, player);
  });

  serv.commands.add({
    base: 'effect',
    info: 'Gives or clears status effects',
    usage: '/effect give <targets> <effect> [seconds] [amplifier] [hideParticles] | /effect clear [targets] [effect]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [action, selector = '@s', name] = args;
      if (action === 'clear') {
        const targets = resolvePlayers(serv, selector, ctx);
        if (name !== undefined) {
          const effect = effectByName(serv, name);
          if (!effect) throw new CommandError(translatable('effect.effectNotFound', [name]));
          const cleared = targets.filter((t) => removeEffect(serv, t, effect.name));
          if (cleared.length === 0) throw new CommandError(translatable('commands.effect.clear.specific.failed'));
          sendFeedback(
            serv,
            ctx,
            cleared.length === 1
              ? translatable('commands.effect.clear.specific.success.single', [effectName(effect.name), displayName(cleared[0]!)])
              : translatable('commands.effect.clear.specific.success.multiple', [effectName(effect.name), cleared.length]),
          );
          return;
        }
        const cleared = targets.filter((t) => clearEffects(serv, t) > 0);
        if (cleared.length === 0) throw new CommandError(translatable('commands.effect.clear.everything.failed'));
        sendFeedback(
          serv,
          ctx,
          cleared.length === 1
            ? translatable('commands.effect.clear.everything.success.single', [displayName(cleared[0]!)])
            : translatable('commands.effect.clear.everything.success.multiple', [cleared.length]),
        );
        return;
      }
      if (action !== 'give' || name === undefined || args.length > 6)
        throw usageError('/effect give <targets> <effect> [seconds] [amplifier] [hideParticles]');
      const targets = resolvePlayers(serv, selector, ctx);
      const effect = effectByName(serv, name);
      if (!effect) throw new CommandError(translatable('effect.effectNotFound', [name]));
      const instant = INSTANT.has(effect.name);
      const seconds = args[3] === undefined ? undefined : args[3] === 'infinite' ? -1 : parseInteger(args[3], 1, MAX_SECONDS);
      const amplifier = args[4] === undefined ? 0 : parseInteger(args[4], 0, 255);
      const hide = args[5] === undefined ? false : args[5] === 'true' ? true : args[5] === 'false' ? false : undefined;
      if (hide === undefined) throw new CommandError(translatable('parsing.bool.invalid', [args[5]!]));
      const duration = seconds === -1 ? -1 : instant ? 1 : (seconds ?? DEFAULT_SECONDS) * 20;
      const given = targets.filter(
        (t) => t.health > 0 && addEffect(serv, t, { id: effect.id, name: effect.name, amplifier, duration, showParticles: !hide }),
      );
      if (given.length === 0) throw new CommandError(translatable('commands.effect.give.failed'));
      sendFeedback(
        serv,
        ctx,
        given.length === 1
          ? translatable('commands.effect.give.success.single', [effectName(effect.name), displayName(given[0]!)])
          : translatable('commands.effect.give.success.multiple', [effectName(effect.name), given.length]),
      );
    }),
  });
}

/** Removes every player's effects (the warm world's reset). */
export function resetEffects(serv: SquidServer): void {
  for (const player of serv.players) clearEffects(serv, player);
}
