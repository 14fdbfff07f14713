/**
 * What the world around an agent gives, read from what it sees (block and mob names, as its prompt
 * shows them): natural blocks to dig (with the tool each needs), also underground within reach of
 * `!collectBlocks`, animals to hunt, crops, mushrooms, a crafting table, a furnace or smoker; and
 * what a task's world is known to supply (the cooking world's animals to hunt or milk), given as
 * data by whoever knows the world (the task, the offline policy).
 */
import type { Bot } from 'mineflayer';
import type { GameData } from '../game/data.ts';
import { blocksDropping, type GatherSource, type ProductionSources, supplySource, type WorldSupplies } from '../game/production.ts';
import { mobDrops } from '../game/mob-drops.ts';
import { COLLECT_RANGE } from './collect.ts';
import { CHEST_BLOCKS } from './containers.ts';
import { inventoryCounts } from './items.ts';
import { FURNACE_SEARCH_RANGE } from './smelting.ts';

/**
 * Blocks a player would dig or pick for materials (not the planks of a house, nor a potted flower).
 * Not the dead bush: it drops 0–2 sticks (Minecraft wiki, "Dead Bush"), so a plan that counted a
 * stick a bush dug them for minutes near a desert while logs stood by.
 */
const NATURAL =
  /(_log|_stem|_ore|^stone|^cobblestone|^dirt|^grass_block|^sand|^gravel|^clay|^sugar_cane|_mushroom|^pumpkin|^melon|^cactus|^bamboo|^wheat|^carrots|^potatoes|^beetroots|_leaves|^netherrack|^deepslate|^granite|^diorite|^andesite|^obsidian|^snow_block|^ice|^dandelion|^poppy|^allium|^azure_bluet|_tulip|^oxeye_daisy|^cornflower|^lily_of_the_valley|^sunflower|^lilac|^rose_bush|^peony|^short_grass|^fern|^sweet_berry_bush)$/;

/** What the agent sees: names of blocks and mobs around it, and its inventory; and what its world supplies. */
export interface Surroundings {
  /** Blocks in sight ({@link SIGHT_RANGE}): the crafting table and furnace a command would use, and blocks to dig. */
  blocks: readonly string[];
  /** Blocks farther off or underground that `!collectBlocks` reaches (its range, 64 blocks), to dig; none by default. */
  reachable?: readonly string[] | undefined;
  mobs: readonly string[];
  inventory: Readonly<Record<string, number>>;
  /** What the world is known to supply (a task's world), used when its block or mob is in sight; none by default. */
  supplies?: WorldSupplies | undefined;
  /** The furnace in sight turned out to have no fuel (a `!smeltItem` said so): smelting brings its own. */
  unfuelled?: boolean | undefined;
}

/**
 * The production sources of `around`: gathering what its `supplies` name when their block or mob
 * is in sight, else digging natural blocks in sight or in reach (with the tools minecraft-data's
 * `harvestTools` names for the block: nothing drops without one), else hunting an animal in sight
 * that drops the item ({@link mobDrops}); smelting when a furnace or smoker is in sight or held
 * (fuelled when it stands in sight and was not found empty); and whether a crafting table stands
 * nearby. A bucket is filled with milk from a cow or mooshroom in sight.
 */
export function sourcesFrom(data: GameData, around: Surroundings): ProductionSources {
  const blocks = new Set(around.blocks);
  const diggable = new Set([...around.blocks, ...(around.reachable ?? [])]);
  const mobs = new Set(around.mobs);
  const gather = (item: string): GatherSource | undefined => {
    const supply = around.supplies && Object.hasOwn(around.supplies, item) ? around.supplies[item] : undefined;
    const inSight =
      supply &&
      (supply.kind === 'block'
        ? blocks.has(supply.block)
        : supply.kind === 'chest'
          ? CHEST_BLOCKS.some((b) => blocks.has(b))
          : mobs.has(supply.mob));
    if (supply && inSight) return supplySource(item, supply);
    // A block in sight before one only within reach.
    const dropping = blocksDropping(data, item).filter((b) => diggable.has(b) && NATURAL.test(b));
    const block = dropping.find((b) => blocks.has(b)) ?? dropping[0];
    if (block) {
      const tools = harvestTools(data, block);
      const far = !blocks.has(block);
      return {
        ...supplySource(item, { kind: 'block', block, where: `the ${block} ${far ? 'within reach' : 'nearby'}` }),
        ...(tools ? { tools } : {}),
        ...(far ? { far } : {}),
      };
    }
    for (const mob of around.mobs) {
      const drop = mobDrops(data, mob).find((d) => d.item === item);
      if (drop) return { ...supplySource(item, { kind: 'hunt', mob, where: `a ${mob}` }), perAction: drop.atLeast };
    }
    // A bucket used on a cow or a mooshroom fills with milk (vanilla `Cow.mobInteract`).
    const milked = item === 'milk_bucket' ? around.mobs.find((m) => m === 'cow' || m === 'mooshroom') : undefined;
    if (milked) return supplySource(item, { kind: 'use', tool: 'bucket', mob: milked, where: `a ${milked}` });
    return undefined;
  };
  const furnaces = ['furnace', 'smoker', 'blast_furnace'];
  const standing = furnaces.some((b) => blocks.has(b));
  const smelt = standing || furnaces.some((b) => (around.inventory[b] ?? 0) > 0);
  return { gather, smelt, fuelled: standing && !around.unfuelled, tableNearby: blocks.has('crafting_table') };
}

