/**
 * The task generators' seeded randomness: mulberry32 (Tommy Ettinger's 32-bit generator), the same
 * sequence for the same seed on every machine (32-bit integer arithmetic only). Kept rather than a
 * library's generator because the generated task files (test/fixtures/generated) and the figures
 * measured over them are named by their seeds.
 */

/** A deterministic random source. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  pick<T>(list: readonly T[]): T;
}

/** A seeded {@link Random}: the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)]!,
  };
}
