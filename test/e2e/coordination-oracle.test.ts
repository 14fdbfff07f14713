/**
 * End to end: the graph strategies (`dag`, `causal`) with oracle teams on the embedded server, on a
 * crafting, a cooking and a construction task (generated fixtures, 2–3 agents) and a VillagerBench
 * blueprint (its blocks in a chest, its stairs oriented): the rules' plan,
 * the offline policy executing each node through its commands, the world judging it, the task's
 * own validator scoring the run. Each run's `graph.jsonl` holds the graph's versions: a node
 * starts only once its predecessors have succeeded, on an agent among its candidates.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Coordination } from '../../src/settings/index.ts';
import type { GraphEvent } from '../../src/tasks/eval/records.ts';
import type { LoadedTask } from '../../src/tasks/schema.ts';
import { fixture, play } from '../helpers/oracle-teams.ts';
import { loadTask } from '../../src/tasks/loader.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Plays `task` with `coordination`, keeping its records; checks what every graph run must hold. */
async function playWith(coordination: Coordination, task: LoadedTask) {
  const folder = await mkdtemp(path.join(os.tmpdir(), `coord-${coordination}-`));
  dirs.push(folder);
  const { result } = await play(task, undefined, { coordination, folder });
  const graph = (await readFile(path.join(folder, 'graph.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as GraphEvent);
  expect(result).toMatchObject({ success: true, coordination });
  expect(graph[0]!.change).toMatch(/^planned by the rules \(round 1\)/);
  // A node starts when its predecessors have succeeded, on one of its candidates.
  for (const event of graph) {
    const started = /^(\S+) to (\S+) \(/.exec(event.change);
    if (!started) continue;
    const node = event.nodes.find((n) => n.id === started[1])!;
    expect(node.candidates).toContain(started[2]);
    for (const p of node.predecessors) expect(event.nodes.find((n) => n.id === p)!.status).toBe('success');
  }
  expect(result.metrics?.graph).toMatchObject({ rule_checked_edges: true, versions: graph.at(-1)!.version });
  return { result, graph };
}

describe.each(['dag', 'causal'] as const)('%s with oracle teams', (coordination) => {
  test("crafting, 3 agents, one may not craft: a deepslate brick wall from everyone's deepslate", async () => {
    const { result, graph } = await playWith(
      coordination,
      await fixture('crafting_3_agents_depth_1_blocked.json', 'generated_crafting_deepslate_brick_wall_12_0__depth_1_num_agents_3'),
    );
    // Hand-overs to one worker, then its make.
    const plan = graph[0]!;
    const make = plan.nodes.find((n) => n.work?.startsWith('make'))!;
    expect(plan.nodes.filter((n) => n.work?.startsWith('give')).map((n) => n.id)).toEqual(expect.arrayContaining(make.predecessors));
    expect(make.predecessors.length).toBeGreaterThan(0);
    expect(result.metrics?.graph?.edges.rule_added).toBeGreaterThan(0);
  }, 150_000);

  test('cooking, 2 agents: a baked potato and beetroot soup from the farm and the smoker', async () => {
    const { result } = await playWith(
      coordination,
      await fixture('cooking_2_agents.json', 'generated_cooking_2_1_baked_potato_1_beetroot_soup_21_2'),
    );
    const all = Object.values(result.commands).flat();
    expect(all).toEqual(expect.arrayContaining(['!smeltItem("potato", 1)']));
  }, 200_000);

  test('VillagerBench construction, 2 agents: the stair hut; each builder takes its blocks from the chest first, the stairs face west', async () => {
    const task = await loadTask(path.resolve('test/fixtures/villagerbench/construction.json'), 'task_0');
    const { result, graph } = await playWith(coordination, task);
    expect(result).toMatchObject({ type: 'villager_construction', score: 1 });
    expect(result.metrics).toMatchObject({ completion: 1, vhr: 1 });
    const plan = graph[0]!;
    const takes = plan.nodes.filter((n) => n.id.includes('t-'));
    expect(takes.length).toBeGreaterThan(0);
    for (const build of plan.nodes.filter((n) => n.id.includes('L') && takes.some((t) => t.candidates[0] === n.candidates[0])))
      expect(build.predecessors).toEqual(
        expect.arrayContaining(takes.filter((t) => t.candidates[0] === build.candidates[0]).map((t) => t.id)),
      );
    const all = Object.values(result.commands).flat();
    expect(all.some((c) => c.startsWith('!takeFromChest('))).toBe(true);
    expect(all.filter((c) => c.startsWith('!placeBlockAt("oak_stairs[facing=west]"'))).toHaveLength(1);
  }, 200_000);

  test('construction, 2 agents: level 1 after level 0', async () => {
    const { graph } = await playWith(
      coordination,
      await fixture('construction_2_agents.json', 'generated_construction_4x3x2_31_1_num_agents_2'),
    );
    const plan = graph[0]!;
    for (const upper of plan.nodes.filter((n) => n.id.includes('L1-')))
      expect(upper.predecessors).toEqual(expect.arrayContaining(plan.nodes.filter((n) => n.id.includes('L0-')).map((n) => n.id)));
  }, 200_000);
});
