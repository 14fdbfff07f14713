/**
 * Chest, furnace, bed and blueprint commands through `Agent.execute` on the embedded server,
 * checked in the bot's view and in the server's block entities, inventories and time.
 */
import { describe, expect, test } from 'vitest';
import { Vec3 } from 'vec3';
import { countTicks, serverPlayer, waitUntil } from '../helpers/world.ts';
import { isSleeping } from '../../src/server/features/beds.ts';
import { blockEntities } from '../../src/server/services/block-entities.ts';
import { blueprintSchema } from '../../src/tasks/schema.ts';
import { area, command, count, expectStopsWithin1s, give, outcome, run, serverCount, setBlock, useWorld } from './agent-world.ts';
import { blockByName, itemByName } from '../../src/game/data.ts';

const w = useWorld();

/** Items of one name in a block entity's slots, as the server stores them. */
function storedCount(pos: Vec3, item: string): number {
  const id = itemByName(w.server.serv.registry, item).id;
  const entity = blockEntities(w.server.serv).get(w.server.serv.overworld, pos);
  return (entity?.slots ?? []).reduce((n, s) => n + (s && s.type === id ? s.count : 0), 0);
}

const at = (p: Vec3) => `(${p.x}, ${p.y}, ${p.z})`;

describe('chests', () => {
  test('!putInChest moves any count across stacks, !viewChest lists it, !takeFromChest takes it back', async () => {
    const base = await area(w, 40, 0);
    const chest = base.offset(4, 0, 1);
    await setBlock(w, chest, 'chest');
    expect(await run(w.andy, '!viewChest')).toBe(`The chest at ${at(chest)} is empty.`);
    await give(w, 'cobblestone', 100); // two stacks: 64 + 36
    expect(await outcome(w.andy, '!putInChest("cobblestone", 80)')).toEqual({
      ok: true,
      code: 'ok',
      text: `Put 80 cobblestone in the chest at ${at(chest)}; it now holds 80.`,
      data: { spent: { cobblestone: 80 } },
    });
    expect(count(w.andy, 'cobblestone')).toBe(20);
    await waitUntil(() => storedCount(chest, 'cobblestone') === 80, "the server's chest holds 80");
    await waitUntil(() => serverCount(w, 'Andy', 'cobblestone') === 20, 'the server has 20 cobblestone left on Andy');
    expect(await run(w.andy, '!viewChest')).toBe(`The chest at ${at(chest)} holds: 80 cobblestone.`);

    expect(await outcome(w.andy, '!takeFromChest("cobblestone", 70)')).toEqual({
      ok: true,
      code: 'ok',
      text: `Took 70 cobblestone from the chest at ${at(chest)}; you now have 90.`,
      data: { gained: { cobblestone: 70 } },
    });
    await waitUntil(() => storedCount(chest, 'cobblestone') === 10, "the server's chest holds 10");
    await waitUntil(() => serverCount(w, 'Andy', 'cobblestone') === 90, 'the server gives Andy 70 back');
    const rest = await outcome(w.andy, '!takeFromChest("cobblestone", 64)');
    expect(rest.text).toMatch(/^Took 10 cobblestone .*you now have 100\. The chest only had 10\.$/);
    expect(rest).toMatchObject({ ok: false, code: 'partial', data: { gained: { cobblestone: 10 } } });
    expect(await outcome(w.andy, '!takeFromChest("dirt", 1)')).toMatchObject({
      code: 'not_found',
      text: expect.stringMatching(/has no dirt/),
      data: { sought: { kind: 'item', name: 'dirt' } },
    });
    expect(await outcome(w.andy, '!putInChest("diamond", 1)')).toMatchObject({
      code: 'missing_items',
      text: '!putInChest failed: You have no diamond.',
      data: { missing: { diamond: 1 } },
    });
    expect(w.andy.bot.currentWindow).toBeNull();
  }, 45_000);

  test("a chest emptied by someone else between the bot's look and its click: !takeFromChest reports what the server gave", async () => {
    const base = await area(w, 40, 40);
    const chest = base.offset(4, 0, 1);
    await setBlock(w, chest, 'chest');
    await give(w, 'cobblestone', 20);
    expect(await outcome(w.andy, '!putInChest("cobblestone", 20)')).toMatchObject({ ok: true, data: { spent: { cobblestone: 20 } } });
    await waitUntil(() => storedCount(chest, 'cobblestone') === 20, "the server's chest holds 20");
    // Once Andy's window shows the 20, 15 of them go elsewhere on the server (another player's
    // click, as the server sees it before Andy's window hears of it).
    w.andy.bot.once('windowOpen', () => {
      const entity = blockEntities(w.server.serv).get(w.server.serv.overworld, chest)!;
      const slot = entity.slots.findIndex((s) => s && s.count === 20);
      entity.slots[slot]!.count = 5;
    });
    const taken = await outcome(w.andy, '!takeFromChest("cobblestone", 20)');
    expect(taken).toEqual({
      ok: false,
      code: 'partial',
      text: `Took 5 cobblestone from the chest at ${at(chest)}; you now have 5. The chest had 20 when opened; someone else took 15 meanwhile.`,
      data: { gained: { cobblestone: 5 } },
    });
    expect(count(w.andy, 'cobblestone')).toBe(5);
    await waitUntil(() => serverCount(w, 'Andy', 'cobblestone') === 5, 'the server gave Andy 5');
    expect(storedCount(chest, 'cobblestone')).toBe(0);
  }, 45_000);

  test('without a chest within 32 blocks the commands say so', async () => {
    await area(w, 40, 80);
    expect(await outcome(w.andy, '!viewChest')).toEqual({
      ok: false,
      code: 'not_found',
      text: '!viewChest failed: No chest within 32 blocks.',
      data: { sought: { kind: 'container', name: 'chest', range: 32 } },
    });
  });
});

