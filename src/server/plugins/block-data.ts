/**
 * A small generic block-entity data store and the commands that write it, as vanilla Java 1.21
 * (Minecraft wiki "Commands/data", "Commands/item", "NBT format" → SNBT):
 * - `/data merge block <pos> <snbt>` merges a compound into the block's data (e.g. a furnace's
 *   `BurnTime`, `CookTime`, `CookTimeTotal`, `Items`), `/data get block <pos> [path]` reads it;
 * - `/item replace block <pos> container.<n> with <item> [count]` writes a container slot (kept as
 *   vanilla's `Items: [{Slot, id, count}]` list in the same store);
 * - `/item replace entity <targets> <slot> with <item> [count]` sets a player's inventory slot.
 *
 * flying-squid has no block-entity store (`world.blockEntityData` is a placeholder), and this
 * branch has no furnace module: other modules (e.g. a furnace) read and write the data through
 * {@link getBlockEntityData} / {@link mergeBlockEntityData}. The data is kept in memory per world,
 * keyed by block position, and is dropped when the block at that position changes type.
 * Numbers are stored as plain JS numbers (SNBT type suffixes such as `200s` or `64b` are dropped).
 */
import { createRequire } from 'node:module';
import { Vec3 } from 'vec3';
import type { SquidServer } from '../embedded.ts';
import { parseBlockPos, splitBracketedArguments } from './fill.ts';
import { commandAction, CommandError, displayName, resolvePlayers } from './targets.ts';
import { sendFeedback, translatable } from './text.ts';
import type { CommandContext, SquidPlayer } from './types.ts';

const require = createRequire(import.meta.url);

/** A parsed SNBT value: numbers, strings, booleans (as 1/0), lists and compounds. */
export type NbtValue = number | string | NbtValue[] | NbtCompound;
export interface NbtCompound { [key: string]: NbtValue }

/** A block entity's data and the block it belongs to. */
interface StoredBlockEntity { block: string; data: NbtCompound }

/** Per-world store: `"x,y,z"` → data. */
const stores = new WeakMap<object, Map<string, StoredBlockEntity>>();

function storeOf(world: object): Map<string, StoredBlockEntity> {
  let store = stores.get(world);
  if (!store) stores.set(world, (store = new Map()));
  return store;
}

function keyOf(position: { x: number; y: number; z: number }): string {
  return `${Math.floor(position.x)},${Math.floor(position.y)},${Math.floor(position.z)}`;
}

/**
 * Parses SNBT (the text form of NBT used in commands): `{a:1,b:"x",c:[1b,2b],d:{e:1.5f}}`,
 * typed arrays `[I;1,2]`, unquoted and quoted keys and strings, `true`/`false` (1/0).
 *
 * @throws CommandError `argument.nbt.expected.value` / `argument.nbt.trailing` on malformed input.
 */
export function parseSnbt(text: string): NbtValue {
  let i = 0;
  const fail = (): never => { throw new CommandError(translatable('argument.nbt.expected.value')); };
  const ws = (): void => { while (i < text.length && /\s/.test(text[i]!)) i++; };
  const quoted = (): string => {
    const q = text[i++]!;
    let s = '';
    while (i < text.length && text[i] !== q) { if (text[i] === '\\') i++; s += text[i++]; }
    if (text[i] !== q) fail();
    i++;
    return s;
  };
  const bare = (): string => { const start = i; while (i < text.length && /[A-Za-z0-9_.+\-]/.test(text[i]!)) i++; return text.slice(start, i); };
  const value = (): NbtValue => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      const out: NbtCompound = {};
      ws();
      if (text[i] === '}') { i++; return out; }
      for (;;) {
        ws();
        const key = text[i] === '"' || text[i] === "'" ? quoted() : bare();
        if (!key) fail();
        ws();
        if (text[i++] !== ':') fail();
        out[key] = value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return out; }
        fail();
      }
    }
    if (ch === '[') {
      i++;
      if (/^[BIL];/.test(text.slice(i, i + 2))) i += 2;
      const out: NbtValue[] = [];
      ws();
      if (text[i] === ']') { i++; return out; }
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return out; }
        fail();
      }
    }
    if (ch === '"' || ch === "'") return quoted();
    const word = bare();
    if (!word) fail();
    if (word === 'true') return 1;
    if (word === 'false') return 0;
    const number = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)([bslfdBSLFD])?$/.exec(word);
    return number ? Number(number[1]) : word;
  };
  const result = value();
  ws();
  if (i !== text.length) throw new CommandError(translatable('argument.nbt.trailing'));
  return result;
}

