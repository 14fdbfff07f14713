/**
 * Turns generated chunks (./generator.ts: block codes and biome cells) into prismarine-chunk
 * columns of one server version: block states through prismarine-block from minecraft-data names
 * and properties, biome ids from minecraft-data, and sky light (./light.ts). Sections are built
 * straight from their palettes (prismarine-chunk's own section classes, filled in bulk) instead of
 * one `setBlockStateId` per block: a column takes about a millisecond.
 */
import { createRequire } from 'node:module';
import type { Registry } from '../types.ts';
import { BIOMES, BLOCK_SPECS } from './blocks.ts';
import type { GeneratedChunk } from './generator.ts';
import { LIGHT_LEVELS, skyLight } from './light.ts';
import { MIN_Y, WORLD_HEIGHT } from './terrain.ts';

const require = createRequire(import.meta.url);

/** prismarine-chunk's 4-bit-per-value array, as far as we fill it. */
interface BitArray {
  data: Uint32Array;
  set(index: number, value: number): void;
}
type BitArrayClass = new (options: { bitsPerValue: number; capacity: number; data?: ArrayBuffer }) => BitArray;
type PaletteContainerClass = new (options: object) => object;
type SectionClass = new (options: object) => object;

// prismarine-chunk's shared building blocks (1.18+ columns use them for every version we serve).
const BitArrayNoSpan = require('prismarine-chunk/src/pc/common/BitArrayNoSpan') as BitArrayClass;
const { IndirectPaletteContainer } = require('prismarine-chunk/src/pc/common/PaletteContainer') as {
  IndirectPaletteContainer: PaletteContainerClass;
};

/** A prismarine-chunk column, as far as the generator and the world service use it. */
export interface ChunkColumn {
  setBiome(position: { x: number; y: number; z: number }, biome: number): void;
  getBlockStateId(position: { x: number; y: number; z: number }): number;
  getSkyLight(position: { x: number; y: number; z: number }): number;
  getBiome(position: { x: number; y: number; z: number }): number;
  dump(): Buffer;
}
type ChunkClass = (new (options: object) => ChunkColumn) & { section: SectionClass };

/** Builds prismarine-chunk columns for one server's registry. */
export class ChunkBuilder {
  /** Block state id of each block code. */
  readonly stateIds: Uint16Array;
  /** Light filter (minecraft-data `filterLight`) of each block code. */
  readonly filter: Uint8Array;
  /** minecraft-data biome id of each biome code. */
  readonly biomeIds: Uint16Array;
  readonly #Chunk: ChunkClass;
  readonly #noSizePrefix: boolean;
  /** Scratch: the chunk's sky light. */
  readonly #light = new Uint8Array(LIGHT_LEVELS * 256);
  /** Scratch: one section's palette indices. */
  readonly #indices = new Uint8Array(4096);

  /** @throws Error naming a block state or biome the registry's version lacks. */
  constructor(registry: Registry) {
    this.#Chunk = (require('prismarine-chunk') as (r: Registry) => ChunkClass)(registry);
    const Block = (
      require('prismarine-block') as (r: Registry) => { fromProperties(name: string, props: object, biome: number): { stateId: number } }
    )(registry);
    this.stateIds = Uint16Array.from(BLOCK_SPECS, ({ name, properties }) => {
      if (!registry.blocksByName[name])
        throw new Error(`survival world: minecraft-data ${registry.version.minecraftVersion} has no block "${name}"`);
      return Block.fromProperties(name, properties ?? {}, 0).stateId;
    });
    this.filter = Uint8Array.from(this.stateIds, (id) => registry.blocksByStateId[id]?.filterLight ?? 15);
    this.biomeIds = Uint16Array.from(BIOMES, (name) => {
      const biome = registry.biomesByName[name];
      if (!biome) throw new Error(`survival world: minecraft-data ${registry.version.minecraftVersion} has no biome "${name}"`);
      return biome.id;
    });
    this.#noSizePrefix = registry.version['>=']('1.21.5');
  }

