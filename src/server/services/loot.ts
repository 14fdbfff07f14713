/**
 * What blocks and mobs drop, from minecraft-data's flattened loot tables (`blockLoot`,
 * `entityLoot`). Spawning the items is ./drops.ts's job.
 */
import type { Block } from 'prismarine-block';
import type { SquidServer } from '../types.ts';

/** One item stack dropped: minecraft-data item name and count. */
export interface DropStack {
  item: string;
  count: number;
}

/** One flattened loot entry of minecraft-data. */
interface LootEntry {
  item: string;
  dropChance: number;
  stackSizeRange: [number, number?];
  silkTouch?: boolean;
  noSilkTouch?: boolean;
  blockAge?: number;
  playerKill?: boolean;
}

function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

function rollCount(range: [number, number?]): number {
  return randomInt(range[0], range[1] ?? range[0]);
}

/**
 * What a block drops when broken without silk touch, from minecraft-data `blockLoot`:
 * - entries marked `silkTouch` are skipped; `noSilkTouch` entries (the other half of a
 *   silk-touch alternative, listed with chance 0.5) always drop;
 * - crops (entries with `blockAge`): entries whose `blockAge` equals the block's `age` drop
 *   (the produce and the bonus seeds); the age-less entries drop only when no age entry
 *   matched, or when they always drop (`dropChance` 1, e.g. the base carrot);
 * - other entries drop with their `dropChance`, `stackSizeRange` giving the count;
 * - slabs drop 2 only as `type=double`; wall variants (`wall_torch`) use the standing block's loot.
 * Broken by a player, a block whose `harvestTools` does not list the held item drops nothing
 * (vanilla `requiresCorrectToolForDrops`); broken by a command (`/fill … destroy`, vanilla
 * `Level.destroyBlock`), the tool is not checked.
 *
 * @param heldType item id in the breaker's hand, null for an empty hand, or 'command' when no
 *   entity broke it.
 */
export function blockDrops(serv: SquidServer, block: Block, heldType: number | null | 'command'): DropStack[] {
  const info = serv.registry.blocks[block.type];
  if (heldType !== 'command' && info?.harvestTools && (heldType === null || !info.harvestTools[heldType])) return [];
  const vanilla = plantDrops(serv, block, heldType);
  if (vanilla) return vanilla;
  // Wall variants (wall_torch, oak_wall_sign…) share their standing block's loot table in vanilla.
  const lootName = serv.registry.blockLoot?.[block.name] ? block.name : block.name.replace('wall_', '');
  const loot = serv.registry.blockLoot?.[lootName] as unknown as { drops: LootEntry[] } | undefined;
  if (!loot) return [];
  const props = block.getProperties();
  const age = props.age === undefined ? undefined : Number(props.age);
  const entries = loot.drops.filter((d) => !d.silkTouch);
  const aged = entries.filter((d) => d.blockAge !== undefined);
  const out: DropStack[] = [];
  const push = (item: string, count: number): void => {
    if (count > 0) out.push({ item, count });
  };
  if (aged.length > 0 && age !== undefined) {
    const matching = aged.filter((d) => d.blockAge === age);
    // An aged entry listed with chance 0.5 is one side of a flattened age alternative: it always drops.
    for (const d of matching) if (d.dropChance === 0.5 || Math.random() < d.dropChance) push(d.item, rollCount(d.stackSizeRange));
    for (const d of entries.filter((e) => e.blockAge === undefined)) {
      if (matching.length === 0 || d.dropChance >= 1) push(d.item, rollCount(d.stackSizeRange));
    }
    return out;
  }
  for (const d of entries) {
    const always = d.noSilkTouch || d.dropChance >= 1;
    if (!always && Math.random() >= d.dropChance) continue;
    let n = rollCount(d.stackSizeRange);
    if (block.name.endsWith('_slab')) n = props.type === 'double' ? 2 : 1;
    push(d.item, n);
  }
  return out;
}

/** vanilla's grass and fern loot tables: the plant with shears, else wheat seeds one time in eight. */
const GRASSES: Record<string, { item: string; count: number }> = {
  short_grass: { item: 'short_grass', count: 1 },
  fern: { item: 'fern', count: 1 },
  tall_grass: { item: 'short_grass', count: 2 },
  large_fern: { item: 'fern', count: 2 },
};
/** vanilla `BlockLootSubProvider` chances without Fortune: saplings 1/20 (jungle 1/40), sticks 1/50 (1–2), apples 1/200. */
const SAPLING_CHANCE = 0.05;
const JUNGLE_SAPLING_CHANCE = 0.025;
const STICK_CHANCE = 0.02;
const APPLE_CHANCE = 0.005;

/**
 * Drops of grasses and leaves, whose vanilla 1.21 loot tables minecraft-data's flattened
 * `blockLoot` gets wrong (`short_grass` is missing under its old name `grass`; leaves list their
 * sapling at 0.5 and sticks and apples at 1), from the vanilla tables (`blocks/short_grass`,
 * `blocks/tall_grass`, `blocks/fern`, `blocks/large_fern`, `blocks/oak_leaves` …; Minecraft wiki
 * "Grass", "Leaves"):
 * - short grass and fern: with shears the plant, else wheat seeds with chance 1/8; tall grass and
 *   large fern: with shears 2 of the short plant, else seeds 1/8 (one drop for both halves);
 * - leaves: with shears the leaves block, else their sapling 1/20 (jungle 1/40), 1–2 sticks 1/50,
 *   and for oak and dark oak an apple 1/200.
 * Broken by a command, no tool is held.
 *
 * @returns undefined for other blocks.
 */
function plantDrops(serv: SquidServer, block: Block, heldType: number | null | 'command'): DropStack[] | undefined {
  const shears = heldType !== null && heldType !== 'command' && serv.registry.items[heldType]?.name === 'shears';
  const grass = GRASSES[block.name];
  if (grass) {
    if (shears) return serv.registry.itemsByName[grass.item] ? [{ ...grass }] : [];
    return Math.random() < 1 / 8 ? [{ item: 'wheat_seeds', count: 1 }] : [];
  }
  const wood = /^(.+)_leaves$/.exec(block.name)?.[1];
  if (!wood || !serv.registry.itemsByName[`${wood}_sapling`]) return undefined;
  if (shears) return [{ item: block.name, count: 1 }];
  const out: DropStack[] = [];
  if (Math.random() < (wood === 'jungle' ? JUNGLE_SAPLING_CHANCE : SAPLING_CHANCE)) out.push({ item: `${wood}_sapling`, count: 1 });
  if (Math.random() < STICK_CHANCE) out.push({ item: 'stick', count: randomInt(1, 2) });
  if ((wood === 'oak' || wood === 'dark_oak') && Math.random() < APPLE_CHANCE) out.push({ item: 'apple', count: 1 });
  return out;
}

/**
 * What a mob drops when it dies, from minecraft-data `entityLoot`: each entry with its drop
 * chance and stack-size range; `playerKill` entries only when a player killed it.
 */
export function mobDrops(serv: SquidServer, name: string, killedByPlayer: boolean): DropStack[] {
  const loot = serv.registry.entityLoot?.[name]?.drops as LootEntry[] | undefined;
  if (!loot) return [];
  const out: DropStack[] = [];
  for (const entry of loot) {
    if (entry.playerKill && !killedByPlayer) continue;
    if (Math.random() >= entry.dropChance) continue;
    const count = rollCount(entry.stackSizeRange);
    if (count > 0 && serv.registry.itemsByName[entry.item]) out.push({ item: entry.item, count });
  }
  return out;
}
