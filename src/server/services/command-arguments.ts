/**
 * Command plumbing shared by every command of the embedded server: the one argument tokenizer,
 * vanilla-style failures ({@link CommandError}, red feedback), and the argument types commands
 * take (Minecraft wiki "Argument types"): integers, positions (`~` relative), block positions,
 * items, block states and inventory slots. Selectors are in ./selectors.ts.
 *
 * Every parse error is a {@link CommandError} carrying vanilla's translation key, so the player
 * reads the same message a vanilla server gives.
 */
import type { Item } from 'prismarine-item';
import { Vec3 } from 'vec3';
import type { CommandContext, SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { propertiesOfState, stateOf } from './blocks.ts';
import { itemClass, PLAYER_SLOTS } from './items.ts';
import { sendError, translatable, type TextComponent } from './text.ts';

/** A command failure reported to the caller as a red line (vanilla `CommandSyntaxException`). */
export class CommandError extends Error {
  readonly component: TextComponent;
  constructor(component: TextComponent) {
    super(component.translate ?? component.text ?? 'command failed');
    this.component = component;
  }
}

/** A CommandError with a usage line (our own wording; vanilla shows the command tree instead). */
export function usageError(usage: string): CommandError {
  return new CommandError({ text: `Usage: ${usage}` });
}

/**
 * Splits a command's argument text into arguments: on whitespace, keeping `[...]`, `{...}` and
 * quoted strings (which may contain spaces) inside one argument, verbatim (so an argument is
 * also a prefix of the text after the previous one). Empty text gives no arguments.
 *
 * @example tokenize('~ ~1 ~ oak_stairs[facing=east, half=top]') // ['~', '~1', '~', 'oak_stairs[facing=east, half=top]']
 */
export function tokenize(raw: string | undefined): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  let quote: string | null = null;
  for (const ch of (raw ?? '').trim()) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
      continue;
    }
    if (ch === '[' || ch === '{') depth++;
    if (ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    if (/\s/.test(ch) && depth === 0) {
      if (current) out.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (current) out.push(current);
  return out;
}

/**
 * Wraps a command action: the argument text is split with {@link tokenize}; a thrown
 * {@link CommandError} becomes a red feedback line for the caller (or a log line for the
 * console). The action sends its own success feedback.
 *
 * @param action receives the arguments, the caller and the raw argument text.
 */
export function commandAction(
  serv: SquidServer,
  action: (args: string[], ctx: CommandContext, raw: string) => void | Promise<void>,
): (raw: string, ctx: CommandContext) => Promise<void> {
  return async (raw, ctx) => {
    try {
      await action(tokenize(raw), ctx, raw ?? '');
    } catch (err) {
      if (err instanceof CommandError) sendError(serv, ctx, err.component);
      else throw err;
    }
  };
}

/** The calling player, or a CommandError for the console (vanilla `permissions.requires.player`). */
export function requirePlayer(ctx: CommandContext): SquidPlayer {
  if (!ctx.player) throw new CommandError(translatable('permissions.requires.player'));
  return ctx.player;
}

/** The world a command runs in: `/execute in`'s, else the executor's, else the overworld (console). */
export function callerWorld(serv: SquidServer, ctx: CommandContext): SquidWorld {
  return ctx.world ?? ctx.player?.world ?? ctx.entity?.world ?? serv.overworld;
}

/**
 * The position a command runs at (`~` is relative to it): `/execute positioned|at`'s, else the
 * executor's feet, else 0 0 0 for the console.
 */
export function callerPosition(ctx: CommandContext): Vec3 {
  return (ctx.position ?? ctx.player?.position ?? ctx.entity?.position)?.clone() ?? new Vec3(0, 0, 0);
}

// ---------------------------------------------------------------------------------------------
// Text

/** The text after the first `skip` arguments of a command's raw argument text. */
export function restAfter(raw: string, args: string[], skip: number): string {
  let rest = raw.trim();
  for (const arg of args.slice(0, skip)) rest = rest.slice(rest.indexOf(arg) + arg.length).trimStart();
  return rest;
}

/**
 * Parses a JSON text component argument (vanilla `ComponentArgument`): an object, a string, or
 * an array (its first element, the rest appended as `extra`).
 *
 * @throws CommandError `argument.component.invalid` for text that is not a component.
 */
export function parseComponent(text: string): TextComponent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CommandError(translatable('argument.component.invalid', [err instanceof Error ? err.message : String(err)]));
  }
  const toComponent = (v: unknown): TextComponent => {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return { text: String(v) };
    if (Array.isArray(v)) {
      if (v.length === 0) throw new CommandError(translatable('argument.component.invalid', ['empty list']));
      const [first, ...rest] = v.map(toComponent) as [TextComponent, ...TextComponent[]];
      return { ...first, extra: [...(first.extra ?? []), ...rest] };
    }
    if (v && typeof v === 'object') return v as TextComponent;
    throw new CommandError(translatable('argument.component.invalid', [String(v)]));
  };
  return toComponent(value);
}

// ---------------------------------------------------------------------------------------------
// Numbers

