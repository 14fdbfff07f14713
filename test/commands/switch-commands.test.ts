/**
 * `!activate` on levers, buttons and pressure plates, and `!placeBlockAt` with a block state,
 * run through `Agent.execute` on the embedded server; checked in the server's world (its states
 * and `blockPowered` events, with their game ticks) and in the bot's view.
 */
import { describe, expect, test } from 'vitest';
import type { Vec3 } from 'vec3';
import { waitUntil } from '../helpers/world.ts';
import { area, count, give, outcome, serverPosition, setBlock, useWorld } from './agent-world.ts';
import type { BlockPoweredEvent } from '../../src/server/types.ts';
import { botOrientedLookup } from '../../src/skills/blueprint.ts';

const w = useWorld();

/** The server's properties of the block at `pos`, as strings. */
async function serverState(pos: Vec3): Promise<Record<string, string>> {
  const props = (await w.server.serv.overworld.getBlock(pos)).getProperties();
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, String(v)]));
}

/** Andy's view of the block at `pos`, as strings. */
function botState(pos: Vec3): Record<string, string> {
  const props = w.andy.bot.blockAt(pos)?.getProperties() ?? {};
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, String(v)]));
}

const cell = (p: Vec3) => ({ x: p.x, y: p.y, z: p.z });
const xyz = (p: Vec3) => `${p.x}, ${p.y}, ${p.z}`;

/** Records the server's `blockPowered` events at `pos` until `stop()`. */
function recordPowered(pos: Vec3): { events: BlockPoweredEvent[]; stop(): void } {
  const events: BlockPoweredEvent[] = [];
  const listener = (event: BlockPoweredEvent): void => {
    if (event.position.equals(pos)) events.push(event);
  };
  w.server.serv.on('blockPowered', listener);
  return { events, stop: () => w.server.serv.off('blockPowered', listener) };
}

describe('!activate', () => {
  for (const [name, ticks, seconds] of [
    ['stone_button', 20, '1 s'],
    ['oak_button', 30, '1.5 s'],
  ] as const) {
    test(`walks to the nearest ${name} and presses it; it releases ${ticks} game ticks later`, async () => {
      const base = await area(w, 30, -30);
      const button = base.offset(9, 0, 3);
      await setBlock(w, button, `${name}[face=floor,facing=north]`);
      const record = recordPowered(button);
      try {
        expect(await outcome(w.andy, `!activate("${name}")`)).toEqual({
          ok: true,
          code: 'ok',
          text: `Pressed ${name} at (${xyz(button)}); it releases in ${seconds}.`,
          data: { position: cell(button), signal: { name, powered: true, power: 15, releasesInTicks: ticks } },
        });
        expect(serverPosition(w, 'Andy').distanceTo(button.offset(0.5, 0.5, 0.5))).toBeLessThan(5);
        // Pressed again at once: a click on a pressed button does nothing, so Andy waits for the release.
        expect((await outcome(w.andy, `!activate("${name}")`)).text).toBe(
          `Pressed ${name} at (${xyz(button)}); it releases in ${seconds}.`,
        );
        await waitUntil(() => record.events.length === 4, `${name} pressed twice and released twice`, 10_000 + ticks * 200);
        const [pressed, released, again, releasedAgain] = record.events;
        expect(pressed).toMatchObject({ powered: true, by: expect.objectContaining({ username: 'Andy' }) });
        expect([released!.powered, again!.powered, releasedAgain!.powered]).toEqual([false, true, false]);
        expect(released!.tick - pressed!.tick).toBe(ticks);
        expect(again!.tick).toBeGreaterThanOrEqual(released!.tick);
        expect(releasedAgain!.tick - again!.tick).toBe(ticks);
        await waitUntil(() => botState(button).powered === 'false', 'Andy sees it released');
      } finally {
        record.stop();
      }
    });
  }

  test('flips the nearest lever and says whether it is on', async () => {
    const base = await area(w, 30, -15);
    const lever = base.offset(5, 0, 2);
    await setBlock(w, lever, 'lever[face=floor,facing=north,powered=false]');
    expect(await outcome(w.andy, '!activate("lever")')).toEqual({
      ok: true,
      code: 'ok',
      text: `Flipped the lever at (${xyz(lever)}); it is now on.`,
      data: { position: cell(lever), signal: { name: 'lever', powered: true, power: 15 } },
    });
    expect((await serverState(lever)).powered).toBe('true');
    expect((await outcome(w.andy, '!activate("lever")')).text).toBe(`Flipped the lever at (${xyz(lever)}); it is now off.`);
    expect((await serverState(lever)).powered).toBe('false');
  });

  test('with a position, flips the lever there, not the nearest; a position with another block is not found', async () => {
    const base = await area(w, 30, -8);
    const near = base.offset(2, 0, 1);
    const far = base.offset(7, 0, 4);
    await setBlock(w, near, 'lever[face=floor,facing=north,powered=false]');
    await setBlock(w, far, 'lever[face=floor,facing=north,powered=false]');
    expect(await outcome(w.andy, `!activate("lever", ${xyz(far)})`)).toEqual({
      ok: true,
      code: 'ok',
      text: `Flipped the lever at (${xyz(far)}); it is now on.`,
      data: { position: cell(far), signal: { name: 'lever', powered: true, power: 15 } },
    });
    expect(await serverState(far)).toMatchObject({ powered: 'true' });
    expect(await serverState(near)).toMatchObject({ powered: 'false' });
    const empty = base.offset(4, 0, 4);
    expect(await outcome(w.andy, `!activate("lever", ${xyz(empty)})`)).toMatchObject({
      ok: false,
      code: 'not_found',
      text: `No lever at (${xyz(empty)}) within 64 blocks.`,
    });
    expect((await outcome(w.andy, `!activate("lever", ${far.x}, ${far.y})`)).code).toBe('invalid');
  });

  test('walks onto the nearest pressure plate, which stays pressed while the bot stands there', async () => {
    const base = await area(w, 30, 0);
    const plate = base.offset(6, 0, 3);
    await setBlock(w, plate, 'stone_pressure_plate');
    expect(await outcome(w.andy, '!activate("stone_pressure_plate")')).toEqual({
      ok: true,
      code: 'ok',
      text: `Stood on stone_pressure_plate at (${xyz(plate)}); it is pressed while you stay on it.`,
      data: { position: cell(plate), signal: { name: 'stone_pressure_plate', powered: true, power: 15 } },
    });
    expect(serverPosition(w, 'Andy').floored()).toEqual(plate);
    expect((await serverState(plate)).powered).toBe('true');

    const weighted = base.offset(2, 0, -3);
    await setBlock(w, weighted, 'light_weighted_pressure_plate');
    expect((await outcome(w.andy, '!activate("light_weighted_pressure_plate")')).text).toBe(
      `Stood on light_weighted_pressure_plate at (${xyz(weighted)}); it is pressed (power 1) while you stay on it.`,
    );
    expect((await serverState(weighted)).power).toBe('1');
    // Andy left the stone plate: it releases at its next check.
    await waitUntil(async () => (await serverState(plate)).powered === 'false', 'the stone plate is released');
  });
});

