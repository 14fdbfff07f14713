/**
 * The LLM roles with a fake model (no provider, no server): JSON read from what models really
 * write, bad answers given back and retried within the bound, typed failures (never a throw) for
 * answers that stay bad, a model that hangs, fails or is cancelled, and tokens counted per role.
 */
import { describe, expect, test } from 'vitest';
import { TaskGraph } from '../../src/coordination/graph.ts';
import {
  agentSummaryRole,
  assignRole,
  callRole,
  counterfactualRole,
  decomposeRole,
  dependencyRole,
  environmentSummaryRole,
  extractJson,
  reflectRole,
  RoleStats,
} from '../../src/coordination/roles/index.ts';
import { ModelError } from '../../src/models/types.ts';
import { FakeModel } from './fake-model.ts';

describe('JSON from what models write', () => {
  test('prose around it, fences, trailing commas, single quotes, Python literals', () => {
    expect(extractJson('Here is the plan:\n```json\n[{"id": 1, "description": "logs",},]\n```\nGood luck!', 'array')).toEqual({
      ok: true,
      value: [{ id: 1, description: 'logs' }],
    });
    expect(extractJson("Sure. {'summary': \"Bob's logs\", 'task_status': True, 'x': None}", 'object')).toEqual({
      ok: true,
      value: { summary: "Bob's logs", task_status: true, x: null },
    });
    // A bracket in the prose before the JSON is skipped; "True" inside a string is left alone.
    expect(extractJson('I [think] this works: {"summary": "True story", "ok": false}', 'object')).toEqual({
      ok: true,
      value: { summary: 'True story', ok: false },
    });
    // The expected kind wins over an earlier candidate of the other kind.
    expect(extractJson('Steps [1, 2]. Answer: {"depends": true}', 'object')).toEqual({ ok: true, value: { depends: true } });
  });

  test('no JSON, broken JSON and cut-off JSON are told apart', () => {
    expect(extractJson('I would first collect logs, then craft planks.')).toEqual({
      ok: false,
      reason: 'the answer has no JSON (no {…} object or […] list)',
    });
    const broken = extractJson('{"id": 1 "description": "x"}');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.reason).toMatch(/^the JSON does not parse: invalid character '\\"' at 1:10$/);
    const cut = extractJson('[{"id": 1, "description": "collect lo');
    expect(!cut.ok && cut.reason).toMatch(/the JSON is cut off: a bracket or brace is never closed/);
  });
});

const team = ['Alice', 'Bob'];

