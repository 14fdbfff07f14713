/**
 * Commands made from skill declarations: one declaration gives the `!command` (name, parameters,
 * docs) and the sandbox's function; `commandCall` writes a plan's skill call as the command text a
 * model writes, in the command's parameter order.
 */
import { describe, expect, test } from 'vitest';
import { allCommands } from '../../src/commands/index.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { commandCall } from '../../src/commands/skill-commands.ts';
import { nameResolver } from '../../src/game/names.ts';
import { supplySource } from '../../src/game/production.ts';
import { paramSpecs } from '../../src/skills/declare.ts';
import { SKILLS } from '../../src/skills/index.ts';
import { COOKING_SUPPLIES } from '../../src/tasks/cooking.ts';

const names = nameResolver('1.21.4');

describe('skills and their commands', () => {
  test('every declared skill is the command of its name, with its description and parameters', () => {
    for (const skill of SKILLS) {
      const def = allCommands.get(`!${skill.name}`);
      expect(def, skill.name).toBeDefined();
      expect(def!.description).toBe(skill.description);
      expect(def!.params).toEqual(paramSpecs(skill.params));
    }
  });
});

describe('commandCall', () => {
  test("writes a skill call in the command's parameter order, whatever the order of its args", () => {
    expect(commandCall({ skill: 'collectBlocks', args: { num: 2, type: 'oak_log' } })).toBe('!collectBlocks("oak_log", 2)');
    expect(commandCall({ skill: 'useItemOnEntity', args: { entity_type: 'cow', item_name: 'bucket' } })).toBe(
      '!useItemOnEntity("bucket", "cow")',
    );
    expect(commandCall({ skill: 'goToBed', args: {} })).toBe('!goToBed');
    // A trailing optional argument left out is left out of the text.
    expect(commandCall({ skill: 'getCraftingPlan', args: { targetItem: 'stick' } })).toBe('!getCraftingPlan("stick")');
    expect(commandCall({ skill: 'placeBlockAt', args: { type: 'stone', x: -3, y: 64, z: 7 } })).toBe('!placeBlockAt("stone", -3, 64, 7)');
  });

  test('what it writes parses back to the same call', () => {
    for (const [item, supply] of Object.entries(COOKING_SUPPLIES)) {
      const call = supplySource(item, supply).call(3);
      const parsed = parseCommand(commandCall(call), allCommands, names);
      expect(parsed.kind, commandCall(call)).toBe('command');
      if (parsed.kind !== 'command') continue;
      expect(parsed.command.name).toBe(`!${call.skill}`);
      expect(parsed.args).toEqual(call.args);
    }
  });

  test('an unknown skill or a missing argument is an error that says which', () => {
    expect(() => commandCall({ skill: 'fly', args: {} })).toThrow(/"fly" is not a declared skill/);
    expect(() => commandCall({ skill: 'collectBlocks', args: { type: 'oak_log' } })).toThrow(/collectBlocks needs "num"/);
  });
});
