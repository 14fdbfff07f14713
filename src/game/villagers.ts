/**
 * Villagers as vanilla 1.21 keeps them (minecraft-data has none of this): professions and their job
 * site blocks, villager types, the experience each level needs, and the trades each profession
 * offers at each level, from `./data/villager-trades.json` (its sources are in `./data/README.md`).
 * Read by the embedded server's villagers and by the bots' trading.
 */
import tradesData from './data/villager-trades.json' with { type: 'json' };

/**
 * Professions in the order of vanilla's `villager_profession` registry (`VillagerProfession`:
 * `none` first, then alphabetical), whose index is the id clients read in a villager's
 * `villager_data` metadata.
 */
export const PROFESSIONS = [
  'none',
  'armorer',
  'butcher',
  'cartographer',
  'cleric',
  'farmer',
  'fisherman',
  'fletcher',
  'leatherworker',
  'librarian',
  'mason',
  'nitwit',
  'shepherd',
  'toolsmith',
  'weaponsmith',
] as const;
export type Profession = (typeof PROFESSIONS)[number];

/** Villager types (the biome look) in the order of vanilla's `villager_type` registry (`VillagerType`). */
export const VILLAGER_TYPES = ['desert', 'jungle', 'plains', 'savanna', 'snow', 'swamp', 'taiga'] as const;
export type VillagerType = (typeof VILLAGER_TYPES)[number];

/** The level names (Minecraft wiki "Trading": the badge a villager wears), level 1 first. */
export const LEVEL_NAMES = ['novice', 'apprentice', 'journeyman', 'expert', 'master'] as const;

/**
 * Total villager experience at which each level starts (vanilla `VillagerData.NEXT_LEVEL_XP_THRESHOLDS`;
 * Minecraft wiki "Trading": 0, 10, 70, 150, 250).
 */
export const LEVEL_XP = [0, 10, 70, 150, 250] as const;
/** The highest level. */
export const MAX_LEVEL = 5;
/** Offers a villager gains at each level (vanilla `Villager.updateTrades`: two of the level's pool, at random). */
export const OFFERS_PER_LEVEL = 2;
/** How far an unemployed villager looks for an unclaimed job site, in blocks (vanilla `AcquirePoi` scan range). */
export const JOB_SITE_RANGE = 48;

/** One offer of a profession's pool, by item names. */
export interface TradeListing {
  /** What the villager wants: an item and how many. */
  buy: { item: string; count: number };
  /** A second item it wants too, if any. */
  buy2?: { item: string; count: number };
  /** What it gives. */
  sell: { item: string; count: number };
  /** Times it can be traded before the villager restocks. */
  maxUses: number;
  /** Experience the villager gains per trade. */
  xp: number;
  /** How much demand raises the price (vanilla `MerchantOffer.priceMultiplier`). */
  priceMultiplier: number;
}

interface RawListing {
  buy: [string, number];
  buy2?: [string, number];
  sell: [string, number];
  maxUses: number;
  xp: number;
  priceMultiplier: number;
}

const raw = tradesData.professions as unknown as Record<string, { jobSite: string[]; levels: RawListing[][] }>;

const stack = ([item, count]: [string, number]) => ({ item, count });

/**
 * The pools of offers of `profession` by level (index 0 = novice), or [] for a profession that
 * does not trade (`none`, `nitwit`).
 */
export function tradePools(profession: string): readonly (readonly TradeListing[])[] {
  const entry = raw[profession];
  if (!entry) return [];
  return entry.levels.map((level) =>
    level.map((l) => ({
      buy: stack(l.buy),
      ...(l.buy2 ? { buy2: stack(l.buy2) } : {}),
      sell: stack(l.sell),
      maxUses: l.maxUses,
      xp: l.xp,
      priceMultiplier: l.priceMultiplier,
    })),
  );
}

/** The job site blocks of each profession that has one (a leatherworker takes any cauldron). */
export function jobSites(): ReadonlyMap<string, Profession> {
  const sites = new Map<string, Profession>();
  for (const [profession, entry] of Object.entries(raw)) for (const block of entry.jobSite) sites.set(block, profession as Profession);
  return sites;
}

/** The level (1–5) a villager with `xp` total experience reaches (it may still be at a lower one). */
export function levelForXp(xp: number): number {
  let level = 1;
  while (level < MAX_LEVEL && xp >= LEVEL_XP[level]!) level++;
  return level;
}