function isCompound(value: NbtValue | undefined): value is NbtCompound {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Vanilla `CompoundTag.merge`: compounds merge recursively, everything else is replaced. */
function mergeInto(target: NbtCompound, source: NbtCompound): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isCompound(existing) && isCompound(value)) mergeInto(existing, value);
    else target[key] = structuredClone(value);
  }
}

/** minecraft-data name of the block at `position`. */
async function blockNameAt(serv: SquidServer, world: { getBlockStateId(p: Vec3): Promise<number> }, position: Vec3): Promise<string | undefined> {
  return serv.registry.blocksByStateId[await world.getBlockStateId(position)]?.name;
}

/**
 * The block-entity data stored for the block at `position` in `world`, or undefined when nothing
 * was stored (or the block there has since changed type). The returned object is live: modules
 * that simulate the block (e.g. a furnace counting down `BurnTime`, in ticks) may mutate it.
 */
export async function getBlockEntityData(serv: SquidServer, world: object, position: { x: number; y: number; z: number }): Promise<NbtCompound | undefined> {
  const store = storeOf(world);
  const key = keyOf(position);
  const entry = store.get(key);
  if (!entry) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const name = await blockNameAt(serv, world as any, new Vec3(position.x, position.y, position.z).floored());
  if (name !== entry.block) { store.delete(key); return undefined; }
  return entry.data;
}

/**
 * Merges `data` into the block entity at `position` (creating it), as `/data merge block`.
 *
 * @returns the merged (live) data.
 * @throws CommandError `commands.data.block.invalid` ("The target block is not a block entity")
 *   when the block there is air.
 */
export async function mergeBlockEntityData(serv: SquidServer, world: object, position: { x: number; y: number; z: number }, data: NbtCompound): Promise<NbtCompound> {
  const pos = new Vec3(position.x, position.y, position.z).floored();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const name = await blockNameAt(serv, world as any, pos);
  if (!name || name === 'air' || name === 'cave_air' || name === 'void_air') throw new CommandError(translatable('commands.data.block.invalid'));
  const current = (await getBlockEntityData(serv, world, pos)) ?? {};
  mergeInto(current, data);
  storeOf(world).set(keyOf(pos), { block: name, data: current });
  return current;
}

/** Vanilla SNBT rendering for `/data get` feedback (no type suffixes). */
function formatSnbt(value: NbtValue): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatSnbt).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${k}: ${formatSnbt(v)}`).join(', ')}}`;
}

/**
 * Player inventory window slot (prismarine-windows `minecraft:inventory`) for a vanilla slot
 * argument (Minecraft wiki "Slot"): `container.0-35` (0–8 = hotbar), `hotbar.0-8`,
 * `inventory.0-26`, `armor.head|chest|legs|feet`, `weapon`/`weapon.mainhand` (the selected
 * hotbar slot), `weapon.offhand`.
 *
 * @returns the window slot, or undefined for an unknown slot name.
 */
export function playerWindowSlot(player: SquidPlayer, slot: string): number | undefined {
  const name = slot.replace(/^minecraft:/, '');
  const indexed = /^(container|hotbar|inventory)\.(\d+)$/.exec(name);
  if (indexed) {
    const n = Number(indexed[2]);
    if (indexed[1] === 'hotbar') return n <= 8 ? 36 + n : undefined;
    if (indexed[1] === 'inventory') return n <= 26 ? 9 + n : undefined;
    return n <= 8 ? 36 + n : n <= 35 ? n : undefined;
  }
  const named: Record<string, number> = { 'armor.head': 5, 'armor.chest': 6, 'armor.legs': 7, 'armor.feet': 8, 'weapon.offhand': 45 };
  if (name === 'weapon' || name === 'weapon.mainhand') return 36 + (player.heldItemSlot ?? 0);
  return named[name];
}

