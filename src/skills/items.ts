/** Inventory reading and handing items over. */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import type { Item } from 'prismarine-item';
import { formatCounts, type Counts } from './crafting-plan.ts';
import { goToPlayer, playerEntity } from './movement.ts';
import { abortable, sleep, waitFor } from '../util/abort.ts';

/** Item name → count over the bot's whole inventory (armour and off-hand included). */
export function inventoryCounts(bot: Bot): Counts {
  const counts: Counts = {};
  for (const item of bot.inventory.items()) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  for (const slot of [5, 6, 7, 8, 45]) {
    const item = bot.inventory.slots[slot];
    if (item) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  }
  return counts;
}

/** How long a recipient has to pick tossed items up before the hand-over counts as failed (ms). */
export const PICKUP_TIMEOUT_MS = 8_000;

/**
 * Walks to player `name` and throws them `count` of `item`, then waits until the server reports
 * that they collected it. The pickup listener is attached before the toss, so no pickup is missed.
 *
 * @returns what was handed over and whether the recipient confirmed it.
 * @throws Error when the bot lacks the items or the player cannot be reached.
 */
export async function givePlayer(bot: Bot, name: string, item: string, count: number, signal: AbortSignal): Promise<string> {
  if (name === bot.username) throw new Error('You cannot give items to yourself.');
  const have = inventoryCounts(bot)[item] ?? 0;
  if (have === 0) throw new Error(`You have no ${item}. Inventory: ${formatCounts(inventoryCounts(bot)) || 'empty'}.`);
  const n = Math.min(count, have);
  await goToPlayer(bot, name, 2, signal);
  const target = playerEntity(bot, name);
  if (!target) throw new Error(`Lost sight of ${name}.`);
  // Aim at their feet: a throw aimed down lands within a block or two, at the recipient.
  await bot.lookAt(target.position, true);
  await abortable(bot.waitForTicks(2), signal); // the server learns the new look on the next movement packet

  let received = 0;
  const onCollect = (collector: Entity, collected: Entity) => {
    if (collector.id !== target.id) return;
    const dropped = collected.getDroppedItem?.();
    if (!dropped || dropped.name === item) received += dropped?.count ?? 1;
  };
  bot.on('playerCollect', onCollect);
  try {
    const id = bot.registry.itemsByName[item].id;
    await bot.toss(id, null, n);
    await waitFor(() => received >= n, PICKUP_TIMEOUT_MS, signal);
    await sleep(100, signal); // let the last collect packet land before reporting
  } finally {
    bot.off('playerCollect', onCollect);
  }
  const left = inventoryCounts(bot)[item] ?? 0;
  if (received >= n) return `Gave ${n} ${item} to ${name}; they picked it up. You have ${left} ${item} left.`;
  return `Tossed ${n} ${item} to ${name}, but they had picked up only ${received} after ${PICKUP_TIMEOUT_MS / 1000} s. The rest lies on the ground near them.`;
}

/** The first inventory stack of `name`. @throws Error naming what the bot holds when it has none. */
export function requireItem(bot: Bot, name: string): Item {
  const item = bot.inventory.items().find((i) => i.name === name)
    ?? [45, 5, 6, 7, 8].map((s) => bot.inventory.slots[s]).find((i) => i?.name === name);
  if (!item) throw new Error(`You have no ${name}. Inventory: ${formatCounts(inventoryCounts(bot)) || 'empty'}.`);
  return item;
}

/** `Gained 1 milk_bucket. Lost 1 bucket.` or '' when nothing changed. */
export function diffCounts(before: Counts, after: Counts): string {
  const gained: Counts = {};
  const lost: Counts = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const d = (after[name] ?? 0) - (before[name] ?? 0);
    if (d > 0) gained[name] = d;
    else if (d < 0) lost[name] = -d;
  }
  return [
    Object.keys(gained).length ? `Gained ${formatCounts(gained)}.` : '',
    Object.keys(lost).length ? `Lost ${formatCounts(lost)}.` : '',
  ].filter(Boolean).join(' ');
}
