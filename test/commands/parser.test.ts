import { describe, expect, it } from 'vitest';
import { nameResolver } from '../../src/game/names.ts';
import { parseCommand, type ParseResult } from '../../src/commands/parser.ts';
import { registry, type FakeCtx } from './fake-registry.ts';

const names = nameResolver('1.21.4');
const parse = (text: string): ParseResult<FakeCtx> => parseCommand(text, registry, names);

function expectCommand(text: string) {
  const r = parse(text);
  if (r.kind !== 'command') throw new Error(`expected a command from ${JSON.stringify(text)}, got ${JSON.stringify(r)}`);
  return r;
}
function expectError(text: string) {
  const r = parse(text);
  if (r.kind !== 'error') throw new Error(`expected an error from ${JSON.stringify(text)}, got ${JSON.stringify(r)}`);
  return r;
}

describe('parseCommand: accepted forms', () => {
  const collect = { type: 'oak_log', num: 4 };
  const cases: [string, string, Record<string, unknown>][] = [
    ['!stats', '!stats', {}],
    ['!stats()', '!stats', {}],
    ['!stats( )', '!stats', {}],
    ['!collectBlocks("oak_log", 4)', '!collectBlocks', collect],
    ["!collectBlocks('oak_log', 4)", '!collectBlocks', collect],
    ['!collectBlocks( "oak_log" , 4 )', '!collectBlocks', collect],
    ['!collectBlocks(oak_log, 4)', '!collectBlocks', collect],
    ['!collectBlocks("oak_log","4")', '!collectBlocks', collect],
    ['!collectBlocks("oak_log", 4.0)', '!collectBlocks', collect],
    ['!collectBlocks("oak_log", 4,)', '!collectBlocks', collect],
    ['!collectBlocks ("oak_log", 4)', '!collectBlocks', collect],
    ['!collectBlocks(\n  "oak_log",\n  4\n)', '!collectBlocks', collect],
    ['!collectBlocks(\u201coak_log\u201d, 4)', '!collectBlocks', collect],
    ['!collectBlocks("Oak Log", 4)', '!collectBlocks', collect],
    ['!collectBlocks("minecraft:oak_log", 4)', '!collectBlocks', collect],
    ['!collectBlocks("oak_logs", 4)', '!collectBlocks', collect],
    ['!CollectBlocks("oak_log", 4)', '!collectBlocks', collect],
    ['`!collectBlocks("oak_log", 4)`', '!collectBlocks', collect],
    ['!craftRecipe("oak_plank", 1)', '!craftRecipe', { recipe: 'oak_planks', num: 1 }],
    ['!goToCoordinates(10, -63.5, 1e2, 0)', '!goToCoordinates', { x: 10, y: -63.5, z: 100, closeness: 0 }],
    ['!goToCoordinates(-5, 64, +3, 2.5)', '!goToCoordinates', { x: -5, y: 64, z: 3, closeness: 2.5 }],
    ['!stay(-1)', '!stay', { seconds: -1 }],
    ['!setMode("cowardice", true)', '!setMode', { mode: 'cowardice', on: true }],
    ['!setMode(cowardice, on)', '!setMode', { mode: 'cowardice', on: true }],
    ['!setMode(cowardice, YES)', '!setMode', { mode: 'cowardice', on: true }],
    ['!setMode(cowardice, t)', '!setMode', { mode: 'cowardice', on: true }],
    ['!setMode(cowardice, 1)', '!setMode', { mode: 'cowardice', on: true }],
    ['!setMode(cowardice, "false")', '!setMode', { mode: 'cowardice', on: false }],
    ['!setMode(cowardice, f)', '!setMode', { mode: 'cowardice', on: false }],
    ['!setMode(cowardice, 0)', '!setMode', { mode: 'cowardice', on: false }],
    ['!setMode(cowardice, off)', '!setMode', { mode: 'cowardice', on: false }],
    ['!setMode(cowardice, no)', '!setMode', { mode: 'cowardice', on: false }],
    ['!startConversation("bob", "hi, how (are) you?")', '!startConversation', { player: 'bob', message: 'hi, how (are) you?' }],
    ['!startConversation("bob", "she said \\"hi\\"")', '!startConversation', { player: 'bob', message: 'she said "hi"' }],
    ["!startConversation('bob', 'I\\'m here')", '!startConversation', { player: 'bob', message: "I'm here" }],
    ["!startConversation('bob', 'I'm here')", '!startConversation', { player: 'bob', message: "I'm here" }],
    ['!startConversation("bob", "line1\\nline2 \\\\ ok")', '!startConversation', { player: 'bob', message: 'line1\nline2 \\ ok' }],
    ['!startConversation(bob, hello there (friend))', '!startConversation', { player: 'bob', message: 'hello there (friend)' }],
    ['!startConversation("bob", "")', '!startConversation', { player: 'bob', message: '' }],
    ['!startConversation("bob", "  spaced  ")', '!startConversation', { player: 'bob', message: '  spaced  ' }],
    ['!startConversation("bob", "héllo ⛏️ 你好")', '!startConversation', { player: 'bob', message: 'héllo ⛏️ 你好' }],
    ['!goal("build a house, then !stop")', '!goal', { selfPrompt: 'build a house, then !stop' }],
  ];
  it.each(cases)('%s', (text, name, args) => {
    const r = expectCommand(text);
    expect(r.command.name).toBe(name);
    expect(r.args).toEqual(args);
  });

  it('returns the text before the command and the command source, ignoring trailing prose', () => {
    const r = expectCommand('Sure, I will get wood!  !collectBlocks("oak_log", 4) and then craft. !stats');
    expect(r.before).toBe('Sure, I will get wood!');
    expect(r.source).toBe('!collectBlocks("oak_log", 4)');
    expect(r.args).toEqual({ type: 'oak_log', num: 4 });
  });

  it('strips backticks and code fences around the command from before', () => {
    expect(expectCommand('Let me look. `!stats`').before).toBe('Let me look.');
    expect(expectCommand('On it.\n```\n!inventory\n```').before).toBe('On it.');
    expect(expectCommand('**!stats**').before).toBe('');
  });

  it('source of a parameterless command without parentheses is just the name', () => {
    const r = expectCommand('checking !inventory now');
    expect(r.source).toBe('!inventory');
    expect(r.before).toBe('checking');
  });

  it('a zero-parameter command followed by spaced parentheses treats them as prose', () => {
    const r = expectCommand('!stats (just checking)');
    expect(r.command.name).toBe('!stats');
    expect(r.source).toBe('!stats');
  });

  it('only the first command counts', () => {
    const r = expectCommand('!inventory !stats !collectBlocks("oak_log", 4)');
    expect(r.command.name).toBe('!inventory');
    // An error in a later command is not reached.
    expect(expectCommand('!stats then !collectBlocks("nope", 4)').command.name).toBe('!stats');
  });

  it('skips prose bangs before the command', () => {
    const r = expectCommand('Wow!great, hi !there!! !!stats');
    expect(r.command.name).toBe('!stats');
    expect(r.before).toBe('Wow!great, hi !there!! !');
  });
});

