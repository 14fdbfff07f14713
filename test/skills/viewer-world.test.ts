/**
 * The world prismarine-viewer draws (src/skills/viewer-world.ts, src/game/state-ids.ts): a 1.21.11
 * column read with 1.21.4's data, as the viewer reads it, holds the same blocks with the same
 * properties, one level up by -minY; what 1.21.4 lacks is air; block updates are carried alike.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import blockLoader from 'prismarine-block';
import { Vec3 } from 'vec3';
import { gameData } from '../../src/game/data.ts';
import { stateIdTable } from '../../src/game/state-ids.ts';
import { ViewerWorld } from '../../src/skills/viewer-world.ts';

const require = createRequire(import.meta.url);
type Column = {
  setBlockStateId(p: Vec3, s: number): void;
  getBlockStateId(p: Vec3): number;
  toJson(): string;
};
type ColumnClass = { new (o: object): Column; fromJson(j: string): Column };
const chunkOf = (version: string) => (require('prismarine-chunk') as (r: unknown) => ColumnClass)(gameData(version));

const FROM = '1.21.11';
const TO = '1.21.4';
const from = gameData(FROM);
const to = gameData(TO);
const FromBlock = blockLoader(from as never);
const ToBlock = blockLoader(to as never);

/** A state of `name` in `data`'s version with `properties` set. */
function state(Block: typeof FromBlock, name: string, properties: Record<string, string | number> = {}): number {
  return Block.fromProperties(
    name,
    {
      ...Block.fromStateId((Block === FromBlock ? from : to).blocksByName[name]!.defaultState, 0).getProperties(),
      ...properties,
    } as Record<string, string | number>,
    0,
  ).stateId;
}

/** A bot stand-in with what ViewerWorld reads: its version, minY, world and events. */
function fakeBot(column: Column): Bot {
  const bot = new EventEmitter() as unknown as Bot & { world: unknown };
  Object.assign(bot, {
    version: FROM,
    game: { minY: -64, height: 384 },
    entity: { id: 1 },
    entities: {},
    world: { getColumnAt: async () => column },
  });
  return bot;
}

describe('state ids from 1.21.11 to 1.21.4', () => {
  const table = stateIdTable(FROM, TO)!;

  test('differ (blocks were added before others), and every block both have keeps its name and properties', () => {
    expect(from.blocksByName.red_wool!.defaultState).not.toBe(to.blocksByName.red_wool!.defaultState);
    let checked = 0;
    for (const block of from.blocksArray) {
      if (!to.blocksByName[block.name]) continue;
      for (let id = block.minStateId; id <= block.maxStateId; id += 7) {
        const carried = ToBlock.fromStateId(table[id]!, 0);
        expect(carried.name).toBe(block.name);
        // Each property 1.21.4 has with the value the 1.21.11 state sets, where 1.21.4 has that value.
        const properties = FromBlock.fromStateId(id, 0).getProperties();
        for (const s of to.blocksByName[block.name]!.states ?? []) {
          const value = properties[s.name];
          if (value !== undefined && (!s.values || s.values.includes(String(value))))
            expect([s.name, carried.getProperties()[s.name]]).toEqual([s.name, value]);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3_000);
  });

  test('a block 1.21.4 lacks is air; the same version needs no table', () => {
    expect(from.blocksByName.leaf_litter).toBeDefined();
    expect(to.blocksByName.leaf_litter).toBeUndefined();
    expect(table[from.blocksByName.leaf_litter!.defaultState]).toBe(to.blocksByName.air!.defaultState);
    expect(stateIdTable(TO, TO)).toBeUndefined();
  });
});

describe('a ViewerWorld of a 1.21.11 bot for a 1.21.4 viewer', () => {
  test('its columns read with 1.21.4 data hold the same blocks one minY up, in every kind of section', async () => {
    const column = new (chunkOf(FROM))({ minY: -64, worldHeight: 384 });
    const stairs = state(FromBlock, 'oak_stairs', { facing: 'east', half: 'top' });
    // y -64: one block in air (a single-value section made indirect); y 0: a wall; y 16: more
    // distinct states than a palette holds (a direct section).
    column.setBlockStateId(new Vec3(1, -64, 1), stairs);
    for (let x = 0; x < 16; x++)
      for (let y = 0; y < 3; y++) column.setBlockStateId(new Vec3(x, y, 5), from.blocksByName.red_wool!.defaultState);
    const many = from.blocksArray.filter((b) => to.blocksByName[b.name]).slice(0, 600);
    many.forEach((b, i) => column.setBlockStateId(new Vec3(i % 16, 16 + Math.floor(i / 256), Math.floor(i / 16) % 16), b.defaultState));
    const world = new ViewerWorld(fakeBot(column), TO);
    expect(world.shift).toBe(64);
    const seen = chunkOf(TO).fromJson((await world.getColumnAt(new Vec3(0, 0, 0)))!.toJson());
    const name = (x: number, y: number, z: number) => to.blocksByStateId[seen.getBlockStateId(new Vec3(x, y + 64, z))]!.name;
    expect(seen.getBlockStateId(new Vec3(1, 0, 1))).toBe(state(ToBlock, 'oak_stairs', { facing: 'east', half: 'top' }));
    expect(name(7, 2, 5)).toBe('red_wool');
    expect(name(7, 3, 5)).toBe('air');
    many.forEach((b, i) => expect(name(i % 16, 16 + Math.floor(i / 256), Math.floor(i / 16) % 16)).toBe(b.name));
  });

  test('block updates and entities go out shifted, the block in 1.21.4 ids', () => {
    const bot = fakeBot(new (chunkOf(FROM))({ minY: -64, worldHeight: 384 }));
    const world = new ViewerWorld(bot, TO);
    const events: unknown[] = [];
    const loaded: Vec3[] = [];
    const emit = (event: string, ...args: unknown[]) => (bot as unknown as EventEmitter).emit(event, ...args);
    const stop = world.listen(
      (...e) => events.push(e),
      (p) => loaded.push(p),
    );
    emit('blockUpdate', { position: new Vec3(3, -60, 4) }, { stateId: from.blocksByName.red_wool!.defaultState });
    emit('entitySpawn', { id: 7, name: 'cow', position: new Vec3(1, -61, 1), width: 0.9, height: 1.4 });
    emit('chunkColumnLoad', new Vec3(16, 0, 0));
    expect(events).toEqual([
      ['blockUpdate', { pos: new Vec3(3, 4, 4), stateId: to.blocksByName.red_wool!.defaultState }],
      ['entity', { id: 7, name: 'cow', pos: new Vec3(1, 3, 1), width: 0.9, height: 1.4, username: undefined }],
    ]);
    expect(loaded).toEqual([new Vec3(16, 0, 0)]);
    stop();
    emit('blockUpdate', { position: new Vec3(3, -60, 4) }, { stateId: 1 });
    expect(events).toHaveLength(2);
  });
});
