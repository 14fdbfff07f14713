/** Fighting with mineflayer-pvp, shared by self_defense and hunting. */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import pvpPkg from 'mineflayer-pvp';
import { abortable, sleep } from '../../util/abort.ts';

/** Loads mineflayer-pvp once per bot. */
export function ensurePvp(bot: Bot): void {
  if (!bot.hasPlugin(pvpPkg.plugin)) bot.loadPlugin(pvpPkg.plugin);
}

/** Attack damage of melee items, best first (enough to pick a weapon). */
const WEAPONS = [
  'netherite_sword',
  'diamond_sword',
  'netherite_axe',
  'iron_sword',
  'diamond_axe',
  'iron_axe',
  'stone_sword',
  'stone_axe',
  'golden_sword',
  'wooden_sword',
  'golden_axe',
  'wooden_axe',
];

/** Holds the best weapon in the inventory, if any. */
export async function equipBestWeapon(bot: Bot): Promise<void> {
  const items = bot.inventory.items();
  for (const name of WEAPONS) {
    const item = items.find((i) => i.name === name);
    if (!item) continue;
    if (bot.heldItem?.name !== name) await bot.equip(item, 'hand');
    return;
  }
}

/**
 * Attacks `target` until it is gone (dead or despawned), out of reach (`giveUpAt` blocks), or
 * `signal` aborts (then the attack stops at once).
 *
 * @returns how it ended, for the model.
 */
export async function fight(bot: Bot, target: Entity, giveUpAt: number, signal: AbortSignal): Promise<string> {
  ensurePvp(bot);
  await abortable(equipBestWeapon(bot), signal);
  const pvp = bot.pvp;
  const gone = () => !bot.entities[target.id] || target.isValid === false;
  const name = target.name ?? 'mob';
  await pvp.attack(target);
  try {
    while (!gone()) {
      if (bot.entity.position.distanceTo(target.position) > giveUpAt) return `The ${name} got away.`;
      await sleep(100, signal);
    }
  } finally {
    pvp.forceStop();
  }
  return `Killed the ${name}.`;
}

/** How long a mob that could not be beaten or reached is left alone (ms). */
export const GIVE_UP_MS = 60_000;

/**
 * Mobs a mode gave up on (out of reach, or the fight ran out of time), so that an unreachable
 * zombie behind a wall does not hold the bot in an endless fight.
 */
export class GiveUps {
  readonly #until = new Map<number, number>();

  /** Whether `entity` is being left alone. */
  has(entity: Entity): boolean {
    const until = this.#until.get(entity.id);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.#until.delete(entity.id);
    return false;
  }

  /**
   * Runs `fight` against `target`. When the target is still alive afterwards because it got away
   * or the fight ran out of time, it is left alone for {@link GIVE_UP_MS}; not when the fight was
   * cancelled (`!stop`, a more important mode), which says nothing about the target.
   */
  async guard(bot: Bot, target: Entity, signal: AbortSignal, fight: () => Promise<string>): Promise<string> {
    const alive = () => !!bot.entities[target.id] && target.isValid !== false;
    try {
      const outcome = await fight();
      if (alive()) this.#until.set(target.id, Date.now() + GIVE_UP_MS);
      return outcome;
    } catch (err) {
      const timedOut = signal.aborted && typeof signal.reason !== 'string';
      if (timedOut && alive()) this.#until.set(target.id, Date.now() + GIVE_UP_MS);
      throw err;
    }
  }

  clear(): void {
    this.#until.clear();
  }
}
