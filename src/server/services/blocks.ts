/**
 * Shared helpers of the block mechanics (digging, placing, crops, beds, doors): block states
 * from minecraft-data properties, directions as the protocol numbers them, the player's held
 * item, tool durability and block-loot drops.
 */
import { createRequire } from 'node:module';
import type { Block } from 'prismarine-block';
import type { Item } from 'prismarine-item';
import type { SquidServer } from '../embedded.ts';
import { spawnItemEntity, TICKS_PER_SECOND } from './drops.ts';
import { countOf } from './menus.ts';
import type { SquidPlayer } from './types.ts';

const require = createRequire(import.meta.url);
// vec3 is CommonJS; its typings are not needed here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const { Vec3 } = require('vec3') as { Vec3: any };

/** A vec3 position (blocks). */
export interface Pos { x: number; y: number; z: number }
/** A vec3 Vec3 instance (kept loose: `vec3` typings are CommonJS). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type V3 = any;

/** Makes a vec3 Vec3 from coordinates (blocks). */
export function vec(x: number, y: number, z: number): V3 {
  return new Vec3(x, y, z);
}

/** Horizontal direction names as block-state `facing` values. */
export type Horizontal = 'north' | 'south' | 'west' | 'east';
/** All six faces. */
export type Face = Horizontal | 'up' | 'down';

/** block_place / block_dig face numbers (protocol): 0 down, 1 up, 2 north (-z), 3 south (+z), 4 west (-x), 5 east (+x). */
export const FACES: readonly Face[] = ['down', 'up', 'north', 'south', 'west', 'east'];

/** Unit offset of a face, in blocks. */
export const FACE_OFFSET: Record<Face, Pos> = {
  down: { x: 0, y: -1, z: 0 },
  up: { x: 0, y: 1, z: 0 },
  north: { x: 0, y: 0, z: -1 },
  south: { x: 0, y: 0, z: 1 },
  west: { x: -1, y: 0, z: 0 },
  east: { x: 1, y: 0, z: 0 },
};

export const OPPOSITE: Record<Face, Face> = {
  down: 'up', up: 'down', north: 'south', south: 'north', west: 'east', east: 'west',
};

/**
 * The horizontal direction a player looks towards, from their yaw in degrees as the client sends
 * it (Notchian: 0 = south/+z, 90 = west, 180 = north, 270 = east). Same as vanilla
 * `Direction.fromYRot`.
 */
export function horizontalFacing(yawDegrees: number): Horizontal {
  const order: Horizontal[] = ['south', 'west', 'north', 'east'];
  return order[Math.floor(yawDegrees / 90 + 0.5) & 3];
}

/** `pos` moved `n` blocks (default 1) through `face`. */
export function offset(pos: Pos, face: Face, n = 1): V3 {
  const o = FACE_OFFSET[face];
  return vec(pos.x + o.x * n, pos.y + o.y * n, pos.z + o.z * n);
}

/** prismarine-block's class for the server's registry (cached per registry). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const blockClasses = new WeakMap<object, any>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function blockClass(serv: SquidServer): any {
  let cls = blockClasses.get(serv.registry);
  if (!cls) {
    cls = require('prismarine-block')(serv.registry);
    blockClasses.set(serv.registry, cls);
  }
  return cls;
}

/**
 * State id of block `name` with `properties` (other properties keep their default), from
 * minecraft-data's block states.
 *
 * @throws Error for an unknown block name.
 */
export function stateOf(serv: SquidServer, name: string, properties: Record<string, string | number | boolean> = {}): number {
  const info = serv.registry.blocksByName[name];
  if (!info) throw new Error(`unknown block ${name}`);
  const Block = blockClass(serv);
  const defaults = Block.fromStateId(info.defaultState, 0).getProperties() as Record<string, unknown>;
  const merged: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...defaults, ...properties })) merged[key] = String(value);
  return Block.fromProperties(name, merged, 0).stateId as number;
}

/** The same block with some properties changed. */
export function withProperties(serv: SquidServer, block: Block, properties: Record<string, string | number | boolean>): number {
  return stateOf(serv, block.name, { ...(block.getProperties() as Record<string, string | number | boolean>), ...properties });
}

