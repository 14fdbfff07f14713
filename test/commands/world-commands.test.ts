/**
 * The block, sign, item and combat commands, run through `Agent.execute` on the embedded server,
 * each checked in the bot's view and in the server's world or inventory.
 */
import { describe, expect, test } from 'vitest';
import nbt from 'prismarine-nbt';
import { Vec3 } from 'vec3';
import { pickupDelayOver, roundTrip, serverPlayer, waitUntil } from '../helpers/world.ts';
import {
  area,
  command,
  count,
  expectStopsWithin1s,
  give,
  outcome,
  run,
  serverBlock,
  serverCount,
  serverMobs,
  serverPosition,
  setBlock,
  useWorld,
  summon,
  teleport,
} from './agent-world.ts';
import { sheepState } from '../../src/server/features/interactions.ts';
import { blockEntities } from '../../src/server/services/block-entities.ts';
import { damageOf } from '../../src/server/services/items.ts';
import { isOwnToss } from '../../src/skills/items.ts';
import { itemByName } from '../../src/game/data.ts';
import { blockTypesAround } from '../../src/skills/surroundings.ts';

const w = useWorld();

describe('blocks', () => {
  test('!placeBlockAt places from the inventory against a solid neighbour; refuses a floating spot', async () => {
    const base = await area(w, -24, 0);
    await give(w, 'cobblestone', 2);
    const at = base.offset(6, 0, 2);
    const cell = (p: Vec3) => ({ x: p.x, y: p.y, z: p.z });
    expect(await outcome(w.andy, `!placeBlockAt("cobblestone", ${at.x}, ${at.y}, ${at.z})`)).toEqual({
      ok: true,
      code: 'ok',
      text: `Placed cobblestone at (${at.x}, ${at.y}, ${at.z}).`,
      data: { position: cell(at), spent: { cobblestone: 1 } },
    });
    expect(await serverBlock(w, at)).toBe('cobblestone');
    expect(count(w.andy, 'cobblestone')).toBe(1);
    await waitUntil(() => serverCount(w, 'Andy', 'cobblestone') === 1, 'the server takes the placed block');

    const floating = base.offset(2, 4, 2);
    const refused = await outcome(w.andy, `!placeBlockAt("cobblestone", ${floating.x}, ${floating.y}, ${floating.z})`);
    expect(refused.text).toMatch(/^!placeBlockAt failed: Nothing solid touches/);
    expect(refused).toMatchObject({ ok: false, code: 'invalid', data: { position: cell(floating) } });
    expect(await serverBlock(w, floating)).toBe('air');

    const none = await outcome(w.andy, `!placeBlockAt("stone", ${at.x}, ${at.y + 1}, ${at.z})`);
    expect(none.text).toBe('!placeBlockAt failed: You have no stone. Inventory: 1 cobblestone.');
    expect(none).toMatchObject({ code: 'missing_items', data: { missing: { stone: 1 }, position: cell(at.offset(0, 1, 0)) } });

    // Steve stands in the cell: the server refuses the block (vanilla: a block may not overlap a player).
    const occupied = base.offset(6, 0, 5);
    await teleport(w, w.steve, occupied.offset(0.5, 0, 0.5));
    await waitUntil(
      () => (w.andy.bot.players.Steve?.entity?.position.distanceTo(occupied.offset(0.5, 0, 0.5)) ?? 99) < 0.5,
      'Andy sees Steve there',
    );
    const byServer = await outcome(w.andy, `!placeBlockAt("cobblestone", ${occupied.x}, ${occupied.y}, ${occupied.z})`);
    expect(byServer.text).toBe(
      `!placeBlockAt failed: Server refused to place cobblestone at (${occupied.x}, ${occupied.y}, ${occupied.z}): the block is still air`,
    );
    expect(byServer).toMatchObject({ ok: false, code: 'refused_by_server', data: { position: cell(occupied) } });
    expect(await serverBlock(w, occupied)).toBe('air');
    expect(count(w.andy, 'cobblestone')).toBe(1);
  }, 30_000);

  test('!collectBlocks: none in range is not_found, no harvest tool is missing_items with the tools, a harvest gains the drops', async () => {
    const base = await area(w, -36, 0);
    expect(await outcome(w.andy, '!collectBlocks("diamond_ore", 1)')).toEqual({
      ok: false,
      code: 'not_found',
      text: 'No diamond_ore within 64 blocks.',
      data: { sought: { kind: 'block', name: 'diamond_ore', range: 64 } },
    });
    const stone = base.offset(3, 0, 0);
    await setBlock(w, stone, 'stone');
    const tools = await outcome(w.andy, '!collectBlocks("stone", 1)');
    expect(tools.text).toMatch(/^You need one of these tools to harvest stone: .*wooden_pickaxe/);
    expect(tools).toMatchObject({
      ok: false,
      code: 'missing_items',
      data: { tools: expect.arrayContaining(['wooden_pickaxe', 'stone_pickaxe']) },
    });
    expect(await serverBlock(w, stone)).toBe('stone');
    await give(w, 'wooden_pickaxe', 1);
    expect(await outcome(w.andy, '!collectBlocks("stone", 1)')).toEqual({
      ok: true,
      code: 'ok',
      text: 'Collected 1 cobblestone.',
      data: { gained: { cobblestone: 1 } },
    });
    expect(await serverBlock(w, stone)).toBe('air');
  }, 30_000);

  test('what a bot sees around it: the block types within the distance asked, not those of sections farther off', async () => {
    const base = await area(w, -60, 0);
    // 50 blocks up: its section starts more than 32 blocks above Andy (mineflayer's findBlocks
    // reads the palettes of sections up to three sections off, 48 blocks and more).
    const high = base.offset(0, 50, 0);
    await setBlock(w, high, 'emerald_block');
    expect(blockTypesAround(w.andy.bot)).not.toContain('emerald_block');
    expect(blockTypesAround(w.andy.bot, 64)).toContain('emerald_block');
    const near = base.offset(0, 20, 0);
    await setBlock(w, near, 'gold_block');
    expect(blockTypesAround(w.andy.bot)).toContain('gold_block');
  }, 30_000);

  test('!sow plants seeds on the nearest empty farmland, seen by the bot and the server, and spends them; no free farmland: the clear error', async () => {
    const base = await area(w, 36, 12);
    await give(w, 'wheat_seeds', 3);
    expect(await outcome(w.andy, '!sow("wheat_seeds", 1)')).toEqual({
      ok: false,
      code: 'not_found',
      text: '!sow failed: wheat_seeds needs farmland with air above; there is no farmland within 32 blocks (a hoe turns dirt or grass into farmland).',
      data: { sought: { kind: 'block', name: 'farmland', range: 32 } },
    });
    // Farmland under a full-grown crop is not free.
    const covered = base.offset(2, -1, 0);
    await setBlock(w, covered, 'farmland');
    await setBlock(w, covered.offset(0, 1, 0), 'wheat[age=7]');
    expect(await run(w.andy, '!sow("wheat_seeds", 1)')).toBe(
      `!sow failed: wheat_seeds needs farmland with air above; the nearest farmland is at (${covered.x}, ${covered.y}, ${covered.z}), under wheat.`,
    );
    expect(await run(w.andy, '!sow("oak_log", 1)')).toMatch(
      /^!sow failed: oak_log plants no crop on farmland\. Seeds that do: wheat_seeds, .*carrot, potato/,
    );

    const fields = [base.offset(4, -1, 0), base.offset(4, -1, 1), base.offset(5, -1, 0)];
    for (const f of fields) await setBlock(w, f, 'farmland');
    const [a, b, c] = fields.map((f) => f.offset(0, 1, 0)) as [typeof base, typeof base, typeof base];
    // Three free farmland blocks: two get wheat, the last a carrot (a carrot plants carrots).
    const sown = await outcome(w.andy, '!sow("wheat_seeds", 2)');
    const out = sown.text;
    expect(out).toMatch(/^Sowed 2 wheat_seeds: wheat at \(.*\), \(.*\)\.$/);
    expect(sown).toMatchObject({ ok: true, code: 'ok', data: { spent: { wheat_seeds: 2 } } });
    const wheat = [a, b, c].filter((p) => out.includes(`(${p.x}, ${p.y}, ${p.z})`));
    expect(wheat).toHaveLength(2);
    for (const p of wheat) {
      expect(await serverBlock(w, p)).toBe('wheat');
      expect(w.andy.bot.blockAt(p)?.name).toBe('wheat');
      expect(Number(w.andy.bot.blockAt(p)?.getProperties().age)).toBe(0);
    }
    expect(count(w.andy, 'wheat_seeds')).toBe(1);
    await waitUntil(() => serverCount(w, 'Andy', 'wheat_seeds') === 1, 'the server takes the two seeds');
    const last = [a, b, c].find((p) => !wheat.includes(p))!;
    await give(w, 'carrot', 1);
    expect(await outcome(w.andy, '!sow("carrot", 2)')).toEqual({
      ok: false,
      code: 'partial',
      text: `Sowed 1 carrot: carrots at (${last.x}, ${last.y}, ${last.z}). Stopped: you have no more carrot.`,
      data: { spent: { carrot: 1 } },
    });
    expect(await serverBlock(w, last)).toBe('carrots');
    await waitUntil(() => serverCount(w, 'Andy', 'carrot') === 0 && count(w.andy, 'carrot') === 0, 'the carrot is spent on both sides');
    expect(await run(w.andy, '!sow("wheat_seeds", 1)')).toMatch(
      /^!sow failed: wheat_seeds needs farmland with air above; the nearest farmland is at .*, under (wheat|carrots)\.$/,
    );

    // A harvest takes only the full-grown crop and leaves the young ones just sown.
    const harvest = await outcome(w.andy, '!collectBlocks("wheat", 3)');
    expect(harvest.text).toMatch(/^Collected .*\b1 wheat\b/);
    // One full-grown cell of the three asked for: a part of the harvest.
    expect(harvest).toMatchObject({ ok: false, code: 'partial', data: { gained: { wheat: 1 } } });
    expect(await serverBlock(w, covered.offset(0, 1, 0))).toBe('air');
    for (const p of wheat) expect(await serverBlock(w, p)).toBe('wheat');
    expect(await outcome(w.andy, '!collectBlocks("wheat", 1)')).toMatchObject({
      code: 'not_found',
      text: 'No full-grown wheat within 64 blocks (2 still growing).',
      data: { sought: { kind: 'block', name: 'wheat', range: 64 } },
    });
  }, 60_000);

  test('!digAt walks into reach, digs with the right tool and picks up the drop; refuses stone without a pickaxe', async () => {
    const base = await area(w, -24, 12);
    const ground = base.offset(6, -1, 0);
    const dug = await outcome(w.andy, `!digAt(${ground.x}, ${ground.y}, ${ground.z})`);
    expect(dug.text).toMatch(/^Dug grass_block .* Gained 1 dirt\./);
    expect(dug).toMatchObject({ ok: true, code: 'ok', data: { position: { x: ground.x, y: ground.y, z: ground.z }, gained: { dirt: 1 } } });
    expect(await serverBlock(w, ground)).toBe('air');
    expect(count(w.andy, 'dirt')).toBe(1);
    await waitUntil(() => serverCount(w, 'Andy', 'dirt') === 1, 'the server gives Andy the dirt');

    const stone = base.offset(-3, 0, 0);
    await setBlock(w, stone, 'stone');
    const refused = await outcome(w.andy, `!digAt(${stone.x}, ${stone.y}, ${stone.z})`);
    expect(refused.text).toMatch(/need one of these tools to harvest stone: .*wooden_pickaxe/);
    expect(refused).toMatchObject({ ok: false, code: 'missing_items', data: { tools: expect.arrayContaining(['wooden_pickaxe']) } });
    expect(await serverBlock(w, stone)).toBe('stone');
  }, 30_000);

  test('!digDown digs the distance asked', async () => {
    const base = await area(w, -12, 24);
    const dug = await outcome(w.andy, '!digDown(2)');
    expect(dug.text).toBe(`Dug down 2 blocks to y=${base.y - 2}.`);
    expect(dug).toMatchObject({ ok: true, code: 'ok', data: { position: { x: base.x, y: base.y - 2, z: base.z } } });
    expect(Math.floor(serverPosition(w, 'Andy').y)).toBe(base.y - 2);
    // A dig the server read late breaks its block when its dig time is over (vanilla's delayed destroy).
    await waitUntil(
      async () => (await serverBlock(w, base.offset(0, -1, 0))) === 'air' && (await serverBlock(w, base.offset(0, -2, 0))) === 'air',
      'both blocks dug on the server',
    );
    expect(await serverBlock(w, base.offset(0, -3, 0))).toBe('dirt');
  }, 30_000);

  test('!digDown stops before lava below and before a drop of more than 3', async () => {
    const lavaBase = await area(w, 0, 24);
    await setBlock(w, lavaBase.offset(0, -3, 0), 'lava');
    const stopped = await outcome(w.andy, '!digDown(4)');
    expect(stopped.text).toMatch(/^Dug down 1 block to y=-?\d+; stopped because lava is below/);
    expect(stopped).toMatchObject({ ok: false, code: 'partial' });
    expect(await serverBlock(w, lavaBase.offset(0, -2, 0))).toBe('dirt'); // the block over the lava stays
    expect(Math.floor(serverPosition(w, 'Andy').y)).toBe(lavaBase.y - 1);

    const dropBase = await area(w, 12, 24);
    command(w, `/fill ${dropBase.x} ${dropBase.y - 4} ${dropBase.z} ${dropBase.x} ${dropBase.y - 2} ${dropBase.z} air`);
    await waitUntil(() => w.andy.bot.blockAt(dropBase.offset(0, -2, 0))?.name === 'air', 'the hole below is dug');
    expect(await run(w.andy, '!digDown(3)')).toMatch(/^Dug down 0 blocks .*would drop you more than 3 blocks/);
    expect(await serverBlock(w, dropBase.offset(0, -1, 0))).toBe('grass_block');
  }, 30_000);

  test('!activate walks to the nearest lever and flips it for everyone', async () => {
    const base = await area(w, 24, 0);
    const lever = base.offset(9, 0, 3);
    await setBlock(w, lever, 'lever[face=floor,facing=north,powered=false]');
    const powered = async () => {
      const block = await w.server.serv.overworld.getBlock(lever);
      return (block.getProperties() as { powered?: boolean }).powered;
    };
    expect(await powered()).toBe(false);
    const flipped = await outcome(w.andy, '!activate("lever")');
    expect(flipped.text).toBe(`Flipped the lever at (${lever.x}, ${lever.y}, ${lever.z}); it is now on.`);
    expect(flipped).toMatchObject({ ok: true, code: 'ok', data: { position: { x: lever.x, y: lever.y, z: lever.z } } });
    expect(await powered()).toBe(true);
    await waitUntil(
      () => (w.steve.blockAt(lever)?.getProperties() as { powered?: boolean } | undefined)?.powered === true,
      'Steve sees the lever on',
    );
    expect(serverPosition(w, 'Andy').distanceTo(lever.offset(0.5, 0.5, 0.5))).toBeLessThan(5);
    expect(await run(w.andy, '!activate("lever")')).toBe(`Flipped the lever at (${lever.x}, ${lever.y}, ${lever.z}); it is now off.`);
    expect(await powered()).toBe(false);
    expect(await outcome(w.andy, '!activate("stone_button")')).toEqual({
      ok: false,
      code: 'not_found',
      text: 'No stone_button within 64 blocks.',
      data: { sought: { kind: 'block', name: 'stone_button', range: 64 } },
    });
  }, 30_000);

  test('!readSign reads the text another player wrote with updateSign', async () => {
    const base = await area(w, -12, 36);
    const sign = base.offset(3, 0, 2);
    await teleport(w, w.steve, base.offset(1.5, 0, 3.5));
    await setBlock(w, sign, 'oak_sign');
    await waitUntil(() => w.steve.blockAt(sign)?.name === 'oak_sign', 'Steve sees the sign');
    w.steve.updateSign(w.steve.blockAt(sign)!, 'Iron mine\nto the east');
    await waitUntil(() => !!w.andy.bot.blockAt(sign)?.entity, 'Andy receives the sign text');
    expect(await run(w.andy, '!readSign')).toBe(`Sign at (${sign.x}, ${sign.y}, ${sign.z}): "Iron mine | to the east"`);
    expect(w.steve.blockAt(sign)?.getSignText()[0]).toBe('Iron mine\nto the east\n\n');
    const stored = blockEntities(w.server.serv).get(w.server.serv.overworld, sign);
    expect(stored?.text?.front).toEqual(['Iron mine', 'to the east', '', '']);
    command(w, `/setblock ${sign.x} ${sign.y} ${sign.z} air`);
  }, 30_000);

  test('!readSign and !nearbyBlocks report the text of a nearby sign', async () => {
    const base = w.origin.offset(10, 0, 10);
    await teleport(w, w.andy.bot, base.offset(0.5, 0, 0.5));
    expect(await outcome(w.andy, '!readSign')).toMatchObject({ ok: false, code: 'not_found', text: 'No sign within 16 blocks.' });
    const at = base.offset(3, 0, 2);
    await setBlock(w, at, 'oak_sign');
    // What a vanilla server sends for a written sign: each line a text component, as JSON text
    // before 1.21.5 and as NBT since (a string tag for plain text).
    const json = w.server.serv.registry.version['<']('1.21.5');
    const line = (words: string) => (json ? (words ? JSON.stringify({ text: words }) : '""') : words);
    const text = (messages: string[]) =>
      nbt.comp({ messages: nbt.list(nbt.string(messages.map(line))), color: nbt.string('black'), has_glowing_text: nbt.byte(0) });
    serverPlayer(w.server, 'Andy')._client.write('tile_entity_data', {
      location: at,
      action: 7,
      nbtData: nbt.comp({ front_text: text(['Welcome', 'to base', '', '']), back_text: text(['', '', '', '']), is_waxed: nbt.byte(0) }),
    });
    await waitUntil(() => !!w.andy.bot.blockAt(at)?.entity, 'Andy receives the sign text');
    expect(await run(w.andy, '!readSign')).toBe(`Sign at (${at.x}, ${at.y}, ${at.z}): "Welcome | to base"`);
    expect(await run(w.andy, '!nearbyBlocks')).toContain(`Sign at (${at.x}, ${at.y}, ${at.z}): "Welcome | to base"`);
    command(w, `/setblock ${at.x} ${at.y} ${at.z} air`);
  });
});

