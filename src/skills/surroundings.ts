/**
 * What the world around an agent gives, read from what it sees (block and mob names, as its prompt
 * shows them): natural blocks to dig, crops, mushrooms, a crafting table, a furnace or smoker; and
 * what a task's world is known to supply (the cooking world's animals to hunt or milk), given as
 * data by whoever knows the world (the task, the offline policy).
 */
import type { Bot } from 'mineflayer';
import type { GameData } from '../game/data.ts';
import { blocksDropping, type GatherSource, type ProductionSources, supplySource, type WorldSupplies } from '../game/production.ts';
import { inventoryCounts } from './items.ts';
import { FURNACE_SEARCH_RANGE } from './smelting.ts';

/** Blocks a player would dig for materials (not the planks of a house). */
const NATURAL =
  /(_log|_stem|_ore|^stone|^cobblestone|^dirt|^grass_block|^sand|^gravel|^clay|^sugar_cane|_mushroom|^pumpkin|^melon|^cactus|^bamboo|^wheat|^carrots|^potatoes|^beetroots|_leaves|^netherrack|^deepslate|^granite|^diorite|^andesite|^obsidian|^snow_block|^ice)$/;

/** What the agent sees: names of blocks and mobs around it, and its inventory; and what its world supplies. */
export interface Surroundings {
  blocks: readonly string[];
  mobs: readonly string[];
  inventory: Readonly<Record<string, number>>;
  /** What the world is known to supply (a task's world), used when its block or mob is in sight; none by default. */
  supplies?: WorldSupplies | undefined;
}

/**
 * The production sources of `around`: gathering what its `supplies` name when their block or mob
 * is in sight, else digging natural blocks in sight; smelting when a furnace or smoker is in sight
 * or held; and whether a crafting table stands nearby.
 */
export function sourcesFrom(data: GameData, around: Surroundings): ProductionSources {
  const blocks = new Set(around.blocks);
  const mobs = new Set(around.mobs);
  const gather = (item: string): GatherSource | undefined => {
    const supply = around.supplies && Object.hasOwn(around.supplies, item) ? around.supplies[item] : undefined;
    const inSight = supply && (supply.kind === 'block' ? blocks.has(supply.block) : mobs.has(supply.mob));
    if (supply && inSight) return supplySource(item, supply);
    const block = blocksDropping(data, item).find((b) => blocks.has(b) && NATURAL.test(b));
    if (block) return supplySource(item, { kind: 'block', block, where: `the ${block} nearby` });
    return undefined;
  };
  const smelt = ['furnace', 'smoker', 'blast_furnace'].some((b) => blocks.has(b) || (around.inventory[b] ?? 0) > 0);
  return { gather, smelt, tableNearby: blocks.has('crafting_table') };
}

/**
 * How far an agent looks around for blocks and mobs (blocks): as far as `!smeltItem` looks for a
 * furnace, so that a plan counts on smelting exactly when the command would find one (at 24, a
 * bot at the far end of the cooking world's potato rows saw no smoker and asked its team for the
 * baked potato instead).
 */
export const SIGHT_RANGE = FURNACE_SEARCH_RANGE;

/**
 * The names of the block types in the sections within `range` of the bot (a section-palette
 * scan, cheap enough for every decision).
 */
export function blockTypesAround(bot: Bot, range = SIGHT_RANGE): string[] {
  const names = new Set<string>();
  bot.findBlocks({
    matching: (b: { name: string }) => {
      names.add(b.name);
      return false;
    },
    maxDistance: range,
    count: 1,
  });
  names.delete('air');
  return [...names];
}

/** The names of the mobs within `range` of the bot. */
export function mobTypesAround(bot: Bot, range = SIGHT_RANGE): string[] {
  const here = bot.entity?.position;
  if (!here) return [];
  const names = new Set<string>();
  for (const e of Object.values(bot.entities)) {
    if (e === bot.entity || !e.name || e.type === 'player' || e.name === 'item') continue;
    if (e.position.distanceTo(here) <= range) names.add(e.name);
  }
  return [...names];
}

/**
 * What the world around `bot` gives a plan, read as the oracle reads it ({@link sourcesFrom}):
 * gathering from the natural blocks and the animals within {@link SIGHT_RANGE}, smelting with a
 * furnace or smoker in sight or held, a crafting table in sight, and what `supplies` says the
 * world gives. `!getCraftingPlan` plans with these, so a model is told the plan the oracle would
 * follow.
 */
export function sourcesAround(bot: Bot, data: GameData, supplies?: WorldSupplies): ProductionSources {
  return sourcesFrom(data, { blocks: blockTypesAround(bot), mobs: mobTypesAround(bot), inventory: inventoryCounts(bot), supplies });
}
