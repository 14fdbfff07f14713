/**
 * prismarine-chunk's palette containers keep their 1.21.5+ format through `toJson` / `fromJson`.
 *
 * Since 1.21.5 a chunk's paletted containers are written without their data-array length
 * (`noSizePrefix`). A block section's JSON carries that flag, but the containers' own JSON (which
 * a biome section's is) does not: a column copied with `ChunkColumn.fromJson(column.toJson())`
 * writes its biomes with the length again, and a client reading the column fails ("Bits per block
 * is too big"). The embedded server copies its superflat column that way for every column.
 *
 * Upstream: docs/upstream/prismarine-chunk.md. The patch first copies a 1.21.5+ column of the
 * installed prismarine-chunk and compares the two columns' wire bytes; it changes nothing when
 * they are the same.
 */
import { createRequire } from 'node:module';
import type { FixStatus } from './minecraft-data.ts';

const require = createRequire(import.meta.url);

interface Container {
  noSizePrefix?: boolean;
  toJson(): string;
}
type ContainerClass = { prototype: Container };

const PATCHED = Symbol.for('mindcraft-ts.noSizePrefixInJson');

/** The first version whose chunks have no size prefix, the one the probe is made with. */
const PROBE_VERSION = '1.21.5';

/** True when a 1.21.5 column copied through JSON writes other bytes than the column itself. */
function copyChangesBytes(): boolean {
  const registry = (require('prismarine-registry') as (v: string) => { blocksByName: Record<string, { defaultState: number }> })(
    PROBE_VERSION,
  );
  type Column = { setBlockStateId(p: object, s: number): void; toJson(): string; dump(): Buffer };
  const Chunk = (require('prismarine-chunk') as (r: unknown) => { new (o: object): Column; fromJson(j: string): Column })(registry);
  const column = new Chunk({ minY: -64, worldHeight: 384 });
  column.setBlockStateId({ x: 0, y: 0, z: 0 }, registry.blocksByName.stone!.defaultState);
  return !Chunk.fromJson(column.toJson()).dump().equals(column.dump());
}

/**
 * Makes prismarine-chunk's palette containers (single value, indirect, direct) keep `noSizePrefix`
 * in their JSON, which their `fromJson` already reads back, where a copied column's bytes differ.
 */
export function keepChunkFormatInJson(): FixStatus {
  const containers = require('prismarine-chunk/src/pc/common/PaletteContainer') as Record<string, ContainerClass>;
  const classes = ['SingleValueContainer', 'IndirectPaletteContainer', 'DirectPaletteContainer'].map((name) => containers[name]);
  if (classes.some((c) => !c)) return 'not needed';
  if (classes.every((c) => (c!.prototype as unknown as Record<symbol, boolean>)[PATCHED])) return 'applied before';
  if (!copyChangesBytes()) return 'not needed';
  for (const container of classes as ContainerClass[]) {
    const toJson = container.prototype.toJson;
    container.prototype.toJson = function (this: Container): string {
      const json = toJson.call(this);
      return this.noSizePrefix === undefined ? json : JSON.stringify({ ...(JSON.parse(json) as object), noSizePrefix: this.noSizePrefix });
    };
    (container.prototype as unknown as Record<symbol, boolean>)[PATCHED] = true;
  }
  return 'applied';
}

interface SectionData {
  palette?: number[];
  value?: number;
  data?: unknown;
}
type SectionClass = { prototype: { palette?: readonly number[] } };
type SectionFactory = (Block: unknown) => SectionClass;

const LIVE = Symbol.for('mindcraft-ts.livePalette');

/**
 * The block states a section holds, as a list that never misses one: its container's palette, the
 * one state of a single-value container, or undefined for a direct container (any state).
 */
function currentPalette(this: { data: SectionData }): readonly number[] | undefined {
  const data = this.data;
  if (data.palette) return data.palette;
  // A single-value container has its state and no data array; a direct one has a data array.
  return data.data === undefined && data.value !== undefined ? [data.value] : undefined;
}

/** True when a section's `palette` misses a state it holds: a single-value section's, or one set after it was made. */
function palettesLag(): boolean {
  const registry = (require('prismarine-registry') as (v: string) => { blocksByName: Record<string, { defaultState: number }> })(
    PROBE_VERSION,
  );
  type Section = { palette?: readonly number[] };
  type Column = { setBlockStateId(p: object, s: number): void; sections: Section[] };
  const Chunk = (require('prismarine-chunk') as (r: unknown) => new (o: object) => Column)(registry);
  const column = new Chunk({ minY: -64, worldHeight: 384 });
  const air = column.sections[0]!;
  if (!air.palette?.includes(0)) return true;
  const stone = registry.blocksByName.stone!.defaultState;
  column.setBlockStateId({ x: 0, y: -64, z: 0 }, stone);
  return !column.sections[0]!.palette?.includes(stone);
}

/**
 * Makes a block section's `palette` (what mineflayer's `findBlocks` reads to skip a section that
 * cannot hold a match) always the palette of the section's current container: `[state]` for a
 * single-value section (an all-air one) and undefined for a direct one. prismarine-chunk copies
 * the container's palette once, when the section is made: a single-value section has none, so
 * `findBlocks` read all 4,096 blocks of every air section in range (the offline policy's look
 * around, `blockTypesAround` to 64 blocks, took 0.4 s a decision in a superflat world), and a
 * section whose container changed kept the palette it had before, missing the states set since.
 *
 * Patches the section factory that prismarine-chunk's 1.18+ column calls when its class is made:
 * columns made before it keep the old sections. Upstream: docs/upstream/prismarine-chunk.md.
 */
export function livePalettes(): FixStatus {
  const path = require.resolve('prismarine-chunk/src/pc/common/PaletteChunkSection');
  require(path);
  const module = require.cache[path]!;
  const factory = module.exports as SectionFactory & { [LIVE]?: true };
  if (factory[LIVE]) return 'applied before';
  if (!palettesLag()) return 'not needed';
  const live: SectionFactory & { [LIVE]?: true } = (Block) => {
    const Section = factory(Block);
    // The constructor's `this.palette = this.data.palette` goes to the setter, which ignores it.
    Object.defineProperty(Section.prototype, 'palette', { get: currentPalette, set() {}, configurable: true });
    return Section;
  };
  live[LIVE] = true;
  module.exports = live;
  return 'applied';
}
