/**
 * End to end: a team of oracle bots builds a generated blueprint on the embedded server,
 * scored from the world's blocks.
 * The tasks are generated ones kept in test/fixtures/generated/ (written by `npm run generate`
 * with fixed seeds); nothing here needs ../shared.
 */
import { describe, expect, test } from 'vitest';
import { fixture, play } from '../helpers/oracle-teams.ts';

describe('construction with oracle teams', () => {
  test('construction, 2 agents: both place blocks, bottom level first, score 1 (generated, seed 31)', async () => {
    const { result } = await play(await fixture('construction_2_agents.json', 'generated_construction_4x3x2_31_1_num_agents_2'));
    expect(result).toMatchObject({ success: true, score: 1 });
    for (const name of result.agents) expect(result.commands[name]!.some((c) => c.startsWith('!placeBlockAt'))).toBe(true);
  }, 300_000);
});
