/**
 * Villagers and trading, as vanilla 1.21 (Minecraft wiki "Villager", "Trading"; `Villager`,
 * `MerchantMenu`, `MerchantContainer`, `MerchantOffers`, `VillagerTrades`):
 *
 * - A villager has a profession, a level and experience (the mob service's `villager` state, sent
 *   to clients as `villager_data` metadata). `/summon villager ~ ~ ~ {VillagerData:{profession:
 *   "minecraft:farmer",level:1}}` sets them; an unemployed adult takes the profession of a job
 *   site block a player places within 48 blocks of it (a composter makes a farmer, a lectern a
 *   librarian: ../../game/villagers.ts), unless another villager claimed it. Breaking the block
 *   frees it; a villager that never traded loses its profession with it.
 * - Its offers: two of its profession's level-1 pool, drawn when it first trades, and two more of
 *   the next level's pool at each level up.
 * - Using an adult villager with a profession (`use_entity` interact; mineflayer `openVillager`)
 *   opens the merchant window (`minecraft:merchant`: 0 and 1 payment, 2 result, 3–38 the player's
 *   inventory) and sends its offers (`trade_list`). Selecting an offer (`select_trade`) moves the
 *   payment from the inventory into the payment slots, up to a stack each; the result slot shows
 *   the selected offer (else the first) the payment covers. Taking the result uses up the price,
 *   counts a use, and gives the villager the offer's experience; an offer used `maxUses` times is
 *   disabled. While a player trades, the villager stands still and no one else can trade with
 *   it. Closing the window returns the payment, and a villager with enough experience levels up
 *   (vanilla does it 40 ticks after the trading ends).
 *
 * Not simulated: restocking at the job site (twice a day in vanilla), demand and reputation
 * (prices stay the offers' base prices), the player's trade experience, gossip, breeding.
 */
import type { SquidEntity, SquidPlayer, SquidServer } from '../types.ts';
import {
  JOB_SITE_RANGE,
  LEVEL_NAMES,
  LEVEL_XP,
  MAX_LEVEL,
  OFFERS_PER_LEVEL,
  jobSites,
  tradePools,
  type TradeListing,
} from '../../game/villagers.ts';
import { moveItemStackTo } from '../services/clicks.ts';
import { blockKey, vec, type Position } from '../services/geometry.ts';
import { inventorySession, openMenu, placeBackOrDrop } from '../services/inventory.ts';
import { countOf, maxStack, withCount, type Slot } from '../services/items.ts';
import { broadcastChanges, refreshCraftingResult, type InventorySession, type Menu } from '../services/menus.ts';
import { allMobs, mobState, sendMobMetadata, type MobState } from '../services/mobs.ts';

/** `use_entity` mouse value of a plain interaction (protocol). */
const MOUSE_INTERACT = 0;
/** vanilla: a player trades within 8 blocks of the villager (`Villager.stillValid` / `MerchantMenu`). */
const TRADE_REACH = 8;
/** Payment, second payment and result slots of the merchant window; where the inventory starts. */
const PAY_A = 0;
const PAY_B = 1;
const RESULT = 2;
const INVENTORY_START = 3;
const HOTBAR_START = 30;
const WINDOW_SIZE = 39;
/** The player inventory slot of merchant slot 3 (main inventory starts at 9). */
const INVENTORY_OFFSET = 9 - INVENTORY_START;

/** One offer of a villager: a listing of its profession and how often it was traded. */
export interface Offer {
  listing: TradeListing;
  uses: number;
}

/** Per server: villagers' offers and the job sites they claimed. */
interface VillagerRegistry {
  offers: WeakMap<MobState, Offer[]>;
  /** Claimed job site block key → the claiming villager. */
  claims: Map<string, MobState>;
}
const registries = new WeakMap<SquidServer, VillagerRegistry>();

function registryOf(serv: SquidServer): VillagerRegistry {
  let registry = registries.get(serv);
  if (!registry) {
    registry = { offers: new WeakMap(), claims: new Map() };
    registries.set(serv, registry);
  }
  return registry;
}

/** `count` listings of `pool` at random, each at most once (vanilla `addOffersFromItemListings`). */
function draw(pool: readonly TradeListing[], count: number): Offer[] {
  const left = [...pool];
  const drawn: Offer[] = [];
  while (drawn.length < count && left.length > 0)
    drawn.push({ listing: left.splice(Math.floor(Math.random() * left.length), 1)[0]!, uses: 0 });
  return drawn;
}

