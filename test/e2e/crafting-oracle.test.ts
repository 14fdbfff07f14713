/**
 * End to end: teams of oracle bots play crafting tasks in MineCollab's format on the embedded
 * server, scored from the bots' real inventories.
 * The tasks are generated ones kept in test/fixtures/generated/ (written by `npm run generate`
 * with fixed seeds), plus the issue's own cases; nothing here needs ../shared.
 */
import { describe, expect, test } from 'vitest';
import { craftingTask, fixture, play } from '../helpers/oracle-teams.ts';

describe('crafting with oracle teams', () => {
  test('the issue\'s bread: the wheat goes to the agent with the table, who crafts', async () => {
    const { result } = await play(craftingTask('bread', 'bread', { 0: { wheat: 2, crafting_table: 1 }, 1: { wheat: 1 } }));
    expect(result).toMatchObject({ success: true, score: 1 });
    expect(result.commands.Jill).toEqual(['!givePlayer("Andy", "wheat", 1)']);
    expect(result.commands.Andy).toContain('!craftRecipe("bread", 1)');
  }, 120_000);

  test('three agents, depth 1, one may not craft (generated, seed 12)', async () => {
    const task = await fixture('crafting_3_agents_depth_1_blocked.json', 'generated_crafting_magenta_stained_glass_12_1__depth_1_num_agents_3');
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
        const check = () => { if (bot.findBlock({ matching: bot.registry.blocksByName.oak_log!.id, maxDistance: 16 })) { bot.off('blockUpdate', check); resolve(); } };
        bot.on('blockUpdate', check);
        check();
      });
    });
    expect(result).toMatchObject({ success: true, score: 1 });
    expect(Object.values(result.commands).flat().some((c) => c.startsWith('!collectBlocks("oak_log"'))).toBe(true);
  }, 180_000);

  test('an unsolvable task: said once with the reason, recorded by the oracle, run ends at its timeout', async () => {
    const { result, oracles } = await play(craftingTask('compass', 'compass', { 0: { iron_ingot: 2 }, 1: { iron_ingot: 2, crafting_table: 1 } }, { timeout: 6 }));
    expect(result).toMatchObject({ score: 0, success: false });
    expect(oracles.map((o) => o.unsolvable).filter(Boolean)[0]).toMatch(/redstone/);
    expect(result.unsolvable).toMatch(/redstone/);
    expect(Object.values(result.commands).flat().filter((c) => c.startsWith('!craftRecipe'))).toEqual([]);
  }, 60_000);
});