/**
 * A whole-number argument within [min, max] (vanilla `IntegerArgumentType`).
 *
 * @throws CommandError `parsing.int.invalid`, `argument.integer.low` or `argument.integer.big`.
 */
export function parseInteger(token: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(token)) throw new CommandError(translatable('parsing.int.invalid', [token]));
  const value = Number(token);
  if (value < min) throw new CommandError(translatable('argument.integer.low', [min, value]));
  if (value > max) throw new CommandError(translatable('argument.integer.big', [max, value]));
  return value;
}

// ---------------------------------------------------------------------------------------------
// Positions

/** Horizontal world limit for positions, in blocks (vanilla `Level.isInSpawnableBounds`). */
const MAX_HORIZONTAL = 30_000_000;
/** Vertical world limit for positions, in blocks (vanilla `Level.isInSpawnableBounds`). */
const MAX_VERTICAL = 20_000_000;

/** One parsed coordinate: `12`, `12.5`, `~`, `~-3`. */
interface Coordinate {
  relative: boolean;
  value: number;
  /** Written without a decimal point (vanilla centres such x/z on the block). */
  integer: boolean;
}

const COORDINATE = /^(~)?([-+]?(?:\d+\.?\d*|\.\d+))?$/;

/** True when `token` reads as one coordinate (`12`, `-3.5`, `~`, `~2`). */
export function isCoordinate(token: string): boolean {
  return token !== '' && COORDINATE.test(token) && token !== '~~';
}

function parseCoordinate(token: string): Coordinate {
  if (token.startsWith('^')) throw new CommandError({ text: 'Local coordinates (^) are not supported' });
  const match = COORDINATE.exec(token);
  if (!match || (!match[1] && match[2] === undefined)) throw new CommandError(translatable('argument.pos3d.incomplete'));
  return { relative: match[1] === '~', value: match[2] === undefined ? 0 : Number(match[2]), integer: !token.includes('.') };
}

/**
 * Resolves `x y z` tokens to a position (vanilla `Vec3Argument` with centring): relative `~`
 * coordinates are offsets from `origin` (the command's execution position, Minecraft wiki
 * "Coordinates"); absolute integer x and z are centred on the block (+0.5), y never is.
 *
 * @throws CommandError for malformed tokens or a position outside vanilla's world bounds.
 */
export function parseLocation(tokens: string[], origin: Vec3): Vec3 {
  if (tokens.length < 3) throw new CommandError(translatable('argument.pos3d.incomplete'));
  const [x, y, z] = tokens.slice(0, 3).map(parseCoordinate) as [Coordinate, Coordinate, Coordinate];
  const axis = (c: Coordinate, base: number, centre: boolean): number =>
    c.relative ? base + c.value : c.value + (centre && c.integer ? 0.5 : 0);
  const position = new Vec3(axis(x, origin.x, true), axis(y, origin.y, false), axis(z, origin.z, true));
  if (Math.abs(position.x) >= MAX_HORIZONTAL || Math.abs(position.z) >= MAX_HORIZONTAL || Math.abs(position.y) >= MAX_VERTICAL) {
    throw new CommandError(translatable('commands.teleport.invalidPosition'));
  }
  return position;
}

/** An integer block coordinate token (`12`, `~`, `~-3`) relative to `base` (the caller's block position). */
function parseBlockCoordinate(token: string, base: number): number {
  const match = /^(~)?([-+]?\d+(?:\.\d+)?)?$/.exec(token);
  if (!match || (!match[1] && match[2] === undefined)) throw new CommandError(translatable('argument.pos.missing.int'));
  const value = match[2] === undefined ? 0 : Number(match[2]);
  return Math.floor(match[1] ? base + value : value);
}

/**
 * Resolves three coordinate tokens to a block position (vanilla `BlockPosArgument`); `~` is
 * relative to the caller's feet block (0 0 0 for the console).
 *
 * @throws CommandError `argument.pos3d.incomplete` / `argument.pos.missing.int`.
 */
export function parseBlockPos(tokens: string[], ctx: CommandContext): Vec3 {
  if (tokens.length < 3) throw new CommandError(translatable('argument.pos3d.incomplete'));
  const origin = callerPosition(ctx).floored();
  return new Vec3(
    parseBlockCoordinate(tokens[0]!, origin.x),
    parseBlockCoordinate(tokens[1]!, origin.y),
    parseBlockCoordinate(tokens[2]!, origin.z),
  );
}

// ---------------------------------------------------------------------------------------------
// Items

/** The minecraft-data item fields commands use. */
export interface ItemInfo {
  id: number;
  name: string;
  displayName?: string;
  stackSize: number;
}

/**
 * An item argument `[minecraft:]name[components]` → the minecraft-data item (components are
 * accepted and ignored).
 *
 * @throws CommandError `argument.item.id.invalid` for an unknown item.
 */
