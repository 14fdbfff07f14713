/**
 * Statistics of an evaluation: success rates and mean scores, each with a 95 % confidence
 * interval.
 *
 * - Success rate: the **Wilson score interval** (Wilson 1927), which stays inside [0, 1] and
 *   keeps its coverage for the small n and the rates near 0 or 1 that benchmark cells have (the
 *   normal "Wald" interval collapses to a point at 0/n or n/n).
 * - Mean score: the **Student t interval** mean ± t(0.975, n − 1) · s / √n, with s the sample
 *   standard deviation; the t quantile comes from jStat. It needs n ≥ 2; with n = 1 the interval
 *   is the single value's own point (no spread can be estimated), flagged by `n`.
 */
import jstat from 'jstat';

/** The confidence level of every interval here. */
export const CONFIDENCE = 0.95;

/** An estimate with its 95 % confidence interval. */
export interface Estimate {
  /** The point estimate (a rate or a mean). */
  value: number;
  /** Lower end of the 95 % interval. */
  low: number;
  /** Upper end of the 95 % interval. */
  high: number;
  /** Observations it rests on. */
  n: number;
}

/** z for a two-sided 95 % interval: the 0.975 quantile of the standard normal (1.95996…). */
const Z = jstat.jStat.normal.inv(1 - (1 - CONFIDENCE) / 2, 0, 1);

/**
 * The success rate `successes / n` with its Wilson score interval at 95 %.
 *
 * @throws RangeError when `n` < 0 or `successes` is not in [0, n].
 * @returns for n = 0, value 0 and the uninformative interval [0, 1].
 */
export function wilsonInterval(successes: number, n: number): Estimate {
  if (n < 0 || successes < 0 || successes > n) throw new RangeError(`wilsonInterval: ${successes} successes out of ${n}`);
  if (n === 0) return { value: 0, low: 0, high: 1, n: 0 };
  const p = successes / n;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half), n };
}

/**
 * The mean of `values` with its Student t interval at 95 %, cut to `within`: the range the values
 * can take (a score in [0, 1] has no mean above 1, which the t interval of 99 ones and a zero
 * would otherwise reach).
 *
 * @param within the least and the greatest value possible (default: unbounded).
 * @returns for no values, NaN everywhere and n = 0; for one value, that value as all three.
 */
export function meanInterval(values: readonly number[], within: readonly [number, number] = [-Infinity, Infinity]): Estimate {
  const n = values.length;
  if (n === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN, n: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { value: mean, low: mean, high: mean, n };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  const half = jstat.jStat.studentt.inv(1 - (1 - CONFIDENCE) / 2, n - 1) * Math.sqrt(variance / n);
  return { value: mean, low: Math.max(within[0], mean - half), high: Math.min(within[1], mean + half), n };
}

/** The range of a score or a fraction, for {@link meanInterval}. */
export const FRACTION: readonly [number, number] = [0, 1];
