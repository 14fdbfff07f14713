/** Profile layering (_default ← base ← bot) and prompt templating. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BASE_PROFILES, deepMerge, loadMergedProfile, mergeProfiles, PROFILE_DEFAULTS_DIR } from '../../src/settings/profiles.ts';
import { fillTemplate, PROMPT_VARIABLES, templateVariables } from '../../src/agent/prompts/template.ts';
import { ConfigError } from '../../src/settings/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'profiles-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const writeJson = (name: string, data: unknown): string => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(data));
  return file;
};

describe('deepMerge', () => {
  test('objects merge key by key, deeply; arrays and strings replace; later wins', () => {
    const a = { name: 'x', modes: { hunting: true, cheat: false }, blocked_actions: ['!a', '!b'], nested: { deep: { p: 1, q: 2 } } };
    const b = { modes: { hunting: false }, blocked_actions: ['!c'], nested: { deep: { q: 3 } }, persona: 'kind' };
    const c = { persona: 'grumpy', nested: { deep: { r: 4 } } };
    expect(deepMerge(a, b, c)).toEqual({
      name: 'x',
      modes: { hunting: false, cheat: false },
      blocked_actions: ['!c'],
      nested: { deep: { p: 1, q: 3, r: 4 } },
      persona: 'grumpy',
    });
  });

  test('does not mutate inputs or share arrays with them; ignores __proto__ keys', () => {
    const a = { list: [1, 2], obj: { k: 1 } };
    const b = JSON.parse('{"obj": {"j": 2}, "__proto__": {"polluted": true}}');
    const merged = deepMerge(a, b) as { list: number[]; obj: object };
    expect(a).toEqual({ list: [1, 2], obj: { k: 1 } });
    merged.list.push(3);
    expect(a.list).toEqual([1, 2]);
    expect(merged.obj).toEqual({ k: 1, j: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
  });

  test('an object replaces a scalar and vice versa; undefined layers are skipped', () => {
    expect(deepMerge({ a: 'text' }, { a: { b: 1 } })).toEqual({ a: { b: 1 } });
    expect(deepMerge({ a: { b: 1 } }, { a: null })).toEqual({ a: null });
    expect(deepMerge({ a: 1 }, undefined, { b: 2 })).toEqual({ a: 1, b: 2 });
  });
});

describe('loadMergedProfile', () => {
  test('the shipped base profiles exist and differ in their modes', async () => {
    const bot = writeJson('andy.json', { name: 'Andy', model: 'anthropic/claude-test' });
    const load = (base: (typeof BASE_PROFILES)[number]) => loadMergedProfile(bot, { base });
    const [s, c, g] = BASE_PROFILES;
    const [survival, creative, god] = await Promise.all([load(s), load(c), load(g)]);
    expect(survival.modes).toMatchObject({ self_preservation: true, hunting: true, cheat: false });
    expect(creative.modes).toMatchObject({ self_preservation: false, hunting: false, cheat: false, unstuck: true });
    expect(god.modes).toMatchObject({ cheat: true, self_preservation: false });
    // Prompts come from _default, untouched by the base.
    const defaults = JSON.parse(readFileSync(path.join(PROFILE_DEFAULTS_DIR, '_default.json'), 'utf8'));
    expect(survival.conversing).toBe(defaults.conversing);
    expect(god.coding).toBe(defaults.coding);
    // Schema defaults apply after merging.
    expect(survival).toMatchObject({ name: 'Andy', model: 'anthropic/claude-test', tool_calling: 'text', blocked_actions: [] });
  });

  test('the bot profile overrides single modes and whole prompts; its arrays replace', async () => {
    writeJson('base.json', { modes: { hunting: true }, blocked_actions: ['!attack', '!digDown'], persona: 'Base persona.' });
    const bot = writeJson('jill.json', {
      name: 'Jill',
      modes: { hunting: false },
      blocked_actions: ['!newAction'],
      conversing: 'Hi, I am $NAME.',
      tool_calling: 'native',
    });
    const p = await loadMergedProfile(bot, { base: './base.json', baseDir: dir });
    expect(p.modes.hunting).toBe(false);
    expect(p.modes.self_defense).toBe(true); // from _default
    expect(p.blocked_actions).toEqual(['!newAction']);
    expect(p.persona).toBe('Base persona.');
    expect(p.conversing).toBe('Hi, I am $NAME.');
    expect(p.tool_calling).toBe('native');
  });

  test('errors name the file and the key', async () => {
    const bot = writeJson('bad.json', { name: 'Bob', modes: { hunting: 'yes' } });
    await expect(loadMergedProfile(bot)).rejects.toThrow(/bad\.json: key "modes\.hunting": expected boolean/);
    await expect(loadMergedProfile(writeJson('ok.json', { name: 'Bob' }), { base: 'peaceful' })).rejects.toThrow(
      /peaceful\.json: base profile not found/,
    );
    await expect(loadMergedProfile(path.join(dir, 'missing.json'))).rejects.toBeInstanceOf(ConfigError);
    expect(() => mergeProfiles([{}, {}, { name: 'Bob' }])).toThrow(/conversing/);
  });
});

describe('fillTemplate', () => {
  test('fills values, leaves unknown variables visible and reports them once', () => {
    const r = fillTemplate('I am $NAME. $STATS\n$FOO and $FOO again, $MEMORY', { NAME: 'Andy', STATS: 'health 20', MEMORY: '' });
    expect(r.text).toBe('I am Andy. health 20\n$FOO and $FOO again, ');
    expect(r.unknown).toEqual(['FOO']);
  });

  test('a standard variable without a value is reported too', () => {
    expect(fillTemplate('$COMMAND_DOCS\n$EXAMPLES', { COMMAND_DOCS: 'docs' })).toEqual({ text: 'docs\n$EXAMPLES', unknown: ['EXAMPLES'] });
  });

  test('values are inserted literally: no re-expansion, no $& replacement patterns', () => {
    const r = fillTemplate('$CONVO|$NAME', { CONVO: 'Bob: type $NAME or $& or $1', NAME: 'Andy' });
    expect(r.text).toBe('Bob: type $NAME or $& or $1|Andy');
    expect(r.unknown).toEqual([]);
  });

  test('lower-case and dollar amounts are not variables', () => {
    expect(fillTemplate('costs $5 and $name', {})).toEqual({ text: 'costs $5 and $name', unknown: [] });
  });

  test('the shipped prompts use only standard variables, and fill completely', () => {
    const keys = ['conversing', 'coding', 'saving_memory', 'bot_responder'] as const;
    const defaults = JSON.parse(readFileSync(path.join(PROFILE_DEFAULTS_DIR, '_default.json'), 'utf8')) as Record<
      (typeof keys)[number],
      string
    >;
    const all = Object.fromEntries(PROMPT_VARIABLES.map((v) => [v, `<${v}>`]));
    for (const key of keys) {
      for (const v of templateVariables(defaults[key])) expect(PROMPT_VARIABLES, `${key} uses $${v}`).toContain(v);
      expect(fillTemplate(defaults[key], all).unknown).toEqual([]);
    }
    // The conversing prompt starts with its static part (name, rules, command docs) for prompt caching.
    const vars = templateVariables(defaults.conversing);
    expect(vars.indexOf('COMMAND_DOCS')).toBeLessThan(vars.indexOf('STATS'));
    expect(vars.indexOf('COMMAND_DOCS')).toBeLessThan(vars.indexOf('MEMORY'));
  });
});
