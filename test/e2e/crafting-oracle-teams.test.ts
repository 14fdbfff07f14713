/**
 * End to end: oracle teams play generated crafting tasks on the embedded server: three agents
 * with a blocked crafter, and a missing item gathered from the survival world. A file apart from
 * test/e2e/crafting-oracle.test.ts so that the two run side by side.
 * The tasks are generated ones kept in test/fixtures/generated/; nothing here needs ../shared.
 */
import { describe, expect, test } from 'vitest';
import { fixture, play } from '../helpers/oracle-teams.ts';
import { ON_DEFAULT_VERSION } from '../helpers/version.ts';

describe('crafting with oracle teams: generated tasks', () => {
  test('three agents, depth 1, one may not craft (generated, seed 12)', async () => {
    const task = await fixture(
      'crafting_3_agents_depth_1_blocked.json',
      'generated_crafting_magenta_stained_glass_12_1__depth_1_num_agents_3',
    );
    const { result } = await play(task);
    expect(result).toMatchObject({ success: true, score: 1 });
    const blocked = Object.entries(task.blocked_actions).find(([, b]) => b.includes('!craftRecipe'))![0];
    const name = result.agents[Number(blocked)]!;
    expect(result.commands[name]!.some((c) => c.startsWith('!craftRecipe'))).toBe(false);
  }, 180_000);

  // One version: three survival worlds generated and gathered in at once, beside the rest of the
  // suite, starved each other past the task's time; the world's generation has its own tests on
  // every version (test/server/survival-world.test.ts, worldgen.test.ts).
  test.skipIf(!ON_DEFAULT_VERSION)(
    'a missing item is gathered from the survival world, at the forest spot drawn for the task',
    async () => {
      const task = await fixture('crafting_2_agents_missing.json', 'generated_crafting_wooden_pickaxe_14_1__depth_1_num_agents_2');
      const { result } = await play(task, ({ agents, origin }) => {
        // Both agents stand at the spot the result records, in the survival world.
        expect(agents[0]!.bot.entity.position.floored()).toMatchObject(origin);
        expect(origin.y).toBeGreaterThan(60); // dry land by sea level 63, not the superflat ground at -60
      });
      expect(result).toMatchObject({ success: true, score: 1, world: { kind: 'survival', holds_needs: true } });
      expect(result.world!.spot).toMatchObject({ biome: expect.stringMatching(/forest|taiga/) });
      expect(
        Object.values(result.commands)
          .flat()
          .some((c) => /^!collectBlocks\("\w+_log"/.test(c)),
      ).toBe(true);
    },
    180_000,
  );
});