/** `[minecraft:]name` → minecraft-data item, or CommandError `argument.item.id.invalid`. */
function lookUpItem(serv: SquidServer, token: string): { id: number; name: string; stackSize: number } {
  const name = token.replace(/^minecraft:/, '').replace(/\[.*$|\{.*$/, '');
  const item = serv.registry.itemsByName[name];
  if (!item) throw new CommandError(translatable('argument.item.id.invalid', [token]));
  return item;
}

function parseCount(token: string | undefined, max: number): number {
  if (token === undefined) return 1;
  if (!/^\d+$/.test(token)) throw new CommandError(translatable('parsing.int.invalid', [token]));
  const n = Number(token);
  if (n < 1) throw new CommandError(translatable('argument.integer.low', [1, n]));
  if (n > max) throw new CommandError(translatable('argument.integer.big', [max, n]));
  return n;
}

/** The caller's world, or the overworld for the console. */
function worldOf(serv: SquidServer, ctx: CommandContext): object {
  return ctx.player?.world ?? serv.overworld;
}

/** Registers `/data` (merge/get block) and `/item replace` (block container slots and player slots). */
export function installBlockEntityCommands(serv: SquidServer): void {
  const dataUsage = '/data merge block <pos> <nbt> | /data get block <pos> [path]';
  serv.commands.add({
    base: 'data',
    info: 'Gets or merges block entity data',
    usage: dataUsage,
    op: true,
    action: commandAction(serv, async (_args, ctx, raw) => {
      const args = splitBracketedArguments(raw);
      const [verb, kind] = args;
      if (kind !== 'block' || (verb !== 'merge' && verb !== 'get')) throw new CommandError({ text: `Usage: ${dataUsage} (entity targets are not supported)` });
      const position = parseBlockPos(args.slice(2, 5), ctx);
      const world = worldOf(serv, ctx);
      if (verb === 'merge') {
        if (args.length !== 6) throw new CommandError({ text: `Usage: ${dataUsage}` });
        const data = parseSnbt(args[5]!);
        if (!isCompound(data)) throw new CommandError({ text: 'Expected a compound tag {...}' });
        await mergeBlockEntityData(serv, world, position, data);
        sendFeedback(serv, ctx.player, translatable('commands.data.block.modified', [position.x, position.y, position.z]));
        return;
      }
      const data = await getBlockEntityData(serv, world, position);
      if (!data) throw new CommandError(translatable('commands.data.block.invalid'));
      const path = args[5];
      const value = path === undefined ? data : path.split('.').reduce<NbtValue | undefined>((v, k) => (isCompound(v) ? v[k] : undefined), data);
      if (value === undefined) throw new CommandError(translatable('arguments.nbtpath.nothing_found', [path ?? '']));
      sendFeedback(serv, ctx.player, translatable('commands.data.block.query', [position.x, position.y, position.z, formatSnbt(value)]));
    }),
  });

  const itemUsage = '/item replace (block <pos>|entity <targets>) <slot> with <item> [count]';
  serv.commands.add({
    base: 'item',
    info: 'Replaces items in inventories',
    usage: itemUsage,
    op: true,
    action: commandAction(serv, async (_args, ctx, raw) => {
      const args = splitBracketedArguments(raw);
      if (args[0] !== 'replace') throw new CommandError({ text: `Usage: ${itemUsage}` });
      const Item = require('prismarine-item')(serv.registry);
      if (args[1] === 'block') {
        if (args.length < 8 || args.length > 9 || args[6] !== 'with') throw new CommandError({ text: `Usage: ${itemUsage}` });
        const position = parseBlockPos(args.slice(2, 5), ctx);
        const slotMatch = /^container\.(\d+)$/.exec(args[5]!);
        if (!slotMatch) throw new CommandError(translatable('slot.unknown', [args[5]!]));
        const item = lookUpItem(serv, args[7]!);
        const count = parseCount(args[8], item.stackSize);
        const world = worldOf(serv, ctx);
        const data = (await getBlockEntityData(serv, world, position)) ?? {};
        const slot = Number(slotMatch[1]);
        const items = (Array.isArray(data.Items) ? data.Items : []).filter((entry) => !(isCompound(entry) && entry.Slot === slot));
        if (item.name !== 'air') items.push({ Slot: slot, id: `minecraft:${item.name}`, count });
        await mergeBlockEntityData(serv, world, position, { Items: items });
        sendFeedback(serv, ctx.player, translatable('commands.item.block.set.success', [position.x, position.y, position.z, `[${item.name}]`]));
        return;
      }
      if (args[1] === 'entity') {
        if (args.length < 6 || args.length > 7 || args[4] !== 'with') throw new CommandError({ text: `Usage: ${itemUsage}` });
        const players = resolvePlayers(serv, args[2]!, ctx);
        const item = lookUpItem(serv, args[5]!);
        const count = parseCount(args[6], item.stackSize);
        for (const player of players) {
          const windowSlot = playerWindowSlot(player, args[3]!);
          if (windowSlot === undefined) throw new CommandError(translatable('commands.item.target.no_such_slot', [args[3]!]));
          player.inventory.updateSlot(windowSlot, item.name === 'air' ? null : new Item(item.id, count));
        }
        sendFeedback(serv, ctx.player, players.length === 1
          ? translatable('commands.item.entity.set.success.single', [displayName(players[0]!), `[${item.name}]`])
          : translatable('commands.item.entity.set.success.multiple', [players.length, `[${item.name}]`]));
        return;
      }
      throw new CommandError({ text: `Usage: ${itemUsage}` });
    }),
  });
}
