/**
 * Target selectors (src/server/services/selectors.ts) without a server: vanilla 1.21 `@a @p @r
 * @s @e` with `type`, `name`, `limit`, `sort`, `distance` and `gamemode`, player names, and the
 * vanilla error for each kind of mistake.
 */
import minecraftData from 'minecraft-data';
import { describe, expect, test } from 'vitest';
import { Vec3 } from 'vec3';
import { CommandError } from '../../src/server/services/command-arguments.ts';
import { resolvePlayers, resolveTargets } from '../../src/server/services/selectors.ts';
import type { SquidEntity, SquidPlayer, SquidServer, SquidWorld } from '../../src/server/types.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const overworld = {} as SquidWorld;
const nether = {} as SquidWorld;
let nextId = 1;
const entity = (fields: Partial<SquidEntity> & { x: number }): SquidEntity =>
  ({ id: nextId++, type: 'mob', world: overworld, position: new Vec3(fields.x, 0, 0), ...fields }) as SquidEntity;
const player = (username: string, x: number, fields: Partial<SquidPlayer> = {}): SquidPlayer =>
  entity({ type: 'player', username, health: 20, gameMode: 0, x, ...fields }) as SquidPlayer;

const alice = player('Alice', 0);
const bob = player('Bob', 10, { gameMode: 1 });
const dead = player('Dead', 2, { health: 0 });
const cow = entity({ name: 'cow', health: 10, x: 3 });
const farCow = entity({ name: 'cow', health: 10, x: 30 });
const dyingCow = entity({ name: 'cow', health: 0, x: 1 });
const zombie = entity({ name: 'zombie', health: 20, x: 5 });
const item = entity({ type: 'object', name: 'item', x: 4 });
const netherCow = entity({ name: 'cow', health: 10, x: 1, world: nether });
const players = [alice, bob, dead];
const serv = {
  registry: minecraftData(TEST_VERSION),
  overworld,
  players,
  entities: Object.fromEntries([alice, bob, dead, cow, farCow, dyingCow, zombie, item, netherCow].map((e) => [e.id, e])),
  getPlayer: (name: string) => players.find((p) => p.username === name) ?? null,
} as unknown as SquidServer;
const byAlice = { player: alice };
const names = (found: SquidEntity[]): string[] =>
  found.map((e) => (e.type === 'player' ? (e as SquidPlayer).username : `${e.name}@${e.position.x}`));

/** The vanilla translation key of the CommandError `run` throws. */
function errorKey(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    if (err instanceof CommandError) return err.component.translate;
    throw err;
  }
  return undefined;
}

describe('target selectors', () => {
  test('players by name and the five selector kinds', () => {
    expect(names(resolveTargets(serv, 'Bob', byAlice))).toEqual(['Bob']);
    expect(names(resolveTargets(serv, '@s', byAlice))).toEqual(['Alice']);
    expect(names(resolveTargets(serv, '@a', byAlice))).toEqual(['Alice', 'Bob', 'Dead']); // dead players too
    expect(names(resolveTargets(serv, '@p', { player: bob }))).toEqual(['Bob']);
    expect(names(resolveTargets(serv, '@p', byAlice))).toEqual(['Alice']); // the caller is nearest to itself
    expect(['Alice', 'Bob']).toContain(names(resolveTargets(serv, '@r', byAlice))[0]);
    // @e: living entities only, in spawn order (the dying cow is left out).
    expect(names(resolveTargets(serv, '@e', byAlice))).toEqual(['Alice', 'Bob', 'cow@3', 'cow@30', 'zombie@5', 'item@4', 'cow@1']);
  });

  test('type, name, limit, sort, distance and gamemode options', () => {
    expect(names(resolveTargets(serv, '@e[type=minecraft:cow]', byAlice))).toEqual(['cow@3', 'cow@30', 'cow@1']);
    expect(names(resolveTargets(serv, '@e[type=!player,type=!cow]', byAlice))).toEqual(['zombie@5', 'item@4']);
    expect(names(resolveTargets(serv, '@e[type=cow,sort=nearest,limit=1]', byAlice))).toEqual(['cow@3']); // not the nether cow
    expect(names(resolveTargets(serv, '@e[type=cow, sort=furthest]', byAlice))).toEqual(['cow@30', 'cow@3']);
    expect(names(resolveTargets(serv, '@e[distance=..5]', byAlice))).toEqual(['Alice', 'cow@3', 'zombie@5', 'item@4']);
    expect(names(resolveTargets(serv, '@e[distance=4..6,type=!item]', byAlice))).toEqual(['zombie@5']);
    expect(names(resolveTargets(serv, '@a[gamemode=creative]', byAlice))).toEqual(['Bob']);
    expect(names(resolveTargets(serv, '@a[name=!Alice,limit=1]', byAlice))).toEqual(['Bob']);
    expect(names(resolveTargets(serv, '@p[x=9]', byAlice))).toEqual(['Bob']);
    expect(names(resolvePlayers(serv, '@e[distance=..12]', byAlice))).toEqual(['Alice', 'Bob']);
  });

  test('vanilla errors: nothing found, too many, malformed selectors', () => {
    expect(errorKey(() => resolveTargets(serv, 'Nobody', byAlice))).toBe('argument.entity.notfound.entity');
    expect(errorKey(() => resolvePlayers(serv, '@e[type=cow]', byAlice))).toBe('argument.entity.notfound.player');
    expect(errorKey(() => resolveTargets(serv, '@s', {}))).toBe('argument.entity.notfound.entity'); // the console is no entity
    expect(errorKey(() => resolveTargets(serv, '@e[type=cow]', byAlice, { single: true }))).toBe('argument.entity.toomany');
    expect(errorKey(() => resolvePlayers(serv, '@a', byAlice, { single: true }))).toBe('argument.player.toomany');
    expect(errorKey(() => resolveTargets(serv, '@x', byAlice))).toBe('argument.entity.selector.unknown');
    expect(errorKey(() => resolveTargets(serv, '@e[colour=red]', byAlice))).toBe('argument.entity.options.unknown');
    expect(errorKey(() => resolveTargets(serv, '@e[type=dragonfly]', byAlice))).toBe('argument.entity.options.type.invalid');
    expect(errorKey(() => resolveTargets(serv, '@e[limit=0]', byAlice))).toBe('argument.entity.options.limit.toosmall');
    expect(errorKey(() => resolveTargets(serv, '@e[sort=tallest]', byAlice))).toBe('argument.entity.options.sort.irreversible');
    expect(errorKey(() => resolveTargets(serv, '@e[distance=5..2]', byAlice))).toBe('argument.range.swapped');
    expect(errorKey(() => resolveTargets(serv, '@a[gamemode=hardcore]', byAlice))).toBe('argument.entity.options.mode.invalid');
  });
});
