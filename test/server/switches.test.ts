/**
 * Levers, buttons, pressure plates and iron doors (src/server/features/switches.ts,
 * src/server/services/redstone.ts) end to end: a real mineflayer bot clicks and stands on them on
 * the embedded server; the tests read the server's world, its `blockPowered` events (with their
 * game ticks) and what the bot sees.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, give, roundTrip, serverPlayer, serverTicks, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import type { BlockPoweredEvent, SquidEntity } from '../../src/server/types.ts';
import { stateOf, type PropertyValue } from '../../src/server/services/blocks.ts';
import { spawnItemEntity } from '../../src/server/services/drops.ts';
import { itemClass } from '../../src/server/services/items.ts';
import { discardMob, spawnMob } from '../../src/server/services/mobs.ts';
import { setOpen, signalAt } from '../../src/server/services/redstone.ts';
import { scheduledSwitchTicks } from '../../src/server/features/switches.ts';
import { switchKinds } from '../../src/game/switches.ts';

describe('levers, buttons, pressure plates and iron doors', () => {
  let server: EmbeddedServer;
  let bot: Bot;
  let spawn: Vec3;
  let area = 0;
  const events: BlockPoweredEvent[] = [];
  const items: SquidEntity[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    server.serv.on('blockPowered', (event) => events.push(event));
    bot = await connectBot(server, 'Presser');
    spawn = bot.entity.position.floored();
  });
  afterEach(() => {
    for (const item of items.splice(0)) if (server.serv.entities[item.id] === item) item.destroy();
  });
  afterAll(async () => {
    bot?.quit();
    await server?.close();
  });

  /** Moves the bot to a fresh area (20 blocks from the last) and returns the ground cell under its feet. */
  async function freshArea(): Promise<Vec3> {
    const x = spawn.x + 20 * ++area;
    await moveBot(new Vec3(x + 0.5, spawn.y, spawn.z + 0.5));
    return new Vec3(x, spawn.y - 1, spawn.z);
  }

  /** Teleports the bot and waits until both it and the server have it there. */
  async function moveBot(to: Vec3): Promise<void> {
    await serverPlayer(server, bot.username).teleport(to);
    await waitUntil(() => bot.entity.position.distanceTo(to) < 0.01, 'the bot is teleported');
    await waitUntil(() => serverPlayer(server, bot.username).position.distanceTo(to) < 0.01, 'the server has the bot there');
  }

  async function setBlock(pos: Vec3, name: string, props: Record<string, PropertyValue> = {}): Promise<void> {
    await server.serv.setBlock(server.serv.overworld, pos, stateOf(server.serv, name, props));
    await waitUntil(() => bot.blockAt(pos)?.stateId === stateOf(server.serv, name, props), `the bot sees ${name} at ${pos}`);
  }

  async function serverProps(pos: Vec3): Promise<Record<string, unknown>> {
    return (await server.serv.overworld.getBlock(pos)).getProperties();
  }

  const at = (pos: Vec3) => (e: BlockPoweredEvent) => e.position.equals(pos);

  /** The next `blockPowered` event at `pos` from event index `from` on. */
  async function nextEvent(pos: Vec3, from: number, what: string, timeoutMs = 10_000): Promise<BlockPoweredEvent> {
    await waitUntil(() => events.slice(from).some(at(pos)), what, timeoutMs);
    return events.slice(from).find(at(pos))!;
  }

  /** Drops one `name` item entity at rest-to-be on the middle of `cell` (no pickup for a minute). */
  function dropItem(cell: Vec3, name: string): SquidEntity {
    const Item = itemClass(server.serv);
    const item = new Item(server.serv.registry.itemsByName[name]!.id, 1);
    const entity = spawnItemEntity(server.serv, {
      world: server.serv.overworld,
      position: { x: cell.x + 0.5, y: cell.y + 0.3, z: cell.z + 0.5 },
      item,
      pickupDelayTicks: 1_200,
    });
    items.push(entity);
    return entity;
  }

  test('every button of minecraft-data is a switch: stone and polished blackstone stay pressed 20 ticks, wooden ones 30', () => {
    const buttons = server.serv.registry.blocksArray.filter((b) => b.name.endsWith('_button'));
    expect(buttons.length).toBeGreaterThan(10);
    const ticks = Object.fromEntries(
      buttons.map((b) => [b.name, (switchKinds(server.serv.registry).get(b.name) as { pressedTicks: number }).pressedTicks]),
    );
    expect(ticks).toMatchObject({ stone_button: 20, polished_blackstone_button: 20, oak_button: 30, birch_button: 30, crimson_button: 30 });
    expect(Object.values(ticks).every((t) => t === 20 || t === 30)).toBe(true);
  });

  for (const [name, pressedTicks] of [
    ['stone_button', 20],
    ['oak_button', 30],
  ] as const) {
    test(`a ${name} pressed by the bot is powered for everyone and releases ${pressedTicks} game ticks later; a press while powered does nothing`, async () => {
      const ground = await freshArea();
      const button = ground.offset(2, 1, 0);
      await setBlock(button, name, { face: 'floor', facing: 'north', powered: false });
      const from = events.length;
      await bot.activateBlock(bot.blockAt(button)!);
      const pressed = await nextEvent(button, from, `${name} pressed`);
      expect(pressed).toMatchObject({ name, powered: true, power: 15 });
      expect(pressed.by).toBe(serverPlayer(server, bot.username));
      expect((await serverProps(button)).powered).toBe(true);
      await waitUntil(() => bot.blockAt(button)?.getProperties().powered === true, 'the bot sees it pressed');
      // A second press while it is powered changes nothing (and does not extend the time).
      await bot.activateBlock(bot.blockAt(button)!);
      await roundTrip(bot);
      expect(events.slice(from).filter(at(button))).toHaveLength(1);

      const released = await nextEvent(button, from + 1, `${name} released`, 10_000 + pressedTicks * 100);
      expect(released).toMatchObject({ name, powered: false, power: 0 });
      expect(released.by).toBeUndefined();
      expect(released.tick - pressed.tick).toBe(pressedTicks);
      expect(server.serv.tickCount).toBeGreaterThanOrEqual(pressed.tick + pressedTicks);
      expect((await serverProps(button)).powered).toBe(false);
      await waitUntil(() => bot.blockAt(button)?.getProperties().powered === false, 'the bot sees it released');
      expect(events.slice(from).filter(at(button))).toHaveLength(2);
    });
  }

  test("a button's pending release is dropped when its server closes", async () => {
    const other = await startTestServer();
    const serv = other.serv;
    const pos = new Vec3(3, -60, 3);
    await serv.setBlock(serv.overworld, pos, stateOf(serv, 'oak_button', { face: 'floor' }));
    const errors: unknown[] = [];
    serv.on('error', (err) => errors.push(err));
    const block = Object.assign(await serv.overworld.getBlock(pos), { position: pos });
    // The click as the placing feature dispatches it (no player needs to be there for the rule).
    expect(await serv.interactWithBlock({ block, player: { world: serv.overworld } as never })).toBe(true);
    expect((await serv.overworld.getBlock(pos)).getProperties().powered).toBe(true);
    expect(scheduledSwitchTicks(serv)).toBe(1);
    await other.close();
    expect(scheduledSwitchTicks(serv)).toBe(0);
    expect(errors).toEqual([]);
  });

  test('a lever flips for everyone and says so', async () => {
    const ground = await freshArea();
    const lever = ground.offset(2, 1, 0);
    await setBlock(lever, 'lever', { face: 'floor', facing: 'north', powered: false });
    const from = events.length;
    await bot.activateBlock(bot.blockAt(lever)!);
    expect(await nextEvent(lever, from, 'lever on')).toMatchObject({ name: 'lever', powered: true, power: 15 });
    await waitUntil(() => bot.blockAt(lever)?.getProperties().powered === true, 'the bot sees the lever on');
    expect(await signalAt(server.serv, server.serv.overworld, lever)).toBe(15);
    await bot.activateBlock(bot.blockAt(lever)!);
    expect(await nextEvent(lever, from + 1, 'lever off')).toMatchObject({ powered: false, power: 0 });
    expect(await signalAt(server.serv, server.serv.overworld, lever)).toBe(0);
  });

  test('stone and wooden plates are pressed by a player standing on them and released once the player left', async () => {
    const ground = await freshArea();
    for (const name of ['stone_pressure_plate', 'oak_pressure_plate']) {
      const plate = ground.offset(3, 1, 0);
      await setBlock(plate, name);
      const from = events.length;
      await moveBot(plate.offset(0.5, 0, 0.5));
      const pressed = await nextEvent(plate, from, `${name} pressed by the player`);
      expect(pressed).toMatchObject({ name, powered: true, power: 15 });
      expect(pressed.by).toBe(serverPlayer(server, bot.username));
      await waitUntil(() => bot.blockAt(plate)?.getProperties().powered === true, 'the bot sees the plate pressed');
      // Standing on it for longer than a check keeps it pressed.
      await serverTicks(server, 25);
      expect((await serverProps(plate)).powered).toBe(true);

      await moveBot(ground.offset(0.5, 1, 0.5));
      const left = server.serv.tickCount;
      const released = await nextEvent(plate, from + 1, `${name} released`);
      expect(released).toMatchObject({ powered: false, power: 0 });
      // Released at the first check after the player left: checks run every 20 ticks from the press.
      expect((released.tick - pressed.tick) % 20).toBe(0);
      expect(released.tick).toBeGreaterThanOrEqual(left - 1);
      expect(released.tick - left).toBeLessThanOrEqual(20);
      await waitUntil(() => bot.blockAt(plate)?.getProperties().powered === false, 'the bot sees the plate released');
      await setBlock(plate, 'air');
    }
  });

  test('a plate set under a player who stands still is pressed', async () => {
    const ground = await freshArea();
    const feet = ground.offset(0, 1, 0);
    const from = events.length;
    await server.serv.setBlock(server.serv.overworld, feet, stateOf(server.serv, 'oak_pressure_plate'));
    const pressed = await nextEvent(feet, from, 'the plate under the player is pressed');
    expect(pressed.by).toBe(serverPlayer(server, bot.username));
    await waitUntil(() => bot.blockAt(feet)?.getProperties().powered === true, 'the bot sees it pressed');
    await moveBot(ground.offset(3.5, 1, 0.5));
    expect((await nextEvent(feet, from + 1, 'released once the player left')).powered).toBe(false);
  });

  test('a dropped item presses a wooden plate but not a stone one', async () => {
    const ground = await freshArea();
    const stone = ground.offset(4, 1, 0);
    const wooden = ground.offset(4, 1, 3);
    await setBlock(stone, 'stone_pressure_plate');
    await setBlock(wooden, 'oak_pressure_plate');
    const from = events.length;
    const onStone = dropItem(stone, 'cobblestone');
    const onWood = dropItem(wooden, 'cobblestone');
    const pressed = await nextEvent(wooden, from, 'the item presses the wooden plate');
    expect(pressed.by).toBe(onWood);
    await waitUntil(() => bot.blockAt(wooden)?.getProperties().powered === true, 'the bot sees the wooden plate pressed');
    // At rest an item's velocity is exactly zero (../../src/server/services/drops.ts).
    await waitUntil(() => onStone.velocity.equals(new Vec3(0, 0, 0)), 'the item on the stone plate comes to rest', {
      state: () => onStone.position,
    });
    expect(onStone.position.floored()).toEqual(stone);
    await serverTicks(server, 5);
    expect((await serverProps(stone)).powered).toBe(false);
    expect(events.slice(from).filter(at(stone))).toHaveLength(0);

    onWood.destroy();
    const released = await nextEvent(wooden, from + 1, 'the wooden plate releases once the item is gone');
    expect(released.powered).toBe(false);
  });

  test('a mob presses a stone plate', async () => {
    const ground = await freshArea();
    const plate = ground.offset(4, 1, 0);
    await setBlock(plate, 'stone_pressure_plate');
    const from = events.length;
    const pig = spawnMob(server.serv, 'pig', { world: server.serv.overworld, position: plate.offset(0.5, 0, 0.5) });
    try {
      const pressed = await nextEvent(plate, from, 'the pig presses the plate');
      expect(pressed.powered).toBe(true);
      expect(pressed.by).toBe(pig.entity);
    } finally {
      discardMob(server.serv, pig);
    }
    expect((await nextEvent(plate, from + 1, 'the plate releases once the pig is gone')).powered).toBe(false);
  });

  test('weighted plates: the light one gives one level per entity, the heavy one one per ten; a player counts', async () => {
    const ground = await freshArea();
    const light = ground.offset(4, 1, 0);
    const heavy = ground.offset(4, 1, 3);
    await setBlock(light, 'light_weighted_pressure_plate');
    await setBlock(heavy, 'heavy_weighted_pressure_plate');
    for (let i = 0; i < 3; i++) dropItem(light, 'dirt');
    for (let i = 0; i < 11; i++) dropItem(heavy, 'dirt');
    await waitUntil(async () => Number((await serverProps(light)).power) === 3, 'the light plate weighs 3 items');
    await waitUntil(async () => Number((await serverProps(heavy)).power) === 2, 'the heavy plate weighs 11 items (⌈11 / 10⌉)');
    await waitUntil(() => Number(bot.blockAt(light)?.getProperties().power) === 3, 'the bot sees power 3 on the light plate');
    await waitUntil(() => Number(bot.blockAt(heavy)?.getProperties().power) === 2, 'the bot sees power 2 on the heavy plate');

    await moveBot(light.offset(0.5, 0, 0.5));
    await waitUntil(async () => Number((await serverProps(light)).power) === 4, 'the player adds one');
    await moveBot(ground.offset(0.5, 1, 0.5));
    for (const item of items.splice(0)) item.destroy();
    await waitUntil(async () => Number((await serverProps(light)).power) === 0, 'the light plate is released');
    await waitUntil(async () => Number((await serverProps(heavy)).power) === 0, 'the heavy plate is released');
    expect(await signalAt(server.serv, server.serv.overworld, heavy)).toBe(0);
  });

  test('a button placed on a floor faces the way the player looks; on a wall it faces out of the wall; a lever too', async () => {
    const ground = await freshArea();
    await give(server, bot, 'stone_button', 2);
    await bot.equip(server.serv.registry.itemsByName.stone_button!.id, 'hand');
    const floor = ground.offset(2, 0, 0);
    await bot.placeBlock(bot.blockAt(floor)!, new Vec3(0, 1, 0));
    const onFloor = floor.offset(0, 1, 0);
    expect(await serverProps(onFloor)).toMatchObject({ face: 'floor', facing: 'east', powered: false });
    expect(bot.blockAt(onFloor)?.getProperties()).toMatchObject({ face: 'floor', facing: 'east' });

    const wall = ground.offset(2, 1, 2);
    await setBlock(wall, 'stone');
    await bot.placeBlock(bot.blockAt(wall)!, new Vec3(-1, 0, 0));
    const onWall = wall.offset(-1, 0, 0);
    expect(await serverProps(onWall)).toMatchObject({ face: 'wall', facing: 'west', powered: false });
    expect(bot.blockAt(onWall)?.name).toBe('stone_button');

    await give(server, bot, 'lever', 1);
    await bot.equip(server.serv.registry.itemsByName.lever!.id, 'hand');
    await bot.placeBlock(bot.blockAt(wall)!, new Vec3(0, 0, -1));
    expect(await serverProps(wall.offset(0, 0, -1))).toMatchObject({ face: 'wall', facing: 'north', powered: false });
  });

  test('an iron door does not open by hand; the server opens both halves (setOpen) and /setblock writes an open state', async () => {
    const ground = await freshArea();
    const lower = ground.offset(2, 1, 0);
    const upper = lower.offset(0, 1, 0);
    const door = { facing: 'west', hinge: 'left', open: false, powered: false };
    await setBlock(lower, 'iron_door', { ...door, half: 'lower' });
    await setBlock(upper, 'iron_door', { ...door, half: 'upper' });
    await bot.activateBlock(bot.blockAt(lower)!);
    await roundTrip(bot);
    expect((await serverProps(lower)).open).toBe(false);
    expect(bot.blockAt(lower)?.getProperties().open).toBe(false);

    const world = server.serv.overworld;
    expect(await setOpen(server.serv, world, upper, true)).toBe(true);
    expect((await serverProps(lower)).open).toBe(true);
    expect((await serverProps(upper)).open).toBe(true);
    await waitUntil(
      () => bot.blockAt(lower)?.getProperties().open === true && bot.blockAt(upper)?.getProperties().open === true,
      'the bot sees both halves open',
    );
    expect(await setOpen(server.serv, world, lower, true)).toBe(false);
    expect(await setOpen(server.serv, world, lower, false)).toBe(true);
    expect((await serverProps(upper)).open).toBe(false);
    await expect(setOpen(server.serv, world, ground, true)).rejects.toThrow(
      `the block at (${ground.x}, ${ground.y}, ${ground.z}) is ${(await world.getBlock(ground)).name}, which cannot open`,
    );

    const trapdoor = ground.offset(4, 1, 0);
    bot.chat(`/setblock ${trapdoor.x} ${trapdoor.y} ${trapdoor.z} iron_trapdoor[open=true,facing=east,half=top]`);
    await waitUntil(() => bot.blockAt(trapdoor)?.name === 'iron_trapdoor', 'the bot sees the trapdoor');
    expect(bot.blockAt(trapdoor)?.getProperties()).toMatchObject({ open: true, facing: 'east', half: 'top' });
    expect(await serverProps(trapdoor)).toMatchObject({ open: true, facing: 'east', half: 'top' });
    await bot.activateBlock(bot.blockAt(trapdoor)!);
    await roundTrip(bot);
    expect((await serverProps(trapdoor)).open).toBe(true);
  });
});