describe('furnaces', () => {
  test('!smeltItem prefers a blast furnace for ore, adds the best fuel and takes the ingots', async () => {
    const base = await area(w, -40, 0);
    const furnace = base.offset(2, 0, 2);
    const blast = base.offset(5, 0, -2);
    await setBlock(w, furnace, 'furnace');
    await setBlock(w, blast, 'blast_furnace');
    await give(w, 'raw_iron', 2);
    await give(w, 'oak_planks', 5);
    await give(w, 'coal', 2);
    const clock = countTicks(w.server);
    const smelted = await outcome(w.andy, '!smeltItem("raw_iron", 2)');
    clock.stop();
    expect(smelted).toEqual({
      ok: true,
      code: 'ok',
      text: `Smelted 2 raw_iron into iron_ingot in the blast_furnace at ${at(blast)} using 1 coal; you now have 2 iron_ingot.`,
      data: { gained: { iron_ingot: 2 }, spent: { coal: 1, raw_iron: 2 } },
    });
    expect(clock.ticks).toBeLessThan(300); // 2 × 100 ticks in a blast furnace, not 2 × 200
    expect(count(w.andy, 'iron_ingot')).toBe(2);
    expect(count(w.andy, 'raw_iron')).toBe(0);
    expect(count(w.andy, 'coal')).toBe(1);
    expect(count(w.andy, 'oak_planks')).toBe(5);
    await waitUntil(() => serverCount(w, 'Andy', 'iron_ingot') === 2, 'the server gives Andy the ingots');
    await waitUntil(() => storedCount(blast, 'raw_iron') + storedCount(blast, 'iron_ingot') === 0, 'the blast furnace is emptied');
    expect(storedCount(furnace, 'coal')).toBe(0);
    expect(w.andy.bot.currentWindow).toBeNull();
  }, 30_000);

  test('!smeltItem places a smoker from the inventory for food when none is near', async () => {
    await area(w, -40, 40);
    await give(w, 'beef', 1);
    await give(w, 'smoker', 1);
    await give(w, 'oak_planks', 3);
    const out = await run(w.andy, '!smeltItem("beef", 1)');
    expect(out).toMatch(
      /^Cooked 1 beef into cooked_beef in the placed smoker at \(-?\d+, -?\d+, -?\d+\) using 1 oak_planks; you now have 1 cooked_beef\.$/,
    );
    expect(count(w.andy, 'cooked_beef')).toBe(1);
    expect(count(w.andy, 'smoker')).toBe(0);
    expect(w.andy.bot.findBlock({ matching: blockByName(w.andy.bot.registry, 'smoker').id, maxDistance: 4 })).not.toBeNull();
    expect(await outcome(w.andy, '!smeltItem("dirt", 1)')).toMatchObject({
      code: 'invalid',
      text: expect.stringMatching(/dirt cannot be smelted/),
    });
  }, 30_000);

  test('!smeltItem with no furnace, smoker or blast furnace in range or held: not_found, a furnace sought', async () => {
    await area(w, -40, 120);
    await give(w, 'beef', 1);
    await give(w, 'coal', 1);
    expect(await outcome(w.andy, '!smeltItem("beef", 1)')).toEqual({
      ok: false,
      code: 'not_found',
      text: '!smeltItem failed: No smoker or furnace within 32 blocks and you have none to place: craft a furnace from 8 cobblestone.',
      data: { sought: { kind: 'block', name: 'furnace', range: 32 } },
    });
    expect(count(w.andy, 'beef')).toBe(1);
  }, 30_000);

  test('!smeltItem stops within 1 s and never restarts; !clearFurnace empties the furnace', async () => {
    const base = await area(w, -40, 80);
    const furnace = base.offset(3, 0, 0);
    await setBlock(w, furnace, 'furnace');
    await give(w, 'raw_gold', 3);
    await give(w, 'coal', 1);
    const pending = outcome(w.andy, '!smeltItem("raw_gold", 3)');
    await waitUntil(() => storedCount(furnace, 'raw_gold') === 3, 'the raw gold is in the furnace');
    expect(
      await expectStopsWithin1s(
        w.andy,
        pending.then((o) => o.text),
      ),
    ).toMatch(/stopped|aborted/i);
    expect((await pending).code).toBe('interrupted');
    expect(w.andy.bot.currentWindow).toBeNull();
    // The smelting loop looks at the furnace every 250 ms: 10 game ticks (500 ms) later it has not
    // come back (no action, no window open).
    await w.andy.bot.waitForTicks(10);
    expect(w.andy.currentAction()).toBeUndefined();
    expect(w.andy.bot.currentWindow).toBeNull();

    const cleared = await outcome(w.andy, '!clearFurnace');
    expect(cleared.text).toMatch(new RegExp(`^Took .*raw_gold.* out of the furnace at \\(${furnace.x}, ${furnace.y}, ${furnace.z}\\)\\.$`));
    expect(cleared).toMatchObject({ ok: true, code: 'ok', data: { gained: { raw_gold: 3 } } });
    expect(count(w.andy, 'raw_gold')).toBe(3);
    const entity = blockEntities(w.server.serv).get(w.server.serv.overworld, furnace);
    await waitUntil(() => !!entity && entity.slots.every((s) => !s), "the server's furnace is empty");
    expect(await run(w.andy, '!clearFurnace')).toBe(`The furnace at ${at(furnace)} is empty.`);
  }, 30_000);
});

