/**
 * What the world around an agent gives, read from what it sees (block and mob names, as its prompt
 * shows them): natural blocks to dig, crops, mushrooms, animals to hunt or milk, a crafting table,
 * a furnace or smoker.
 */
import type { GameData } from '../../game/data.ts';
import { blocksDropping, type GatherSource, type ProductionSources } from '../../game/production.ts';
import { COOKING_SUPPLIES } from '../../tasks/cooking.ts';

/** Blocks a player would dig for materials (not the planks of a house). */
const NATURAL = /(_log|_stem|_ore|^stone|^cobblestone|^dirt|^grass_block|^sand|^gravel|^clay|^sugar_cane|_mushroom|^pumpkin|^melon|^cactus|^bamboo|^wheat|^carrots|^potatoes|^beetroots|_leaves|^netherrack|^deepslate|^granite|^diorite|^andesite|^obsidian|^snow_block|^ice)$/;

/** What the agent sees: names of blocks and mobs around it, and its inventory. */
export interface Surroundings {
  blocks: readonly string[];
  mobs: readonly string[];
  inventory: Readonly<Record<string, number>>;
}

/**
 * The production sources of `around`: gathering from natural blocks and animals in sight, smelting
 * when a furnace or smoker is in sight or held, and whether a crafting table stands nearby.
 */
export function sourcesFrom(data: GameData, around: Surroundings): ProductionSources {
  const blocks = new Set(around.blocks);
  const mobs = new Set(around.mobs);
  const gather = (item: string): GatherSource | undefined => {
    const supply = COOKING_SUPPLIES[item];
    if (supply?.kind === 'block' && blocks.has(supply.block)) {
      return { item, command: (n) => `!collectBlocks("${supply.block}", ${n})`, perAction: 1, where: supply.where };
    }
    if (supply?.kind === 'hunt' && mobs.has(supply.mob)) {
      return { item, command: () => `!attack("${supply.mob}")`, perAction: 1, where: supply.where };
    }
    if (supply?.kind === 'use' && mobs.has(supply.mob)) {
      return { item, command: () => `!useItemOnEntity("${supply.tool}", "${supply.mob}")`, perAction: 1, consumes: { [supply.tool]: 1 }, where: supply.where };
    }
    const block = blocksDropping(data, item).find((b) => blocks.has(b) && NATURAL.test(b));
    if (block) return { item, command: (n) => `!collectBlocks("${block}", ${n})`, perAction: 1, where: `the ${block} nearby` };
    return undefined;
  };
  const smelt = ['furnace', 'smoker', 'blast_furnace'].some((b) => blocks.has(b) || (around.inventory[b] ?? 0) > 0);
  return { gather, smelt, tableNearby: blocks.has('crafting_table') };
}
