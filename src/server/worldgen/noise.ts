/**
 * Noise fields of the survival generator: simplex noise (the `simplex-noise` package, Stefan
 * Gustavson's algorithm) whose permutation tables are seeded by alea from the world seed and a
 * salt. simplex-noise uses only additions, multiplications, `Math.floor` and `Math.sqrt` (exact in
 * IEEE-754), so a field gives the same values on every machine.
 */
import Alea from 'alea';
import { createNoise2D, createNoise3D, type NoiseFunction2D, type NoiseFunction3D } from 'simplex-noise';

/** A seeded 2D noise function, values in about [-1, 1]. */
export function noise2(seed: number, salt: number): NoiseFunction2D {
  return createNoise2D(Alea(seed, salt, '2d'));
}

/** A seeded 3D noise function, values in about [-1, 1]. */
export function noise3(seed: number, salt: number): NoiseFunction3D {
  return createNoise3D(Alea(seed, salt, '3d'));
}

/**
 * Fractal 2D noise: `octaves` layers of one seeded field, each at twice the frequency and half the
 * amplitude of the one before, normalised to about [-1, 1].
 *
 * @param scale the wavelength of the first octave, in blocks.
 */
export function fbm2(seed: number, salt: number, scale: number, octaves: number): (x: number, z: number) => number {
  const fields: NoiseFunction2D[] = [];
  for (let i = 0; i < octaves; i++) fields.push(noise2(seed, salt * 16 + i));
  let total = 0;
  for (let i = 0, amplitude = 1; i < octaves; i++, amplitude /= 2) total += amplitude;
  const norm = 1 / total;
  const frequency = 1 / scale;
  return (x, z) => {
    let sum = 0;
    let f = frequency;
    let a = 1;
    for (let i = 0; i < octaves; i++) {
      sum += fields[i]!(x * f, z * f) * a;
      f *= 2;
      a /= 2;
    }
    return sum * norm;
  };
}

/** Hermite smoothstep of `x` between `edge0` and `edge1`: 0 below, 1 above, smooth in between. */
export function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}
