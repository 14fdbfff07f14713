import { describe, expect, expectTypeOf, it } from 'vitest';
import { CommandRegistry, UNBLOCKABLE, defineCommand, exampleCall, signature } from '../../src/commands/registry.ts';
import { nameResolver, normaliseName } from '../../src/game/names.ts';
import { done } from '../../src/skills/outcome.ts';
import { collectBlocks, defs, registry, stats, type FakeCtx } from './fake-registry.ts';

describe('defineCommand', () => {
  it('types perform arguments from the declared params', () => {
    expectTypeOf(collectBlocks.perform).parameter(1).toEqualTypeOf<{ readonly type: string; readonly num: number }>();
    expectTypeOf(collectBlocks.perform).parameter(0).toEqualTypeOf<FakeCtx>();
    expectTypeOf(stats.perform).parameter(0).toEqualTypeOf<FakeCtx>();
    const setMode = registry.get('!setMode')!;
    expect(setMode.params.on?.type).toBe('boolean');
  });

  it('returns the definition unchanged and it runs', async () => {
    const ctx: FakeCtx = { log: [] };
    await collectBlocks.perform(ctx, { type: 'oak_log', num: 3 });
    await stats.perform(ctx, {});
    expect(ctx.log).toEqual(['collect 3 oak_log', 'stats']);
  });
});

describe('CommandRegistry', () => {
  it('rejects duplicate and malformed names', () => {
    expect(() => new CommandRegistry([stats, stats])).toThrow('duplicate command "!stats"');
    expect(() => new CommandRegistry([{ ...stats, name: 'stats' }])).toThrow('malformed command name "stats"');
    expect(() => new CommandRegistry([{ ...stats, name: '!two words' }])).toThrow(/malformed/);
  });

  it('looks commands up with or without the bang, exact case; list keeps registration order', () => {
    expect(registry.get('!collectBlocks')).toBe(collectBlocks);
    expect(registry.get('collectBlocks')).toBe(collectBlocks);
    expect(registry.get('collectblocks')).toBeUndefined();
    expect(registry.getIgnoringCase('COLLECTBLOCKS')).toBe(collectBlocks);
    expect(registry.get('!nope')).toBeUndefined();
    expect(registry.list().map((d) => d.name)).toEqual(defs.map((d) => d.name));
  });

  it('closest() ranks by edit distance', () => {
    expect(registry.closest('!collectBlock', 1)).toEqual(['!collectBlocks']);
    expect(registry.closest('invntory', 2)[0]).toBe('!inventory');
    expect(registry.closest('x', 3)).toHaveLength(3);
  });

  describe('without()', () => {
    const blocked = registry.without(['collectBlocks', '!craftRecipe', ...UNBLOCKABLE, 'notACommand']);

    it('removes blocked commands from lookup, list, docs and help', () => {
      for (const name of ['!collectBlocks', '!craftRecipe']) {
        expect(blocked.get(name)).toBeUndefined();
        expect(blocked.list().some((d) => d.name === name)).toBe(false);
        expect(blocked.docs()).not.toContain(name);
        expect(blocked.help()).not.toContain(name);
      }
      expect(blocked.list()).toHaveLength(defs.length - 2);
    });

    it('keeps UNBLOCKABLE commands, even when listed with or without the bang', () => {
      expect(UNBLOCKABLE).toEqual(['!stop', '!stats', '!inventory', '!goal']);
      const b2 = registry.without(['stop', 'stats', '!inventory', '!goal']);
      for (const name of UNBLOCKABLE) {
        expect(blocked.get(name)?.name).toBe(name);
        expect(b2.get(name)?.name).toBe(name);
        expect(blocked.docs()).toContain(name);
      }
    });

    it('leaves the original registry intact', () => {
      expect(registry.get('!collectBlocks')).toBe(collectBlocks);
      expect(registry.list()).toHaveLength(defs.length);
    });
  });

  describe('docs()', () => {
    it('renders a compact block per command', () => {
      const one = new CommandRegistry([collectBlocks]);
      expect(one.docs()).toBe(
        '!collectBlocks(type: BlockName, num: int): Collect the nearest blocks of a type.\n' +
          '  type: block to collect\n' +
          '  num: how many [1, 1000)',
      );
      expect(new CommandRegistry([stats]).docs()).toBe('!stats: Your position, health, hunger and surroundings.');
    });

    it('leaves out parameter lines that say nothing, keeps domains', () => {
      const docs = registry.docs();
      expect(docs).toContain(
        '!goToCoordinates(x: float, y: float, z: float, closeness: float): Walk to a position.\n  y: [-64, 320)\n  closeness: stop within [0, inf)',
      );
      expect(docs).not.toMatch(/^ {2}x:/m);
    });

    it('lists queries before actions, every command once', () => {
      const docs = registry.docs();
      const heads = docs
        .split('\n')
        .filter((l) => l.startsWith('!'))
        .map((l) => l.match(/^![A-Za-z]+/)![0]);
      expect(new Set(heads)).toEqual(new Set(defs.map((d) => d.name)));
      expect(heads).toHaveLength(defs.length);
      const kinds = heads.map((h) => registry.get(h)!.kind);
      expect(kinds.indexOf('action')).toBeGreaterThan(kinds.lastIndexOf('query'));
    });

    it('is short: about half the reference (~6,800 chars for 48 commands, ~142 per command)', () => {
      // With terse descriptions like the fixture's (~36 chars of description text per command).
      const perCommand = registry.docs().length / registry.list().length;
      expect(perCommand).toBeLessThan(75);
      // Formatting overhead beyond the descriptions themselves (names, types, domains) is small.
      const descChars = defs.reduce(
        (n, d) => n + d.description.length + Object.values(d.params).reduce((m, p) => m + p.description.length, 0),
        0,
      );
      expect((registry.docs().length - descChars) / defs.length).toBeLessThan(40);
    });
  });

  it('help() explains the syntax with a valid example and groups queries and actions', () => {
    const help = registry.help();
    expect(help).toMatch(/^Use a command by writing it in your reply, e\.g\. !goal\("text"\)\./);
    expect(help.indexOf('Queries:\n!stats')).toBeGreaterThan(0);
    expect(help.indexOf('Actions:\n!stop')).toBeGreaterThan(help.indexOf('Queries:'));
    expect(new CommandRegistry<FakeCtx>([]).help()).toMatch(/^Use a command/);
  });

  it('signature() and exampleCall() respect domains and examples', () => {
    expect(signature(collectBlocks)).toBe('!collectBlocks(type: BlockName, num: int)');
    expect(signature(stats)).toBe('!stats');
    expect(exampleCall(collectBlocks)).toBe('!collectBlocks("oak_log", 4)');
    expect(exampleCall(registry.get('!setMode')!)).toBe('!setMode("self_defense", true)');
    const far = defineCommand({
      name: '!far',
      kind: 'action',
      description: 'd',
      params: { n: { type: 'int', description: 'n', domain: [10, 20] }, m: { type: 'float', description: 'm', domain: [-Infinity, -3] } },
      async perform(_ctx: FakeCtx) {
        return done('ok');
      },
    });
    expect(exampleCall(far)).toBe('!far(10, -4)');
  });
});

