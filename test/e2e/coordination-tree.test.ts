/**
 * End to end: S-Agents' tree of agents with oracle teams on the embedded server, as
 * `npm run task -- … --coordination tree` plays it: the paper's shelter (a stone foundation, wooden
 * walls, a stone roof; two agents start with planks, one with stone) built by a root and two
 * leaves, and the other shelter relayed along a chain. The run's `graph.jsonl` holds the
 * organisation, the orders and the fixed-phrase reports; the result line has the time cost and mPT.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Coordination } from '../../src/settings/index.ts';
import type { GraphEvent } from '../../src/tasks/eval/records.ts';
import type { LoadedTask } from '../../src/tasks/schema.ts';
import { fixture, play } from '../helpers/oracle-teams.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function playWith(coordination: Coordination, task: LoadedTask) {
  const folder = await mkdtemp(path.join(os.tmpdir(), `coord-${coordination}-`));
  dirs.push(folder);
  const { result } = await play(task, undefined, { coordination, folder });
  const graph = (await readFile(path.join(folder, 'graph.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as GraphEvent);
  const messages = graph.flatMap((e) => e.organisation?.messages ?? []);
  return { result, graph, messages };
}

describe('S-Agents with oracle teams', () => {
  test('tree: the shelter, 3 agents; orders from the root, reports in the fixed phrases, levels in order', async () => {
    // A 3 × 3 stone foundation, jungle plank walls two high with a doorway, a stone roof (32 blocks).
    const shelter = await fixture('shelter_3_agents.json', 'sagents_shelter_3x3x4_41_0_num_agents_3');
    const { result, graph, messages } = await playWith('tree', shelter);
    expect(result).toMatchObject({ success: true, score: 1, coordination: 'tree' });
    const [root, ...leaves] = result.agents;
    expect(graph[0]!.change).toBe(`organisation: tree with ${root} as root (${leaves.map((l) => `${root}→${l}`).join(', ')})`);
    expect(graph[0]!.organisation).toMatchObject({
      kind: 'tree',
      root,
      edges: leaves.map((l) => ({ commander: root, subordinate: l })),
    });
    // Orders only from the root; every report is one of the paper's phrases with the inventory.
    const orders = messages.filter((m) => m.kind === 'order');
    expect(orders.length).toBeGreaterThan(0);
    for (const o of orders) expect(o.speaker).toBe(root);
    for (const r of messages.filter((m) => m.kind === 'report'))
      expect(r.message).toMatch(/^(I'll start the task .+\.|I have (succeeded|failed) the task .+\. My inventory: .+\.)$/);
    expect(messages.some((m) => m.kind === 'report' && m.message.startsWith('I have succeeded the task Place'))).toBe(true);
    // A level starts after the level below has succeeded.
    for (const event of graph) {
      const started = /^(\S+) to (\S+) \(/.exec(event.change);
      if (!started) continue;
      const node = event.nodes.find((n) => n.id === started[1])!;
      for (const p of node.predecessors) expect(event.nodes.find((n) => n.id === p)!.status).toBe('success');
    }
    expect(result.metrics).toMatchObject({
      timeCostMinutes: expect.any(Number),
      organisation: { kind: 'tree', refused: 0, mPT: expect.any(Number) },
    });
    expect(result.metrics!.organisation!.mPT).toBeGreaterThan(0);
  }, 200_000);

  test('chain: the other shelter; orders to the third agent are relayed by the second, reports come back the same way', async () => {
    // No hand-overs here (each builds with what it holds): a give right after the bots join
    // sometimes meets a giver that never sees its recipient (its `bot.players[name].entity` stays
    // unset: a join race below the strategies), which is not what this test is about.
    const { result, graph, messages } = await playWith(
      'chain',
      await fixture('shelter_3_agents.json', 'sagents_shelter_3x3x4_41_1_num_agents_3'),
    );
    expect(result).toMatchObject({ success: true, coordination: 'chain' });
    const [a, b, c] = result.agents;
    expect(graph[0]!.organisation).toMatchObject({
      kind: 'chain',
      edges: [
        { commander: a, subordinate: b },
        { commander: b, subordinate: c },
      ],
    });
    const orders = messages.filter((m) => m.kind === 'order');
    expect(orders.some((m) => m.speaker === a && m.respondent === b && m.message.startsWith(`pass on to ${c}: `))).toBe(true);
    expect(orders.some((m) => m.speaker === b && m.respondent === c)).toBe(true);
    // Only a commander orders its next in the chain.
    for (const o of orders) expect(result.agents.indexOf(o.respondent)).toBe(result.agents.indexOf(o.speaker) + 1);
    expect(
      messages.some((m) => m.kind === 'report' && m.speaker === b && m.respondent === a && /^I have succeeded the task/.test(m.message)),
    ).toBe(true);
    expect(result.metrics?.timeCostMinutes).toEqual(expect.any(Number));
  }, 200_000);
});
