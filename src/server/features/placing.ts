/**
 * Right-clicking blocks (`block_place`), as vanilla 1.21 `ServerPlayerGameMode.useItemOn`:
 * 1. using the clicked block (unless sneaking with an item): doors, trapdoors and fence gates
 *    open/close (not the iron ones), and blocks other features registered with flying-squid's
 *    `serv.onBlockInteraction` are used (beds are slept in, containers, furnaces and crafting
 *    tables open their window, levers flip);
 * 2. items: a hoe turns dirt / grass / dirt path into farmland (and coarse dirt into dirt),
 *    seeds plant their crop on farmland, and these blocks get the state vanilla's
 *    `getStateForPlacement` gives from the clicked face, the click point and the player's yaw:
 *    doors (two halves, hinge), beds (foot + head), trapdoors, fence gates, stairs, slabs
 *    (merging into double slabs), torches (floor or wall), carpets (need a block below), levers
 *    and buttons (floor, wall or ceiling).
 * Other items are placed through flying-squid's placement registry (`serv.placeItem`, which
 * plugins extend with `serv.onItemPlace`, e.g. chests and furnaces facing the player). This
 * replaces flying-squid's own `block_place` listener. Afterwards the clicked block and the block across the
 * clicked face are re-sent to the player, as vanilla does, so a refused placement is visible at
 * once (mineflayer's `placeBlock` waits for them).
 */
