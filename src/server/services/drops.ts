/**
 * Item entities: spawning thrown stacks, their metadata on 1.20.2+, adding stacks to a player's
 * inventory, and picking items up.
 */
import { createRequire } from 'node:module';
import type { Item } from 'prismarine-item';
import type { SquidServer } from '../embedded.ts';
import {
  PLAYER_SLOTS, broadcastChanges, countOf, maxStack, sameItem, withCount,
  type InventorySession, type Slot, type SquidPlayer,
} from './menus.ts';

const require = createRequire(import.meta.url);
const { Vec3 } = require('vec3');

/** Server ticks per second (vanilla). */
export const TICKS_PER_SECOND = 20;
/** vanilla: an item thrown by a player cannot be picked up for 40 ticks (Minecraft wiki, "Item (entity)"). */
export const PLAYER_THROW_PICKUP_DELAY_TICKS = 40;
/** vanilla: an item entity despawns after 6000 ticks (5 minutes) on the ground (Minecraft wiki). */
export const ITEM_DESPAWN_TICKS = 6000;
/** vanilla (Player.drop): a thrown item leaves 0.3 blocks below the eyes at 0.3 blocks/tick, plus 0.1 upward. */
const THROW_SPEED_BLOCKS_PER_TICK = 0.3;
const THROW_LIFT_BLOCKS_PER_TICK = 0.1;
const THROW_BELOW_EYES_BLOCKS = 0.3;
/** Player eye height while standing, in blocks (vanilla 1.62). */
const PLAYER_EYE_HEIGHT = 1.62;

/** A flying-squid entity (untyped upstream). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SquidEntity = any;
/** A vec3 Vec3. */
export type Vec3Like = { x: number; y: number; z: number };

export interface SpawnItemOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  world: any;
  /** Centre of the item entity, in blocks. */
  position: Vec3Like;
  /** Initial velocity in blocks per second (flying-squid's physics unit). */
  velocity?: Vec3Like;
  /** The stack the entity carries (copied). */
  item: Item;
  /** Ticks (1/20 s) before anyone can pick it up. */
  pickupDelayTicks: number;
}

/**
 * Spawns an item entity carrying `item` and shows it (with its item-stack metadata) to nearby
 * players. flying-squid's entity tick picks it up for the first player within 1.75 blocks once
 * the pickup delay has passed, and removes it after {@link ITEM_DESPAWN_TICKS}.
 *
 * @returns the flying-squid entity (`itemId`, `itemCount` hold the stack; components are not kept).
 */
export function spawnItemEntity(serv: SquidServer, options: SpawnItemOptions): SquidEntity {
  const { registry } = serv;
  const v = options.velocity ?? { x: 0, y: 0, z: 0 };
  const entity = serv.spawnObject(registry.entitiesByName.item.id, options.world, new Vec3(options.position.x, options.position.y, options.position.z), {
    velocity: new Vec3(v.x, v.y, v.z),
    itemId: options.item.type,
    itemCount: countOf(options.item),
    pickupTime: (options.pickupDelayTicks * 1000) / TICKS_PER_SECOND,
    deathTime: (ITEM_DESPAWN_TICKS * 1000) / TICKS_PER_SECOND,
  });
  return entity;
}

/** Index of the item-stack entry of the `item` entity's metadata (minecraft-data metadataKeys), or -1. */
function itemMetadataKey(serv: SquidServer): number {
  return serv.registry.entitiesByName.item?.metadataKeys?.indexOf('item') ?? -1;
}

/**
 * Writes an item entity's item-stack metadata (`entity_metadata`) to `players`. flying-squid
 * skips entity metadata on 1.20.2+, without which clients (mineflayer's `itemDrop`,
 * `entity.getDroppedItem()`) never learn what an item entity holds. No-op before 1.20.2,
 * where flying-squid sends it itself.
 */
export function sendItemMetadata(serv: SquidServer, entity: SquidEntity, players: SquidPlayer[]): void {
  if (!serv.registry.version['>=']('1.20.2')) return;
  const key = itemMetadataKey(serv);
  if (key < 0 || entity.itemId === undefined) return;
  const Item = require('prismarine-item')(serv.registry);
  const stack = new Item(entity.itemId, Number(entity.itemCount ?? 1));
  const packet = { entityId: entity.id, metadata: [{ key, type: 'item_stack', value: Item.toNotch(stack) }] };
  for (const p of players) p._client.write('entity_metadata', packet);
}

/**
 * Throws `item` from a player's eyes along their look direction, as vanilla `Player.drop`
 * (0.3 blocks/tick forward, +0.1 blocks/tick up, a small random spread) with the player
 * throw pickup delay of {@link PLAYER_THROW_PICKUP_DELAY_TICKS} ticks.
 */
