/**
 * Block states as the VillagerBench judges read them: a block name with its properties as
 * vanilla writes them (`facing=west`, `powered=true`, `power=3`), and the text `/setblock` takes
 * (`oak_stairs[facing=west,half=top]`). The world side (a state id to a {@link BlockState}) is
 * `botStateLookup` in `src/app/task-play.ts`, from prismarine-block's `getProperties`.
 */
import { formatBlockState } from '../../game/block-state.ts';

/** A block name and some of its properties (values as text: `west`, `true`, `3`). */
export interface BlockState {
  name: string;
  properties: Readonly<Record<string, string>>;
}

/**
 * The world's block at a position with all its properties, or undefined where it is not known (a
 * chunk not loaded).
 */
export type StateLookup = (x: number, y: number, z: number) => BlockState | undefined;

const AIR = new Set(['air', 'cave_air', 'void_air']);

/** A block name without `minecraft:`, lower-cased; air-likes become `air`. */
export function plainName(name: string): string {
  const n = name
    .trim()
    .toLowerCase()
    .replace(/^minecraft:/, '');
  return AIR.has(n) ? 'air' : n;
}

/**
 * `name[k=v,...]` as `/setblock` takes it; the name alone without properties.
 *
 * @example stateText('oak_stairs', { facing: 'west' }) // 'oak_stairs[facing=west]'
 */
export function stateText(name: string, properties: Readonly<Record<string, string>> = {}): string {
  return formatBlockState({ name, properties: { ...properties } });
}

/**
 * Whether the world's block (`actual`, all its properties) is the wanted one: the same name
 * (air-likes alike) and each wanted property with the wanted value. Properties the wanted state
 * leaves out are free.
 */
export function stateMatches(wanted: BlockState, actual: BlockState | undefined): boolean {
  if (!actual || plainName(wanted.name) !== plainName(actual.name)) return false;
  for (const [key, value] of Object.entries(wanted.properties)) if (actual.properties[key] !== value) return false;
  return true;
}
