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