describe('parseCommand: no command', () => {
  it.each([
    '',
    'hello there',
    'Wow!great',
    'hi !there',
    'Yes! I can help!',
    '!!!',
    '! stats',
    '!123',
    '!é',
    'Sure!collectBlock', // a misspelling glued to a word is prose
  ])('%j', (text) => {
    expect(parse(text)).toEqual({ kind: 'none' });
  });
});

describe('parseCommand: errors', () => {
  const ex = 'Example: !collectBlocks("oak_log", 4)';
  const cases: [string, string][] = [
    ['!collectBlocks("oak_log", "lots")', `!collectBlocks: parameter 2 "num" expects an int in [1, 1000), got "lots". ${ex}`],
    ['!collectBlocks(oak_log, lots)', `!collectBlocks: parameter 2 "num" expects an int in [1, 1000), got "lots". ${ex}`],
    [
      '!collectBlocks("oak_log", 4.5)',
      `!collectBlocks: parameter 2 "num" expects an int in [1, 1000), got "4.5" (not a whole number). ${ex}`,
    ],
    [
      '!collectBlocks("oak_log", 1000)',
      `!collectBlocks: parameter 2 "num" expects an int in [1, 1000), got "1000" (outside [1, 1000)). ${ex}`,
    ],
    ['!collectBlocks("oak_log", 0)', `!collectBlocks: parameter 2 "num" expects an int in [1, 1000), got "0" (outside [1, 1000)). ${ex}`],
    [
      '!collectBlocks("oak_log")',
      `!collectBlocks: expects 2 parameters, got 1; missing parameter 2 "num" (an int in [1, 1000)). Usage: !collectBlocks(type: BlockName, num: int). ${ex}`,
    ],
    [
      '!collectBlocks',
      `!collectBlocks: expects 2 parameters, got 0; missing parameter 1 "type" (a block name). Usage: !collectBlocks(type: BlockName, num: int). ${ex}`,
    ],
    [
      '!collectBlocks("oak_log", 4, 5)',
      `!collectBlocks: expects 2 parameters, got 3; parameter 3 and after are extra ("5"). Usage: !collectBlocks(type: BlockName, num: int). ${ex}`,
    ],
    ['!stats("me")', '!stats: expects 0 parameters, got 1; parameter 1 and after are extra ("me"). Usage: !stats. Example: !stats'],
    [
      '!setMode("cowardice", maybe)',
      '!setMode: parameter 2 "on" expects a boolean (true or false), got "maybe". Example: !setMode("self_defense", true)',
    ],
    [
      '!goToCoordinates(0, 400, 0, 1)',
      '!goToCoordinates: parameter 2 "y" expects a number in [-64, 320), got "400" (outside [-64, 320)). Example: !goToCoordinates(1.5, 1.5, 1.5, 1.5)',
    ],
    [
      '!goToCoordinates(0, 64, 0, -1)',
      '!goToCoordinates: parameter 4 "closeness" expects a number in [0, inf), got "-1" (outside [0, inf)). Example: !goToCoordinates(1.5, 1.5, 1.5, 1.5)',
    ],
    [
      '!goToCoordinates(1e999, 64, 0, 1)',
      '!goToCoordinates: parameter 1 "x" expects a number, got "1e999" (too large). Example: !goToCoordinates(1.5, 1.5, 1.5, 1.5)',
    ],
    ['!collectBlocks("oak_log", 4', `!collectBlocks: missing ")" after parameter 2 "num". ${ex}`],
    ['!collectBlocks("oak_log", 4\nThen I craft.', `!collectBlocks: missing ")" after parameter 2 "num". ${ex}`],
    ['!collectBlocks("oak_log", ', `!collectBlocks: missing ")" to close the parameters. ${ex}`],
    [
      '!collectBlocks("oak_log, 4)',
      `!collectBlocks: parameter 1 "type" has an unterminated string starting "\\"oak_log, 4)"; close it with a matching quote. ${ex}`,
    ],
    ['!collectBlocks(, 4)', `!collectBlocks: parameter 1 "type" is empty. ${ex}`],
    ['!collectBlocks("oak_log",, 4)', `!collectBlocks: parameter 2 "num" is empty. ${ex}`],
    ['!collectBlocks("oak_log" 4)', `!collectBlocks: expected "," or ")" after parameter 1 "type", got "4)". ${ex}`],
  ];
  it.each(cases)('%s', (text, message) => {
    const r = expectError(text);
    expect(r.message).toBe(message);
    expect(r.commandName).toBe(text.match(/!(\w+)/)![0].replace('!CollectBlocks', '!collectBlocks'));
  });

  it('an unknown block name names the command, the parameter, the input and the closest valid names', () => {
    const r = expectError('I will chop. !collectBlocks("oak_lgo", 4)');
    expect(r.before).toBe('I will chop.');
    expect(r.message).toMatch(
      /^!collectBlocks: parameter 1 "type" expects a block name, got "oak_lgo" \(no such block; closest valid names: "oak_log"/,
    );
    expect(r.message).toMatch(/Example: !collectBlocks\("oak_log", 4\)$/);
  });

  it('an item that is not a block is rejected for BlockName but accepted for ItemName', () => {
    expect(expectError('!collectBlocks("stick", 1)').message).toContain('got "stick" (no such block');
    expect(expectCommand('!craftRecipe("stick", 1)').args).toEqual({ recipe: 'stick', num: 1 });
  });

  it('an unknown item name suggests substring matches', () => {
    const r = expectError('!craftRecipe("planks", 1)');
    expect(r.message).toMatch(
      /^!craftRecipe: parameter 1 "recipe" expects an item name, got "planks" \(no such item; closest valid names: "\w+_planks", "\w+_planks", "\w+_planks"\)/,
    );
  });

  it('unknown command with parentheses names the closest commands', () => {
    const r = expectError('ok !collectWood("oak_log", 4)');
    expect(r.commandName).toBe('!collectWood');
    expect(r.message).toMatch(
      /^!collectWood is not a command I have\. Did you mean !collectBlocks, !\w+, !\w+\? Use !help to list commands\.$/,
    );
    expect(r.before).toBe('ok');
  });

  it('a near-miss standing alone is an error even without parentheses', () => {
    const r = expectError('let me !collectBlock oak logs');
    expect(r.commandName).toBe('!collectBlock');
    expect(r.message).toMatch(/^!collectBlock is not a command I have\. Did you mean !collectBlocks,/);
    expect(expectError('!inventroy').message).toMatch(/Did you mean !inventory/);
  });

  it('an error stops the search: a later valid command is not used', () => {
    const r = expectError('!collectBlocks("oak_log", -3) !stats');
    expect(r.commandName).toBe('!collectBlocks');
  });

  it('a throwing resolver becomes an error, not an exception', () => {
    const bad = {
      item: () => {
        throw new Error('boom');
      },
      block: () => {
        throw new Error('boom');
      },
    };
    const r = parseCommand('!collectBlocks("oak_log", 4)', registry, bad);
    expect(r.kind).toBe('error');
    if (r.kind === 'error') expect(r.message).toContain('boom');
  });

  it('blocked commands are unknown to the parser', () => {
    const limited = registry.without(['collectBlocks']);
    const r = parseCommand('!collectBlocks("oak_log", 4)', limited, names);
    expect(r.kind).toBe('error');
    if (r.kind === 'error') expect(r.message).toMatch(/^!collectBlocks is not a command I have/);
    expect(parseCommand('!stats', limited, names).kind).toBe('command');
  });
});

/** Mulberry32: small deterministic PRNG so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('parseCommand: fuzz', () => {
  const pieces = [
    '!',
    '!!',
    '(',
    ')',
    ',',
    '"',
    "'",
    '`',
    '\\',
    '\\"',
    ' ',
    '\n',
    '\t',
    '\u201c',
    '\u201d',
    '\u2019',
    '!collectBlocks',
    '!collectBlocks(',
    '!stats',
    '!goToCoordinates(',
    '!setMode(',
    '!startConversation(',
    '!goal(',
    '!stay(',
    '!unknown',
    '!collectBlock',
    '!craftRecipe(',
    'oak_log',
    'oak_plank',
    'minecraft:stone',
    'Oak Log',
    'true',
    'off',
    '4',
    '-1',
    '4.5',
    '1e309',
    'NaN',
    'Infinity',
    '0x10',
    'lots',
    'é',
    '⛏️',
    '你好',
    '\u0000',
    '\ud800',
    '👍🏽',
    'constructor',
    '__proto__',
    'toString',
  ];

  function randomText(next: () => number): string {
    const n = Math.floor(next() * 30);
    let s = '';
    for (let i = 0; i < n; i++) {
      if (next() < 0.15) s += String.fromCharCode(Math.floor(next() * 0xffff));
      else s += pieces[Math.floor(next() * pieces.length)]!;
    }
    return s;
  }

  function check(text: string): ParseResult<FakeCtx> {
    let r: ParseResult<FakeCtx> | undefined;
    expect(
      () => {
        r = parse(text);
      },
      text.slice(0, 200),
    ).not.toThrow();
    const res = r!;
    if (res.kind === 'error') {
      expect(res.message.length).toBeGreaterThan(0);
      expect(typeof res.before).toBe('string');
      if (res.commandName !== undefined) {
        expect(res.commandName).toMatch(/^![A-Za-z]/);
        expect(res.message).toContain(res.commandName);
      }
      // Every error after a `!name` in the text names a command.
      expect(res.commandName).toBeDefined();
    } else if (res.kind === 'command') {
      expect(registry.get(res.command.name)).toBe(res.command);
      expect(text).toContain(res.source);
      expect(Object.keys(res.args)).toEqual(Object.keys(res.command.params));
      for (const [k, spec] of Object.entries(res.command.params as Record<string, { type: string }>)) {
        const v = res.args[k];
        const want = spec.type === 'int' || spec.type === 'float' ? 'number' : spec.type === 'boolean' ? 'boolean' : 'string';
        expect(typeof v).toBe(want);
        if (spec.type === 'int') expect(Number.isInteger(v)).toBe(true);
      }
    }
    return res;
  }

  it('never throws on 1500 random strings, and results are well-formed', () => {
    const next = rng(0xc0ffee);
    const kinds = { none: 0, command: 0, error: 0 };
    for (let i = 0; i < 1500; i++) kinds[check(randomText(next)).kind]++;
    // The generator must exercise all three outcomes, or the test proves little.
    expect(kinds.none).toBeGreaterThan(50);
    expect(kinds.command).toBeGreaterThan(50);
    expect(kinds.error).toBeGreaterThan(50);
  });

  it('handles huge inputs quickly', () => {
    const next = rng(42);
    const huge = [
      '!'.repeat(200_000),
      '!abc '.repeat(50_000),
      '!collectBlocks("' + 'a'.repeat(300_000),
      '!collectBlocks(' + '('.repeat(100_000),
      'x'.repeat(500_000) + '!stats',
      Array.from({ length: 20_000 }, () => randomText(next)).join(''),
      '!startConversation("bob", "' + '\\"'.repeat(100_000) + '")',
    ];
    const t0 = performance.now();
    for (const text of huge) check(text);
    expect(expectCommand('x'.repeat(500_000) + '!stats').before.length).toBe(500_000);
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});