/**
 * A villager's offers, drawn on first use: two of each level's pool up to its level (vanilla
 * draws them as it reaches each level). Empty for a villager without a trading profession.
 */
export function offersOf(serv: SquidServer, mob: MobState): Offer[] {
  const registry = registryOf(serv);
  let offers = registry.offers.get(mob);
  if (!offers) {
    const pools = tradePools(mob.villager?.profession ?? 'none');
    offers = [];
    for (let level = 1; level <= (mob.villager?.level ?? 1) && level <= pools.length; level++)
      offers.push(...draw(pools[level - 1]!, OFFERS_PER_LEVEL));
    registry.offers.set(mob, offers);
  }
  return offers;
}

/** Whether `mob` is an adult villager with a profession that trades. */
function trades(mob: MobState | undefined): mob is MobState & { villager: NonNullable<MobState['villager']> } {
  return !!mob?.villager && !mob.dead && !mob.baby && tradePools(mob.villager.profession).length > 0;
}

/** An item stack of `name` and `count` for a `trade_list` cost (no components). */
function costOf(
  serv: SquidServer,
  cost: { item: string; count: number },
): { itemId: number; itemCount: number; addedComponentCount: number; components: [] } {
  return { itemId: serv.registry.itemsByName[cost.item]!.id, itemCount: cost.count, addedComponentCount: 0, components: [] };
}

/** The `trade_list` packet of a villager's window. */
function tradeList(serv: SquidServer, windowId: number, mob: MobState & { villager: NonNullable<MobState['villager']> }): object {
  return {
    windowId,
    trades: offersOf(serv, mob).map(({ listing, uses }) => ({
      inputItem1: costOf(serv, listing.buy),
      outputItem: {
        itemCount: listing.sell.count,
        itemId: serv.registry.itemsByName[listing.sell.item]!.id,
        addedComponentCount: 0,
        removedComponentCount: 0,
        components: [],
        removeComponents: [],
      },
      inputItem2: listing.buy2 ? costOf(serv, listing.buy2) : undefined,
      tradeDisabled: uses >= listing.maxUses,
      nbTradeUses: uses,
      maximumNbTradeUses: listing.maxUses,
      xp: listing.xp,
      specialPrice: 0,
      priceMultiplier: listing.priceMultiplier,
      demand: 0,
    })),
    villagerLevel: mob.villager.level,
    experience: mob.villager.xp,
    isRegularVillager: true,
    canRestock: true,
  };
}

/** Whether `slot` holds at least `cost` (same item). */
function covers(serv: SquidServer, slot: Slot, cost: { item: string; count: number } | undefined): boolean {
  if (!cost) return !slot || countOf(slot) === 0;
  return !!slot && serv.registry.items[slot.type]?.name === cost.item && countOf(slot) >= cost.count;
}

/**
 * The merchant window of `mob` for `player`: two payment slots, the result and a view of the
 * player's inventory, with vanilla's result and trade rules.
 */
