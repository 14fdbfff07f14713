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
import type { Bot } from 'mineflayer';

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
