/**
 * MINDcraft's task semantics on the embedded server, one rule per test: the goal loop and its
 * text, the > 2-agent instructions, the construction blueprint explanation, the commands blocked
 * during a task, `restrict_to_inventory`, the missing-agent rule, human players, bad input before
 * anything starts, and the run record (tokens and cost included, through a fake provider).
 *
 * The tests share one server the file owns, joined as an external server (as a user's would be).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Agent } from '../../src/agent/agent.ts';
import type { AgentControl, CommandContext } from '../../src/commands/context.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { ConfigError } from '../../src/settings/index.ts';
import { loadTask, TaskError } from '../../src/tasks/loader.ts';
import type { LoadedTask } from '../../src/tasks/schema.ts';
import { runFolderOf, loadTaskProfiles, runTask, type TaskReady, type TaskRunOptions } from '../../src/app/run-task.ts';
import { botCount, connectBot, startTestServer, waitUntil } from '../helpers/world.ts';
import { startFakeProvider } from '../helpers/fake-providers.ts';
import { testSettings } from '../helpers/version.ts';

const FIXTURES = path.resolve('test/fixtures/minecollab');
const CRAFTING = path.join(FIXTURES, 'crafting_2_agents.json');
const COMPASS = 'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0';

let server: EmbeddedServer;
let out: string;
beforeAll(async () => {
  server = await startTestServer();
  out = await mkdtemp(path.join(tmpdir(), 'mc-semantics-'));
}, 30_000);
afterAll(async () => {
  await server?.close();
  await rm(out, { recursive: true, force: true });
});

const settings = () => testSettings({ chat_bot_messages: false, server: 'external', host: server.host, port: server.port });

async function run(file: string, id: string, patch: Partial<LoadedTask>, options: Partial<TaskRunOptions> = {}) {
  const task = { ...(await loadTask(file, id)), ...patch };
  const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), task.agent_count);
  return runTask({ task, settings: settings(), profiles, log: () => {}, botsDir: path.join(out, 'bots'), ...options });
}

/** What the command `name` of `agent` answers, run directly. */
async function perform(
  agent: Agent,
  name: string,
  args: Record<string, unknown>,
  control: AgentControl = agent,
): Promise<string | undefined> {
  const ctx: CommandContext = { bot: agent.bot, data: agent.data, signal: AbortSignal.timeout(5_000), agent: control };
  return (await agent.commands.get(name)!.perform(ctx, args as never)).text;
}

/** Nobody holds redstone: the compass cannot be made, so the run lasts. */
const UNSOLVABLE = { initial_inventory: { 0: { iron_ingot: 2 }, 1: { iron_ingot: 2, crafting_table: 1 } } };

