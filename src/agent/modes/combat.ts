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
  'netherite_sword', 'diamond_sword', 'netherite_axe', 'iron_sword', 'diamond_axe', 'iron_axe', 'stone_sword',
  'stone_axe', 'golden_sword', 'wooden_sword', 'golden_axe', 'wooden_axe',
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
