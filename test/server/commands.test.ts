/**
 * Block commands (src/server/plugins/fill.ts, block-data.ts) end to end: a real mineflayer
 * bot runs /fill, /setblock, /data and /item on the embedded server; checks cover the bot's view
 * and the server's state.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { botCount, connectBot, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { getBlockEntityData } from '../../src/server/plugins/block-data.ts';

/** Resolves with the first chat/system line matching `pattern` (listen before sending). */
function nextMessage(bot: Bot, pattern: RegExp, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const onMessage = (text: string): void => {
      if (!pattern.test(text)) return;
      clearTimeout(timer);
      bot.off('messagestr', onMessage);
      resolve(text);
    };
    const timer = setTimeout(() => { bot.off('messagestr', onMessage); reject(new Error(`no message matching ${pattern}`)); }, timeoutMs);
    bot.on('messagestr', onMessage);
  });
}

describe('block commands on 1.21.4', () => {
  let server: EmbeddedServer;
  const bots: Bot[] = [];
  let botNumber = 0;

  async function join(): Promise<Bot> {
    const bot = await connectBot(server, `Builder${++botNumber}`);
    bots.push(bot);
    return bot;
  }

  /** Runs a command as the bot and resolves with its feedback line. */
  async function run(bot: Bot, command: string, expected: RegExp): Promise<string> {
    const reply = nextMessage(bot, expected);
    bot.chat(command);
    return reply;
  }

  beforeAll(async () => { server = await startTestServer(); });
  afterEach(async () => {
    for (const bot of bots.splice(0)) bot.quit();
    await waitUntil(() => server.serv.players.length === 0, 'bots to leave', 5_000);
  });
  afterAll(async () => { await server?.close(); });

  test('/fill with a block state, replace filter, hollow, and the volume limit', async () => {
    const bot = await join();
    const ground = bot.entity.position.floored();
    const x = ground.x + 3, y = ground.y, z = ground.z + 3;

    expect(await run(bot, `/fill ${x} ${y} ${z} ${x + 2} ${y} ${z + 1} minecraft:oak_stairs[facing=east, half=top]`, /^Successfully filled|^Could not/))
      .toBe('Successfully filled 6 block(s)');
    await waitUntil(() => bot.blockAt(new Vec3(x + 2, y, z + 1))?.name === 'oak_stairs', 'stairs visible');
    for (const pos of [new Vec3(x, y, z), new Vec3(x + 2, y, z + 1)]) {
      const props = bot.blockAt(pos)!.getProperties();
      expect(props.facing).toBe('east');
      expect(props.half).toBe('top');
      expect(props.shape).toBe('straight'); // unspecified: the default
    }
    const serverState = await server.serv.overworld.getBlockStateId(new Vec3(x + 1, y, z));
    expect(bot.blockAt(new Vec3(x + 1, y, z))!.stateId).toBe(serverState);

    // Only stairs facing east are replaced; one of them is turned first.
    await run(bot, `/setblock ${x} ${y} ${z} oak_stairs[facing=north]`, /^Changed the block/);
    expect(await run(bot, `/fill ${x} ${y} ${z} ${x + 2} ${y} ${z + 1} stone replace oak_stairs[facing=east]`, /^Successfully filled/))
      .toBe('Successfully filled 5 block(s)');
    await waitUntil(() => bot.blockAt(new Vec3(x + 1, y, z + 1))?.name === 'stone', 'stone visible');
    expect(bot.blockAt(new Vec3(x, y, z))?.name).toBe('oak_stairs');

    // hollow: a 3x3x3 shell of glass with air inside.
    const hx = x, hy = y + 3, hz = z + 6;
    expect(await run(bot, `/fill ${hx} ${hy} ${hz} ${hx + 2} ${hy + 2} ${hz + 2} glass hollow`, /^Successfully filled/))
      .toBe('Successfully filled 26 block(s)');
    await waitUntil(() => bot.blockAt(new Vec3(hx + 2, hy + 2, hz + 2))?.name === 'glass', 'glass shell visible');
    expect(bot.blockAt(new Vec3(hx + 1, hy + 1, hz + 1))?.name).toBe('air');

    // Errors: too big, unknown property, nothing changed.
    expect(await run(bot, `/fill ${x} ${y} ${z} ${x + 40} ${y + 40} ${z + 40} stone`, /Too many blocks/)).toMatch(/maximum 32768, specified 68921/);
    await run(bot, `/fill ${x} ${y} ${z} ${x} ${y} ${z} oak_stairs[color=red]`, /Block minecraft:oak_stairs does not have property 'color'|oak_stairs.*color/);
    await run(bot, `/fill ${hx} ${hy} ${hz} ${hx} ${hy} ${hz} glass`, /No blocks were filled/);
  });

  test('/fill destroy drops the old blocks as items the bot collects; keep and outline', async () => {
    const bot = await join();
    const { itemsByName } = server.serv.registry;
    const feet = bot.entity.position.floored();
    // The bot stands next to a 3x1x1 row of oak logs, replaced with destroy: 3 oak_log items drop.
    const x = feet.x + 1, y = feet.y, z = feet.z;
    await run(bot, `/fill ${x} ${y} ${z} ${x} ${y} ${z - 2} oak_log`, /^Successfully filled/);
    await waitUntil(() => bot.blockAt(new Vec3(x, y, z - 2))?.name === 'oak_log', 'logs visible');
    expect(botCount(bot, 'oak_log')).toBe(0);
    expect(await run(bot, `/fill ${x} ${y} ${z} ${x} ${y} ${z - 2} air destroy`, /^Successfully filled/)).toBe('Successfully filled 3 block(s)');
    await waitUntil(() => bot.blockAt(new Vec3(x, y, z))?.name === 'air', 'logs gone');
    // Step into the cleared row, in reach of all three drops (vanilla pickup: within ~1 block).
    bot.chat(`/tp ${x + 0.5} ${y} ${z - 0.5}`);
    await waitUntil(() => botCount(bot, 'oak_log') === 3, 'three logs picked up', 8_000);
    expect(serverPlayer(server, bot.username).inventory.slots.filter(Boolean).map((i: { type: number; count: number }) => [i.type, i.count]))
      .toEqual([[itemsByName.oak_log.id, 3]]);

    // keep only fills air; outline leaves the inside alone.
    const ox = feet.x + 6, oz = feet.z + 6;
    await run(bot, `/setblock ${ox + 1} ${y} ${oz + 1} dirt`, /^Changed the block/);
    expect(await run(bot, `/fill ${ox} ${y} ${oz} ${ox + 2} ${y} ${oz + 2} cobblestone keep`, /^Successfully filled/)).toBe('Successfully filled 8 block(s)');
    await waitUntil(() => bot.blockAt(new Vec3(ox, y, oz))?.name === 'cobblestone', 'cobblestone visible');
    expect(bot.blockAt(new Vec3(ox + 1, y, oz + 1))?.name).toBe('dirt');
    expect(await run(bot, `/fill ${ox} ${y} ${oz} ${ox + 2} ${y + 2} ${oz + 2} stone outline`, /^Successfully filled/)).toBe('Successfully filled 26 block(s)');
    await waitUntil(() => bot.blockAt(new Vec3(ox + 1, y + 2, oz + 1))?.name === 'stone', 'stone top visible');
    expect(bot.blockAt(new Vec3(ox + 1, y + 1, oz + 1))?.name).toBe('air');
  });

  test('/setblock with a state, keep and destroy', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    const pos = feet.offset(2, 0, -2);
    expect(await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} minecraft:furnace[facing=west,lit=true]`, /^Changed the block|Could not/))
      .toBe(`Changed the block at ${pos.x}, ${pos.y}, ${pos.z}`);
    await waitUntil(() => bot.blockAt(pos)?.name === 'furnace', 'furnace visible');
    expect(bot.blockAt(pos)!.getProperties()).toEqual({ facing: 'west', lit: true });
    await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} stone keep`, /^Could not set the block/);
    expect(bot.blockAt(pos)?.name).toBe('furnace');
    await run(bot, '/setblock ~1 ~ ~ wheat[age=7]', /^Changed the block/);
    await waitUntil(() => bot.blockAt(feet.offset(1, 0, 0))?.name === 'wheat', 'wheat visible');
    expect(String(bot.blockAt(feet.offset(1, 0, 0))!.getProperties().age)).toBe('7');
    // destroy: the furnace drops itself as an item entity the bot sees.
    const furnaceId = server.serv.registry.itemsByName.furnace.id;
    const dropped = new Promise<void>((resolve) => bot.on('itemDrop', (entity) => { if (entity.getDroppedItem()?.type === furnaceId) resolve(); }));
    await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} stone destroy`, /^Changed the block/);
    await dropped;
    expect(bot.blockAt(pos)?.name).toBe('stone');
    await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} nonsense_block`, /Unknown block type/);
  });

  test('/data merge block stores furnace fuel fields; /item replace fills container and player slots', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    const pos = feet.offset(-2, 0, 2);
    await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} furnace`, /^Changed the block/);
    expect(await run(bot, `/data merge block ${pos.x} ${pos.y} ${pos.z} {BurnTime:1600s,CookTime:0s,CookTimeTotal:200s,CustomName:'"Oven"'}`, /^Modified block data|target block/))
      .toBe(`Modified block data of ${pos.x}, ${pos.y}, ${pos.z}`);
    await run(bot, `/data merge block ${pos.x} ${pos.y} ${pos.z} {BurnTime:200}`, /^Modified block data/);
    const data = await getBlockEntityData(server.serv, server.serv.overworld, pos);
    expect(data).toEqual({ BurnTime: 200, CookTime: 0, CookTimeTotal: 200, CustomName: '"Oven"' });
    expect(await run(bot, `/data get block ${pos.x} ${pos.y} ${pos.z} CookTimeTotal`, /has the following block data/)).toMatch(/: 200$/);

    await run(bot, `/item replace block ${pos.x} ${pos.y} ${pos.z} container.1 with minecraft:coal 64`, /^Replaced a slot/);
    await run(bot, `/item replace block ${pos.x} ${pos.y} ${pos.z} container.0 with beef 8`, /^Replaced a slot/);
    expect((await getBlockEntityData(server.serv, server.serv.overworld, pos))?.Items).toEqual([
      { Slot: 1, id: 'minecraft:coal', count: 64 },
      { Slot: 0, id: 'minecraft:beef', count: 8 },
    ]);
    // Air is not a block entity.
    await run(bot, `/data merge block ${pos.x} ${pos.y + 5} ${pos.z} {BurnTime:1}`, /target block is not a block entity/);
    // Breaking the furnace drops its stored data.
    await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} air`, /^Changed the block/);
    expect(await getBlockEntityData(server.serv, server.serv.overworld, pos)).toBeUndefined();

    await run(bot, `/item replace entity ${bot.username} hotbar.2 with minecraft:iron_sword`, /^Replaced a slot/);
    await run(bot, '/item replace entity @s container.20 with bread 5', /^Replaced a slot/);
    await waitUntil(() => bot.inventory.slots[38]?.name === 'iron_sword' && bot.inventory.slots[20]?.name === 'bread', 'items in slots');
    expect(bot.inventory.slots[20]!.count).toBe(5);
    expect(serverPlayer(server, bot.username).inventory.slots[38]?.name).toBe('iron_sword');
    await run(bot, '/item replace entity @s armor.head with diamond_helmet', /^Replaced a slot/);
    await waitUntil(() => bot.inventory.slots[5]?.name === 'diamond_helmet', 'helmet worn');
  });
});
