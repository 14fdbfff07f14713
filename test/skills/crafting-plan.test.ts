import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { formatPlan, planCrafting } from '../../src/skills/crafting-plan.ts';
import { commandCall } from '../../src/commands/skill-commands.ts';
import { SERVER_VERSIONS } from '../../src/game/versions.ts';

const data = gameData('1.21.4');

describe('planCrafting', () => {
  test('a wooden pickaxe from nothing: down to raw materials, a crafting table first', () => {
    const plan = planCrafting(data, {}, 'wooden_pickaxe', 1);
    // Table 4 planks + pickaxe 3 planks + sticks 2 planks = 9 planks -> 3 logs of the common wood.
    expect(plan.missing).toEqual({ oak_log: 3 });
    expect(plan.steps.map((s) => s.item)).toEqual(['oak_planks', 'crafting_table', 'stick', 'wooden_pickaxe']);
    expect(plan.needsTable).toBe(true);
  });

  test('uses the wood the bot holds and reports leftovers', () => {
    const plan = planCrafting(data, { birch_log: 2, crafting_table: 1 }, 'wooden_pickaxe', 1);
    expect(plan.missing).toEqual({});
    expect(plan.steps.find((s) => s.item === 'birch_planks')).toMatchObject({
      kind: 'craft',
      times: 2,
      count: 8,
      ingredients: { birch_log: 2 },
    });
    expect(plan.steps.find((s) => s.item === 'wooden_pickaxe')).toMatchObject({ ingredients: { birch_planks: 3, stick: 2 } });
    expect(plan.leftovers).toEqual({ birch_planks: 3, stick: 2 });
    expect(plan.needsTable).toBe(false);
  });

  test('without a table at hand the table is part of the plan: two birch logs are one short', () => {
    const plan = planCrafting(data, { birch_log: 2 }, 'wooden_pickaxe', 1);
    expect(plan.missing).toEqual({ birch_log: 1 });
    expect(plan.steps[1]).toMatchObject({ item: 'crafting_table', ingredients: { birch_planks: 4 } });
    expect(planCrafting(data, { birch_log: 2 }, 'wooden_pickaxe', 1, { sources: { tableNearby: true } }).missing).toEqual({});
  });

  test('the purple banner task: what each agent lacks', () => {
    const a0 = planCrafting(data, { purple_wool: 4, stick: 1 }, 'purple_banner', 1, { expand: 'targets' });
    expect(a0.missing).toEqual({ crafting_table: 1, purple_wool: 2 });
    expect(a0.needsTable).toBe(true);
    const a1 = planCrafting(data, { purple_wool: 3, crafting_table: 1 }, 'purple_banner', 1, { expand: 'targets' });
    expect(a1.missing).toEqual({ purple_wool: 3, stick: 1 });
    expect(a1.needsTable).toBe(false);
  });

  test('expand "targets" names items as a partner would hand them over', () => {
    const plan = planCrafting(data, { oak_planks: 2, book: 1 }, 'bookshelf', 1, { expand: 'targets', sources: { tableNearby: true } });
    expect(plan.missing).toEqual({ oak_planks: 4, book: 2 });
    const raw = planCrafting(data, { oak_planks: 2, book: 1 }, 'bookshelf', 1, { sources: { tableNearby: true } });
    expect(raw.missing.oak_planks).toBeUndefined();
    expect(raw.missing).toMatchObject({ oak_log: 1, sugar_cane: 6 });
  });

  test('nothing to do when the target is held; unknown items throw', () => {
    expect(planCrafting(data, { compass: 1 }, 'compass', 1)).toMatchObject({ missing: {}, steps: [] });
    expect(() => planCrafting(data, {}, 'rose_red', 1)).toThrow(/"rose_red" is not an item in Minecraft 1\.21\.4/);
  });

  test('smelting and gathering when the sources give them: a golden carrot from raw gold', () => {
    const sources = {
      smelt: true,
      tableNearby: true,
      gather: (item: string) =>
        item === 'carrot'
          ? { item, call: (n: number) => ({ skill: 'collectBlocks', args: { type: 'carrots', num: n } }), perAction: 1, where: 'the farm' }
          : undefined,
    };
    const plan = planCrafting(data, { raw_gold: 1 }, 'golden_carrot', 1, { sources });
    expect(plan.missing).toEqual({});
    expect(plan.steps.map((s) => `${s.kind} ${s.item}`)).toEqual([
      'smelt gold_ingot',
      'craft gold_nugget',
      'gather carrot',
      'craft golden_carrot',
    ]);
    expect(formatPlan(plan, commandCall).split('\n')).toEqual([
      'You can make 1 golden_carrot with what you have and what is around you.',
      'Steps:',
      '- Smelt 1 raw_gold -> 1 gold_ingot (in a furnace)',
      '- Craft 1 gold_ingot -> 9 gold_nugget',
      '- Get 1 carrot from the farm: !collectBlocks("carrots", 1)',
      '- Craft 8 gold_nugget, 1 carrot -> 1 golden_carrot (needs a crafting table)',
      'Leftovers: 1 gold_nugget.',
    ]);
  });

  test('formatPlan lists missing items and steps', () => {
    // No table at hand: its log is missing too.
    const text = formatPlan(planCrafting(data, { iron_ingot: 2 }, 'compass', 1), commandCall);
    expect(text).toContain('you are missing: 1 oak_log, 2 iron_ingot, 1 redstone');
    expect(text).toContain('- Craft 4 oak_planks -> 1 crafting_table');
    expect(text).toContain('-> 1 compass (needs a crafting table)');
    expect(text).toContain('You need a crafting_table: none is nearby, so the steps craft one');
    const atTable = formatPlan(planCrafting(data, { iron_ingot: 2 }, 'compass', 1, { sources: { tableNearby: true } }), commandCall);
    expect(atTable).toContain('you are missing: 2 iron_ingot, 1 redstone');
    expect(atTable).not.toContain('You need a crafting_table');
  });
});

describe('recipe variants', () => {
  for (const version of SERVER_VERSIONS) {
    test(`${version}: with no planks, sticks and tables ask for oak_planks, the most common variant (not pale_oak or bamboo)`, () => {
      const d = gameData(version);
      expect(planCrafting(d, {}, 'stick', 1, { expand: 'targets' }).missing).toEqual({ oak_planks: 2 });
      expect(planCrafting(d, {}, 'crafting_table', 1, { expand: 'targets' }).missing).toEqual({ oak_planks: 4 });
      expect(planCrafting(d, {}, 'stick', 4).missing).toEqual({ oak_log: 1 });
      expect(planCrafting(d, { stick: 1 }, 'torch', 4, { expand: 'targets' }).missing).toEqual({ coal: 1 });
    });
  }

  test('what the bot holds wins over the common variant', () => {
    expect(planCrafting(data, { spruce_planks: 2 }, 'stick', 4, { expand: 'targets' }).missing).toEqual({});
    expect(planCrafting(data, { cherry_log: 1 }, 'stick', 4).steps[0]).toMatchObject({ item: 'cherry_planks' });
    expect(planCrafting(data, { charcoal: 1, stick: 1 }, 'torch', 4).missing).toEqual({});
  });
});
