/**
 * Trading with villagers, as the reference's `!showVillagerTrades(id)` and
 * `!tradeWithVillager(id, index, count)` have it: a villager is named by its entity id (the id
 * `!entities` lists; -1 for the nearest villager that trades), the bot walks to within 4 blocks
 * of it, opens its merchant window (mineflayer `openVillager`) and reads or uses its offers.
 * Offers are numbered from 1, in the order the villager sends them. A trade is done `count`
 * times, or as often as the offer has uses left when that is fewer.
 *
 * A villager trades when it is an adult with a profession other than `none` and `nitwit`
 * (Minecraft wiki "Villager", "Trading"); the bot reads both from the villager's entity metadata.
 */
import type { Bot, Villager, VillagerTrade } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import type { Item } from 'prismarine-item';
import pathfinderPkg from 'mineflayer-pathfinder';
import { LEVEL_NAMES, PROFESSIONS } from '../game/villagers.ts';
import { formatCounts, type Counts } from '../game/production.ts';
import { abortable } from '../util/abort.ts';
import { playerCounts, withWindow } from './containers.ts';
import { countChanges } from './items.ts';
import { boundedWalk, goTo } from './movement.ts';
import { done, failure, type Outcome, SkillError, type TradeOffer } from './outcome.ts';

const { goals } = pathfinderPkg;

/** How far the bot looks for villagers to name when the id is wrong, or for the nearest one (blocks), as in the reference. */
export const VILLAGER_RANGE = 16;
/** Farther than this (blocks), the bot walks to the villager first; it stops within {@link WALK_CLOSENESS}. As in the reference. */
const TRADE_DISTANCE = 4;
const WALK_CLOSENESS = 2;
/** The most the walk to a villager may take (ms): it is at most {@link VILLAGER_RANGE} blocks away, or wherever its id says. */
const WALK_MS = 30_000;

/** What the bot reads of a villager from its metadata. */
export interface VillagerInfo {
  /** Entity id, as `!entities` lists it. */
  id: number;
  /** `farmer`, `librarian`, … `none` for the unemployed; `unknown` before the server sent it. */
  profession: string;
  /** 1 (novice) to 5 (master), 0 when unknown. */
  level: number;
  baby: boolean;
}

function metadataValue(bot: Bot, entity: Entity, key: string): unknown {
  const keys = (bot.registry.entitiesByName.villager as { metadataKeys?: string[] } | undefined)?.metadataKeys;
  const index = keys?.indexOf(key) ?? -1;
  return index >= 0 ? (entity.metadata as unknown[])[index] : undefined;
}

/** A villager's profession, level and age from the metadata the server sent (`villager_data`, `baby`). */
export function villagerInfo(bot: Bot, entity: Entity): VillagerInfo {
  const data = metadataValue(bot, entity, 'villager_data') as { villagerProfession?: number; level?: number } | undefined;
  const profession = data?.villagerProfession !== undefined ? (PROFESSIONS[data.villagerProfession] ?? 'unknown') : 'unknown';
  return { id: entity.id, profession, level: data?.level ?? 0, baby: metadataValue(bot, entity, 'baby') === true };
}

/** Whether a villager trades: an adult with a trading profession. */
function trades(info: VillagerInfo): boolean {
  return !info.baby && info.profession !== 'none' && info.profession !== 'nitwit';
}

/** `12: farmer (novice)`, `15: baby`: how the trading commands and `!entities` name a villager. */
export function describeVillager(info: VillagerInfo): string {
  if (info.baby) return `${info.id}: baby`;
  const level = LEVEL_NAMES[info.level - 1];
  return `${info.id}: ${info.profession}${level && info.profession !== 'none' ? ` (${level})` : ''}`;
}

function villagersNear(bot: Bot): Entity[] {
  return Object.values(bot.entities)
    .filter((e) => e.name === 'villager' && e.isValid && e.position.distanceTo(bot.entity.position) <= VILLAGER_RANGE)
    .sort((a, b) => a.position.distanceTo(bot.entity.position) - b.position.distanceTo(bot.entity.position));
}

/** `Villagers within 16 blocks: 12: farmer (novice), 15: baby.` */
function villagerList(bot: Bot): string {
  const near = villagersNear(bot);
  if (near.length === 0) return `There are no villagers within ${VILLAGER_RANGE} blocks.`;
  return `Villagers within ${VILLAGER_RANGE} blocks: ${near.map((e) => describeVillager(villagerInfo(bot, e))).join(', ')}.`;
}

/**
 * The villager `id` names (-1: the nearest one that trades), after walking to within
 * {@link TRADE_DISTANCE} blocks of it.
 *
 * @throws SkillError `not_found` (with the villagers in range) when no villager has that id;
 *   `invalid` for a baby or a villager without a trading profession; `unreachable`.
 */
async function reachVillager(bot: Bot, id: number, signal: AbortSignal): Promise<{ entity: Entity; info: VillagerInfo }> {
  const sought = { kind: 'mob' as const, name: 'villager', range: VILLAGER_RANGE };
  const entity = id === -1 ? villagersNear(bot).find((e) => trades(villagerInfo(bot, e))) : bot.entities[id];
  if (!entity || entity.name !== 'villager') {
    const what =
      id === -1 ? 'No villager that trades is near.' : `There is no villager with id ${id}${entity ? ` (${id} is a ${entity.name})` : ''}.`;
    throw new SkillError('not_found', `${what} ${villagerList(bot)}`, { sought });
  }
  const info = villagerInfo(bot, entity);
  if (info.baby) throw new SkillError('invalid', `Villager ${entity.id} is a baby: babies do not trade. ${villagerList(bot)}`);
  if (!trades(info))
    throw new SkillError(
      'invalid',
      `Villager ${entity.id} has no trade (profession: ${info.profession}); it needs a job site block nearby. ${villagerList(bot)}`,
    );
  if (bot.entity.position.distanceTo(entity.position) > TRADE_DISTANCE) {
    await boundedWalk(signal, WALK_MS, `villager ${entity.id}`, (bound) => goTo(bot, new goals.GoalFollow(entity, WALK_CLOSENESS), bound));
    if (!entity.isValid) throw new SkillError('not_found', `Villager ${entity.id} is gone.`, { sought });
  }
  return { entity, info };
}

