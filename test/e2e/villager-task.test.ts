/**
 * VillagerBench tasks through `runTask`, as `npm run task` plays them: the file loaded by its
 * shape, the world set up, the judge reading it every tick, and the result line with the
 * scenario's metrics. The blocks and the lever are set by agent 0's op commands once play begins
 * (the oracle's own plays are tested in villager-construction-oracle.test.ts and
 * escape-oracle.test.ts).
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadTask } from '../../src/tasks/loader.ts';
import { play } from '../helpers/oracle-teams.ts';

const fixture = (name: string) => path.resolve('test/fixtures/villagerbench', name);

describe('VillagerBench through runTask', () => {
  test('construction: the pillar built as given (a log on axis x) ends the run in success with completion and VHR in the result', async () => {
    const task = await loadTask(fixture('construction.json'), 'pillar');
    const { result } = await play(task, undefined, {
      onPlaying: ({ agents, blueprint }) => {
        const [x, y, z] = blueprint!.levels[0]!.coordinates;
        agents[0]!.bot.chat(`/setblock ${x} ${y} ${z} stone_bricks`);
        agents[0]!.bot.chat(`/setblock ${x} ${y + 1} ${z} oak_log[axis=x]`);
      },
    });
    expect(result).toMatchObject({
      task_id: 'task_1',
      type: 'villager_construction',
      agent_count: 2,
      success: true,
      score: 1,
      end_reason: 'success',
    });
    expect(result.metrics).toMatchObject({ completion: 1, vhr: 1, blocks_matched: 2, blocks: 2 });
    // The five views for report.html: the pillar seen from the front, top block first.
    expect((result.judged as { views: { views: { name: string; built: string[] }[] } }).views.views[0]).toMatchObject({
      name: 'front',
      built: ['0', '1'],
    });
    expect(result.goals[result.agents[0]!]).toMatch(/oak_log axis x at \[/);
  }, 120_000);

  test("escape: agent 0 pulls the room's lever; the judge opens the way and the run succeeds with its rooms in the result", async () => {
    const task = await loadTask(fixture('escape.json'), 'escape_1_0');
    const { result } = await play(task, undefined, {
      onPlaying: ({ agents }) => {
        // Every condition of the room as agent 0's goal names it: `lever[powered=true] at [x y z]`.
        const bot = agents[0]!.bot;
        const goal = agents[0]!.task?.goal ?? '';
        const conditions = [...goal.matchAll(/([a-z_]+\[[a-z_=,]+\]) at \[(-?\d+) (-?\d+) (-?\d+)\]/g)];
        expect(conditions.length).toBeGreaterThan(0);
        for (const [, state, x, y, z] of conditions) bot.chat(`/setblock ${x} ${y} ${z} ${state}`);
      },
    });
    expect(result).toMatchObject({ type: 'villager_escape', success: true, score: 1 });
    expect(result.metrics).toMatchObject({ rooms_done: 1, rooms: 1, completion: 1 });
  }, 120_000);
});
