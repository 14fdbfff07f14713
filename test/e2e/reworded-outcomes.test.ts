/**
 * The offline policy decides from outcome codes and data, never from sentences: every command's
 * report is replaced by words that say nothing (the code and the data stay), and oracle teams still
 * play a crafting, a cooking and a construction task to success on the embedded server. Any
 * decision read from a sentence would go wrong here.
 */
import { describe, expect, test } from 'vitest';
import type { CommandContext } from '../../src/commands/context.ts';
import { allCommands } from '../../src/commands/index.ts';
import { CommandRegistry, type CommandDef } from '../../src/commands/registry.ts';
import { fixture, play } from '../helpers/oracle-teams.ts';

/** Every command of `registry`, its outcome's text replaced by a sentence that tells nothing. */
function reworded(registry: CommandRegistry<CommandContext>): CommandRegistry<CommandContext> {
  let n = 0;
  return new CommandRegistry<CommandContext>(
    registry.list().map((def): CommandDef<CommandContext> => ({
      ...def,
      async perform(ctx, args) {
        const outcome = await def.perform(ctx, args);
        return { ...outcome, text: `Report number ${++n} has nothing to say.` };
      },
    })),
  );
}

describe('the oracle with every command output reworded', () => {
  const commands = reworded(allCommands);

  test('crafting, 3 agents, one may not craft: success', async () => {
    const task = await fixture(
      'crafting_3_agents_depth_1_blocked.json',
      'generated_crafting_deepslate_brick_wall_12_0__depth_1_num_agents_3',
    );
    const { result } = await play(task, undefined, { commands });
    expect(result).toMatchObject({ success: true });
  }, 300_000);

  test('cooking, 2 agents: success', async () => {
    const task = await fixture('cooking_2_agents.json', 'generated_cooking_2_1_baked_potato_1_beetroot_soup_21_2');
    const { result } = await play(task, undefined, { commands });
    expect(result).toMatchObject({ success: true });
  }, 300_000);

  test('construction, 2 agents: score 1', async () => {
    const task = await fixture('construction_2_agents.json', 'generated_construction_4x3x2_31_1_num_agents_2');
    const { result } = await play(task, undefined, { commands });
    expect(result).toMatchObject({ success: true, score: 1 });
  }, 300_000);
});
