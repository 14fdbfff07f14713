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