export function throwFromPlayer(session: InventorySession, item: Item): SquidEntity {
  const { player, serv } = session;
  const yaw = (session.look.yaw * Math.PI) / 180;
  const pitch = (session.look.pitch * Math.PI) / 180;
  const spreadAngle = Math.random() * Math.PI * 2;
  const spread = 0.02 * Math.random();
  const perTick = {
    x: -Math.sin(yaw) * Math.cos(pitch) * THROW_SPEED_BLOCKS_PER_TICK + Math.cos(spreadAngle) * spread,
    y: -Math.sin(pitch) * THROW_SPEED_BLOCKS_PER_TICK + THROW_LIFT_BLOCKS_PER_TICK + (Math.random() - Math.random()) * 0.1,
    z: Math.cos(yaw) * Math.cos(pitch) * THROW_SPEED_BLOCKS_PER_TICK + Math.sin(spreadAngle) * spread,
  };
  const pos = player.position;
  return spawnItemEntity(serv, {
    world: player.world,
    position: { x: pos.x, y: pos.y + PLAYER_EYE_HEIGHT - THROW_BELOW_EYES_BLOCKS, z: pos.z },
    velocity: { x: perTick.x * TICKS_PER_SECOND, y: perTick.y * TICKS_PER_SECOND, z: perTick.z * TICKS_PER_SECOND },
    item,
    pickupDelayTicks: PLAYER_THROW_PICKUP_DELAY_TICKS,
  });
}

/**
 * Adds as much of `stack` as fits to the player's main inventory and hotbar, in vanilla order
 * (`Inventory.add`): first onto non-full stacks of the same item (selected hotbar slot, offhand,
 * hotbar, main), then into empty slots (hotbar, then main). Mutates `stack.count` to the
 * remainder. Does not sync the client.
 *
 * @returns the number of items added.
 */
export function addToInventory(session: InventorySession, stack: Item): number {
  const { serv, Item } = session;
  const menu = session.inventoryMenu;
  const selected = PLAYER_SLOTS.hotbarStart + (session.player.heldItemSlot ?? 0);
  const order = [selected, PLAYER_SLOTS.offhand];
  for (let s = PLAYER_SLOTS.hotbarStart; s < PLAYER_SLOTS.hotbarEnd; s++) order.push(s);
  for (let s = PLAYER_SLOTS.mainStart; s < PLAYER_SLOTS.hotbarStart; s++) order.push(s);
  const max = maxStack(serv, stack);
  const before = countOf(stack);
  let left = before;
  for (const s of order) {
    if (left === 0) break;
    const existing = menu.get(s);
    if (!existing || !sameItem(Item, existing, stack) || countOf(existing) >= max) continue;
    const moved = Math.min(left, max - countOf(existing));
    existing.count = countOf(existing) + moved;
    left -= moved;
  }
  for (const s of order.slice(2)) {
    if (left === 0) break;
    if (menu.get(s)) continue;
    const moved = Math.min(left, max);
    menu.set(s, withCount(Item, stack, moved));
    left -= moved;
  }
  stack.count = left;
  return before - left;
}

/**
 * Returns `stack` to the player's inventory, throwing what does not fit (vanilla
 * `Inventory.placeItemBackInInventory`, used when a window closes with items in its grid or on
 * the cursor). Does not sync the client.
 */
export function placeBackOrDrop(session: InventorySession, stack: Slot): void {
  if (!stack || countOf(stack) <= 0) return;
  addToInventory(session, stack);
  if (countOf(stack) > 0) throwFromPlayer(session, stack);
}

/**
 * Picks an item entity up for a player (replaces flying-squid's `player.collect`, which adds a
 * single item whatever the entity's count). Adds what fits, sends `collect` (mineflayer's
 * `playerCollect`) to the players around the item, removes the entity when fully taken or
 * updates its count otherwise, then syncs the collector's inventory.
 *
 * @returns the number of items picked up (0 when the inventory is full).
 */
export function collectItemEntity(session: InventorySession, entity: SquidEntity): number {
  const { serv, player, Item } = session;
  if (entity.itemId === undefined || entity.collected) return 0;
  const stack = new Item(entity.itemId, Number(entity.itemCount ?? 1)) as Item;
  const taken = addToInventory(session, stack);
  if (taken === 0) return 0;
  const watchers: SquidPlayer[] = entity.getNearbyPlayers?.() ?? [];
  if (!watchers.includes(player)) watchers.push(player);
  serv._writeArray('collect', { collectedEntityId: entity.id, collectorEntityId: player.id, pickupItemCount: taken }, watchers);
  // No pickup sound: flying-squid's sound_effect packet does not parse on 1.21 clients.
  if (countOf(stack) === 0) {
    entity.collected = true;
    entity.destroy();
  } else {
    entity.itemCount = countOf(stack);
    sendItemMetadata(serv, entity, watchers);
  }
  broadcastChanges(session);
  return taken;
}
