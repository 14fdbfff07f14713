/**
 * Block and block-entity commands, as vanilla Java 1.21 (Minecraft wiki "Commands/data",
 * "Commands/item"):
 * - `/fill` and `/setblock` with block states (./fill.ts);
 * - `/data merge block <pos> <nbt>` and `/data get block <pos> [<path>]` on the block entities of
 *   ./block-entities.ts (chests, barrels, furnaces, smokers, blast furnaces): `Items` sets the
 *   slots, a furnace's burn and cook numbers (both 1.21.4's `lit_time_remaining` … and the older
 *   `BurnTime`, `CookTime`, `CookTimeTotal`) drive the real furnace (./smelting.ts);
 * - `/item replace block <pos> container.<n> with <item> [<count>]` sets a container slot, and
 *   `/item replace entity <targets> <slot> with <item> [<count>]` a player's inventory slot.
 *
 * A change is saved with the store and shown at once to players who have the container open.
 * NBT keys the store does not model (e.g. `CustomName`, `Lock`) are accepted and ignored, as
 * vanilla ignores unknown keys when it loads a block entity.
 */
import { createRequire } from 'node:module';
import type { Item } from 'prismarine-item';
import { Vec3 } from 'vec3';
import type { SquidServer } from '../embedded.ts';
import { blockEntities, slotCountOf, type BlockEntity } from './block-entities.ts';
import { syncViewers } from './containers.ts';
import { installBlockCommands, parseBlockPos, splitBracketedArguments } from './fill.ts';
import { countOf, type Slot } from './menus.ts';
import { FURNACE_KINDS } from '../../game/smelting.ts';
import { applyFurnaceNbt, furnaceNbt } from './smelting.ts';
import { formatSnbt, isCompound, mergeCompound, nbtAtPath, parseSnbt, type NbtCompound, type NbtValue } from './snbt.ts';
import { commandAction, CommandError, displayName, resolvePlayers } from './targets.ts';
import { sendFeedback, translatable } from './text.ts';
import type { CommandContext, SquidPlayer } from './types.ts';

const require = createRequire(import.meta.url);

/** vanilla ItemStack codec: most items one stack may hold, whatever the item's own limit. */
const MAX_NBT_COUNT = 99;

interface ItemInfo { id: number; name: string; displayName?: string; stackSize: number }

/** Installs the block commands on a started server (they replace flying-squid's `/setblock`). */
export function blockCommandsPlugin(serv: SquidServer): void {
  installBlockCommands(serv);
  installDataCommand(serv);
  installItemCommand(serv);
}

/**
 * The block entity of the container or furnace block at `position` (created empty if it has
 * none yet), or undefined when the block there has no block entity we model.
 */
export async function blockEntityAt(serv: SquidServer, world: unknown, position: Vec3): Promise<BlockEntity | undefined> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const block: { name: string } | null = await (world as any).getBlock(position);
  const size = block ? slotCountOf(block.name) : 0;
  return size > 0 ? blockEntities(serv).getOrCreate(world, position, block!.name, size) : undefined;
}

/**
 * A block entity as vanilla NBT: `id`, `x`, `y`, `z`, `Items` (`[{Slot, id, count}]`, empty
 * slots left out) and, for furnace-like blocks, the burn and cook numbers in ticks under the
 * server version's key names.
 */
export function blockEntityNbt(serv: SquidServer, entity: BlockEntity): NbtCompound {
  const items: NbtCompound[] = [];
  entity.slots.forEach((item, slot) => {
    if (item && countOf(item) > 0) items.push({ Slot: slot, id: `minecraft:${serv.registry.items[item.type]?.name ?? item.type}`, count: countOf(item) });
  });
  return {
    id: `minecraft:${entity.kind}`,
    ...entity.pos,
    ...(FURNACE_KINDS[entity.kind] ? furnaceNbt(serv, entity) : {}),
    Items: items,
  };
}

/**
 * Loads NBT into a block entity, as vanilla loads a block entity after `/data merge`: an `Items`
 * list replaces all slots (entries with an unknown item id or a slot out of range are skipped,
 * `count` defaults to 1, the pre-1.20.5 `Count` is read too); furnace numbers go to
 * {@link applyFurnaceNbt}. Other keys are ignored. Viewers are updated and the store saved.
 */
