/**
 * Block commands (src/server/features/fill.ts, data-command.ts, item-commands.ts) end to end: a
 * real mineflayer bot runs /fill, /setblock, /data and /item on the embedded server; checks cover the bot's view
 * (windows it opens, block states) and the server's block-entity store (services/block-entities.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { botCount, connectBot, countTicks, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { blockEntities } from '../../src/server/services/block-entities.ts';
import { itemById, itemByName } from '../../src/game/data.ts';
import { vanillaText } from '../helpers/version.ts';

/** Resolves with the first chat/system line matching `pattern` (listen before sending). */
function nextMessage(bot: Bot, pattern: RegExp, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const onMessage = (text: string): void => {
      if (!pattern.test(text)) return;
      clearTimeout(timer);
      bot.off('messagestr', onMessage);
      resolve(text);
    };
    const timer = setTimeout(() => {
      bot.off('messagestr', onMessage);
      reject(new Error(`no message matching ${pattern}`));
    }, timeoutMs);
    bot.on('messagestr', onMessage);
  });
}

/** The server's block entity at `pos`: slots as `name×count` (null = empty) and its numbers. */
function stored(server: EmbeddedServer, pos: Vec3): { kind: string; slots: (string | null)[]; data: Record<string, number> } | undefined {
  const entity = blockEntities(server.serv).get(server.serv.overworld, pos);
  if (!entity) return undefined;
  const slots = entity.slots.map((i) => (i ? `${itemById(server.serv.registry, i.type).name}×${Number(i.count)}` : null));
  return { kind: entity.kind, slots, data: entity.data };
}