describe('beds', () => {
  test('!goToBed ignores bedrock, sleeps in a bed at night and wakes in the morning', async () => {
    const base = await area(w, 0, 60);
    await setBlock(w, base.offset(2, -1, 0), 'bedrock');
    expect(await outcome(w.andy, '!goToBed')).toMatchObject({
      code: 'not_found',
      text: expect.stringMatching(/No bed within 32 blocks/),
      data: { sought: { kind: 'block', name: 'bed', range: 32 } },
    });
    const foot = base.offset(6, 0, 2);
    await setBlock(w, foot, 'red_bed[facing=east,part=foot]');
    await setBlock(w, foot.offset(1, 0, 0), 'red_bed[facing=east,part=head]');
    expect(await outcome(w.andy, '!goToBed')).toMatchObject({
      ok: false,
      code: 'failed',
      text: expect.stringMatching(/could not sleep in the red_bed .*night/),
      data: { position: { x: foot.x, y: foot.y, z: foot.z } },
    });
    command(w, '/time set 14000');
    await waitUntil(() => w.andy.bot.time.timeOfDay >= 14000, 'it is night for Andy');
    try {
      // Steve is awake, so the night goes on: !stop gets Andy out of bed within 1 s.
      const pending = run(w.andy, '!goToBed');
      await waitUntil(() => isSleeping(serverPlayer(w.server, 'Andy')), 'Andy lies in the bed');
      await expectStopsWithin1s(w.andy, pending);
      await waitUntil(() => !isSleeping(serverPlayer(w.server, 'Andy')), 'Andy gets up', 3_000);

      command(w, '/gamemode spectator Steve'); // the night is skipped only when every player sleeps
      const slept = await outcome(w.andy, '!goToBed');
      expect(slept.text).toMatch(/^Slept in the red_bed at \(-?\d+, -?\d+, -?\d+\); woke up at time of day \d+\.$/);
      expect(slept.code).toBe('ok');
      await waitUntil(() => w.andy.bot.time.timeOfDay < 12_000, 'it is morning for Andy', 3_000);
      expect(Number(w.server.serv.time) % 24_000).toBeLessThan(12_000);
      expect(w.andy.bot.isSleeping).toBe(false);
    } finally {
      command(w, '/gamemode creative Steve');
      command(w, '/time set 1000');
    }
  }, 45_000);
});