const stack = (item: Item) => ({ item: item.name, count: item.count });

/** The offers of an open merchant window, numbered from 1. */
function offersOf(window: Villager): TradeOffer[] {
  return (window.trades ?? []).map((trade: VillagerTrade, i) => ({
    index: i + 1,
    buy: { item: trade.inputItem1.name, count: trade.realPrice ?? trade.inputItem1.count },
    ...(trade.hasItem2 && trade.inputItem2 ? { buy2: stack(trade.inputItem2) } : {}),
    sell: stack(trade.outputItem),
    uses: trade.nbTradeUses,
    maxUses: trade.maximumNbTradeUses,
    disabled: trade.tradeDisabled || trade.nbTradeUses >= trade.maximumNbTradeUses,
  }));
}

/** `1: 20 wheat » 1 emerald (0/16 used)`; `x` in place of `»` for an offer out of stock. */
function offerLine(offer: TradeOffer): string {
  const price = `${offer.buy.count} ${offer.buy.item}${offer.buy2 ? ` + ${offer.buy2.count} ${offer.buy2.item}` : ''}`;
  return `${offer.index}: ${price} ${offer.disabled ? 'x' : '»'} ${offer.sell.count} ${offer.sell.item} (${offer.uses}/${offer.maxUses} used)`;
}

/**
 * Lists the offers of villager `id` (-1: the nearest that trades), walking to it first.
 *
 * @returns `ok` with `data.villager` (id, profession, level) and `data.trades` ({@link TradeOffer}s).
 * @throws SkillError as {@link reachVillager}; `refused_by_server` when its window does not open.
 */
export async function showVillagerTrades(bot: Bot, id: number, signal: AbortSignal): Promise<Outcome> {
  const { entity, info } = await reachVillager(bot, id, signal);
  const offers = await withWindow(bot, bot.openVillager(entity), signal, async (window) => offersOf(window));
  const villager = { id: entity.id, profession: info.profession, level: info.level };
  if (offers.length === 0) return failure('invalid', `Villager ${entity.id} has no trades to offer.`, { villager, trades: [] });
  const text = [`Villager ${describeVillager(info)} trades:`, ...offers.map(offerLine)].join('\n');
  return done(text, { villager, trades: offers });
}

/** What `count` trades of `offer` cost, by item. */
function priceOf(offer: TradeOffer, count: number): Counts {
  const price: Counts = { [offer.buy.item]: offer.buy.count * count };
  if (offer.buy2) price[offer.buy2.item] = (price[offer.buy2.item] ?? 0) + offer.buy2.count * count;
  return price;
}

/**
 * Does offer `index` (1-based) of villager `id` (-1: the nearest that trades) `count` times,
 * or as many times as it has uses left when fewer (as the reference does).
 *
 * @returns `ok` with `data.traded`, `data.gained` and `data.spent`; `partial` when the offer had
 *   fewer uses left than `count`; `invalid` for an index the villager does not have or an offer
 *   out of stock; `missing_items` (`data.missing`) when the bot cannot pay for all of them.
 * @throws SkillError as {@link reachVillager}; `refused_by_server` when the window does not open.
 */
export async function tradeWithVillager(bot: Bot, id: number, index: number, count: number, signal: AbortSignal): Promise<Outcome> {
  const { entity, info } = await reachVillager(bot, id, signal);
  const villager = { id: entity.id, profession: info.profession, level: info.level };
  return withWindow(bot, bot.openVillager(entity), signal, async (window, bound) => {
    const offers = offersOf(window);
    const offer = offers[index - 1];
    if (!offer)
      return failure(
        'invalid',
        `Villager ${entity.id} has ${offers.length} trades; there is no trade ${index}. See !showVillagerTrades(${entity.id}).`,
        { villager, trades: offers },
      );
    if (offer.disabled)
      return failure('invalid', `Trade ${index} of villager ${entity.id} is out of stock (${offer.uses}/${offer.maxUses} used).`, {
        villager,
        trades: [offer],
      });
    const times = Math.min(count, offer.maxUses - offer.uses);
    const price = priceOf(offer, times);
    const have = playerCounts(window);
    const missing: Counts = {};
    for (const [item, n] of Object.entries(price)) if ((have[item] ?? 0) < n) missing[item] = n - (have[item] ?? 0);
    if (Object.keys(missing).length > 0)
      return failure(
        'missing_items',
        `Trading ${times} time${times === 1 ? '' : 's'} costs ${formatCounts(price)}; you lack ${formatCounts(missing)}.`,
        { missing, villager, trades: [offer] },
      );
    // The window's view of the inventory: `bot.inventory` is not updated while a window is open.
    const before = playerCounts(window);
    await abortable(bot.trade(window, index - 1, times), bound);
    const { gained, spent } = countChanges(before, playerCounts(window));
    const got = `Traded ${times} time${times === 1 ? '' : 's'} with villager ${entity.id}: gave ${formatCounts(spent)}, got ${formatCounts(gained)}.`;
    if (times < count)
      return failure('partial', `${got} Trade ${index} had only ${times} use${times === 1 ? '' : 's'} left.`, {
        villager,
        traded: times,
        gained,
        spent,
      });
    return done(got, { villager, traded: times, gained, spent });
  });
}
