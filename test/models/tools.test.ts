/** Native tool calling: schemas from command declarations, wire formats, and the way back to command text. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { nameResolver } from '../../src/game/names.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { commandTools } from '../../src/commands/tools.ts';
import { createModel, renderReply, toolCallToCommand, type ToolSpec } from '../../src/models/index.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { registry } from '../commands/fake-registry.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';

const tools = commandTools(registry.list());
const tool = (name: string): ToolSpec => tools.find((t) => t.name === name)!;

describe('commandTools', () => {
  test('one tool per command, named without the bang, all params required, no extras', () => {
    expect(tools.map((t) => t.name)).toEqual(registry.list().map((d) => d.name.slice(1)));
    expect(tool('craftRecipe')).toEqual({
      name: 'craftRecipe',
      description: 'Craft an item, using a nearby crafting table.',
      parameters: {
        type: 'object',
        properties: {
          recipe: { type: 'string', description: 'item to craft — a Minecraft item id, e.g. "oak_planks"' },
          num: { type: 'integer', description: 'times to craft', minimum: 1, exclusiveMaximum: 100 },
        },
        required: ['recipe', 'num'],
        additionalProperties: false,
      },
    });
    expect(tool('stats').parameters).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  test('types and domains: float → number, infinite bounds left out, BlockName explained, boolean', () => {
    const go = tool('goToCoordinates').parameters.properties;
    expect(go.x).toEqual({ type: 'number', description: 'x' });
    expect(go.y).toEqual({ type: 'number', description: 'y', minimum: -64, exclusiveMaximum: 320 });
    expect(go.closeness).toEqual({ type: 'number', description: 'stop within', minimum: 0 });
    expect(tool('collectBlocks').parameters.properties.type).toMatchObject({
      type: 'string',
      description: expect.stringContaining('block id'),
    });
    expect(tool('setMode').parameters.properties.on).toEqual({ type: 'boolean', description: 'on or off' });
    expect(tool('stay').parameters.properties.seconds).toMatchObject({ minimum: -1, exclusiveMaximum: 86400 });
  });
});

describe('tool call → command text', () => {
  const names = nameResolver('1.21.4');

  test('arguments in declaration order, whatever order the model sent; the parser accepts the result', () => {
    const text = toolCallToCommand({ name: 'craftRecipe', arguments: { num: 4, recipe: 'stick' } }, tools);
    expect(text).toBe('!craftRecipe("stick", 4)');
    const parsed = parseCommand(text, registry, names);
    expect(parsed).toMatchObject({ kind: 'command', args: { recipe: 'stick', num: 4 } });
  });

  test('quotes and backslashes in strings survive the round trip', () => {
    const message = 'say "hi", then go\\back)';
    const text = toolCallToCommand({ name: 'startConversation', arguments: { player: 'Jill', message } }, tools);
    expect(parseCommand(text, registry, names)).toMatchObject({ kind: 'command', args: { player: 'Jill', message } });
  });

  test('booleans and no-arg commands', () => {
    expect(toolCallToCommand({ name: 'setMode', arguments: { mode: 'cowardice', on: false } }, tools)).toBe('!setMode("cowardice", false)');
    expect(toolCallToCommand({ name: 'stats', arguments: {} }, tools)).toBe('!stats');
  });

  test('a missing argument stops the list, so the parser reports the count to the model', () => {
    const text = toolCallToCommand({ name: 'craftRecipe', arguments: { num: 4 } }, tools);
    expect(text).toBe('!craftRecipe');
    const parsed = parseCommand(text, registry, names);
    expect(parsed.kind).toBe('error');
  });

  test('renderReply appends only the first call to the text', () => {
    const calls = [
      { id: 'a', name: 'craftRecipe', arguments: { recipe: 'stick', num: 4 }, rawArguments: '' },
      { id: 'b', name: 'stats', arguments: {}, rawArguments: '' },
    ];
    expect(renderReply('Making sticks.', calls, tools)).toBe('Making sticks. !craftRecipe("stick", 4)');
    expect(renderReply('', calls, tools)).toBe('!craftRecipe("stick", 4)');
    expect(renderReply('Just chatting.', [], tools)).toBe('Just chatting.');
  });
});

test('profiles select tool calling, text by default', () => {
  expect(profileSchema.parse({ name: 'Andy' }).tool_calling).toBe('text');
  expect(profileSchema.parse({ name: 'Andy', tool_calling: 'native' }).tool_calling).toBe('native');
  expect(() => profileSchema.parse({ name: 'Andy', tool_calling: 'json' })).toThrow();
});

describe.each(['anthropic', 'openai'] as const)('native tool calling via %s', (protocol) => {
  let fake: FakeProviderServer;
  beforeAll(async () => {
    fake = await startFakeProvider(protocol);
  });
  afterAll(async () => {
    await fake.close();
  });

  test('tools are sent in the provider format; a tool call comes back as command text', async () => {
    fake.enqueue({ text: 'Making sticks.', toolCalls: [{ name: 'craftRecipe', input: { recipe: 'stick', num: 4 } }] });
    const model = createModel(fake.spec(), { env: fake.env });
    const reply = await model.complete({ system: 's', turns: [{ role: 'user', content: 'make sticks' }], tools });
    expect(reply).toBe('Making sticks. !craftRecipe("stick", 4)');

    const call = fake.requests.at(-1)!.call!;
    expect(call.tools).toEqual(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })));
    const raw = fake.requests.at(-1)!.body.tools[0];
    if (protocol === 'anthropic') expect(Object.keys(raw)).toEqual(expect.arrayContaining(['name', 'description', 'input_schema']));
    else expect(raw).toMatchObject({ type: 'function', function: { name: tools[0]!.name } });
  });

  test('respond() keeps the call structured; a call without text renders the command alone', async () => {
    fake.enqueue({ text: '', toolCalls: [{ name: 'goToCoordinates', input: { x: 1.5, y: 64, z: -3, closeness: 2 } }] });
    const model = createModel(fake.spec(), { env: fake.env });
    const result = await model.respond!({ system: 's', turns: [], tools });
    expect(result.text).toBe('');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ name: 'goToCoordinates', arguments: { x: 1.5, y: 64, z: -3, closeness: 2 } });
    const call = result.toolCalls[0]!;
    expect(call.id).toMatch(protocol === 'anthropic' ? /^toolu_/ : /^call_/);
    expect(toolCallToCommand(call, tools)).toBe('!goToCoordinates(1.5, 64, -3, 2)');
  });

  test('without tools nothing tool-related is sent and plain text comes back', async () => {
    fake.enqueue('hello');
    const model = createModel(fake.spec(), { env: fake.env });
    await expect(model.complete({ system: 's', turns: [] })).resolves.toBe('hello');
    expect(fake.requests.at(-1)!.body).not.toHaveProperty('tools');
    expect(fake.requests.at(-1)!.call!.tools).toEqual([]);
  });
});

test('openai: malformed tool arguments render the bare command (the parser then explains)', async () => {
  const fake = await startFakeProvider('openai', {
    replies: [{ text: 'ok', toolCalls: [{ name: 'craftRecipe', input: '{"recipe": "stick", num: 4' }] }],
  });
  try {
    const model = createModel(fake.spec(), { env: fake.env });
    const result = await model.respond!({ system: 's', turns: [], tools });
    expect(result.toolCalls[0]).toMatchObject({ name: 'craftRecipe', arguments: undefined, rawArguments: '{"recipe": "stick", num: 4' });
    expect(renderReply(result.text, result.toolCalls, tools)).toBe('ok !craftRecipe');
  } finally {
    await fake.close();
  }
});
