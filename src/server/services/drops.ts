/**
 * Item entities: spawning stacks into the world the ways vanilla does (thrown by a player,
 * popped from a broken block, spilled from a container or a dying player) and their item-stack
 * metadata on 1.20.2+. Picking them up is the inventory service's (./inventory.ts).
 */
import type { Item } from 'prismarine-item';
import { Vec3 } from 'vec3';
import type { SquidEntity, SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { moveWithCollisions, type EntityBox } from './collision.ts';
import { PLAYER_EYE_HEIGHT, perTickToPerSecond, TICKS_PER_SECOND, ticksToMs, toVec, type Position } from './geometry.ts';
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
  /** Feet of the item entity (the centre of its bottom face, as vanilla), in blocks. */
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
 * vanilla's item physics ({@link itemPhysics}); the inventory service gives it to a player who
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
  entity.onGround = false; // vanilla: a new entity is not on the ground until its first move lands it
  itemPhysics(serv, entity);
  vanillaPositionUpdates(serv, entity);
  return entity;
}

/**
 * An item entity's position updates, as vanilla's `ServerEntity.sendChanges` makes them:
 * - none once it is removed: flying-squid's entity tick sends a move after each physics step,
 *   which awaits the world, so an item picked up meanwhile was still moved on the clients, and
 *   mineflayer then made a new entity for the unknown id at 0 0 0 (a hand-over reported as lying
 *   there);
 * - the absolute position (`entity_teleport`) when it lands or leaves the ground: flying-squid's
 *   deltas are floored to 1/4096 block, so a client saw an item resting on a floor at y = -61 a
 *   hair lower, in the block below (mineflayer-collectblock then dug that block to reach it).
 */
function vanillaPositionUpdates(serv: SquidServer, entity: SquidEntity): void {
  const send = entity.sendPosition;
  entity.sendPosition = async (position, onGround, teleport) => {
    if (serv.entities[entity.id] !== entity) return false;
    const landingChanged = onGround !== entity.onGround;
    const sent = await send(position, onGround, teleport);
    if (landingChanged && serv.entities[entity.id] === entity) {
      const at = entity.position;
      entity._writeOthersNearby('entity_teleport', {
        entityId: entity.id,
        x: at.x,
        y: at.y,
        z: at.z,
        yaw: entity.yaw,
        pitch: entity.pitch,
        onGround,
      });
      entity.knownPosition = at.clone();
    }
    return sent;
  };
}

/** One vanilla tick (s): the item physics runs in whole ticks of the real time that passed. */
const TICK_S = 1 / TICKS_PER_SECOND;
/** The most physics one entity tick catches up on (s): a longer stall is not replayed. */
const MAX_CATCH_UP_S = 1;
/** vanilla `EntityType.ITEM`: 0.25 × 0.25 blocks. */
const ITEM_BOX: EntityBox = { halfWidth: 0.125, height: 0.25 };
/** vanilla `ItemEntity.tick`: gravity (blocks/tick²) and drag per tick. */
const ITEM_GRAVITY = 0.04;
const ITEM_DRAG = 0.98;
/**
 * vanilla: on the ground the horizontal drag is the block's friction × 0.98; 0.6 is every block's
 * friction but ice, packed/blue/frosted ice and slime (not modelled here).
 */
const ITEM_GROUND_DRAG = 0.6 * 0.98;
/** vanilla `ItemEntity.setUnderwaterMovement`: drag in water per tick, and the lift (blocks/tick²) while rising slower than 0.06. */
const ITEM_WATER_DRAG = 0.99;
const ITEM_WATER_LIFT = 5e-4;
const ITEM_WATER_LIFT_BELOW = 0.06;
/** vanilla: an item floats when the water reaches higher above its bottom than its eyes (0.85 × 0.25) − 0.111 blocks. */
const ITEM_FLOAT_DEPTH = 0.85 * 0.25 - 0.111;
/** vanilla: on the ground an item moves only every 4th tick once its horizontal motion² is at most this (blocks²/tick²); here it stops. */
const ITEM_REST_SQR = 1e-5;

/**
 * Height of water in the cell (x, y, z) above the cell's bottom (blocks; 0 = no water), from its
 * `level` (vanilla `FlowingFluid`: a source or waterlogged block 8/9, level n 1–7 (8 − n)/9, falling 1)
 * or 1 when water continues above.
 */
