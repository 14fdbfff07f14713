/**
 * The library fixes of src/upstream/: each one is applied where the installed library still
 * needs it, only once, and gives exactly what the library gives.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import mineflayer, { type Bot, type Furnace } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { applyUpstreamFixes } from '../../src/upstream/index.ts';
import { packetsBeforeEnd } from '../../src/upstream/minecraft-protocol.ts';
import { digOnTheGround, findBlocksInRange, furnaceProperties, packetsAfterPlugins, versionFixes } from '../../src/upstream/index.ts';
import { stateOf } from '../../src/server/services/blocks.ts';
import { inventorySession } from '../../src/server/services/inventory.ts';
import { itemByName } from '../../src/game/data.ts';
import { TEST_VERSION } from '../helpers/version.ts';
import { connectBot, give, place, serverPlayer, serverTicks, startTestServer, teleport, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';

const require = createRequire(import.meta.url);

describe('minecraft-data', () => {
  test('the factory is memoised: the same data for every name and protocol number, without a new Version each call', () => {
    const before = require('minecraft-data') as (v: string | number) => { version: { minecraftVersion: string } } | null;
    applyUpstreamFixes();
    const factory = require('minecraft-data') as typeof before & { Version?: unknown; versionsByMinecraftVersion?: unknown };
    expect(applyUpstreamFixes()['minecraft-data']).toBe('applied before');
    for (const version of ['1.21.4', '1.21.1', '1.20.4', 769, 'nonsense']) {
      expect(factory(version)).toBe(before(version));
      expect(factory(version)).toBe(factory(version));
    }
    expect(factory('1.21.4')!.version.minecraftVersion).toBe('1.21.4');
    // Its own members are still there for those who read them.
    expect(factory.Version).toBeTypeOf('function');
    expect(factory.versionsByMinecraftVersion).toBeTypeOf('object');
  });
});

describe('minecraft-data materials', () => {
  // Vanilla's times (ticks × 50 ms: ceil(30 × hardness / speed) with the right tier, 100 × … without),
  // minecraft wiki "Breaking": iron ore (hardness 3) by hand 15 s, wooden pickaxe 7.5 s (no drop),
  // stone 1.15 s, iron 0.75 s, diamond 0.6 s.
  const IRON_ORE_MS: Record<string, number> = {
    hand: 15_000,
    wooden_pickaxe: 7_500,
    stone_pickaxe: 1_150,
    iron_pickaxe: 750,
    diamond_pickaxe: 600,
  };

  test.each(['1.21.1', '1.21.4', '1.21.11'])(
    "%s: the tier-gated blocks take their pickaxe's speed (iron ore in vanilla's times); what harvests them is unchanged",
    (version) => {
      const dataPaths = require('minecraft-data/minecraft-data/data/dataPaths.json') as { pc: Record<string, { blocks: string }> };
      const raw = JSON.parse(
        readFileSync(require.resolve(`minecraft-data/minecraft-data/data/${dataPaths.pc[version]!.blocks}/blocks.json`), 'utf8'),
      ) as { name: string; material: string; harvestTools?: Record<string, boolean> }[];
      // The library's own data: gated by a drop tag, whose speeds list only wooden tools.
      const gated = raw.filter((b) => b.material === 'incorrect_for_wooden_tool' && b.harvestTools);
      expect(gated.map((b) => b.name)).toEqual(expect.arrayContaining(['iron_ore', 'deepslate_redstone_ore', 'gold_ore', 'obsidian']));
      applyUpstreamFixes();
      expect(applyUpstreamFixes()['minecraft-data materials']).toBe('applied before');
      const data = (
        require('minecraft-data') as (v: string) => { blocksByName: Record<string, { material: string; harvestTools?: object }> }
      )(version);
      for (const block of gated) {
        expect(data.blocksByName[block.name]!.material).toBe('mineable/pickaxe');
        expect(data.blocksByName[block.name]!.harvestTools).toEqual(block.harvestTools);
      }
      // Blocks with no harvest tools, or another material, keep theirs.
      for (const block of raw.filter((b) => !gated.includes(b))) expect(data.blocksByName[block.name]!.material).toBe(block.material);
      const registry = (
        require('prismarine-registry') as (v: string) => {
          blocksByName: Record<string, { defaultState: number }>;
          itemsByName: Record<string, { id: number }>;
        }
      )(version);
      const Block = (require('prismarine-block') as (r: unknown) => { fromStateId(id: number, biome: number): Block })(registry);
      const ore = Block.fromStateId(registry.blocksByName.iron_ore!.defaultState, 0);
      for (const [tool, ms] of Object.entries(IRON_ORE_MS)) {
        const held = tool === 'hand' ? null : registry.itemsByName[tool]!.id;
        expect(ore.digTime(held, false, false, false), `${tool} on iron ore`).toBe(ms);
      }
    },
  );
});

describe('prismarine-block', () => {
  test('fromStateId gives the block the constructor gives, for every state, each with members of its own', () => {
    type Block = { getProperties(): Record<string, unknown>; _properties: object; biome: object; computedStates: object };
    type BlockClass = new (type: undefined, biome: number, metadata: number, stateId: number) => Block;
    const registry = (require('prismarine-registry') as (v: string) => { blocksByStateId: Record<string, unknown> })('1.21.4');
    applyUpstreamFixes();
    expect(applyUpstreamFixes()['prismarine-block']).toBe('applied before');
    const Block = (require('prismarine-block') as (r: unknown) => BlockClass & { fromStateId(id: number, biome: number): Block })(registry);
    for (const stateId of Object.keys(registry.blocksByStateId).map(Number)) {
      for (const biome of [0, 7]) {
        const built = new Block(undefined, biome, 0, stateId);
        const first = Block.fromStateId(stateId, biome);
        const again = Block.fromStateId(stateId, biome);
        expect(Object.keys(again)).toEqual(Object.keys(built));
        expect(JSON.stringify(again)).toBe(JSON.stringify(built));
        expect(again).toBeInstanceOf(Block);
        expect(again._properties).not.toBe(first._properties);
        expect(again.computedStates).not.toBe(first.computedStates);
        expect(again.biome).not.toBe(first.biome);
        expect(again.getProperties()).toEqual(built.getProperties());
      }
    }
  });
});

describe('prismarine-chunk', () => {
  test.each(['1.21.1', '1.21.4', '1.21.11'])(
    'a %s column copied through JSON writes the same bytes, biomes included, and a client reads it',
    (version) => {
      applyUpstreamFixes();
      expect(applyUpstreamFixes()['prismarine-chunk']).toBe('applied before');
      const registry = (require('prismarine-registry') as (v: string) => { blocksByName: Record<string, { defaultState: number }> })(
        version,
      );
      type Column = {
        setBlockStateId(p: object, s: number): void;
        getBlockStateId(p: object): number;
        setBiome(p: object, b: number): void;
        toJson(): string;
        dump(): Buffer;
        load(b: Buffer): void;
      };
      const Chunk = (require('prismarine-chunk') as (r: unknown) => { new (o: object): Column; fromJson(j: string): Column })(registry);
      const column = new Chunk({ minY: -64, worldHeight: 384 });
      column.setBlockStateId({ x: 1, y: -64, z: 2 }, registry.blocksByName.bedrock!.defaultState);
      column.setBiome({ x: 0, y: 0, z: 0 }, 3);
      const copy = Chunk.fromJson(column.toJson());
      expect(copy.dump().equals(column.dump())).toBe(true);
      const read = new Chunk({ minY: -64, worldHeight: 384 });
      read.load(copy.dump());
      expect(read.getBlockStateId({ x: 1, y: -64, z: 2 })).toBe(registry.blocksByName.bedrock!.defaultState);
    },
  );
});

describe('prismarine-chunk section palettes', () => {
  test.each(['1.21.1', '1.21.11'])(
    'a %s section names every state it holds in its palette: all air, after a set, and none once it holds any state',
    (version) => {
      applyUpstreamFixes();
      expect(applyUpstreamFixes()['prismarine-chunk palettes']).toBe('applied before');
      const registry = (require('prismarine-registry') as (v: string) => { blocksByName: Record<string, { defaultState: number }> })(
        version,
      );
      type Column = { setBlockStateId(p: object, s: number): void; sections: Array<{ palette?: readonly number[] }> };
      const Chunk = (require('prismarine-chunk') as (r: unknown) => new (o: object) => Column)(registry);
      const column = new Chunk({ minY: -64, worldHeight: 384 });
      expect(column.sections[0]!.palette).toEqual([0]);
      const stone = registry.blocksByName.stone!.defaultState;
      column.setBlockStateId({ x: 3, y: -60, z: 5 }, stone);
      expect(column.sections[0]!.palette).toEqual([0, stone]);
      expect(column.sections[1]!.palette).toEqual([0]);
      // Past 256 states a section's container is direct (the global palette): no list to trust.
      for (let i = 0; i < 300; i++) column.setBlockStateId({ x: i & 15, y: -48 + (i >> 8), z: (i >> 4) & 15 }, stone + i);
      expect(column.sections[1]!.palette).toBeUndefined();
    },
  );
});

describe('minecraft-protocol framing', () => {
  /** A length-prefixed frame (VarInt length, then the payload), as minecraft-protocol's framer writes it. */
  function frame(payload: Buffer): Buffer {
    const header: number[] = [];
    let n = payload.length;
    do {
      header.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
      n >>>= 7;
    } while (n > 0);
    return Buffer.concat([Buffer.from(header), payload]);
  }

  test('packets cut anywhere come out whole, in order, byte for byte, without a thrown error', () => {
    applyUpstreamFixes();
    const { createSplitter } = require('minecraft-protocol/src/transforms/framing.js') as {
      createSplitter(): { on(e: 'data', l: (b: Buffer) => void): void; write(b: Buffer): void };
    };
    // Every packet has at least its id byte (an empty chunk is never passed on by a stream).
    const packets = Array.from({ length: 60 }, (_, i) => Buffer.alloc([1, 2, 127, 128, 300, 16_384, 70_000][i % 7]!, i));
    const stream = Buffer.concat(packets.map(frame));
    // Deterministic cuts: every size from 1 byte up, so every cut position inside a VarInt occurs.
    const splitter = createSplitter();
    const out: Buffer[] = [];
    splitter.on('data', (b) => out.push(Buffer.from(b)));
    const capture = Error.captureStackTrace;
    let captured = 0;
    Error.captureStackTrace = (target, ctor) => {
      captured++;
      capture(target, ctor);
    };
    try {
      for (let at = 0, size = 1; at < stream.length; at += size, size = (size % 97) + 1) splitter.write(stream.subarray(at, at + size));
    } finally {
      Error.captureStackTrace = capture;
    }
    expect(out.length).toBe(packets.length);
    out.forEach((packet, i) => expect(packet.equals(packets[i]!)).toBe(true));
    expect(captured).toBe(0);
  });

  test('packets and the bytes kept for the next chunk do not share the memory of the chunk they came in', () => {
    applyUpstreamFixes();
    const { createSplitter } = require('minecraft-protocol/src/transforms/framing.js') as {
      createSplitter(): { on(e: 'data', l: (b: Buffer) => void): void; write(b: Buffer): void };
    };
    const splitter = createSplitter();
    const out: Buffer[] = [];
    splitter.on('data', (b) => out.push(b));
    // A whole packet [1, 2, 3], then the first byte of the next one's length (300 needs two bytes).
    const chunk = Buffer.from([0x03, 1, 2, 3, 0xac]);
    splitter.write(chunk);
    chunk.fill(0xff); // the sender reuses its buffer
    splitter.write(Buffer.concat([Buffer.from([0x02]), Buffer.alloc(300, 7)]));
    expect(out.map((b) => [...b.subarray(0, 3)])).toEqual([
      [1, 2, 3],
      [7, 7, 7],
    ]);
    expect(out[1]!.length).toBe(300);
  });
});

