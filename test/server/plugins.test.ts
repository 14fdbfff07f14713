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
import { botCount, connectBot, startTestServer } from '../helpers/world.ts';
import { waitUntil } from '../helpers/wait.ts';

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

describe("the server's reset, built from its plugins' resets", () => {
  test('reset() puts back what a player and the world changed since the checkpoint: blocks, mobs, items, block entities, inventory, effects, experience, place, time, weather', async () => {
    const server = await startTestServer();
    const bot = await connectBot(server, 'Alice');
    try {
      const start = bot.entity.position.clone();
      const ground = start.floored().offset(2, -1, 0);
      const groundBlock = bot.blockAt(ground)!.name;
      server.checkpoint();
      const time = Number(server.serv.time);
      for (const line of [
        `/setblock ${ground.x} ${ground.y} ${ground.z} stone`,
        `/setblock ${ground.x} ${ground.y + 1} ${ground.z + 2} furnace`,
        `/summon pig ${start.x + 4} ${start.y} ${start.z}`,
        '/give Alice oak_log 5',
        '/effect give Alice slowness 600',
        '/xp add Alice 2 levels',
        '/weather rain',
        '/time add 3000',
        `/tp Alice ${start.x + 5} ${start.y} ${start.z + 5}`,
      ])
        bot.chat(line);
      await waitUntil(
        () =>
          bot.blockAt(ground)?.name === 'stone' &&
          Object.values(bot.entities).some((e) => e.name === 'pig') &&
          botCount(bot, 'oak_log') === 5 &&
          Object.keys(bot.entity.effects).length > 0 &&
          bot.experience.level === 2 &&
          bot.isRaining &&
          bot.entity.position.distanceTo(start) > 4,
        'the changes are there',
      );
      await server.reset();
      await waitUntil(
        () =>
          bot.blockAt(ground)?.name === groundBlock &&
          !Object.values(bot.entities).some((e) => e.type !== 'player') &&
          bot.inventory.items().length === 0 &&
          Object.keys(bot.entity.effects).length === 0 &&
          bot.experience.level === 0 &&
          !bot.isRaining &&
          bot.entity.position.distanceTo(start) < 0.5,
        'the world and the player are as at the checkpoint',
      );
      expect(Object.keys(server.serv.entities).filter((id) => server.serv.entities[Number(id)]?.type !== 'player')).toEqual([]);
      expect(Number(server.serv.time)).toBeLessThan(time + 3000);
    } finally {
      bot.quit();
      await server.close();
    }
  }, 60_000);
});
