/**
 * The production planner's own rules (the oracle-level tests are in test/oracle/policy.test.ts):
 * which recipe variant and which recipes it plans with, how far it breaks down what is missing.
 */
import { describe, expect, test } from 'vitest';
import { gameData, recipeIngredients } from '../../src/game/data.ts';
import { type GatherSource, planProduction, supplySource, usableRecipes } from '../../src/game/production.ts';
import { sourcesFrom } from '../../src/skills/surroundings.ts';

const data = gameData('1.21.4');

/** Gathering every item of `items` from blocks of the same name. */
function gathering(...items: string[]) {
  return (item: string): GatherSource | undefined =>
    items.includes(item)
      ? { item, call: (n) => ({ skill: 'collectBlocks', args: { type: item, num: n } }), perAction: 1, where: `the ${item} nearby` }
      : undefined;
}

describe('recipe variants', () => {
  test('among ways equally at hand, the most common variant (compareVariants): oak, not pale oak or bamboo', () => {
    // Every log in sight: any planks would do, the plan takes oak.
    const plan = planProduction(data, {}, { stick: 4 }, { gather: gathering('pale_oak_log', 'cherry_log', 'oak_log', 'bamboo_block') });
    expect(plan.steps.map((s) => `${s.kind} ${s.item}`)).toEqual(['gather oak_log', 'craft oak_planks', 'craft stick']);
    expect(planProduction(data, {}, { stick: 4 }, {}, { expand: 'targets' }).missing).toEqual({ oak_planks: 2 });
  });

  test.each(['1.21.1', '1.21.4', '1.21.11'])(
    "%s: cobblestone before cobbled deepslate and blackstone, which entered the game later (whatever today's item ids say)",
    (version) => {
      const d = gameData(version);
      const plan = planProduction(
        d,
        {},
        { furnace: 1 },
        { gather: gathering('blackstone', 'cobbled_deepslate', 'cobblestone'), tableNearby: true },
      );
      expect(plan.steps.map((s) => `${s.kind} ${s.count} ${s.item}`)).toEqual(['gather 8 cobblestone', 'craft 1 furnace']);
    },
  );

  test('what is held wins over the common variant', () => {
    const plan = planProduction(data, { cherry_planks: 1 }, { stick: 4 }, { gather: gathering('oak_log', 'cherry_log') });
    expect(plan.steps.find((s) => s.item === 'stick')).toMatchObject({ ingredients: { cherry_planks: 2 } });
  });
});

describe('tools', () => {
  test('a harvest tool is chosen among those the world gives: not a copper pickaxe, whose ore needs a stone one first', () => {
    const d = gameData('1.21.11');
    const sources = sourcesFrom(d, {
      blocks: ['oak_log', 'dirt', 'grass_block'],
      reachable: ['stone', 'deepslate', 'iron_ore', 'copper_ore', 'redstone_ore'],
      mobs: [],
      inventory: {},
    });
    // MineCollab's 1-agent activator rail: 3 iron ingots and 6 planks held; 6 ingots and a redstone torch wanted.
    const plan = planProduction(d, { iron_ingot: 3, oak_planks: 6 }, { activator_rail: 1 }, sources);
    expect(plan.missing).toEqual({});
    expect(plan.steps.map((s) => s.item)).not.toContain('copper_pickaxe');
    expect(plan.steps.filter((s) => s.kind === 'gather').map((s) => s.item)).toEqual(expect.arrayContaining(['raw_iron', 'redstone']));
  });
});

describe('usable recipes', () => {
  const names = (item: string) =>
    usableRecipes(data, data.itemsByName[item]!.id).map((r) => [...recipeIngredients(r).keys()].map((i) => data.items[i]!.name).join('+'));

  test('of two items made from each other, only the way a player goes: pack into blocks, break ingots into nuggets', () => {
    expect(names('iron_block')).toEqual(['iron_ingot']);
    expect(names('redstone')).toEqual([]);
    expect(names('iron_nugget')).toEqual(['iron_ingot']);
    expect(names('gold_nugget')).toEqual(['gold_ingot']);
    expect(names('gold_ingot')).toEqual([]);
    expect(names('chiseled_quartz_block')).toEqual(['quartz_slab']);
    expect(names('quartz_slab')).not.toContain('chiseled_quartz_block');
  });

  test('a block from its item and nuggets from an ingot are planned', () => {
    expect(planProduction(data, { iron_ingot: 9 }, { iron_block: 1 }, { tableNearby: true })).toMatchObject({
      missing: {},
      steps: [{ item: 'iron_block', times: 1 }],
    });
    expect(planProduction(data, { iron_ingot: 1, torch: 1 }, { lantern: 1 }, { tableNearby: true })).toMatchObject({
      missing: {},
      leftovers: { iron_nugget: 1 },
      steps: [{ item: 'iron_nugget', times: 1 }, { item: 'lantern' }],
    });
  });
});

