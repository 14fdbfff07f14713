/**
 * Block states as commands write them (src/game/block-state.ts), the switch rules
 * (src/game/switches.ts) and the click rules (src/game/placement.ts), read from minecraft-data of
 * every version the server serves.
 */
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { describeOriented, formatBlockState, parseBlockState } from '../../src/game/block-state.ts';
import { doorHinge, lookFacing } from '../../src/game/placement.ts';
import { MAX_SIGNAL, plateSignal, signalOf, switchKinds, type PlateKind } from '../../src/game/switches.ts';
import { SERVER_VERSIONS } from '../../src/game/versions.ts';

/** A block as prismarine-block gives it, for the rules that read names and properties only. */
const block = (name: string, properties: Record<string, string | number | boolean> = {}) => ({ name, getProperties: () => properties });

describe.each(SERVER_VERSIONS)('block states of %s', (version) => {
  const registry = gameData(version);

  test('a state is parsed against minecraft-data and written back in the same form', () => {
    const spec = parseBlockState(registry, 'oak_stairs[facing=west, half=bottom]');
    expect(spec).toEqual({ name: 'oak_stairs', properties: { facing: 'west', half: 'bottom' } });
    expect(formatBlockState(spec)).toBe('oak_stairs[facing=west,half=bottom]');
    expect(parseBlockState(registry, 'stone')).toEqual({ name: 'stone', properties: {} });
    expect(parseBlockState(registry, 'heavy_weighted_pressure_plate[power=7]').properties).toEqual({ power: '7' });
    expect(parseBlockState(registry, 'Oak Log[axis=x]', (n) => n.toLowerCase().replace(/ /g, '_'))).toEqual({
      name: 'oak_log',
      properties: { axis: 'x' },
    });
  });

  test('every mistake is named with what is valid', () => {
    const parse = (text: string) => () => parseBlockState(registry, text);
    expect(parse('oak_log[axis=w]')).toThrow('oak_log: axis cannot be "w"; it is one of x, y, z.');
    expect(parse('oak_log[facing=north]')).toThrow('oak_log has no property "facing"; its properties are axis (x|y|z).');
    expect(parse('lever[powered=yes]')).toThrow('lever: powered cannot be "yes"; it is one of true, false.');
    expect(parse('oak_log[axis=x,axis=y]')).toThrow('oak_log: "axis" is written twice in "oak_log[axis=x,axis=y]".');
    expect(parse('oak_log[axis]')).toThrow('"axis" in "oak_log[axis]" is not property=value');
    expect(parse('stone[axis=x]')).toThrow('stone has no properties: write just stone.');
    expect(parse('oak_log[axis=x')).toThrow('"oak_log[axis=x" is not a block state: write name[property=value,...]');
    expect(parse('oak_stair[facing=west]')).toThrow('"oak_stair" is not a block.');
  });

  test('an oriented block is shown with its orientation, others by name', () => {
    expect(describeOriented(block('oak_stairs', { facing: 'west', half: 'bottom', shape: 'straight', waterlogged: false }))).toBe(
      'oak_stairs[facing=west,half=bottom,shape=straight]',
    );
    expect(describeOriented(block('oak_log', { axis: 'x' }))).toBe('oak_log[axis=x]');
    expect(describeOriented(block('wheat', { age: 3 }))).toBe('wheat');
  });

  test('buttons, plates and the lever are switches by the registry; their signals follow vanilla', () => {
    const kinds = switchKinds(registry);
    const named = (suffix: string) => registry.blocksArray.filter((b) => b.name.endsWith(suffix)).map((b) => b.name);
    expect(named('_button').every((n) => kinds.get(n)?.kind === 'button')).toBe(true);
    expect(named('_pressure_plate').every((n) => kinds.get(n)?.kind === 'plate')).toBe(true);
    expect(kinds.get('stone_pressure_plate')).toEqual({ kind: 'plate', sensitivity: 'mobs', checkTicks: 20 });
    expect(kinds.get('oak_pressure_plate')).toEqual({ kind: 'plate', sensitivity: 'everything', checkTicks: 20 });
    const light = kinds.get('light_weighted_pressure_plate') as PlateKind;
    const heavy = kinds.get('heavy_weighted_pressure_plate') as PlateKind;
    expect([0, 1, 3, 15, 40].map((n) => plateSignal(light, n))).toEqual([0, 1, 3, 15, 15]);
    expect([0, 1, 10, 11, 150, 200].map((n) => plateSignal(heavy, n))).toEqual([0, 1, 1, 2, 15, 15]);
    expect(signalOf(registry, block('lever', { powered: true }))).toBe(MAX_SIGNAL);
    expect(signalOf(registry, block('stone_button', { powered: 'false' }))).toBe(0);
    expect(signalOf(registry, block('light_weighted_pressure_plate', { power: 4 }))).toBe(4);
    expect(signalOf(registry, block('redstone_block'))).toBe(0);
  });
});

describe('click rules', () => {
  test("a door's hinge is on the side of the click, as vanilla DoorBlock.getHinge", () => {
    // Facing north (looking at −z), the hinge is left when the click is on the west half.
    expect(doorHinge('north', 0.25, 0.5)).toBe('left');
    expect(doorHinge('north', 0.75, 0.5)).toBe('right');
    expect(doorHinge('south', 0.75, 0.5)).toBe('left');
    expect(doorHinge('east', 0.5, 0.25)).toBe('left');
    expect(doorHinge('west', 0.5, 0.25)).toBe('right');
  });

  test('a look faces the nearest horizontal direction', () => {
    expect([lookFacing(1, 0.2), lookFacing(-1, 0.9), lookFacing(0.1, -2), lookFacing(0, 3)]).toEqual(['east', 'west', 'north', 'south']);
  });
});