describe('items', () => {
  test('!equip wears armour in its slot and holds other items', async () => {
    await area(w, 24, 12);
    await give(w, 'iron_helmet', 1);
    await give(w, 'iron_boots', 1);
    expect(await run(w.andy, '!equip("iron_helmet")')).toBe('Equipped iron_helmet (head).');
    expect(await run(w.andy, '!equip("iron_boots")')).toBe('Equipped iron_boots (feet).');
    expect(w.andy.bot.inventory.slots[5]?.name).toBe('iron_helmet');
    expect(w.andy.bot.inventory.slots[8]?.name).toBe('iron_boots');
    const slots = serverPlayer(w.server, 'Andy').inventory.slots as ({ type: number } | null)[];
    const reg = w.server.serv.registry;
    await waitUntil(
      () => slots[5]?.type === itemByName(reg, 'iron_helmet').id && slots[8]?.type === itemByName(reg, 'iron_boots').id,
      'the server has the armour in slots 5 and 8',
    );
    expect(await outcome(w.andy, '!equip("diamond_helmet")')).toMatchObject({
      code: 'missing_items',
      text: expect.stringMatching(/You have no diamond_helmet/),
      data: { missing: { diamond_helmet: 1 } },
    });
  }, 30_000);

  test('!discard drops the number asked and leaves it on the ground', async () => {
    await area(w, -12, -12);
    await give(w, 'dirt', 5);
    expect(await outcome(w.andy, '!discard("dirt", 3)')).toEqual({
      ok: true,
      code: 'ok',
      text: 'Discarded 3 dirt; 2 left.',
      data: { spent: { dirt: 3 } },
    });
    expect(count(w.andy, 'dirt')).toBe(2);
    await waitUntil(() => serverCount(w, 'Andy', 'dirt') === 2, 'the server has 2 dirt left');
    const here = w.andy.bot.entity.position;
    // The bot steps at least 4 blocks away from the stack; the pathfinder's path can take it 8 or more.
    const items = () =>
      Object.values(w.andy.bot.entities).filter(
        (e) => e.name === 'item' && e.getDroppedItem()?.name === 'dirt' && e.position.distanceTo(here) < 16,
      );
    // The item entities (and their stacks' metadata) reach the bot after the inventory update.
    const lying = () => items().reduce((n, e) => n + (e.getDroppedItem()?.count ?? 0), 0);
    // What the bot and the server see, told when the wait fails.
    const seen = () => ({
      lying: lying(),
      client: Object.values(w.andy.bot.entities)
        .filter((e) => e.name === 'item')
        .map((e) => `${e.id} ${e.getDroppedItem()?.name ?? '?'} at ${e.position.distanceTo(here).toFixed(1)}`),
      server: Object.values(
        w.server.serv.entities as Record<string, { id: number; itemId?: number; position: { x: number; y: number; z: number } }>,
      )
        .filter((e) => e.itemId !== undefined)
        .map((e) => `${e.id} at ${here.distanceTo(new Vec3(e.position.x, e.position.y, e.position.z)).toFixed(1)}`),
    });
    await waitUntil(() => lying() >= 3, 'the bot sees the 3 dirt on the ground', { state: seen });
    expect(lying()).toBe(3);
    // Its own throw: its item_collecting mode leaves these for good, not just for a grace period.
    for (const e of items()) expect(isOwnToss(w.andy.bot, e.id)).toBe(true);
    // Past the throw's pickup delay the server checks pickups again; the dirt stays on the ground.
    const onServer = items().map((e) => w.server.serv.entities[e.id]!); // lying there, as the bot just saw
    for (const item of onServer) await pickupDelayOver(w.server, item);
    expect(serverCount(w, 'Andy', 'dirt')).toBe(2);
    expect(onServer.filter((item) => w.server.serv.entities[item.id] === item)).toHaveLength(onServer.length);
  }, 30_000);

  test('!consume refuses non-food and food at full hunger, keeping the item', async () => {
    await give(w, 'bread', 1);
    expect(w.andy.bot.food).toBe(20);
    expect(await outcome(w.andy, '!consume("bread")')).toEqual({
      ok: false,
      code: 'invalid',
      text: 'You are not hungry (hunger 20/20), so you cannot eat bread now.',
    });
    expect(count(w.andy, 'bread')).toBe(1);
    expect(await run(w.andy, '!consume("dirt")')).toMatch(/dirt is not something you can eat/);
  });

  test('!consume eats when hungry', async () => {
    const andy = serverPlayer(w.server, 'Andy');
    andy.food = 14;
    andy.foodSaturation = 0;
    andy.updateHealth(andy.health);
    await waitUntil(() => w.andy.bot.food === 14, 'Andy is hungry');
    const ate = await outcome(w.andy, '!consume("bread")');
    expect(ate.text).toMatch(/^Consumed 1 bread\. Hunger 19\/20/);
    expect(ate).toMatchObject({ ok: true, code: 'ok', data: { spent: { bread: 1 } } });
    expect(w.andy.bot.food).toBe(19); // bread: 5 hunger
    expect(andy.food).toBe(19);
    expect(count(w.andy, 'bread')).toBe(0);
    await waitUntil(() => serverCount(w, 'Andy', 'bread') === 0, 'the server took the bread');
  }, 15_000);

  test('!useItemOnEntity milks a cow with a bucket', async () => {
    const base = await area(w, -24, -12);
    await give(w, 'bucket', 1);
    await summon(w, 'cow', base.offset(8, 0, 0));
    try {
      const milked = await outcome(w.andy, '!useItemOnEntity("bucket", "cow")');
      expect(milked.text).toMatch(/^Used bucket on the cow at .*Gained 1 milk_bucket\. Lost 1 bucket\.$/);
      expect(milked).toMatchObject({ ok: true, code: 'ok', data: { gained: { milk_bucket: 1 }, spent: { bucket: 1 } } });
      expect(w.andy.bot.heldItem?.name).toBe('milk_bucket');
      await waitUntil(
        () => serverCount(w, 'Andy', 'milk_bucket') === 1 && serverCount(w, 'Andy', 'bucket') === 0,
        'the server has the milk bucket',
      );
      expect(await run(w.andy, '!useItemOnEntity("shears", "cow")')).toMatch(/You have no shears/);
    } finally {
      command(w, '/kill @e[type=cow]');
    }
  }, 30_000);

  test('!useItemOnEntity shears a sheep once: wool drops, the shears wear', async () => {
    const base = await area(w, -36, -24);
    await give(w, 'shears', 1);
    await summon(w, 'sheep', base.offset(6, 0, 0));
    try {
      const out = await run(w.andy, '!useItemOnEntity("shears", "sheep")');
      expect(out).toMatch(/^Used shears on the sheep at .*Gained [123] white_wool\.$/);
      const wool = count(w.andy, 'white_wool');
      expect(wool).toBeGreaterThanOrEqual(1);
      expect(wool).toBeLessThanOrEqual(3);
      const sheep = serverMobs(w, 'sheep', base)[0];
      expect(sheepState(w.server.serv, sheep).sheared).toBe(true);
      const shears = serverPlayer(w.server, 'Andy').inventory.slots.find(
        (s: { type: number } | null) => s?.type === itemByName(w.server.serv.registry, 'shears').id,
      );
      expect(damageOf(shears)).toBe(1);
      // A sheared sheep gives nothing more: once the server has handled the second use, no new
      // wool lies on the ground and none reached the inventory.
      const woolId = itemByName(w.server.serv.registry, 'white_wool').id;
      const woolOnGround = () =>
        Object.values(w.server.serv.entities as Record<string, { itemId?: number }>).filter((e) => e.itemId === woolId);
      const before = new Set(woolOnGround());
      await run(w.andy, '!useItemOnEntity("shears", "sheep")');
      await roundTrip(w.andy.bot);
      expect(woolOnGround().filter((e) => !before.has(e))).toEqual([]);
      expect(serverCount(w, 'Andy', 'white_wool')).toBe(wool);
      expect(count(w.andy, 'white_wool')).toBe(wool);
    } finally {
      command(w, '/kill @e[type=sheep]');
    }
  }, 30_000);
});