/** The items one of which harvests `block` (minecraft-data `harvestTools`), or undefined when a hand will do. */
export function harvestTools(data: GameData, block: string): string[] | undefined {
  const tools = data.blocksByName[block]?.harvestTools;
  return tools ? Object.keys(tools).map((id) => data.items[Number(id)]!.name) : undefined;
}

/**
 * How far an agent looks around for blocks and mobs (blocks): as far as `!smeltItem` looks for a
 * furnace, so that a plan counts on smelting exactly when the command would find one (at 24, a
 * bot at the far end of the cooking world's potato rows saw no smoker and asked its team for the
 * baked potato instead).
 */
export const SIGHT_RANGE = FURNACE_SEARCH_RANGE;

/** A chunk section as prismarine-chunk keeps it: its palette of block state ids, absent for the global palette. */
type PalettedSection = { palette?: readonly number[] } | null | undefined;

/**
 * The names of the block types in the chunk sections (16³ blocks) that come within `range` of the
 * bot (the nearest point of the section, in a straight line), read from the sections' palettes: a
 * scan cheap enough for every decision. A section in the global palette (too many kinds to list)
 * adds nothing. Only sections that come within `range` count: mineflayer's `findBlocks` reads the
 * palettes of every section within `range + 8` blocks of sections in each direction (48 blocks up
 * and down at 32), which told a bot on the surface at y = 63 that deepslate (below y = 8) was in
 * sight, and its plan chose to dig it for cobblestone.
 */
export function blockTypesAround(bot: Bot, range = SIGHT_RANGE): string[] {
  const names = new Set<string>();
  const at = bot.entity?.position;
  if (!at) return [];
  const world = bot.world as unknown as { getColumn(x: number, z: number): { sections: PalettedSection[] } | undefined };
  const gap = (low: number, value: number) => Math.max(low - value, 0, value - (low + 16));
  const minY = (bot.game as { minY?: number }).minY ?? 0;
  for (let chunkX = Math.floor((at.x - range) / 16); chunkX <= Math.floor((at.x + range) / 16); chunkX++) {
    for (let chunkZ = Math.floor((at.z - range) / 16); chunkZ <= Math.floor((at.z + range) / 16); chunkZ++) {
      const across = gap(chunkX * 16, at.x) ** 2 + gap(chunkZ * 16, at.z) ** 2;
      if (across > range * range) continue;
      const sections = world.getColumn(chunkX, chunkZ)?.sections ?? [];
      for (let i = 0; i < sections.length; i++) {
        const palette = sections[i]?.palette;
        if (!palette || across + gap(minY + i * 16, at.y) ** 2 > range * range) continue;
        for (const stateId of palette) {
          const name = bot.registry.blocksByStateId[stateId]?.name;
          if (name) names.add(name);
        }
      }
    }
  }
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
 * gathering from the natural blocks within `!collectBlocks`'s reach and the animals within
 * {@link SIGHT_RANGE}, smelting with a furnace or smoker in sight or held, a crafting table in
 * sight, and what `supplies` says the world gives. `!getCraftingPlan` plans with these, so a model
 * is told the plan the oracle would follow.
 */
export function sourcesAround(bot: Bot, data: GameData, supplies?: WorldSupplies): ProductionSources {
  return sourcesFrom(data, {
    blocks: blockTypesAround(bot),
    reachable: blockTypesAround(bot, COLLECT_RANGE),
    mobs: mobTypesAround(bot),
    inventory: inventoryCounts(bot),
    supplies,
  });
}
