/**
 * Block state ids carried from one Minecraft version to another: the same block and properties,
 * by name (minecraft-data and prismarine-block of both versions). A state's number shifts between
 * versions whenever blocks are added before it (1.21.5 added leaf litter, bushes and more), so a
 * chunk of one version read with another version's data shows other blocks. Used where a library
 * only knows an older version: prismarine-viewer draws 1.21.5+ worlds with 1.21.4's data.
 */
import blockLoader from 'prismarine-block';
import { gameData } from './data.ts';

const cache = new Map<string, Uint32Array | null>();

/**
 * The state id table from `from` to `to` (index: a `from` state id; value: the `to` state id), or
 * `undefined` when the two versions number every state alike. Built once per pair (about 30,000
 * states, a few hundred ms) and kept for the process.
 *
 * A block `to` has: the same properties where `to` knows them, those of its default state for a
 * property or a value `to` lacks. A block `to` lacks: air.
 *
 * @throws Error when minecraft-data has no data for either version.
 */
export function stateIdTable(from: string, to: string): Uint32Array | undefined {
  const key = `${from}>${to}`;
  let table = cache.get(key);
  if (table === undefined) {
    table = buildTable(from, to);
    cache.set(key, table);
  }
  return table ?? undefined;
}

function buildTable(from: string, to: string): Uint32Array | null {
  if (from === to) return null;
  const source = gameData(from);
  const target = gameData(to);
  const FromBlock = blockLoader(source as never);
  const ToBlock = blockLoader(target as never);
  const air = target.blocksByName.air!.defaultState;
  let size = 0;
  for (const block of source.blocksArray) size = Math.max(size, block.maxStateId + 1);
  const table = new Uint32Array(size);
  let identity = true;
  for (const block of source.blocksArray) {
    const into = target.blocksByName[block.name];
    for (let id = block.minStateId; id <= block.maxStateId; id++) {
      let mapped = air;
      if (into) {
        // The target's default state, with each property the source state sets and the target
        // knows (its name, and its value where the target lists values).
        const properties = { ...ToBlock.fromStateId(into.defaultState, 0).getProperties() };
        const states = new Map((into.states ?? []).map((s) => [s.name, s]));
        for (const [name, value] of Object.entries(FromBlock.fromStateId(id, 0).getProperties())) {
          const state = states.get(name);
          if (state && (!state.values || state.values.includes(String(value)))) properties[name] = value;
        }
        // prismarine-block's types leave out the booleans its fromProperties reads (bool states).
        mapped = ToBlock.fromProperties(into.name, properties as Record<string, string | number>, 0).stateId!;
      }
      table[id] = mapped;
      identity &&= mapped === id;
    }
  }
  return identity ? null : table;
}