/** Block at `pos` in `world` (prismarine-block with `position`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function blockAt(world: any, pos: Pos): Promise<Block> {
  return world.getBlock(vec(pos.x, pos.y, pos.z));
}

/**
 * Block names a placement may replace (vanilla `canBeReplaced`: air, fluids, grass and other
 * replaceable plants). Names, not ids: resolved through minecraft-data.
 */
const REPLACEABLE = new Set([
  'air', 'cave_air', 'void_air', 'water', 'lava', 'short_grass', 'grass', 'fern', 'dead_bush',
  'vine', 'seagrass', 'fire', 'soul_fire', 'light', 'structure_void',
]);

/** True when a placement may overwrite this block. */
export function isReplaceable(block: Block | null | undefined): boolean {
  return !block || REPLACEABLE.has(block.name);
}

/** True for a full solid cube (`boundingBox: 'block'` in minecraft-data) that can support torches and the like. */
export function isSolid(block: Block | null | undefined): boolean {
  return !!block && block.boundingBox === 'block';
}

/** Window slot of the item in the given hand: main hand = selected hotbar slot, off hand = 45. */
export function handSlot(player: SquidPlayer, hand = 0): number {
  return hand === 1 ? 45 : 36 + (player.heldItemSlot ?? 0);
}

/** The item in the player's hand (server's truth), or null. */
export function heldItem(player: SquidPlayer, hand = 0): Item | null {
  const item = player.inventory.slots[handSlot(player, hand)] as Item | null;
  return item && countOf(item) > 0 ? item : null;
}

/**
 * Removes `n` items from the stack in the player's hand and syncs their client through the
 * inventory plugin (`player.inventory.updateSlot`). Nothing happens in creative mode.
 */
export function consumeHeld(player: SquidPlayer, n = 1, hand = 0): void {
  if (player.gameMode === 1) return;
  const slot = handSlot(player, hand);
  const item = player.inventory.slots[slot] as Item | null;
  if (!item) return;
  const left = countOf(item) - n;
  if (left <= 0) {
    player.inventory.updateSlot(slot, null);
  } else {
    item.count = left;
    player.inventory.updateSlot(slot, item);
  }
}

/** Damage taken so far by a tool (0 = new), from its `damage` component (1.20.5+) or NBT. */
export function damageOf(item: Item): number {
  const map = (item as Item & { componentMap?: Map<string, { data: number }> }).componentMap;
  const fromComponent = map?.get('damage')?.data;
  if (typeof fromComponent === 'number') return fromComponent;
  try {
    return Number(item.durabilityUsed ?? 0) || 0;
  } catch {
    return 0;
  }
}

/** Sets a tool's damage, in the place the protocol version keeps it (`damage` component on 1.20.5+). */
export function setDamage(serv: SquidServer, item: Item, damage: number): void {
  const withComponents = item as Item & { components?: { type: string; data: unknown }[]; componentMap?: Map<string, { type: string; data: unknown }> };
  if (serv.registry.version['>=']('1.20.5')) {
    const entry = { type: 'damage', data: damage };
    withComponents.components = (withComponents.components ?? []).filter((c) => c.type !== 'damage');
    withComponents.components.push(entry);
    withComponents.componentMap ??= new Map();
    withComponents.componentMap.set('damage', entry);
  } else {
    item.durabilityUsed = damage;
  }
}

/**
 * Damages the item in the player's hand by `amount` (vanilla `ItemStack.hurtAndBreak`): items
 * without `maxDurability` in minecraft-data are untouched; a tool whose damage reaches its
 * maximum durability breaks (the slot empties). Syncs the client. No-op in creative mode.
 *
 * @returns true when the tool broke.
 */
export function damageHeldTool(serv: SquidServer, player: SquidPlayer, amount = 1, hand = 0): boolean {
  if (player.gameMode === 1) return false;
  const slot = handSlot(player, hand);
  const item = player.inventory.slots[slot] as Item | null;
  const max = item ? serv.registry.items[item.type]?.maxDurability : undefined;
  if (!item || !max) return false;
  const damage = damageOf(item) + amount;
  if (damage >= max) {
    player.inventory.updateSlot(slot, null);
    return true;
  }
  setDamage(serv, item, damage);
  player.inventory.updateSlot(slot, item);
  return false;
}

/** One item stack dropped by a block: item name and count. */
export interface DropStack { item: string; count: number }

function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

