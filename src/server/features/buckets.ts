/**
 * Buckets, as vanilla 1.21 (Minecraft wiki "Bucket", "Cauldron"; `BucketItem`, `CauldronInteraction`):
 *
 * - Using an empty bucket (`use_item`, mineflayer `activateItem`) looks along the player's view
 *   (the yaw and pitch the packet carries, else the last reported look) for the first fluid
 *   *source* or block within the block interaction range (4.5 blocks from the eyes): a water or
 *   lava source becomes air (a waterlogged block loses its water) and the bucket a water or lava
 *   bucket.
 * - Using a water or lava bucket looks for the first block (fluids are looked through): water goes
 *   into that block when it is waterloggable, else into the block in front of the face looked at
 *   when that is air, a fluid or a replaceable plant; the bucket becomes empty.
 * - Using a bucket on a cauldron (`block_place`, mineflayer `activateBlock`): a water or lava bucket
 *   fills an empty cauldron (`water_cauldron` level 3, `lava_cauldron`) or tops up a water cauldron;
 *   an empty bucket takes a full cauldron's water or lava back.
 *
 * In survival mode a single bucket is replaced in the hand, one of a stack goes to the inventory,
 * and a filled bucket becomes an empty one; in creative mode buckets are not used up (a filled
 * bucket is added). The fill and empty sounds play for players nearby. Fluids do not flow on this
 * server: a placed source stays one block (see the README's "Out of scope").
 */
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';
import type { SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { blockAt, isAir, isReplaceable, isTrue, stateOf, withProperties } from '../services/blocks.ts';
import { DIRECTION_OFFSET, PLAYER_EYE_HEIGHT, type Direction, type Position } from '../services/geometry.ts';
import { giveItems } from '../services/inventory.ts';
import { handSlot, heldItem, itemClass, itemName } from '../services/items.ts';
import { movementOf } from '../services/movement.ts';

/** vanilla `Player.DEFAULT_BLOCK_INTERACTION_RANGE` (the `block_interaction_range` attribute), in blocks. */
export const BLOCK_INTERACTION_RANGE = 4.5;
/** vanilla crouching eye height (`Pose.CROUCHING`), in blocks. */
const CROUCHING_EYE_HEIGHT = 1.27;

/** The fluids a bucket holds, by filled bucket name. */
const FILLED: Record<string, 'water' | 'lava'> = { water_bucket: 'water', lava_bucket: 'lava' };
/** The filled bucket of each fluid. */
const BUCKET_OF: Record<'water' | 'lava', string> = { water: 'water_bucket', lava: 'lava_bucket' };
/** vanilla sounds (`SoundEvents.BUCKET_FILL`, …) by fluid. */
const FILL_SOUND = { water: 'item.bucket.fill', lava: 'item.bucket.fill_lava' } as const;
const EMPTY_SOUND = { water: 'item.bucket.empty', lava: 'item.bucket.empty_lava' } as const;

/** Where a look ray stops: the block and the face it entered through. */
export interface RayHit {
  position: Vec3;
  block: Block;
  face: Direction;
}

/**
 * The unit look vector of a Notchian yaw and pitch in degrees (vanilla `Entity.calculateViewVector`:
 * yaw 0 looks toward +z, 90 toward −x; pitch 90 looks down).
 */
export function lookVector(yawDegrees: number, pitchDegrees: number): Vec3 {
  const yaw = (yawDegrees * Math.PI) / 180;
  const pitch = (pitchDegrees * Math.PI) / 180;
  return new Vec3(-Math.sin(yaw) * Math.cos(pitch), -Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch));
}

/**
 * Walks the blocks a ray crosses, in order (Amanatides and Woo's grid traversal), and returns the
 * first one `stops` accepts, with the face the ray entered it by. Blocks are taken as whole cubes.
 *
 * @param maxDistance in blocks along the ray.
 */
