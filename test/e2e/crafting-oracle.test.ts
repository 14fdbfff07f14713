/**
 * End to end: teams of oracle bots play crafting tasks in MineCollab's format on the embedded
 * server, scored from the bots' real inventories.
 * The issue's own cases; the generated ones are in test/e2e/crafting-oracle-teams.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { craftingTask, play } from '../helpers/oracle-teams.ts';

describe('crafting with oracle teams', () => {
  test("the issue's bread: the wheat goes to the agent with the table, who crafts", async () => {
    const { result } = await play(craftingTask('bread', 'bread', { 0: { wheat: 2, crafting_table: 1 }, 1: { wheat: 1 } }));
    expect(result).toMatchObject({ success: true, score: 1 });
    expect(result.commands.Jill).toEqual(['!givePlayer("Andy", "wheat", 1)']);
    expect(result.commands.Andy).toContain('!craftRecipe("bread", 1)');
  }, 120_000);

  test('an unsolvable task: said once with the reason, recorded by the oracle, run ends at its timeout', async () => {
    const { result, oracles } = await play(
      // A blaze rod comes from the Nether's blazes: the survival world (an overworld) has none.
      craftingTask('brewing_stand', 'brewing_stand', { 0: { cobblestone: 3 }, 1: { crafting_table: 1 } }, { timeout: 6 }),
    );
    expect(result).toMatchObject({ score: 0, success: false });
    expect(oracles.map((o) => o.unsolvable).filter(Boolean)[0]).toMatch(/blaze_rod/);
    expect(result.unsolvable).toMatch(/blaze_rod/);
    expect(
      Object.values(result.commands)
        .flat()
        .filter((c) => c.startsWith('!craftRecipe')),
    ).toEqual([]);
  }, 60_000);
});
