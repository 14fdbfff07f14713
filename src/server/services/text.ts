/**
 * Text components and system messages in the shape each protocol version expects: NBT on 1.20.3+
 * (`chatPacketsUseNbtComponents`), JSON strings before. Clients render `translate` keys from their
 * own language file, so vanilla keys (e.g. `commands.message.display.incoming`) come out exactly as
 * on a vanilla server, and mineflayer's chat patterns match them.
 */
import type { SquidPlayer, SquidServer } from '../types.ts';
import { gameRule } from './game-rules.ts';

/** prismarine-nbt's in-memory tag shape (what node-minecraft-protocol serialises). */
type NbtTag = { type: string; value: unknown; name?: string };

/**
 * A Minecraft text component (Minecraft wiki "Text component format"): the fields our code
 * writes are typed; any other vanilla field (`clickEvent`, `hoverEvent`, `insertion`, `font`,
 * `score`, `selector`, …) passes through to the client unchanged.
 */
export interface TextComponent {
  text?: string;
  /** Vanilla translation key, e.g. `commands.teleport.success.location.single`. */
  translate?: string;
  /** Arguments substituted for the `%s` of {@link translate}. */
  with?: Array<TextComponent | string | number>;
  /** Components appended after this one, inheriting its style. */
  extra?: Array<TextComponent | string | number>;
  /** Named colour (`red`, `gray`, …) or `#rrggbb`. */
  color?: string;
  bold?: boolean;
  italic?: boolean;
  underlined?: boolean;
  strikethrough?: boolean;
  obfuscated?: boolean;
  [field: string]: unknown;
}

/** A translatable component: `key` from the vanilla language file, with `args` for its `%s`. */
export function translatable(
  key: string,
  args: Array<TextComponent | string | number> = [],
  style: Pick<TextComponent, 'color' | 'italic' | 'bold' | 'underlined'> = {},
): TextComponent {
  return { translate: key, with: args, ...style };
}

function normalise(part: TextComponent | string | number): TextComponent {
  return typeof part === 'object' ? part : { text: String(part) };
}

/**
 * One JSON value of a component as an NBT tag (vanilla's NBT component codec): strings, bytes
 * for booleans, ints or doubles for numbers, compounds for objects; lists of components are
 * lists of compounds (plain strings and numbers inside them become `{text}` compounds).
 */
function toNbtValue(value: unknown, inComponentList = false): NbtTag | undefined {
  if (typeof value === 'string') return inComponentList ? toNbtValue({ text: value }) : { type: 'string', value };
  if (typeof value === 'number') {
    if (inComponentList) return toNbtValue({ text: String(value) });
    return Number.isInteger(value) ? { type: 'int', value } : { type: 'double', value };
  }
  if (typeof value === 'boolean') return { type: 'byte', value: value ? 1 : 0 };
  if (Array.isArray(value)) {
    const items = value.map((v) => toNbtValue(v, true)).filter((t): t is NbtTag => t !== undefined);
    return { type: 'list', value: { type: 'compound', value: items.map((t) => t.value) } };
  }
  if (value && typeof value === 'object') {
    const fields: Record<string, NbtTag> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
      const tag = toNbtValue(v, key === 'with' || key === 'extra');
      if (tag) fields[key] = tag;
    }
    if (
      !('text' in fields) &&
      !('translate' in fields) &&
      !('score' in fields) &&
      !('selector' in fields) &&
      !('keybind' in fields) &&
      !('nbt' in fields)
    ) {
      fields.text = { type: 'string', value: '' };
    }
    return { type: 'compound', value: fields };
  }
  return undefined;
}

function toJson(component: TextComponent): object {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(component)) {
    if (value === undefined) continue;
    if ((key === 'with' || key === 'extra') && Array.isArray(value)) {
      if (value.length) out[key] = value.map((part) => toJson(normalise(part as TextComponent)));
    } else out[key] = value;
  }
  return out;
}

/**
 * The component encoded for this server's protocol version (NBT tag or JSON string). Plain text
 * (a `text` and nothing else) is a string tag, as vanilla writes it (`ComponentSerialization`
 * `tryCollapseToString`: a literal without style or siblings collapses to a string); clients read
 * a plain title or message as the string itself.
 */
export function encodeComponent(serv: SquidServer, component: TextComponent | string): unknown {
  const value = normalise(component);
  if (serv.supportFeature('chatPacketsUseNbtComponents')) {
    const plain = Object.entries(value).every(
      ([key, v]) => v === undefined || (key === 'extra' && Array.isArray(v) && v.length === 0) || key === 'text',
    );
    if (plain && typeof value.text === 'string') return { type: 'string', value: value.text, name: '' };
    return { ...toNbtValue(value)!, name: '' };
  }
  return JSON.stringify(toJson(value));
}