function merchantMenu(
  serv: SquidServer,
  session: InventorySession,
  mob: MobState & { villager: NonNullable<MobState['villager']> },
  id: number,
): Menu & { select(index: number): void } {
  const own: Slot[] = [null, null, null];
  const inventory = session.player.inventory.slots;
  let selected = 0;
  let matched: Offer | undefined;
  const offers = offersOf(serv, mob);
  const menu: Menu & { select(index: number): void } = {
    id,
    kind: 'merchant',
    size: WINDOW_SIZE,
    resultSlot: RESULT,
    gridStart: 0,
    gridWidth: 0,
    inventoryStart: INVENTORY_START,
    hotbarStart: HOTBAR_START,
    inventoryEnd: WINDOW_SIZE,
    get: (slot) =>
      (slot < 0 || slot >= WINDOW_SIZE ? null : slot < INVENTORY_START ? own[slot] : inventory[slot + INVENTORY_OFFSET]) ?? null,
    set: (slot, item) => {
      if (slot < 0 || slot >= WINDOW_SIZE) return;
      if (item && countOf(item) <= 0) item = null;
      if (slot < INVENTORY_START) {
        if (item) item.slot = slot;
        own[slot] = item;
      } else {
        if (item) item.slot = slot + INVENTORY_OFFSET;
        inventory[slot + INVENTORY_OFFSET] = item;
      }
    },
    mayPlace: (slot) => slot !== RESULT,
    quickMoveTargets: (slot) =>
      slot < INVENTORY_START
        ? [[INVENTORY_START, WINDOW_SIZE, false]]
        : slot < HOTBAR_START
          ? [[HOTBAR_START, WINDOW_SIZE, false]]
          : [[INVENTORY_START, HOTBAR_START, false]],
    // vanilla MerchantContainer.updateSellItem: the selected offer if the payment covers it, else the first that it covers.
    refreshResult: () => {
      const usable = (offer: Offer | undefined) =>
        !!offer &&
        offer.uses < offer.listing.maxUses &&
        covers(serv, own[PAY_A]!, offer.listing.buy) &&
        (offer.listing.buy2 ? covers(serv, own[PAY_B]!, offer.listing.buy2) : true);
      matched = usable(offers[selected]) ? offers[selected] : offers.find(usable);
      own[RESULT] = matched ? new session.Item(serv.registry.itemsByName[matched.listing.sell.item]!.id, matched.listing.sell.count) : null;
    },
    // vanilla MerchantResultSlot.onTake: the price leaves the payment slots, the offer counts a use, the villager gains its experience.
    takeResult: () => {
      const result = own[RESULT];
      const offer = matched;
      if (!result || !offer) return null;
      for (const [slot, cost] of [
        [PAY_A, offer.listing.buy],
        [PAY_B, offer.listing.buy2],
      ] as const) {
        const item = own[slot];
        if (!cost || !item) continue;
        item.count = countOf(item) - cost.count;
        if (item.count <= 0) own[slot] = null;
      }
      offer.uses++;
      mob.villager.xp += offer.listing.xp;
      refreshCraftingResult(session, menu);
      return result;
    },
    onClose: (closed) => {
      for (const slot of [PAY_A, PAY_B]) {
        placeBackOrDrop(closed, own[slot] ?? null);
        own[slot] = null;
      }
      own[RESULT] = null;
      if (mob.villager.tradingWith === session.player) mob.villager.tradingWith = undefined;
      levelUp(serv, mob);
    },
    // vanilla MerchantMenu.tryMoveItems: the payment slots go back to the inventory, then fill from it for the chosen offer.
    select: (index) => {
      if (index < 0 || index >= offers.length) return;
      selected = index;
      for (const slot of [PAY_A, PAY_B]) {
        const item = own[slot];
        if (!item) continue;
        moveItemStackTo(session, menu, item, INVENTORY_START, WINDOW_SIZE);
        if (countOf(item) <= 0) own[slot] = null;
      }
      const listing = offers[index]!.listing;
      for (const [slot, cost] of [
        [PAY_A, listing.buy],
        [PAY_B, listing.buy2],
      ] as const) {
        if (!cost || own[slot]) continue;
        const id = serv.registry.itemsByName[cost.item]!.id;
        for (let s = INVENTORY_START; s < WINDOW_SIZE; s++) {
          const item = menu.get(s);
          if (!item || item.type !== id) continue;
          const target: Slot = own[slot] ?? null;
          const room = maxStack(serv, item) - countOf(target);
          const n = Math.min(room, countOf(item));
          if (n <= 0) break;
          own[slot] = target ? withCount(session.Item, target, countOf(target) + n) : withCount(session.Item, item, n);
          own[slot].slot = slot;
          item.count = countOf(item) - n;
          if (item.count <= 0) menu.set(s, null);
        }
      }
      refreshCraftingResult(session, menu);
    },
  };
  return menu;
}

/** The merchant windows open, each with its `select_trade` handler. */
const merchantMenus = new WeakMap<Menu, (index: number) => void>();

/** Gives a villager whose experience reached its next level that level and two new offers (vanilla `increaseMerchantCareer`). */
function levelUp(serv: SquidServer, mob: MobState): void {
  const data = mob.villager;
  if (!data || data.level >= MAX_LEVEL || data.xp < LEVEL_XP[data.level]!) return;
  const offers = offersOf(serv, mob);
  data.level++;
  offers.push(...draw(tradePools(data.profession)[data.level - 1] ?? [], OFFERS_PER_LEVEL));
  sendMobMetadata(serv, mob, mob.entity.getNearbyPlayers());
}