export function parseItem(serv: SquidServer, token: string): ItemInfo {
  const name = token.replace(/^minecraft:/, '').replace(/[[{].*$/, '');
  const item = serv.registry.itemsByName[name] as ItemInfo | undefined;
  if (!item) throw new CommandError(translatable('argument.item.id.invalid', [token]));
  return item;
}

/** How an item shows in command feedback: `[Display Name]`. */
export function itemLabel(item: ItemInfo): string {
  return `[${item.displayName ?? item.name}]`;
}

/**
 * Player inventory window slot (prismarine-windows `minecraft:inventory`) for a vanilla slot
 * argument (Minecraft wiki "Slot"): `container.0-35` (0–8 = hotbar), `hotbar.0-8`,
 * `inventory.0-26`, `armor.head|chest|legs|feet`, `weapon`/`weapon.mainhand` (the selected
 * hotbar slot), `weapon.offhand`.
 *
 * @param heldItemSlot the player's selected hotbar slot (0–8).
 * @returns the window slot, or undefined for an unknown slot name.
 */
export function playerWindowSlot(slot: string, heldItemSlot: number): number | undefined {
  const name = slot.replace(/^minecraft:/, '');
  const indexed = /^(container|hotbar|inventory)\.(\d+)$/.exec(name);
  const { hotbarStart, mainStart, offhand } = PLAYER_SLOTS;
  if (indexed) {
    const n = Number(indexed[2]);
    if (indexed[1] === 'hotbar') return n <= 8 ? hotbarStart + n : undefined;
    if (indexed[1] === 'inventory') return n <= 26 ? mainStart + n : undefined;
    return n <= 8 ? hotbarStart + n : n <= 35 ? n : undefined;
  }
  if (name === 'weapon' || name === 'weapon.mainhand') return hotbarStart + heldItemSlot;
  const named: Record<string, number> = { 'armor.head': 5, 'armor.chest': 6, 'armor.legs': 7, 'armor.feet': 8, 'weapon.offhand': offhand };
  return named[name];
}

/** A fresh stack of `count` × `item`, optionally already numbered for `slot`. */
export function newStack(serv: SquidServer, item: ItemInfo, count: number, slot?: number): Item {
  const Item = itemClass(serv);
  const stack = new Item(item.id, count);
  if (slot !== undefined) stack.slot = slot;
  return stack;
}

// ---------------------------------------------------------------------------------------------
// Block states

/** One minecraft-data block state description (`blocks[].states[]`). */
interface StateInfo {
  name: string;
  type: string;
  num_values: number;
  values?: string[];
}

/** A parsed block argument: the block, the full property set and the resulting state id. */
export interface BlockArgument {
  name: string;
  stateId: number;
  /** Every property of the state (unspecified ones at the block's defaults), as strings. */
  properties: Record<string, string>;
  /** The `{...}` block-entity data written after the state, raw SNBT (not applied by /fill). */
  nbt?: string;
}

/** Whether `value` is one of a state's values (bool: true/false; int and enum: minecraft-data `values`). */
function isStateValue(state: StateInfo, value: string): boolean {
  if (state.type === 'bool') return value === 'true' || value === 'false';
  return state.values?.includes(value) ?? false;
}

/**
 * Parses a vanilla block argument `[minecraft:]name[prop=value,...][{nbt}]` (vanilla
 * `BlockStateArgument`). Unspecified properties take the block's default state.
 *
 * @throws CommandError `argument.block.id.invalid` for an unknown block,
 *   `argument.block.property.unknown` / `.invalid` / `.duplicate` for bad properties.
 */
export function parseBlockArgument(serv: SquidServer, token: string): BlockArgument {
  const match = /^(?:minecraft:)?([a-z0-9_./-]+)(?:\[([^\]]*)\])?(\{.*\})?$/.exec(token);
  if (!match) throw new CommandError(translatable('argument.block.id.invalid', [token]));
  const [, name, propertyList, nbt] = match as unknown as [string, string, string | undefined, string | undefined];
  const block = serv.registry.blocksByName[name];
  if (!block) throw new CommandError(translatable('argument.block.id.invalid', [name]));
  const states = (block.states ?? []) as StateInfo[];
  const properties = propertiesOfState(serv, block.defaultState);
  const given = new Set<string>();
  for (const pair of (propertyList ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, value] = pair.split('=').map((p) => p.trim()) as [string, string | undefined];
    const state = states.find((s) => s.name === key);
    if (!state) throw new CommandError(translatable('argument.block.property.unknown', [name, key]));
    if (given.has(key)) throw new CommandError(translatable('argument.block.property.duplicate', [key, name]));
    if (value === undefined || !isStateValue(state, value)) {
      throw new CommandError(translatable('argument.block.property.invalid', [name, value ?? '', key]));
    }
    given.add(key);
    properties[key] = value;
  }
  return { name, stateId: states.length ? stateOf(serv, name, properties) : block.defaultState, properties, nbt };
}

/**
 * The properties written inside a block argument's brackets (`stone_slab[type=top]` → `{type: 'top'}`),
 * for predicates that match only what was written (vanilla `BlockPredicateArgument`).
 */
export function writtenProperties(argument: BlockArgument, token: string): Record<string, string> {
  const written = /\[([^\]]*)\]/.exec(token)?.[1] ?? '';
  const keys = written
    .split(',')
    .map((p) => p.split('=')[0]!.trim())
    .filter(Boolean);
  return Object.fromEntries(keys.map((k) => [k, argument.properties[k]!]));
}
