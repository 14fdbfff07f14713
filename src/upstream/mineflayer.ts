/**
 * mineflayer's player lookup by UUID through its own index, not a scan.
 *
 * `bot._playerFromUUID(uuid)` (lib/plugins/entities.js) is `Object.values(bot.players).find(…)`,
 * and it runs for every entry of every `player_info` and `player_remove` packet: with N players
 * online each latency list costs a bot N² steps (23.5 % of a 200-bot process when the lists came
 * every 5 s). mineflayer keeps `bot.uuidToUsername` beside `bot.players` (both set and deleted
 * together), so the lookup reads the name and then the player; when the two disagree (a player
 * renamed by `add_player`, which updates neither key) it falls back to the scan, so the answer is
 * always the scan's.
 *
 * Upstream: docs/upstream/mineflayer.md. The plugin checks first, on the bot it is loaded on,
 * whether `_playerFromUUID` still enumerates `bot.players` for a UUID the index has, and leaves a
 * bot whose lookup does not alone.
 */
import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Vec3 } from 'vec3';

const require = createRequire(import.meta.url);

interface PlayerRecord {
  uuid?: string;
  username?: string;
}

interface LookupBot {
  players: Record<string, PlayerRecord>;
  uuidToUsername: Record<string, string>;
  _playerFromUUID(uuid: string): PlayerRecord | undefined;
}

/** True when `bot._playerFromUUID` enumerates `bot.players` to find a player the index has. */
function scansPlayers(bot: LookupBot): boolean {
  const uuid = '00000000-0000-0000-0000-00000000beef';
  const name = '\0probe';
  const players = bot.players;
  const names = bot.uuidToUsername;
  let enumerated = false;
  bot.players = new Proxy(
    { [name]: { uuid, username: name } },
    {
      ownKeys: (target) => {
        enumerated = true;
        return Reflect.ownKeys(target);
      },
    },
  );
  bot.uuidToUsername = { [uuid]: name };
  try {
    bot._playerFromUUID(uuid);
  } finally {
    bot.players = players;
    bot.uuidToUsername = names;
  }
  return enumerated;
}

/**
 * A mineflayer plugin: replaces `bot._playerFromUUID` with an indexed lookup where it still scans.
 * Load it after mineflayer's own plugins (`bot.loadPlugin` after `createBot` is).
 */
export function playerLookup(bot: Bot): void {
  const lookupBot = bot as unknown as LookupBot;
  if (typeof lookupBot._playerFromUUID !== 'function' || !scansPlayers(lookupBot)) return;
  const scan = lookupBot._playerFromUUID;
  lookupBot._playerFromUUID = (uuid) => {
    const name = lookupBot.uuidToUsername[uuid];
    const player = name === undefined ? undefined : lookupBot.players[name];
    return player?.uuid === uuid ? player : scan(uuid);
  };
}

/** The window properties (`craft_progress_bar`) of the window open last: its id, then property → value. */
interface SeenProperties {
  windowId: number;
  values: Map<number, number>;
}

interface FurnaceFields {
  id: number;
  totalFuel: number | null;
  fuel: number | null;
  totalProgress: number | null;
  progress: number | null;
}

/**
 * The furnace properties mineflayer's `openFurnace` missed, given to it once it listens.
 *
 * `openFurnace` (lib/plugins/furnace.js) starts listening for `craft_progress_bar` only once its
 * `await bot.openBlock(…)` has resumed. A server sends the properties with the window (vanilla
 * sends all four in the tick that opens it) or a tick later (the embedded server); when the bot
 * reads them in the same chunk as `open_window` (a busy process, a slow link), they are dispatched
 * before that await resumes and are lost. The total cooking time (property 3) and the fuel's burn
 * time (1) change seldom, so the furnace's `totalProgress` and `totalFuel` stay `null`, and
 * `progress` (computed only once `totalProgress` is known) stays 0 while the furnace cooks.
 *
 * The plugin records every property of the window open last, from its `open_window` on, and when
 * `openFurnace` resolves it emits the recorded values again (fuel's and cooking's totals first) if
 * any of the four fields is still `null`; mineflayer's own listener derives the fields from them.
 * Where upstream no longer misses them, every field is set by then and nothing is emitted.
 * Upstream: docs/upstream/mineflayer.md. Memory: one window's four numbers at a time.
 */
export function furnaceProperties(bot: Bot): void {
  let seen: SeenProperties | undefined;
  bot._client.on('open_window', (packet: { windowId: number }) => {
    seen = { windowId: packet.windowId, values: new Map() };
  });
  bot._client.on('craft_progress_bar', (packet: { windowId: number; property: number; value: number }) => {
    if (seen?.windowId === packet.windowId) seen.values.set(packet.property, packet.value);
  });
  bot._client.on('close_window', () => (seen = undefined));
  const openFurnace = bot.openFurnace.bind(bot);
  bot.openFurnace = async (block) => {
    const furnace = await openFurnace(block);
    const fields = furnace as unknown as FurnaceFields;
    const missed = [fields.totalFuel, fields.fuel, fields.totalProgress, fields.progress].includes(null);
    if (missed && seen?.windowId === fields.id) {
      // Totals first: mineflayer derives `fuel` and `progress` from them.
      for (const property of [1, 3, 0, 2]) {
        const value = seen.values.get(property);
        if (value !== undefined) bot._client.emit('craft_progress_bar', { windowId: fields.id, property, value });
      }
    }
    return furnace;
  };
}