describe('!placeBlockAt with a block state', () => {
  test('stairs, a log, a button, a door and a trapdoor get the state asked for, on the server and in the bot’s view', async () => {
    const base = await area(w, 30, 15);
    for (const item of ['oak_stairs', 'oak_log', 'stone_button', 'oak_door', 'oak_trapdoor']) await give(w, item, 2);
    await setBlock(w, base.offset(4, 0, 6), 'stone');
    await setBlock(w, base.offset(8, 0, 6), 'stone');
    const cases: Array<[string, Vec3]> = [
      ['oak_stairs[facing=west,half=bottom]', base.offset(3, 0, 2)],
      ['oak_stairs[facing=north,half=top]', base.offset(5, 0, 6)],
      ['oak_log[axis=x]', base.offset(3, 0, 6)],
      ['stone_button[face=wall,facing=east]', base.offset(9, 0, 6)],
      ['oak_door[facing=south,hinge=right,half=lower]', base.offset(-3, 0, 2)],
      ['oak_trapdoor[facing=east,half=top]', base.offset(8, 0, 7)],
    ];
    await setBlock(w, base.offset(8, 0, 7).offset(-1, 0, 0), 'stone');
    for (const [state, at] of cases) {
      const result = await outcome(w.andy, `!placeBlockAt("${state}", ${at.x}, ${at.y}, ${at.z})`);
      const name = state.replace(/\[.*$/, '');
      expect(result, state).toEqual({
        ok: true,
        code: 'ok',
        text: `Placed ${state} at (${xyz(at)}).`,
        data: { position: cell(at), spent: { [name]: 1 } },
      });
      const wanted = Object.fromEntries(
        /\[(.*)\]/
          .exec(state)![1]!
          .split(',')
          .map((p) => p.split('=')),
      );
      expect(await serverState(at), state).toMatchObject(wanted);
      await waitUntil(() => Object.entries(wanted).every(([k, v]) => botState(at)[k] === v), `Andy sees ${state}`);
    }
    expect(await serverState(base.offset(-3, 1, 2))).toMatchObject({ half: 'upper', facing: 'south', hinge: 'right' });
    // What a blueprint query shows of them.
    const show = botOrientedLookup(w.andy.bot);
    const [stairs, , log] = cases.map(([, at]) => at);
    expect(show(stairs!.x, stairs!.y, stairs!.z)).toBe('oak_stairs[facing=west,half=bottom,shape=straight]');
    expect(show(log!.x, log!.y, log!.z)).toBe('oak_log[axis=x]');
    expect(show(base.x, base.y - 1, base.z)).toBe(w.andy.bot.blockAt(base.offset(0, -1, 0))!.name);
  }, 60_000);

  test('a log along x on a lone block: a scaffold is built beside it and taken down; with nothing to build it of, the clear error', async () => {
    const base = await area(w, 30, 45);
    const pillar = base.offset(4, 0, 4);
    await setBlock(w, pillar, 'stone');
    const at = pillar.offset(0, 1, 0);
    const placing = () => outcome(w.andy, `!placeBlockAt("oak_log[axis=x]", ${at.x}, ${at.y}, ${at.z})`);
    await give(w, 'oak_log', 1);
    // Nothing east or west of the cell to click, and no scaffolding blocks (the log is for the cell).
    await give(w, 'oak_planks', 4);
    expect(await placing()).toMatchObject({
      ok: false,
      code: 'missing_items',
      text: expect.stringMatching(
        /must be a solid block\. Carry 2 dirt or cobblestone \(cobblestone with a pickaxe\) to build a scaffold there/,
      ),
      data: { position: cell(at) },
    });
    await give(w, 'dirt', 2);
    // With a blueprint wanting blocks on both sides of the log, a scaffold would take their cells:
    // the answer says to place them first.
    w.andy.setTask({
      blueprint: {
        materials: {},
        levels: [0, 1].map((dy) => ({
          level: dy,
          coordinates: [pillar.x - 1, pillar.y + dy, pillar.z] as [number, number, number],
          placement: [['stone', 'air', 'stone']],
        })),
      },
    });
    expect(await placing()).toMatchObject({
      ok: false,
      code: 'invalid',
      text: expect.stringMatching(/place the blueprint's block at \(.+\) first\.$/),
    });
    w.andy.setTask({});
    const placed = await placing();
    expect(placed).toMatchObject({ ok: true, code: 'ok', data: { position: cell(at), spent: { oak_log: 1 } } });
    expect(placed.text).toMatch(/^Placed oak_log\[axis=x\] at \(.+\), from a scaffold of 2 dirt at \(.+\), \(.+\), taken down after\.$/);
    expect(await serverState(at)).toMatchObject({ axis: 'x' });
    // The scaffold (a column of two east or west of the pillar) is gone and its dirt back in hand.
    const scaffoldCells = [-1, 1].flatMap((dx) => [0, 1].map((dy) => pillar.offset(dx, dy, 0)));
    const serverNames = () => Promise.all(scaffoldCells.map(async (c) => (await w.server.serv.overworld.getBlock(c)).name));
    let names: string[] = [];
    // The bot hears a dig's block change as the server sends it, a moment before its world is read here.
    await waitUntil(async () => (names = await serverNames()).every((n) => n === 'air'), 'the scaffold is gone on the server', {
      state: () => ({ names, placed: placed.text }),
    });
    await waitUntil(() => count(w.andy, 'dirt') === 2, 'Andy has his 2 dirt back');
  }, 60_000);

  test('a bad state is refused with what is valid; a state no click gives says so', async () => {
    const base = await area(w, 30, 30);
    await give(w, 'oak_stairs', 1);
    const at = base.offset(3, 0, 2);
    const placing = (state: string) => outcome(w.andy, `!placeBlockAt("${state}", ${at.x}, ${at.y}, ${at.z})`);
    expect(await placing('oak_stairs[facing=up]')).toEqual({
      ok: false,
      code: 'invalid',
      text: '!placeBlockAt failed: oak_stairs: facing cannot be "up"; it is one of north, south, west, east.',
      data: { position: cell(at) },
    });
    expect((await placing('oak_stairs[colour=red]')).text).toBe(
      '!placeBlockAt failed: oak_stairs has no property "colour"; its properties are facing (north|south|west|east), half (top|bottom), shape (straight|inner_left|inner_right|outer_left|outer_right), waterlogged (true|false).',
    );
    expect((await placing('oak_stairs[facing=west')).text).toBe(
      '!placeBlockAt failed: "oak_stairs[facing=west" is not a block state: write name[property=value,...], e.g. oak_stairs[facing=west,half=bottom].',
    );
    expect((await placing('oak_stairs[shape=outer_left]')).text).toBe(
      '!placeBlockAt failed: oak_stairs[shape=outer_left] cannot be placed by a click: stairs are placed straight; their shape follows the stairs beside them.',
    );
    expect((await placing('oak_stairz[facing=west]')).text).toMatch(
      /^!placeBlockAt failed: "oak_stairz" is not a block; closest block names: .*oak_stairs/,
    );
    expect(await w.server.serv.overworld.getBlock(at).then((b) => b.name)).toBe('air');
  });
});
