/**
 * Vanilla `/kick`, `/ban`, `/pardon` and `/banlist` (Minecraft wiki "Commands/kick",
 * "Commands/ban", "Commands/pardon", "Commands/banlist"), replacing flying-squid's, whose bans
 * do not hold in offline mode: it stores an offline ban under the player's *name* and checks the
 * login by *UUID*, so the banned player simply joins again.
 *
 * - `/ban <targets> [reason]`: each player (a name, or a selector of players online) goes on the
 *   ban list with the reason (vanilla's default "Banned by an operator.", `BanListEntry`) and the
 *   source (the caller's name, or "Server"); feedback `commands.ban.success`; a player online is
 *   disconnected with `multiplayer.disconnect.banned` (`BanPlayerCommands`). Nothing new to ban:
 *   `commands.ban.failed`.
 * - A login of a banned name is refused during login, before the player exists, with
 *   `multiplayer.disconnect.banned.reason` and the reason (`PlayerList.canPlayerLogin`, which
 *   checks bans before the player limit).
 * - `/pardon <targets>`: `commands.pardon.success`, else `commands.pardon.failed`.
 * - `/banlist [players]`: `commands.banlist.none`, or `commands.banlist.list` and one
 *   `commands.banlist.entry` (name, source, reason) per ban.
 * - `/kick <targets> [reason]`: disconnects with the reason, or vanilla's default
 *   `multiplayer.disconnect.kicked` ("Kicked by an operator", `KickCommand`); feedback
 *   `commands.kick.success` per player.
 *
 * Names are matched as in offline mode, where a player's UUID is made from its name: a ban holds
 * for that name at every login. Names match without regard to case (vanilla resolves a name the
 * server has seen through its case-insensitive profile cache). The list lives as long as the
 * server (vanilla keeps `banned-players.json`; the embedded server keeps none). IP bans stay
 * flying-squid's (`/ban-ip`, `/pardon-ip`).
 */
import type { CommandContext, ProtocolClient, SquidPlayer, SquidServer } from '../types.ts';
import { commandAction, CommandError, restAfter, usageError } from '../services/command-arguments.ts';
import { resolvePlayers } from '../services/selectors.ts';
import { encodeComponent, sendFeedback, translatable, type TextComponent } from '../services/text.ts';

/** Vanilla's reason of a ban given without one (`BanListEntry`). */
export const DEFAULT_BAN_REASON = 'Banned by an operator.';

/** One entry of a server's ban list. */
export interface BanEntry {
  /** The name as banned (the player's own spelling when it was online or is named in a selector). */
  name: string;
  /** Who banned it: a player's name, or "Server" for the console. */
  source: string;
  reason: string;
  /** When, in ms since the epoch. */
  created: number;
}

/** Each server's ban list, by lower-case name. */
const banLists = new WeakMap<SquidServer, Map<string, BanEntry>>();

/** The ban list of `serv` (empty before {@link installModeration}). */
export function bansOf(serv: SquidServer): ReadonlyMap<string, BanEntry> {
  return banLists.get(serv) ?? new Map();
}

/** A player name as vanilla accepts it in offline mode (`StringUtil.isValidPlayerName`: 1–16 of a–z, 0–9, _). */
const PLAYER_NAME = /^[A-Za-z0-9_]{1,16}$/;