export async function castRay(
  world: SquidWorld,
  origin: Vec3,
  direction: Vec3,
  maxDistance: number,
  stops: (block: Block) => boolean,
): Promise<RayHit | undefined> {
  const cell = [Math.floor(origin.x), Math.floor(origin.y), Math.floor(origin.z)];
  const dir = [direction.x, direction.y, direction.z];
  const start = [origin.x, origin.y, origin.z];
  const step = dir.map((d) => Math.sign(d));
  const tDelta = dir.map((d) => (d === 0 ? Infinity : Math.abs(1 / d)));
  const tMax = dir.map((d, i) => (d === 0 ? Infinity : (d > 0 ? cell[i]! + 1 - start[i]! : start[i]! - cell[i]!) * tDelta[i]!));
  // Faces entered when stepping along each axis in the negative and positive direction.
  const entered: Array<[Direction, Direction]> = [
    ['east', 'west'],
    ['up', 'down'],
    ['south', 'north'],
  ];
  // Before the first step the ray is in the eyes' own block: name the face it looks out of, reversed.
  const main = [0, 1, 2].reduce((a, b) => (Math.abs(dir[b]!) > Math.abs(dir[a]!) ? b : a));
  let face: Direction = entered[main]![step[main]! > 0 ? 1 : 0];
  let t = 0;
  while (t <= maxDistance) {
    const position = new Vec3(cell[0]!, cell[1]!, cell[2]!);
    const block = await blockAt(world, position);
    if (block && stops(block)) return { position, block, face };
    const axis = tMax[0]! < tMax[1]! ? (tMax[0]! < tMax[2]! ? 0 : 2) : tMax[1]! < tMax[2]! ? 1 : 2;
    t = tMax[axis]!;
    tMax[axis]! += tDelta[axis]!;
    cell[axis]! += step[axis]!;
    face = entered[axis]![step[axis]! > 0 ? 1 : 0];
  }
  return undefined;
}

/** Whether a block is a still fluid (level 0) of `fluid`, or holds water (a waterlogged block). */
function fluidSourceOf(block: Block): 'water' | 'lava' | undefined {
  if ((block.name === 'water' || block.name === 'lava') && Number(block.getProperties().level ?? 0) === 0) return block.name;
  return isTrue(block.getProperties().waterlogged) ? 'water' : undefined;
}

/** Blocks a look ray of a filled bucket stops at: anything but air and fluids. */
function isSolidForRay(block: Block): boolean {
  return !isAir(block.name) && block.name !== 'water' && block.name !== 'lava' && block.name !== 'bubble_column';
}

/** The player's eyes, in blocks. */
function eyesOf(player: SquidPlayer): Vec3 {
  return player.position.offset(0, movementOf(player).sneaking ? CROUCHING_EYE_HEIGHT : PLAYER_EYE_HEIGHT, 0);
}

/** Puts `filled` (one of it) in place of the held empty bucket, as for milk. */
function fillHeld(serv: SquidServer, player: SquidPlayer, hand: number, filled: string): void {
  const item = heldItem(player, hand);
  if (!item) return;
  if (player.gameMode === 1) {
    giveItems(player, filled, 1);
    return;
  }
  if (item.count === 1) {
    player.inventory.updateSlot(handSlot(player, hand), new (itemClass(serv))(serv.registry.itemsByName[filled]!.id, 1));
    return;
  }
  item.count -= 1;
  player.inventory.updateSlot(handSlot(player, hand), item);
  giveItems(player, filled, 1);
}

/** Turns the held filled bucket into an empty one (survival). */
function emptyHeld(serv: SquidServer, player: SquidPlayer, hand: number): void {
  if (player.gameMode === 1) return;
  player.inventory.updateSlot(handSlot(player, hand), new (itemClass(serv))(serv.registry.itemsByName.bucket!.id, 1));
}

function playSound(serv: SquidServer, world: SquidWorld, at: Position, sound: string): void {
  serv.playSound?.(sound, world, new Vec3(at.x + 0.5, at.y + 0.5, at.z + 0.5), { soundCategory: 'block', radius: 16 });
}

/**
 * One `use_item` of a bucket. Returns whether the bucket did something.
 *
 * @param look yaw and pitch in degrees (the packet's, else the last reported).
 */
