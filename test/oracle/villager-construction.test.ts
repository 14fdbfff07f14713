/**
 * The offline policy's VillagerBench construction split (src/oracle/villager-construction.ts):
 * pure, so every agent computes the same one from the blueprint and the team's names.
 */
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { cellKey } from '../../src/oracle/construction-plan.ts';
import { itemsFor, splitVillagerBuild, VillagerBuilder } from '../../src/oracle/villager-construction.ts';
import type { Observation } from '../../src/oracle/observation.ts';
import type { JournalEntry } from '../../src/commands/journal.ts';
import type { Blueprint } from '../../src/tasks/schema.ts';
import { levelsBlueprint } from '../../src/tasks/villager/load.ts';
import { generateVillagerConstruction } from '../../src/tasks/villager/generate.ts';
import { blueprintMaterials, placeBlueprint } from '../../src/tasks/villager/construction.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const data = gameData(TEST_VERSION);
const propertiesOf = (n: string) => data.blocksByName[n]?.states?.map((s) => s.name);
const [house] = generateVillagerConstruction(data, { count: 1, seed: 3 });
const blocks = placeBlueprint(house!);
const blueprint = levelsBlueprint(blocks, propertiesOf);

describe('splitting a VillagerBench blueprint', () => {
  test.each([2, 4, 8])('%i agents: every cell to exactly one agent, the same split whatever the order of names', (n) => {
    const team = Array.from({ length: n }, (_, i) => `bot${i}`);
    const split = splitVillagerBuild(blueprint, team);
    expect(split.order).toHaveLength(blocks.length);
    expect(new Set(split.order.map(cellKey)).size).toBe(blocks.length);
    expect(split.owner.size).toBe(blocks.length);
    expect([...split.owner]).toEqual([...splitVillagerBuild(blueprint, [...team].reverse()).owner]);
    // Everyone has work when there are cells enough; the items the cells take are the chests' materials.
    expect(new Set(split.owner.values()).size).toBe(n);
    const byAgent = team.map((name) =>
      itemsFor(
        data,
        split.order.filter((c) => split.owner.get(cellKey(c)) === name),
      ),
    );
    const total: Record<string, number> = {};
    for (const items of byAgent) for (const [item, k] of Object.entries(items)) total[item] = (total[item] ?? 0) + k;
    expect(total).toEqual(blueprintMaterials(data, blocks));
  });

  test('lower levels first, and in a level every cell rests on the level below or on a cell before it; cells carry their states', () => {
    const { order } = splitVillagerBuild(blueprint, ['a', 'b']);
    expect(order.map((c) => c.level)).toEqual([...order.map((c) => c.level)].sort((a, b) => a - b));
    const before = new Set<string>();
    for (const c of order) {
      const rests =
        c.level === 0 ||
        before.has(cellKey({ ...c, y: c.y - 1 })) ||
        [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ].some(([dx, dz]) => before.has(cellKey({ x: c.x + dx!, y: c.y, z: c.z + dz! })));
      expect(rests, `${c.state} at ${cellKey(c)}`).toBe(true);
      before.add(cellKey(c));
    }
    expect(order.some((c) => /_stairs\[facing=(east|west)\]$/.test(c.state))).toBe(true);
    expect(order.some((c) => /_log\[axis=x\]$/.test(c.state))).toBe(true);
  });

  test('a team of no builders is refused', () => {
    expect(() => splitVillagerBuild(blueprint, [])).toThrow(/no builders/);
  });
});

describe('a VillagerBench builder whose blocks are not in hand', () => {
  test('goes back to the chests for them (a take two players made at once may have given it fewer)', () => {
    const stone: Blueprint = { materials: {}, levels: [{ level: 0, coordinates: [0, -60, 0], placement: [['stone', 'stone']] }] };
    const chest = { x: 0, y: -60, z: 3 };
    const builder = new VillagerBuilder(data);
    let seq = 0;
    const observe = (inventory: Record<string, number>, records: JournalEntry[] = []): Observation => ({
      name: 'Andy',
      inventory,
      targets: undefined,
      blueprint: stone,
      task: { teammates: [], materialChests: [chest] },
      canUse: () => true,
      partner: undefined,
      blocks: [],
      mobs: [],
      records,
    });
    const check = (): JournalEntry => ({
      kind: 'outcome',
      by: 'model',
      seq: ++seq,
      t: seq,
      outcome: {
        command: '!checkBlueprintLevel',
        args: { levelNum: 0 },
        ok: true,
        code: 'ok',
        text: 'Level 0 needs 2 changes',
        data: {
          blueprint: {
            level: 0,
            complete: false,
            changes: [0, 1].map((x) => ({ action: 'place' as const, position: { x, y: -60, z: 0 }, block: 'stone' })),
          },
        },
      },
    });
    expect(builder.decide(observe({}), [chest], '')).toBe('!goToCoordinates(0, -60, 4, 0)');
    expect(builder.decide(observe({}), [chest], '')).toBe('!takeFromChest("stone", 2)');
    // It seemed to take both; the server's correction then left it with none.
    expect(builder.decide(observe({ stone: 2 }), [chest], '')).toBe('!checkBlueprintLevel(0)');
    const replies: string[] = [];
    for (let i = 0; i < 20 && !replies.includes('!takeFromChest("stone", 2)'); i++)
      replies.push(builder.decide(observe({}, [check()]), [chest], ''));
    expect(replies).toContain('!goToCoordinates(0, -60, 4, 0)');
    expect(replies.at(-1)).toBe('!takeFromChest("stone", 2)');
  });
});
