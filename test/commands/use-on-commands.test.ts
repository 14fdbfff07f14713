/**
 * The reference's newer world commands on the embedded server, run by an agent as a player would
 * type them: `!useOn` (buckets on water, lava and cauldrons, a bucket on a cow, an item used on
 * nothing) and `!goToSurface`. Each checks the world on the server and on another player's client.
 */
import { describe, expect, test } from 'vitest';
import { Vec3 } from 'vec3';
import { waitUntil } from '../helpers/world.ts';
import {
  area,
  command,
  count,
  give,
  outcome,
  run,
  serverBlock,
  serverCount,
  serverPosition,
  setBlock,
  summon,
  useWorld,
} from './agent-world.ts';

const w = useWorld();

describe('!useOn', () => {
  test('a bucket takes the nearest water source, and lava; the water bucket fills a cauldron and takes it back', async () => {
    const base = await area(w, 0, -40);
    const water = base.offset(6, -1, 2);
    await setBlock(w, water, 'water');
    await give(w, 'bucket', 2);
    const taken = await outcome(w.andy, '!useOn("bucket", "water")');
    expect(taken).toMatchObject({
      ok: true,
      code: 'ok',
      data: { position: { x: water.x, y: water.y, z: water.z }, gained: { water_bucket: 1 }, spent: { bucket: 1 } },
    });
    expect(taken.text).toMatch(/^Used bucket on the water at .*\. The water is now air\. Gained 1 water_bucket\. Lost 1 bucket\.$/);
    expect(await serverBlock(w, water)).toBe('air');
    await waitUntil(() => w.steve.blockAt(water)?.name === 'air', 'Steve sees the water gone');
    await waitUntil(() => serverCount(w, 'Andy', 'water_bucket') === 1, 'the server gave the water bucket');

    const lava = base.offset(-6, -1, 2);
    await setBlock(w, lava, 'lava');
    expect(await outcome(w.andy, '!useOn("bucket", "lava")')).toMatchObject({ ok: true, data: { gained: { lava_bucket: 1 } } });
    expect(await serverBlock(w, lava)).toBe('air');

    const cauldron = base.offset(0, 0, 5);
    await setBlock(w, cauldron, 'cauldron');
    expect(await outcome(w.andy, '!useOn("water_bucket", "cauldron")')).toMatchObject({
      ok: true,
      data: { gained: { bucket: 1 }, spent: { water_bucket: 1 } },
    });
    expect(await serverBlock(w, cauldron)).toBe('water_cauldron');
    await waitUntil(() => w.steve.blockAt(cauldron)?.name === 'water_cauldron', 'Steve sees the water in the cauldron');
    const back = await outcome(w.andy, '!useOn("bucket", "water_cauldron")');
    expect(back.text).toMatch(/The water_cauldron is now cauldron\. Gained 1 water_bucket\. Lost 1 bucket\.$/);
    expect(await serverBlock(w, cauldron)).toBe('cauldron');
  }, 60_000);

  test('flowing water is passed over for a source; none in range is not_found', async () => {
    const base = await area(w, 16, -40);
    await give(w, 'bucket', 1);
    await setBlock(w, base.offset(3, -1, 0), 'water[level=4]');
    expect(await outcome(w.andy, '!useOn("bucket", "water")')).toEqual({
      ok: false,
      code: 'not_found',
      text: 'No water source within 64 blocks.',
      data: { sought: { kind: 'block', name: 'water', range: 64 } },
    });
    expect(count(w.andy, 'bucket')).toBe(1);
  }, 30_000);

  test('a bucket on the nearest cow is milked; a milk bucket used on nothing is drunk', async () => {
    const base = await area(w, 32, -40);
    await give(w, 'bucket', 1);
    await summon(w, 'cow', base.offset(5, 0, 0));
    try {
      expect(await outcome(w.andy, '!useOn("bucket", "cow")')).toMatchObject({
        ok: true,
        data: { gained: { milk_bucket: 1 }, spent: { bucket: 1 } },
      });
      await waitUntil(() => serverCount(w, 'Andy', 'milk_bucket') === 1, 'the server has the milk');
      const drunk = await outcome(w.andy, '!useOn("milk_bucket", "nothing")');
      expect(drunk).toMatchObject({ ok: true, data: { gained: { bucket: 1 }, spent: { milk_bucket: 1 } } });
      expect(drunk.text).toBe('Used milk_bucket. Gained 1 bucket. Lost 1 milk_bucket.');
    } finally {
      command(w, '/kill @e[type=cow]');
    }
  }, 30_000);

  test('bad targets and a missing tool say what is wrong', async () => {
    await area(w, 48, -40);
    expect(await outcome(w.andy, '!useOn("bucket", "unicorn")')).toMatchObject({
      ok: false,
      code: 'invalid',
      text: expect.stringMatching(/unicorn is not a block, a mob type or "nothing"\.$/),
    });
    expect(await outcome(w.andy, '!useOn("shears", "grass_block")')).toMatchObject({
      ok: false,
      code: 'missing_items',
      data: { missing: { shears: 1 } },
    });
    expect(await run(w.andy, '!useOn("hand", "nothing")')).toMatch(/Using your empty hand on nothing does nothing/);
  }, 30_000);
});

describe('!goToSurface', () => {
  test('from under a roof, up through it to stand on top of it', async () => {
    const base = await area(w, 0, -60);
    // A dirt roof two blocks thick over Andy's head (the top at base.y + 3): the surface is above it.
    command(w, `/fill ${base.x - 2} ${base.y + 2} ${base.z - 2} ${base.x + 2} ${base.y + 3} ${base.z + 2} dirt`);
    await waitUntil(() => w.andy.bot.blockAt(base.offset(0, 3, 0))?.name === 'dirt', 'Andy sees the roof');
    await give(w, 'dirt', 8);
    const surfaced = await outcome(w.andy, '!goToSurface');
    expect(surfaced).toMatchObject({ ok: true, code: 'ok', data: { position: { x: base.x, y: base.y + 4, z: base.z } } });
    expect(serverPosition(w, 'Andy').floored()).toEqual(new Vec3(base.x, base.y + 4, base.z));
    expect(await run(w.andy, '!goToSurface')).toBe(`You are at the surface, at (${base.x}, ${base.y + 4}, ${base.z}).`);
    command(w, `/fill ${base.x - 2} ${base.y} ${base.z - 2} ${base.x + 2} ${base.y + 5} ${base.z + 2} air`);
  }, 60_000);
});
