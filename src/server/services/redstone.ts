/**
 * Running levers, buttons and pressure plates on the server (their rules are game facts:
 * src/game/switches.ts): which entities are on a plate, the signal at a position, and opening a
 * door, trapdoor or fence gate from the server (what a redstone signal or a task's judge does).
 * Spectators, dead players and picked-up items never press a plate (vanilla
 * `EntitySelector.NO_SPECTATORS`, `Entity.isIgnoringBlockTriggers`).
 */
import type { SquidEntity, SquidServer, SquidWorld } from '../types.ts';
import { isOpenable, PLATE_TOUCH_BOX, signalOf, type PlateSensitivity } from '../../game/switches.ts';
import { blockAt, isTrue, withProperties } from './blocks.ts';
import { toVec, vec, type Position } from './geometry.ts';
import { mobState } from './mobs.ts';

/** The signal of the switch at `pos` of `world`, 0–15 (0 for any other block). */
export async function signalAt(serv: SquidServer, world: SquidWorld, pos: Position): Promise<number> {
  return signalOf(serv.registry, await blockAt(world, pos));
}

/**
 * An entity's box size in blocks: players 0.6 × 1.8, mobs as the mob service sized them (babies
 * smaller), others from minecraft-data's entity sizes.
 */
export function entitySize(serv: SquidServer, entity: SquidEntity): { width: number; height: number } {
  const mob = entity.type === 'mob' ? mobState(serv, entity) : undefined;
  if (mob) return { width: mob.halfWidth * 2, height: mob.height };
  const info = serv.registry.entitiesByName[entity.type === 'player' ? 'player' : (entity.name ?? '')];
  return { width: info?.width ?? 0.6, height: info?.height ?? 1.8 };
}

/** Whether an entity can press plates at all: not a spectator, a dead player or a picked-up item. */
export function triggersBlocks(entity: SquidEntity): boolean {
  if (entity.collected) return false;
  if (entity.type === 'player') {
    const player = entity as SquidEntity & { gameMode?: number };
    return (player.health ?? 1) > 0 && player.gameMode !== 3;
  }
  return entity.type !== 'mob' || (entity.health ?? 1) > 0;
}

/** Whether a plate of `sensitivity` senses `entity` (stone ones: living entities, players and mobs). */
export function senses(sensitivity: PlateSensitivity, entity: SquidEntity): boolean {
  return sensitivity === 'everything' || entity.type === 'player' || entity.type === 'mob';
}

/** Whether the box of `entity` overlaps the touch box of a plate in cell `cell` (strict, as vanilla `AABB.intersects`). */
export function onPlate(serv: SquidServer, entity: SquidEntity, cell: Position): boolean {
  const { width, height } = entitySize(serv, entity);
  const p = entity.position;
  const half = width / 2;
  const { min, max } = PLATE_TOUCH_BOX;
  return (
    p.x + half > cell.x + min.x &&
    p.x - half < cell.x + max.x &&
    p.z + half > cell.z + min.z &&
    p.z - half < cell.z + max.z &&
    p.y + height > cell.y + min.y &&
    p.y < cell.y + max.y
  );
}

/** The entities of `world` on the plate in `cell` that it senses. */
export function entitiesOnPlate(serv: SquidServer, world: SquidWorld, cell: Position, sensitivity: PlateSensitivity): SquidEntity[] {
  return Object.values(serv.entities).filter(
    (e) => e.world === world && triggersBlocks(e) && senses(sensitivity, e) && onPlate(serv, e, cell),
  );
}

/**
 * Opens or closes the door, trapdoor or fence gate at `pos`, as a redstone signal or a command
 * does (vanilla `DoorBlock.setOpen`, `TrapDoorBlock` / `FenceGateBlock.neighborChanged`): it works
 * on iron ones too, which a hand cannot open. A door's other half (above a `lower`, below an
 * `upper`) changes with it. Every player sees the change.
 *
 * @returns true when the block changed, false when it already was `open` (or closed).
 * @throws Error naming the block when the block at `pos` has no `open` state.
 * @example await setOpen(serv, serv.overworld, { x: 3, y: -60, z: 7 }, true)
 */
export async function setOpen(serv: SquidServer, world: SquidWorld, pos: Position, open: boolean): Promise<boolean> {
  const block = await blockAt(world, pos);
  if (!isOpenable(block))
    throw new Error(
      `the block at (${pos.x}, ${pos.y}, ${pos.z}) is ${block?.name ?? 'not loaded'}, which cannot open: give the position of a door, trapdoor or fence gate`,
    );
  const props = block.getProperties();
  if (isTrue(props.open) === open) return false;
  await serv.setBlock(world, toVec(pos), withProperties(serv, block, { open }));
  if (props.half === 'lower' || props.half === 'upper') {
    const other = vec(pos.x, pos.y + (props.half === 'lower' ? 1 : -1), pos.z);
    const otherBlock = await blockAt(world, other);
    if (otherBlock?.name === block.name) await serv.setBlock(world, other, withProperties(serv, otherBlock, { open }));
  }
  return true;
}
