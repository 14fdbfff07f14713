/**
 * The `!newAction` functions made from the skill declarations: arguments checked by the skills'
 * schemas with the parser's kind of error, a skill's report as the value, a failure as an error
 * carrying its outcome code, read by the model's code in the real sandbox. No server: the skills
 * here are declared for the test over a stand-in bot.
 */
import { describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { nameResolver } from '../../src/game/names.ts';
import { runSandboxed } from '../../src/sandbox/runner.ts';
import { bindArgs, CALLS_DOC, SANDBOX_HELPERS, sandboxSkills, type SandboxContext } from '../../src/sandbox/skills.ts';
import { defineSkill, param } from '../../src/skills/declare.ts';
import { collectBlocksSkill, getCraftingPlanSkill, SKILLS } from '../../src/skills/index.ts';
import { done, failure, SkillError } from '../../src/skills/outcome.ts';

const names = nameResolver('1.21.4');

describe('bindArgs', () => {
  test("positional arguments become the skill's named ones; game names are resolved; a left-out optional one gets its default", () => {
    expect(bindArgs('collectBlocks', collectBlocksSkill.params, ['Oak Log', 3], names)).toEqual({ type: 'oak_log', num: 3 });
    expect(bindArgs('getCraftingPlan', getCraftingPlanSkill.params, ['stick'], names)).toEqual({ targetItem: 'stick', quantity: 1 });
    expect(bindArgs('getCraftingPlan', getCraftingPlanSkill.params, ['stick', undefined], names)).toEqual({
      targetItem: 'stick',
      quantity: 1,
    });
  });

  test('a wrong argument is an `invalid` error naming the function, the argument, what it expects and what it got, with a correct call', () => {
    const bind = (args: unknown[]) => () => bindArgs('collectBlocks', collectBlocksSkill.params, args, names);
    const example = 'Example: collectBlocks("oak_log", 4)';
    expect(bind(['oak_log', 0])).toThrow(
      `collectBlocks: argument 2 "num" expects an int in [1, inf), got 0 (outside [1, inf)). ${example}`,
    );
    expect(bind(['oak_log', 2.5])).toThrow(
      `collectBlocks: argument 2 "num" expects an int in [1, inf), got 2.5 (not a whole number). ${example}`,
    );
    expect(bind(['oak_log', '3'])).toThrow(`collectBlocks: argument 2 "num" expects an int in [1, inf), got "3". ${example}`);
    expect(bind(['oak_lgo', 1])).toThrow(
      /^collectBlocks: argument 1 "type" expects a block name, got "oak_lgo" \(no such block; closest valid names: "oak_log"/,
    );
    expect(bind(['oak_log'])).toThrow(
      `collectBlocks: expects 2 arguments, got 1; missing argument 2 "num" (an int in [1, inf)). Usage: collectBlocks(type: BlockName, num: int). ${example}`,
    );
    expect(bind(['oak_log', 1, 2])).toThrow(/^collectBlocks: expects 2 arguments, got 3; argument 3 and after are extra \(2\)\./);
    try {
      bind(['oak_log', 0])();
    } catch (err) {
      expect(err).toBeInstanceOf(SkillError);
      expect((err as SkillError).code).toBe('invalid');
    }
  });
});

describe('sandboxSkills', () => {
  const said: string[] = [];
  const bot = { entity: { position: { x: 1.5, y: -60, z: 2.25 } }, inventory: { items: () => [{ name: 'stick', count: 3 }], slots: [] } };
  const ctx: SandboxContext = {
    bot: bot as unknown as Bot,
    signal: new AbortController().signal,
    writeCall: (call) => `!${call.skill}`,
    say: (text) => said.push(text),
  };
  const skills = [
    defineSkill({
      name: 'gather',
      description: 'Gather some of an item.',
      params: { item_name: param.itemName('item', { example: 'stick' }), num: param.int('how many', { domain: [1, Infinity] }) },
      run: async (_ctx, { item_name, num }) =>
        num > 10 ? failure('partial', `Gathered 10 ${item_name}.`, { gained: { [item_name]: 10 } }) : done(`Gathered ${num} ${item_name}.`),
    }),
    defineSkill({
      name: 'find',
      description: 'Look for a block.',
      params: { type: param.blockName('block') },
      run: async (_ctx, { type }) => failure('not_found', `No ${type} within 64 blocks.`),
    }),
    defineSkill({
      name: 'place',
      description: 'Place a block.',
      params: {},
      run: async () => {
        throw new SkillError('refused_by_server', 'Server refused to place stone at (1, 2, 3): the block is still air');
      },
    }),
  ];
  const table = sandboxSkills(skills, SANDBOX_HELPERS, ctx, names);

  test('the docs say how calls report, then each function as its command is documented', () => {
    const lines = table.docs.split('\n');
    expect(lines[0]).toBe(CALLS_DOC);
    expect(table.docs).toContain(
      'gather(item_name: ItemName, num: int): Gather some of an item.\n  item_name: item\n  num: how many [1, inf)',
    );
    expect(table.docs).toContain('position(): {x, y, z} of your feet');
    expect(table.docs).toContain('place(): Place a block.');
    expect(Object.keys(table.skills)).toEqual(['gather', 'find', 'place', ...SANDBOX_HELPERS.map((h) => h.name)]);
  });

  test("the code gets a report as the value (all or part done), a failure as an error whose `code` is the outcome's", async () => {
    const code = `
      const out = [await gather('Stick', 2), await gather('stick', 20)];
      for (const call of [() => find('stone'), () => place(), () => gather('stick', 0)]) {
        try { await call(); out.push('no error'); } catch (e) { out.push(e.code + ': ' + e.message); }
      }
      out.push(JSON.stringify(await position()), JSON.stringify(await inventory()));
      await say('hi');
      return out;`;
    const result = await runSandboxed(code, { skills: table.skills, timeoutMs: 10_000 });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(result.ok && result.value).toEqual([
      'Gathered 2 stick.',
      'Gathered 10 stick.',
      'not_found: No stone within 64 blocks.',
      'refused_by_server: Server refused to place stone at (1, 2, 3): the block is still air',
      'invalid: gather: argument 2 "num" expects an int in [1, inf), got 0 (outside [1, inf)). Example: gather("stick", 4)',
      '{"x":1.5,"y":-60,"z":2.25}',
      '{"stick":3}',
    ]);
    expect(said).toEqual(['hi']);
  });

  test('the real table: every declared skill and helper, under its own name', () => {
    const real = sandboxSkills(SKILLS, SANDBOX_HELPERS, ctx, names);
    expect(Object.keys(real.skills).sort()).toEqual([...SKILLS, ...SANDBOX_HELPERS].map((s) => s.name).sort());
    const documented = real.docs.split('\n').map((line) => /^(\w+)\(/.exec(line)?.[1]);
    for (const skill of [...SKILLS, ...SANDBOX_HELPERS]) expect(documented, skill.name).toContain(skill.name);
  });
});
