/**
 * End to end: MineCollab crafting tasks from the benchmark's own file, played by two oracle bots
 * on the embedded server, scored from the bots' real inventories.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { testSettings } from '../helpers/version.ts';
import { loadTask } from '../../src/tasks/loader.ts';
import { loadTaskProfiles, runTask } from '../../src/app/run-task.ts';

const FILE = path.resolve('../shared/minecollab/crafting_tasks/test_tasks/2_agent.json');
const settings = testSettings({ chat_bot_messages: false });

async function play(id: string) {
  const task = await loadTask(FILE, id);
  const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), task.agent_count);
  return runTask({ task: { ...task, timeout: 60 }, settings, profiles, log: () => {} });
}

describe('2-agent MineCollab crafting tasks with the oracle', () => {
  test('firework_rocket: a hand-over between the bots, crafted in the 2x2 grid', async () => {
    const result = await play('multiagent_crafting_firework_rocket_partial_plan__depth_0');
    expect(result).toMatchObject({ score: 1, success: true, agents: ['Andy', 'Jill'] });
    expect(result.commands.Andy).toContain('!givePlayer("Jill", "paper", 1)');
    expect(result.commands.Jill).toContain('!craftRecipe("firework_rocket", 3)');
    // getCraftingPlan is blocked for agent 0 in this task.
    expect(result.commands.Andy.some((c) => c.startsWith('!getCraftingPlan'))).toBe(false);
  }, 90_000);

  test('purple_banner: hand-over of two items, then a crafting table placed from the inventory', async () => {
    const result = await play('multiagent_crafting_purple_banner_full_plan_requires_ctable__depth_0');
    expect(result.success).toBe(true);
    expect(result.score).toBe(1);
    expect(result.commands.Andy).toEqual(['!givePlayer("Jill", "purple_wool", 3)', '!givePlayer("Jill", "stick", 1)']);
    expect(result.commands.Jill.at(-1)).toBe('!craftRecipe("purple_banner", 1)');
  }, 90_000);

  test('compass: a crafting-table recipe after a hand-over', async () => {
    const result = await play('multiagent_crafting_compass_partial_plan_requires_ctable__depth_0');
    expect(result).toMatchObject({ score: 1, success: true });
    expect(result.duration_s).toBeLessThan(60);
  }, 90_000);

  test('an unsolvable run ends at its timeout with score 0, not an error', async () => {
    const task = await loadTask(FILE, 'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0');
    const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), 2);
    // Nobody holds redstone: the compass cannot be made.
    const result = await runTask({
      task: { ...task, timeout: 4, initial_inventory: { 0: { iron_ingot: 2 }, 1: { iron_ingot: 2, crafting_table: 1 } } },
      settings, profiles, log: () => {},
    });
    expect(result).toMatchObject({ score: 0, success: false });
    expect(result.error).toBeUndefined();
    expect(result.duration_s).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
