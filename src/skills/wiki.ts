/**
 * `!searchWiki` offline: facts about an item, block or mob straight from minecraft-data
 * (hardness, harvest tools, drops, food value, crafting recipes, what it crafts into, what drops it).
 * Pure functions of the game data: no bot, no network.
 */
import { foodOf, type GameData, recipeIngredients, recipeNeedsTable, recipeResultCount } from '../game/data.ts';
import { normaliseName } from '../game/names.ts';
import { formatCounts, type Counts } from '../game/production.ts';
import { done, failure, type Outcome } from './outcome.ts';

/** At most this many names in a list line ("used in", "dropped by", matches). */
const LIST_MAX = 8;

type LootDrop = { item: string; dropChance: number; stackSizeRange: (number | null)[]; silkTouch?: boolean; noSilkTouch?: boolean };

function list(names: string[]): string {
  const more = names.length > LIST_MAX ? `, and ${names.length - LIST_MAX} more` : '';
  return names.slice(0, LIST_MAX).join(', ') + more;
}

function describeDrop(d: LootDrop): string {
  const [lo, hi] = d.stackSizeRange;
  const n = lo == null ? '' : hi != null && hi !== lo ? `${lo}-${hi} ` : `${lo} `;
  // minecraft-data splits silk-touch / normal drops as 50% each: that is not a real chance.
  const chance = d.dropChance < 1 && !d.silkTouch && !d.noSilkTouch ? ` (${Math.round(d.dropChance * 100)}% chance)` : '';
  const silk = d.silkTouch ? ' with Silk Touch' : '';
  return `${n}${d.item}${silk}${chance}`;
}

/** The name of an item, block or entity the query means: exact name or display name, else undefined. */
function resolve(data: GameData, query: string): string | undefined {
  const name = normaliseName(query);
  if (data.itemsByName[name] || data.blocksByName[name] || data.entitiesByName[name]) return name;
  const lower = query.trim().toLowerCase();
  for (const table of [data.itemsArray, data.blocksArray, data.entitiesArray] as { name: string; displayName: string }[][]) {
    const hit = table.find((x) => x.displayName.toLowerCase() === lower);
    if (hit) return hit.name;
  }
  for (const v of [name.replace(/s$/, ''), name.replace(/es$/, ''), `${name}s`]) {
    if (data.itemsByName[v] || data.blocksByName[v] || data.entitiesByName[v]) return v;
  }
  return undefined;
}

/**
 * Facts about what `query` names (an item, block or mob; name or display name, any case).
 * When nothing matches exactly, lists names containing the query's words.
 *
 * @param data minecraft-data of the bot's version.
 * @returns a few short lines for the model (`ok`); `not_found` (`data.sought`, the query as an
 *   item) when nothing is called that, with related names when some contain its words.
 */
export function searchWiki(data: GameData, query: string): Outcome {
  const name = resolve(data, query);
  if (!name) {
    const words = normaliseName(query)
      .split('_')
      .filter((w) => w.length >= 3);
    const all = new Set([...data.itemsArray, ...data.blocksArray, ...data.entitiesArray].map((x) => x.name));
    const matches = [...all].filter((n) => words.length > 0 && words.every((w) => n.includes(w)));
    const loose = matches.length ? matches : [...all].filter((n) => words.some((w) => n.includes(w)));
    return failure(
      'not_found',
      loose.length
        ? `Nothing is called "${query}". Related names: ${list(loose)}. Search one of them for details.`
        : `Nothing in Minecraft ${data.version.minecraftVersion} is called "${query}".`,
      { sought: { kind: 'item', name: query } },
    );
  }
  const lines: string[] = [];
  const item = data.itemsByName[name];
  const block = data.blocksByName[name];
  const entity = data.entitiesByName[name];
  const display = (item ?? block ?? entity)!.displayName;
  lines.push(
    `${display} (${name}): ${[item && 'item', block && 'block', entity && `${entity.category ?? entity.type ?? 'entity'}`].filter(Boolean).join(', ')}.`,
  );

  if (block) {
    const hard = block.hardness == null || block.hardness < 0 ? 'unbreakable' : `hardness ${block.hardness}`;
    const tools = block.harvestTools ? Object.keys(block.harvestTools).map((id) => data.items[Number(id)]!.name) : [];
    lines.push(
      `Block: ${hard}${block.hardness != null && block.hardness >= 0 ? (tools.length ? `, drops only when mined with one of ${list(tools)}` : ', any tool or a hand harvests it') : ''}${block.emitLight ? `, light level ${block.emitLight}` : ''}.`,
    );
    const loot = (data.blockLoot as Record<string, { drops: LootDrop[] }>)[name];
    if (loot?.drops.length) lines.push(`Drops when mined: ${loot.drops.map(describeDrop).join('; ')}.`);
    else if (block.drops.length === 0) lines.push('Drops nothing when mined.');
  }
  if (item) {
    const food = foodOf(data, name);
    lines.push(
      `Item: stacks to ${item.stackSize}${food ? `; food: restores ${food.foodPoints} hunger, ${food.saturation} saturation` : ''}.`,
    );
    const recipes = data.recipes[item.id] ?? [];
    const shown = new Set<string>();
    for (const r of recipes) {
      const ings: Counts = {};
      for (const [id, n] of recipeIngredients(r)) ings[data.items[id]!.name] = n;
      const line = `Craft: ${formatCounts(ings)} -> ${recipeResultCount(r)} ${name}${recipeNeedsTable(r) ? ' (crafting table)' : ''}`;
      if (!shown.has(line)) shown.add(line);
      if (shown.size >= 3) break;
    }
    lines.push(...shown);
    if (recipes.length === 0) lines.push('It has no crafting recipe.');
    const usedIn: string[] = [];
    for (const [resultId, rs] of Object.entries(data.recipes)) {
      if (rs.some((r) => recipeIngredients(r).has(item.id))) usedIn.push(data.items[Number(resultId)]!.name);
    }
    if (usedIn.length) lines.push(`Used to craft: ${list(usedIn)}.`);
    const fromBlocks = Object.values(data.blockLoot as Record<string, { block: string; drops: LootDrop[] }>)
      .filter((l) => l.block !== name && l.drops.some((d) => d.item === name && !d.silkTouch))
      .map((l) => l.block);
    if (fromBlocks.length) lines.push(`Dropped by blocks: ${list(fromBlocks)}.`);
    const fromMobs = Object.values(data.entityLoot as Record<string, { entity: string; drops: LootDrop[] }>)
      .filter((l) => l.drops.some((d) => d.item === name))
      .map((l) => l.entity);
    if (fromMobs.length) lines.push(`Dropped by mobs: ${list(fromMobs)}.`);
  }
  if (entity) {
    lines.push(`Mob: ${entity.width} x ${entity.height} blocks.`);
    const loot = (data.entityLoot as Record<string, { drops: LootDrop[] }>)[name];
    if (loot?.drops.length) lines.push(`Drops when killed: ${loot.drops.map(describeDrop).join('; ')}.`);
  }
  return done(lines.join('\n'));
}