describe('blueprints', () => {
  test('the blueprint queries report what to place, remove and replace, from the world as the bot sees it', async () => {
    const base = await area(w, 0, -60);
    const o = base.offset(3, 0, 3);
    const blueprint = blueprintSchema.parse({
      materials: { stone: 3, oak_planks: 1 },
      levels: [
        {
          level: 0,
          coordinates: [o.x, o.y, o.z],
          placement: [
            ['stone', 'stone'],
            ['air', 'oak_planks'],
          ],
        },
        {
          level: 1,
          coordinates: [o.x, o.y + 1, o.z],
          placement: [
            ['stone', 'air'],
            ['air', 'air'],
          ],
        },
      ],
    });
    expect(await outcome(w.andy, '!checkBlueprint')).toEqual({
      ok: false,
      code: 'unavailable',
      text: 'You have no blueprint: this is not a construction task.',
    });
    w.andy.setTask({ blueprint });
    try {
      await setBlock(w, o, 'stone');
      await setBlock(w, o.offset(1, 0, 0), 'dirt');
      await setBlock(w, o.offset(0, 0, 1), 'cobblestone');
      const level0 = await outcome(w.andy, '!checkBlueprintLevel(0)');
      expect(level0.text).toBe(
        [
          'Level 0 needs 3 changes:',
          `Replace the dirt at (${o.x + 1}, ${o.y}, ${o.z}) with stone`,
          `Remove the cobblestone at (${o.x}, ${o.y}, ${o.z + 1})`,
          `Place oak_planks at (${o.x + 1}, ${o.y}, ${o.z + 1})`,
        ].join('\n'),
      );
      // The same changes as data, in the text's order.
      const level0Changes = [
        { action: 'replace', position: { x: o.x + 1, y: o.y, z: o.z }, block: 'stone', current: 'dirt' },
        { action: 'remove', position: { x: o.x, y: o.y, z: o.z + 1 }, current: 'cobblestone' },
        { action: 'place', position: { x: o.x + 1, y: o.y, z: o.z + 1 }, block: 'oak_planks' },
      ];
      expect(level0).toMatchObject({ ok: true, code: 'ok', data: { blueprint: { level: 0, complete: false, changes: level0Changes } } });
      const whole = await outcome(w.andy, '!checkBlueprint');
      expect(whole.text).toMatch(
        new RegExp(`Level 1 needs 1 change:\\nPlace stone at \\(${o.x}, ${o.y + 1}, ${o.z}\\)\\nConstruction score: 20%\\.$`),
      );
      expect(whole.data?.blueprint).toMatchObject({
        complete: false,
        score: 20,
        changes: [...level0Changes, { action: 'place', position: { x: o.x, y: o.y + 1, z: o.z }, block: 'stone' }],
      });
      expect(whole.data?.blueprint?.levels?.map((l) => l.level)).toEqual([0, 1]);
      expect(await run(w.andy, '!getBlueprintLevel(1)')).toContain(`Level 1 at y=${o.y + 1}`);
      expect(await run(w.andy, '!getBlueprint')).toMatch(/^Materials: 3 stone, 1 oak_planks\n/);
      expect(await outcome(w.andy, '!getBlueprintLevel(4)')).toMatchObject({
        code: 'invalid',
        text: expect.stringMatching(/has no level 4; its levels are 0, 1/),
      });
      expect(await outcome(w.andy, '!checkBlueprintLevel(4)')).toMatchObject({
        code: 'invalid',
        text: 'The blueprint has no level 4; its levels are 0, 1.',
      });

      command(w, `/setblock ${o.x + 1} ${o.y} ${o.z} stone`);
      command(w, `/setblock ${o.x} ${o.y} ${o.z + 1} air`);
      command(w, `/setblock ${o.x + 1} ${o.y} ${o.z + 1} oak_planks`);
      await setBlock(w, o.offset(0, 1, 0), 'stone');
      await waitUntil(() => w.andy.bot.blockAt(o.offset(1, 0, 1))?.name === 'oak_planks', 'Andy sees the planks');
      expect(await outcome(w.andy, '!checkBlueprint')).toMatchObject({
        code: 'ok',
        text: 'Level 0 is complete.\nLevel 1 is complete.\nThe blueprint is complete.',
        data: { blueprint: { complete: true, changes: [], score: 100 } },
      });
      expect((await outcome(w.andy, '!checkBlueprintLevel(1)')).data?.blueprint).toEqual({ level: 1, complete: true, changes: [] });
    } finally {
      w.andy.clearTask();
      command(w, `/fill ${o.x} ${o.y} ${o.z} ${o.x + 1} ${o.y + 1} ${o.z + 1} air`);
    }
  }, 30_000);

  test('a blueprint of states: the queries show them, and a block turned the wrong way is to be replaced, as the bot sees it', async () => {
    const base = await area(w, 0, -60);
    // Beside the cells of the test before (its clearing /fill may still be on its way).
    const o = base.offset(3, 0, 6);
    const blueprint = blueprintSchema.parse({
      levels: [{ level: 0, coordinates: [o.x, o.y, o.z], placement: [['oak_stairs[facing=west]', 'oak_log[axis=x]', 'stone']] }],
    });
    w.andy.setTask({ blueprint });
    try {
      await setBlock(w, o, 'oak_stairs[facing=east]');
      await setBlock(w, o.offset(1, 0, 0), 'oak_log[axis=x]');
      await setBlock(w, o.offset(2, 0, 0), 'stone');
      expect(await run(w.andy, '!getBlueprintLevel(0)')).toContain('oak_stairs[facing=west], oak_log[axis=x], stone');
      const wrong = await outcome(w.andy, '!checkBlueprintLevel(0)');
      expect(wrong.text).toBe(
        `Level 0 needs 1 change:\nReplace the oak_stairs[facing=east,half=bottom,shape=straight] at (${o.x}, ${o.y}, ${o.z}) with oak_stairs[facing=west]`,
      );
      expect(wrong.data?.blueprint?.changes).toEqual([
        {
          action: 'replace',
          position: { x: o.x, y: o.y, z: o.z },
          block: 'oak_stairs[facing=west]',
          current: 'oak_stairs[facing=east,half=bottom,shape=straight]',
        },
      ]);
      command(w, `/setblock ${o.x} ${o.y} ${o.z} oak_stairs[facing=west]`);
      await waitUntil(() => w.andy.bot.blockAt(o)?.getProperties().facing === 'west', 'Andy sees the stairs facing west');
      expect(await outcome(w.andy, '!checkBlueprint')).toMatchObject({ code: 'ok', data: { blueprint: { complete: true, score: 100 } } });
    } finally {
      w.andy.clearTask();
      command(w, `/fill ${o.x} ${o.y} ${o.z} ${o.x + 2} ${o.y} ${o.z} air`);
    }
  }, 30_000);
});
