/** Fighting mobs and players with mineflayer-pvp. */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { abortable, throwIfAborted } from '../util/abort.ts';
import { pickUpDropsNear } from './blocks.ts';
import { countChanges, diffCounts, inventoryCounts } from './items.ts';
import { playerEntity } from './movement.ts';
import { nearestEntity, requireEntityType } from './navigation.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';
import { loadPlugins } from './plugins.ts';

/** How far `!attack` looks for the mob (blocks), as in the reference. */
export const ATTACK_RANGE = 24;

/** Melee weapons, best first (by damage per hit in vanilla 1.21). */
export const MELEE_WEAPONS: readonly string[] = [
  'netherite_sword',
  'netherite_axe',
  'diamond_sword',
  'diamond_axe',
  'iron_sword',
  'iron_axe',
  'stone_sword',
  'stone_axe',
  'golden_sword',
  'wooden_sword',
  'golden_axe',
  'wooden_axe',
];

/** Puts the best melee weapon the bot carries in its hand; returns its name, if any. */
export async function equipBestWeapon(bot: Bot, signal: AbortSignal): Promise<string | undefined> {
  const items = bot.inventory.items();
  for (const name of MELEE_WEAPONS) {
    const item = items.find((i) => i.name === name);
    if (item) {
      if (bot.heldItem?.name !== name) await abortable(bot.equip(item, 'hand'), signal);
      return name;
    }
  }
  return undefined;
}

/**
 * Attacks `target` with mineflayer-pvp until it dies or disappears, or `signal` aborts.
 *
 * @returns true when it died (death animation or removal), false when it escaped out of sight.
 */
async function fight(bot: Bot, target: Entity, signal: AbortSignal): Promise<boolean> {
  loadPlugins(bot);
  throwIfAborted(signal);
  let died = false;
  // mineflayer-pvp's own event is not in mineflayer's typed event map.
  const events = bot as unknown as NodeJS.EventEmitter;
  const ended = new Promise<void>((resolve) => {
    const onDead = (e: Entity) => {
      if (e === target) {
        died = true;
        done();
      }
    };
    const onGone = (e: Entity) => {
      if (e === target) {
        died = died || (e.health ?? 1) <= 0 || target.position.distanceTo(bot.entity.position) < 16;
        done();
      }
    };
    const onStopped = () => done();
    const done = () => {
      bot.off('entityDead', onDead);
      bot.off('entityGone', onGone);
      events.off('stoppedAttacking', onStopped);
      resolve();
    };
    bot.on('entityDead', onDead);
    bot.on('entityGone', onGone);
    // pvp stops by itself when the target leaves its view distance.
    setImmediate(() => events.on('stoppedAttacking', onStopped));
  });
  await bot.pvp.attack(target);
  try {
    await abortable(ended, signal, () => bot.pvp.forceStop());
  } finally {
    if (bot.pvp.target) bot.pvp.forceStop();
  }
  return died;
}

/** The mobs each bot has seen die (entity status 3), which lie in their death animation for 20 ticks before they are removed. */
const dyingByBot = new WeakMap<Bot, WeakSet<Entity>>();

/** Whether `bot` has seen `entity` die; the first call for a bot starts watching (before any fight of its). */
function isDying(bot: Bot, entity: Entity): boolean {
  let dying = dyingByBot.get(bot);
  if (!dying) {
    const seen = new WeakSet<Entity>();
    bot.on('entityDead', (e) => {
      seen.add(e);
    });
    dyingByBot.set(bot, seen);
    dying = seen;
  }
  return dying.has(entity);
}

/**
 * Kills the nearest living `type` mob within {@link ATTACK_RANGE} blocks with the best weapon
 * carried, then picks up its loot. (One that has died and is still in its death animation is not
 * a target: a sheep hunt's every other `!attack` had "killed" the sheep just killed.)
 *
 * @returns `ok` with `data.gained` (the loot picked up); `not_found` (`data.sought`) when none is
 *   in range; `failed` when it got away.
 * @throws SkillError `invalid` for an unknown type or a player type (use {@link attackPlayer}).
 */
export async function attackNearest(bot: Bot, type: string, signal: AbortSignal): Promise<Outcome> {
  const name = requireEntityType(bot, type);
  if (name === 'player') throw new SkillError('invalid', 'Use !attackPlayer to attack a player.');
  const target = nearestEntity(bot, (e) => e.name === name && !isDying(bot, e), ATTACK_RANGE);
  if (!target)
    return failure('not_found', `No ${name} within ${ATTACK_RANGE} blocks.`, { sought: { kind: 'mob', name, range: ATTACK_RANGE } });
  const weapon = await equipBestWeapon(bot, signal);
  const before = inventoryCounts(bot);
  const killed = await fight(bot, target, signal);
  if (!killed) return failure('failed', `The ${name} got away.`);
  await pickUpDropsNear(bot, target.position, 6, signal);
  const after = inventoryCounts(bot);
  const loot = diffCounts(before, after)
    .replace(/ ?Lost .*$/, '')
    .replace(/^Gained /, '');
  return done(`Killed the ${name}${weapon ? ` with ${weapon}` : ''}. Loot: ${loot || 'nothing picked up.'}`, {
    gained: countChanges(before, after).gained,
  });
}

/**
 * Attacks player `name` until they die, leave sight, or `signal` aborts.
 *
 * @returns `ok` when they died, `failed` when they got away.
 * @throws SkillError `invalid` for the bot itself, `not_found` when the player is not in view.
 */
export async function attackPlayer(bot: Bot, name: string, signal: AbortSignal): Promise<Outcome> {
  if (name === bot.username) throw new SkillError('invalid', 'You cannot attack yourself.');
  const target = playerEntity(bot, name);
  if (!target)
    throw new SkillError('not_found', bot.players[name] ? `${name} is too far away to see.` : `No player named ${name} is online.`, {
      sought: { kind: 'player', name },
    });
  const weapon = await equipBestWeapon(bot, signal);
  const killed = await fight(bot, target, signal);
  return killed ? done(`Defeated ${name}${weapon ? ` with ${weapon}` : ''}.`) : failure('failed', `${name} got away.`);
}
