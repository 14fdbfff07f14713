/**
 * End to end: a team of oracle bots plays a Hell's Kitchen cooking task in the cooking world, each
 * agent making its own dish with the recipe its partner was given. A file of its own so that it
 * runs beside the other long games (test/e2e/cooking-oracle.test.ts).
 * The task is a generated one kept in test/fixtures/generated/; nothing here needs ../shared.
 */
import { describe, expect, test } from 'vitest';
import { fixture, play } from '../helpers/oracle-teams.ts';

describe("Hell's Kitchen with oracle teams", () => {
  test("Hell's Kitchen: each agent makes its own dish (generated, seed 23)", async () => {
    const { result } = await play(
      await fixture('cooking_2_agents_hells_kitchen.json', 'generated_cooking_cooked_porkchop_baked_potato_23_2_hells_kitchen'),
    );
    expect(result).toMatchObject({ success: true, score: 1 });
  }, 300_000);
});
