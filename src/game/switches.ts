/**
 * Levers, buttons and pressure plates as game facts, read from minecraft-data (no list of names):
 * what kind of redstone input a block is, how long it stays on, the signal it gives, and which
 * blocks open (doors, trapdoors, fence gates). Shared by the server (which runs them,
 * src/server/features/switches.ts), the skills (which say when a button releases) and the judges
 * (which read a switch's state from the world).
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
 *     `HEAVY_WEIGHTED_PRESSURE_PLATE`); it is checked again every 10 ticks while powered
 *     (`WeightedPressurePlateBlock.getPressedTime`);
 *   - the others (`PressurePlateBlock`, a `powered` property): signal 15 while any entity it
 *     senses is on it, every entity for wooden ones (`BlockSetType.PressurePlateSensitivity.EVERYTHING`,
 *     mined with an axe as for buttons) and living ones only (players and mobs) for stone ones
 *     (`MOBS`); checked again every 20 ticks while pressed (`BasePressurePlateBlock.getPressedTime`).
 *
 * An entity is on a plate when its box overlaps the plate's touch box, x and z 1/16–15/16 and
 * y 0–4/16 of the cell (`BasePressurePlateBlock.TOUCH_AABB`).
 */
import type { IndexedData } from 'minecraft-data';

/** A block as far as these rules read it (prismarine-block's `Block`, mineflayer's or the server's). */
export interface SwitchBlock {
  name: string;
  getProperties(): Record<string, string | number | boolean>;
}

/** What a pressure plate senses. */
export type PlateSensitivity = 'mobs' | 'everything';

/** A pressure plate's rules. */
export interface PlateKind {
  kind: 'plate';
  /** Who presses it; weighted plates count every entity. */
  sensitivity: PlateSensitivity;
  /** Weighted plates: the entity count at full signal (15 light, 150 heavy); absent for on/off plates. */
  maxWeight?: number;
  /** Game ticks between the checks of a pressed plate (20; 10 for weighted plates). */
  checkTicks: number;
}

/** A redstone input of the registry, by kind. */
export type SwitchKind = { kind: 'lever' } | { kind: 'button'; /** Game ticks it stays pressed. */ pressedTicks: number } | PlateKind;

/** Stone buttons stay pressed this long, in game ticks (vanilla `Blocks.stoneButton`: `ButtonBlock` with 20). */
export const STONE_BUTTON_TICKS = 20;
/** Wooden buttons stay pressed longer, in game ticks (vanilla `Blocks.woodenButton`: 30). */
export const WOODEN_BUTTON_TICKS = 30;
/** A pressed on/off plate is checked again this often, in game ticks (vanilla `BasePressurePlateBlock.getPressedTime`). */
export const PLATE_CHECK_TICKS = 20;
/** A powered weighted plate is checked again this often, in game ticks (vanilla `WeightedPressurePlateBlock.getPressedTime`). */
export const WEIGHTED_PLATE_CHECK_TICKS = 10;
/** Full redstone signal. */
export const MAX_SIGNAL = 15;
/** A plate's touch box within its cell, in blocks (vanilla `BasePressurePlateBlock.TOUCH_AABB`: 1–15 × 0–4 × 1–15 sixteenths). */
export const PLATE_TOUCH_BOX = { min: { x: 1 / 16, y: 0, z: 1 / 16 }, max: { x: 15 / 16, y: 4 / 16, z: 15 / 16 } } as const;

const kindsByRegistry = new WeakMap<object, Map<string, SwitchKind>>();

/** Whether minecraft-data says a block is mined with an axe (vanilla's wooden block sets). */
function wooden(material: string | undefined): boolean {
  return material === 'mineable/axe';
}

/** Every lever, button and pressure plate of a registry (minecraft-data of one version), by block name. */
export function switchKinds(registry: IndexedData): ReadonlyMap<string, SwitchKind> {
  let kinds = kindsByRegistry.get(registry);
  if (kinds) return kinds;
  kinds = new Map();
  for (const block of registry.blocksArray) {
    const material = (block as { material?: string }).material;
    const states = block.states ?? [];
    if (block.name === 'lever') kinds.set(block.name, { kind: 'lever' });
    else if (block.name.endsWith('_button'))
      kinds.set(block.name, { kind: 'button', pressedTicks: wooden(material) ? WOODEN_BUTTON_TICKS : STONE_BUTTON_TICKS });
    else if (block.name.endsWith('_pressure_plate')) {
      if (states.some((s) => s.name === 'power')) {
        // The light (gold) plate is full at 15 entities, the heavy (iron) one at 150.
        const maxWeight = block.name.startsWith('heavy_') ? 150 : MAX_SIGNAL;
        kinds.set(block.name, { kind: 'plate', sensitivity: 'everything', maxWeight, checkTicks: WEIGHTED_PLATE_CHECK_TICKS });
      } else {
        kinds.set(block.name, { kind: 'plate', sensitivity: wooden(material) ? 'everything' : 'mobs', checkTicks: PLATE_CHECK_TICKS });
      }
    }
  }
  kindsByRegistry.set(registry, kinds);
  return kinds;
}

/** The switch kind of a block name, or undefined for a block that is no lever, button or plate. */
export function switchKind(registry: IndexedData, name: string): SwitchKind | undefined {
  return switchKinds(registry).get(name);
}

/** A boolean block property as a boolean (prismarine-block gives booleans or 'true'/'false'). */
function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * The redstone signal a lever, button or pressure plate gives, 0–15 (15 when `powered`, a weighted
 * plate's `power`); 0 for any other block.
 */
export function signalOf(registry: IndexedData, block: SwitchBlock): number {
  if (!switchKind(registry, block.name)) return 0;
  const props = block.getProperties();
  if (props.power !== undefined) return Number(props.power);
  return isTrue(props.powered) ? MAX_SIGNAL : 0;
}

/**
 * The signal a plate gives with `count` entities on it that it senses: 15 for any on an on/off
 * plate; ⌈min(count, maxWeight) / maxWeight × 15⌉ for a weighted one (vanilla
 * `WeightedPressurePlateBlock.getSignalStrength`), so min(count, 15) light and ⌈count / 10⌉ heavy.
 */
export function plateSignal(kind: PlateKind, count: number): number {
  if (count <= 0) return 0;
  if (kind.maxWeight === undefined) return MAX_SIGNAL;
  return Math.ceil((Math.min(count, kind.maxWeight) / kind.maxWeight) * MAX_SIGNAL);
}

/** Whether a block has an `open` state (doors, trapdoors, fence gates, of any material). */
export function isOpenable(block: SwitchBlock | null | undefined): boolean {
  return !!block && block.getProperties().open !== undefined;
}
