/**
 * Seeded randomness for the survival generator. Two kinds, both the same on every machine (integer
 * arithmetic and IEEE-754 basic operations only: no `Math.random`, no transcendental functions):
 *
 * - {@link hashAt}: a value for one position (a column, a block), independent of the order in which
 *   anything is generated. Decorations that must agree across chunk borders (trees, plants) use it.
 * - {@link chunkRandom}: a stream for one chunk (ore veins, animal groups): alea (Johannes Baagøe's
 *   PRNG, the `alea` package) seeded with the world seed, the chunk and a salt.
 */
import Alea from 'alea';

/** A seeded stream of numbers in [0, 1). */
export type Random = () => number;

/** murmur3's 32-bit finaliser (fmix32, Austin Appleby's MurmurHash3): a full avalanche of `h`. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A 32-bit hash (unsigned) of the world seed, a salt naming what the value decides, and a
 * position: the same inputs give the same value on any machine and in any order.
 *
 * @example hashAt(seed, SALT.flower, x, z) % 4 // which of four flowers grows at column (x, z)
 */
export function hashAt(seed: number, salt: number, x: number, z: number, y = 0): number {
  let h = fmix32((seed | 0) ^ Math.imul(salt | 0, 0x9e3779b1));
  h = fmix32(h ^ Math.imul(x | 0, 0x85ebca77));
  h = fmix32(h ^ Math.imul(z | 0, 0xc2b2ae3d));
  return fmix32(h ^ Math.imul(y | 0, 0x27d4eb2f));
}

/** {@link hashAt} as a number in [0, 1). */
export function unitAt(seed: number, salt: number, x: number, z: number, y = 0): number {
  return hashAt(seed, salt, x, z, y) / 4294967296;
}

/** A stream for one chunk and purpose (alea seeded with the seed, the chunk and the salt). */
export function chunkRandom(seed: number, salt: number, chunkX: number, chunkZ: number): Random {
  return Alea(seed, salt, chunkX, chunkZ);
}

/** A whole number in [0, n) from a stream (vanilla `RandomSource.nextInt(n)`). */
export function nextInt(random: Random, n: number): number {
  return Math.floor(random() * n);
}

/** A whole number in [min, max] from a stream (vanilla `nextIntBetweenInclusive`). */
export function nextBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** An entry of `list` drawn by weight (vanilla `WeightedRandomList.getRandom`); `list` must not be empty. */
export function pickByWeight<T extends { weight: number }>(list: readonly T[], random: Random): T {
  let pick = nextInt(
    random,
    list.reduce((sum, e) => sum + e.weight, 0),
  );
  return list.find((e) => (pick -= e.weight) < 0)!;
}

/**
 * Salts: what each hash or stream decides. Values are arbitrary but fixed (changing one changes
 * every world).
 */
export const SALT = {
  continent: 1,
  hills: 2,
  hilliness: 3,
  detail: 4,
  river: 5,
  temperature: 6,
  humidity: 7,
  variant: 8,
  border: 9,
  caveA: 10,
  caveB: 11,
  cheese: 12,
  entrance: 13,
  soil: 14,
  deepslate: 15,
  bedrock: 16,
  disk: 17,
  podzol: 18,
  ores: 19,
  treeCount: 20,
  treeSpot: 21,
  treeShape: 22,
  leafCorner: 23,
  plant: 24,
  plantKind: 25,
  plantHeight: 26,
  tulips: 27,
  flowerPatch: 28,
  pumpkins: 29,
  animals: 30,
  oreDiscard: 31,
} as const;