function waterHeight(world: SquidWorld, x: number, y: number, z: number): number {
  const water = (block: ReturnType<SquidWorld['sync']['getBlock']> | undefined) =>
    !!block && (block.name === 'water' || block.getProperties().waterlogged === true);
  const at = world.sync.getColumnAt(new Vec3(x, y, z)) ? world.sync.getBlock(new Vec3(x, y, z)) : undefined;
  if (!water(at)) return 0;
  if (water(world.sync.getBlock(new Vec3(x, y + 1, z)))) return 1;
  const level = Number(at!.getProperties().level ?? 0);
  return level >= 8 ? 1 : (8 - level) / 9;
}

/** Whether an item with its bottom at `feet` floats (water higher above its bottom than {@link ITEM_FLOAT_DEPTH}). */
function floats(world: SquidWorld, feet: Vec3): boolean {
  const x = Math.floor(feet.x);
  const z = Math.floor(feet.z);
  for (let y = Math.floor(feet.y + ITEM_BOX.height); y >= Math.floor(feet.y); y--) {
    const h = waterHeight(world, x, y, z);
    if (h > 0) return y + h - feet.y > ITEM_FLOAT_DEPTH;
  }
  return false;
}

/**
 * Replaces flying-squid's physics of an item entity with vanilla's `ItemEntity.tick`, run once
 * per 50 ms of the real time that passed ({@link TICK_S}, up to {@link MAX_CATCH_UP_S} at once):
 * gravity 0.04 blocks/tick² and drag 0.98, ground friction 0.6 × 0.98, floating in water,
 * collisions with the blocks' shapes along the whole move (../services/collision.ts). At rest its
 * velocity is exactly zero, so flying-squid stops sending its position.
 *
 * flying-squid's own step (`velocity × delta`, one block test at the end of the move, no drag)
 * made items skid about twice as far as vanilla's, bob up and down on the ground by half their
 * size, and fall through the floor when the server stalled: a hand-over aimed at a player's feet
 * ended out of their reach, or out of the world.
 */
function itemPhysics(serv: SquidServer, entity: SquidEntity): void {
  let owed = 0;
  let onGround = false;
  entity.calculatePhysics = async (delta) => {
    owed = Math.min(owed + delta, MAX_CATCH_UP_S);
    const feet = entity.position.clone();
    // flying-squid keeps blocks/s (its `/velocity` adds to it); vanilla's motion is blocks/tick.
    const motion = entity.velocity.scaled(TICK_S);
    for (; owed >= TICK_S; owed -= TICK_S) {
      if (floats(entity.world, feet)) {
        motion.x *= ITEM_WATER_DRAG;
        motion.z *= ITEM_WATER_DRAG;
        if (motion.y < ITEM_WATER_LIFT_BELOW) motion.y += ITEM_WATER_LIFT;
      } else {
        motion.y -= ITEM_GRAVITY;
      }
      const horizontalSqr = motion.x * motion.x + motion.z * motion.z;
      if (onGround && horizontalSqr <= ITEM_REST_SQR) {
        motion.x = 0;
        motion.z = 0;
      }
      onGround = moveWithCollisions(serv, entity.world, ITEM_BOX, feet, motion);
      const drag = onGround ? ITEM_GROUND_DRAG : ITEM_DRAG;
      motion.x *= drag;
      motion.y *= ITEM_DRAG;
      motion.z *= drag;
    }
    entity.velocity = motion.scaled(1 / TICK_S);
    return { position: feet, onGround };
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
      position: {
        x: position.x + 0.25 + Math.random() * 0.5,
        y: position.y + 0.25 + Math.random() * 0.5 - 0.125,
        z: position.z + 0.25 + Math.random() * 0.5,
      },
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
        position: {
          x: position.x + 0.125 + Math.random() * 0.75,
          y: position.y + 0.125 + Math.random() * 0.75,
          z: position.z + 0.125 + Math.random() * 0.75,
        },
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
export function dropFromEntity(
  serv: SquidServer,
  entity: SquidEntity,
  drops: DropStack[],
  pickupDelayTicks = BLOCK_DROP_PICKUP_DELAY_TICKS,
): void {
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
