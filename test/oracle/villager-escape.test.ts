/**
 * The offline policy in escape rooms (src/oracle/villager-escape.ts), decision by decision, with
 * the world a map of block states: who takes which condition, what it types for each kind, when
 * it waits and when it walks on. The runs on the embedded server are test/e2e/escape-oracle.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { chainRooms, type Atom, type EscapeChain, type Pos } from '../../src/tasks/villager/escape.ts';
import { atomFileSchema } from '../../src/tasks/villager/escape.ts';
import type { BlockState } from '../../src/tasks/villager/states.ts';
import { escapeDecision, exitOpen, shareOf } from '../../src/oracle/villager-escape.ts';
import type { Observation } from '../../src/oracle/observation.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const data = gameData(TEST_VERSION);

const atoms: Atom[] = atomFileSchema.parse([
  {
    init: [
      { name: 'stone_button', position: [-2, 0, 1], face: 'floor', facing: 'north', powered: false },
      { name: 'oak_pressure_plate', position: [2, 0, 1], powered: false },
    ],
    condition: [
      { name: 'stone_button', position: [-2, 0, 1], powered: true },
      { name: 'oak_pressure_plate', position: [2, 0, 1], powered: true },
    ],
    effect: [
      { name: 'air', position: [0, 0, 4] },
      { name: 'air', position: [0, 1, 4] },
    ],
  },
]);
const blockAtom: Atom = atomFileSchema.parse([{ condition: [{ name: 'gold_block', position: [1, 0, 2] }], in: { gold_block: 1 } }])[0]!;
const orAtom: Atom = atomFileSchema.parse([
  {
    init: [
      { name: 'lever', position: [-2, 0, 2], face: 'floor', facing: 'north', powered: false },
      { name: 'lever', position: [2, 0, 2], face: 'floor', facing: 'north', powered: false },
    ],
    condition: [
      { name: 'lever', position: [-2, 0, 2], powered: true },
      { name: 'lever', position: [2, 0, 2], powered: true },
    ],
    type: 'or',
  },
])[0]!;

/** A chain of one room of each given atom, in order (seeded shuffles set aside: one atom per chain, chained by hand). */
function chainOf(...list: Atom[]): EscapeChain {
  const parts = list.map((a, i) => chainRooms([a], 1, 0, 2, { x: 0, y: 0, z: 20 * i }));
  const rooms = parts.map((p, i) => ({ ...p.rooms[0]!, index: i }));
  return { ...parts[0]!, rooms };
}

/** The world: closed exits (iron doors or stone), the rooms' init blocks, and any `set` on top. */
function world(chain: EscapeChain, set: Record<string, BlockState> = {}) {
  const blocks = new Map<string, BlockState>();
  for (const room of chain.rooms) {
    for (const dy of [0, 1])
      blocks.set(`${room.exit.x},${room.exit.y + dy},${room.exit.z}`, { name: 'iron_door', properties: { open: 'false' } });
    for (const b of room.init) blocks.set(`${b.at.x},${b.at.y},${b.at.z}`, { name: b.name, properties: { powered: 'false', ...b.states } });
  }
  for (const [k, v] of Object.entries(set)) blocks.set(k, v);
  return (x: number, y: number, z: number) => blocks.get(`${x},${y},${z}`) ?? { name: 'air', properties: {} };
}

function obs(name: string, position: Pos, stateAt: Observation['stateAt'], inventory: Record<string, number> = {}): Observation {
  return {
    name,
    inventory,
    targets: undefined,
    blueprint: undefined,
    task: { teammates: name === 'Andy' ? ['Jill'] : ['Andy'] },
    position,
    stateAt,
    canUse: () => true,
    partner: undefined,
    blocks: [],
    mobs: [],
    records: [],
  };
}

const key = (p: Pos) => `${p.x},${p.y},${p.z}`;
const xyz = (p: Pos) => `${p.x}, ${p.y}, ${p.z}`;

