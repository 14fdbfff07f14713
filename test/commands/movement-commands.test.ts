/**
 * The movement commands (following, staying, moving away, searching for a mob, saved places,
 * looking), run as the product runs them (`startAgents`, the agent's registry, `Agent.execute`),
 * each checked in the world.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { Vec3 } from 'vec3';
import { serverPlayer, waitUntil } from '../helpers/world.ts';
import {
  command,
  expectStopsWithin1s,
  outcome,
  run,
  serverBlock,
  serverMobs,
  serverPosition,
  useWorld,
  summon,
  teleport,
} from './agent-world.ts';

const w = useWorld();

/** Andy's yaw as the server stores it (vanilla degrees, 0 = south), normalised to (-180, 180]. */
function serverYaw(): number {
  const yaw = Number(serverPlayer(w.server, 'Andy').yaw);
  return ((((yaw + 180) % 360) + 360) % 360) - 180;
}

function horizontal(a: Vec3, b: Vec3): number {
  return Math.hypot(a.x - b.x, a.z - b.z);
}

describe('movement', () => {
  test('!followPlayer keeps up with a moving player until !stop, which ends it within 1 s', async () => {
    const base = w.origin.offset(-20, 0, 0);
    await teleport(w, w.andy.bot, base.offset(0.5, 0, 0.5));
    await teleport(w, w.steve, base.offset(4.5, 0, 0.5));
    expect(await outcome(w.andy, '!followPlayer("Nobody", 2)')).toMatchObject({
      code: 'not_found',
      text: '!followPlayer failed: No player named Nobody is online.',
      data: { sought: { kind: 'player', name: 'Nobody' } },
    });
    const following = outcome(w.andy, '!followPlayer("Steve", 2)');
    const pending = following.then((o) => o.text);
    await waitUntil(() => w.andy.currentAction() === '!followPlayer', 'following starts');
    // Steve moves twice; Andy must catch up each time without a new command.
    for (const spot of [base.offset(4.5, 0, 10.5), base.offset(-5.5, 0, 10.5)]) {
      await teleport(w, w.steve, spot);
      await waitUntil(() => horizontal(serverPosition(w, 'Andy'), spot) <= 3.5, `Andy catches up with Steve at ${spot}`, 15_000);
    }
    expect(w.andy.currentAction()).toBe('!followPlayer');
    const out = await expectStopsWithin1s(w.andy, pending);
    expect(out).toMatch(/stopped/);
    expect((await following).code).toBe('interrupted');
  }, 45_000);

  test('!stay(-1) holds until !stop (within 1 s); !stay(1) ends by itself', async () => {
    const pending = run(w.andy, '!stay(-1)');
    await waitUntil(() => w.andy.currentAction() === '!stay', 'stay starts');
    // Longer than a !stay(1) lasts (below), counted in the bot's game ticks (20 a second).
    await w.andy.bot.waitForTicks(25);
    expect(w.andy.currentAction()).toBe('!stay');
    await expectStopsWithin1s(w.andy, pending);

    const t0 = Date.now();
    expect(await outcome(w.andy, '!stay(1)')).toEqual({ ok: true, code: 'ok', text: 'Stayed for 1 s.' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  test('!moveAway walks at least the distance asked', async () => {
    const start = serverPosition(w, 'Andy');
    const moved = await outcome(w.andy, '!moveAway(6)');
    expect(moved.text).toMatch(/^Moved/);
    const feet = w.andy.bot.entity.position.floored();
    expect(moved).toMatchObject({ code: 'ok', data: { position: { x: feet.x, y: feet.y, z: feet.z } } });
    expect(serverPosition(w, 'Andy').distanceTo(start)).toBeGreaterThanOrEqual(5.5);
  }, 30_000);

  test('!searchForEntity walks to the nearest mob of the type; an unknown type is named', async () => {
    const base = w.origin.offset(20, 0, -20);
    await teleport(w, w.andy.bot, base.offset(0.5, 0, 0.5));
    await summon(w, 'pig', base.offset(12, 0, 0));
    expect(await outcome(w.andy, '!searchForEntity("cow", 32)')).toEqual({
      ok: false,
      code: 'not_found',
      text: 'No cow within 32 blocks.',
      data: { sought: { kind: 'mob', name: 'cow', range: 32 } },
    });
    const found = await outcome(w.andy, '!searchForEntity("pig", 32)');
    expect(found.text).toMatch(/Found a pig/);
    expect(found.code).toBe('ok');
    expect(serverMobs(w, 'pig', base, 40)).toHaveLength(1);
    // Where the pig was and where Andy stood on arrival. The follow goal ends within 2 blocks
    // counted between floored blocks (up to about 3.7 between positions), and the pig can wander
    // on for a few ticks on a busy server before the report is written. Andy must also have
    // walked most of the 12 blocks from his start towards the pig.
    const [x, y, z] = /at \((-?[\d.]+), (-?[\d.]+), (-?[\d.]+)\)/.exec(found.text)!.slice(1).map(Number);
    const at = found.data!.position!;
    const arrival = new Vec3(at.x + 0.5, at.y, at.z + 0.5);
    expect(arrival.distanceTo(new Vec3(x!, y!, z!))).toBeLessThan(5.5);
    expect(arrival.distanceTo(base.offset(0.5, 0, 0.5))).toBeGreaterThan(5);
    expect(await outcome(w.andy, '!searchForEntity("pigz", 32)')).toMatchObject({
      code: 'invalid',
      text: expect.stringMatching(/not an entity type/),
    });
    command(w, '/kill @e[type=pig]');
  }, 30_000);

  test("!rememberHere, !savedPlaces and !goToRememberedPlace use the agent's saved places, persisted", async () => {
    const home = w.origin.offset(-10, 0, 15);
    await teleport(w, w.andy.bot, home.offset(0.5, 0, 0.5));
    const remembered = await outcome(w.andy, '!rememberHere("Home Base")');
    expect(remembered.text).toContain(`(${home.x}, ${home.y}, ${home.z})`);
    expect(remembered).toMatchObject({ code: 'ok', data: { position: { x: home.x, y: home.y, z: home.z } } });
    expect(w.andy.places.get('HOME BASE')).toMatchObject({ x: home.x, y: home.y, z: home.z });
    await w.andy.memoryStore.flush();
    expect(JSON.parse(readFileSync(w.andy.memoryStore.file!, 'utf8')).places['home base']).toMatchObject({
      x: home.x,
      y: home.y,
      z: home.z,
    });
    expect(await run(w.andy, '!savedPlaces')).toContain(`home base: (${home.x}, ${home.y}, ${home.z})`);

    await teleport(w, w.andy.bot, home.offset(9.5, 0, 0.5));
    expect(await outcome(w.andy, '!goToRememberedPlace("home base")')).toMatchObject({
      code: 'ok',
      text: expect.stringMatching(/Arrived/),
      data: { position: { x: home.x, y: home.y, z: home.z } },
    });
    expect(horizontal(serverPosition(w, 'Andy'), home.offset(0.5, 0, 0.5))).toBeLessThan(1.6);
    expect(await outcome(w.andy, '!goToRememberedPlace("nowhere")')).toMatchObject({
      code: 'not_found',
      text: expect.stringMatching(/No place called "nowhere". Saved places: home base/),
      data: { sought: { kind: 'place', name: 'nowhere' } },
    });
  }, 30_000);

  test('an open iron door is walked through; a closed one is never dug, and the way out is named as blocked', async () => {
    // A bedrock box (inside 3 × 3 × 3) with an iron door in its +z wall, Andy inside.
    const base = w.origin.offset(25, 0, 20);
    const [x, y, z] = [base.x, base.y, base.z];
    command(w, `/fill ${x - 2} ${y - 1} ${z - 2} ${x + 2} ${y + 3} ${z + 2} bedrock hollow`);
    const door = base.offset(0, 0, 2);
    const setDoor = async (open: boolean) => {
      command(w, `/setblock ${door.x} ${door.y} ${door.z} iron_door[facing=north,half=lower,open=${open}]`);
      command(w, `/setblock ${door.x} ${door.y + 1} ${door.z} iron_door[facing=north,half=upper,open=${open}]`);
      await waitUntil(
        () => [0, 1].every((dy) => w.andy.bot.blockAt(door.offset(0, dy, 0))?.getProperties().open === open),
        `Andy sees the door ${open ? 'open' : 'closed'}`,
        { state: () => [0, 1].map((dy) => w.andy.bot.blockAt(door.offset(0, dy, 0))?.getProperties()) },
      );
    };
    await teleport(w, w.andy.bot, base.offset(0.5, 0, 0.5));
    await setDoor(true);
    const out = base.offset(0, 0, 6);
    expect(await outcome(w.andy, `!goToCoordinates(${out.x}, ${out.y}, ${out.z}, 0)`)).toMatchObject({ code: 'ok' });
    expect(horizontal(serverPosition(w, 'Andy'), out.offset(0.5, 0, 0.5))).toBeLessThan(1.5);
    expect(await serverBlock(w, door)).toBe('iron_door');

    await setDoor(false);
    await teleport(w, w.andy.bot, base.offset(0.5, 0, 0.5));
    const stuck = await outcome(w.andy, `!goToCoordinates(${out.x}, ${out.y}, ${out.z}, 0)`);
    expect(stuck.ok).toBe(false);
    expect(await serverBlock(w, door)).toBe('iron_door');
    expect(await serverBlock(w, door.offset(0, 1, 0))).toBe('iron_door');
    expect(serverPosition(w, 'Andy').distanceTo(base.offset(0.5, 0, 0.5))).toBeLessThan(2);
    command(w, `/fill ${x - 2} ${y - 1} ${z - 2} ${x + 2} ${y + 3} ${z + 2} air`);
  }, 60_000);

  test('!lookAtPlayer "at" faces the player, "with" copies their look; !lookAtPosition looks down at the ground', async () => {
    const base = w.origin.offset(0, 0, -15);
    await teleport(w, w.andy.bot, base.offset(0.5, 0, 0.5));
    await teleport(w, w.steve, base.offset(0.5, 0, 6.5)); // due south (+z) of Andy
    expect(await outcome(w.andy, '!lookAtPlayer("Steve", "at")')).toEqual({ ok: true, code: 'ok', text: 'Looking at Steve.' });
    // mineflayer yaw: 0 = north (-z), pi = south (+z).
    expect(Math.abs(Math.abs(w.andy.bot.entity.yaw) - Math.PI)).toBeLessThan(0.1);
    await waitUntil(() => Math.abs(serverYaw()) < 10, `the server sees Andy face south (yaw ${serverYaw()})`, 3_000);

    await w.steve.look(Math.PI / 2, -0.5, true); // Steve looks west and down
    await waitUntil(() => Math.abs((w.andy.bot.players.Steve?.entity?.yaw ?? 0) - Math.PI / 2) < 0.05, "Andy sees Steve's look");
    expect(await run(w.andy, '!lookAtPlayer("Steve", "with")')).toMatch(/Looking the same way as Steve/);
    expect(w.andy.bot.entity.yaw).toBeCloseTo(Math.PI / 2, 1);
    expect(w.andy.bot.entity.pitch).toBeCloseTo(-0.5, 1);
    expect(await outcome(w.andy, '!lookAtPlayer("Steve", "behind")')).toMatchObject({
      code: 'invalid',
      text: expect.stringMatching(/"at" or "with"/),
    });

    await run(w.andy, `!lookAtPosition(${base.x}, ${base.y - 3}, ${base.z})`);
    expect(w.andy.bot.entity.pitch).toBeLessThan(-1); // looking steeply down
  }, 30_000);
});
