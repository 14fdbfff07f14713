/**
 * The offline policy under a coordination strategy: it does the subtask it was given, by its typed
 * work (make, collect, give, build), in the in-memory stand-in, and stops; what it cannot do it
 * says once.
 */
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { simulate, type SimAgent } from './oracle-sim.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const data = gameData(TEST_VERSION);
const FLAT = { blocks: ['grass_block', 'dirt', 'bedrock', 'crafting_table'], mobs: [] };
const FOREST = { blocks: ['grass_block', 'dirt', 'oak_log', 'crafting_table'], mobs: [] };

describe('a subtask by its typed work', () => {
  test('make: crafts from what it holds, and stops once it holds the targets', () => {
    const result = simulate(
      data,
      [
        {
          name: 'Andy',
          inventory: { oak_log: 2 },
          blocked: [],
          assignment: { node: '1.1', description: 'make sticks', work: { kind: 'make', targets: { stick: 4 } } },
        },
      ],
      FLAT,
    );
    const andy = result.agents.get('Andy')!;
    expect(andy.commands).toEqual(['!craftRecipe("oak_planks", 1)', '!craftRecipe("stick", 1)']);
    expect(andy.inventory.stick).toBe(4);
    expect(andy.said).toEqual([]);
  });

  test('collect: gathers from the world what it is asked for', () => {
    const result = simulate(
      data,
      [
        {
          name: 'Andy',
          inventory: {},
          blocked: [],
          assignment: { node: '1.1', description: 'logs', work: { kind: 'collect', targets: { oak_log: 3 } } },
        },
      ],
      FOREST,
    );
    expect(result.agents.get('Andy')!.inventory.oak_log).toBe(3);
  });

  test('make without the means: says once why it cannot finish, then stops', () => {
    const result = simulate(
      data,
      [
        {
          name: 'Andy',
          inventory: {},
          blocked: [],
          assignment: { node: '2.3', description: 'a compass', work: { kind: 'make', targets: { compass: 1 } } },
        },
      ],
      FLAT,
    );
    const andy = result.agents.get('Andy')!;
    expect(andy.commands).toEqual([]);
    expect(andy.said).toEqual(['I cannot finish 2.3: I lack 1 compass.']);
  });

  test('give: hands every item over; what went astray is given again from what is left, and the rest said missing', () => {
    const team: SimAgent[] = [
      {
        name: 'Andy',
        inventory: { wheat: 5 },
        blocked: [],
        assignment: { node: '1.2', description: 'wheat to Jill', work: { kind: 'give' as const, to: 'Jill', items: { wheat: 3 } } },
      },
      { name: 'Jill', inventory: {}, blocked: [] },
    ];
    const plain = simulate(data, team, FLAT);
    expect(plain.agents.get('Andy')!.commands).toEqual(['!givePlayer("Jill", "wheat", 3)']);
    expect(plain.agents.get('Jill')!.inventory.wheat).toBe(3);
    // The first toss lies on the ground: the 2 wheat left go, and the last one is said missing.
    const astray = simulate(data, team, FLAT, 2000, { from: 'Andy', to: 'Jill' });
    const andy = astray.agents.get('Andy')!;
    expect(andy.commands).toEqual(['!givePlayer("Jill", "wheat", 3)', '!givePlayer("Jill", "wheat", 2)']);
    expect(astray.agents.get('Jill')!.inventory.wheat).toBe(2);
    expect(andy.said).toEqual(['I cannot finish 1.2: I have no wheat to give Jill.']);
  });

  test('build: cells bottom up; a placement the server refused is tried again after stepping aside', () => {
    const cells = [
      { x: 1, y: -59, z: 0, block: 'stone' },
      { x: 0, y: -60, z: 0, block: 'stone' },
      { x: 1, y: -60, z: 0, block: 'oak_planks' },
    ];
    const result = simulate(
      data,
      [
        {
          name: 'Andy',
          inventory: { stone: 2, oak_planks: 1 },
          blocked: [],
          assignment: { node: '3.1', description: 'a wall', work: { kind: 'build', cells } },
        },
      ],
      FLAT,
      2000,
      undefined,
      new Set(['1,-60,0']),
    );
    const andy = result.agents.get('Andy')!;
    expect(andy.commands).toEqual([
      '!placeBlockAt("stone", 0, -60, 0)',
      '!placeBlockAt("oak_planks", 1, -60, 0)',
      '!moveAway(2)',
      '!stay(2)', // the retry guard's wait before the same command again
      '!placeBlockAt("oak_planks", 1, -60, 0)',
      '!placeBlockAt("stone", 1, -59, 0)',
    ]);
    expect([...result.world.entries()].sort()).toEqual([
      ['0,-60,0', 'stone'],
      ['1,-59,0', 'stone'],
      ['1,-60,0', 'oak_planks'],
    ]);
  });
});
