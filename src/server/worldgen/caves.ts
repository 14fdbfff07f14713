/**
 * Noise caves: winding tunnels where two 3D noises are both near zero (vanilla 1.18's "spaghetti"
 * caves work the same way) and, deeper down, caverns where a third noise is high (vanilla's
 * "cheese" caves). As vanilla does, the noises are sampled on a coarse grid (every 4 blocks across,
 * 8 up: vanilla's noise cell is 4×8×4) and interpolated in between, which is what makes them cheap.
 * The grid is global, so neighbouring chunks meet seamlessly.
 *
 * Caves keep three blocks of ground over them, except where ./terrain.ts `caveEntrance` lets them
 * open to the surface (hillside and meadow openings: how a player finds ores without digging),
 * keep four blocks under lakes and rivers, and never reach the bedrock floor (y ≤ −59). Vanilla
 * fills caves below y −55 with lava; these stay air.
 */
import type { NoiseFunction3D } from 'simplex-noise';
import { AIR, WATER } from './blocks.ts';
import { noise3 } from './noise.ts';
import { SALT } from './random.ts';
import { MIN_Y } from './terrain.ts';

/** Grid spacing across and up (blocks). */
const CELL_XZ = 4;
const CELL_Y = 8;
/** Lowest y a cave reaches (the bedrock floor's gradient ends at −60). */
export const CAVE_FLOOR = -58;
/** Tunnels: a² + b² below this (tunnel width). */
const TUNNEL = 0.018;
/** Caverns: the cavern noise above this (higher near the surface). */
const CAVERN = 0.56;

/** The cave noises of one seed. */
export class Caves {
  readonly #a: NoiseFunction3D;
  readonly #b: NoiseFunction3D;
  readonly #c: NoiseFunction3D;

  constructor(seed: number) {
    this.#a = noise3(seed, SALT.caveA);
    this.#b = noise3(seed, SALT.caveB);
    this.#c = noise3(seed, SALT.cheese);
  }

  /**
   * Carves the chunk whose north-west column is (x0, z0): every block at or below its column's
   * `tops` entry (chunk-local index `z * 16 + x`) and above {@link CAVE_FLOOR} where the noises
   * say cave becomes air.
   *
   * @param blocks the chunk's block codes, indexed `((y − MIN_Y) << 8) | (z << 4) | x`.
   */
  carve(blocks: Uint8Array, x0: number, z0: number, tops: Int16Array): void {
    let maxTop = CAVE_FLOOR;
    for (let i = 0; i < 256; i++) maxTop = Math.max(maxTop, tops[i]!);
    const layers = Math.floor((maxTop - MIN_Y) / CELL_Y) + 2;
    const grid = 16 / CELL_XZ + 1;
    const size = grid * grid * layers;
    const ga = new Float64Array(size);
    const gb = new Float64Array(size);
    const gc = new Float64Array(size);
    for (let l = 0; l < layers; l++) {
      const y = MIN_Y + l * CELL_Y;
      for (let gz = 0; gz < grid; gz++) {
        for (let gx = 0; gx < grid; gx++) {
          const x = x0 + gx * CELL_XZ;
          const z = z0 + gz * CELL_XZ;
          const i = (l * grid + gz) * grid + gx;
          ga[i] = this.#a(x / 56, y / 28, z / 56);
          gb[i] = this.#b(x / 56, y / 28, z / 56);
          gc[i] = this.#c(x / 80, y / 40, z / 80);
        }
      }
    }
    const colA = new Float64Array(layers);
    const colB = new Float64Array(layers);
    const colC = new Float64Array(layers);
    for (let lz = 0; lz < 16; lz++) {
      const gz = lz >> 2;
      const tz = (lz & 3) / CELL_XZ;
      for (let lx = 0; lx < 16; lx++) {
        const top = tops[lz * 16 + lx]!;
        if (top <= CAVE_FLOOR) continue;
        const gx = lx >> 2;
        const tx = (lx & 3) / CELL_XZ;
        // Bilinear across, per grid layer.
        for (let l = 0; l < layers; l++) {
          const i00 = (l * grid + gz) * grid + gx;
          const i10 = i00 + 1;
          const i01 = i00 + grid;
          const i11 = i01 + 1;
          colA[l] = lerp(lerp(ga[i00]!, ga[i10]!, tx), lerp(ga[i01]!, ga[i11]!, tx), tz);
          colB[l] = lerp(lerp(gb[i00]!, gb[i10]!, tx), lerp(gb[i01]!, gb[i11]!, tx), tz);
          colC[l] = lerp(lerp(gc[i00]!, gc[i10]!, tx), lerp(gc[i01]!, gc[i11]!, tx), tz);
        }
        for (let y = CAVE_FLOOR; y <= top; y++) {
          const l = (y - MIN_Y) >> 3;
          const ty = ((y - MIN_Y) & 7) / CELL_Y;
          const a = lerp(colA[l]!, colA[l + 1]!, ty);
          const b = lerp(colB[l]!, colB[l + 1]!, ty);
          let cave = a * a + b * b < TUNNEL;
          if (!cave) {
            const c = lerp(colC[l]!, colC[l + 1]!, ty);
            cave = c > CAVERN + (y > 16 ? (y - 16) / 48 : 0);
          }
          if (cave) {
            const index = ((y - MIN_Y) << 8) | (lz << 4) | lx;
            if (blocks[index] !== WATER) blocks[index] = AIR;
          }
        }
      }
    }
  }
}

function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}