describe('escape rooms, decision by decision', () => {
  const chain = chainOf(atoms[0]!, blockAtom, orAtom);
  const [first, second, third] = chain.rooms as [EscapeChain['rooms'][0], EscapeChain['rooms'][0], EscapeChain['rooms'][0]];
  const [button, plate] = first.conditions;

  test('conditions are dealt round the team room after room; an or room hands out one', () => {
    expect(shareOf(chain, 0, 0, 2, data)).toEqual([button]);
    expect(shareOf(chain, 0, 1, 2, data)).toEqual([plate]);
    expect(shareOf(chain, 1, 0, 2, data)).toEqual(second.conditions);
    expect(shareOf(chain, 1, 1, 2, data)).toEqual([]);
    expect(shareOf(chain, 2, 1, 2, data)).toEqual([third.conditions[0]]);
    expect(shareOf(chain, 2, 0, 2, data)).toEqual([]);
    // One agent alone takes both, its plate last.
    expect(shareOf(chain, 0, 0, 1, data)).toEqual([button, plate]);
  });

  test('an exit is open when both its cells are air or an open door', () => {
    expect(exitOpen(first, world(chain))).toBe(false);
    const door = { name: 'iron_door', properties: { open: 'true' } };
    const up = { ...first.exit, y: first.exit.y + 1 };
    expect(exitOpen(first, world(chain, { [key(first.exit)]: door, [key(up)]: door }))).toBe(true);
    expect(exitOpen(first, world(chain, { [key(first.exit)]: { name: 'air', properties: {} } }))).toBe(false);
  });

  test('a button is pressed at its position again whenever it has released; a plate is walked onto, then held', () => {
    const start = first.centre;
    expect(escapeDecision(obs('Andy', start, world(chain)), chain, data)).toBe(`!activate("stone_button", ${xyz(button!.at)})`);
    const pressed = world(chain, { [key(button!.at)]: { name: 'stone_button', properties: { powered: 'true' } } });
    expect(escapeDecision(obs('Andy', start, pressed), chain, data)).toBe('!stay(1)');
    expect(escapeDecision(obs('Jill', start, world(chain)), chain, data)).toBe(`!activate("oak_pressure_plate", ${xyz(plate!.at)})`);
    expect(escapeDecision(obs('Jill', plate!.at, world(chain)), chain, data)).toBe('!stay(1)');
  });

  test('once the exit is open, an agent behind walks to the next room; a block is placed from the inventory with its state', () => {
    const open = {
      [key(first.exit)]: { name: 'air', properties: {} },
      [key({ ...first.exit, y: first.exit.y + 1 })]: { name: 'air', properties: {} },
    };
    expect(escapeDecision(obs('Andy', first.centre, world(chain, open)), chain, data)).toBe(`!goToCoordinates(${xyz(second.centre)}, 1)`);
    const gold = second.conditions[0]!;
    expect(escapeDecision(obs('Andy', second.centre, world(chain, open), { gold_block: 1 }), chain, data)).toBe(
      `!placeBlockAt("gold_block", ${xyz(gold.at)})`,
    );
    // Placed: nothing left to do but wait; without the block, it waits too.
    const placed = world(chain, { ...open, [key(gold.at)]: { name: 'gold_block', properties: {} } });
    expect(escapeDecision(obs('Andy', second.centre, placed, { gold_block: 0 }), chain, data)).toBe('!stay(1)');
    expect(escapeDecision(obs('Jill', second.centre, world(chain, open)), chain, data)).toBe('!stay(1)');
  });

  test('an exit that closed again (its effects undone): those still in the room take every condition; one past it plays its own room', () => {
    const open = {
      [key(first.exit)]: { name: 'air', properties: {} },
      [key({ ...first.exit, y: first.exit.y + 1 })]: { name: 'air', properties: {} },
    };
    // Jill's share is the plate: she holds it until the room opens, then walks on.
    const opened = new Set<number>();
    expect(escapeDecision(obs('Jill', plate!.at, world(chain)), chain, data, opened)).toBe('!stay(1)');
    expect(escapeDecision(obs('Jill', plate!.at, world(chain, open)), chain, data, opened)).toBe(
      `!goToCoordinates(${xyz(second.centre)}, 1)`,
    );
    expect([...opened]).toEqual([0]);
    // The exit closed again before she went through: Andy's button is hers now too (Andy may be past it).
    expect(escapeDecision(obs('Jill', first.centre, world(chain)), chain, data, opened)).toBe(
      `!activate("stone_button", ${xyz(button!.at)})`,
    );
    // Pressed: the plate next, unless a teammate holds it.
    const pressed = { [key(button!.at)]: { name: 'stone_button', properties: { powered: 'true' } } };
    expect(escapeDecision(obs('Jill', first.centre, world(chain, pressed)), chain, data, opened)).toBe(
      `!activate("oak_pressure_plate", ${xyz(plate!.at)})`,
    );
    const held = { ...pressed, [key(plate!.at)]: { name: 'oak_pressure_plate', properties: { powered: 'true' } } };
    expect(escapeDecision(obs('Jill', first.centre, world(chain, held)), chain, data, opened)).toBe('!stay(1)');
    // Andy, through before it closed, plays the second room (its block) rather than going back.
    const seen = new Set([0]);
    expect(escapeDecision(obs('Andy', second.centre, world(chain), { gold_block: 1 }), chain, data, seen)).toBe(
      `!placeBlockAt("gold_block", ${xyz(second.conditions[0]!.at)})`,
    );
    // Without having seen it open, the first closed room is still the one to play (its share: the button).
    expect(escapeDecision(obs('Andy', first.centre, world(chain)), chain, data, new Set())).toBe(
      `!activate("stone_button", ${xyz(button!.at)})`,
    );
  });

  test('every exit open: nothing more to do', () => {
    const all: Record<string, BlockState> = {};
    for (const r of chain.rooms) for (const dy of [0, 1]) all[key({ ...r.exit, y: r.exit.y + dy })] = { name: 'air', properties: {} };
    expect(escapeDecision(obs('Jill', third.centre, world(chain, all)), chain, data)).toBe('');
  });
});
