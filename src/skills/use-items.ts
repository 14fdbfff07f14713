/** Eating, wearing, dropping and using items on mobs. */
import type { Bot, EquipmentDestination } from 'mineflayer';
import pathfinderPkg from 'mineflayer-pathfinder';
import { abortable, sleep, throwIfAborted } from '../util/abort.ts';
import { foodOf } from '../game/data.ts';
import { countChanges, diffCounts, inventoryCounts, requireItem, tossItems } from './items.ts';
import { goTo } from './movement.ts';
import { formatPos, nearestEntity, requireEntityType } from './navigation.ts';
import { done, failure, type Outcome, SkillError } from './outcome.ts';
import { pickUpDropsNear } from './blocks.ts';

const { goals } = pathfinderPkg;

/** How far `!useItemOnEntity` looks for the mob (blocks). */
export const USE_ON_RANGE = 24;
/** Bounded wait for the server to finish eating (vanilla: 1.6 s for most food). */
const EAT_TIMEOUT_MS = 5_000;
/** Items vanilla lets a player consume at full hunger. */
const ALWAYS_CONSUMABLE = new Set([
  'golden_apple',
  'enchanted_golden_apple',
  'chorus_fruit',
  'milk_bucket',
  'potion',
  'honey_bottle',
  'suspicious_stew',
]);

/** Where `!equip` puts an item: armour to its slot, shields and totems to the off-hand, the rest in hand. */
export function equipDestination(name: string): EquipmentDestination {
  if (/_helmet$|_head$|_skull$|^carved_pumpkin$/.test(name)) return 'head';
  if (/_chestplate$|^elytra$/.test(name)) return 'torso';
  if (/_leggings$/.test(name)) return 'legs';
  if (/_boots$/.test(name)) return 'feet';
  if (name === 'shield' || name === 'totem_of_undying') return 'off-hand';
  return 'hand';
}

/**
 * Eats or drinks one `name`. Refuses non-food, and food at full hunger (except items vanilla
 * allows then, like golden apples and milk).
 *
 * @returns the hunger and health after eating (`ok`, `data.spent`); `invalid` at full hunger.
 * @throws SkillError `missing_items` when the bot has none, `invalid` when it is not edible,
 *   `refused_by_server` when the server did not finish the eating within 5 s.
 */
export async function consume(bot: Bot, name: string, signal: AbortSignal): Promise<Outcome> {
  const item = requireItem(bot, name);
  const edible = !!foodOf(bot.registry, name) || ALWAYS_CONSUMABLE.has(name);
  if (!edible) throw new SkillError('invalid', `${name} is not something you can eat or drink.`);
  if (bot.food >= 20 && bot.game.gameMode !== 'creative' && !ALWAYS_CONSUMABLE.has(name)) {
    return failure('invalid', `You are not hungry (hunger 20/20), so you cannot eat ${name} now.`);
  }
  await abortable(bot.equip(item, 'hand'), signal);
  const before = inventoryCounts(bot)[name] ?? 0;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SkillError('refused_by_server', `The server did not finish eating ${name} within ${EAT_TIMEOUT_MS / 1000} s.`)),
      EAT_TIMEOUT_MS,
    );
  });
  try {
    await abortable(Promise.race([bot.consume(), timeout]), signal, () => bot.deactivateItem());
  } catch (err) {
    bot.deactivateItem();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  const after = inventoryCounts(bot)[name] ?? 0;
  return done(`Consumed ${before - after || 1} ${name}. Hunger ${Math.round(bot.food)}/20, health ${Math.round(bot.health)}/20.`, {
    spent: { [name]: before - after || 1 },
  });
}

/**
 * Puts `name` on: armour to its armour slot, a shield or totem in the off-hand, anything else in the hand.
 *
 * @returns `ok`.
 * @throws SkillError `missing_items` when the bot has none.
 */
export async function equip(bot: Bot, name: string, signal: AbortSignal): Promise<Outcome> {
  const item = requireItem(bot, name);
  const destination = equipDestination(name);
  await abortable(bot.equip(item, destination), signal);
  return done(`Equipped ${name} (${destination}).`);
}