/** The longest {@link packetsAfterPlugins} holds a bot's packets for its plugins (ms). */
export const PACKETS_AFTER_PLUGINS_MS = 1_000;

/**
 * A bot's first packets read only once mineflayer's plugins listen.
 *
 * `createBot` (lib/loader.js) connects at once but loads its plugins, the `kick_disconnect` and
 * `disconnect` listeners among them, on `inject_allowed`, which it emits from a `setTimeout(…, 0)`.
 * A server that answers the login within that millisecond (a refusal: full, banned, whitelisted;
 * the embedded server in the same process) is read before anyone listens: mineflayer never
 * emits `kicked`, only `end`, and a refused bot reads as "disconnected (socketClosed)". Measured
 * against a server that refuses at once: a quarter of 100 joins read the refusal first.
 *
 * The plugin pauses the socket when it connects, if mineflayer's plugins are still to be loaded
 * (a listener for `inject_allowed` is waiting), and resumes it once they are, or after
 * {@link PACKETS_AFTER_PLUGINS_MS} at most. Only reading waits; the handshake and login go out at
 * once. Where upstream loads its plugins before the connection, nothing is held. Install it right
 * after `createBot`. Upstream: docs/upstream/mineflayer.md.
 */
export function packetsAfterPlugins(bot: Bot): void {
  let injected = false;
  bot.once('inject_allowed', () => {
    injected = true;
  });
  bot._client.once('connect', () => {
    // Ours is one of the listeners; mineflayer's plugin loader is another while it waits.
    const socket = (bot._client as unknown as { socket?: { pause(): void; resume(): void } }).socket;
    if (injected || bot.listenerCount('inject_allowed') < 2 || !socket) return;
    socket.pause();
    const resume = (): void => {
      clearTimeout(timer);
      bot.off('inject_allowed', resume);
      socket.resume();
    };
    const timer = setTimeout(resume, PACKETS_AFTER_PLUGINS_MS);
    // After the plugin loader's own listener, registered by createBot before this one.
    bot.once('inject_allowed', resume);
  });
}

/** The longest {@link digOnTheGround} waits for a falling bot to land before it digs (ms): a fall of about 20 blocks. */
export const DIG_LANDING_MS = 1_000;

/**
 * A dig started in the air waits until the bot lands.
 *
 * `bot.dig` (lib/plugins/digging.js) reads `bot.digTime(block)` once, when the dig starts, and
 * waits that long: a dig started while the bot is off the ground (a path that ends in a drop, a
 * block dug from under its feet) waits vanilla's fivefold off-ground time to the end, although the
 * bot lands a few ticks later. Vanilla's client adds each tick's progress with that tick's state
 * (`MultiPlayerGameMode.continueDestroyBlock`), so a landed player digs at the full speed. Measured
 * on the survival world: two of the five oak logs a bot collected took 15 s each instead of 3.
 *
 * The plugin makes a dig started off the ground (not in water or lava, where vanilla's own penalty
 * holds anyway) wait until the bot is on the ground, {@link DIG_LANDING_MS} at most, and then start.
 * Where upstream no longer fixes the wait at the start (its `dig` no longer waits one
 * `setTimeout(finishDigging, waitTime)`), it leaves `bot.dig` alone. Upstream: docs/upstream/mineflayer.md.
 */
export function digOnTheGround(bot: Bot): void {
  if (!/setTimeout\(\s*finishDigging\s*,\s*waitTime\s*\)/.test(String(bot.dig))) return;
  const dig = bot.dig.bind(bot) as (...args: unknown[]) => Promise<void>;
  const landed = (): boolean => {
    const entity = bot.entity as { onGround: boolean; isInWater?: boolean; isInLava?: boolean };
    return entity.onGround || !!entity.isInWater || !!entity.isInLava;
  };
  bot.dig = async (...args: unknown[]) => {
    if (!landed()) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          bot.off('physicsTick', check);
          resolve();
        };
        const check = (): void => {
          if (landed()) done();
        };
        const timer = setTimeout(done, DIG_LANDING_MS);
        bot.on('physicsTick', check);
      });
    }
    return dig(...args);
  };
}

/** A chunk section as prismarine-chunk keeps it: its palette of block state ids (absent: the global palette), or nothing when all air. */
type Section = { palette?: readonly number[] } | null | undefined;

