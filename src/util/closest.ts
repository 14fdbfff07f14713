import { distance } from 'fastest-levenshtein';

/**
 * The `n` candidates closest to `query`: those containing it (or contained in it) first, shortest
 * first, then the rest by edit distance (to the whole name or, for a cut-off query, its start).
 */
export function closestNames(query: string, candidates: Iterable<string>, n = 3): string[] {
  const q = query.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    const contains = lower.includes(q) || (q.length >= 3 && q.includes(lower));
    scored.push({
      name,
      score: contains ? Math.abs(lower.length - q.length) - 1000 : Math.min(distance(q, lower), distance(q, lower.slice(0, q.length)) + 1),
    });
  }
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, n)
    .map((s) => s.name);
}