describe('how far missing items are broken down', () => {
  test('held (default): only while some inputs are held; targets: the targets always; raw: to raw materials', () => {
    expect(planProduction(data, {}, { stick: 4 }).missing).toEqual({ stick: 4 });
    expect(planProduction(data, {}, { stick: 4 }, {}, { expand: 'targets' }).missing).toEqual({ oak_planks: 2 });
    expect(planProduction(data, {}, { stick: 4 }, {}, { expand: 'raw' }).missing).toEqual({ oak_log: 1 });
    // A table planned for the target is not a target: "targets" names it missing.
    expect(planProduction(data, { iron_ingot: 4 }, { compass: 1 }, {}, { expand: 'targets' }).missing).toEqual({
      crafting_table: 1,
      redstone: 1,
    });
    expect(planProduction(data, { iron_ingot: 4 }, { compass: 1 }, {}, { expand: 'raw' }).missing).toEqual({ oak_log: 1, redstone: 1 });
  });

  test('leftovers: what the steps make beyond what is used', () => {
    expect(planProduction(data, { oak_log: 1 }, { stick: 1 }).leftovers).toEqual({ oak_planks: 2, stick: 3 });
    expect(planProduction(data, { oak_planks: 2 }, { stick: 4 }).leftovers).toEqual({});
  });
});

describe('gathering with tools, smelting in a furnace of its own, with its fuel', () => {
  // What a survival world shows an agent: trees, stone under the dirt, ores, animals.
  const world = (blocks: string[], mobs: string[] = [], inventory: Record<string, number> = {}) =>
    sourcesFrom(data, { blocks: ['grass_block', 'dirt', ...blocks], mobs, inventory });
  const steps = (plan: ReturnType<typeof planProduction>) =>
    plan.steps.map((s) => `${s.kind} ${s.item}${s.kind === 'smelt' && s.fuel ? ` (${s.fuel})` : ''}`);

  test('stone needs a pickaxe (harvestTools): the wooden one first, from the logs', () => {
    const plan = planProduction(data, {}, { cobblestone: 3 }, world(['oak_log', 'stone']));
    expect(plan.missing).toEqual({});
    expect(steps(plan)).toEqual([
      'gather oak_log',
      'craft oak_planks',
      'craft crafting_table',
      'craft stick',
      'craft wooden_pickaxe',
      'gather cobblestone',
    ]);
    // A pickaxe held is used, not made again, and not used up.
    const held = planProduction(data, { stone_pickaxe: 1 }, { cobblestone: 3 }, world(['oak_log', 'stone']));
    expect(steps(held)).toEqual(['gather cobblestone']);
    expect(held.consumed).toEqual({});
  });

  test('iron from nothing: wooden pickaxe, stone, a stone pickaxe, a furnace, iron ore, and planks to burn', () => {
    const plan = planProduction(data, {}, { iron_ingot: 3 }, world(['oak_log', 'stone', 'iron_ore']));
    expect(plan.missing).toEqual({});
    expect(steps(plan)).toEqual([
      'gather oak_log',
      'craft oak_planks',
      'craft crafting_table',
      'craft stick',
      'craft wooden_pickaxe',
      'gather cobblestone',
      'craft furnace',
      'craft stone_pickaxe',
      'gather raw_iron',
      'smelt iron_ingot (oak_planks)',
    ]);
    // Iron ore needs a stone pickaxe at least: not the wooden one.
    expect(plan.steps.find((s) => s.item === 'raw_iron')).toMatchObject({
      source: { tools: expect.not.arrayContaining(['wooden_pickaxe']) },
    });
  });

  test('fuel: what is held first, else the fuel of fewest gatherings (coal for a long smelting, planks for a short one)', () => {
    const sources = world(['oak_log', 'stone', 'iron_ore', 'coal_ore'], [], {});
    const tools = { stone_pickaxe: 1, crafting_table: 1, furnace: 1 };
    expect(
      steps(planProduction(data, { ...tools, raw_iron: 8, charcoal: 1 }, { iron_ingot: 8 }, { ...sources, smelt: true, fuelled: false })),
    ).toEqual(['smelt iron_ingot (charcoal)']);
    expect(steps(planProduction(data, { ...tools, raw_iron: 8 }, { iron_ingot: 8 }, { ...sources, smelt: true, fuelled: false }))).toEqual([
      'gather coal',
      'smelt iron_ingot (coal)',
    ]);
    expect(steps(planProduction(data, { ...tools, raw_iron: 1 }, { iron_ingot: 1 }, { ...sources, smelt: true, fuelled: false }))).toEqual([
      'gather oak_log',
      'craft oak_planks',
      'smelt iron_ingot (oak_planks)',
    ]);
  });

  test('fuel in a mine: coal ore at hand before more planks from logs on the surface (coal burns first, so the planks held are left)', () => {
    const mine = sourcesFrom(data, { blocks: ['stone', 'coal_ore', 'iron_ore'], reachable: ['oak_log'], mobs: [], inventory: {} });
    const held = { stone_pickaxe: 1, crafting_table: 1, furnace: 1, oak_planks: 2 };
    expect(steps(planProduction(data, { ...held, raw_iron: 10 }, { iron_ingot: 10 }, { ...mine, smelt: true, fuelled: false }))).toEqual([
      'gather coal',
      'smelt iron_ingot (coal)',
    ]);
    // The planks held are enough for one item: no coal.
    expect(steps(planProduction(data, { ...held, raw_iron: 1 }, { iron_ingot: 1 }, { ...mine, smelt: true, fuelled: false }))).toEqual([
      'smelt iron_ingot (oak_planks)',
    ]);
    // Logs in sight make the rest of the planks cheaper than coal for a short smelting.
    const forest = world(['oak_log', 'stone', 'coal_ore'], [], {});
    expect(steps(planProduction(data, { ...held, raw_iron: 5 }, { iron_ingot: 5 }, { ...forest, smelt: true, fuelled: false }))).toEqual([
      'gather oak_log',
      'craft oak_planks',
      'smelt iron_ingot (oak_planks)',
    ]);
  });

  test('a furnace standing in sight is taken as fuelled (the cooking world: no fuel planned); one held is not', () => {
    const inSight = sourcesFrom(data, { blocks: ['furnace'], mobs: ['cow'], inventory: {} });
    expect(steps(planProduction(data, {}, { cooked_beef: 1 }, inSight))).toEqual(['gather beef', 'smelt cooked_beef']);
    const held = sourcesFrom(data, { blocks: ['oak_log'], mobs: ['cow'], inventory: { furnace: 1 } });
    expect(steps(planProduction(data, { furnace: 1 }, { cooked_beef: 1 }, held))).toEqual([
      'gather beef',
      'gather oak_log',
      'craft oak_planks',
      'smelt cooked_beef (oak_planks)',
    ]);
  });

  test('no stone in reach (a superflat world): no furnace, so nothing is smelted', () => {
    expect(planProduction(data, { raw_iron: 3 }, { iron_ingot: 3 }, world(['oak_log'])).missing).toEqual({ iron_ingot: 3 });
  });

  test('animals in sight are hunted for their loot (minecraft-data entityLoot; a sheep drops its wool); dyes from flowers', () => {
    const sources = world(['oak_log', 'poppy', 'cornflower'], ['sheep', 'cow']);
    expect(sources.gather?.('leather')).toMatchObject({ where: 'a cow' });
    expect(sources.gather?.('white_wool')?.call(1)).toEqual({ skill: 'attack', args: { type: 'sheep' } });
    const plan = planProduction(data, { stick: 1 }, { purple_banner: 1 }, sources);
    expect(plan.missing).toEqual({});
    expect(plan.steps.filter((s) => s.kind === 'gather').map((s) => s.item)).toEqual(
      expect.arrayContaining(['white_wool', 'poppy', 'cornflower', 'oak_log']),
    );
  });
});

