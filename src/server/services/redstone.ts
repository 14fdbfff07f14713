/**
 * The redstone inputs and openable blocks of the server's version, read from minecraft-data (no
 * list of names): what kind of switch a block is, the signal it gives, and opening a door,
 * trapdoor or fence gate from the server (what a redstone signal or a task's judge does).
 *
 * Kinds, as vanilla 1.21 `Blocks` builds them:
 * - levers (`LeverBlock`): `powered` while on, signal 15;
 * - buttons, every block whose name ends with `_button` (`ButtonBlock`): `powered` for
 *   `ticksToStayPressed` after a press, 20 game ticks for stone ones (`BlockSetType.STONE`,
 *   `POLISHED_BLACKSTONE`) and 30 for wooden ones (every wood `BlockSetType`). minecraft-data gives
 *   no block set type; the wooden buttons are the ones mined with an axe (`material:
 *   'mineable/axe'`, vanilla's `BlockTags.MINEABLE_WITH_AXE`), the others stone;
 * - pressure plates, every block whose name ends with `_pressure_plate`:
 *   - the weighted ones (a `power` property, `WeightedPressurePlateBlock`): signal
 *     ⌈min(n, maxWeight) / maxWeight × 15⌉ for n entities of any kind on it, maxWeight 15 for the
 *     light (gold) plate and 150 for the heavy (iron) one (`Blocks.LIGHT_WEIGHTED_PRESSURE_PLATE`,
 *     `HEAVY_WEIGHTED_PRESSURE_PLATE`); it is re-checked every 10 ticks while powered
 *     (`WeightedPressurePlateBlock.getPressedTime`);
 *   - the others (`PressurePlateBlock`, a `powered` property): signal 15 while any entity it
 *     senses is on it, every entity for wooden ones (`BlockSetType.PressurePlateSensitivity.EVERYTHING`,
 *     mined with an axe as for buttons) and living ones only (players and mobs) for stone ones
 *     (`MOBS`); re-checked every 20 ticks while pressed (`BasePressurePlateBlock.getPressedTime`).
 *
 * An entity is on a plate when its box overlaps the plate's touch box, x and z 1/16–15/16 and
 * y 0–4/16 of the cell (`BasePressurePlateBlock.TOUCH_AABB`); spectators and dead players never are
 * (`EntitySelector.NO_SPECTATORS`, `Entity.isIgnoringBlockTriggers`).
 */
import type { Block } from 'prismarine-block';
import type { SquidEntity, SquidServer, SquidWorld } from '../types.ts';
import { blockAt, isTrue, withProperties } from './blocks.ts';
import { toVec, vec, type Position } from './geometry.ts';

/** What a pressure plate senses. */
export type PlateSensitivity = 'mobs' | 'everything';

/** A redstone input of the registry, by kind. */
export type SwitchKind =
  | { kind: 'lever' }
  | { kind: 'button'; /** Game ticks it stays pressed. */ pressedTicks: number }
  | {
      kind: 'plate';
      /** Who presses it; weighted plates count every entity. */
      sensitivity: PlateSensitivity;
      /** Weighted plates: the entity count at full signal (15 light, 150 heavy); absent for on/off plates. */
      maxWeight?: number;
      /** Game ticks between the checks of a pressed plate (20; 10 for weighted plates). */
      checkTicks: number;
    };

/** Stone button and plate delays (vanilla `ButtonBlock` via `Blocks.stoneButton`, `BasePressurePlateBlock.getPressedTime`). */
export const STONE_BUTTON_TICKS = 20;
/** Wooden buttons stay pressed longer (vanilla `Blocks.woodenButton`). */
export const WOODEN_BUTTON_TICKS = 30;
/** A pressed on/off plate is re-checked this often (vanilla `BasePressurePlateBlock.getPressedTime`). */
export const PLATE_CHECK_TICKS = 20;
/** A powered weighted plate is re-checked this often (vanilla `WeightedPressurePlateBlock.getPressedTime`). */
export const WEIGHTED_PLATE_CHECK_TICKS = 10;
/** Full redstone signal. */
export const MAX_SIGNAL = 15;
/** A plate's touch box within its cell (vanilla `BasePressurePlateBlock.TOUCH_AABB`: 1–15 × 0–4 × 1–15 sixteenths). */
export const PLATE_TOUCH_BOX = { min: { x: 1 / 16, y: 0, z: 1 / 16 }, max: { x: 15 / 16, y: 4 / 16, z: 15 / 16 } } as const;

