/**
 * What a VillagerBench farm task's world supplies, as the agents' task data (`AgentTask.supplies`,
 * the same data MineCollab's cooking world gives, `../cooking.ts`): the items its chests hold
 * (`takeFromChest`), the crops of its farms (`collectBlocks` of the crop block), and the animals of
 * its pastures (`attack`; a cow milked into a bucket with `useItemOnEntity`), not their logs. `!getCraftingPlan`
 * and the offline policy plan with it.
 */
import type { GameData } from '../../game/data.ts';
import { type WorldSupplies, type WorldSupply } from '../../game/production.ts';
import type { FarmTask } from './cooking.ts';
import { farmCrops, structurePlan } from './structures.ts';

/**
 * The supplies of `task`'s world (see the module comment), by item name. A chest's items come
 * first (taken, not gathered); the factory's ore and logs are left to the agents' own sight (they
 * need tools); an egg is not gathered from a chicken (vanilla lays one every 5–10 minutes,
 * Minecraft wiki "Egg").
 *
 * @throws Error for a structure `./structures.ts` does not build.
 */
export function farmSupplies(data: GameData, task: FarmTask): WorldSupplies {
  const out: Record<string, WorldSupply> = {};
  const add = (item: string, supply: WorldSupply) => {
    if (data.itemsByName[item] && !Object.hasOwn(out, item)) out[item] = supply;
  };
  for (const c of task.component) {
    if (c.type === 'block') {
      const at = `[${c.position.join(' ')}] from the centre`;
      for (const s of c.items ?? []) add(s.name, { kind: 'chest', where: `the ${c.name} at ${at}` });
    }
  }
  for (const c of task.component) {
    if (c.type !== 'structure') continue;
    const plan = structurePlan(c.name);
    if (farmCrops(c.name)) {
      // What each block standing on the ground (dy 0) drops: its loot table (a full-grown wheat
      // crop gives wheat and seeds), else its drops (minecraft-data).
      const standing = new Set(plan.blocks.filter((b) => b.dy === 0).map((b) => b.state.replace(/\[.*$/, '')));
      for (const block of standing) for (const item of drops(data, block)) add(item, { kind: 'block', block, where: `the ${c.name}` });
      continue;
    }
    const animal = plan.animals[0]?.name;
    if (!animal) continue;
    // Its animals only: the logs inside the fence are cut from within the pen, where a bot gets
    // stuck (a 136 s dig), while the chest holds the fuel and the planks.
    for (const item of plan.gives) {
      if (item === 'egg' || plan.blocks.some((b) => b.state.replace(/\[.*$/, '') === item)) continue;
      if (item === 'milk_bucket') add(item, { kind: 'use', tool: 'bucket', mob: animal, where: `a ${animal} in the ${c.name}` });
      else add(item, { kind: 'hunt', mob: animal, where: `a ${animal} in the ${c.name}` });
    }
  }
  return out;
}

/** The items `block` drops: its loot table's (minecraft-data `blockLoot`), else its `drops`. */
function drops(data: GameData, block: string): string[] {
  const loot = (data.blockLoot ?? {}) as unknown as Record<string, { drops: { item: string }[] } | undefined>;
  const fromLoot = loot[block]?.drops.map((d) => d.item);
  if (fromLoot?.length) return [...new Set(fromLoot)];
  return (data.blocksByName[block]?.drops ?? []).map((d) => data.items[d as number]?.name).filter((n): n is string => !!n);
}

/**
 * What a VillagerBench construction's material chests supply (`AgentTask.supplies`): each item
 * from the first chest holding it (`takeFromChest`), so that a strategy's `collect` of a builder's
 * blocks is planned and played like a cooking chest's.
 */
export function chestSupplies(
  chests: readonly { x: number; y: number; z: number; items: Readonly<Record<string, number>> }[],
): WorldSupplies {
  const out: Record<string, WorldSupply> = {};
  for (const c of chests) {
    for (const item of Object.keys(c.items)) {
      if (!Object.hasOwn(out, item)) out[item] = { kind: 'chest', where: `the chest at [${c.x} ${c.y} ${c.z}]` };
    }
  }
  return out;
}