/** Opens `mob`'s trading window for `player`. */
function openTrading(serv: SquidServer, player: SquidPlayer, mob: MobState & { villager: NonNullable<MobState['villager']> }): void {
  const session = inventorySession(player);
  if (!session) return;
  const title = `${capitalised(mob.villager.profession)} - ${capitalised(LEVEL_NAMES[mob.villager.level - 1] ?? 'novice')}`;
  const menu = openMenu(
    session,
    (id) => {
      const merchant = merchantMenu(serv, session, mob, id);
      merchantMenus.set(merchant, merchant.select);
      return merchant;
    },
    'minecraft:merchant',
    title,
  );
  mob.villager.tradingWith = player;
  player._client.write('trade_list', tradeList(serv, menu.id, mob));
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** An unemployed adult villager within {@link JOB_SITE_RANGE} of `at` takes the job site placed there. */
function claimJobSite(serv: SquidServer, at: Position, block: string): void {
  const profession = jobSites().get(block);
  const registry = registryOf(serv);
  const key = blockKey(at);
  if (!profession) return;
  // Claims of villagers gone (killed, removed by a reset) are void.
  for (const [site, holder] of registry.claims)
    if (holder.dead || serv.entities[holder.entity.id] !== holder.entity) registry.claims.delete(site);
  if (registry.claims.has(key)) return;
  const claimed = new Set(registry.claims.values());
  let best: MobState | undefined;
  let bestDistance = JOB_SITE_RANGE;
  for (const mob of allMobs(serv)) {
    if (!mob.villager || mob.dead || mob.baby || mob.villager.profession !== 'none' || claimed.has(mob)) continue;
    const d = mob.entity.position.distanceTo(vec(at.x + 0.5, at.y, at.z + 0.5));
    if (d <= bestDistance) {
      best = mob;
      bestDistance = d;
    }
  }
  if (!best) return;
  best.villager!.profession = profession;
  registry.claims.set(key, best);
  registryOf(serv).offers.delete(best);
  sendMobMetadata(serv, best, best.entity.getNearbyPlayers());
}

/** A claimed job site is gone: the villager keeps its profession only if it has traded (vanilla `Villager.releasePoi`). */
function releaseJobSite(serv: SquidServer, at: Position): void {
  const registry = registryOf(serv);
  const key = blockKey(at);
  const mob = registry.claims.get(key);
  if (!mob) return;
  registry.claims.delete(key);
  if (mob.villager && mob.villager.xp === 0 && mob.villager.level === 1) {
    mob.villager.profession = 'none';
    registry.offers.delete(mob);
    sendMobMetadata(serv, mob, mob.entity.getNearbyPlayers());
  }
}

/** Installs villagers' professions, job sites and trading on a started server. */
export function installVillagers(serv: SquidServer): void {
  serv.on('blockPlaced', ({ position, name }) => claimJobSite(serv, position, name));
  serv.on('blockBroken', ({ position }) => releaseJobSite(serv, position));
  serv.on('newPlayer', (player) => {
    player._client.on('use_entity', (packet: { target: number; mouse: number }) => {
      if (packet.mouse !== MOUSE_INTERACT || player.health <= 0 || player.gameMode === 3) return;
      const target: SquidEntity | undefined = serv.entities[packet.target];
      const mob = mobState(serv, target);
      if (!target || !trades(mob) || target.world !== player.world) return;
      if (target.position.distanceTo(player.position) > TRADE_REACH) return;
      // One trader at a time (vanilla `Villager.mobInteract`: `isTrading()` refuses the others).
      const other = mob.villager.tradingWith;
      if (other && other !== player && !other.disconnected) return;
      try {
        openTrading(serv, player, mob);
      } catch (err) {
        serv.emit('error', err);
      }
    });
    player._client.on('select_trade', ({ slot }: { slot: number }) => {
      const session = inventorySession(player);
      const menu = session?.container;
      const select = menu ? merchantMenus.get(menu) : undefined;
      if (!session || !select) return;
      try {
        session.batching = true;
        select(slot);
      } finally {
        session.batching = false;
      }
      // mineflayer waits for the payment and result slots after a selection.
      broadcastChanges(session, [PAY_A, PAY_B, RESULT]);
    });
  });
}

/** For tests and `/data`: a villager's offers as item names. */
export function describeOffers(
  serv: SquidServer,
  entity: SquidEntity,
): Array<{ buy: string; buy2?: string; sell: string; uses: number; maxUses: number }> {
  const mob = mobState(serv, entity);
  if (!mob) return [];
  return offersOf(serv, mob).map(({ listing, uses }) => ({
    buy: `${listing.buy.count} ${listing.buy.item}`,
    ...(listing.buy2 ? { buy2: `${listing.buy2.count} ${listing.buy2.item}` } : {}),
    sell: `${listing.sell.count} ${listing.sell.item}`,
    uses,
    maxUses: listing.maxUses,
  }));
}
