/**
 * Drop-in for MINDcraft's users: every command the reference has takes the same parameters (names,
 * order, types, domains, defaults) here, commands that run until stopped there run until stopped
 * here, this project's other meanings are commands of their own, and the README's command table is
 * the registry's. The world-side meanings (4 crafts of oak_planks give 16 planks, ...) are pinned
 * in commands.test.ts on the embedded server.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { allCommands } from '../../src/commands/index.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { commandsTable, REFERENCE_COMMANDS, replaceTable } from '../../src/commands/readme-table.ts';
import type { CommandDef, ParamSpec, ParamType } from '../../src/commands/registry.ts';
import { commandTools } from '../../src/commands/tools.ts';
import { nameResolver } from '../../src/game/names.ts';
import { ActionRunner, SETTLE_MS } from '../../src/agent/action-runner.ts';
import { waitUntil } from '../helpers/wait.ts';

const MAX = Number.MAX_SAFE_INTEGER;
type RefParam = [name: string, type: ParamType | 'string', domain?: [number, number], dflt?: number];
/**
 * The reference's commands and parameters (kolbytn/mindcraft, mid-2025: src/agent/commands/actions.js
 * and queries.js), in its declaration order. Its domains are `[lo, hi)`; MAX_SAFE_INTEGER means none.
 */
const REFERENCE: Record<string, RefParam[]> = {
  '!stats': [],
  '!inventory': [],
  '!nearbyBlocks': [],
  '!craftable': [],
  '!entities': [],
  '!modes': [],
  '!savedPlaces': [],
  '!checkBlueprintLevel': [['levelNum', 'int', [0, MAX]]],
  '!checkBlueprint': [],
  '!getBlueprint': [],
  '!getBlueprintLevel': [['levelNum', 'int', [0, MAX]]],
  '!getCraftingPlan': [
    ['targetItem', 'string'],
    ['quantity', 'int', [1, Infinity], 1],
  ],
  '!searchWiki': [['query', 'string']],
  '!help': [],
  '!newAction': [['prompt', 'string']],
  '!stop': [],
  '!stfu': [],
  '!restart': [],
  '!clearChat': [],
  '!goToPlayer': [
    ['player_name', 'string'],
    ['closeness', 'float', [0, Infinity]],
  ],
  '!followPlayer': [
    ['player_name', 'string'],
    ['follow_dist', 'float', [0, Infinity]],
  ],
  '!goToCoordinates': [
    ['x', 'float'],
    ['y', 'float', [-64, 320]],
    ['z', 'float'],
    ['closeness', 'float', [0, Infinity]],
  ],
  '!searchForBlock': [
    ['type', 'BlockName'],
    ['search_range', 'float', [32, 512]],
  ],
  '!searchForEntity': [
    ['type', 'string'],
    ['search_range', 'float', [32, 512]],
  ],
  '!moveAway': [['distance', 'float', [0, Infinity]]],
  '!rememberHere': [['name', 'string']],
  '!goToRememberedPlace': [['name', 'string']],
  '!givePlayer': [
    ['player_name', 'string'],
    ['item_name', 'ItemName'],
    ['num', 'int', [1, MAX]],
  ],
  '!consume': [['item_name', 'ItemName']],
  '!equip': [['item_name', 'ItemName']],
  '!putInChest': [
    ['item_name', 'ItemName'],
    ['num', 'int', [1, MAX]],
  ],
  '!takeFromChest': [
    ['item_name', 'ItemName'],
    ['num', 'int', [1, MAX]],
  ],
  '!viewChest': [],
  '!discard': [
    ['item_name', 'ItemName'],
    ['num', 'int', [1, MAX]],
  ],
  '!collectBlocks': [
    ['type', 'BlockName'],
    ['num', 'int', [1, MAX]],
  ],
  '!craftRecipe': [
    ['recipe_name', 'ItemName'],
    ['num', 'int', [1, MAX]],
  ],
  '!smeltItem': [
    ['item_name', 'ItemName'],
    ['num', 'int', [1, MAX]],
  ],
  '!clearFurnace': [],
  '!placeHere': [['type', 'BlockName']],
  '!attack': [['type', 'string']],
  '!attackPlayer': [['player_name', 'string']],
  '!goToBed': [],
  '!activate': [['type', 'BlockName']],
  '!stay': [['type', 'int', [-1, MAX]]],
  '!setMode': [
    ['mode_name', 'string'],
    ['on', 'boolean'],
  ],
  '!goal': [['selfPrompt', 'string']],
  '!endGoal': [],
  '!startConversation': [
    ['player_name', 'string'],
    ['message', 'string'],
  ],
  '!endConversation': [['player_name', 'string']],
  '!lookAtPlayer': [
    ['player_name', 'string'],
    ['direction', 'string'],
  ],
  '!lookAtPosition': [
    ['x', 'int'],
    ['y', 'int'],
    ['z', 'int'],
  ],
  '!digDown': [['distance', 'int', [1, MAX]]],
};

/** A domain as a comparable pair; no domain and one up to MAX_SAFE_INTEGER both mean unbounded. */
const norm = (d: [number, number] | undefined): [number, number] => {
  const [lo, hi] = d ?? [-Infinity, Infinity];
  return [lo, hi >= MAX ? Infinity : hi];
};

const names = nameResolver('1.21.4');
const parse = (text: string) => parseCommand(text, allCommands, names);

