/**
 * Block states of the server's version, from minecraft-data through prismarine-block: state ids
 * from properties and back, reading a block of a world, writing a state by properties, and the
 * block classes placement rules need (replaceable, solid, air).
 */
import blockLoader, { type Block } from 'prismarine-block';
import type { Registry, SquidServer, SquidWorld } from '../types.ts';
import { toVec, type Position } from './geometry.ts';

/** A block property value as minecraft-data states hold them. */
export type PropertyValue = string | number | boolean;
/** The prismarine-block class of one registry. */
export type BlockClass = typeof Block;

const blockClasses = new WeakMap<Registry, BlockClass>();

/** prismarine-block's class for the server's registry (built once per registry). */
export function blockClass(serv: { registry: Registry }): BlockClass {
  let cls = blockClasses.get(serv.registry);
  if (!cls) {
    // prismarine-block's typings want prismarine-registry's type, a superset of minecraft-data's we do not use.
    cls = blockLoader(serv.registry as unknown as Parameters<typeof blockLoader>[0]);
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
export function stateOf(serv: SquidServer, name: string, properties: Record<string, PropertyValue> = {}): number {
  const info = serv.registry.blocksByName[name];
  if (!info) throw new Error(`unknown block ${name}`);
  const Block = blockClass(serv);
  const defaults = Block.fromStateId(info.defaultState, 0).getProperties();
  const merged: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...defaults, ...properties })) merged[key] = String(value);
  return Block.fromProperties(name, merged, 0).stateId;
}

/** The state id of the same block with some properties changed. */
export function withProperties(serv: SquidServer, block: Block, properties: Record<string, PropertyValue>): number {
  return stateOf(serv, block.name, { ...block.getProperties(), ...properties });
}

/** The properties of a state id as strings (`{facing: 'east', half: 'bottom', waterlogged: 'false'}`). */
export function propertiesOfState(serv: SquidServer, stateId: number): Record<string, string> {
  const props = blockClass(serv).fromStateId(stateId, 0).getProperties();
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, String(v)]));
}

/** The prismarine block of a state id (no position). */
export function blockOfState(serv: SquidServer, stateId: number): Block {
  return blockClass(serv).fromStateId(stateId, 0);
}

/** The `{id, data}` flying-squid's placement registry expects for a block state given by properties. */
export function placedState(serv: SquidServer, name: string, properties: Record<string, PropertyValue>): { id: number; data: number } {
  const info = serv.registry.blocksByName[name]!;
  return { id: info.id, data: stateOf(serv, name, properties) - info.minStateId };
}

/** The block at `position` of `world` (prismarine-block, with `position`). */
export async function blockAt(world: SquidWorld, position: Position): Promise<Block> {
  return world.getBlock(toVec(position));
}

/** Writes a block state given by properties (others at their default) and shows it to players. */
export async function setBlockState(
  serv: SquidServer,
  world: SquidWorld,
  position: Position,
  name: string,
  properties: Record<string, PropertyValue>,
): Promise<void> {
  await serv.setBlock(world, toVec(position), stateOf(serv, name, properties));
}

/** Names of the air blocks. */
const AIR = new Set(['air', 'cave_air', 'void_air']);

/** True for air (any of the three air blocks). */
export function isAir(name: string | undefined): boolean {
  return name !== undefined && AIR.has(name);
}

/**
 * Block names a placement may replace (vanilla `canBeReplaced`: air, fluids, grass and other
 * replaceable plants). Names, not ids: resolved through minecraft-data.
 */
const REPLACEABLE = new Set([
  ...AIR,
  'water',
  'lava',
  'short_grass',
  'grass',
  'fern',
  'dead_bush',
  'vine',
  'seagrass',
  'fire',
  'soul_fire',
  'light',
  'structure_void',
]);

/** True when a placement may overwrite this block. */
export function isReplaceable(block: Block | null | undefined): boolean {
  return !block || REPLACEABLE.has(block.name);
}

/** True for a full solid cube (`boundingBox: 'block'` in minecraft-data) that can support torches and the like. */
export function isSolid(block: Block | null | undefined): boolean {
  return !!block && block.boundingBox === 'block';
}

/** A boolean block property as a boolean (prismarine-block gives booleans or 'true'/'false'). */
export function isTrue(value: PropertyValue | undefined): boolean {
  return value === true || value === 'true';
}
