/**
 * A task's set-up that does not finish says that it timed out, and asks whether the bot is an
 * operator only when the server refused its commands: on the embedded server, an operator bot
 * facing a blueprint larger than it can see, and the same bot once de-opped.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { OracleModel } from '../../src/oracle/model.ts';
import { assignTasks, setUp } from '../../src/app/task-setup.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { taskSchema, type LoadedTask } from '../../src/tasks/schema.ts';
import { testSettings } from '../helpers/version.ts';
import { serverPlayer } from '../helpers/world.ts';

let running: RunningBots;

beforeAll(async () => {
  running = await startAgents({
    settings: testSettings({ chat_bot_messages: false, goal_idle_ms: 600_000 }),
    profiles: [profileSchema.parse({ name: 'Andy' })],
    port: 0,
    log: () => {},
  });
}, 60_000);

afterAll(async () => {
  await running?.close();
});

const task = (fields: Record<string, unknown>): LoadedTask => ({
  ...taskSchema.parse({ goal: 'x', agent_count: 1, ...fields }),
  id: 'setup_test',
  file: 'setup_test.json',
});
const options = () => ({ log: () => {}, humansTimeoutMs: 1_000, signal: new AbortController().signal, stepTimeoutMs: 1_000 });

test('an operator whose construction site is larger than it can see is told the set-up timed out, not asked whether it is an operator', async () => {
  expect(serverPlayer(running.server!, 'Andy').op).not.toBe(false);
  const { x, z } = running.agents[0]!.bot.entity.position.floored();
  // One row of 800 blocks: its far end lies in chunks the bot never loads, so the site never looks clear.
  const huge = task({
    type: 'construction',
    blueprint: { materials: {}, levels: [{ level: 0, coordinates: [x, -60, z], placement: [Array(800).fill('air')] }] },
  });
  await expect(setUp(huge, running.agents, [], options())).rejects.toThrow(
    /^set-up timed out after 1 s: the construction site was not cleared$/,
  );
});

test('a bot the server refuses commands to is told so: the set-up timed out, the refusal, and the operator question', async () => {
  await running.server!.serv.handleCommand('deop Andy');
  expect(serverPlayer(running.server!, 'Andy').op).toBe(false);
  const crafting = task({ type: 'techtree', target: 'stick', initial_inventory: { 0: { oak_planks: 2 } } });
  await expect(setUp(crafting, running.agents, [], options())).rejects.toThrow(
    /^set-up timed out after 1 s: Andy's initial inventory did not arrive \(wanted \{"oak_planks":2\}\) \(the server refused a set-up command: "You do not have permission to use this command"; is the bot an operator on this server\?\)$/,
  );
});

test("a survival task's agents are told the animals and ores its spot holds (they wander out of sight; they lie deep), and no others", () => {
  const andy = running.agents[0]!;
  const crafting = task({ type: 'techtree', target: 'cake', number_of_target: 1, initial_inventory: { 0: { bucket: 1 } } });
  assignTasks(crafting, [andy], undefined, { agents: ['Andy'], humans: [] }, {}, { mobs: ['cow'], ores: ['iron_ore'] });
  expect(andy.task?.mobsNearby).toEqual(['cow']);
  expect(andy.task?.oresNearby).toEqual(['iron_ore']);
  // The offline policy plans with them: on this superflat world no iron is within reach otherwise.
  expect(new OracleModel(andy).observe().reachable).toContain('iron_ore');
  assignTasks(crafting, [andy], undefined, { agents: ['Andy'], humans: [] }, {});
  expect(andy.task?.mobsNearby).toBeUndefined();
  expect(andy.task?.oresNearby).toBeUndefined();
  expect(new OracleModel(andy).observe().reachable).not.toContain('iron_ore');
});