export function loadBlockEntityNbt(serv: SquidServer, entity: BlockEntity, nbt: NbtCompound): void {
  if (Array.isArray(nbt.Items)) {
    const slots = new Array<Slot>(entity.slots.length).fill(null);
    for (const entry of nbt.Items) {
      if (!isCompound(entry)) continue;
      const slot = entry.Slot;
      const info = typeof entry.id === 'string' ? serv.registry.itemsByName[entry.id.replace(/^minecraft:/, '')] as ItemInfo | undefined : undefined;
      const rawCount = entry.count ?? entry.Count ?? 1;
      const count = typeof rawCount === 'number' ? Math.min(Math.floor(rawCount), MAX_NBT_COUNT) : 0;
      if (typeof slot !== 'number' || slot < 0 || slot >= slots.length || !info || info.name === 'air' || count < 1) continue;
      slots[slot] = newItem(serv, info, count, slot);
    }
    entity.slots.splice(0, entity.slots.length, ...slots);
  }
  if (FURNACE_KINDS[entity.kind]) applyFurnaceNbt(serv, entity, nbt);
  blockEntities(serv).markDirty();
  syncViewers([entity]);
}

/**
 * Sets one slot of a block entity (null empties it), as `/item replace block`; viewers are
 * updated and the store saved. A furnace notices a new input on its next tick.
 *
 * @throws RangeError when the block entity has no such slot.
 */
export function setBlockEntitySlot(serv: SquidServer, entity: BlockEntity, slot: number, item: Slot): void {
  if (!Number.isInteger(slot) || slot < 0 || slot >= entity.slots.length) throw new RangeError(`${entity.kind} has no slot ${slot}`);
  if (item) item.slot = slot;
  entity.slots[slot] = item;
  blockEntities(serv).markDirty();
  syncViewers([entity]);
}

function newItem(serv: SquidServer, info: ItemInfo, count: number, slot?: number): Item {
  const Item = require('prismarine-item')(serv.registry);
  const item = new Item(info.id, count) as Item;
  if (slot !== undefined) item.slot = slot;
  return item;
}

/** The caller's world, or the overworld for the console. */
function callerWorld(serv: SquidServer, ctx: CommandContext): unknown {
  return ctx.player?.world ?? serv.overworld;
}

function installDataCommand(serv: SquidServer): void {
  const usage = '/data merge block <pos> <nbt> | /data get block <pos> [<path>]';
  serv.commands.add({
    base: 'data',
    info: 'Gets or merges block entity data',
    usage,
    op: true,
    action: commandAction(serv, async (_args, ctx, raw) => {
      const args = splitBracketedArguments(raw);
      const [verb, target] = args;
      if (target !== 'block' || (verb !== 'merge' && verb !== 'get')) throw new CommandError({ text: `Usage: ${usage} (entity and storage targets are not supported)` });
      if (verb === 'merge' ? args.length !== 6 : args.length < 5 || args.length > 6) throw new CommandError({ text: `Usage: ${usage}` });
      const position = parseBlockPos(args.slice(2, 5), ctx);
      const patch = verb === 'merge' ? parseSnbt(args[5]!) : undefined;
      if (patch !== undefined && !isCompound(patch)) throw new CommandError(translatable('parsing.expected', ['{']));
      const entity = await blockEntityAt(serv, callerWorld(serv, ctx), position);
      if (!entity) throw new CommandError(translatable('commands.data.block.invalid'));
      const current = blockEntityNbt(serv, entity);
      if (patch) {
        // vanilla DataCommands.mergeData: fails when merging changes nothing.
        if (formatSnbt(mergeCompound(structuredClone(current), patch)) === formatSnbt(current)) throw new CommandError(translatable('commands.data.merge.failed'));
        loadBlockEntityNbt(serv, entity, patch);
        sendFeedback(serv, ctx.player, translatable('commands.data.block.modified', [position.x, position.y, position.z]));
        return;
      }
      const path = args[5];
      const value: NbtValue | undefined = path === undefined ? current : nbtAtPath(current, path);
      if (value === undefined) throw new CommandError(translatable('arguments.nbtpath.nothing_found', [path!]));
      sendFeedback(serv, ctx.player, translatable('commands.data.block.query', [position.x, position.y, position.z, formatSnbt(value)]));
    }),
  });
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
  if (name === 'weapon' || name === 'weapon.mainhand') return 36 + (player.heldItemSlot ?? 0);
  const named: Record<string, number> = { 'armor.head': 5, 'armor.chest': 6, 'armor.legs': 7, 'armor.feet': 8, 'weapon.offhand': 45 };
  return named[name];
}