import type { Block } from 'prismarine-block';
import type { Item } from 'prismarine-item';
import type { Vec3 } from 'vec3';
import type { SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { blockAt, isReplaceable, isSolid, isTrue, stateOf, withProperties, type PropertyValue } from '../services/blocks.ts';
import { cropForSeed, TILLED } from '../services/farming.ts';
import { switchKinds } from '../../game/switches.ts';
import { doorHinge } from '../../game/placement.ts';
import {
  BLOCK_REACH,
  FACES,
  OPPOSITE,
  PLAYER_EYE_HEIGHT,
  PLAYER_HALF_WIDTH,
  PLAYER_HEIGHT,
  horizontalFacing,
  offset,
  vec,
  type Direction,
  type Horizontal,
  type Position,
} from '../services/geometry.ts';
import { consumeHeld, damageHeldTool, heldItem } from '../services/items.ts';
import { movementOf } from '../services/movement.ts';

/** The fields of a `block_place` packet placing reads. */
interface PlacePacket {
  location: Position;
  direction: number;
  hand?: number;
  cursorX?: number;
  cursorY?: number;
  cursorZ?: number;
  sequence?: number;
}

/** A right-click on a block, resolved. */
interface UseContext {
  serv: SquidServer;
  player: SquidPlayer;
  /** The clicked block and its position. */
  pos: Vec3;
  block: Block;
  face: Direction;
  /** Click point relative to the clicked block's corner (0–1 each). */
  cursor: Position;
  /** Player's horizontal look direction. */
  facing: Horizontal;
}

function toggleable(name: string): boolean {
  if (name.startsWith('iron_')) return false;
  return name.endsWith('_door') || name.endsWith('_trapdoor') || name.endsWith('_fence_gate');
}

/** Opens or closes a door (both halves), trapdoor or fence gate (vanilla `DoorBlock.useWithoutItem` etc.). */
async function toggle(ctx: UseContext): Promise<void> {
  const { serv, player, pos, block } = ctx;
  const props = block.getProperties();
  const open = !isTrue(props.open);
  const changes: Record<string, PropertyValue> = { open };
  // vanilla FenceGateBlock: opening towards the player turns the gate to face away from them.
  if (block.name.endsWith('_fence_gate') && open && props.facing === OPPOSITE[ctx.facing]) changes.facing = ctx.facing;
  await serv.setBlock(player.world, pos, withProperties(serv, block, changes));
  if (block.name.endsWith('_door')) {
    const other = vec(pos.x, pos.y + (props.half === 'lower' ? 1 : -1), pos.z);
    const otherBlock = await blockAt(player.world, other);
    if (otherBlock?.name === block.name) await serv.setBlock(player.world, other, withProperties(serv, otherBlock, { open }));
  }
}

/** True when no player's hitbox overlaps the block cell at `pos`. */
function cellFree(serv: SquidServer, world: SquidWorld, pos: Position): boolean {
  return !serv.players.some(
    (p) =>
      p.world === world &&
      p.health > 0 &&
      p.gameMode !== 3 &&
      p.position.x + PLAYER_HALF_WIDTH > pos.x &&
      p.position.x - PLAYER_HALF_WIDTH < pos.x + 1 &&
      p.position.z + PLAYER_HALF_WIDTH > pos.z &&
      p.position.z - PLAYER_HALF_WIDTH < pos.z + 1 &&
      p.position.y + PLAYER_HEIGHT > pos.y &&
      p.position.y < pos.y + 1,
  );
}

/** Where a placement goes: the clicked block when it is replaceable, else across the face (if replaceable). */
async function target(ctx: UseContext): Promise<{ at: Vec3; replacingClicked: boolean } | null> {
  if (isReplaceable(ctx.block)) return { at: ctx.pos, replacingClicked: true };
  const at = offset(ctx.pos, ctx.face);
  return isReplaceable(await blockAt(ctx.player.world, at)) ? { at, replacingClicked: false } : null;
}

/** Click point's height within the target block (vanilla `clickLocation.y - pos.y`). */
function clickY(ctx: UseContext, at: Position): number {
  return ctx.pos.y + ctx.cursor.y - at.y;
}

/** Places the held item for a click (setting every block it needs); resolves false when vanilla would refuse. */
type Placer = (ctx: UseContext, itemName: string) => Promise<boolean>;

const placeDoor: Placer = async (ctx, name) => {
  const { serv, player } = ctx;
  const t = await target(ctx);
  if (!t) return false;
  const upper = vec(t.at.x, t.at.y + 1, t.at.z);
  if (!isReplaceable(await blockAt(player.world, upper))) return false;
  if (!isSolid(await blockAt(player.world, vec(t.at.x, t.at.y - 1, t.at.z)))) return false;
  if (!cellFree(serv, player.world, t.at) || !cellFree(serv, player.world, upper)) return false;
  const hinge = doorHinge(ctx.facing, ctx.pos.x + ctx.cursor.x - t.at.x, ctx.pos.z + ctx.cursor.z - t.at.z);
  const props = { facing: ctx.facing, hinge, open: false, powered: false };
  await serv.setBlock(player.world, t.at, stateOf(serv, name, { ...props, half: 'lower' }));
  await serv.setBlock(player.world, upper, stateOf(serv, name, { ...props, half: 'upper' }));
  return true;
};

const placeBed: Placer = async (ctx, name) => {
  const { serv, player } = ctx;
  const t = await target(ctx);
  if (!t) return false;
  const head = offset(t.at, ctx.facing);
  if (!isReplaceable(await blockAt(player.world, head))) return false;
  if (!cellFree(serv, player.world, t.at) || !cellFree(serv, player.world, head)) return false;
  await serv.setBlock(player.world, t.at, stateOf(serv, name, { facing: ctx.facing, part: 'foot', occupied: false }));
  await serv.setBlock(player.world, head, stateOf(serv, name, { facing: ctx.facing, part: 'head', occupied: false }));
  return true;
};

/** Places a single block with the given properties at the target, when free. */
async function placeSingle(
  ctx: UseContext,
  name: string,
  props: (at: Vec3, replacingClicked: boolean) => Record<string, PropertyValue> | null,
  collides = true,
): Promise<boolean> {
  const t = await target(ctx);
  if (!t) return false;
  if (collides && !cellFree(ctx.serv, ctx.player.world, t.at)) return false;
  const p = props(t.at, t.replacingClicked);
  if (!p) return false;
  await ctx.serv.setBlock(ctx.player.world, t.at, stateOf(ctx.serv, name, p));
  return true;
}

const placeTrapdoor: Placer = (ctx, name) =>
  placeSingle(ctx, name, (at, replacingClicked) => {
    if (!replacingClicked && ctx.face !== 'up' && ctx.face !== 'down') {
      return { facing: ctx.face, half: clickY(ctx, at) > 0.5 ? 'top' : 'bottom', open: false };
    }
    return { facing: OPPOSITE[ctx.facing], half: ctx.face === 'up' ? 'bottom' : 'top', open: false };
  });

const placeFenceGate: Placer = (ctx, name) => placeSingle(ctx, name, () => ({ facing: ctx.facing, open: false }));

/** vanilla StairBlock / SlabBlock: bottom half unless clicking a ceiling or the upper half of a side. */
function lowerHalf(ctx: UseContext, at: Position): boolean {
  return ctx.face !== 'down' && (ctx.face === 'up' || clickY(ctx, at) <= 0.5);
}

const placeStairs: Placer = (ctx, name) =>
  placeSingle(ctx, name, (at) => ({
    facing: ctx.facing,
    half: lowerHalf(ctx, at) ? 'bottom' : 'top',
    shape: 'straight',
  }));

const placeSlab: Placer = async (ctx, name) => {
  const { serv, player, block } = ctx;
  // Clicking the open side of the same slab completes it (vanilla `SlabBlock.canBeReplaced`).
  const type = (b: Block | null): string | undefined => {
    const value = b?.name === name ? b.getProperties().type : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const clickedType = type(block);
  if ((clickedType === 'bottom' && ctx.face === 'up') || (clickedType === 'top' && ctx.face === 'down')) {
    await serv.setBlock(player.world, ctx.pos, withProperties(serv, block, { type: 'double' }));
    return true;
  }
  const across = offset(ctx.pos, ctx.face);
  const acrossBlock = await blockAt(player.world, across);
  const acrossType = type(acrossBlock);
  if (acrossType && acrossType !== 'double') {
    await serv.setBlock(player.world, across, withProperties(serv, acrossBlock, { type: 'double' }));
    return true;
  }
  return placeSingle(ctx, name, (at) => ({ type: lowerHalf(ctx, at) ? 'bottom' : 'top' }));
};

const placeTorch: Placer = async (ctx, name) => {
  const { serv, player } = ctx;
  const wall = name.replace(/torch$/, 'wall_torch');
  const t = await target(ctx);
  if (!t) return false;
  if (ctx.face === 'up') {
    if (!isSolid(await blockAt(player.world, vec(t.at.x, t.at.y - 1, t.at.z)))) return false;
    await serv.setBlock(player.world, t.at, stateOf(serv, name));
    return true;
  }
  if (ctx.face === 'down' || !serv.registry.blocksByName[wall]) return false;
  if (!isSolid(await blockAt(player.world, offset(t.at, OPPOSITE[ctx.face])))) return false;
  const props: Record<string, string> = serv.registry.blocksByName[wall]?.states?.some((s) => s.name === 'facing')
    ? { facing: ctx.face }
    : {};
  await serv.setBlock(player.world, t.at, stateOf(serv, wall, props));
  return true;
};

/**
 * Levers and buttons (vanilla `FaceAttachedHorizontalDirectionalBlock.getStateForPlacement`, first
 * looking direction: against the clicked face): on a block's top `face=floor` and on its bottom
 * `face=ceiling`, both `facing` the player's look; on a side `face=wall`, `facing` out of that
 * side. The block it hangs on must be solid (`canSurvive`).
 */
const placeFaceAttached: Placer = async (ctx, name) => {
  const t = await target(ctx);
  if (!t) return false;
  // (Replacing a clicked plant, vanilla tries the player's looking directions; the click's face stands in.)
  const against = OPPOSITE[ctx.face];
  if (!isSolid(await blockAt(ctx.player.world, offset(t.at, against)))) return false;
  const props =
    against === 'down'
      ? { face: 'floor', facing: ctx.facing }
      : against === 'up'
        ? { face: 'ceiling', facing: ctx.facing }
        : { face: 'wall', facing: OPPOSITE[against] };
  await ctx.serv.setBlock(ctx.player.world, t.at, stateOf(ctx.serv, name, { ...props, powered: false }));
  return true;
};

const placeCarpet: Placer = async (ctx, name) => {
  const t = await target(ctx);
  if (!t) return false;
  const below = await blockAt(ctx.player.world, vec(t.at.x, t.at.y - 1, t.at.z));
  if (!below || below.name.endsWith('air')) return false;
  await ctx.serv.setBlock(ctx.player.world, t.at, stateOf(ctx.serv, name));
  return true;
};

const useHoe: Placer = async (ctx) => {
  const { serv, player, pos, block } = ctx;
  const result = TILLED[block.name];
  if (!result || ctx.face === 'down') return false;
  const above = await blockAt(player.world, vec(pos.x, pos.y + 1, pos.z));
  if (above && !above.name.endsWith('air')) return false;
  await serv.setBlock(player.world, pos, stateOf(serv, result));
  damageHeldTool(serv, player, 1);
  return true;
};

const plantSeed: Placer = async (ctx, itemName) => {
  const crop = cropForSeed(itemName);
  if (!crop || ctx.face !== 'up' || ctx.block.name !== 'farmland') return false;
  const at = vec(ctx.pos.x, ctx.pos.y + 1, ctx.pos.z);
  if (!isReplaceable(await blockAt(ctx.player.world, at))) return false;
  await ctx.serv.setBlock(ctx.player.world, at, stateOf(ctx.serv, crop, { age: 0 }));
  return true;
};

/** The placement rule for a held item, by minecraft-data name, or undefined to let flying-squid place it. */
function placerFor(serv: SquidServer, itemName: string): { placer: Placer; consumes: boolean } | undefined {
  const isBlock = !!serv.registry.blocksByName[itemName];
  if (itemName.endsWith('_hoe')) return { placer: useHoe, consumes: false };
  if (cropForSeed(itemName)) return { placer: plantSeed, consumes: true };
  if (!isBlock) return undefined;
  if (itemName.endsWith('_door')) return { placer: placeDoor, consumes: true };
  if (itemName.endsWith('_bed')) return { placer: placeBed, consumes: true };
  if (itemName.endsWith('_trapdoor')) return { placer: placeTrapdoor, consumes: true };
  if (itemName.endsWith('_fence_gate')) return { placer: placeFenceGate, consumes: true };
  if (itemName.endsWith('_stairs')) return { placer: placeStairs, consumes: true };
  if (itemName.endsWith('_slab')) return { placer: placeSlab, consumes: true };
  if (itemName.endsWith('torch') && serv.registry.blocksByName[itemName.replace(/torch$/, 'wall_torch')])
    return { placer: placeTorch, consumes: true };
  if (itemName.endsWith('_carpet')) return { placer: placeCarpet, consumes: true };
  const switchKind = switchKinds(serv.registry).get(itemName)?.kind;
  if (switchKind === 'lever' || switchKind === 'button') return { placer: placeFaceAttached, consumes: true };
  return undefined;
}

/** flying-squid's generic `facing` / `axis` placement properties, by angle quadrant and clicked face. */
const FACING_BY_QUADRANT: readonly Horizontal[] = ['north', 'east', 'south', 'west'];
const AXIS_BY_FACE: Record<Direction, 'x' | 'y' | 'z'> = { down: 'y', up: 'y', north: 'z', south: 'z', west: 'x', east: 'x' };

/**
 * Places a held item through flying-squid's placement registry (`serv.placeItem`): blocks
 * registered with `serv.onItemPlace` get their state from their plugin (chests, barrels,
 * furnaces, signs, redstone…; non-block items such as spawn eggs act there), other block items
 * their default state with the generic `facing` / `axis` / `half` / `rotation` / `waterlogged`
 * flying-squid derives from the click. Vanilla's rules apply first: the target must be
 * replaceable, and a full block may not go where a player stands.
 *
 * @returns true when a block was placed (the held item was consumed).
 */
async function placeRegistered(ctx: UseContext, item: Item, hand: number, packet: PlacePacket): Promise<boolean> {
  const { serv, player } = ctx;
  const t = await target(ctx);
  if (!t) return false;
  const placedPosition = t.at;
  const blockInfo = serv.registry.blocksByName[item.name];
  if (blockInfo?.boundingBox === 'block' && !cellFree(serv, player.world, placedPosition)) return false;
  // flying-squid's placement data (its placeBlock plugin): angle from the player to the block, in [0, 360).
  const dx = player.position.x - (placedPosition.x + 0.5);
  const dz = player.position.z - (placedPosition.z + 0.5);
  const angle = (Math.atan2(dx, -dz) * 180) / Math.PI + 180;
  const half = ctx.face === 'down' ? 'top' : ctx.face === 'up' ? 'bottom' : clickY(ctx, placedPosition) > 0.5 ? 'top' : 'bottom';
  const { id, data } = await serv.placeItem({
    item,
    angle,
    direction: packet.direction,
    player,
    referencePosition: ctx.pos,
    placedPosition,
    directionVector: placedPosition.minus(ctx.pos),
    properties: {
      rotation: Math.floor(angle / 22.5 + 0.5) & 0xf,
      axis: AXIS_BY_FACE[ctx.face],
      facing: FACING_BY_QUADRANT[Math.floor(angle / 90 + 0.5) & 0x3],
      half,
      waterlogged: (await blockAt(player.world, placedPosition))?.name === 'water',
    },
  });
  const placed = id === undefined ? undefined : serv.registry.blocks[id];
  if (!placed) return false;
  await serv.setBlock(player.world, placedPosition, placed.minStateId + (data ?? 0));
  consumeHeld(player, 1, hand);
  serv.emit('blockPlaced', { player, position: placedPosition, name: placed.name });
  return true;
}

/**
 * Handles one right-click on a block, in vanilla's order:
 * 1. unless sneaking with an item in hand, the clicked block is used: doors, trapdoors and fence
 *    gates here, then whatever features registered with flying-squid's `serv.onBlockInteraction`
 *    (beds, containers, furnaces, crafting tables, levers…);
 * 2. otherwise the held item is used: the placement rules of this module, else
 *    {@link placeRegistered}.
 */
async function onUse(serv: SquidServer, player: SquidPlayer, packet: PlacePacket): Promise<void> {
  const face = FACES[packet.direction];
  if (!face || player.health <= 0) return;
  const pos = vec(packet.location.x, packet.location.y, packet.location.z);
  const eyes = player.position.offset(0, PLAYER_EYE_HEIGHT, 0);
  if (eyes.distanceTo(pos.offset(0.5, 0.5, 0.5)) > BLOCK_REACH) return;
  const block = await blockAt(player.world, pos);
  if (!block) return;
  const hand = packet.hand ?? 0;
  const move = movementOf(player);
  const ctx: UseContext = {
    serv,
    player,
    pos,
    block,
    face,
    cursor: { x: packet.cursorX ?? 0.5, y: packet.cursorY ?? 0.5, z: packet.cursorZ ?? 0.5 },
    facing: horizontalFacing(move.yaw),
  };
  const item = heldItem(player, hand);
  if (player.gameMode === 3) return;
  if (!move.sneaking || !item) {
    if (toggleable(block.name)) {
      await toggle(ctx);
      return;
    }
    // flying-squid's interaction registry; handlers resolve true when they used the click.
    const used = Object.assign(block, { position: pos, direction: packet.direction });
    if (await serv.interactWithBlock({ block: used, player })) return;
  }
  if (!item || player.gameMode === 2) return;
  const itemName = serv.registry.items[item.type]?.name ?? '';
  const rule = placerFor(serv, itemName);
  if (!rule) {
    await placeRegistered(ctx, item, hand, packet);
    return;
  }
  if ((await rule.placer(ctx, itemName)) && rule.consumes) consumeHeld(player, 1, hand);
}

/** Re-sends the clicked block and the one across the clicked face (vanilla after every `useItemOn`). */
async function resendAround(player: SquidPlayer, packet: PlacePacket): Promise<void> {
  const face = FACES[packet.direction];
  const pos = vec(packet.location.x, packet.location.y, packet.location.z);
  for (const at of face ? [pos, offset(pos, face)] : [pos]) {
    const block = await blockAt(player.world, at);
    if (block) player._client.write('block_change', { location: at, type: block.stateId });
  }
  if (packet.sequence !== undefined)
    player._client.write('acknowledge_player_digging', {
      sequenceId: packet.sequence,
      location: pos,
      block: 0,
      status: 0,
      successful: true,
    });
}

/**
 * Installs the right-click handling. It replaces flying-squid's own `block_place` listener:
 * features customise right-clicks through flying-squid's registries, `serv.onBlockInteraction`
 * (using a block) and `serv.onItemPlace` (the state a placed item gets), which {@link onUse}
 * dispatches to.
 */
export function installPlacing(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    const client = player._client;
    client.removeAllListeners('block_place');
    let queue: Promise<void> = Promise.resolve();
    client.on('block_place', (packet: PlacePacket) => {
      queue = queue
        .then(async () => {
          await onUse(serv, player, packet);
          if (packet.direction >= 0 && packet.direction <= 5) await resendAround(player, packet);
        })
        .catch((err: unknown) => {
          serv.emit('error', err);
        });
    });
  });
}