/**
 * Drops `count` of `name` on the ground (all of them when the bot has fewer), then steps away
 * from the stack so it is not picked up again.
 *
 * @returns `ok` with `data.spent`.
 * @throws SkillError `missing_items` when the bot has none.
 */
export async function discard(bot: Bot, name: string, count: number, signal: AbortSignal): Promise<Outcome> {
  requireItem(bot, name, count);
  const have = inventoryCounts(bot)[name] ?? 0;
  const n = Math.min(count, have);
  // Look ahead and a little down, so the items do not land back at the bot's feet.
  await bot.look(bot.entity.yaw, -0.3, true);
  const toss = await tossItems(bot, name, n, signal);
  const left = inventoryCounts(bot)[name] ?? 0;
  // Step away from the dropped stack so the server does not hand it back once its pickup delay ends.
  try {
    await toss.seen;
    throwIfAborted(signal);
    const lying = [...toss.thrown].map((id) => bot.entities[id]).find((e) => e?.isValid);
    if (lying) {
      const p = lying.position;
      await goTo(bot, new goals.GoalInvert(new goals.GoalNear(p.x, p.y, p.z, 4)), signal).catch(() => throwIfAborted(signal));
    }
  } finally {
    toss.stop();
  }
  return done(`Discarded ${n} ${name}; ${left} left.`, { spent: { [name]: n } });
}

/**
 * Walks to the nearest `entityType` within {@link USE_ON_RANGE} blocks and uses `itemName` on it
 * (right-click), e.g. a bucket on a cow or shears on a sheep. `itemName` `"hand"` uses an empty hand.
 *
 * Loot the use drops nearby (wool from a sheep) is picked up.
 *
 * @returns what changed in the inventory (the server decides what the use does): `ok` with
 *   `data.gained` and `data.spent`.
 * @throws SkillError `invalid` for an unknown mob type, `missing_items` for no such item,
 *   `not_found` (`data.sought` the mob) when none is in range or it is gone, `unreachable`.
 */
export async function useItemOnEntity(bot: Bot, itemName: string, entityType: string, signal: AbortSignal): Promise<Outcome> {
  const type = requireEntityType(bot, entityType);
  const emptyHand = itemName === 'hand' || itemName === 'air';
  const item = emptyHand ? undefined : requireItem(bot, itemName);
  const target = nearestEntity(bot, (e) => e.name === type, USE_ON_RANGE);
  const sought = { kind: 'mob' as const, name: type, range: USE_ON_RANGE };
  if (!target) throw new SkillError('not_found', `No ${type} within ${USE_ON_RANGE} blocks.`, { sought });
  if (bot.entity.position.distanceTo(target.position) > 2.5) await goTo(bot, new goals.GoalFollow(target, 1.5), signal);
  throwIfAborted(signal);
  if (!target.isValid) throw new SkillError('not_found', `The ${type} is gone.`, { sought });
  if (item) await abortable(bot.equip(item, 'hand'), signal);
  else await abortable(bot.unequip('hand'), signal);
  await bot.lookAt(target.position.offset(0, (target.height ?? 1) * 0.6, 0), true);
  const before = inventoryCounts(bot);
  const itemsNear = () =>
    Object.values(bot.entities).filter((e) => e.name === 'item' && e.isValid && e.position.distanceTo(target.position) <= 4);
  const lying = new Set(itemsNear().map((e) => e.id));
  bot.useOn(target);
  await sleep(500, signal); // the server's inventory update follows the use
  // A use that drops loot (shears on a sheep): pick it up.
  if (itemsNear().some((e) => !lying.has(e.id))) await pickUpDropsNear(bot, target.position, 4, signal, 4_000);
  const after = inventoryCounts(bot);
  const changes = diffCounts(before, after);
  const what = emptyHand ? 'your hand' : itemName;
  return done(
    `Used ${what} on the ${type} at ${formatPos(target.position)}. ${changes || 'Your inventory did not change.'}`,
    countChanges(before, after),
  );
}