export async function useBucket(
  serv: SquidServer,
  player: SquidPlayer,
  hand: number,
  look: { yaw: number; pitch: number },
): Promise<boolean> {
  const item = heldItem(player, hand);
  if (!item || player.health <= 0 || player.gameMode === 3 || player.gameMode === 2) return false;
  const name = itemName(serv, item);
  const world = player.world;
  const eyes = eyesOf(player);
  const direction = lookVector(look.yaw, look.pitch);
  if (name === 'bucket') {
    const hit = await castRay(world, eyes, direction, BLOCK_INTERACTION_RANGE, (b) => fluidSourceOf(b) !== undefined || isSolidForRay(b));
    const fluid = hit && fluidSourceOf(hit.block);
    if (!hit || !fluid) return false;
    const drained = hit.block.name === fluid ? stateOf(serv, 'air') : withProperties(serv, hit.block, { waterlogged: false });
    await serv.setBlock(world, hit.position, drained);
    fillHeld(serv, player, hand, BUCKET_OF[fluid]);
    playSound(serv, world, hit.position, FILL_SOUND[fluid]);
    return true;
  }
  const fluid = FILLED[name];
  if (!fluid) return false;
  const hit = await castRay(world, eyes, direction, BLOCK_INTERACTION_RANGE, isSolidForRay);
  if (!hit) return false;
  if (fluid === 'water' && 'waterlogged' in hit.block.getProperties() && !isTrue(hit.block.getProperties().waterlogged)) {
    await serv.setBlock(world, hit.position, withProperties(serv, hit.block, { waterlogged: true }));
    emptyHeld(serv, player, hand);
    playSound(serv, world, hit.position, EMPTY_SOUND[fluid]);
    return true;
  }
  const o = DIRECTION_OFFSET[hit.face];
  const target = hit.position.offset(o.x, o.y, o.z);
  const there = await blockAt(world, target);
  if (!isReplaceable(there)) return false;
  await serv.setBlock(world, target, stateOf(serv, fluid, { level: 0 }));
  emptyHeld(serv, player, hand);
  playSound(serv, world, target, EMPTY_SOUND[fluid]);
  return true;
}

/** vanilla `LayeredCauldronBlock.MAX_FILL_LEVEL`. */
const FULL_CAULDRON = 3;

/** A bucket used on a cauldron (`CauldronInteraction`): fills or drains it. Returns whether it did. */
export async function useBucketOnCauldron(
  serv: SquidServer,
  player: SquidPlayer,
  block: Block & { position: Vec3 },
  hand = 0,
): Promise<boolean> {
  const item = heldItem(player, hand);
  if (!item || player.gameMode === 3) return false;
  const name = itemName(serv, item);
  const fluid = FILLED[name];
  const world = player.world;
  if (fluid && (block.name === 'cauldron' || (fluid === 'water' && block.name === 'water_cauldron'))) {
    const state = fluid === 'water' ? stateOf(serv, 'water_cauldron', { level: FULL_CAULDRON }) : stateOf(serv, 'lava_cauldron');
    await serv.setBlock(world, block.position, state);
    emptyHeld(serv, player, hand);
    playSound(serv, world, block.position, EMPTY_SOUND[fluid]);
    return true;
  }
  const full =
    block.name === 'lava_cauldron'
      ? 'lava'
      : block.name === 'water_cauldron' && Number(block.getProperties().level) === FULL_CAULDRON
        ? 'water'
        : undefined;
  if (name === 'bucket' && full) {
    await serv.setBlock(world, block.position, stateOf(serv, 'cauldron'));
    fillHeld(serv, player, hand, BUCKET_OF[full]);
    playSound(serv, world, block.position, FILL_SOUND[full]);
    return true;
  }
  return false;
}

/** Installs bucket use and cauldron filling on a started server. */
export function installBuckets(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    let queue: Promise<unknown> = Promise.resolve();
    player._client.on('use_item', (packet: { hand?: number; rotation?: { x: number; y: number } }) => {
      const move = movementOf(player);
      const look = packet.rotation ? { yaw: packet.rotation.x, pitch: packet.rotation.y } : { yaw: move.yaw, pitch: move.pitch };
      queue = queue.then(() => useBucket(serv, player, packet.hand ?? 0, look)).catch((err: unknown) => serv.emit('error', err));
    });
  });
  for (const cauldron of ['cauldron', 'water_cauldron', 'lava_cauldron'])
    serv.onBlockInteraction(cauldron, ({ block, player }) => useBucketOnCauldron(serv, player, block));
}
