/**
 * End to end: teams of oracle bots play MineCollab-format tasks on the embedded server, scored from
 * the bots' real inventories and the world's blocks. The tasks are generated ones kept in
 * test/fixtures/generated/ (written by `npm run generate` with fixed seeds), plus the issue's own
 * cases; nothing here needs ../shared.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { testSettings } from '../helpers/version.ts';
import { loadTask } from '../../src/tasks/loader.ts';
import type { LoadedTask } from '../../src/tasks/schema.ts';
import { loadTaskProfiles, runTask, type TaskReady } from '../../src/app/run-task.ts';
import type { OracleModel } from '../../src/models/oracle.ts';

const FIXTURES = path.resolve('test/fixtures/generated');
const settings = testSettings({ chat_bot_messages: false });

async function play(task: LoadedTask, onReady?: (ready: TaskReady) => void | Promise<void>) {
  const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), task.agent_count);
  let oracles: OracleModel[] = [];
  const result = await runTask({
    task, settings, profiles, model: 'oracle', log: () => {},
    onReady: async (ready) => {
      oracles = ready.agents.map((a) => a.model as OracleModel);
      await onReady?.(ready);
    },
  });
  return { result, oracles };
}

const fixture = (file: string, id: string) => loadTask(path.join(FIXTURES, file), id);

/** A hand-written crafting task in MineCollab's format. */
function craftingTask(id: string, target: string, inventories: Record<string, Record<string, number>>, extra: Partial<LoadedTask> = {}): LoadedTask {
  const agents = Object.keys(inventories).length;
  return {
    id, file: 'inline', type: 'techtree', goal: `Collaborate with other agents to craft an ${target}`, conversation: `Let's work together to craft an ${target}.`,
    agent_count: agents, target, number_of_target: 1, timeout: 90, initial_inventory: inventories, blocked_actions: {}, ...extra,
  } as LoadedTask;
}

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

describe('cooking and construction with oracle teams', () => {
  test('cooking, 3 agents: bread and a baked potato from the farm and the smoker (generated, seed 22)', async () => {
    const { result } = await play(await fixture('cooking_3_agents.json', 'generated_cooking_3_1_bread_1_baked_potato_22_2'));
    expect(result).toMatchObject({ success: true, score: 1 });
    const all = Object.values(result.commands).flat();
    expect(all).toEqual(expect.arrayContaining(['!craftRecipe("bread", 1)', '!smeltItem("potato", 1)']));
  }, 300_000);

  test('Hell\'s Kitchen: each agent makes its own dish (generated, seed 23)', async () => {
    const { result } = await play(await fixture('cooking_2_agents_hells_kitchen.json', 'generated_cooking_cooked_porkchop_baked_potato_23_2_hells_kitchen'));
    expect(result).toMatchObject({ success: true, score: 1 });
  }, 300_000);

  test('construction, 2 agents: both place blocks, bottom level first, score 1 (generated, seed 31)', async () => {
    const { result } = await play(await fixture('construction_2_agents.json', 'generated_construction_4x3x2_31_1_num_agents_2'));
    expect(result).toMatchObject({ success: true, score: 1 });
    for (const name of result.agents) expect(result.commands[name]!.some((c) => c.startsWith('!placeBlockAt'))).toBe(true);
  }, 300_000);
});