/** Installs the commands and the login check (see the module comment). */
export function installModeration(serv: SquidServer): void {
  const bans = new Map<string, BanEntry>();
  banLists.set(serv, bans);
  refuseBannedLogins(serv, bans);
  const source = (ctx: CommandContext) => ctx.player?.username ?? 'Server';
  /** The names `token` stands for: a selector's players, an online player's own spelling, or the name as written. */
  const names = (token: string, ctx: CommandContext): string[] => {
    if (token.startsWith('@')) return resolvePlayers(serv, token, ctx).map((p) => p.username);
    if (!PLAYER_NAME.test(token)) throw new CommandError(translatable('argument.player.unknown'));
    return [online(serv, token)?.username ?? token];
  };

  serv.commands.add({
    base: 'ban',
    info: 'Bans a player by name',
    usage: '/ban <targets> [reason]',
    op: true,
    action: commandAction(serv, (args, ctx, raw) => {
      const [target] = args;
      if (target === undefined) throw usageError('/ban <targets> [reason]');
      const reason = restAfter(raw, args, 1) || DEFAULT_BAN_REASON;
      let banned = 0;
      for (const name of names(target, ctx)) {
        const key = name.toLowerCase();
        if (bans.has(key)) continue;
        bans.set(key, { name, source: source(ctx), reason, created: Date.now() });
        banned++;
        sendFeedback(serv, ctx, translatable('commands.ban.success', [name, reason]));
        const player = online(serv, name);
        if (player) disconnect(serv, player, translatable('multiplayer.disconnect.banned'));
      }
      if (!banned) throw new CommandError(translatable('commands.ban.failed'));
    }),
  });

  serv.commands.add({
    base: 'pardon',
    info: 'Lifts the ban of a player',
    usage: '/pardon <targets>',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [target] = args;
      if (target === undefined || args.length > 1) throw usageError('/pardon <targets>');
      let pardoned = 0;
      for (const name of target.startsWith('@') ? names(target, ctx) : [target]) {
        const entry = bans.get(name.toLowerCase());
        if (!entry) continue;
        bans.delete(name.toLowerCase());
        pardoned++;
        sendFeedback(serv, ctx, translatable('commands.pardon.success', [entry.name]));
      }
      if (!pardoned) throw new CommandError(translatable('commands.pardon.failed'));
    }),
  });

  serv.commands.add({
    base: 'banlist',
    info: 'Lists the banned players',
    usage: '/banlist [players]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      if (args.length > 1 || (args[0] !== undefined && args[0] !== 'players')) throw usageError('/banlist [players]');
      if (!bans.size) {
        sendFeedback(serv, ctx, translatable('commands.banlist.none'));
        return;
      }
      sendFeedback(serv, ctx, translatable('commands.banlist.list', [bans.size]));
      for (const entry of bans.values())
        sendFeedback(serv, ctx, translatable('commands.banlist.entry', [entry.name, entry.source, entry.reason]));
    }),
  });

  serv.commands.add({
    base: 'kick',
    info: 'Disconnects players',
    usage: '/kick <targets> [reason]',
    op: true,
    action: commandAction(serv, (args, ctx, raw) => {
      const [target] = args;
      if (target === undefined) throw usageError('/kick <targets> [reason]');
      const text = restAfter(raw, args, 1);
      const reason: TextComponent = text ? { text } : translatable('multiplayer.disconnect.kicked');
      for (const player of resolvePlayers(serv, target, ctx)) {
        disconnect(serv, player, reason);
        sendFeedback(serv, ctx, translatable('commands.kick.success', [player.username, reason]));
      }
    }),
  });
}

/** The online player named `name` (any case), if any. */
function online(serv: SquidServer, name: string): SquidPlayer | undefined {
  const lower = name.toLowerCase();
  return serv.players.find((p) => !p.disconnected && p.username.toLowerCase() === lower);
}

/** Disconnects a player in play with a text component as the reason (what its client shows). */
function disconnect(serv: SquidServer, player: SquidPlayer, reason: TextComponent): void {
  player._client.end(String(reason.text ?? reason.translate ?? ''), encodeComponent(serv, reason));
}

/**
 * Refuses the login (`login_start`) of a banned name with vanilla's login disconnect, before the
 * listeners installed earlier (minecraft-protocol's login, the player limit) see it.
 */
function refuseBannedLogins(serv: SquidServer, bans: ReadonlyMap<string, BanEntry>): void {
  serv._server.on('connection', (client: ProtocolClient) => {
    const login = client.rawListeners('login_start');
    client.removeAllListeners('login_start');
    client.once('login_start', (packet: unknown) => {
      const name = String((packet as { username?: unknown }).username ?? '');
      const ban = bans.get(name.toLowerCase());
      if (ban) {
        serv.info(`${name} was refused: banned by ${ban.source} (${ban.reason})`);
        client.end(`banned: ${ban.reason}`, JSON.stringify({ translate: 'multiplayer.disconnect.banned.reason', with: [ban.reason] }));
        return;
      }
      for (const listener of login) listener.call(client, packet);
    });
  });
}