/**
 * A server that refuses every login with vanilla's `server_full` and closes at once (the
 * disconnect packet and the close in one write), as the embedded server's refusal does.
 */
async function refusingServer(version: string): Promise<{ port: number; close(): void }> {
  const mc = require('minecraft-protocol') as {
    createSerializer(o: { state: string; isServer: boolean; version: string }): { createPacketBuffer(p: object): Buffer };
  };
  const body = mc
    .createSerializer({ state: 'login', isServer: true, version })
    .createPacketBuffer({ name: 'disconnect', params: { reason: JSON.stringify({ translate: 'multiplayer.disconnect.server_full' }) } });
  const { createFramer } = require('minecraft-protocol/src/transforms/framing.js') as {
    createFramer(): { on(e: 'data', l: (b: Buffer) => void): void; write(b: Buffer): void };
  };
  const framer = createFramer();
  let framed: Buffer | undefined;
  framer.on('data', (b) => (framed = b));
  framer.write(body);
  await waitUntil(() => framed !== undefined, 'the disconnect packet framed');
  const packet = framed!;
  const server = net.createServer((socket) => socket.once('data', () => socket.end(packet)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

describe('minecraft-protocol: the end of a connection', () => {
  /**
   * Joins a mineflayer bot whose packets fall behind its socket (its deserializer paused until the
   * socket has ended, as a busy stream or a zlib job leaves them) and records what it hears.
   */
  async function joinBehind(port: number, version: string, fix: boolean): Promise<string[]> {
    const bot = mineflayer.createBot({ host: '127.0.0.1', port, username: 'Late', version, auth: 'offline', hideErrors: true });
    if (fix) packetsBeforeEnd(bot);
    const heard: string[] = [];
    bot.on('error', () => {});
    bot.on('kicked', (reason) => void heard.push(`kicked ${String(reason)}`));
    const client = bot._client as unknown as {
      socket?: net.Socket;
      deserializer: { pause(): void; resume(): void };
      on(e: string, l: () => void): void;
    };
    client.on('connect', () => {
      client.deserializer.pause();
      client.socket!.once('end', () => setImmediate(() => client.deserializer.resume()));
    });
    await new Promise<void>((resolve) => bot.once('end', (reason) => resolve(void heard.push(`end ${reason}`))));
    return heard;
  }

  test('a refusal read just before the socket closes comes before the end, also when the packets fall behind', async () => {
    applyUpstreamFixes();
    const version = TEST_VERSION;
    const server = await refusingServer(version);
    try {
      const refusal = `kicked ${JSON.stringify({ translate: 'multiplayer.disconnect.server_full' })}`;
      // The library alone: the end first, the refusal after it (mineflayer's `kicked` too late to be read).
      const without = await joinBehind(server.port, version, false);
      expect(without[0]).toBe('end socketClosed');
      // With the fix: the refusal, then the end.
      expect(await joinBehind(server.port, version, true)).toEqual([refusal, 'end socketClosed']);
    } finally {
      server.close();
    }
  });
});

describe('mineflayer: packets before its plugins', () => {
  /**
   * Joins a mineflayer bot whose plugins load late (its `inject_allowed` held 50 ms, as a busy
   * event loop holds the `setTimeout` it comes from) and records what it hears.
   */
  async function joinBeforePlugins(port: number, version: string, fix: boolean): Promise<string[]> {
    const bot = mineflayer.createBot({ host: '127.0.0.1', port, username: 'Early', version, auth: 'offline', hideErrors: true });
    const emit = bot.emit.bind(bot) as (event: string, ...args: unknown[]) => boolean;
    bot.emit = (event: string, ...args: unknown[]) =>
      event === 'inject_allowed' ? (setTimeout(() => emit(event, ...args), 50), true) : emit(event, ...args);
    packetsBeforeEnd(bot);
    if (fix) packetsAfterPlugins(bot);
    const heard: string[] = [];
    bot.on('error', () => {});
    bot.on('kicked', (reason) => void heard.push(`kicked ${String(reason)}`));
    await new Promise<void>((resolve) => bot.once('end', (reason) => resolve(void heard.push(`end ${reason}`))));
    return heard;
  }

  test('a refusal read before mineflayer has loaded its plugins is still its kick', async () => {
    const server = await refusingServer(TEST_VERSION);
    try {
      // The library alone: the refusal is read before the kick plugin listens; only the end is heard.
      expect(await joinBeforePlugins(server.port, TEST_VERSION, false)).toEqual(['end socketClosed']);
      expect(await joinBeforePlugins(server.port, TEST_VERSION, true)).toEqual([
        `kicked ${JSON.stringify({ translate: 'multiplayer.disconnect.server_full' })}`,
        'end socketClosed',
      ]);
    } finally {
      server.close();
    }
  });
});

/**
 * An embedded server started before the describe block's tests and closed after them, with the
 * bots they record in `bots` quit first. `server()` reads it once started.
 */
function serverForFile(): { server: () => EmbeddedServer; bots: Bot[] } {
  let server: EmbeddedServer | undefined;
  const bots: Bot[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const bot of bots) bot.quit();
    await server?.close();
  });
  return { server: () => server!, bots };
}

describe('mineflayer player lookup', () => {
  const { bots, server: embedded } = serverForFile();

  test('bots find every player by UUID as the scan does, and a player who left is gone from both', async () => {
    const server = embedded();
    const { connectBot: joinAsBot } = await import('../../src/agent/bot.ts');
    const address = { host: server.host, port: server.port, version: server.version, auth: 'offline' as const };
    bots.push(await joinAsBot('Lookup1', address), await joinAsBot('Lookup2', address));
    const leaver = await connectBot(server, 'Leaver');
    const [bot] = bots as [Bot & { _playerFromUUID(uuid: string): unknown }];
    await waitUntil(() => Object.keys(bot.players).length === 3, 'Lookup1 sees three players');
    for (const player of Object.values(bot.players)) {
      expect(bot._playerFromUUID(player.uuid)).toBe(Object.values(bot.players).find((p) => p.uuid === player.uuid));
    }
    const uuid = bot.players.Leaver!.uuid;
    leaver.quit();
    await waitUntil(() => !bot.players.Leaver, 'Lookup1 sees Leaver leave');
    expect(bot._playerFromUUID(uuid)).toBeUndefined();
  });
});

describe('mineflayer furnace properties', () => {
  const { bots, server: embedded } = serverForFile();

  /** A bot with the version fixes and, when `fix`, {@link furnaceProperties}; resolves once it has spawned. */
  async function join(username: string, fix: boolean): Promise<Bot> {
    const server = embedded();
    const bot = mineflayer.createBot({ host: server.host, port: server.port, username, version: server.version, auth: 'offline' });
    bots.push(bot);
    bot.loadPlugin(versionFixes);
    if (fix) bot.loadPlugin(furnaceProperties);
    await new Promise<void>((resolve, reject) => {
      bot.once('spawn', () => resolve());
      bot.once('end', (reason) => reject(new Error(`${username} left before spawning: ${reason}`)));
    });
    await bot.waitForChunksToLoad();
    return bot;
  }

  /**
   * Opens the furnace with the bot's packets held until the server has opened the window and sent
   * its properties (two ticks later), so that the bot reads them in one go, as a busy bot does.
   */
  async function openBehind(bot: Bot, block: Block): Promise<Furnace> {
    const server = embedded();
    const deserializer = (bot._client as unknown as { deserializer: { pause(): void; resume(): void } }).deserializer;
    deserializer.pause();
    const opening = bot.openFurnace(block);
    await waitUntil(
      () => inventorySession(serverPlayer(server, bot.username))?.container?.kind === 'furnace',
      'the server opens the window',
    );
    await serverTicks(server, 2);
    deserializer.resume();
    return opening;
  }

  test('properties read with the window reach openFurnace: its total cooking time is known and its progress grows', async () => {
    const server = embedded();
    const cook = await join('FurnaceCook', true);
    const spawn = cook.entity.position.floored();
    await teleport(cook, spawn.x + 0.5, spawn.y, spawn.z + 0.5);
    const block = await place(server, cook, 'furnace', spawn.offset(2, -1, 0));
    await give(server, cook, 'coal', 1);
    await give(server, cook, 'iron_ore', 3);
    const loading = await cook.openFurnace(block);
    await loading.putFuel(itemByName(cook.registry, 'coal').id, null, 1);
    await loading.putInput(itemByName(cook.registry, 'iron_ore').id, null, 3);
    await waitUntil(() => (loading.progress ?? 0) > 0, 'the furnace cooks');
    await loading.close();

    const plain = await join('FurnacePlain', false);
    await teleport(plain, spawn.x + 0.5, spawn.y, spawn.z + 0.5);
    const missed = await openBehind(plain, block);
    // The library alone: the totals came before it listened, and cooking's is never sent again.
    await serverTicks(server, 5);
    expect([(missed as unknown as { totalProgress: number | null }).totalProgress, missed.progress]).toEqual([null, 0]);
    await missed.close();

    const furnace = await openBehind(cook, block);
    expect(furnace).toMatchObject({ totalProgress: 200, totalFuel: 1600 });
    const before = furnace.progress ?? 0;
    await waitUntil(() => (furnace.progress ?? 0) > before, 'the progress grows');
    await furnace.close();
  });
});

describe('mineflayer findBlocks and digs in the air', () => {
  const { bots, server: embedded } = serverForFile();

  /** A bot with the version fixes and `plugins`; resolves once it has spawned and has its chunks. */
  async function join(username: string, plugins: ((bot: Bot) => void)[]): Promise<Bot> {
    const server = embedded();
    const bot = mineflayer.createBot({ host: server.host, port: server.port, username, version: server.version, auth: 'offline' });
    bots.push(bot);
    bot.loadPlugin(versionFixes);
    for (const plugin of plugins) bot.loadPlugin(plugin);
    await new Promise<void>((resolve, reject) => {
      bot.once('spawn', () => resolve());
      bot.once('end', (reason) => reject(new Error(`${username} left before spawning: ${reason}`)));
    });
    await bot.waitForChunksToLoad();
    await waitUntil(() => bot.entity.onGround, `${username} lands`);
    return bot;
  }

  test('findBlocks finds a block within its distance off every axis, which the octahedron of sections misses', async () => {
    const server = embedded();
    /** What `bot` finds of an emerald block 35 blocks off on each axis (60.6 blocks away, six sections off) and one 3 blocks off. */
    const finds = async (bot: Bot): Promise<{ near: string; far: string; at64: string[]; at60: string[]; byTest: string[] }> => {
      const feet = bot.entity.position.floored();
      const far = feet.offset(35, 35, 35);
      const near = feet.offset(3, 2, 0);
      for (const at of [far, near]) await server.serv.setBlock(server.serv.overworld, at, stateOf(server.serv, 'emerald_block'));
      await waitUntil(
        () => bot.blockAt(far)?.name === 'emerald_block' && bot.blockAt(near)?.name === 'emerald_block',
        `${bot.username} sees both`,
      );
      const id = bot.registry.blocksByName.emerald_block!.id;
      const found = (maxDistance: number) => bot.findBlocks({ matching: id, maxDistance, count: 5 }).map(String);
      const result = {
        near: String(near),
        far: String(far),
        at64: found(64),
        at60: found(60),
        // A test function is asked about the palette's states, then each block, as mineflayer asks it.
        byTest: bot.findBlocks({ matching: (b) => b.name === 'emerald_block', maxDistance: 64, count: 5 }).map(String),
      };
      for (const at of [far, near]) await server.serv.setBlock(server.serv.overworld, at, stateOf(server.serv, 'air'));
      await waitUntil(() => bot.blockAt(far)?.name === 'air' && bot.blockAt(near)?.name === 'air', `${bot.username} sees both gone`);
      return result;
    };
    const plain = await finds(await join('FindPlain', []));
    expect(plain.at64).toEqual([plain.near]); // the library alone
    const fixed = await finds(await join('FindFixed', [findBlocksInRange]));
    expect(fixed.at64).toEqual([fixed.near, fixed.far]); // nearest first
    expect(fixed.at60).toEqual([fixed.near]);
    expect(fixed.byTest).toEqual(fixed.at64);
  });

  test("a dig started in the air waits to land and takes the time on the ground, not vanilla's fivefold time in the air", async () => {
    const server = embedded();
    const plain = await join('AirPlain', []);
    const fixed = await join('AirFixed', [digOnTheGround]);
    /** The time mineflayer's dig waits (it reads `digTime` once, as it starts), for a dig begun at a jump's top. */
    const digInTheAir = async (bot: Bot): Promise<number> => {
      const feet = bot.entity.position.floored();
      const dirt = feet.offset(2, 0, 0);
      await server.serv.setBlock(server.serv.overworld, dirt, stateOf(server.serv, 'dirt'));
      await waitUntil(() => bot.blockAt(dirt)?.name === 'dirt', `${bot.username} sees the dirt`);
      const onGround = bot.digTime(bot.blockAt(dirt)!);
      let waited = 0;
      const digTime = bot.digTime.bind(bot);
      bot.digTime = (block) => (waited = digTime(block));
      bot.setControlState('jump', true);
      await waitUntil(() => !bot.entity.onGround && bot.entity.velocity.y <= 0.1, `${bot.username} is in the air`);
      bot.setControlState('jump', false);
      await bot.dig(bot.blockAt(dirt)!, true);
      bot.digTime = digTime;
      await waitUntil(() => bot.blockAt(dirt)?.name === 'air', `${bot.username} dug the dirt`);
      expect(onGround).toBe(750); // dirt by hand: 0.5 × 1.5 s
      return waited;
    };
    expect(await digInTheAir(plain)).toBe(5 * 750); // the library alone: the whole dig at the air's speed
    expect(await digInTheAir(fixed)).toBe(750);
  });
});

describe('flying-squid', () => {
  test("the constructor's wait for its plugins and socket has no deadline; other waits keep theirs", async () => {
    const { EventEmitter } = await import('node:events');
    const { patientReadiness } = await import('../../src/server/readiness.ts');
    await import('../../src/server/embedded.ts'); // applies it before flying-squid loads
    expect(patientReadiness()).toBe('applied before');
    const { onceWithTimeout } = require('flying-squid/src/lib/utils') as {
      onceWithTimeout: (e: NodeJS.EventEmitter, event: string, timeout?: number) => Promise<unknown[]>;
    };
    const server = new EventEmitter();
    let settled: string | undefined;
    const listening = onceWithTimeout(server, 'listening', 20).then(
      (data) => (settled = `listening ${JSON.stringify(data)}`),
      (err: Error) => (settled = err.message),
    );
    await expect(onceWithTimeout(server, 'close', 20)).rejects.toThrow("Timeout waiting for 'close' event");
    expect(settled).toBeUndefined(); // past its 20 ms, still waiting
    server.emit('listening', 25565);
    await listening;
    expect(settled).toBe('listening [25565]');
    expect(server.listenerCount('listening')).toBe(0);
  });
});

describe('mineflayer-tool', () => {
  test('with no tool chests, equipForBlock for a block no held item harvests fails with NoItem (it retried without end); with a harvesting tool it equips it', async () => {
    const { toolWithoutChests } = await import('../../src/upstream/index.ts');
    expect(['applied', 'applied before']).toContain(await toolWithoutChests());
    expect(await toolWithoutChests()).toBe('applied before');
    const { Tool } = require('mineflayer-tool/lib/Tool') as {
      Tool: new (bot: unknown) => { equipForBlock(block: unknown, options: object): Promise<void> };
    };
    const equipped: unknown[] = [];
    const pickaxe = { type: 1, name: 'stone_pickaxe' };
    const bot = (items: unknown[]) => ({
      inventory: { items: () => items, emptySlotCount: () => 0, slots: [] },
      entity: { effects: {} },
      getEquipmentDestSlot: () => 36,
      equip: (item: unknown) => {
        equipped.push(item);
        return Promise.resolve();
      },
    });
    const ore = { canHarvest: (type: number | null) => type === 1, digTime: (type: number | undefined) => (type === 1 ? 30 : Infinity) };
    const options = { requireHarvest: true, getFromChest: true, maxTools: 2 };
    await expect(new Tool(bot([])).equipForBlock(ore, options)).rejects.toMatchObject({ name: 'NoItem' });
    await new Tool(bot([pickaxe])).equipForBlock(ore, options);
    expect(equipped).toEqual([pickaxe]);
  });
});
