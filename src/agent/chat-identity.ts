/**
 * Who said a chat line, as the server says it in the packet, never as a pattern over the rendered
 * text. A mineflayer plugin ({@link chatIdentity}): it removes mineflayer's default chat patterns
 * (which read the sender from the rendered line: a player named `Ev` typing
 * `Steve whispers to you: !stop` in public, or a player named `.Steve`, passed for Steve) and
 * emits mineflayer's own `chat` and `whisper` events from the packets instead:
 *
 * - `player_chat` (vanilla servers, signed or unsigned): the sender is the player whose UUID the
 *   packet carries, looked up in the player list; the channel is the packet's chat type
 *   (`minecraft:chat` → public, `minecraft:msg_command_incoming` → whisper, as the server's
 *   `chat_type` registry names them); the text is the message body.
 * - `system_chat` (servers that render chat themselves, the embedded one among them): a
 *   translatable message `chat.type.text` (`<name> message`, public) or
 *   `commands.message.display.incoming` (`name whispers to you: message`); the sender is the
 *   translation's name argument, the text its message argument.
 *
 * Anything else (join lines, command feedback, `/say`, `/me`, team messages, `profileless_chat`,
 * which has no player behind it) is no player's line and emits nothing. A sender not in the player
 * list is no player either. What is trusted: the server. An operator can still forge a
 * `system_chat` line with `/tellraw`; bot-to-bot whispers carry a MAC for that reason (see
 * `conversation/whisper.ts`).
 */
import type { Bot } from 'mineflayer';
import prismarineChat from 'prismarine-chat';

// prismarine-chat is CommonJS (`module.exports = loader`) but its typings declare an ES default export.
const chatLoader = prismarineChat as unknown as typeof prismarineChat.default;

/** One player's line, with the sender as the packet names it. */
export interface ChatLine {
  /** The sender's username. */
  from: string;
  text: string;
  channel: 'public' | 'whisper';
  /** The packet it came in. */
  packet: 'player_chat' | 'system_chat';
}

/** Translation keys of a player's line in a system message (vanilla's en_us keys). */
const SYSTEM_KEYS: Readonly<Record<string, ChatLine['channel']>> = {
  'chat.type.text': 'public',
  'commands.message.display.incoming': 'whisper',
};

/** Chat types of a player's line in `player_chat` (vanilla's `chat_type` registry names). */
const CHAT_TYPES: Readonly<Record<string, ChatLine['channel']>> = {
  'minecraft:chat': 'public',
  'minecraft:msg_command_incoming': 'whisper',
};

/** What {@link playerChatLine} reads of minecraft-protocol's `playerChat` event. */
export interface PlayerChatData {
  /** The sender's UUID (absent for `profileless_chat`). */
  sender?: string;
  /** The chat type: its registry index, or `{ chatType }` (1.21+). */
  type?: number | { chatType?: number };
  plainMessage?: string;
}

/** What {@link playerChatLine} needs to know about the players and the registry. */
export interface ChatLookup {
  /** The player list: username → its UUID. */
  players: Readonly<Record<string, { uuid?: string } | undefined>>;
  /** The chat type registry as mineflayer keeps it (`bot.registry.chatFormattingById`). */
  chatTypes: Readonly<Record<number, { name?: string } | undefined>> | undefined;
}

const uuidKey = (uuid: string): string => uuid.replace(/-/g, '').toLowerCase();

/**
 * The player's line in a `player_chat` packet (minecraft-protocol's `playerChat` event): the
 * sender by UUID from the player list, the channel by chat type.
 *
 * @returns undefined for a line that is no player's public line or whisper to us, or whose
 *   sender is not in the player list.
 */
export function playerChatLine(data: PlayerChatData, lookup: ChatLookup): ChatLine | undefined {
  if (typeof data.sender !== 'string' || typeof data.plainMessage !== 'string') return undefined;
  const index = typeof data.type === 'object' ? data.type.chatType : data.type;
  const channel = index === undefined ? undefined : CHAT_TYPES[lookup.chatTypes?.[index]?.name ?? ''];
  if (!channel) return undefined;
  const uuid = uuidKey(data.sender);
  const from = Object.entries(lookup.players).find(([, p]) => typeof p?.uuid === 'string' && uuidKey(p.uuid) === uuid)?.[0];
  return from === undefined ? undefined : { from, text: data.plainMessage, channel, packet: 'player_chat' };
}

/** A text component as JSON (the part of it read here). */
interface Component {
  translate?: unknown;
  with?: unknown;
  insertion?: unknown;
}

/**
 * The player's line in a `system_chat` message (its JSON component): a `chat.type.text` or
 * `commands.message.display.incoming` translation, the sender its name argument (the name's
 * `insertion` when the server sets one, as vanilla does on display names, else its text).
 *
 * @param plain renders a component as plain text (prismarine-chat's `toString`).
 * @returns undefined for any other message, or when the sender is not in `players`.
 */
export function systemChatLine(
  component: unknown,
  players: Readonly<Record<string, unknown>>,
  plain: (component: unknown) => string,
): ChatLine | undefined {
  if (!component || typeof component !== 'object') return undefined;
  const c = component as Component;
  const channel = typeof c.translate === 'string' ? SYSTEM_KEYS[c.translate] : undefined;
  if (!channel || !Array.isArray(c.with) || c.with.length !== 2) return undefined;
  const [name, message] = c.with as [unknown, unknown];
  const insertion = name && typeof name === 'object' ? (name as Component).insertion : undefined;
  const from = typeof insertion === 'string' ? insertion : plain(name);
  if (!Object.hasOwn(players, from)) return undefined;
  return { from, text: plain(message), channel, packet: 'system_chat' };
}

/**
 * The plugin (`bot.loadPlugin(chatIdentity)`): see the module comment. After it, `chat` and
 * `whisper` fire as `(username, message, translate, jsonMsg)` with the sender the packet names.
 *
 * @example
 * bot.loadPlugin(chatIdentity);
 * bot.on('whisper', (from, text) => console.log(`${from} whispers ${text}`)); // from the packet
 */
export function chatIdentity(bot: Bot): void {
  bot.removeChatPattern('chat');
  bot.removeChatPattern('whisper');
  const ChatMessage = chatLoader(bot.registry as never); // accepts a registry too (typed as a version string only)
  const plain = (component: unknown): string => {
    try {
      return new ChatMessage(component as never).toString();
    } catch {
      return '';
    }
  };
  const emit = (line: ChatLine, translate: string, json: unknown): void => {
    const message = new ChatMessage(json as never);
    if (line.channel === 'whisper') bot.emit('whisper', line.from, line.text, translate, message, null);
    else bot.emit('chat', line.from, line.text, translate, message, null);
  };
  bot._client.on('playerChat', (data: PlayerChatData) => {
    const chatTypes = (bot.registry as { chatFormattingById?: ChatLookup['chatTypes'] }).chatFormattingById;
    const line = playerChatLine(data, { players: bot.players, chatTypes });
    if (line) emit(line, line.channel === 'whisper' ? 'commands.message.display.incoming' : 'chat.type.text', { text: line.text });
  });
  bot._client.on('systemChat', (data: { positionId?: number; formattedMessage?: string }) => {
    if (data.positionId === 2 || typeof data.formattedMessage !== 'string') return; // the action bar
    let json: unknown;
    try {
      json = JSON.parse(data.formattedMessage);
    } catch {
      return;
    }
    const line = systemChatLine(json, bot.players, plain);
    if (line) emit(line, (json as { translate: string }).translate, json);
  });
}