/**
 * `bot.findBlocks` over every block within `maxDistance`.
 *
 * mineflayer's `findBlocks` (lib/plugins/blocks.js) walks the chunk sections in an octahedron
 * (sections within a Manhattan distance of `ceil((maxDistance + 8) / 16)` of the bot's section),
 * then keeps the blocks within `maxDistance` in a straight line. The octahedron does not hold the
 * sphere: at 64 blocks it reaches 5 sections, and a block 40 blocks across and 40 down (57 blocks
 * off) lies 6 sections away and is never looked at. A bot on the surface was told "No redstone_ore
 * within 64 blocks" with redstone ore 55 blocks off.
 *
 * The replacement walks the sections whose box comes within `maxDistance` of the point, nearest
 * first, with mineflayer's own tests (a section's palette first, then each block), and stops once
 * it holds `count` blocks nearer than any section left. It gives the nearest `count` matching
 * blocks within `maxDistance`, nearest first, as mineflayer documents. Where upstream no longer
 * walks an octahedron (`OctahedronIterator`), it leaves `findBlocks` alone.
 * Upstream: docs/upstream/mineflayer.md.
 */
export function findBlocksInRange(bot: Bot): void {
  if (!String(bot.findBlocks).includes('OctahedronIterator')) return;
  let blockClass: { fromStateId(stateId: number, biome: number): Block } | undefined;
  bot.findBlocks = (options) => {
    blockClass ??= (require('prismarine-block') as (registry: unknown) => typeof blockClass)(bot.registry)!;
    const Block = blockClass;
    const world = bot.world as unknown as {
      getColumn(x: number, z: number): { sections: Section[] } | undefined;
      getBlockStateId(p: Vec3): number;
    };
    const matching = options.matching;
    const matcher = typeof matching === 'function' ? matching : (b: Block | null) => b !== null && [matching].flat().includes(b.type);
    const extra = options.useExtraInfo ?? false;
    // A match by type alone is read from the state id; a test of the block (which may read its
    // position, light or extra info) is given the block, as mineflayer does.
    const matches =
      typeof matching !== 'function' && extra === false
        ? (p: Vec3) => inPalette(world.getBlockStateId(p))
        : typeof extra === 'function'
          ? (p: Vec3) => {
              const block = bot.blockAt(p, true);
              return block !== null && matcher(block) && extra(block);
            }
          : (p: Vec3) => {
              const block = bot.blockAt(p, extra);
              return block !== null && matcher(block);
            };
    const point = (options.point ?? bot.entity.position).floored();
    const range = options.maxDistance ?? 16;
    const count = options.count ?? 1;
    const minY = (bot.game as { minY?: number }).minY ?? 0;
    const gap = (low: number, value: number): number => Math.max(low - value, 0, value - (low + 15));
    const boxes: { x: number; y: number; z: number; d2: number; section: Section }[] = [];
    for (let chunkX = Math.floor((point.x - range) / 16); chunkX <= Math.floor((point.x + range) / 16); chunkX++) {
      for (let chunkZ = Math.floor((point.z - range) / 16); chunkZ <= Math.floor((point.z + range) / 16); chunkZ++) {
        const across = gap(chunkX * 16, point.x) ** 2 + gap(chunkZ * 16, point.z) ** 2;
        const column = across <= range * range ? world.getColumn(chunkX, chunkZ) : undefined;
        column?.sections.forEach((section, i) => {
          const d2 = across + gap(minY + i * 16, point.y) ** 2;
          if (section && d2 <= range * range) boxes.push({ x: chunkX * 16, y: minY + i * 16, z: chunkZ * 16, d2, section });
        });
      }
    }
    boxes.sort((a, b) => a.d2 - b.d2);
    // Whether a palette's state matches, asked once a state per call.
    const stateMatches = new Map<number, boolean>();
    const inPalette = (stateId: number): boolean => {
      let yes = stateMatches.get(stateId);
      if (yes === undefined) stateMatches.set(stateId, (yes = matcher(Block.fromStateId(stateId, 0))));
      return yes;
    };
    const found: { at: Vec3; d2: number }[] = [];
    const cursor = point.clone();
    for (const box of boxes) {
      if (found.length >= count && box.d2 > found[count - 1]!.d2) break;
      const palette = box.section?.palette;
      if (palette && !palette.some(inPalette)) continue;
      for (cursor.x = box.x; cursor.x < box.x + 16; cursor.x++) {
        for (cursor.y = box.y; cursor.y < box.y + 16; cursor.y++) {
          for (cursor.z = box.z; cursor.z < box.z + 16; cursor.z++) {
            const d2 = (cursor.x - point.x) ** 2 + (cursor.y - point.y) ** 2 + (cursor.z - point.z) ** 2;
            if (d2 <= range * range && matches(cursor)) found.push({ at: cursor.clone(), d2 });
          }
        }
      }
      if (found.length >= count) found.sort((a, b) => a.d2 - b.d2);
    }
    found.sort((a, b) => a.d2 - b.d2);
    return found.slice(0, count).map((f) => f.at);
  };
}