describe("the reference's commands", () => {
  test('REFERENCE_COMMANDS (the README\'s "in MINDcraft" column) names exactly the reference\'s commands', () => {
    expect([...REFERENCE_COMMANDS].sort()).toEqual(Object.keys(REFERENCE).sort());
  });

  test.each(Object.entries(REFERENCE))("%s takes the reference's parameters", (name, ref) => {
    const def = allCommands.get(name);
    expect(def, `${name} exists`).toBeDefined();
    const ours = Object.entries(def!.params);
    // Ours may add trailing optional parameters (!help's command name): the reference's calls still parse.
    expect(ours.slice(ref.length).every(([, s]) => s.optional)).toBe(true);
    expect(ours.slice(0, ref.length).map(([n]) => n)).toEqual(ref.map(([n]) => n));
    for (const [i, [pname, type, domain, dflt]] of ref.entries()) {
      const spec = ours[i]![1];
      // A validated game name where the reference takes any string accepts every name the reference would use.
      if (type === 'string') expect(['string', 'ItemName', 'BlockName'], `${name} ${pname}`).toContain(spec.type);
      else expect(spec.type, `${name} ${pname}`).toBe(type);
      if (type === 'int' || type === 'float') expect(norm(spec.domain), `${name} ${pname} domain`).toEqual(norm(domain));
      expect(spec.default, `${name} ${pname} default`).toBe(dflt);
      expect(Boolean(spec.optional), `${name} ${pname} optional`).toBe(dflt !== undefined);
    }
  });

  test("!getCraftingPlan's quantity defaults to 1, in the parser and in the tool schema", () => {
    const bare = parse('!getCraftingPlan("stick")');
    expect(bare.kind === 'command' && bare.args).toEqual({ targetItem: 'stick', quantity: 1 });
    const three = parse('!getCraftingPlan("stick", 3)');
    expect(three.kind === 'command' && three.args).toEqual({ targetItem: 'stick', quantity: 3 });
    const tool = commandTools(allCommands.list()).find((t) => t.name === 'getCraftingPlan')!;
    expect(tool.parameters.required).toEqual(['targetItem']);
    expect(tool.parameters.properties.quantity).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(allCommands.help('getCraftingPlan')).toContain('quantity: how many items [1, inf) (default 1)');
  });

  test("!lookAtPosition takes whole coordinates, as the reference's", () => {
    expect(parse('!lookAtPosition(1, 64, -3)').kind).toBe('command');
    const half = parse('!lookAtPosition(1.5, 64, -3)');
    expect(half.kind === 'error' && half.message).toMatch(/parameter 1 "x" expects an int/);
  });

  test("!stay's parameter is the reference's `type`: a tool call with it becomes !stay(-1)", () => {
    const tool = commandTools(allCommands.list()).find((t) => t.name === 'stay')!;
    expect(Object.keys(tool.parameters.properties)).toEqual(['type']);
    const stay = parse('!stay(-1)');
    expect(stay.kind === 'command' && stay.args).toEqual({ type: -1 });
  });
});

describe('how long actions run', () => {
  const bound = (text: string) => {
    const parsed = parse(text);
    if (parsed.kind !== 'command') throw new Error(text);
    return (parsed.command as CommandDef<unknown, Record<string, ParamSpec>>).timeBound?.(parsed.args);
  };

  test('!followPlayer and !stay(-1) run until stopped; !stay(n) until its n seconds are over; others have the default bound', () => {
    expect(bound('!followPlayer("Steve", 3)')).toBe('until stopped');
    expect(bound('!stay(-1)')).toBe('until stopped');
    expect(bound('!stay(600)')).toBeGreaterThan(600_000);
    expect(bound('!collectBlocks("oak_log", 4)')).toBeUndefined();
  });

  test("an action without a time bound outlives the runner's default bound and still ends within a second of stop()", async () => {
    const runner = new ActionRunner({ timeoutMs: 50 });
    const startedAt = Date.now();
    // Ignores its signal on purpose: the runner must settle anyway.
    const result = runner.run('!stay', () => new Promise<string>(() => {}), { timeoutMs: Infinity });
    // Four times the default bound later it is still running: nothing but stop() ends it.
    await waitUntil(() => Date.now() - startedAt > 200, 'four default bounds have passed', { intervalMs: 20 });
    expect(runner.current).toBe('!stay');
    const asked = Date.now();
    await runner.stop('stopped by Steve');
    const outcome = await result;
    expect(Date.now() - asked).toBeLessThanOrEqual(SETTLE_MS + 200);
    expect(outcome).toMatchObject({ interrupted: true, timedOut: false, output: '!stay was stopped by Steve.' });
  });
});

describe("this project's own meanings are commands of their own", () => {
  test('!craftItems counts items wanted; blocking !craftRecipe blocks it too', () => {
    expect(allCommands.get('!craftItems')?.variantOf).toBe('!craftRecipe');
    const blocked = allCommands.without(['!craftRecipe']);
    expect(blocked.get('!craftRecipe')).toBeUndefined();
    expect(blocked.get('!craftItems')).toBeUndefined();
    expect(allCommands.without(['!craftItems']).get('!craftRecipe')).toBeDefined();
  });
});

test("the README's command table is the registry's (`npm run docs:commands` rewrites it)", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  expect(replaceTable(readme, commandsTable(allCommands)), 'README.md is out of date: run `npm run docs:commands`').toBe(readme);
});