describe('nameResolver', () => {
  const names = nameResolver('1.21.4');

  it('is cached per version and rejects unknown versions', () => {
    expect(nameResolver('1.21.4')).toBe(names);
    expect(() => nameResolver('0.0.1-nope')).toThrow(/no version "0.0.1-nope"/);
  });

  it.each([
    ['oak_log', 'oak_log'],
    ['Oak Log', 'oak_log'],
    ['OAK_LOG', 'oak_log'],
    ['minecraft:oak_log', 'minecraft:oak_log'.slice(10)],
    ['  "oak-log" ', 'oak_log'],
    ['oak_logs', 'oak_log'],
    ['oak__log', 'oak_log'],
    ['cobblestones', 'cobblestone'],
    ['stone_brick', 'stone_bricks'],
  ])('block %j → %s', (input, want) => {
    expect(names.block(input)).toEqual({ ok: true, name: want });
  });

  it.each([
    ['oak_plank', 'oak_planks'],
    ['Oak Planks', 'oak_planks'],
    ['sticks', 'stick'],
    ['diamonds', 'diamond'],
    ['minecraft:iron_ingots', 'iron_ingot'],
    ['sweet_berry', 'sweet_berries'],
    ['glass', 'glass'],
  ])('item %j → %s', (input, want) => {
    expect(names.item(input)).toEqual({ ok: true, name: want });
  });

  it('blocks and items are separate namespaces', () => {
    expect(names.item('stick').ok).toBe(true);
    expect(names.block('stick').ok).toBe(false);
    expect(names.block('water').ok).toBe(true);
  });

  it('suggests three valid names, substring matches first', () => {
    const logs = names.block('logs');
    expect(logs.ok).toBe(false);
    if (!logs.ok) {
      expect(logs.suggestions).toHaveLength(3);
      for (const s of logs.suggestions) expect(s).toContain('log');
      expect(logs.suggestions).toContain('oak_log');
    }
    const typo = names.block('oak_lgo');
    expect(typo.ok).toBe(false);
    if (!typo.ok) expect(typo.suggestions[0]).toBe('oak_log');
    const item = names.item('diamond_pickax');
    if (!item.ok) expect(item.suggestions[0]).toBe('diamond_pickaxe');
    else throw new Error('diamond_pickax should not resolve');
  });

  it('every suggestion is a valid name; empty input gets none', () => {
    const r = names.item('zzzzqqq');
    expect(r.ok).toBe(false);
    if (!r.ok) for (const s of r.suggestions) expect(names.item(s)).toEqual({ ok: true, name: s });
    expect(names.item('')).toEqual({ ok: false, suggestions: [] });
  });

  it('normaliseName', () => {
    expect(normaliseName(' Minecraft:Dark Oak - Planks ')).toBe('dark_oak_planks');
    expect(normaliseName('\u201coak_log\u201d')).toBe('oak_log');
  });
});
