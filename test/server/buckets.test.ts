/**
 * Buckets on the embedded server (src/server/features/buckets.ts), used by a real mineflayer bot
 * the way a player uses them: looking at a fluid or a block and using the bucket
 * (`activateItem`), or using it on a cauldron (`activateBlock`). Each test checks the world on the
 * server and on the bot, and the bucket in the bot's hand on both sides.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { botCount, connectBot, give, roundTrip, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { stateOf } from '../../src/server/services/blocks.ts';
import { itemByName } from '../../src/game/data.ts';

describe('buckets', () => {
  let server: EmbeddedServer;
  let bot: Bot;
  let origin: Vec3;
  let area = 0;

  beforeAll(async () => {
    server = await startTestServer();
    bot = await connectBot(server, 'Bucketeer');
    origin = bot.entity.position.floored();
  });
  afterEach(async () => {
    bot.chat('/clear');
    await waitUntil(() => bot.inventory.items().length === 0, 'the inventory is cleared');
  });
  afterAll(async () => {
    bot?.quit();
    await server?.close();
  });

  /** A fresh spot, 8 blocks from the last; the bot is moved onto it (feet at `at`). */
  async function spot(): Promise<Vec3> {
    const at = origin.offset(8 * ++area, 0, 0);
    bot.chat(`/tp ${at.x + 0.5} ${at.y} ${at.z + 0.5}`);
    await waitUntil(() => bot.entity.position.distanceTo(at.offset(0.5, 0, 0.5)) < 0.5, 'the bot stands on the spot');
    await bot.waitForChunksToLoad();
    return at;
  }

  async function setBlock(at: Vec3, name: string, properties: Record<string, string | number | boolean> = {}): Promise<void> {
    await server.serv.setBlock(server.serv.overworld, at, stateOf(server.serv, name, properties));
    await waitUntil(() => bot.blockAt(at)?.name === name, `the bot sees ${name} at ${at}`);
  }

  const serverBlock = async (at: Vec3) => server.serv.overworld.getBlock(at);
  const serverHeld = () => {
    const player = serverPlayer(server, bot.username);
    const item = player.inventory.slots[36 + (player.heldItemSlot ?? 0)];
    return item ? `${server.serv.registry.items[item.type]?.name}x${item.count}` : 'empty';
  };
  const botHeld = () => (bot.heldItem ? `${bot.heldItem.name}x${bot.heldItem.count}` : 'empty');

  async function hold(name: string, count = 1): Promise<void> {
    await give(server, bot, name, count);
    await bot.equip(itemByName(bot.registry, name).id, 'hand');
    await roundTrip(bot);
  }

  test('an empty bucket takes a water source and a lava source it is looked at; the stack keeps the rest', async () => {
    const at = await spot();
    const water = at.offset(2, -1, 0);
    await setBlock(water, 'water', { level: 0 });
    await hold('bucket', 3);
    await bot.lookAt(water.offset(0.5, 0.9, 0.5), true);
    bot.activateItem();
    await waitUntil(async () => (await serverBlock(water)).name === 'air', 'the water is taken');
    await waitUntil(() => bot.blockAt(water)?.name === 'air', 'the bot sees the water gone');
    await waitUntil(() => botCount(bot, 'water_bucket') === 1 && botCount(bot, 'bucket') === 2, 'a water bucket and two buckets');
    expect(serverHeld()).toBe('bucketx2');

    const lava = at.offset(-2, -1, 0);
    await setBlock(lava, 'lava', { level: 0 });
    await bot.lookAt(lava.offset(0.5, 0.9, 0.5), true);
    bot.activateItem();
    await waitUntil(async () => (await serverBlock(lava)).name === 'air', 'the lava is taken');
    await waitUntil(() => botCount(bot, 'lava_bucket') === 1 && botCount(bot, 'bucket') === 1, 'a lava bucket too');
  });

  test('flowing water is not a source: the bucket stays empty', async () => {
    const at = await spot();
    const flowing = at.offset(2, -1, 0);
    await setBlock(flowing, 'water', { level: 3 });
    await hold('bucket');
    await bot.lookAt(flowing.offset(0.5, 0.5, 0.5), true);
    bot.activateItem();
    await roundTrip(bot);
    expect((await serverBlock(flowing)).name).toBe('water');
    expect([botHeld(), serverHeld()]).toEqual(['bucketx1', 'bucketx1']);
  });

  test('a water bucket puts water in front of the face looked at, and into a waterloggable slab', async () => {
    const at = await spot();
    const ground = at.offset(2, -1, 0);
    await hold('water_bucket');
    await bot.lookAt(ground.offset(0.5, 1, 0.5), true);
    bot.activateItem();
    const above = ground.offset(0, 1, 0);
    await waitUntil(async () => (await serverBlock(above)).name === 'water', 'water on the ground');
    await waitUntil(() => bot.blockAt(above)?.name === 'water', 'the bot sees the water');
    expect(Number((await serverBlock(above)).getProperties().level)).toBe(0);
    await waitUntil(() => botHeld() === 'bucketx1' && serverHeld() === 'bucketx1', 'the bucket is empty on both sides');

    const slab = at.offset(-2, 0, 0);
    await setBlock(slab, 'oak_slab', { type: 'bottom' });
    bot.chat('/clear');
    await waitUntil(() => bot.inventory.items().length === 0, 'cleared');
    await hold('water_bucket');
    await bot.lookAt(slab.offset(0.5, 0.4, 0.5), true);
    bot.activateItem();
    await waitUntil(async () => (await serverBlock(slab)).getProperties().waterlogged === true, 'the slab holds water');
    await waitUntil(() => bot.blockAt(slab)?.getProperties().waterlogged === true, 'the bot sees the waterlogged slab');
  });

  test('a lava bucket empties onto the ground', async () => {
    const at = await spot();
    const ground = at.offset(0, -1, 2);
    await hold('lava_bucket');
    await bot.lookAt(ground.offset(0.5, 1, 0.5), true);
    bot.activateItem();
    await waitUntil(async () => (await serverBlock(ground.offset(0, 1, 0))).name === 'lava', 'lava on the ground');
    await waitUntil(() => botHeld() === 'bucketx1', 'the bucket is empty');
    await setBlock(ground.offset(0, 1, 0), 'air');
  });

  test('a cauldron is filled from a water bucket and a lava bucket, and gives them back', async () => {
    const at = await spot();
    const cauldron = at.offset(2, 0, 0);
    await setBlock(cauldron, 'cauldron');
    await hold('water_bucket');
    await bot.activateBlock(bot.blockAt(cauldron)!);
    await waitUntil(async () => (await serverBlock(cauldron)).name === 'water_cauldron', 'the cauldron fills');
    await waitUntil(() => bot.blockAt(cauldron)?.name === 'water_cauldron', 'the bot sees water in it');
    expect(Number((await serverBlock(cauldron)).getProperties().level)).toBe(3);
    await waitUntil(() => botHeld() === 'bucketx1' && serverHeld() === 'bucketx1', 'the bucket is empty');

    await bot.activateBlock(bot.blockAt(cauldron)!);
    await waitUntil(async () => (await serverBlock(cauldron)).name === 'cauldron', 'the bucket takes the water back');
    await waitUntil(() => botHeld() === 'water_bucketx1', 'a water bucket again');

    bot.chat('/clear');
    await waitUntil(() => bot.inventory.items().length === 0, 'cleared');
    await hold('lava_bucket');
    await bot.activateBlock(bot.blockAt(cauldron)!);
    await waitUntil(async () => (await serverBlock(cauldron)).name === 'lava_cauldron', 'lava in the cauldron');
    await waitUntil(() => botHeld() === 'bucketx1', 'the lava bucket is empty');
  });
});
