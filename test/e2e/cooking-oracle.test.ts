/**
 * End to end: teams of oracle bots play cooking tasks in the cooking world (farm, animals,
 * smoker), scored from the bots' real inventories.
 * The tasks are generated ones kept in test/fixtures/generated/ (written by `npm run generate`
 * with fixed seeds); nothing here needs ../shared.
 */
import { describe, expect, test } from 'vitest';
import { fixture, play } from '../helpers/oracle-teams.ts';

describe('cooking with oracle teams', () => {
  test('cooking, 3 agents: bread and a baked potato from the farm and the smoker (generated, seed 22)', async () => {
    const { result } = await play(await fixture('cooking_3_agents.json', 'generated_cooking_3_1_bread_1_baked_potato_22_2'));
    expect(result).toMatchObject({ success: true, score: 1 });
    const all = Object.values(result.commands).flat();
    expect(all).toEqual(expect.arrayContaining(['!craftRecipe("bread", 1)', '!smeltItem("potato", 1)']));
  }, 300_000);
});