describe('decompose', () => {
  test("VillagerAgent's own key spellings, in prose and a fence, become subtasks", async () => {
    const graph = new TaskGraph({ agents: team });
    const model = FakeModel.script([
      `Let me think. The cake needs wheat and sugar.
\`\`\`json
[
  {"id": 1, "description": "Harvest 3 wheat", "milestones": ["reach the farm"], "retrieval paths": ["~/meta-data/ingredients/0"], "required subtasks": [], "candidate agents": ["Alice"]},
  {"id": 2, "description": "Craft 2 sugar", "milestones": "hold 2 sugar", "retrieval paths": [], "required subtasks": [], "assigned agents": "Bob", "number": 1},
]
\`\`\``,
    ]);
    const data = { 'meta-data': { ingredients: ['wheat', 'sugar'] } };
    const r = await callRole(decomposeRole, { task: 'Make a cake', graph, data }, { model });
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    if (!r.ok) return;
    expect(r.value).toEqual([
      {
        id: '1',
        description: 'Harvest 3 wheat',
        milestones: ['reach the farm'],
        retrievalPaths: ['~/meta-data/ingredients/0'],
        requires: [],
        candidates: ['Alice'],
      },
      {
        id: '2',
        description: 'Craft 2 sugar',
        milestones: ['hold 2 sugar'],
        retrievalPaths: [],
        requires: [],
        candidates: ['Bob'],
        number: 1,
      },
    ]);
    expect(graph.addRound(r.value).ok).toBe(true);
    // The prompt shows the team, the data's paths and the bound on subtasks.
    const prompt = model.lastUser(0);
    expect(prompt).toContain('The agents: Alice, Bob');
    expect(prompt).toContain('- ~/meta-data/ingredients: list of 2');
    expect(prompt).toContain('Give at most 2 subtasks, as a JSON list.');
  });

  test('an unknown agent, then a cycle, are given back; the third answer is used', async () => {
    const graph = new TaskGraph({ agents: team });
    const model = FakeModel.script([
      '[{"id": 1, "description": "logs", "assigned_agents": ["Carol"]}]',
      '[{"id": 1, "description": "logs", "required_subtasks": [2]}, {"id": 2, "description": "planks", "required_subtasks": [1]}]',
      '[{"id": 1, "description": "logs"}, {"id": 2, "description": "planks", "required_subtasks": [1]}]',
    ]);
    const stats = new RoleStats();
    const r = await callRole(decomposeRole, { task: 'a pickaxe', graph }, { model, stats });
    expect(r).toMatchObject({ ok: true, attempts: 3 });
    expect(model.lastUser(1)).toContain('That answer cannot be used: subtask 1: unknown agent Carol (the team: Alice, Bob).');
    expect(model.lastUser(2)).toContain('cycle: 1 → 2 → 1');
    // Each retry carries the conversation so far: prompt, bad answer, problem.
    expect(model.requests[2]!.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(stats.get('decompose')).toMatchObject({ calls: 3, retries: 2, failures: 0, input: 300, cachedInput: 60, output: 30 });
  });

  test('an empty plan, a plan too long, and unknown node ids end in a typed failure after the retries', async () => {
    const graph = new TaskGraph({ agents: team });
    const empty = await callRole(decomposeRole, { task: 't', graph }, { model: FakeModel.script(['[]']) });
    expect(empty).toMatchObject({
      ok: false,
      kind: 'invalid',
      attempts: 3,
      reason: 'decompose: no usable answer after 3 tries: the list is empty: give at least one subtask',
    });
    expect((await callRole(decomposeRole, { task: 't', graph, allowEmpty: true }, { model: FakeModel.script(['[]']) })).ok).toBe(true);

    const three =
      '[{"id": 1, "description": "a"}, {"id": 2, "description": "b"}, {"id": 3, "description": "c", "required_subtasks": ["7.1"]}]';
    const long = await callRole(decomposeRole, { task: 't', graph }, { model: FakeModel.script([three]), retries: 0 });
    expect(long).toMatchObject({
      ok: false,
      attempts: 1,
      reason:
        'decompose: no usable answer after 1 try: 3 subtasks, but at most 2 may be given; subtask 3 requires 7.1, which is neither a subtask of this answer nor a node of the graph',
    });
  });

  test('prose without JSON and broken JSON are given back with what was wrong', async () => {
    const graph = new TaskGraph({ agents: team });
    const model = FakeModel.script([
      'First Alice collects logs, then Bob crafts.',
      '[{"id": 1 "description": "logs"}]',
      '{"description": "logs"}',
    ]);
    const r = await callRole(decomposeRole, { task: 't', graph }, { model });
    expect(model.lastUser(1)).toContain('the answer has no JSON');
    expect(model.lastUser(2)).toContain('the JSON does not parse');
    expect(r).toMatchObject({ ok: false, kind: 'invalid', attempts: 3 });
    expect(!r.ok && r.reason).toContain('[0].id: an id (a number or a string) is needed');
  });

  test('a retrieval path that finds nothing in the task data is a problem', async () => {
    const graph = new TaskGraph({ agents: team });
    const data = { 'meta-data': { blueprint: [] } };
    const r = await callRole(
      decomposeRole,
      { task: 't', graph, data },
      {
        model: FakeModel.script(['[{"id": 1, "description": "a", "retrieval_paths": ["~/recipes/0"]}]']),
        retries: 0,
      },
    );
    expect(!r.ok && r.reason).toContain('subtask 1: retrieval path ~/recipes/0: ~ has no key "recipes" (keys: meta-data)');
  });
});

describe('assign', () => {
  const offer = () => {
    const graph = new TaskGraph({ agents: ['Alice', 'Bob', 'Carol'] });
    graph.addRound([
      { id: '1', description: 'sticks' },
      { id: '2', description: 'wall', candidates: ['Alice', 'Bob'], number: 2 },
    ]);
    return { nodes: graph.ready(), free: ['Alice', 'Bob', 'Carol'] };
  };

  test('unknown node ids and agents, an agent twice, a wrong count: given back, then used', async () => {
    const model = FakeModel.script([
      '[{"reason": "x", "task_id": "1.9", "agent": "Dave"}, {"reason": "y", "task_id": "1.2", "agent": "Alice"}, {"reason": "z", "task_id": "1.1", "agent": "Alice"}]',
      '```json\n[{"reason": "Carol is idle", "task_id": "1.1", "agent": "Carol"}, {"reason": "both near the wall", "task_id": 1.2, "agents": ["Alice", "Bob"]}]\n```',
    ]);
    const r = await callRole(assignRole, { offer: offer() }, { model });
    expect(model.lastUser(1)).toContain(
      'That answer cannot be used: task 1.9 is not one of the tasks to assign (1.1, 1.2); task 1.2 needs 2 agents, the answer gives 1; Alice is assigned twice (tasks 1.2 and 1.1)',
    );
    expect(r).toMatchObject({ ok: true, attempts: 2 });
    expect(r.ok && r.value).toEqual([
      { nodeId: '1.1', agents: ['Carol'], reason: 'Carol is idle' },
      { nodeId: '1.2', agents: ['Alice', 'Bob'], reason: 'both near the wall' },
    ]);
    expect(model.lastUser(0)).toContain('1.2: wall (needs 2 agents; free candidates: Alice, Bob)');
  });

  test('an empty answer while a task can be done is not accepted', async () => {
    const r = await callRole(assignRole, { offer: offer() }, { model: FakeModel.script(['[]']), retries: 1 });
    expect(r).toMatchObject({ ok: false, kind: 'invalid', attempts: 2 });
    expect(!r.ok && r.reason).toContain('no task was assigned, yet 1.1, 1.2 can be done by Alice, Bob, Carol');
  });
});

describe('reflect', () => {
  test("both papers' shapes and the ways models write a status", async () => {
    const answers = [
      '{"reasoning": "got them", "summary": "Collected 3 oak_log at (1, -60, 2).", "task_status": true}',
      '{"summary": "No logs nearby.", "status": "failed"}',
      "Result: {'reasoning': 'ok', 'summary': 'Placed 4 stone.', 'task_status': True}",
      '{"Summary": "Gave 2 stick to Bob.", "Task Status": "completed"}',
    ];
    const results = [];
    for (const a of answers)
      results.push(await callRole(reflectRole, { task: 't', history: ['!collectBlocks("oak_log", 3)'] }, { model: FakeModel.script([a]) }));
    expect(results.map((r) => r.ok && r.value)).toEqual([
      { success: true, summary: 'Collected 3 oak_log at (1, -60, 2).', reasoning: 'got them' },
      { success: false, summary: 'No logs nearby.' },
      { success: true, summary: 'Placed 4 stone.', reasoning: 'ok' },
      { success: true, summary: 'Gave 2 stick to Bob.' },
    ]);
  });

  test('a reflection without a status is given back', async () => {
    const model = FakeModel.script(['{"summary": "did things"}', '{"summary": "did things", "task_status": false}']);
    const r = await callRole(reflectRole, { task: 't', history: [] }, { model });
    expect(model.lastUser(1)).toContain('task_status: task_status (true or false) is needed');
    expect(r.ok && r.value).toEqual({ success: false, summary: 'did things' });
  });
});

describe('summarise', () => {
  test('a JSON summary, or plain prose taken as the summary; both count as summarise', async () => {
    const stats = new RoleStats();
    const model = FakeModel.script(['{"summary": "I collected 3 oak_log."}']);
    const a = await callRole(
      agentSummaryRole,
      { name: 'Alice', summary: '', actions: ['!collectBlocks("oak_log", 3): got 3'] },
      { model, stats },
    );
    // The request says what it is for: run records count tokens by role from it.
    expect(model.requests[0]!.purpose).toBe('summarise');
    const e = await callRole(
      environmentSummaryRole,
      { task: 'cake', observations: { Alice: 'chest at (1, -60, 1)', Bob: 'cows near (5, -60, 5)' } },
      { model: FakeModel.script(['Summary: a chest at (1, -60, 1) and cows near (5, -60, 5).']), stats },
    );
    expect(a.ok && a.value).toBe('I collected 3 oak_log.');
    expect(e.ok && e.value).toBe('a chest at (1, -60, 1) and cows near (5, -60, 5).');
    expect(stats.get('summarise')).toMatchObject({ calls: 2, output: 20 });
  });

  test('an empty summary is given back', async () => {
    const r = await callRole(
      agentSummaryRole,
      { name: 'Alice', summary: '', actions: [] },
      { model: FakeModel.script(['{"summary": "  "}']), retries: 0 },
    );
    expect(r).toMatchObject({ ok: false, reason: 'summarise: no usable answer after 1 try: summary: the summary is empty' });
  });
});

describe('dependency and counterfactual', () => {
  const steps = [
    { id: '1', description: 'take 4 stone from the chest' },
    { id: '2', description: 'place stone at y=-60' },
    { id: '3', description: 'place stone at y=-59' },
  ];
  const rules = ['You can not use something unless you take it from the container first.'];

  test("CausalMACE's answer shape becomes edges; unknown steps and unrelated edges are given back", async () => {
    const model = FakeModel.script([
      '{"causal effect": [{"chosen_node": 9, "target_node": 2}, {"chosen_node": 2, "target_node": 3}]}',
      'Thinking step by step... {"causal effect": [{"chosen_node": 1, "target_node": 2}, {"chosen_node": 1, "target_node": 3}, {"chosen_node": 1, "target_node": 3}]}',
    ]);
    const r = await callRole(dependencyRole, { steps, step: '1', rules }, { model });
    expect(model.lastUser(1)).toContain(
      'step 9 does not exist (steps: 1, 2, 3); 9 → 2 does not involve step 1; 2 → 3 does not involve step 1.',
    );
    expect(r.ok && r.value).toEqual([
      { from: '1', to: '2' },
      { from: '1', to: '3' },
    ]);
    expect(model.lastUser(0)).toContain('The game rules:\n- You can not use something unless you take it from the container first.');
  });

  test('edges that would close a cycle with the graph are given back', async () => {
    const graph = new TaskGraph({ agents: team });
    graph.addRound([
      { id: 'a', description: 'a' },
      { id: 'b', description: 'b', requires: ['a'] },
    ]);
    const r = await callRole(
      dependencyRole,
      {
        steps: [
          { id: '1.a', description: 'a' },
          { id: '1.b', description: 'b' },
        ],
        step: '1.b',
        rules,
        graph,
      },
      { model: FakeModel.script(['{"causal effect": [{"chosen_node": "1.b", "target_node": "1.a"}]}']), retries: 0 },
    );
    expect(!r.ok && r.reason).toContain('these edges close a cycle: 1.a → 1.b → 1.a');
  });

  test('a counterfactual that repeats the rule is given back', async () => {
    const model = FakeModel.script([
      '{"counterfactual": "You must have a block before you place it"}',
      '{"counterfactual": "You can place a block even if you do not have it."}',
    ]);
    const r = await callRole(counterfactualRole, { rule: 'You must have a block before you place it.' }, { model });
    expect(model.lastUser(1)).toContain('the counterfactual repeats the rule');
    expect(r.ok && r.value).toBe('You can place a block even if you do not have it.');
  });
});

describe('failures that are not bad answers', () => {
  test('a model that hangs (and ignores the abort) ends in a timeout failure at the time bound', async () => {
    const stats = new RoleStats();
    const model = FakeModel.script([new Promise<string>(() => {})]);
    const started = Date.now();
    const r = await callRole(reflectRole, { task: 't', history: [] }, { model, stats, timeoutMs: 100 });
    expect(r).toEqual({ ok: false, kind: 'timeout', attempts: 1, reason: 'reflect: the model gave no answer within 100 ms' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(model.requests[0]!.signal!.aborted).toBe(true);
    expect(stats.get('reflect')).toMatchObject({ calls: 1, timeouts: 1, failures: 1 });
  });

  test('a model error ends the call at once, without a retry', async () => {
    const error = new ModelError({ provider: 'fake', modelId: 'fake/x', kind: 'server', retryable: true, message: '503 after retries' });
    const model = FakeModel.script([error]);
    const r = await callRole(counterfactualRole, { rule: 'r' }, { model });
    expect(r).toEqual({ ok: false, kind: 'model', attempts: 1, reason: 'counterfactual: the model failed: fake/x: 503 after retries' });
  });

  test("the caller's cancel ends the call as aborted", async () => {
    const controller = new AbortController();
    const model = new FakeModel(() => {
      controller.abort();
      return new Promise<string>(() => {});
    });
    const r = await callRole(reflectRole, { task: 't', history: [] }, { model, signal: controller.signal });
    expect(r).toMatchObject({ ok: false, kind: 'aborted', attempts: 1 });
    const before = await callRole(reflectRole, { task: 't', history: [] }, { model, signal: controller.signal });
    expect(before).toMatchObject({ ok: false, kind: 'aborted', attempts: 0 });
  });
});
