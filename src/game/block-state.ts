/**
 * Block states written as vanilla's commands write them (`oak_stairs[facing=west,half=bottom]`,
 * vanilla `BlockStateParser`; Minecraft wiki "Block states"), checked against minecraft-data's
 * block states of one version: parsing them with errors that name what is valid, and writing a
 * block's orientation back in the same form.
 */
import type { IndexedData } from 'minecraft-data';

/** A block and the properties written for it (the others are left to whoever places it). */
export interface BlockStateSpec {
  /** minecraft-data block name, e.g. `oak_stairs`. */
  name: string;
  /** The properties written, as strings (`{facing: 'west', half: 'bottom'}`); empty for a bare name. */
  properties: Record<string, string>;
}

/** One property of a block in minecraft-data (`blocks[].states[]`). */
interface StateInfo {
  name: string;
  type: string;
  values?: string[];
  num_values: number;
}

/**
 * The properties that orient a block (vanilla `BlockStateProperties`): where it faces or points,
 * which half or side it takes, how it hangs. A blueprint's `facing | axis` and the rest of what a
 * click decides; not a block's changing state (`powered`, `waterlogged`, `age`...).
 */
export const ORIENTATION_PROPERTIES: readonly string[] = ['facing', 'axis', 'half', 'type', 'face', 'hinge', 'rotation', 'shape'];

/** The values a property takes, as strings (booleans: `true`, `false`). */
function valuesOf(state: StateInfo): string[] {
  if (state.type === 'bool') return ['true', 'false'];
  if (state.values) return state.values.map(String);
  return Array.from({ length: state.num_values }, (_, i) => String(i));
}

/** `facing (north|south|west|east), half (top|bottom)`: a block's properties and their values. */
export function describeProperties(registry: IndexedData, name: string): string {
  const states = (registry.blocksByName[name]?.states ?? []) as StateInfo[];
  return states.map((s) => `${s.name} (${valuesOf(s).join('|')})`).join(', ');
}

/** The syntax a state is written in, for errors. */
const SYNTAX = 'write name[property=value,...], e.g. oak_stairs[facing=west,half=bottom]';

/**
 * Parses `name` or `name[property=value,...]`. `resolveName` turns the written name into
 * minecraft-data's (e.g. a model's `Oak Stairs`); without it the name must be exact.
 *
 * @throws Error saying what is wrong and what is valid: a malformed text; an unknown block; a
 *   property the block does not have (its properties and their values are listed); a value the
 *   property does not take (its values are listed); a property written twice.
 * @example parseBlockState(registry, 'oak_stairs[facing=west,half=bottom]')
 *   // → { name: 'oak_stairs', properties: { facing: 'west', half: 'bottom' } }
 */
export function parseBlockState(
  registry: IndexedData,
  text: string,
  resolveName: (written: string) => string = (written) => written,
): BlockStateSpec {
  const match = /^\s*([^[\]]+?)\s*(?:\[([^[\]]*)\])?\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a block state: ${SYNTAX}.`);
  const name = resolveName(match[1]!);
  const info = registry.blocksByName[name];
  if (!info) throw new Error(`"${match[1]}" is not a block.`);
  const states = (info.states ?? []) as StateInfo[];
  const properties: Record<string, string> = {};
  const pairs = (match[2] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (pairs.length && !states.length) throw new Error(`${name} has no properties: write just ${name}.`);
  for (const pair of pairs) {
    const [key, value, extra] = pair.split('=').map((p) => p.trim());
    if (!key || value === undefined || value === '' || extra !== undefined)
      throw new Error(`"${pair}" in "${text}" is not property=value: ${SYNTAX}.`);
    const state = states.find((s) => s.name === key);
    if (!state) throw new Error(`${name} has no property "${key}"; its properties are ${describeProperties(registry, name)}.`);
    if (key in properties) throw new Error(`${name}: "${key}" is written twice in "${text}".`);
    const values = valuesOf(state);
    if (!values.includes(value)) throw new Error(`${name}: ${key} cannot be "${value}"; it is one of ${values.join(', ')}.`);
    properties[key] = value;
  }
  return { name, properties };
}

/** `oak_stairs[facing=west,half=bottom]`; just the name when there are no properties. */
export function formatBlockState(spec: BlockStateSpec): string {
  const pairs = Object.entries(spec.properties).map(([k, v]) => `${k}=${v}`);
  return pairs.length ? `${spec.name}[${pairs.join(',')}]` : spec.name;
}

/**
 * A block with its orientation, as a state (`oak_stairs[facing=west,half=bottom,shape=straight]`,
 * `oak_log[axis=x]`); just the name for a block that has no {@link ORIENTATION_PROPERTIES}
 * (`stone`, `wheat`). For queries that show what stands where.
 *
 * @param block prismarine-block's block (mineflayer's or the server's).
 */
export function describeOriented(block: { name: string; getProperties(): Record<string, unknown> }): string {
  const props = block.getProperties();
  const properties: Record<string, string> = {};
  for (const key of ORIENTATION_PROPERTIES) if (props[key] !== undefined) properties[key] = String(props[key]);
  return formatBlockState({ name: block.name, properties });
}
