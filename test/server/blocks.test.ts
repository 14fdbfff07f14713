/**
 * Block mechanics (src/server/features/digging.ts, placing.ts, crops.ts, beds.ts) end to end:
 * real mineflayer bots using mineflayer's own API on the embedded server, checking what the bot
 * sees and the server's world.
 */
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { botCount, connectBot, give, serverPlayer, serverTicks, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { stateOf } from '../../src/server/services/blocks.ts';
import { configureMechanics } from '../../src/server/services/game-rules.ts';
import { damageOf, setDamage } from '../../src/server/services/items.ts';
import { movementOf } from '../../src/server/services/movement.ts';
import { itemByName } from '../../src/game/data.ts';

let barriers = 0;

/**
 * Resolves once the server has handled every dig packet the bot sent so far, drops and the blocks
 * that lost their support included. The server handles a player's dig packets in a queue of their
 * own (not in order with its other packets), acknowledging each by its sequence number: a cancel
 * sent now, with a sequence number of its own, is acknowledged after all of them.
 */
async function digsHandled(bot: Bot): Promise<void> {
  const sequence = 1_000 + ++barriers;
  await new Promise<void>((resolve, reject) => {
    const onAck = (packet: { sequenceId: number }): void => {
      if (packet.sequenceId !== sequence) return;
      clearTimeout(timer);
      bot._client.off('acknowledge_player_digging', onAck);
      resolve();
    };
    const timer = setTimeout(() => {
      bot._client.off('acknowledge_player_digging', onAck);
      reject(new Error(`${bot.username}: dig ${sequence} was never acknowledged`));
    }, 5_000);
    bot._client.on('acknowledge_player_digging', onAck);
    bot._client.write('block_dig', { status: 1, location: bot.entity.position.floored(), face: 1, sequence });
  });
}

describe('block mechanics', () => {
  let server: EmbeddedServer;
  const bots: Bot[] = [];
  let area = 0;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    for (const bot of bots.splice(0)) bot.quit();
    await waitUntil(() => server.serv.players.length === 0, 'bots to leave', 5_000);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The first bot's spawn: areas are offset from it, not from each bot's own (fuzzed) spawn, so they never overlap. */
  let firstSpawn: Vec3 | undefined;

  /** Joins a bot and moves it to a fresh area; returns it and the ground block under its feet. */
  async function join(name: string): Promise<{ bot: Bot; ground: Vec3 }> {
    const bot = await connectBot(server, name);
    bots.push(bot);
    const feet = (firstSpawn ??= bot.entity.position.floored());
    const x = feet.x + 20 * ++area;
    await serverPlayer(server, name).teleport(new Vec3(x + 0.5, feet.y, feet.z + 0.5));
    await waitUntil(
      () => Math.abs(bot.entity.position.x - (x + 0.5)) < 0.01 && bot.blockAt(new Vec3(x, feet.y - 1, feet.z)) !== null,
      'bot teleported',
    );
    // Dig times depend on standing on the ground: wait until the server knows it too.
    await waitUntil(() => bot.entity.onGround && movementOf(serverPlayer(server, name)).onGround, 'bot on the ground');
    return { bot, ground: new Vec3(x, feet.y - 1, feet.z) };
  }

  async function setBlock(bot: Bot, pos: Vec3, name: string, props: Record<string, string | number | boolean> = {}): Promise<void> {
    await server.serv.setBlock(server.serv.overworld, pos, stateOf(server.serv, name, props));
    await waitUntil(() => bot.blockAt(pos)?.name === name, `bot sees ${name} at ${pos}`);
  }

  async function serverBlock(pos: Vec3) {
    return server.serv.overworld.getBlock(pos);
  }

  /**
   * Items of `name` the bot holds or that lie near `near` (drops scatter; pickup needs 1.75 blocks),
   * as the server sees them: a pickup moves an item from the ground to the inventory at once there.
   */
  function dropped(bot: Bot, name: string, near: Vec3): number {
    const id = itemByName(bot.registry, name).id;
    const slots = serverPlayer(server, bot.username).inventory.slots as ({ type: number; count: number } | null)[];
    const held = slots.reduce((n, item) => n + (item?.type === id ? Number(item.count) : 0), 0);
    return (
      held +
      serverItemEntities(near)
        .filter((e) => e.itemId === id)
        .reduce((n, e) => n + Number(e.itemCount), 0)
    );
  }

  function serverItemEntities(near: Vec3): { itemId: number; itemCount: number }[] {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return Object.values(server.serv.entities as Record<string, any>).filter(
      (e) => e.itemId !== undefined && e.position.distanceTo(near) < 8,
    );
  }

  test('tools: netherrack by hand drops nothing; stone with a wooden pickaxe drops cobblestone and wears the pickaxe until it breaks', async () => {
    const { bot, ground } = await join('Digger');
    const reg = bot.registry;
    const rack = ground.offset(1, 1, 0);
    await setBlock(bot, rack, 'netherrack');
    await bot.dig(bot.blockAt(rack)!);
    await waitUntil(async () => (await serverBlock(rack)).name === 'air', 'server breaks the netherrack');
    await digsHandled(bot);
    expect(serverItemEntities(rack)).toHaveLength(0);
    expect(botCount(bot, 'netherrack')).toBe(0);

    await give(server, bot, 'wooden_pickaxe', 1);
    await bot.equip(itemByName(reg, 'wooden_pickaxe').id, 'hand');
    const stone = ground.offset(1, 1, 0);
    await setBlock(bot, stone, 'stone');
    const digTime = bot.digTime(bot.blockAt(stone)!);
    expect(digTime).toBeLessThan(2000); // right tool: 1.5 hardness × 1.5 / speed 2
    await bot.dig(bot.blockAt(stone)!);
    await waitUntil(() => dropped(bot, 'cobblestone', stone) === 1, 'stone drops cobblestone');
    expect(botCount(bot, 'stone')).toBe(0);
    await waitUntil(() => bot.heldItem?.durabilityUsed === 1, 'bot sees 1 durability used');
    const player = serverPlayer(server, 'Digger');
    expect(damageOf(player.inventory.slots[36 + player.heldItemSlot])).toBe(1);

    // One use left: the next block breaks it (wooden pickaxe max durability 59).
    const max = itemByName(reg, 'wooden_pickaxe').maxDurability!;
    const pick = player.inventory.slots[36 + player.heldItemSlot];
    setDamage(server.serv, pick, max - 1);
    player.inventory.updateSlot(36 + player.heldItemSlot, pick);
    await waitUntil(() => bot.heldItem?.durabilityUsed === max - 1, 'bot sees the worn pickaxe');
    await setBlock(bot, stone, 'stone');
    await bot.dig(bot.blockAt(stone)!);
    await waitUntil(() => bot.heldItem === null, 'pickaxe breaks');
    await waitUntil(() => dropped(bot, 'cobblestone', stone) === 2, 'second cobblestone');
  });

  test("the players nearby see a dig's cracks stage by stage, under the digger's id, until it ends; the digger sees none", async () => {
    const { bot: digger, ground } = await join('Cracker');
    const watcher = await connectBot(server, 'Watcher');
    bots.push(watcher);
    await serverPlayer(server, 'Watcher').teleport(digger.entity.position.offset(3, 0, 0));
    await waitUntil(() => watcher.entities[digger.entity.id] !== undefined, 'the watcher sees the digger');
    const log = ground.offset(1, 1, 0);
    await setBlock(digger, log, 'oak_log');
    await waitUntil(() => watcher.blockAt(log)?.name === 'oak_log', 'the watcher sees the log');
    const seen: { stage: number; by: number | undefined; at: string }[] = [];
    watcher.on('blockBreakProgressObserved', (block, stage, entity?: { id: number }) => {
      seen.push({ stage, by: entity?.id, at: block.position.toString() });
    });
    const ended = new Promise<string>((resolve) => watcher.once('blockBreakProgressEnd', (block) => resolve(block.position.toString())));
    let ownSeen = 0;
    digger.on('blockBreakProgressObserved', () => {
      ownSeen++;
    });
    await digger.dig(digger.blockAt(log)!, true); // by hand: 3 s
    expect(await ended).toBe(log.toString());
    const stages = seen.map((s) => s.stage);
    expect(stages.length, JSON.stringify(stages)).toBeGreaterThanOrEqual(3);
    expect(stages).toEqual([...stages].sort((a, b) => a - b));
    expect(stages.at(-1)).toBeGreaterThanOrEqual(7);
    expect(new Set(seen.map((s) => `${s.by}@${s.at}`))).toEqual(new Set([`${digger.entity.id}@${log}`]));
    expect(ownSeen).toBe(0);
  });

  test("a dig finished before 70 % of the vanilla dig time breaks its block only once the whole dig time has passed, and not a block put there meanwhile (vanilla's delayed destroy)", async () => {
    const { bot, ground } = await join('Hasty');
    const planks = ground.offset(1, 1, 0);
    await setBlock(bot, planks, 'oak_planks');
    await bot.lookAt(planks.offset(0.5, 0.5, 0.5), true);
    const digTime = bot.digTime(bot.blockAt(planks)!); // by hand: 2 hardness × 1.5 = 3 s
    const started = Date.now();
    bot._client.write('block_dig', { status: 0, location: planks, face: 1, sequence: 1 });
    bot._client.write('block_dig', { status: 2, location: planks, face: 1, sequence: 2 });
    await digsHandled(bot);
    expect((await serverBlock(planks)).name).toBe('oak_planks');
    await waitUntil(
      async () => (await serverBlock(planks)).name === 'air',
      'the planks break once their dig time is over',
      digTime + 5_000,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(digTime - 50);
    await waitUntil(() => bot.blockAt(planks)?.name === 'air', 'the bot sees them broken');
    await waitUntil(() => dropped(bot, 'oak_planks', planks) === 1, 'they drop their item');

    // Dug too early again, but the block is replaced before its time: the new block stays.
    const dirt = planks;
    await setBlock(bot, dirt, 'dirt');
    const dirtTime = bot.digTime(bot.blockAt(dirt)!);
    bot._client.write('block_dig', { status: 0, location: dirt, face: 1, sequence: 3 });
    bot._client.write('block_dig', { status: 2, location: dirt, face: 1, sequence: 4 });
    await digsHandled(bot);
    const due = Date.now() + dirtTime;
    await setBlock(bot, dirt, 'stone');
    await waitUntil(() => Date.now() >= due, 'the dig time to pass');
    await serverTicks(server, 3);
    expect((await serverBlock(dirt)).name).toBe('stone');
    expect(dropped(bot, 'dirt', dirt)).toBe(0);
  });

  test('crops: mature wheat drops wheat and seeds, age-0 wheat only seeds; carrots by age', async () => {
    const { bot, ground } = await join('Farmer');
    const crop = ground.offset(1, 1, 0);
    await setBlock(bot, ground.offset(1, 0, 0), 'farmland');
    await setBlock(bot, crop, 'wheat', { age: 7 });
    await bot.dig(bot.blockAt(crop)!);
    await digsHandled(bot);
    expect(dropped(bot, 'wheat', crop)).toBe(1);
    const seeds = dropped(bot, 'wheat_seeds', crop);
    expect(seeds).toBeGreaterThanOrEqual(1);

    await setBlock(bot, crop, 'wheat', { age: 3 });
    await bot.dig(bot.blockAt(crop)!);
    await digsHandled(bot);
    expect(dropped(bot, 'wheat', crop)).toBe(1);
    expect(dropped(bot, 'wheat_seeds', crop)).toBe(seeds + 1);

    await setBlock(bot, crop, 'carrots', { age: 0 });
    await bot.dig(bot.blockAt(crop)!);
    await waitUntil(() => dropped(bot, 'carrot', crop) === 1, 'young carrots drop 1 carrot');
  });

  test('hoe makes farmland, seeds plant only on farmland, and crops grow over time', async () => {
    const { bot, ground } = await join('Tiller');
    const reg = bot.registry;
    const dirt = ground.offset(1, 0, 0);
    await setBlock(bot, dirt, 'dirt');
    await setBlock(bot, ground.offset(-1, 0, 0), 'dirt');
    await give(server, bot, 'wooden_hoe', 1);
    await give(server, bot, 'wheat_seeds', 2);
    await bot.equip(itemByName(reg, 'wooden_hoe').id, 'hand');
    await bot.activateBlock(bot.blockAt(dirt)!);
    await waitUntil(() => bot.blockAt(dirt)?.name === 'farmland', 'dirt turns into farmland');
    await waitUntil(() => bot.heldItem?.durabilityUsed === 1, 'the hoe wears');

    await bot.equip(itemByName(reg, 'wheat_seeds').id, 'hand');
    await expect(bot.placeBlock(bot.blockAt(ground.offset(-1, 0, 0))!, new Vec3(0, 1, 0))).rejects.toThrow(/refused/);
    expect(botCount(bot, 'wheat_seeds')).toBe(2);
    configureMechanics(server.serv, { randomTickSpeed: 4096 * 20 });
    try {
      await bot.placeBlock(bot.blockAt(dirt)!, new Vec3(0, 1, 0));
      const wheat = dirt.offset(0, 1, 0);
      expect(bot.blockAt(wheat)?.name).toBe('wheat');
      await waitUntil(() => botCount(bot, 'wheat_seeds') === 1, 'one seed used');
      // Grows to age 7 through random ticks (fast test setting).
      await waitUntil(() => Number(bot.blockAt(wheat)?.getProperties().age) === 7, 'wheat matures', 15_000);
    } finally {
      configureMechanics(server.serv, { randomTickSpeed: 3 });
    }
  });

  test('doors place two halves facing the player and bot.activateBlock opens and closes both', async () => {
    const { bot, ground } = await join('Doorman');
    await give(server, bot, 'oak_door', 1);
    await bot.equip(itemByName(bot.registry, 'oak_door').id, 'hand');
    const floor = ground.offset(2, 0, 0); // east of the bot
    await bot.placeBlock(bot.blockAt(floor)!, new Vec3(0, 1, 0));
    const lower = floor.offset(0, 1, 0);
    const upper = floor.offset(0, 2, 0);
    await waitUntil(() => bot.blockAt(upper)?.name === 'oak_door', 'upper half appears');
    expect(bot.blockAt(lower)?.getProperties()).toMatchObject({ half: 'lower', facing: 'east', open: false });
    expect(bot.blockAt(upper)?.getProperties()).toMatchObject({ half: 'upper', facing: 'east', open: false });
    expect(botCount(bot, 'oak_door')).toBe(0);

    await bot.activateBlock(bot.blockAt(lower)!);
    await waitUntil(
      () => bot.blockAt(lower)?.getProperties().open === true && bot.blockAt(upper)?.getProperties().open === true,
      'door opens',
    );
    expect((await serverBlock(upper)).getProperties().open).toBe(true);
    await bot.activateBlock(bot.blockAt(upper)!);
    await waitUntil(
      () => bot.blockAt(lower)?.getProperties().open === false && bot.blockAt(upper)?.getProperties().open === false,
      'door closes',
    );

    // Breaking one half removes both and drops one door.
    await bot.dig(bot.blockAt(upper)!);
    await waitUntil(() => bot.blockAt(lower)?.name === 'air', 'lower half goes too');
    await digsHandled(bot);
    expect(dropped(bot, 'oak_door', lower)).toBe(1);
  });

  test('beds place foot and head; sleeping at night skips to morning and sets the spawn point', async () => {
    const { bot, ground } = await join('Sleeper');
    await give(server, bot, 'red_bed', 1);
    await bot.equip(itemByName(bot.registry, 'red_bed').id, 'hand');
    const floor = ground.offset(2, 0, 0);
    await bot.placeBlock(bot.blockAt(floor)!, new Vec3(0, 1, 0));
    const foot = floor.offset(0, 1, 0);
    const head = foot.offset(1, 0, 0);
    await waitUntil(() => bot.blockAt(head)?.name === 'red_bed', 'head appears');
    expect(bot.blockAt(foot)?.getProperties()).toMatchObject({ part: 'foot', facing: 'east' });
    expect(bot.blockAt(head)?.getProperties()).toMatchObject({ part: 'head', facing: 'east' });

    // Not at day.
    server.serv.setTime(1000);
    await waitUntil(() => bot.time.timeOfDay < 2000, 'day');
    await expect(bot.sleep(bot.blockAt(foot)!)).rejects.toThrow(/not night/);

    server.serv.setTime(13000);
    await waitUntil(() => bot.time.timeOfDay >= 13000, 'night');
    const woke = new Promise<void>((resolve) => bot.once('wake', () => resolve()));
    await bot.sleep(bot.blockAt(foot)!);
    expect(bot.isSleeping).toBe(true);
    await waitUntil(() => bot.blockAt(head)?.getProperties().occupied === true, 'bed occupied');
    await woke;
    expect(bot.isSleeping).toBe(false);
    await waitUntil(() => bot.time.timeOfDay < 1000, 'morning');
    const spawn = serverPlayer(server, 'Sleeper').spawnPoint;
    expect(spawn.floored()).toEqual(head);
  });

  test('stairs, slabs, torches and carpets get vanilla states from face and yaw', async () => {
    const { bot, ground } = await join('Builder');
    const reg = bot.registry;
    for (const [item, n] of [
      ['oak_stairs', 1],
      ['oak_slab', 2],
      ['torch', 2],
      ['white_carpet', 1],
    ] as const)
      await give(server, bot, item, n);
    const east = ground.offset(2, 0, 0);
    await bot.equip(itemByName(reg, 'oak_stairs').id, 'hand');
    await bot.placeBlock(bot.blockAt(east)!, new Vec3(0, 1, 0));
    expect(bot.blockAt(east.offset(0, 1, 0))?.getProperties()).toMatchObject({ facing: 'east', half: 'bottom', shape: 'straight' });

    const slabAt = ground.offset(0, 0, 2);
    await bot.equip(itemByName(reg, 'oak_slab').id, 'hand');
    await bot.placeBlock(bot.blockAt(slabAt)!, new Vec3(0, 1, 0));
    expect(bot.blockAt(slabAt.offset(0, 1, 0))?.getProperties().type).toBe('bottom');
    // Completing the slab changes the clicked block, not the one above: mineflayer calls that a refusal.
    await bot.placeBlock(bot.blockAt(slabAt.offset(0, 1, 0))!, new Vec3(0, 1, 0)).catch(() => {});
    await waitUntil(() => bot.blockAt(slabAt.offset(0, 1, 0))?.getProperties().type === 'double', 'double slab');

    // Torch on the floor and on the west side of a stone block.
    const pillar = ground.offset(-2, 1, 0);
    await setBlock(bot, pillar, 'dirt');
    await bot.equip(itemByName(reg, 'torch').id, 'hand');
    await bot.placeBlock(bot.blockAt(ground.offset(0, 0, -2))!, new Vec3(0, 1, 0));
    expect(bot.blockAt(ground.offset(0, 1, -2))?.name).toBe('torch');
    await bot.placeBlock(bot.blockAt(pillar)!, new Vec3(1, 0, 0));
    expect(bot.blockAt(pillar.offset(1, 0, 0))?.name).toBe('wall_torch');
    expect(bot.blockAt(pillar.offset(1, 0, 0))?.getProperties().facing).toBe('east');

    const carpetAt = ground.offset(2, 0, 2);
    await bot.equip(itemByName(reg, 'white_carpet').id, 'hand');
    await bot.placeBlock(bot.blockAt(carpetAt)!, new Vec3(0, 1, 0));
    expect(bot.blockAt(carpetAt.offset(0, 1, 0))?.name).toBe('white_carpet');
    // Digging the dirt pops the wall torch off, dropping it.
    await bot.unequip('hand');
    await bot.dig(bot.blockAt(pillar)!);
    await waitUntil(() => bot.blockAt(pillar.offset(1, 0, 0))?.name === 'air', 'wall torch pops off');
    await waitUntil(() => dropped(bot, 'torch', pillar) === 1 && dropped(bot, 'dirt', pillar) === 1, 'dirt and torch drop').catch((err) => {
      throw new Error(
        `${err.message}: torch ${dropped(bot, 'torch', pillar)}, dirt ${dropped(bot, 'dirt', pillar)}, inventory ${bot.inventory.items().map((i) => i.name + i.count)}`,
      );
    });
  });

  test('creative: /gamemode creative, set_creative_slot, instant break without drops', async () => {
    const { bot, ground } = await join('Creator');
    bot.chat('/gamemode creative');
    await waitUntil(() => bot.game.gameMode === 'creative', 'bot sees creative');
    const Item = createRequire(import.meta.url)('prismarine-item')(bot.registry);
    await bot.creative.setInventorySlot(36, new Item(itemByName(bot.registry, 'diamond_block').id, 5));
    const player = serverPlayer(server, 'Creator');
    await waitUntil(
      () => player.inventory.slots[36]?.name === 'diamond_block' && Number(player.inventory.slots[36]?.count) === 5,
      'server has the creative item',
    );

    const stone = ground.offset(1, 1, 0);
    await setBlock(bot, stone, 'obsidian');
    expect(bot.digTime(bot.blockAt(stone)!)).toBe(0);
    // Drops of earlier tests may lie nearby: only new item entities count.
    const earlier = new Set(serverItemEntities(stone));
    await bot.dig(bot.blockAt(stone)!);
    await waitUntil(async () => (await serverBlock(stone)).name === 'air', 'obsidian broken at once');
    await digsHandled(bot);
    expect(serverItemEntities(stone).filter((e) => !earlier.has(e))).toHaveLength(0);

    bot.chat('/gamemode survival');
    await waitUntil(() => bot.game.gameMode === 'survival', 'bot sees survival');
    // Survival clients may not set slots.
    // The server refuses by resending the whole inventory.
    const resent = new Promise((resolve) => bot._client.once('window_items', resolve));
    bot._client.write('set_creative_slot', { slot: 37, item: Item.toNotch(new Item(itemByName(bot.registry, 'diamond').id, 1)) });
    await resent;
    expect(player.inventory.slots[37]).toBeFalsy();
  });
});
