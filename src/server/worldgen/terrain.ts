/**
 * The shape of the survival world, as pure functions of the seed and a column (x, z): the height of
 * the ground, rivers and lakes, the climate and the biome. Nothing here knows a Minecraft version or
 * a chunk format; ./generator.ts fills chunks from it and ./spawn.ts searches it.
 *
 * The model (our own, shaped to look like vanilla 1.18+ plains, forests and hills; vanilla's own
 * density functions are far too slow for on-demand generation in JavaScript):
 * - ground: a base around y 65 from a slow "continent" noise, plus hills whose amplitude
 *   (4–34 blocks) follows a "hilliness" noise, plus a little detail;
 * - rivers: where a slow noise crosses zero, a valley pulls the ground towards sea level and a
 *   channel cuts down to y 57; water fills every column below the sea surface (blocks y ≤ 62: sea
 *   level 63 as in vanilla's overworld `NoiseGeneratorSettings`), so low ground makes lakes;
 * - climate: temperature, humidity and a variant noise choose the biome (see {@link climateBiome}).
 */
import { BIOME } from './blocks.ts';
import { fbm2, noise2, smoothstep } from './noise.ts';
import { SALT } from './random.ts';

/** Lowest block y of the overworld (vanilla dimension type `minecraft:overworld`, `min_y`). */
export const MIN_Y = -64;
/** Height of the overworld in blocks (`height` of the dimension type). */
export const WORLD_HEIGHT = 384;
/** Vanilla's overworld sea level (`NoiseGeneratorSettings.seaLevel` 63): water fills y < 63. */
export const SEA_LEVEL = 63;
/** The highest water block of seas, lakes and rivers. */
export const WATER_TOP = SEA_LEVEL - 1;
/** Highest ground the generator makes (leaves room for the tallest tree). */
const MAX_GROUND = 200;

/** How far (in blocks) from the river's centre line its channel and valley reach, in noise units. */
const CHANNEL = 0.035;
const VALLEY_INNER = 0.02;
const VALLEY_OUTER = 0.12;
/** River bed at the centre of the channel. */
const RIVER_BED = 57;

/** One column of the world as the shape functions see it. */
export interface ColumnShape {
  /** y of the top ground block. */
  height: number;
  /** True when the column is in a river channel (its water is the river biome). */
  channel: boolean;
}

/**
 * The terrain functions of one seed. Construction builds the noise tables (a few ms); every method
 * is pure after that.
 */
export class Terrain {
  readonly seed: number;
  readonly #continent;
  readonly #hills;
  readonly #hilliness;
  readonly #detail;
  readonly #river;
  readonly #temperature;
  readonly #humidity;
  readonly #variant;
  readonly #border;
  readonly #entrance;

  constructor(seed: number) {
    this.seed = seed;
    this.#continent = fbm2(seed, SALT.continent, 900, 2);
    this.#hills = fbm2(seed, SALT.hills, 170, 4);
    this.#hilliness = noise2(seed, SALT.hilliness);
    this.#detail = noise2(seed, SALT.detail);
    this.#river = fbm2(seed, SALT.river, 520, 2);
    this.#temperature = fbm2(seed, SALT.temperature, 700, 2);
    this.#humidity = fbm2(seed, SALT.humidity, 700, 2);
    this.#variant = fbm2(seed, SALT.variant, 350, 2);
    this.#border = noise2(seed, SALT.border);
    this.#entrance = noise2(seed, SALT.entrance);
  }

  /** The river noise's distance from its zero line (0 on the centre line of a river). */
  riverDistance(x: number, z: number): number {
    return Math.abs(this.#river(x, z));
  }

  /** Height and river of column (x, z). */
  shape(x: number, z: number): ColumnShape {
    const continent = this.#continent(x, z);
    const hilliness = smoothstep(-0.2, 0.6, this.#hilliness(x / 420, z / 420));
    const hills = this.#hills(x, z);
    let h = 65 + 7 * continent + (4 + 30 * hilliness) * (hills + 0.25) + 1.2 * this.#detail(x / 28, z / 28);
    const r = this.riverDistance(x, z);
    let channel = false;
    if (r < VALLEY_OUTER && h > SEA_LEVEL) h -= (h - SEA_LEVEL) * (1 - smoothstep(VALLEY_INNER, VALLEY_OUTER, r));
    if (r < CHANNEL) {
      const bed = RIVER_BED + (SEA_LEVEL - RIVER_BED) * (r / CHANNEL);
      if (bed < h) h = bed;
      channel = true;
    }
    const height = Math.min(MAX_GROUND, Math.max(MIN_Y + 16, Math.floor(h)));
    return { height, channel: channel && height < WATER_TOP };
  }

  /** y of the top ground block of column (x, z). */
  height(x: number, z: number): number {
    return this.shape(x, z).height;
  }

  /**
   * The biome of dry land at (x, z) from the climate: hot and dry is desert, cold is taiga, dry is
   * plains (sunflower plains where the variant noise is high), the rest forest: birch forest or
   * flower forest where the variant noise is high or low. A small, fast noise frays the borders.
   */
  climateBiome(x: number, z: number): number {
    const fray = 0.05 * this.#border(x / 24, z / 24);
    const t = this.#temperature(x, z) + fray;
    const w = this.#humidity(x, z) - fray;
    const v = this.#variant(x, z);
    if (t > 0.4 && w < -0.05) return BIOME.desert;
    if (t < -0.35) return BIOME.taiga;
    if (w < -0.08) return v > 0.45 ? BIOME.sunflower_plains : BIOME.plains;
    if (v > 0.25) return BIOME.birch_forest;
    if (v < -0.45) return BIOME.flower_forest;
    return BIOME.forest;
  }

  /**
   * Whether caves may open to the surface at (x, z): elsewhere they keep at least three blocks of
   * ground above them. Trees never stand on such columns (see ./trees.ts).
   */
  caveEntrance(x: number, z: number): boolean {
    return this.#entrance(x / 70, z / 70) > 0.6;
  }
}
