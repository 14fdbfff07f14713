import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { formatPlan, planCrafting } from '../../src/skills/crafting-plan.ts';

const data = gameData('1.21.4');

describe('planCrafting', () => {
  test('a wooden pickaxe from one oak log and nothing else: deep plan to raw materials', () => {
    const plan = planCrafting(data, {}, 'wooden_pickaxe', 1);
    expect(plan.missing).toEqual(expect.objectContaining({}));
    // 3 planks + 2 sticks; sticks need 2 planks -> 5 planks -> 2 logs of some wood.
    const logs = Object.entries(plan.missing).filter(([n]) => n.endsWith('_log') || n.endsWith('_stem') || n.includes('bamboo'));
    expect(logs.length).toBe(1);
    expect(plan.steps.map((s) => s.item)).toEqual(expect.arrayContaining(['stick', 'wooden_pickaxe']));
    expect(plan.steps.at(-1)?.item).toBe('wooden_pickaxe');
    expect(plan.needsTable).toBe(true);
  });

  test('uses the wood the bot holds and reports leftovers', () => {
    const plan = planCrafting(data, { birch_log: 2 }, 'wooden_pickaxe', 1);
    expect(plan.missing).toEqual({});
    expect(plan.steps.find((s) => s.item === 'birch_planks')).toMatchObject({ times: 2, produces: 8, ingredients: { birch_log: 2 } });
    expect(plan.steps.find((s) => s.item === 'wooden_pickaxe')?.ingredients).toEqual({ birch_planks: 3, stick: 2 });
    expect(plan.leftovers).toEqual({ birch_planks: 3, stick: 2 });
  });

  test('the purple banner task: what each agent lacks', () => {
    const a0 = planCrafting(data, { purple_wool: 4, stick: 1 }, 'purple_banner', 1, { expand: 'direct' });
    expect(a0.missing).toEqual({ purple_wool: 2 });
    expect(a0.needsTable).toBe(true);
    const a1 = planCrafting(data, { purple_wool: 3, crafting_table: 1 }, 'purple_banner', 1, { expand: 'direct' });
    expect(a1.missing).toEqual({ purple_wool: 3, stick: 1 });
    expect(a1.needsTable).toBe(false);
  });

  test('direct expansion names items as a partner would hand them over', () => {
    const plan = planCrafting(data, { oak_planks: 2, book: 1 }, 'bookshelf', 1, { expand: 'direct' });
    expect(plan.missing).toEqual({ oak_planks: 4, book: 2 });
    const deep = planCrafting(data, { oak_planks: 2, book: 1 }, 'bookshelf', 1);
    expect(deep.missing.oak_planks).toBeUndefined();
    expect(deep.missing).toMatchObject({ oak_log: 1, sugar_cane: 6 });
  });

  test('nothing to do when the target is held; unknown items throw', () => {
    expect(planCrafting(data, { compass: 1 }, 'compass', 1)).toMatchObject({ missing: {}, steps: [] });
    expect(() => planCrafting(data, {}, 'rose_red', 1)).toThrow(/"rose_red" is not an item in Minecraft 1\.21\.4/);
  });

  test('formatPlan lists missing items and steps', () => {
    const text = formatPlan(planCrafting(data, { iron_ingot: 2 }, 'compass', 1));
    expect(text).toContain('you are missing: 2 iron_ingot, 1 redstone');
    expect(text).toContain('-> 1 compass (needs a crafting table)');
  });
});

describe('recipe variants', () => {
  for (const version of ['1.21.4', '1.21.1']) {
    test(`${version}: with no planks, sticks and tables ask for oak_planks, the most common variant (not pale_oak or bamboo)`, () => {
      const d = gameData(version);
      expect(planCrafting(d, {}, 'stick', 1, { expand: 'direct' }).missing).toEqual({ oak_planks: 2 });
      expect(planCrafting(d, {}, 'crafting_table', 1, { expand: 'direct' }).missing).toEqual({ oak_planks: 4 });
      expect(planCrafting(d, {}, 'stick', 4).missing).toEqual({ oak_log: 1 });
      expect(planCrafting(d, { stick: 1 }, 'torch', 4, { expand: 'direct' }).missing).toEqual({ coal: 1 });
    });
  }

  test('what the bot holds wins over the common variant', () => {
    expect(planCrafting(data, { spruce_planks: 2 }, 'stick', 4, { expand: 'direct' }).missing).toEqual({});
    expect(planCrafting(data, { cherry_log: 1 }, 'stick', 4).steps[0]).toMatchObject({ item: 'cherry_planks' });
    expect(planCrafting(data, { charcoal: 1, stick: 1 }, 'torch', 4).missing).toEqual({});
  });
});