  /**
   * A prismarine-chunk column of a generated chunk, with its biomes and sky light.
   *
   * @param outsideHeight ground height of the columns just outside the chunk (chunk-local −1 or
   *   16), for the light coming in from the sides.
   */
  build(chunk: GeneratedChunk, outsideHeight: (x: number, z: number) => number): ChunkColumn {
    const column = new this.#Chunk({ minY: MIN_Y, worldHeight: WORLD_HEIGHT });
    const { maxBitsPerBlock } = column as unknown as { maxBitsPerBlock: number };
    const noSizePrefix = this.#noSizePrefix;
    const sectionCount = WORLD_HEIGHT >> 4;
    const Section = this.#Chunk.section;
    const sections: object[] = [];
    const paletteIndex = new Int16Array(BLOCK_SPECS.length);
    const indices = this.#indices;
    const airSections = (chunk.top - MIN_Y + 16) >> 4; // sections from this one up are all air
    for (let s = 0; s < sectionCount; s++) {
      if (s >= airSections) {
        sections.push(new Section({ singleValue: 0, maxBitsPerBlock, noSizePrefix }));
        continue;
      }
      const offset = s << 12;
      paletteIndex.fill(-1);
      const palette: number[] = [];
      let air = 0;
      for (let i = 0; i < 4096; i++) {
        const code = chunk.blocks[offset + i]!;
        let index = paletteIndex[code]!;
        if (index === -1) {
          index = paletteIndex[code] = palette.length;
          palette.push(this.stateIds[code]!);
        }
        indices[i] = index;
        if (code === 0) air++;
      }
      if (palette.length === 1) {
        sections.push(new Section({ singleValue: palette[0], maxBitsPerBlock, noSizePrefix }));
        continue;
      }
      let bits = 4; // prismarine-chunk's (and the protocol's) minimum for block palettes
      while (1 << bits < palette.length) bits++;
      const data = new BitArrayNoSpan({ bitsPerValue: bits, capacity: 4096 });
      packValues(data.data, bits, indices);
      const container = new IndirectPaletteContainer({ data, palette, maxBitsPerBlock, noSizePrefix });
      sections.push(new Section({ data: container, solidBlockCount: 4096 - air, noSizePrefix }));
    }
    (column as unknown as { sections: object[] }).sections = sections;
    const at = { x: 0, y: 0, z: 0 };
    for (at.y = MIN_Y; at.y < MIN_Y + WORLD_HEIGHT; at.y += 4) {
      for (at.z = 0; at.z < 16; at.z += 4) {
        for (at.x = 0; at.x < 16; at.x += 4) column.setBiome(at, this.biomeIds[chunk.cells[(at.z >> 2) * 4 + (at.x >> 2)]!]!);
      }
    }
    this.#setSkyLight(column, skyLight(chunk.blocks, chunk.top, this.filter, outsideHeight, this.#light));
    return column;
  }

  /** Puts computed sky light into the column's light sections (all-dark sections are sent as empty). */
  #setSkyLight(column: ChunkColumn, light: Uint8Array): void {
    const target = column as unknown as {
      skyLightSections: Array<BitArray | null>;
      skyLightMask: BitArray;
      emptySkyLightMask: BitArray;
    };
    for (let s = 0; s < LIGHT_LEVELS >> 4; s++) {
      const offset = s << 12;
      // Eight 4-bit values a 32-bit word, the first in the low bits (prismarine-chunk's nibble layout).
      const words = new Uint32Array(512);
      let any = 0;
      for (let w = 0, i = offset; w < 512; w++, i += 8) {
        const word =
          (light[i]! |
            (light[i + 1]! << 4) |
            (light[i + 2]! << 8) |
            (light[i + 3]! << 12) |
            (light[i + 4]! << 16) |
            (light[i + 5]! << 20) |
            (light[i + 6]! << 24) |
            (light[i + 7]! << 28)) >>>
          0;
        words[w] = word;
        any |= word;
      }
      // Light section 0 is the one below the world: world section s is light section s + 1.
      if (any === 0) {
        target.emptySkyLightMask.set(s + 1, 1);
        continue;
      }
      const section = new BitArrayNoSpan({ bitsPerValue: 4, capacity: 4096, data: words.buffer });
      target.skyLightSections[s + 1] = section;
      target.skyLightMask.set(s + 1, 1);
    }
  }
}

/**
 * Packs 4096 palette indices of `bits` bits into prismarine-chunk's no-span layout: 64-bit longs
 * (two 32-bit words, low word first) each holding ⌊64 / bits⌋ values from the low bits up.
 */
function packValues(words: Uint32Array, bits: number, values: Uint8Array): void {
  const perLong = Math.floor(64 / bits);
  let long = 0;
  let inLong = 0;
  for (let i = 0; i < 4096; i++) {
    const bit = inLong * bits;
    const v = values[i]!;
    const lo = long * 2;
    if (bit >= 32) {
      words[lo + 1] = words[lo + 1]! | (v << (bit - 32));
    } else {
      words[lo] = words[lo]! | (v << bit);
      if (bit + bits > 32) words[lo + 1] = words[lo + 1]! | (v >>> (32 - bit));
    }
    if (++inLong === perLong) {
      inLong = 0;
      long++;
    }
  }
}