const kindsByRegistry = new WeakMap<object, Map<string, SwitchKind>>();

/** Whether minecraft-data says a block is mined with an axe (vanilla's wooden block sets). */
function wooden(material: string | undefined): boolean {
  return material === 'mineable/axe';
}

/** Every lever, button and pressure plate of the server's registry, by block name. */
export function switchKinds(serv: Pick<SquidServer, 'registry'>): ReadonlyMap<string, SwitchKind> {
  let kinds = kindsByRegistry.get(serv.registry);
  if (kinds) return kinds;
  kinds = new Map();
  for (const block of serv.registry.blocksArray) {
    const material = (block as { material?: string }).material;
    const states = block.states ?? [];
    if (block.name === 'lever') kinds.set(block.name, { kind: 'lever' });
    else if (block.name.endsWith('_button'))
      kinds.set(block.name, { kind: 'button', pressedTicks: wooden(material) ? WOODEN_BUTTON_TICKS : STONE_BUTTON_TICKS });
    else if (block.name.endsWith('_pressure_plate')) {
      const power = states.find((s) => s.name === 'power');
      if (power) {
        // The light (gold) plate is full at 15 entities, the heavy (iron) one at 150.
        const maxWeight = block.name.startsWith('heavy_') ? 150 : MAX_SIGNAL;
        kinds.set(block.name, { kind: 'plate', sensitivity: 'everything', maxWeight, checkTicks: WEIGHTED_PLATE_CHECK_TICKS });
      } else {
        kinds.set(block.name, { kind: 'plate', sensitivity: wooden(material) ? 'everything' : 'mobs', checkTicks: PLATE_CHECK_TICKS });
      }
    }
  }
  kindsByRegistry.set(serv.registry, kinds);
  return kinds;
}

/** The switch kind of a block name, or undefined for a block that is no lever, button or plate. */
export function switchKind(serv: Pick<SquidServer, 'registry'>, name: string): SwitchKind | undefined {
  return switchKinds(serv).get(name);
}

/**
 * The redstone signal a lever, button or pressure plate gives, 0–15 (15 when `powered`, a weighted
 * plate's `power`); 0 for any other block.
 */
export function signalOf(serv: Pick<SquidServer, 'registry'>, block: Block): number {
  if (!switchKind(serv, block.name)) return 0;
  const props = block.getProperties();
  if (props.power !== undefined) return Number(props.power);
  return isTrue(props.powered) ? MAX_SIGNAL : 0;
}

/** The signal of the switch at `pos` of `world` (0 for any other block). */
export async function signalAt(serv: SquidServer, world: SquidWorld, pos: Position): Promise<number> {
  return signalOf(serv, await blockAt(world, pos));
}

/** An entity's box size in blocks: players 0.6 × 1.8, others from minecraft-data's entity sizes. */
export function entitySize(serv: Pick<SquidServer, 'registry'>, entity: SquidEntity): { width: number; height: number } {
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
export function onPlate(serv: Pick<SquidServer, 'registry'>, entity: SquidEntity, cell: Position): boolean {
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
 * The signal a plate gives with `count` entities on it it senses: 15 for any on an on/off plate;
 * ⌈min(count, maxWeight) / maxWeight × 15⌉ for a weighted one (vanilla
 * `WeightedPressurePlateBlock.getSignalStrength`), so min(count, 15) light and ⌈count / 10⌉ heavy.
 */
export function plateSignal(kind: Extract<SwitchKind, { kind: 'plate' }>, count: number): number {
  if (count <= 0) return 0;
  if (kind.maxWeight === undefined) return MAX_SIGNAL;
  return Math.ceil((Math.min(count, kind.maxWeight) / kind.maxWeight) * MAX_SIGNAL);
}

/** Whether a block has an `open` state (doors, trapdoors, fence gates, of any material). */
export function isOpenable(block: Block | null | undefined): boolean {
  return !!block && block.getProperties().open !== undefined;
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
