/**
 * The plugin contract (src/server/plugin.ts, plugins.ts): the built-in list is valid, a broken
 * list fails at start-up with an error naming the plugin and its requirement, and no port is
 * bound when it does.
 */
import { describe, expect, test } from 'vitest';
import { startEmbeddedServer } from '../../src/server/embedded.ts';
import { installPlugins, validatePlugins, type ServerPlugin } from '../../src/server/plugin.ts';
import { BUILTIN_PLUGINS } from '../../src/server/plugins.ts';
import type { SquidServer } from '../../src/server/types.ts';

const plugin = (name: string, requires: string[] = [], installed?: string[]): ServerPlugin => ({
  name,
  requires,
  install: () => {
    installed?.push(name);
  },
});

describe('server plugin list', () => {
  test('the built-in list is valid, and every requirement is a service or a plugin it wraps', () => {
    expect(() => validatePlugins(BUILTIN_PLUGINS)).not.toThrow();
    const names = BUILTIN_PLUGINS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['inventory', 'movement', 'teleport', 'mobs', 'mob-ai', 'mob-combat', 'mob-loot', 'mob-commands']),
    );
  });

  test('a requirement listed after its user, or missing, is a clear error', () => {
    expect(() => validatePlugins([plugin('digging', ['inventory']), plugin('inventory')])).toThrow(
      'server plugin "digging" requires "inventory", which is listed after it: move "inventory" up',
    );
    expect(() => validatePlugins([plugin('digging', ['inventory'])])).toThrow(
      'server plugin "digging" requires "inventory", which is not in the plugin list',
    );
    expect(() => validatePlugins([plugin('a'), plugin('a')])).toThrow('server plugin "a" is listed twice');
  });

  test('installPlugins installs in order, and nothing when the list is invalid', () => {
    const installed: string[] = [];
    const serv = {} as SquidServer;
    installPlugins(serv, [plugin('a', [], installed), plugin('b', ['a'], installed)]);
    expect(installed).toEqual(['a', 'b']);
    installed.length = 0;
    expect(() => installPlugins(serv, [plugin('a', [], installed), plugin('b', ['c'], installed)])).toThrow(/"b" requires "c"/);
    expect(installed).toEqual([]);
  });

  test('startEmbeddedServer rejects a broken extra plugin before it starts anything', async () => {
    await expect(startEmbeddedServer({ port: 0, plugins: [plugin('extra', ['nothing'])] })).rejects.toThrow(
      'server plugin "extra" requires "nothing", which is not in the plugin list',
    );
  });
});
