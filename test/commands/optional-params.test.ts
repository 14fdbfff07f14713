/** Optional trailing parameters (`!help("craftRecipe")` and plain `!help`) and the short `!help` text. */
import { expect, expectTypeOf, it } from 'vitest';
import { parseCommand } from '../../src/commands/parser.ts';
import { CommandRegistry, defineCommand, signature } from '../../src/commands/registry.ts';
import { commandTools } from '../../src/commands/tools.ts';
import { nameResolver } from '../../src/game/names.ts';
import { done } from '../../src/skills/outcome.ts';

const help = defineCommand({
  name: '!help',
  kind: 'query',
  description: 'The commands; with a name, its parameters.',
  params: { command: { type: 'string', description: 'a command name', optional: true } },
  async perform(_ctx: object, { command }) {
    return done(command ?? 'all');
  },
});
const craft = defineCommand({
  name: '!craftRecipe',
  kind: 'action',
  description: 'Craft an item.',
  params: { recipe_name: { type: 'ItemName', description: 'item' }, num: { type: 'int', description: 'times', domain: [1, 100] } },
  async perform() {
    return done('ok');
  },
});
const registry = new CommandRegistry<object>([help, craft]);
const names = nameResolver('1.21.4');

it('an optional parameter may be left out; it is typed as possibly undefined', () => {
  expectTypeOf(help.perform).parameter(1).toEqualTypeOf<{ readonly command: string | undefined }>();
  const bare = parseCommand('!help', registry, names);
  expect(bare.kind === 'command' && bare.args).toEqual({});
  const named = parseCommand('!help("craftRecipe")', registry, names);
  expect(named.kind === 'command' && named.args).toEqual({ command: 'craftRecipe' });
  const extra = parseCommand('!help("a", "b")', registry, names);
  expect(extra.kind === 'error' && extra.message).toMatch(/^!help: expects 0 to 1 parameter, got 2/);
  expect(signature(help)).toBe('!help(command?: string)');
  expect(commandTools([help])[0]!.parameters.required).toEqual([]);
});

it('!help is a few lines of names with a pointer to !help("name"); with a name, that command\'s docs', () => {
  const text = registry.help();
  expect(text.split('\n')).toEqual([
    'Use a command by writing it in your reply, e.g. !craftRecipe("oak_planks", 4). Only the first command in a reply runs; quote text arguments.',
    'Queries:',
    '!help',
    'Actions:',
    '!craftRecipe',
    '!help("craftRecipe") shows a command\'s parameters.',
  ]);
  expect(registry.help('craftrecipe')).toBe(
    '!craftRecipe(recipe_name: ItemName, num: int): Craft an item.\n  recipe_name: item\n  num: times [1, 100)',
  );
  expect(registry.help('!crafRecipe')).toMatch(/^There is no command !crafRecipe\. Did you mean !craftRecipe/);
});
