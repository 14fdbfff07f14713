/**
 * End to end: oracle teams play generated crafting tasks on the embedded server: three agents
 * with a blocked crafter, and a missing item gathered from the world. A file apart from
 * test/e2e/crafting-oracle.test.ts so that the two run side by side.
 * The tasks are generated ones kept in test/fixtures/generated/; nothing here needs ../shared.
 */
import { describe, expect, test } from 'vitest';
import { fixture, play } from '../helpers/oracle-teams.ts';

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

  test('a missing item is gathered from the world (oak logs placed nearby)', async () => {
    const task = await fixture('crafting_2_agents_missing.json', 'generated_crafting_wooden_pickaxe_14_1__depth_1_num_agents_2');
    const { result } = await play(task, async ({ agents, origin }) => {
      const bot = agents[0]!.bot;
      bot.chat(`/fill ${origin.x + 4} ${origin.y} ${origin.z + 3} ${origin.x + 5} ${origin.y + 1} ${origin.z + 3} oak_log`);
      await new Promise<void>((resolve) => {
        const check = () => {
          if (bot.findBlock({ matching: bot.registry.blocksByName.oak_log!.id, maxDistance: 16 })) {
            bot.off('blockUpdate', check);
            resolve();
          }
        };
        bot.on('blockUpdate', check);
        check();
      });
    });
    expect(result).toMatchObject({ success: true, score: 1 });
    expect(
      Object.values(result.commands)
        .flat()
        .some((c) => c.startsWith('!collectBlocks("oak_log"')),
    ).toBe(true);
  }, 180_000);
});
