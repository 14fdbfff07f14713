/**
 * The production planner's own rules (the oracle-level tests are in test/oracle/policy.test.ts):
 * which recipe variant and which recipes it plans with, how far it breaks down what is missing.
 */
import { describe, expect, test } from 'vitest';
import { gameData, recipeIngredients } from '../../src/game/data.ts';
import { type GatherSource, planProduction, usableRecipes } from '../../src/game/production.ts';

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

  test('what is held wins over the common variant', () => {
    const plan = planProduction(data, { cherry_planks: 1 }, { stick: 4 }, { gather: gathering('oak_log', 'cherry_log') });
    expect(plan.steps.find((s) => s.item === 'stick')).toMatchObject({ ingredients: { cherry_planks: 2 } });
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
