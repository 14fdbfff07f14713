/**
 * Item entities: spawning stacks into the world the ways vanilla does (thrown by a player,
 * popped from a broken block, spilled from a container or a dying player) and their item-stack
 * metadata on 1.20.2+. Picking them up is the inventory service's (./inventory.ts).
 */
import type { Item } from 'prismarine-item';
import type { SquidEntity, SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { PLAYER_EYE_HEIGHT, perTickToPerSecond, ticksToMs, toVec, type Position } from './geometry.ts';
import { countOf, itemClass, withCount, type Slot } from './items.ts';
import type { DropStack } from './loot.ts';
import { movementOf } from './movement.ts';
import { metadataIndex } from './protocol.ts';

/** vanilla: an item thrown by a player cannot be picked up for 40 ticks (Minecraft wiki, "Item (entity)"). */
export const PLAYER_THROW_PICKUP_DELAY_TICKS = 40;
/** vanilla: a block's drop cannot be picked up for 10 ticks (`ItemEntity` default pickup delay). */
export const BLOCK_DROP_PICKUP_DELAY_TICKS = 10;
/** vanilla: an item entity despawns after 6000 ticks (5 minutes) on the ground (Minecraft wiki). */
export const ITEM_DESPAWN_TICKS = 6000;
/** vanilla (Player.drop): a thrown item leaves 0.3 blocks below the eyes at 0.3 blocks/tick, plus 0.1 upward. */
const THROW_SPEED_BLOCKS_PER_TICK = 0.3;
const THROW_LIFT_BLOCKS_PER_TICK = 0.1;
const THROW_BELOW_EYES_BLOCKS = 0.3;

/** Where and how {@link spawnItemEntity} spawns a stack. */
export interface SpawnItemOptions {
  world: SquidWorld;
  /** Centre of the item entity, in blocks. */
  position: Position;
  /** Initial velocity in blocks per second (flying-squid's physics unit). */
  velocity?: Position;
  /** The stack the entity carries (copied). */
  item: Item;
  /** Ticks before anyone can pick it up. */
  pickupDelayTicks: number;
}

/**
 * Spawns an item entity carrying `item` and shows it to nearby players. It falls and slides in
 * short physics steps ({@link moveInShortSteps}); the inventory service gives it to a player who
 * touches it once the pickup delay has passed; flying-squid removes it after {@link ITEM_DESPAWN_TICKS}.
 *
 * @returns the flying-squid entity (`itemId`, `itemCount` hold the stack; components are not kept).
 */
export function spawnItemEntity(serv: SquidServer, options: SpawnItemOptions): SquidEntity {
  const v = options.velocity ?? { x: 0, y: 0, z: 0 };
  const entity = serv.spawnObject(serv.registry.entitiesByName.item!.id, options.world, toVec(options.position), {
    velocity: toVec(v),
    itemId: options.item.type,
    itemCount: countOf(options.item),
    pickupTime: ticksToMs(options.pickupDelayTicks),
    deathTime: ticksToMs(ITEM_DESPAWN_TICKS),
  });
  moveInShortSteps(entity);
  noMovesOnceGone(serv, entity);
  return entity;
}

/**
 * flying-squid's entity tick sends a move after each physics step, which awaits the world: an item
 * picked up (removed) meanwhile was still moved on the clients, and mineflayer then made a new
 * entity for the unknown id at 0 0 0 (a hand-over reported as lying there). Vanilla sends nothing
 * for an entity once it is removed; nor does this.
 */
function noMovesOnceGone(serv: SquidServer, entity: SquidEntity): void {
  const send = entity.sendPosition;
  entity.sendPosition = async (position, onGround, teleport) => (serv.entities[entity.id] === entity ? send(position, onGround, teleport) : false);
}

/** Longest physics step (s): one vanilla tick. */
const MAX_STEP_S = 0.05;
/** Farthest an entity moves along an axis in one physics step (blocks): under a block, so none is passed through. */
const MAX_STEP_BLOCKS = 0.4;
/** Speed (blocks/s) gravity can add within one step: flying-squid's 20 blocks/s² over {@link MAX_STEP_S}. */
const GRAVITY_PER_STEP = 20 * MAX_STEP_S;

/**
 * flying-squid moves an entity once per server tick by `velocity × delta`, `delta` being the real
 * time since the last tick, and looks for a block only at the end of the move. A server that
 * stalls half a second (a loaded machine, many bots) makes one step of many blocks, and an item
 * thrown at a player's feet fell through the floor and out of the world: a hand-over nobody ever
 * saw again. Vanilla steps 20 times a second and collides along the way; here each step is cut
 * into moves of at most one tick and {@link MAX_STEP_BLOCKS} along any axis, each with flying-squid's
 * own block test.
 */
function moveInShortSteps(entity: SquidEntity): void {
  const step = entity.calculatePhysics;
  entity.calculatePhysics = async (delta) => {
    const start = entity.position;
    let result = { position: start, onGround: false };
    try {
      let left = delta;
      do {
        const v = entity.velocity;
        const speed = Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z)) + GRAVITY_PER_STEP;
        const dt = Math.min(left, MAX_STEP_S, MAX_STEP_BLOCKS / speed);
        entity.position = result.position;
        result = await step(dt);
        left -= dt;
        // Landed: the rest of the tick is spent at rest (a short last step from the landing spot
        // left a resting item falling again, its velocity never zero on a server ticking late).
      } while (left > 0 && !result.onGround);
    } finally {
      // The entity tick moves the entity (and tells the clients) from where it was.
      entity.position = start;
    }
    return result;
  };
}

