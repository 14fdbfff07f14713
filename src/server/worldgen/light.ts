/**
 * Sky light of a generated chunk, as vanilla's sky light engine settles it (Minecraft wiki
 * "Light"): light 15 falls straight down from the sky through blocks that do not filter light;
 * the first block that does (leaves and water filter 1, opaque blocks all 15, minecraft-data
 * `filterLight`) takes its filter off, and from there light spreads to the six neighbours, losing
 * `max(1, filter)` a block. So the ground under a tree gets 14 from its open-sky neighbours, a
 * cave mouth is lit a few blocks in, and caves further down are dark (0).
 *
 * Light from the next chunks is estimated from their ground heights (their trees and caves are not
 * looked at): open sky above a neighbour's ground lights this chunk's edge.
 */
import { MIN_Y, WORLD_HEIGHT } from './terrain.ts';

/** Light values per block of the world's sections plus the section above the world (16 more levels). */
export const LIGHT_LEVELS = WORLD_HEIGHT + 16;

/**
 * Computes the sky light of a chunk.
 *
 * @param blocks block codes (indexed `((y − MIN_Y) << 8) | (z << 4) | x`).
 * @param topY no block above this y is anything but air.
 * @param filter light filter (0–15) per block code.
 * @param outsideHeight ground height of a column just outside the chunk (chunk-local x or z of −1
 *   or 16).
 * @param light where to write the result (a scratch array of {@link LIGHT_LEVELS} × 256 may be reused).
 * @returns sky light 0–15 per block, indexed as `blocks`, for y from MIN_Y to MIN_Y + {@link LIGHT_LEVELS} − 1.
 */
export function skyLight(
  blocks: Uint8Array,
  topY: number,
  filter: Uint8Array,
  outsideHeight: (x: number, z: number) => number,
  light: Uint8Array = new Uint8Array(LIGHT_LEVELS * 256),
): Uint8Array {
  const top = MIN_Y + WORLD_HEIGHT - 1;
  // First light-filtering block of each column (y), or MIN_Y − 1 when none.
  const firstFilter = new Int16Array(256);
  light.fill(0, 0, (topY + 1 - MIN_Y) * 256);
  light.fill(15, (topY + 1 - MIN_Y) * 256);
  for (let col = 0; col < 256; col++) {
    let y = topY;
    let i = ((y - MIN_Y) << 8) | col;
    while (y >= MIN_Y && filter[blocks[i]!] === 0) {
      light[i] = 15;
      y--;
      i -= 256;
    }
    firstFilter[col] = y;
    if (y >= MIN_Y) light[i] = Math.max(0, 15 - filter[blocks[i]!]!);
  }
  // Light spreads level by level, brightest first (each block settles at its first, highest level).
  const buckets: number[][] = Array.from({ length: 16 }, () => []);
  const raise = (i: number, level: number): void => {
    if (level > light[i]!) {
      light[i] = level;
      buckets[level]!.push(i);
    }
  };
  const heightAt = (x: number, z: number): number =>
    x < 0 || x > 15 || z < 0 || z > 15 ? outsideHeight(x, z) : firstFilter[(z << 4) | x]!;
  for (let z = 0; z < 16; z++) {
    for (let x = 0; x < 16; x++) {
      const col = (z << 4) | x;
      const own = firstFilter[col]!;
      const highest = Math.max(own, heightAt(x - 1, z), heightAt(x + 1, z), heightAt(x, z - 1), heightAt(x, z + 1));
      // Blocks beside a taller neighbour column, and the first filtering block, spread their light.
      for (let y = Math.max(own, MIN_Y); y <= Math.min(highest + 1, top); y++) {
        const i = ((y - MIN_Y) << 8) | col;
        if (light[i]! > 1) buckets[light[i]!]!.push(i);
      }
      // Open sky just outside the chunk lights this chunk's edge.
      if (x === 0 || x === 15 || z === 0 || z === 15) {
        let outside = Infinity;
        if (x === 0) outside = Math.min(outside, outsideHeight(-1, z));
        if (x === 15) outside = Math.min(outside, outsideHeight(16, z));
        if (z === 0) outside = Math.min(outside, outsideHeight(x, -1));
        if (z === 15) outside = Math.min(outside, outsideHeight(x, 16));
        for (let y = Math.max(outside + 1, MIN_Y); y < own; y++) {
          const i = ((y - MIN_Y) << 8) | col;
          raise(i, 15 - Math.max(1, filter[blocks[i]!]!));
        }
      }
    }
  }
  for (let level = 15; level > 1; level--) {
    const bucket = buckets[level]!;
    for (let k = 0; k < bucket.length; k++) {
      const i = bucket[k]!;
      if (light[i] !== level) continue;
      const x = i & 15;
      const z = (i >> 4) & 15;
      const y = i >> 8;
      for (let k = 0; k < 6; k++) {
        let n: number;
        if (k === 0) {
          if (x === 0) continue;
          n = i - 1;
        } else if (k === 1) {
          if (x === 15) continue;
          n = i + 1;
        } else if (k === 2) {
          if (z === 0) continue;
          n = i - 16;
        } else if (k === 3) {
          if (z === 15) continue;
          n = i + 16;
        } else if (k === 4) {
          if (y === 0) continue;
          n = i - 256;
        } else {
          if (y === WORLD_HEIGHT - 1) continue;
          n = i + 256;
        }
        const f = filter[blocks[n]!]!;
        const next = level - (f > 1 ? f : 1);
        if (next > light[n]!) raise(n, next);
      }
    }
    bucket.length = 0;
  }
  return light;
}