describe('what a task world supplies', () => {
  const chest =
    (...items: string[]) =>
    (item: string) =>
      items.includes(item) ? supplySource(item, { kind: 'chest', where: 'the chest' }) : undefined;

  test('an item in a chest is taken with !takeFromChest, as many as the plan needs in one call', () => {
    const plan = planProduction(data, {}, { bread: 1 }, { gather: chest('wheat'), tableNearby: true });
    const take = plan.steps.find((s) => s.kind === 'gather');
    expect(take).toMatchObject({ item: 'wheat', count: 3 });
    expect(take?.kind === 'gather' && take.source.call(3)).toEqual({ skill: 'takeFromChest', args: { item_name: 'wheat', num: 3 } });
  });

  test('a storage block the world gives is unpacked (hay bales for wheat); one it does not give is not planned from', () => {
    const plan = planProduction(data, {}, { bread: 1 }, { gather: chest('hay_block'), tableNearby: true });
    expect(plan.missing).toEqual({});
    expect(plan.steps.map((s) => `${s.kind} ${s.item}`)).toEqual(['gather hay_block', 'craft wheat', 'craft bread']);
    // Wheat is not planned from hay bales that no source gives.
    expect(planProduction(data, { hay_block: 1 }, { wheat: 9 }, {}).steps).toEqual([]);
  });

  test('a chest supply counts while a chest is in sight', () => {
    const supplies = { egg: { kind: 'chest', where: 'the chest' } } as const;
    expect(sourcesFrom(data, { blocks: ['chest'], mobs: [], inventory: {}, supplies }).gather?.('egg')).toMatchObject({ item: 'egg' });
    expect(sourcesFrom(data, { blocks: [], mobs: [], inventory: {}, supplies }).gather?.('egg')).toBeUndefined();
  });
});
