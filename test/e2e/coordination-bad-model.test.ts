/**
 * End to end: a model that answers every role badly (a decomposition with a cycle, an assignment
 * of a task that does not exist, a reflection cut off mid-JSON, prose for the agents' own loop),
 * through the OpenAI wire protocol, on the embedded server, with each graph strategy: the run ends
 * by the strategy's own stop condition with one result line, the reasons are in `graph.jsonl`, and
 * the planner's calls are counted by role.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadTaskProfiles, runTask } from '../../src/app/run-task.ts';
import { assignRole, decomposeRole, dependencyRole, reflectRole } from '../../src/coordination/roles/index.ts';
import type { GraphEvent, RequestEvent } from '../../src/tasks/eval/records.ts';
import { startFakeProvider, type FakeChatCall, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { fixture } from '../helpers/oracle-teams.ts';
import { testSettings } from '../helpers/version.ts';

let fake: FakeProviderServer;
const dirs: string[] = [];

/** Every answer wrong in its own way. */
function badly(call: FakeChatCall): string {
  switch (call.system) {
    case decomposeRole.system:
      return '[{"id": 1, "description": "Gather stone", "required_subtasks": [2]}, {"id": 2, "description": "Craft stairs", "required_subtasks": [1]}]';
    case assignRole.system:
      return '[{"reason": "why not", "task_id": "9.9", "agent": "Andy"}]';
    case reflectRole.system:
      return '{"summary": "I did it", "task_status": tr';
    case dependencyRole.system:
      return '{"causal effect": [{"chosen_node": "1.1", "target_node": "1.1"}]}';
    default:
      return 'I am not sure what to do here.';
  }
}

beforeAll(async () => {
  fake = await startFakeProvider('openai', { handler: badly });
});
afterAll(async () => {
  await fake.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe.each(['dag', 'causal'] as const)('%s with a model that answers every role badly', (coordination) => {
  test('the run ends with one result line, the reasons recorded', async () => {
    const task = await fixture('crafting_2_agents_depth_0.json', 'generated_crafting_stone_stairs_11_1__depth_0_num_agents_2');
    const folder = await mkdtemp(path.join(os.tmpdir(), `bad-${coordination}-`));
    dirs.push(folder);
    const result = await runTask({
      task: { ...task, timeout: 120 },
      settings: testSettings({ chat_bot_messages: false }),
      profiles: await loadTaskProfiles(path.resolve('profiles/tasks'), 2),
      model: fake.spec('gpt-test', 'openai'),
      env: fake.env,
      coordination,
      folder,
      log: () => {},
    });
    expect(result).toMatchObject({ coordination, success: false, end_reason: 'gave_up' });
    expect(result.error).toMatch(/^3 subtasks failed/);
    const graph = (await readFile(path.join(folder, 'graph.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as GraphEvent);
    const changes = graph.map((g) => g.change);
    // The decomposition's cycle was given back, then the fallback: one node for the whole task.
    expect(changes).toContainEqual(
      expect.stringMatching(
        /^fallback: one node for the whole task \(1\.all\), because the (decomposer|decomposition) failed: decompose: no usable answer after 3 tries: cycle: 1 → 2 → 1/,
      ),
    );
    // dag's controller: the assignment of a task that does not exist was given back, then the fallback decided.
    if (coordination === 'dag')
      expect(changes).toContainEqual(
        expect.stringMatching(
          /^1\.all to \w+ \(fallback: assign: no usable answer after 3 tries: task 9\.9 is not one of the tasks to assign/,
        ),
      );
    // The broken reflection failed the node, with why.
    expect(changes).toContainEqual(expect.stringMatching(/^1\.all failure: no reflection: reflect: no usable answer after 3 tries/));
    expect(changes.at(-1)).toMatch(/^gave up: 3 subtasks failed/);
    // The planner's calls, on agent 0's model, counted by role; the agents' own as `act`.
    const roles = result.metrics!.tokensByRole;
    expect(roles.decompose!.calls).toBeGreaterThanOrEqual(3);
    expect(roles.reflect!.calls).toBeGreaterThanOrEqual(3);
    expect(roles.act!.calls).toBeGreaterThan(0);
    const requests = (await readFile(path.join(folder, 'requests', 'Andy.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RequestEvent);
    expect(requests.filter((r) => r.purpose === 'decompose').length).toBe(roles.decompose!.calls);
  }, 120_000);
});
