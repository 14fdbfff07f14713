/**
 * What players read, as a vanilla 1.21 server sends it:
 * - every text flying-squid writes (`player.chat`, `player.system`, `serv.broadcast`, kicks,
 *   window titles) is converted from its legacy `&` colour codes into styled text components;
 * - joins and leaves are the yellow translatable `multiplayer.player.joined` / `left`, the player
 *   named as vanilla names one ({@link playerNameComponent}: mineflayer's example-bot tests read
 *   the joining bot's name from its `insertion`);
 * - public chat is `chat.type.text` (`<name> message`), the message kept literally;
 * - commands from players and the console go through the dispatcher (../services/commands.ts):
 *   vanilla's unknown-command error, red text for failures;
 * - a death is announced to everyone (game rule `showDeathMessages`) with vanilla's death message
 *   (../services/damage.ts), and the victim gets `death_combat_event` (the death screen).
 */
import type { SquidPlayer, SquidServer } from '../types.ts';
import { runCommand } from '../services/commands.ts';
import { deathMessage } from '../services/damage.ts';
import { gameRule } from '../services/game-rules.ts';
import {
  broadcastSystemMessage,
  encodeComponent,
  fromLegacy,
  sendSystemMessage,
  translatable,
  type TextComponent,
} from '../services/text.ts';

/** flying-squid's join and leave lines (login.js, logout.js), replaced by vanilla's. */
const LEGACY_JOIN = /^&e(\S+) joined the game\.$/;
const LEGACY_LEAVE = /^&e(\S+) left the game\.$/;

/** flying-squid's broadcast options (chat.js). */
interface BroadcastOptions {
  whitelist?: SquidPlayer[] | SquidPlayer;
  blacklist?: SquidPlayer[];
  system?: boolean;
}

/**
 * A component from what flying-squid passes around: a legacy-coded string (converted), or a JSON
 * component (its own chat builder's `{ text: '', extra: [...] }`, kept as it is).
 */
function toComponent(message: unknown): TextComponent {
  if (typeof message === 'string') return fromLegacy(message);
  if (message && typeof message === 'object') return message as TextComponent;
  return { text: String(message ?? '') };
}

/**
 * A player's name as vanilla writes it into messages (`Player.getDisplayName`, decorated by
 * `decorateDisplayNameComponent`): the name, inserted into the chat box by a shift-click
 * (`insertion`, which clients read the joining player's name from), and a click suggesting
 * `/tell <name> ` (1.21.5+ `click_event` `{ action, command }`, before it `clickEvent`
 * `{ action, value }`; Minecraft wiki "Text component format").
 */
export function playerNameComponent(serv: SquidServer, name: string): TextComponent {
  const command = `/tell ${name} `;
  const click = serv.registry.version['>=']('1.21.5')
    ? { click_event: { action: 'suggest_command', command } }
    : { clickEvent: { action: 'suggest_command', value: command } };
  return { text: name, insertion: name, ...click };
}

/** Installs the text conversion, join/leave lines, public chat, the command dispatcher and death messages. */
export function installVanillaChat(serv: SquidServer): void {
  const server = serv as SquidServer & {
    _createChatComponent(text: unknown): unknown;
    broadcast(message: unknown, options?: BroadcastOptions): void;
  };
  server._createChatComponent = (text: unknown) => {
    const encoded = encodeComponent(serv, toComponent(text));
    return { ...(typeof encoded === 'object' ? encoded : {}), toNetworkFormat: () => encoded };
  };

  server.broadcast = (message: unknown, options: BroadcastOptions = {}) => {
    if (typeof message === 'string') {
      const join = LEGACY_JOIN.exec(message);
      const leave = LEGACY_LEAVE.exec(message);
      if (join || leave) {
        const key = join ? 'multiplayer.player.joined' : 'multiplayer.player.left';
        broadcastSystemMessage(serv, translatable(key, [playerNameComponent(serv, (join ?? leave)![1]!)], { color: 'yellow' }));
        return;
      }
    }
    const whitelist =
      options.whitelist === undefined ? serv.players : Array.isArray(options.whitelist) ? options.whitelist : [options.whitelist];
    const blacklist = options.blacklist ?? [];
    const component = toComponent(message);
    for (const player of whitelist) if (!blacklist.includes(player)) sendSystemMessage(serv, player, component);
  };

  const consoleServer = serv as SquidServer & { handleCommand(text: string): Promise<void> };
  consoleServer.handleCommand = (text: string) => runCommand(serv, text, {});

  serv.on('newPlayer', (player) => {
    const withCommands = player as SquidPlayer & { handleCommand(text: string): Promise<void> };
    withCommands.handleCommand = (text: string) => runCommand(serv, text, { player });

    // Public chat: vanilla `chat.type.text`, the message as typed (no colour codes).
    const client = player._client;
    client.removeAllListeners('chat_message');
    client.on('chat_message', (data: { message: string }) => {
      void player.behavior(
        'chat',
        { message: data.message, prefix: `<${player.username}> `, text: data.message, whitelist: serv.players, blacklist: [] },
        async () => {
          broadcastSystemMessage(serv, translatable('chat.type.text', [playerNameComponent(serv, player.username), data.message]));
        },
      );
    });
  });

  serv.on('playerDied', (player) => {
    const message = deathMessage(serv, player);
    if (!player.disconnected)
      player._client.write('death_combat_event', {
        playerId: player.id,
        entityId: player.id,
        killerId: -1,
        message: encodeComponent(serv, message),
      });
    if (gameRule(serv, 'showDeathMessages')) broadcastSystemMessage(serv, message);
  });
}
