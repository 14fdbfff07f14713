/**
 * S-Agents' LLM roles as typed calls (`monitor`, `task_plan`, `action_plan`) on a scripted model:
 * the forms models write them in (the paper's prose, other key names, a wrapped list), and the bad
 * answers given back with what was wrong until the bounded retry runs out.
 */
import { describe, expect, test } from 'vitest';
import { actionPlanRole, callRole, monitorRole, RoleStats, taskPlanRole } from '../../src/coordination/roles/index.ts';
import { FakeModel } from './fake-model.ts';

const call = (answers: string[]) => {
  const model = FakeModel.script(answers);
  const stats = new RoleStats();
  return { model, stats, call: { model, stats, retries: 2 } };
};

describe('monitor', () => {
  const input = { task: 'mine 17 oak_log', conversation: ['[15:03:20] Jill to Andy: Got it!'], inventory: '3 oak_log' };

  test("the paper's prose form and the JSON form", async () => {
    const prose = call([
      "Task result judgment: According to 'I have succeeded the task mine 17 oak_log', it succeeded.\nFinal task status: success",
    ]);
    expect(await callRole(monitorRole, input, prose.call)).toMatchObject({
      ok: true,
      value: { status: 'success', rationale: expect.stringMatching(/^According to/) },
    });
    const json = call(['{"Task result judgment": "only Got it! so far", "Final task status": "Unknown."}']);
    expect(await callRole(monitorRole, input, json.call)).toMatchObject({ ok: true, value: { status: 'unknown' } });
    expect(json.model.requests[0]!.purpose).toBe('monitor');
  });

  test('a status outside success, fail and unknown is given back, then the call fails with the reason', async () => {
    const bad = call(['{"rationale": "hmm", "status": "maybe"}']);
    const r = await callRole(monitorRole, input, bad.call);
    expect(r).toMatchObject({
      ok: false,
      kind: 'invalid',
      attempts: 3,
      reason: expect.stringMatching(/status must be "success", "fail" or "unknown"/),
    });
    expect(bad.stats.get('monitor')).toMatchObject({ calls: 3, retries: 2, failures: 1 });
  });
});

describe('task_plan', () => {
  const input = {
    name: 'Andy',
    root: true,
    employees: ['Jill', 'Bob'],
    task: 'Collect 50 oak_log',
    inventories: { Andy: 'nothing', Jill: 'nothing', Bob: 'nothing' },
    perception: 'at (0, -60, 0)',
    conversation: [],
  };

  test("the paper's fields, under its own names; a task at hand of None is nothing to do", async () => {
    const c = call([
      JSON.stringify({
        'Current inventory of employers': 'all empty',
        Objective: 'Collect 50 oak_log',
        Analysis: 'independent work',
        'Long-term plan': 'Stage 1: Andy 17, Jill 17, Bob 16\nStage 2: check',
        'The task at hand': 'None',
        Informer: 'system',
      }),
    ]);
    const r = await callRole(taskPlanRole, input, c.call);
    expect(r).toMatchObject({
      ok: true,
      value: {
        objective: 'Collect 50 oak_log',
        plan: ['Stage 1: Andy 17, Jill 17, Bob 16', 'Stage 2: check'],
        taskAtHand: '',
        informer: 'system',
      },
    });
    // The root's rules are in its prompt; a leaf's are its own.
    expect(c.model.lastUser(0)).toMatch(/Split large quotas evenly \(50 logs among 3: 17, 17 and 16\)/);
    const leaf = call([JSON.stringify({ objective: 'o', plan: ['s'], task_at_hand: 'mine 17 oak_log', informer: 'Andy' })]);
    await callRole(taskPlanRole, { ...input, name: 'Jill', root: false, employees: [] }, leaf.call);
    expect(leaf.model.lastUser(0)).toMatch(/Never delegate/);
  });

  test('prose without the fields, and an informer nobody is, are given back', async () => {
    const c = call([
      'We should gather wood first.',
      JSON.stringify({ objective: 'o', plan: ['s'], task_at_hand: 't', informer: 'Herobrine' }),
      JSON.stringify({ objective: 'o', plan: ['s'], task_at_hand: 't', informer: 'system' }),
    ]);
    const r = await callRole(taskPlanRole, input, c.call);
    expect(r.ok).toBe(true);
    expect(c.model.lastUser(1)).toMatch(/the answer has no JSON/);
    expect(c.model.lastUser(2)).toMatch(/informer: "Herobrine" gave you nothing/);
  });
});

describe('action_plan', () => {
  const root = { name: 'Andy', task: 'Stage 1', mayInform: ['Jill', 'Bob'], agents: ['Andy', 'Jill', 'Bob'] };

  test('a list wrapped in an object; direct todos become !commands and informs orders', async () => {
    const c = call(['{"TODO list": ["inform Jill to mine 17 oak_log", "Mine 17 oak_log"]}']);
    const r = await callRole(actionPlanRole, root, c.call);
    expect(r).toMatchObject({
      ok: true,
      value: [
        { kind: 'inform', to: 'Jill', task: 'mine 17 oak_log' },
        { kind: 'command', command: '!collectBlocks("oak_log", 17)' },
      ],
    });
  });

  test('an unknown agent, an unreadable todo, an empty list and the guard are given back', async () => {
    const c = call(['["inform Steve to mine 3 logs", "ponder"]', '[]', '["inform Bob to mine 3 oak_log"]', '["Mine 3 oak_log"]']);
    const r = await callRole(
      actionPlanRole,
      { ...root, guard: (to) => (to === 'Bob' ? 'a command cycle: Bob already commands Andy' : undefined) },
      {
        ...c.call,
        retries: 3,
      },
    );
    expect(r.ok).toBe(true);
    expect(c.model.lastUser(1)).toMatch(/Steve is not in the team \(Andy, Jill, Bob\).*"ponder" is not a todo form/s);
    expect(c.model.lastUser(2)).toMatch(/the list is empty/);
    expect(c.model.lastUser(3)).toMatch(/a command cycle: Bob already commands Andy/);
  });

  test('a leaf that delegates is told to do it itself; after the retries the call fails with the reason', async () => {
    const c = call(['["inform Andy to mine 3 oak_log"]']);
    const r = await callRole(actionPlanRole, { name: 'Jill', task: 'mine 3 oak_log', mayInform: [], agents: ['Andy', 'Jill'] }, c.call);
    expect(r).toMatchObject({
      ok: false,
      attempts: 3,
      reason: expect.stringMatching(/you are a leaf; do the task yourself and never inform others/),
    });
  });
});