describe('combat', () => {
  test('!attack kills the nearest mob of the type and picks up its loot', async () => {
    const base = await area(w, 0, -24);
    await give(w, 'iron_sword', 1);
    const cow = await summon(w, 'cow', base.offset(5, 0, 0));
    const killed = await outcome(w.andy, '!attack("cow")');
    expect(killed.text).toMatch(/^Killed the cow with iron_sword\. Loot: .*beef/);
    expect(killed).toMatchObject({ ok: true, code: 'ok', data: { gained: { beef: count(w.andy, 'beef') } } });
    const onServer = w.server.serv.entities[cow.id];
    expect(!onServer || (onServer.health ?? 0) <= 0).toBe(true);
    expect(count(w.andy, 'beef')).toBeGreaterThan(0);
    await waitUntil(() => serverCount(w, 'Andy', 'beef') === count(w.andy, 'beef'), 'the server agrees on the beef');
    expect(await outcome(w.andy, '!attack("zombie")')).toEqual({
      ok: false,
      code: 'not_found',
      text: 'No zombie within 24 blocks.',
      data: { sought: { kind: 'mob', name: 'zombie', range: 24 } },
    });
  }, 45_000);

  test('!attack right after a kill goes for a living mob, not the one still in its death animation', async () => {
    // A sheep hunt (2026-11-28): every other `!attack("sheep")` "killed" the sheep just killed,
    // which lies dying for 20 ticks before it is removed, and picked up nothing.
    const base = await area(w, 24, -24);
    await give(w, 'iron_sword', 1);
    await summon(w, 'cow', base.offset(3, 0, 0));
    await summon(w, 'cow', base.offset(9, 0, 0));
    const dead: number[] = [];
    const onDead = (e: { id: number }) => {
      dead.push(e.id);
    };
    w.andy.bot.on('entityDead', onDead);
    try {
      const first = await outcome(w.andy, '!attack("cow")');
      expect(first.text).toMatch(/^Killed the cow with iron_sword\. Loot: .*beef/);
      const second = await outcome(w.andy, '!attack("cow")');
      expect(second.text).toMatch(/^Killed the cow with iron_sword\. Loot: .*beef/);
      expect(new Set(dead).size).toBe(2);
    } finally {
      w.andy.bot.off('entityDead', onDead);
      command(w, '/kill @e[type=cow]');
    }
  }, 45_000);

  test('!attackPlayer hurts the player until !stop, which ends it within 1 s', async () => {
    const base = await area(w, 12, -24);
    await give(w, 'iron_sword', 1);
    await teleport(w, w.steve, base.offset(4.5, 0, 0.5));
    const steve = serverPlayer(w.server, 'Steve');
    const health = steve.health as number;
    const pending = outcome(w.andy, '!attackPlayer("Steve")');
    await waitUntil(() => (steve.health as number) < health, 'Steve is hurt', 10_000);
    const out = await expectStopsWithin1s(
      w.andy,
      pending.then((o) => o.text),
    );
    expect(out).toMatch(/stopped/);
    expect((await pending).code).toBe('interrupted');
    expect(await run(w.andy, '!attackPlayer("Andy")')).toMatch(/cannot attack yourself/);
  }, 30_000);
});
