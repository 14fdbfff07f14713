/**
 * End to end: oracle teams escape VillagerBench rooms on the embedded server, through the same
 * `!commands` a model uses (`!activate` with a position, `!placeBlockAt`, `!stay`, walking), each
 * run judged from the world every tick (`src/tasks/villager/escape.ts`).
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadTask } from '../../src/tasks/loader.ts';
import { play } from '../helpers/oracle-teams.ts';

/** A VillagerBench fixture file; escape-generated.json is `npm run generate -- escape --count 5 --seed 1 --agents 3`. */
const fixture = (name: string) => path.resolve('test/fixtures/villagerbench', name);

describe('escape rooms with oracle teams', () => {
  test('the fixture, 2 agents, escape_1_0: either of two levers; one agent pulls one, score 1', async () => {
    const { result } = await play(await loadTask(fixture('escape.json'), 'escape_1_0'));
    expect(result).toMatchObject({ type: 'villager_escape', agent_count: 2, success: true, score: 1 });
    expect(result.metrics).toMatchObject({ rooms_done: 1, rooms: 1 });
    // An `or` room: one lever flipped, by one agent, at its position; the other waits.
    const pulls = Object.values(result.commands)
      .flat()
      .filter((c) => c.startsWith('!activate('));
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatch(/^!activate\("lever", -?\d+, -?\d+, -?\d+\)$/);
  }, 240_000);

  test('the fixture, 2 agents, escape_3_1: a lever behind a door, two plates held together, either of two levers; score 1', async () => {
    const { result } = await play(await loadTask(fixture('escape.json'), 'escape_3_1'));
    expect(result).toMatchObject({ type: 'villager_escape', agent_count: 2, success: true, score: 1 });
    expect(result.metrics).toMatchObject({ rooms_done: 3, rooms: 3 });
    // Each agent stood on one of the two plates.
    for (const name of result.agents)
      expect(result.commands[name]!.filter((c) => /^!activate\("(oak|stone)_pressure_plate", /.test(c))).toHaveLength(1);
  }, 240_000);

  test('generated, 3 agents, escape_3_88: a button pressed while a plate is held, a diamond block put in place, two plates held together; score 1', async () => {
    const { result } = await play(await loadTask(fixture('escape-generated.json'), 'escape_3_88'));
    expect(result).toMatchObject({ type: 'villager_escape', agent_count: 3, success: true, score: 1 });
    expect(result.metrics).toMatchObject({ rooms_done: 3, rooms: 3 });
    const commands = Object.values(result.commands).flat();
    expect(commands.filter((c) => /^!activate\("stone_button", /.test(c)).length).toBeGreaterThan(0);
    expect(commands.filter((c) => /^!activate\("[a-z]+_pressure_plate", /.test(c)).length).toBeGreaterThanOrEqual(3);
    expect(commands).toContainEqual(expect.stringMatching(/^!placeBlockAt\("diamond_block", /));
    // Every agent had a part: three agents, five conditions, shared round the team.
    for (const name of result.agents) expect(result.commands[name]!.some((c) => /^!(activate|placeBlockAt)\(/.test(c))).toBe(true);
  }, 240_000);
});
