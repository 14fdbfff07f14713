/**
 * MINDcraft's task semantics as text: each agent's goal (collaborators, the > 2-agent crafting and
 * cooking instructions, the construction blueprint), the opening line, the commands blocked during
 * a task, and the human players' slots. The runs on the embedded server are in
 * test/e2e/task-semantics.test.ts.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentGoal, blockedActionsFor, cookingCollector, explainBlueprint, humanSlots, openingLine } from '../../src/tasks/goals.ts';
import { loadTask, TaskError } from '../../src/tasks/loader.ts';

const FIXTURES = path.resolve('test/fixtures/minecollab');
const players = (agents: string[], humans: string[] = []) => ({ agents, humans });

describe('agent goals', () => {
  test('two crafting agents: the task goal, then the collaborator by name (separated by a space)', async () => {
    const task = await loadTask(
      path.join(FIXTURES, 'crafting_2_agents.json'),
      'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0',
    );
    expect(agentGoal(task, 0, players(['Andy', 'Jill']))).toBe(
      'Collaborate with other agents to craft a compass You have to collaborate with other agents/bots, namely Jill to complete the task as soon as possible by dividing the work among yourselves.',
    );
    expect(agentGoal(task, 1, players(['Andy', 'Jill']))).toContain('namely Andy to complete');
  });

  test('one agent alone gets the bare goal; a human player makes it a team', async () => {
    const task = {
      ...(await loadTask(
        path.join(FIXTURES, 'crafting_2_agents.json'),
        'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0',
      )),
      agent_count: 1,
    };
    expect(agentGoal(task, 0, players(['Andy']))).toBe('Collaborate with other agents to craft a compass');
    expect(agentGoal({ ...task, human_count: 1, usernames: ['Alex'] }, 0, players(['Andy'], ['Alex']))).toContain(
      'namely Alex to complete',
    );
  });

  test('more than two crafting agents: share resources and talk to all of them', async () => {
    const task = await loadTask(
      path.join(FIXTURES, 'crafting_3_agents.json'),
      'multiagent_crafting_requires_ctable_dark_prismarine_0_with_plan__depth_0_num_agents_3',
    );
    const goal = agentGoal(task, 1, players(['Andy', 'Jill', 'Bob']));
    expect(goal).toContain('\nMake sure to share resources among all agents and to talk to all the agents using startConversation command');
    expect(goal).toContain('end current conversation with any agent using endConversation command');
    expect(goal).toMatch(/namely Andy, Bob to complete/);
  });

  test("cooking: more than two agents bring everything to Andy; two agents to one single bot; Hell's Kitchen neither", async () => {
    const task = await loadTask(path.join(FIXTURES, 'cooking_3_agents.json'), 'multiagent_cooking_2_1_bread_1_golden_apple');
    const names = players(['Andy', 'Jill', 'Bob']);
    expect(agentGoal(task, 0, names)).toContain(
      '\nIn the end, all the food items should be given to you by other bots. Make sure to talk to all the agents',
    );
    expect(agentGoal(task, 2, names)).toContain(
      '\nIn the end, all the food items should be given to one single bot, Andy. Make sure to talk to all the agents',
    );
    expect(cookingCollector(['Jill', 'andy_2'])).toBe('andy_2');
    expect(cookingCollector(['Jill', 'Bob'])).toBe('Jill');
    const two = { ...task, agent_count: 2 };
    expect(agentGoal(two, 1, players(['Andy', 'Jill']))).toContain(
      '\nIn the end, all the food items should be given to one single bot. You have to collaborate',
    );
    expect(agentGoal({ ...two, id: 'x_hells_kitchen' }, 1, players(['Andy', 'Jill']))).not.toContain('In the end');
  });

  test('construction: the blueprint explained, lower levels first; the opening line explains it too', async () => {
    const task = await loadTask(path.join(FIXTURES, 'construction_tiny.json'), 'tiny_wall');
    const explained = 'Level 0: Start at coordinates X: 0, Y: -60, Z: 0; Level 1: Start at coordinates X: 0, Y: -59, Z: 0';
    expect(explainBlueprint(task.blueprint!)).toBe(explained);
    expect(agentGoal(task, 0, players(['Andy', 'Jill']), task.blueprint)).toBe(
      `Make a structure with the blueprint below \n${explained} \nmake sure to place the lower levels of the blueprint first You have to collaborate with other agents/bots, namely Jill to complete the task as soon as possible by dividing the work among yourselves.`,
    );
    expect(openingLine(task, task.blueprint)).toBe(`Let's share materials and make a structure with the blueprint \n${explained}`);
    expect(openingLine({ ...task, conversation: undefined })).toBeUndefined();
  });
});

describe('blocked actions and human players', () => {
  test("!endGoal with a goal, !endConversation with an opening conversation, over the task's own list", async () => {
    const task = await loadTask(
      path.join(FIXTURES, 'crafting_2_agents.json'),
      'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0',
    );
    expect(blockedActionsFor(task, 0)).toEqual(['!getCraftingPlan', '!endGoal', '!endConversation']);
    expect(blockedActionsFor(task, 1)).toEqual(['!endGoal', '!endConversation']);
    expect(blockedActionsFor({ ...task, conversation: undefined }, 1)).toEqual(['!endGoal']);
    expect(blockedActionsFor({ ...task, goal: '', conversation: undefined }, 1)).toEqual([]);
  });

  test("humans take the inventories after the agents'; a count that does not match the usernames is a TaskError", async () => {
    const task = await loadTask(
      path.join(FIXTURES, 'crafting_2_agents.json'),
      'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0',
    );
    const withHuman = { ...task, human_count: 1, usernames: ['Alex'], initial_inventory: { ...task.initial_inventory, 2: { oak_log: 3 } } };
    expect(humanSlots(withHuman)).toEqual([{ username: 'Alex', inventory: { oak_log: 3 } }]);
    expect(humanSlots(task)).toEqual([]);
    expect(() => humanSlots({ ...task, human_count: 2, usernames: ['Alex'] })).toThrow(TaskError);
    expect(() => humanSlots({ ...task, human_count: 2, usernames: ['Alex'] })).toThrow(/human_count is 2 but usernames lists 1/);
  });
});
