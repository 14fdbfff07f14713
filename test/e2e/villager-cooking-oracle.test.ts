/**
 * End to end: oracle teams play VillagerBench farm-to-table cooking tasks on the embedded server
 * through `runTask`, as `npm run task` and `npm run eval -- --model oracle` play them: the
 * ingredients shared out (`src/oracle/villager-cooking.ts`), taken from the chest, harvested on
 * the farm, hunted in the pasture, cooked and crafted, handed to the cook, and judged from the
 * agents' inventories to the full checkpoint score.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadTask } from '../../src/tasks/loader.ts';
import { play } from '../helpers/oracle-teams.ts';

const fixture = (name: string) => path.resolve('test/fixtures/villagerbench', name);

describe('VillagerBench cooking with oracle teams', () => {
  test('cake, 2 agents: milk, egg and hay from the chest, sugar cane from the farm; each agent holds checkpoint items first', async () => {
    const task = await loadTask(fixture('cooking.json'), 'cake_farm');
    const { result } = await play(task);
    expect(result).toMatchObject({ type: 'villager_cooking', agent_count: 2, success: true, score: 1 });
    expect(result.metrics).toMatchObject({ points: 100, acr: 1 });
    const all = Object.values(result.commands).flat();
    expect(all).toEqual(
      expect.arrayContaining([
        '!takeFromChest("hay_block", 1)',
        '!collectBlocks("sugar_cane", 2)',
        '!craftRecipe("sugar", 2)',
        '!craftRecipe("cake", 1)',
      ]),
    );
    // Both agents worked, and one handed its part to the other.
    for (const agent of result.agents) expect(result.commands[agent]!.length).toBeGreaterThan(0);
    expect(all.some((c) => c.startsWith('!givePlayer('))).toBe(true);
  }, 240_000);
});
