/**
 * The graph strategies' planner roles through the real provider clients against fake providers
 * speaking the real wire protocols (OpenAI Chat Completions, Anthropic Messages), scripted per role
 * (told apart by the system prompt): bad answers are given back with what was wrong and retried, a
 * model that hangs is cut at the role's bound, and each failure's fallback is recorded with its
 * reason; the run always ends. The team is scripted (no Minecraft server).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { runCausal } from '../../src/coordination/causal-strategy.ts';
import { runDag } from '../../src/coordination/dag.ts';
import { counterfactualRole, decomposeRole, dependencyPairRole, dependencyRole, reflectRole } from '../../src/coordination/roles/index.ts';
import { createModel } from '../../src/models/index.ts';
import { startFakeProvider, type FakeChatCall, type FakeProviderServer, type FakeReply } from '../helpers/fake-providers.ts';
import { FakeTeam } from './fake-team.ts';

let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Two agents, each running one command per order. */
function team(): FakeTeam {
  const t = new FakeTeam({
    Alice: { inventory: {}, task: { targets: { oak_planks: 4 } } },
    Bob: { inventory: {}, task: { targets: { oak_planks: 4 } } },
  });
  t.behaviour = (m) => m.outcome('!collectBlocks', { block: 'oak_log', n: 1 }, true);
  return t;
}

/** The calls the fake received for the role whose system prompt is `system`. */
const callsOf = (server: FakeProviderServer, system: string) =>
  server.requests.filter((r) => r.call?.system === system).map((r) => r.call!);

describe('dag over the OpenAI wire protocol', () => {
  test('prose and an unknown agent are given back; a hung reflection is cut at its bound and the node fails with why', async () => {
    let reflections = 0;
    fake = await startFakeProvider('openai', {
      handler: (call: FakeChatCall): FakeReply => {
        if (call.system === decomposeRole.system) {
          if (call.messages.length === 1 && !/Succeeded so far:\n\(none\)/.test(call.lastUserMessage)) return '[]';
          if (call.messages.length === 1) return 'First Bob should gather logs, then Alice can craft.';
          if (call.messages.length === 3) return '```json\n[{"id": 1, "description": "Gather logs", "assigned agents": ["Zed"]}]\n```';
          return '[{"id": 1, "description": "Gather 2 oak_log", "assigned_agents": ["Bob"]}, {"id": 2, "description": "Craft planks", "assigned_agents": ["Alice"]}]';
        }
        if (call.system === reflectRole.system)
          return reflections++ === 0 ? { hang: true } : '{"reasoning": "the log is held", "summary": "got it", "task_status": "success"}';
        return '{"summary": "All is well."}';
      },
    });
    const model = createModel(fake.spec('gpt-test', 'openai'), { env: fake.env });
    const t = team();
    const end = await runDag(t.graphTeam({ planner: model }), { doneGraceMs: 0, roleTimeoutMs: 1_500 });
    expect(end).toEqual({ kind: 'gave_up', reason: 'the decomposer has nothing more to do, but the task is not done' });
    const decompose = callsOf(fake, decomposeRole.system);
    // The first round took three tries, each wrong answer given back with what was wrong.
    expect(decompose[1]!.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: 'First Bob should gather logs, then Alice can craft.',
    });
    expect(decompose[1]!.lastUserMessage).toMatch(/That answer cannot be used: the answer has no JSON/);
    expect(decompose[2]!.lastUserMessage).toMatch(/unknown agent Zed \(the team: Alice, Bob\)/);
    // One reflection hung (that node failed), the other judged its node done.
    expect(
      t
        .last()
        .nodes.map((n) => n.status)
        .sort(),
    ).toEqual(['failure', 'success']);
    expect(t.changes()).toContainEqual(
      expect.stringMatching(/^1\.[12] failure: no reflection: reflect: the model gave no answer within 1500 ms$/),
    );
    // The hung request was cut by the client, which never got an answer.
    const hung = fake.requests.find((r) => r.call?.system === reflectRole.system && r.answeredAt === undefined);
    expect(hung).toBeDefined();
  }, 30_000);
});

describe('causal over the Anthropic wire protocol', () => {
  test('an edge to an unknown step and a cut-off counterfactual are given back; the intervention removes the edge with ATE 0', async () => {
    fake = await startFakeProvider('anthropic', {
      handler: (call: FakeChatCall): FakeReply => {
        const retry = call.lastUserMessage.startsWith('That answer cannot be used');
        switch (call.system) {
          case decomposeRole.system:
            return '[{"id": 1, "description": "Gather 2 oak_log"}, {"id": 2, "description": "Craft 8 oak_planks"}]';
          case dependencyRole.system:
            if (retry) return '{"causal effect": [{"chosen_node": "1.1", "target_node": "1.2"}]}';
            return call.lastUserMessage.includes('deal with now: 1.1')
              ? '{"causal effect": [{"chosen_node": "7.7", "target_node": "1.1"}]}'
              : '{"causal effect": [{"chosen_node": "1.1", "target_node": "1.2"}]}';
          case counterfactualRole.system:
            return retry ? '{"counterfactual": "You can use items you do not hold."}' : '{"counterfactual": "You can use';
          case dependencyPairRole.system:
            // Yes under every rule set: no rule explains it.
            return 'I think so. {"depends": "yes"}';
          case reflectRole.system:
            return '{"summary": "done", "status": true}';
          default:
            return 'A calm field.';
        }
      },
    });
    const model = createModel(fake.spec('claude-test'), { env: fake.env });
    const t = team();
    const end = await runCausal(t.graphTeam({ planner: model }), { doneGraceMs: 0 });
    expect(end).toEqual({ kind: 'gave_up', reason: 'every path is done, but the task is not' });
    const dependency = callsOf(fake, dependencyRole.system);
    expect(dependency.find((c) => c.lastUserMessage.startsWith('That answer cannot be used'))!.lastUserMessage).toMatch(
      /step 7\.7 does not exist \(steps: 1\.1, 1\.2\)/,
    );
    const counterfactual = callsOf(fake, counterfactualRole.system);
    expect(counterfactual.filter((c) => c.lastUserMessage.startsWith('That answer cannot be used')).length).toBeGreaterThan(0);
    const edges = t.last().edges.map((e) => [e.from, e.to, e.origin]);
    expect(edges).toEqual([['1.1', '1.2', 'ate_removed']]);
    expect(t.last().nodes.every((n) => n.status === 'success')).toBe(true);
  }, 30_000);
});