describe('block commands', () => {
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

  test('/fill with a block state, replace filter, hollow, and the volume limit', async () => {
    const bot = await join();
    const ground = bot.entity.position.floored();
    const x = ground.x + 3,
      y = ground.y,
      z = ground.z + 3;

    expect(
      await run(
        bot,
        `/fill ${x} ${y} ${z} ${x + 2} ${y} ${z + 1} minecraft:oak_stairs[facing=east, half=top]`,
        /^Successfully filled|^Could not/,
      ),
    ).toBe('Successfully filled 6 block(s)');
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
    expect(
      await run(bot, `/fill ${x} ${y} ${z} ${x + 2} ${y} ${z + 1} stone replace oak_stairs[facing=east]`, /^Successfully filled/),
    ).toBe('Successfully filled 5 block(s)');
    await waitUntil(() => bot.blockAt(new Vec3(x + 1, y, z + 1))?.name === 'stone', 'stone visible');
    expect(bot.blockAt(new Vec3(x, y, z))?.name).toBe('oak_stairs');

    // hollow: a 3x3x3 shell of glass with air inside.
    const hx = x,
      hy = y + 3,
      hz = z + 6;
    expect(await run(bot, `/fill ${hx} ${hy} ${hz} ${hx + 2} ${hy + 2} ${hz + 2} glass hollow`, /^Successfully filled/)).toBe(
      'Successfully filled 26 block(s)',
    );
    await waitUntil(() => bot.blockAt(new Vec3(hx + 2, hy + 2, hz + 2))?.name === 'glass', 'glass shell visible');
    expect(bot.blockAt(new Vec3(hx + 1, hy + 1, hz + 1))?.name).toBe('air');

    // Errors: too big, unknown property, nothing changed.
    expect(await run(bot, `/fill ${x} ${y} ${z} ${x + 40} ${y + 40} ${z + 40} stone`, /Too many blocks/)).toBe(
      vanillaText('commands.fill.toobig', 32768, 68921),
    );
    await run(
      bot,
      `/fill ${x} ${y} ${z} ${x} ${y} ${z} oak_stairs[color=red]`,
      /Block minecraft:oak_stairs does not have property 'color'|oak_stairs.*color/,
    );
    await run(bot, `/fill ${hx} ${hy} ${hz} ${hx} ${hy} ${hz} glass`, /No blocks were filled/);
  });

  test('/fill destroy drops the old blocks as items the bot collects; keep and outline', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    // The bot stands next to a 3x1x1 row of oak logs, replaced with destroy: 3 oak_log items drop.
    const x = feet.x + 1,
      y = feet.y,
      z = feet.z;
    await run(bot, `/fill ${x} ${y} ${z} ${x} ${y} ${z - 2} oak_log`, /^Successfully filled/);
    await waitUntil(() => bot.blockAt(new Vec3(x, y, z - 2))?.name === 'oak_log', 'logs visible');
    expect(botCount(bot, 'oak_log')).toBe(0);
    expect(await run(bot, `/fill ${x} ${y} ${z} ${x} ${y} ${z - 2} air destroy`, /^Successfully filled/)).toBe(
      'Successfully filled 3 block(s)',
    );
    await waitUntil(() => bot.blockAt(new Vec3(x, y, z))?.name === 'air', 'logs gone');
    // Step into the cleared row, in reach of all three drops (vanilla pickup: within ~1 block).
    bot.chat(`/tp ${x + 0.5} ${y} ${z - 0.5}`);
    // A drop that popped out of reach is walked to as a player would (here: teleported to).
    let lastTp = Date.now();
    await waitUntil(
      () => {
        if (botCount(bot, 'oak_log') === 3) return true;
        const drop = Object.values(bot.entities).find((e) => e.name === 'item' && e.position.distanceTo(bot.entity.position) > 1);
        if (drop && Date.now() - lastTp > 500) {
          lastTp = Date.now();
          bot.chat(`/tp ${drop.position.x} ${y} ${drop.position.z}`);
        }
        return false;
      },
      'three logs picked up',
      8_000,
    );
    expect(
      serverPlayer(server, bot.username)
        .inventory.slots.filter(Boolean)
        .map((i: { type: number; count: number }) => [i.type, i.count]),
    ).toEqual([[itemByName(server.serv.registry, 'oak_log').id, 3]]);

    // keep only fills air; outline leaves the inside alone.
    const ox = feet.x + 6,
      oz = feet.z + 6;
    // Air there first: the file's earlier tests build beside the spawn too.
    await run(bot, `/fill ${ox} ${y} ${oz} ${ox + 2} ${y + 2} ${oz + 2} air`, /^Successfully filled|^No blocks were filled/);
    await run(bot, `/setblock ${ox + 1} ${y} ${oz + 1} dirt`, /^Changed the block/);
    expect(await run(bot, `/fill ${ox} ${y} ${oz} ${ox + 2} ${y} ${oz + 2} cobblestone keep`, /^Successfully filled/)).toBe(
      'Successfully filled 8 block(s)',
    );
    await waitUntil(() => bot.blockAt(new Vec3(ox, y, oz))?.name === 'cobblestone', 'cobblestone visible');
    expect(bot.blockAt(new Vec3(ox + 1, y, oz + 1))?.name).toBe('dirt');
    expect(await run(bot, `/fill ${ox} ${y} ${oz} ${ox + 2} ${y + 2} ${oz + 2} stone outline`, /^Successfully filled/)).toBe(
      'Successfully filled 26 block(s)',
    );
    await waitUntil(() => bot.blockAt(new Vec3(ox + 1, y + 2, oz + 1))?.name === 'stone', 'stone top visible');
    expect(bot.blockAt(new Vec3(ox + 1, y + 1, oz + 1))?.name).toBe('air');
  });

  test('/setblock with a state, keep and destroy', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    const pos = feet.offset(2, 0, -2);
    expect(
      await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} minecraft:furnace[facing=west,lit=true]`, /^Changed the block|Could not/),
    ).toBe(`Changed the block at ${pos.x}, ${pos.y}, ${pos.z}`);
    await waitUntil(() => bot.blockAt(pos)?.name === 'furnace', 'furnace visible');
    expect(bot.blockAt(pos)!.getProperties()).toEqual({ facing: 'west', lit: true });
    await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} stone keep`, /^Could not set the block/);
    expect(bot.blockAt(pos)?.name).toBe('furnace');
    await run(bot, '/setblock ~1 ~ ~ wheat[age=7]', /^Changed the block/);
    await waitUntil(() => bot.blockAt(feet.offset(1, 0, 0))?.name === 'wheat', 'wheat visible');
    expect(String(bot.blockAt(feet.offset(1, 0, 0))!.getProperties().age)).toBe('7');
    // destroy: the furnace drops itself as an item entity the bot sees.
    const furnaceId = itemByName(server.serv.registry, 'furnace').id;
    const dropped = new Promise<void>((resolve) =>
      bot.on('itemDrop', (entity) => {
        if (entity.getDroppedItem()?.type === furnaceId) resolve();
      }),
    );
    await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} stone destroy`, /^Changed the block/);
    await dropped;
    expect(bot.blockAt(pos)?.name).toBe('stone');
    await run(bot, `/setblock ${pos.x} ${pos.y} ${pos.z} nonsense_block`, /Unknown block type/);
  });

  test('/data merge block fuels a furnace (1.21.4 and legacy keys); /data get prints the stored values', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    const pos = feet.offset(-2, 0, 2);
    const at = `${pos.x} ${pos.y} ${pos.z}`;
    await run(bot, `/setblock ${at} furnace[facing=north]`, /^Changed the block/);
    await waitUntil(() => bot.blockAt(pos)?.name === 'furnace', 'furnace visible');
    expect(bot.blockAt(pos)!.getProperties().lit).toBe(false);

    // MineCollab's legacy keys; CustomName is accepted and ignored.
    expect(
      await run(
        bot,
        `/data merge block ${at} {BurnTime:1000s,CookTime:0s,CookTimeTotal:200s,CustomName:'"Oven"'}`,
        /^Modified block data|target block|Nothing/,
      ),
    ).toBe(`Modified block data of ${pos.x}, ${pos.y}, ${pos.z}`);
    // Burning: the block turns lit at once, and burns down one tick per tick even without input.
    await waitUntil(() => bot.blockAt(pos)?.getProperties().lit === true, 'the bot sees the furnace lit');
    await waitUntil(() => (stored(server, pos)!.data.litTime ?? Infinity) < 1000, 'the furnace burns down');
    expect(stored(server, pos)).toMatchObject({ kind: 'furnace', data: { litDuration: 1000, cookingProgress: 0, cookingTotalTime: 200 } });

    // /data get prints vanilla's names of the server's version: 1.21.4 renamed the furnace keys.
    const keys = server.serv.registry.version['>=']('1.21.4')
      ? {
          remaining: 'lit_time_remaining',
          total: 'cooking_total_time',
          all: 'lit_time_remaining: 0, lit_total_time: 0, cooking_time_spent: 0, cooking_total_time: 200',
        }
      : { remaining: 'BurnTime', total: 'CookTimeTotal', all: 'BurnTime: 0, CookTime: 0, CookTimeTotal: 200' };
    expect(await run(bot, `/data get block ${at} ${keys.total}`, /has the following block data/)).toMatch(/: 200$/);
    const remaining = Number(
      /: (\d+)$/.exec(await run(bot, `/data get block ${at} ${keys.remaining}`, /has the following block data/))![1],
    );
    expect(remaining).toBeGreaterThan(500);
    expect(remaining).toBeLessThan(1000);
    expect(remaining).toBeGreaterThanOrEqual(stored(server, pos)!.data.litTime!);
    await run(bot, `/data merge block ${at} {lit_time_remaining:0s,lit_total_time:0s}`, /^Modified block data/);
    await waitUntil(() => bot.blockAt(pos)?.getProperties().lit === false, 'the bot sees the furnace go out');

    await run(bot, `/item replace block ${at} container.1 with minecraft:coal 64`, /^Replaced a slot/);
    await run(bot, `/data merge block ${at} {Items:[{Slot:1b,id:"minecraft:coal",count:64}]}`, /^Nothing changed/);
    const line = await run(bot, `/data get block ${at}`, /has the following block data/);
    expect(line).toBe(
      `${pos.x}, ${pos.y}, ${pos.z} has the following block data: {id: "minecraft:furnace", x: ${pos.x}, y: ${pos.y}, z: ${pos.z}, ` +
        `${keys.all}, Items: [{Slot: 1, id: "minecraft:coal", count: 64}]}`,
    );
    expect(await run(bot, `/data get block ${at} Items[0].id`, /has the following block data/)).toMatch(/: "minecraft:coal"$/);
    await run(bot, `/data get block ${at} Items[3]`, /^Found no elements matching Items\[3\]/);

    // Not block entities: air, stone.
    await run(bot, `/data merge block ${pos.x} ${pos.y + 5} ${pos.z} {BurnTime:1}`, /target block is not a block entity/);
    await run(bot, `/data get block ${pos.x} ${pos.y - 1} ${pos.z}`, /target block is not a block entity/);
  });

  test('/data merge and /item replace make a smoker and a blast furnace cook; the bot sees the results', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    const smoker = feet.offset(2, 0, -1);
    const blast = feet.offset(2, 0, 1);
    await run(bot, `/setblock ${smoker.x} ${smoker.y} ${smoker.z} smoker[facing=west]`, /^Changed the block/);
    await run(bot, `/setblock ${blast.x} ${blast.y} ${blast.z} blast_furnace[facing=west]`, /^Changed the block/);
    await waitUntil(() => bot.blockAt(smoker)?.name === 'smoker' && bot.blockAt(blast)?.name === 'blast_furnace', 'both blocks visible');

    // Smoker: input and fuel in one merge (it lights from the coal); blast furnace: MineCollab's
    // set-up, burn time by /data merge and the slots by /item replace.
    await run(
      bot,
      `/data merge block ${smoker.x} ${smoker.y} ${smoker.z} {Items:[{Slot:0b,id:"minecraft:beef",count:2},{Slot:1b,id:"minecraft:coal",count:64}]}`,
      /^Modified block data/,
    );
    await run(bot, `/data merge block ${blast.x} ${blast.y} ${blast.z} {BurnTime:1000s}`, /^Modified block data/);
    await run(bot, `/item replace block ${blast.x} ${blast.y} ${blast.z} container.1 with coal 64`, /^Replaced a slot/);
    await run(bot, `/item replace block ${blast.x} ${blast.y} ${blast.z} container.0 with raw_iron 1`, /^Replaced a slot/);
    const clock = countTicks(server);
    await waitUntil(
      () => bot.blockAt(smoker)?.getProperties().lit === true && bot.blockAt(blast)?.getProperties().lit === true,
      'both lit',
    );
    expect(stored(server, smoker)!.data).toMatchObject({ cookingTotalTime: 100 });

    // The window's properties as sent (mineflayer's furnace reads them only once openFurnace has
    // resolved, and misses those that came with the window in the same read).
    const properties = new Map<number, number>();
    const onProperty = (p: { property: number; value: number }): void => {
      properties.set(p.property, p.value);
    };
    bot._client.on('craft_progress_bar', onProperty);
    const window = await bot.openFurnace(bot.blockAt(smoker)!);
    await waitUntil(() => (properties.get(2) ?? 0) > 0, 'the bot sees cooking progress', 20_000);
    expect(properties.get(3)).toBe(100);
    await waitUntil(() => window.outputItem()?.name === 'cooked_beef', 'the bot sees cooked beef in the open window', 20_000);
    clock.stop();
    // 100 ticks (cookingTotalTime above), where a furnace takes 200.
    expect(clock.ticks).toBeLessThan(200);
    expect(window.inputItem()).toMatchObject({ name: 'beef', count: 1 });
    expect(window.fuelItem()).toMatchObject({ name: 'coal', count: 63 });
    await window.close();
    bot._client.off('craft_progress_bar', onProperty);

    // The blast furnace burned its /data fuel only: the coal is untouched.
    await waitUntil(() => stored(server, blast)?.slots[2] === 'iron_ingot×1', 'server: iron ingot', 5_000);
    expect(stored(server, blast)!.slots).toEqual([null, 'coal×64', 'iron_ingot×1']);
    const blastWindow = await bot.openFurnace(bot.blockAt(blast)!);
    expect(blastWindow.outputItem()).toMatchObject({ name: 'iron_ingot', count: 1 });
    await blastWindow.takeOutput();
    await blastWindow.close();
    expect(botCount(bot, 'iron_ingot')).toBe(1);
  });

  test('/item replace block and /data merge fill chests and barrels the bot opens; errors', async () => {
    const bot = await join();
    const feet = bot.entity.position.floored();
    const chest = feet.offset(-2, 0, -2);
    const barrel = feet.offset(-2, 0, -1);
    const c = `${chest.x} ${chest.y} ${chest.z}`;
    await run(bot, `/setblock ${c} chest[facing=east]`, /^Changed the block/);
    await run(bot, `/setblock ${barrel.x} ${barrel.y} ${barrel.z} barrel`, /^Changed the block/);
    await waitUntil(() => bot.blockAt(chest)?.name === 'chest' && bot.blockAt(barrel)?.name === 'barrel', 'chest and barrel visible');

    expect(await run(bot, `/item replace block ${c} container.3 with minecraft:apple 5`, /^Replaced a slot|not a container/)).toBe(
      `Replaced a slot at ${chest.x}, ${chest.y}, ${chest.z} with [Apple]`,
    );
    const window = await bot.openContainer(bot.blockAt(chest)!);
    expect(window.containerItems().map((i) => [i.slot, i.name, i.count])).toEqual([[3, 'apple', 5]]);
    // While the bot has it open, the window follows the store.
    await run(bot, `/item replace block ${c} container.26 with iron_pickaxe`, /^Replaced a slot/);
    await waitUntil(() => window.slots[26]?.name === 'iron_pickaxe', 'the open window shows the pickaxe');
    await run(bot, `/item replace block ${c} container.3 with air`, /^Replaced a slot/);
    await waitUntil(() => window.slots[3] === null, 'the open window shows slot 3 emptied');
    await window.close();
    expect(stored(server, chest)!.slots.filter(Boolean)).toEqual(['iron_pickaxe×1']);
    expect(await run(bot, `/data get block ${c} Items`, /has the following block data/)).toMatch(
      /: \[\{Slot: 26, id: "minecraft:iron_pickaxe", count: 1\}\]$/,
    );

    await run(
      bot,
      `/data merge block ${barrel.x} ${barrel.y} ${barrel.z} {Items:[{Slot:0b,id:"minecraft:bread",count:3},{Slot:40b,id:"minecraft:stone"},{Slot:2b,id:"minecraft:nonsense"}]}`,
      /^Modified block data/,
    );
    const barrelWindow = await bot.openContainer(bot.blockAt(barrel)!);
    expect(barrelWindow.containerItems().map((i) => [i.slot, i.name, i.count])).toEqual([[0, 'bread', 3]]);
    await barrelWindow.close();

    await run(bot, `/item replace block ${c} container.27 with apple`, /^The target does not have slot 27/);
    await run(bot, `/item replace block ${chest.x} ${chest.y - 1} ${chest.z} container.0 with apple`, /is not a container/);
    await run(bot, `/item replace block ${c} container.0 with not_an_item`, /^Unknown item/);
  });

  test('/item replace entity fills player slots', async () => {
    const bot = await join();
    await run(bot, `/item replace entity ${bot.username} hotbar.2 with minecraft:iron_sword`, /^Replaced a slot/);
    await run(bot, '/item replace entity @s container.20 with bread 5', /^Replaced a slot/);
    await waitUntil(() => bot.inventory.slots[38]?.name === 'iron_sword' && bot.inventory.slots[20]?.name === 'bread', 'items in slots');
    expect(bot.inventory.slots[20]!.count).toBe(5);
    expect(serverPlayer(server, bot.username).inventory.slots[38]?.name).toBe('iron_sword');
    await run(bot, '/item replace entity @s armor.head with diamond_helmet', /^Replaced a slot/);
    await waitUntil(() => bot.inventory.slots[5]?.name === 'diamond_helmet', 'helmet worn');
  });
});