describe('goal loop, blocked commands and the run record', () => {
  test("2-agent crafting: goal loops with MINDcraft's text, !endGoal and !endConversation blocked, a complete record and run folder", async () => {
    const folder = runFolderOf(out, 'compass/1');
    let checked = false;
    const result = await run(
      CRAFTING,
      COMPASS,
      { timeout: 60 },
      {
        runId: 'compass/1',
        folder,
        onPlaying: ({ agents }) => {
          for (const agent of agents) {
            expect(agent.selfPrompter.state).not.toBe('stopped');
            expect(agent.selfPrompter.goal).toContain('You have to collaborate with other agents/bots, namely');
            expect(agent.commands.get('!endGoal')).toBeUndefined();
            expect(agent.commands.get('!endConversation')).toBeUndefined();
            expect(agent.commands.get('!startConversation')).toBeDefined();
          }
          // The task blocks !getCraftingPlan for agent 0 only.
          expect(agents[0]!.commands.get('!getCraftingPlan')).toBeUndefined();
          expect(agents[1]!.commands.get('!getCraftingPlan')).toBeDefined();
          checked = true;
        },
      },
    );
    expect(checked).toBe(true);
    expect(result).toMatchObject({
      run_id: 'compass/1',
      task_id: COMPASS,
      task_file: CRAFTING,
      episode: 1,
      type: 'techtree',
      agent_count: 2,
      human_count: 0,
      depth: 0,
      missing_items: [],
      blocked_actions: { 0: ['!getCraftingPlan'] },
      plan_access: 'partial',
      success: true,
      score: 1,
      end_reason: 'success',
      models: { Andy: 'oracle', Jill: 'oracle' },
      cost_usd: 0,
    });
    expect(result.goals.Andy).toBe(
      'Collaborate with other agents to craft a compass You have to collaborate with other agents/bots, namely Jill to complete the task as soon as possible by dividing the work among yourselves.',
    );
    expect(result.setup_s).toBeGreaterThan(0);
    expect(result.play_s).toBeGreaterThan(0);
    expect(result.setup_s + result.play_s).toBeCloseTo(result.duration_s, 0);
    expect(result.messages_sent).toBeGreaterThanOrEqual(1);
    expect(result.per_agent.Jill!.messages_received).toBeGreaterThanOrEqual(1);
    expect(result.commands_run).toBe(result.commands.Andy!.length + result.commands.Jill!.length);
    expect(result.requests).toBeGreaterThanOrEqual(2);

    const saved = JSON.parse(await readFile(path.join(folder, 'result.json'), 'utf8'));
    expect(saved).toEqual(result);
    const inventories = JSON.parse(await readFile(path.join(folder, 'inventories.json'), 'utf8'));
    expect(inventories.Jill.compass).toBe(1);
    const lines = async (f: string) =>
      (await readFile(path.join(folder, f), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const requests = await lines('requests/Jill.jsonl');
    expect(requests[0]).toMatchObject({ type: 'request', agent: 'Jill', model: 'oracle', purpose: 'conversing' });
    expect(requests[0].system).toContain('Jill');
    expect(requests[0].turns.length).toBeGreaterThan(0);
    const commands = await lines('commands.jsonl');
    expect(commands.map((c) => c.command)).toContain('!craftRecipe("compass", 1)');
    expect(commands.every((c) => typeof c.t === 'number' && typeof c.ms === 'number' && typeof c.ok === 'boolean')).toBe(true);
    // Each with its outcome code: the craft that made the compass succeeded.
    expect(commands.find((c) => c.command === '!craftRecipe("compass", 1)')).toMatchObject({ ok: true, code: 'ok' });
    expect(commands.every((c) => typeof c.code === 'string' && c.ok === (c.code === 'ok'))).toBe(true);
    expect((await lines('messages.jsonl'))[0]).toMatchObject({
      agent: 'Andy',
      direction: 'sent',
      peer: 'Jill',
      text: "Let's work together to craft a compass.",
    });
  }, 90_000);

  test('more than two crafting agents: share resources and talk to all; every collaborator named', async () => {
    const result = await run(
      path.join(FIXTURES, 'crafting_3_agents.json'),
      'multiagent_crafting_requires_ctable_dark_prismarine_0_with_plan__depth_0_num_agents_3',
      { timeout: 2 },
    );
    expect(result.agents).toEqual(['Andy', 'Jill', 'Bob']);
    expect(result.goals.Jill).toContain(
      '\nMake sure to share resources among all agents and to talk to all the agents using startConversation command',
    );
    expect(result.goals.Jill).toContain('namely Andy, Bob to complete the task');
    expect(result.error).toBeUndefined();
  }, 60_000);

  test('construction: the blueprint (as placed) explained in every goal and the opening line, lower levels first; the final diff kept', async () => {
    const folder = runFolderOf(out, 'tiny/1');
    const result = await run(path.join(FIXTURES, 'construction_tiny.json'), 'tiny_wall', { timeout: 2 }, { runId: 'tiny/1', folder });
    expect(result.goals.Jill).toMatch(
      /^Make a structure with the blueprint below \nLevel 0: Start at coordinates X: 0, Y: -?\d+, Z: 0; Level 1: Start at coordinates X: 0, Y: -?\d+, Z: 0 \nmake sure to place the lower levels of the blueprint first You have to collaborate/,
    );
    expect(result).toMatchObject({ type: 'construction', score: 0, end_reason: 'timeout' });
    const opening = JSON.parse((await readFile(path.join(folder, 'messages.jsonl'), 'utf8')).split('\n')[0]!);
    expect(opening.text).toMatch(/^Let's share materials and make a structure with the blueprint \nLevel 0: Start at coordinates/);
    const diff = await readFile(path.join(folder, 'blueprint-diff.txt'), 'utf8');
    expect(diff.trim().split('\n')).toHaveLength(4);
    expect(diff).toMatch(/^Place stone at \(0, -?\d+, 0\)/);
  }, 60_000);
});

describe('restrict_to_inventory, missing agents, bad input', () => {
  test('restrict_to_inventory: !getCraftingPlan plans from the inventory and names what to ask the others for', async () => {
    let restricted = '';
    let free = '';
    await run(
      CRAFTING,
      COMPASS,
      { ...UNSOLVABLE, timeout: 2, restrict_to_inventory: true },
      {
        onPlaying: async ({ agents }) => {
          const jill = agents[1]!;
          expect(jill.task?.restrictToInventory).toBe(true);
          restricted = (await perform(jill, '!getCraftingPlan', { targetItem: 'stick', quantity: 4 }))!;
          free = (await perform(jill, '!getCraftingPlan', { targetItem: 'stick', quantity: 4 }, {
            task: undefined,
          } as unknown as AgentControl))!;
        },
      },
    );
    // Without the restriction the plan goes down to logs to gather; with it, planks to get from the others.
    expect(free).toMatch(/missing: 1 \w+_log/);
    expect(restricted).toMatch(/missing: 2 \w+_planks/);
    expect(restricted).not.toMatch(/_log/);
    expect(restricted).toContain('You are restricted to your inventory');
  }, 60_000);

  test('an agent off the server for the missing-agent time ends the run with score 0 and the reason', async () => {
    const result = await run(
      CRAFTING,
      COMPASS,
      { ...UNSOLVABLE, timeout: 60 },
      {
        missingAgentMs: 1_500,
        onPlaying: ({ agents }) => {
          agents[1]!.bot.quit();
        },
      },
    );
    expect(result).toMatchObject({ score: 0, success: false, end_reason: 'missing_agent' });
    expect(result.error).toMatch(/No other agents found: Jill has been off the server/);
    expect(result.play_s).toBeLessThan(30);
  }, 60_000);

  test('bad input rejects before any bot joins: a human count that does not match usernames, a model that cannot be used', async () => {
    // The bots of the earlier runs have left.
    await waitUntil(() => server.serv.players.length === 0, 'the server is empty');
    await expect(run(CRAFTING, COMPASS, { human_count: 2, usernames: ['Alex'] })).rejects.toThrow(TaskError);
    await expect(run(CRAFTING, COMPASS, { initial_inventory: { 0: { rose_red: 1 } } })).rejects.toThrow(/"rose_red" is not an item/);
    const unusable = run(CRAFTING, COMPASS, {}, { model: 'anthropic/claude-sonnet-4-5', env: {} });
    await expect(unusable).rejects.toThrow(ConfigError);
    await expect(unusable).rejects.toThrow(
      /--model cannot use model "anthropic\/claude-sonnet-4-5".*set ANTHROPIC_API_KEY.*never fall back to the offline oracle/,
    );
    await expect(run(CRAFTING, COMPASS, {}, { model: 'gtp-4o', env: {} })).rejects.toThrow(/closest valid spellings: "openai\/gpt-4o"/);
    expect(server.serv.players.length).toBe(0);
  }, 30_000);
});

describe('human players', () => {
  test('waited for, given their inventory (index agent_count + i), brought to the bots and whispered their goal', async () => {
    const alex = await connectBot(server, 'Alex');
    const whispers: string[] = [];
    alex.on('whisper', (_from: string, text: string) => {
      whispers.push(text);
    });
    alex.chat('/tp Alex 60 -60 60');
    await waitUntil(() => alex.entity.position.x > 50, 'Alex walks off');
    let near = false;
    try {
      const result = await run(
        CRAFTING,
        COMPASS,
        {
          ...UNSOLVABLE,
          timeout: 3,
          human_count: 1,
          usernames: ['Alex'],
          initial_inventory: { ...UNSOLVABLE.initial_inventory, 2: { oak_log: 3 } },
        },
        {
          onPlaying: ({ agents }: TaskReady) => {
            near = agents[0]!.bot.entity.position.distanceTo(alex.entity.position) < 6;
          },
        },
      );
      expect(near).toBe(true);
      expect(result.human_count).toBe(1);
      expect(result.goals.Andy).toContain('namely Jill, Alex to complete');
      await waitUntil(() => botCount(alex, 'oak_log') === 3, 'Alex holds 3 oak_log');
      await waitUntil(() => whispers.some((w) => w.includes('Your goal')), 'Alex hears the goal');
      expect(whispers.join(' ')).toMatch(/Your goal: Collaborate with other agents to craft a compass You play with Andy, Jill/);
    } finally {
      alex.quit();
    }
  }, 60_000);

  test('a human player who does not join within --humans-timeout ends the run as a missing agent', async () => {
    const result = await run(CRAFTING, COMPASS, { human_count: 1, usernames: ['Zed'] }, { humansTimeoutMs: 1_000 });
    expect(result).toMatchObject({ score: 0, end_reason: 'missing_agent' });
    expect(result.error).toMatch(/Zed did not join within 1 s/);
  }, 60_000);
});

describe('records of a real provider', () => {
  test('tokens from the usage fields and their cost by the price table', async () => {
    const fake = await startFakeProvider('openai', { handler: () => 'Hello, I am thinking.' });
    try {
      const folder = runFolderOf(out, 'fake/1');
      const result = await run(
        CRAFTING,
        COMPASS,
        { ...UNSOLVABLE, timeout: 3 },
        { model: fake.spec('gpt-4o-mini', 'openai'), env: fake.env, runId: 'fake/1', folder },
      );
      expect(result.models).toEqual({ Andy: 'openai/gpt-4o-mini', Jill: 'openai/gpt-4o-mini' });
      expect(result.tokens.input).toBeGreaterThan(0);
      expect(result.tokens.output).toBeGreaterThan(0);
      // gpt-4o-mini: $0.15 in, $0.60 out per million tokens; each agent's cost is rounded to the
      // micro-dollar (two agents: within about 1e-6 of the exact sum).
      expect(Math.abs(result.cost_usd! - (result.tokens.input * 0.15 + result.tokens.output * 0.6) / 1e6)).toBeLessThan(1.5e-6);
      const first = JSON.parse((await readFile(path.join(folder, 'requests', 'Andy.jsonl'), 'utf8')).split('\n')[0]!);
      expect(first.usage.input).toBeGreaterThan(0);
      expect(first.reply).toBe('Hello, I am thinking.');
    } finally {
      await fake.close();
    }
  }, 60_000);
});

describe('cooking with more than two agents', () => {
  test('all food ends with Andy: Andy is told to collect it, the others to bring it to Andy', async () => {
    const result = await run(path.join(FIXTURES, 'cooking_3_agents.json'), 'multiagent_cooking_2_1_bread_1_golden_apple', { timeout: 2 });
    expect(result.goals.Andy).toContain(
      '\nIn the end, all the food items should be given to you by other bots. Make sure to talk to all the agents',
    );
    expect(result.goals.Bob).toContain('\nIn the end, all the food items should be given to one single bot, Andy.');
    expect(result.error).toBeUndefined();
  }, 90_000);
});
