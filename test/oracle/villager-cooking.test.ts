/**
 * The offline policy's split of a VillagerBench dish among its team (`splitIngredients`): the
 * same for every member, each ingredient to one member, the cook (first by name) counting the dish.
 */
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { splitIngredients } from '../../src/oracle/villager-cooking.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const data = gameData(TEST_VERSION);
const chest = { kind: 'chest', where: 'the chest' } as const;
const cakeSupplies = {
  milk_bucket: chest,
  egg: chest,
  hay_block: chest,
  sugar_cane: { kind: 'block', block: 'sugar_cane', where: 'the farm' },
} as const;

describe('splitIngredients', () => {
  test('cake, 2 agents: the recipe from minecraft-data; the cook gets the wheat (hay, wheat), the other the sugar, egg and milk', () => {
    const split = splitIngredients(data, ['Bob', 'Ann'], { cake: 1 }, cakeSupplies);
    expect(split.cook).toBe('Ann');
    expect(split.ingredients).toEqual({ milk_bucket: 3, sugar: 2, egg: 1, wheat: 3 });
    expect(split.shares).toEqual({ Ann: { wheat: 3 }, Bob: { sugar: 2, egg: 1, milk_bucket: 3 } });
  });

  test('any order of the team gives the same split; every ingredient goes to exactly one member', () => {
    const a = splitIngredients(data, ['Cy', 'Ann', 'Bob', 'Di'], { cake: 1 }, cakeSupplies);
    const b = splitIngredients(data, ['Di', 'Bob', 'Cy', 'Ann'], { cake: 1 }, cakeSupplies);
    expect(a).toEqual(b);
    const shared = Object.values(a.shares).flatMap((s) => Object.keys(s));
    expect(shared.sort()).toEqual(Object.keys(a.ingredients).sort());
    // Four ingredients, three members besides the cook: nobody idle but the cook's dish counts for it.
    expect(Object.entries(a.shares).filter(([, s]) => Object.keys(s).length > 0).length).toBeGreaterThanOrEqual(3);
  });

  test('rabbit stew: the potato and the rabbit, both smelted, go to one member (one furnace)', () => {
    const supplies = { potato: chest, rabbit: chest, coal: chest, bowl: chest, carrot: chest, brown_mushroom: chest };
    const split = splitIngredients(data, ['Ann', 'Bob', 'Cy'], { rabbit_stew: 1 }, supplies);
    const smelter = Object.values(split.shares).filter((s) => 'baked_potato' in s || 'cooked_rabbit' in s);
    expect(smelter).toHaveLength(1);
    expect(smelter[0]).toMatchObject({ baked_potato: 1, cooked_rabbit: 1 });
  });

  test('a dish the supplies give as it is goes to the cook', () => {
    const split = splitIngredients(data, ['Ann', 'Bob'], { bread: 1 }, { bread: chest });
    expect(split.shares).toEqual({ Ann: { bread: 1 }, Bob: {} });
  });

  test('an empty team is refused', () => {
    expect(() => splitIngredients(data, [], { cake: 1 }, cakeSupplies)).toThrow(/team is empty/);
  });
});
