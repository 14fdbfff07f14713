/**
 * Text components and system messages in the shape each protocol version expects: NBT on 1.20.3+
 * (`chatPacketsUseNbtComponents`), JSON strings before. Clients render `translate` keys from their
 * own language file, so vanilla keys (e.g. `commands.message.display.incoming`) come out exactly as
 * on a vanilla server, and mineflayer's chat patterns match them.
 */
import type { SquidPlayer, SquidServer } from '../types.ts';

/** prismarine-nbt's in-memory tag shape (what node-minecraft-protocol serialises). */
type NbtTag = { type: string; value: unknown; name?: string };
const nbt = {
  string: (value: string): NbtTag => ({ type: 'string', value }),
  byte: (value: number): NbtTag => ({ type: 'byte', value }),
  compound: (value: Record<string, NbtTag>): NbtTag => ({ type: 'compound', name: '', value }),
  compoundList: (values: Array<Record<string, NbtTag>>): NbtTag => ({ type: 'list', value: { type: 'compound', value: values } }),
};

/** A (subset of a) Minecraft text component. */
export interface TextComponent {
  text?: string;
  /** Vanilla translation key, e.g. `commands.teleport.success.location.single`. */
  translate?: string;
  /** Arguments substituted for the `%s` of {@link translate}. */
  with?: Array<TextComponent | string | number>;
  /** Named colour, e.g. `red`, `gray`. */
  color?: string;
  italic?: boolean;
}

/** A translatable component: `key` from the vanilla language file, with `args` for its `%s`. */
export function translatable(key: string, args: Array<TextComponent | string | number> = [], style: Pick<TextComponent, 'color' | 'italic'> = {}): TextComponent {
  return { translate: key, with: args, ...style };
}

function normalise(part: TextComponent | string | number): TextComponent {
  return typeof part === 'object' ? part : { text: String(part) };
}

function toNbtFields(component: TextComponent): Record<string, NbtTag> {
  const fields: Record<string, NbtTag> = {};
  if (component.translate !== undefined) fields.translate = nbt.string(component.translate);
  else fields.text = nbt.string(component.text ?? '');
  if (component.with?.length) {
    fields.with = nbt.compoundList(component.with.map((part) => toNbtFields(normalise(part))));
  }
  if (component.color !== undefined) fields.color = nbt.string(component.color);
  if (component.italic !== undefined) fields.italic = nbt.byte(component.italic ? 1 : 0);
  return fields;
}

function toJson(component: TextComponent): object {
  const { with: args, ...rest } = component;
  return args?.length ? { ...rest, with: args.map((part) => toJson(normalise(part))) } : rest;
}

/** The component encoded for this server's protocol version (NBT tag or JSON string). */
export function encodeComponent(serv: SquidServer, component: TextComponent): unknown {
  if (serv.supportFeature('chatPacketsUseNbtComponents')) return nbt.compound(toNbtFields(component));
  return JSON.stringify(toJson(component));
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

/**
 * Sends command feedback: to the player who ran the command, or to the server log for the console.
 * `component` is typically a {@link translatable} vanilla key.
 */
export function sendFeedback(serv: SquidServer, player: SquidPlayer | undefined, component: TextComponent): void {
  if (player) sendSystemMessage(serv, player, component);
  else serv.info(plainText(serv, component));
}

/** Sends a red error line (vanilla colours command failures red). */
export function sendError(serv: SquidServer, player: SquidPlayer | undefined, component: TextComponent): void {
  sendFeedback(serv, player, { ...component, color: 'red' });
}

/** Renders `component` as plain text with the server version's en_us language file (for logs). */
export function plainText(serv: SquidServer, component: TextComponent): string {
  if (component.translate === undefined) return component.text ?? '';
  const template = serv.registry.language?.[component.translate] ?? component.translate;
  const args = (component.with ?? []).map((part) => plainText(serv, normalise(part)));
  let next = 0;
  return template.replace(/%(?:(\d+)\$)?s/g, (_, index?: string) => args[index ? Number(index) - 1 : next++] ?? '');
}