/**
 * Writes an item entity's item-stack metadata (`entity_metadata`) to `players`. flying-squid
 * skips entity metadata on 1.20.2+, without which clients (mineflayer's `itemDrop`,
 * `entity.getDroppedItem()`) never learn what an item entity holds. No-op before 1.20.2,
 * where flying-squid sends it itself.
 */
export function sendItemMetadata(serv: SquidServer, entity: SquidEntity, players: SquidPlayer[]): void {
  if (!serv.registry.version['>=']('1.20.2')) return;
  const key = metadataIndex(serv, serv.registry.entitiesByName.item?.id, 'item');
  if (key < 0 || entity.itemId === undefined) return;
  const Item = itemClass(serv);
  const stack = new Item(entity.itemId, Number(entity.itemCount ?? 1));
  const packet = { entityId: entity.id, metadata: [{ key, type: 'item_stack', value: Item.toNotch(stack) }] };
  for (const p of players) p._client.write('entity_metadata', packet);
}

/**
 * Throws `item` from a player's eyes along their look direction (as last reported by their
 * client), as vanilla `Player.drop`: 0.3 blocks/tick forward, +0.1 blocks/tick up, a small random
 * spread, and the player throw pickup delay of {@link PLAYER_THROW_PICKUP_DELAY_TICKS} ticks.
 */
export function throwFromPlayer(serv: SquidServer, player: SquidPlayer, item: Item): SquidEntity {
  const look = movementOf(player);
  const yaw = (look.yaw * Math.PI) / 180;
  const pitch = (look.pitch * Math.PI) / 180;
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
    velocity: perTickToPerSecond(perTick),
    item,
    pickupDelayTicks: PLAYER_THROW_PICKUP_DELAY_TICKS,
  });
}

/**
 * Throws an item stack from a (dying) player in a random direction (vanilla `Player.drop` with
 * `dropAround`: up to 0.5 blocks/tick sideways, 0.2 up), with the player throw pickup delay.
 */
export function dropAround(serv: SquidServer, player: SquidPlayer, item: Item): SquidEntity {
  const speed = Math.random() * 0.5;
  const angle = Math.random() * Math.PI * 2;
  const p = player.position;
  return spawnItemEntity(serv, {
    world: player.world,
    position: { x: p.x, y: p.y + PLAYER_EYE_HEIGHT - THROW_BELOW_EYES_BLOCKS, z: p.z },
    velocity: perTickToPerSecond({ x: -Math.sin(angle) * speed, y: 0.2, z: Math.cos(angle) * speed }),
    item,
    pickupDelayTicks: PLAYER_THROW_PICKUP_DELAY_TICKS,
  });
}

/**
 * Spawns item entities for `drops` inside the block at `position`, as vanilla
 * `Block.popResource`: a random point within the middle of the block, ±0.1 blocks/tick sideways
 * and 0.2 up. Unknown item names are skipped.
 */
export function popDrops(serv: SquidServer, world: SquidWorld, position: Position, drops: DropStack[]): void {
  const Item = itemClass(serv);
  for (const drop of drops) {
    const info = serv.registry.itemsByName[drop.item];
    if (!info) continue;
    spawnItemEntity(serv, {
      world,
      position: { x: position.x + 0.25 + Math.random() * 0.5, y: position.y + 0.25 + Math.random() * 0.5 - 0.125, z: position.z + 0.25 + Math.random() * 0.5 },
      velocity: perTickToPerSecond({ x: Math.random() * 0.2 - 0.1, y: 0.2, z: Math.random() * 0.2 - 0.1 }),
      item: new Item(info.id, drop.count),
      pickupDelayTicks: BLOCK_DROP_PICKUP_DELAY_TICKS,
    });
  }
}

/**
 * Drops `stacks` around a block as vanilla `Containers.dropItemStack` does: each stack in
 * random pieces of 10–30 items, from random points inside the block, with a small random push
 * (up by about 0.2 blocks/tick).
 */
export function dropContents(serv: SquidServer, world: SquidWorld, position: Position, stacks: Slot[]): void {
  const Item = itemClass(serv);
  const triangle = (mode: number, deviation: number): number => mode + deviation * (Math.random() - Math.random());
  for (const stack of stacks) {
    let left = countOf(stack);
    while (stack && left > 0) {
      const n = Math.min(left, 10 + Math.floor(Math.random() * 21));
      left -= n;
      spawnItemEntity(serv, {
        world,
        position: { x: position.x + 0.125 + Math.random() * 0.75, y: position.y + 0.125 + Math.random() * 0.75, z: position.z + 0.125 + Math.random() * 0.75 },
        velocity: perTickToPerSecond({ x: triangle(0, 0.11485), y: triangle(0.2, 0.11485), z: triangle(0, 0.11485) }),
        item: withCount(Item, stack, n),
        pickupDelayTicks: BLOCK_DROP_PICKUP_DELAY_TICKS,
      });
    }
  }
}

/**
 * Spawns item entities for `drops` where a mob stands (vanilla `Entity.spawnAtLocation`): half a
 * block above its feet, a small random horizontal toss and 0.2 blocks/tick up.
 */
export function dropFromEntity(serv: SquidServer, entity: SquidEntity, drops: DropStack[], pickupDelayTicks = BLOCK_DROP_PICKUP_DELAY_TICKS): void {
  const Item = itemClass(serv);
  const pos = entity.position;
  for (const drop of drops) {
    const info = serv.registry.itemsByName[drop.item];
    if (!info) continue;
    spawnItemEntity(serv, {
      world: entity.world,
      position: { x: pos.x, y: pos.y + 0.5, z: pos.z },
      velocity: perTickToPerSecond({ x: (Math.random() - 0.5) / 10, y: 0.2, z: (Math.random() - 0.5) / 10 }),
      item: new Item(info.id, drop.count),
      pickupDelayTicks,
    });
  }
}