/** `[minecraft:]name[components]` → minecraft-data item (components are ignored). */
function lookUpItem(serv: SquidServer, token: string): ItemInfo {
  const name = token.replace(/^minecraft:/, '').replace(/[[{].*$/, '');
  const item = serv.registry.itemsByName[name] as ItemInfo | undefined;
  if (!item) throw new CommandError(translatable('argument.item.id.invalid', [token]));
  return item;
}

function parseCount(token: string | undefined, max: number): number {
  if (token === undefined) return 1;
  if (!/^-?\d+$/.test(token)) throw new CommandError(translatable('parsing.int.invalid', [token]));
  const n = Number(token);
  if (n < 1) throw new CommandError(translatable('argument.integer.low', [1, n]));
  if (n > max) throw new CommandError(translatable('argument.integer.big', [max, n]));
  return n;
}

function installItemCommand(serv: SquidServer): void {
  const usage = '/item replace (block <pos>|entity <targets>) <slot> with <item> [<count>]';
  serv.commands.add({
    base: 'item',
    info: 'Replaces items in inventories',
    usage,
    op: true,
    action: commandAction(serv, async (_args, ctx, raw) => {
      const args = splitBracketedArguments(raw);
      if (args[0] !== 'replace') throw new CommandError({ text: `Usage: ${usage}` });
      if (args[1] === 'block') {
        if (args.length < 8 || args.length > 9 || args[6] !== 'with') throw new CommandError({ text: `Usage: ${usage}` });
        const position = parseBlockPos(args.slice(2, 5), ctx);
        const slotName = args[5]!;
        const slotMatch = /^container\.(\d+)$/.exec(slotName.replace(/^minecraft:/, ''));
        if (!slotMatch) throw new CommandError(translatable('slot.unknown', [slotName]));
        const info = lookUpItem(serv, args[7]!);
        const count = parseCount(args[8], info.stackSize);
        const entity = await blockEntityAt(serv, callerWorld(serv, ctx), position);
        if (!entity) throw new CommandError(translatable('commands.item.target.not_a_container', [position.x, position.y, position.z]));
        const slot = Number(slotMatch[1]);
        if (slot >= entity.slots.length) throw new CommandError(translatable('commands.item.target.no_such_slot', [slot]));
        setBlockEntitySlot(serv, entity, slot, info.name === 'air' ? null : newItem(serv, info, count));
        sendFeedback(serv, ctx.player, translatable('commands.item.block.set.success', [position.x, position.y, position.z, `[${info.displayName ?? info.name}]`]));
        return;
      }
      if (args[1] === 'entity') {
        if (args.length < 6 || args.length > 7 || args[4] !== 'with') throw new CommandError({ text: `Usage: ${usage}` });
        const players = resolvePlayers(serv, args[2]!, ctx);
        const info = lookUpItem(serv, args[5]!);
        const count = parseCount(args[6], info.stackSize);
        const slots = players.map((player) => playerWindowSlot(player, args[3]!));
        if (slots.some((slot) => slot === undefined)) throw new CommandError(translatable('commands.item.target.no_such_slot', [args[3]!]));
        players.forEach((player, i) => player.inventory.updateSlot(slots[i]!, info.name === 'air' ? null : newItem(serv, info, count)));
        const shown = `[${info.displayName ?? info.name}]`;
        sendFeedback(serv, ctx.player, players.length === 1
          ? translatable('commands.item.entity.set.success.single', [displayName(players[0]!), shown])
          : translatable('commands.item.entity.set.success.multiple', [players.length, shown]));
        return;
      }
      throw new CommandError({ text: `Usage: ${usage}` });
    }),
  });
}