/**
 * What a block drops when broken by a player without silk touch, from minecraft-data
 * `blockLoot` (which flattens vanilla's loot tables):
 * - entries marked `silkTouch` are skipped; `noSilkTouch` entries (the other half of a
 *   silk-touch alternative, listed with chance 0.5) always drop;
 * - crops (entries with `blockAge`): entries whose `blockAge` equals the block's `age` drop
 *   (the produce and the bonus seeds); the age-less entries drop only when no age entry
 *   matched, or when they always drop (`dropChance` 1, e.g. the base carrot);
 * - other entries drop with their `dropChance`, `stackSizeRange` giving the count;
 * - slabs drop 2 only as `type=double`; wall variants (`wall_torch`) use the standing block's loot.
 * A block whose `harvestTools` does not list the held item drops nothing (vanilla
 * `requiresCorrectToolForDrops`).
 *
 * @param heldType item id in the breaker's hand, or null for an empty hand.
 */
export function blockDrops(serv: SquidServer, block: Block, heldType: number | null): DropStack[] {
  const info = serv.registry.blocks[block.type];
  if (info?.harvestTools && (heldType === null || !info.harvestTools[heldType])) return [];
  // Wall variants (wall_torch, oak_wall_sign…) share their standing block's loot table in vanilla.
  const lootName = serv.registry.blockLoot?.[block.name] ? block.name : block.name.replace('wall_', '');
  const loot = serv.registry.blockLoot?.[lootName] as { drops: Array<{ item: string; dropChance: number; stackSizeRange: [number, number?]; silkTouch?: boolean; noSilkTouch?: boolean; blockAge?: number }> } | undefined;
  if (!loot) return [];
  const props = block.getProperties() as Record<string, unknown>;
  const age = props.age === undefined ? undefined : Number(props.age);
  const entries = loot.drops.filter((d) => !d.silkTouch);
  const aged = entries.filter((d) => d.blockAge !== undefined);
  const out: DropStack[] = [];
  const push = (item: string, count: number): void => { if (count > 0) out.push({ item, count }); };
  const count = (range: [number, number?]): number => randomInt(range[0], range[1] ?? range[0]);
  if (aged.length > 0 && age !== undefined) {
    const matching = aged.filter((d) => d.blockAge === age);
    // An aged entry listed with chance 0.5 is one side of a flattened age alternative: it always drops.
    for (const d of matching) if (d.dropChance === 0.5 || Math.random() < d.dropChance) push(d.item, count(d.stackSizeRange));
    for (const d of entries.filter((e) => e.blockAge === undefined)) {
      if (matching.length === 0 || d.dropChance >= 1) push(d.item, count(d.stackSizeRange));
    }
    return out;
  }
  for (const d of entries) {
    const always = d.noSilkTouch || d.dropChance >= 1;
    if (!always && Math.random() >= d.dropChance) continue;
    let n = count(d.stackSizeRange);
    if (block.name.endsWith('_slab')) n = props.type === 'double' ? 2 : 1;
    push(d.item, n);
  }
  return out;
}

/** vanilla: a block drop cannot be picked up for 10 ticks (`ItemEntity` default pickup delay). */
export const BLOCK_DROP_PICKUP_DELAY_TICKS = 10;

/**
 * Spawns item entities for `drops` inside the block at `pos`, as vanilla `Block.popResource`:
 * a random point within the middle of the block, ±0.1 blocks/tick sideways and 0.2 up.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function popDrops(serv: SquidServer, world: any, pos: Pos, drops: DropStack[]): void {
  const Item = require('prismarine-item')(serv.registry);
  for (const drop of drops) {
    const info = serv.registry.itemsByName[drop.item];
    if (!info) continue;
    const perTick = { x: Math.random() * 0.2 - 0.1, y: 0.2, z: Math.random() * 0.2 - 0.1 };
    spawnItemEntity(serv, {
      world,
      position: { x: pos.x + 0.25 + Math.random() * 0.5, y: pos.y + 0.25 + Math.random() * 0.5 - 0.125, z: pos.z + 0.25 + Math.random() * 0.5 },
      velocity: { x: perTick.x * TICKS_PER_SECOND, y: perTick.y * TICKS_PER_SECOND, z: perTick.z * TICKS_PER_SECOND },
      item: new Item(info.id, drop.count),
      pickupDelayTicks: BLOCK_DROP_PICKUP_DELAY_TICKS,
    });
  }
}