/** Legacy formatting codes (`&c`, `§l`, …) and the component style each sets. */
const LEGACY_COLOURS: Record<string, string> = {
  0: 'black',
  1: 'dark_blue',
  2: 'dark_green',
  3: 'dark_aqua',
  4: 'dark_red',
  5: 'dark_purple',
  6: 'gold',
  7: 'gray',
  8: 'dark_gray',
  9: 'blue',
  a: 'green',
  b: 'aqua',
  c: 'red',
  d: 'light_purple',
  e: 'yellow',
  f: 'white',
};
const LEGACY_FORMATS: Record<string, keyof TextComponent> = {
  k: 'obfuscated',
  l: 'bold',
  m: 'strikethrough',
  n: 'underlined',
  o: 'italic',
};

/**
 * Converts text with legacy formatting codes (`&e` or `§e` + text, as flying-squid writes its
 * messages) into a styled component without codes: each run of text becomes one `extra` part
 * with its colour and formats. Text without codes gives `{text}` unchanged; `&&` is a literal `&`.
 *
 * @example fromLegacy('&eAlice joined') // { text: '', extra: [{ text: 'Alice joined', color: 'yellow' }] }
 */
export function fromLegacy(text: string): TextComponent {
  if (!/[&§][0-9a-fk-or&]/i.test(text)) return { text };
  const parts: TextComponent[] = [];
  let style: Partial<TextComponent> = {};
  let run = '';
  const flush = (): void => {
    if (run) parts.push({ text: run, ...style });
    run = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = text[i + 1]?.toLowerCase();
    if ((ch === '&' || ch === '§') && code !== undefined) {
      if (code === '&' && ch === '&') {
        run += '&';
        i++;
        continue;
      }
      if (LEGACY_COLOURS[code]) {
        flush();
        style = { color: LEGACY_COLOURS[code] };
        i++;
        continue;
      }
      if (LEGACY_FORMATS[code]) {
        flush();
        style = { ...style, [LEGACY_FORMATS[code]]: true };
        i++;
        continue;
      }
      if (code === 'r') {
        flush();
        style = {};
        i++;
        continue;
      }
    }
    run += ch;
  }
  flush();
  return { text: '', extra: parts };
}

/** Sends `component` to one player as a system (non-chat) message; no-op once they disconnected. */
export function sendSystemMessage(serv: SquidServer, player: SquidPlayer, component: TextComponent): void {
  if (player.disconnected) return;
  const content = encodeComponent(serv, component);
  if (serv.supportFeature('signedChat')) {
    // 1.19.0 has `type`, 1.19.1+ `isActionBar`; the serializer ignores the one it does not know.
    player._client.write('system_chat', { content, type: 1, isActionBar: false });
  } else {
    player._client.write('chat', { message: content, position: 1, sender: '00000000-0000-0000-0000-000000000000' });
  }
}

/** Sends `component` to every player as a system message (vanilla `PlayerList.broadcastSystemMessage`). */
export function broadcastSystemMessage(serv: SquidServer, component: TextComponent): void {
  for (const player of serv.players) sendSystemMessage(serv, player, component);
}

/** Sends `component` to one player above the hotbar (the action bar). */
export function sendActionBar(serv: SquidServer, player: SquidPlayer, component: TextComponent): void {
  if (player.disconnected) return;
  player._client.write('action_bar', { text: encodeComponent(serv, component) });
}

/**
 * Who reads a command's feedback: `output` when set (`/execute as` keeps the original caller's
 * output, as vanilla's `CommandSourceStack` does), else `player`; nobody set = the console.
 */
export interface FeedbackTarget {
  player?: SquidPlayer;
  output?: SquidPlayer | null;
}

function outputOf(target: FeedbackTarget): SquidPlayer | undefined {
  return target.output === undefined ? target.player : (target.output ?? undefined);
}

/**
 * Sends command success feedback (vanilla `CommandSourceStack.sendSuccess`): to the command's
 * output ({@link FeedbackTarget}: the player who ran the command), or to the server log for the
 * console. Players get nothing while the game rule `sendCommandFeedback` is false. `component` is
 * typically a {@link translatable} vanilla key.
 */
export function sendFeedback(serv: SquidServer, target: FeedbackTarget, component: TextComponent): void {
  const player = outputOf(target);
  if (player) {
    if (gameRule(serv, 'sendCommandFeedback')) sendSystemMessage(serv, player, component);
  } else serv.info(plainText(serv, component));
}

/** Sends a red error line to the command's output (vanilla `sendFailure`: always sent, coloured red). */
export function sendError(serv: SquidServer, target: FeedbackTarget, component: TextComponent): void {
  const red = { ...component, color: 'red' };
  const player = outputOf(target);
  if (player) sendSystemMessage(serv, player, red);
  else serv.info(plainText(serv, red));
}

/** Renders `component` as plain text with the server version's en_us language file (for logs). */
export function plainText(serv: SquidServer, component: TextComponent | string): string {
  const c = normalise(component);
  const extra = (c.extra ?? []).map((part) => plainText(serv, normalise(part))).join('');
  if (c.translate === undefined) return (c.text ?? '') + extra;
  const template = serv.registry.language?.[c.translate] ?? c.translate;
  const args = (c.with ?? []).map((part) => plainText(serv, normalise(part)));
  let next = 0;
  return template.replace(/%(?:(\d+)\$)?s/g, (_, index?: string) => args[index ? Number(index) - 1 : next++] ?? '') + extra;
}
