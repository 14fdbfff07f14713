/**
 * A node's retrieval paths into the task data (VillagerAgent §3.2: the decomposer writes "JSON
 * path expressions" per subtask and each node queries its data D with them; its prompt's example:
 * for `{"meta-data": {"blueprint": [{"c": 1}]}}` the path of `{"c": 1}` is `~/meta-data/blueprint/0`).
 *
 * A path is `~/` (or `/`, or nothing) followed by segments separated by `/`. Each segment picks:
 * - in a list: the element at a 0-based index (`0`, `12`);
 * - in an object: the key equal to the segment; else the key equal ignoring case; else the keys
 *   that start with it, ignoring case (prefix matching: `~/meta/blue` finds `meta-data/blueprint`).
 *   Several keys matching the last segment give an object of all of them; several matching a
 *   segment in the middle is ambiguous, and so a problem.
 * An empty path (`~`, `~/`) is the whole data.
 */

/** What {@link retrieve} found, or why it found nothing. */
export type Retrieval = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * The data at `path` in `data`.
 *
 * @example retrieve({ 'meta-data': { blueprint: [{ c: 1 }] } }, '~/meta-data/blueprint/0') // { ok: true, value: { c: 1 } }
 * @returns `{ ok: false, reason }` naming the segment that matched nothing and what was there.
 */
export function retrieve(data: unknown, path: string): Retrieval {
  const segments = path
    .trim()
    .replace(/^~?\/?/, '')
    .split('/')
    .filter((s) => s !== '');
  let at: unknown = data;
  const walked: string[] = ['~'];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const last = i === segments.length - 1;
    const where = walked.join('/');
    if (Array.isArray(at)) {
      if (!/^\d+$/.test(seg))
        return { ok: false, reason: `${path}: ${where} is a list of ${at.length}; "${seg}" is not an index (0 to ${at.length - 1})` };
      const index = Number(seg);
      if (index >= at.length)
        return { ok: false, reason: `${path}: ${where} has ${at.length} element${at.length === 1 ? '' : 's'}; no index ${index}` };
      at = at[index];
    } else if (at !== null && typeof at === 'object') {
      const obj = at as Record<string, unknown>;
      const keys = Object.keys(obj);
      const lower = seg.toLowerCase();
      const exact = keys.includes(seg) ? [seg] : keys.filter((k) => k.toLowerCase() === lower);
      const matches = exact.length ? exact : keys.filter((k) => k.toLowerCase().startsWith(lower));
      if (matches.length === 0) return { ok: false, reason: `${path}: ${where} has no key "${seg}" (keys: ${keys.join(', ') || 'none'})` };
      if (matches.length > 1) {
        if (!last) return { ok: false, reason: `${path}: "${seg}" is ambiguous at ${where} (${matches.join(', ')})` };
        return { ok: true, value: Object.fromEntries(matches.map((k) => [k, obj[k]])) };
      }
      at = obj[matches[0]!];
      walked.push(matches[0]!);
      continue;
    } else {
      return { ok: false, reason: `${path}: ${where} is ${at === null ? 'null' : typeof at}, which has no "${seg}"` };
    }
    walked.push(seg);
  }
  return { ok: true, value: at };
}

/**
 * The data at each of `paths`: found values by path, and the problems of the others.
 */
export function retrieveAll(data: unknown, paths: readonly string[]): { values: Record<string, unknown>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const p of paths) {
    const r = retrieve(data, p);
    if (r.ok) values[p] = r.value;
    else problems.push(r.reason);
  }
  return { values, problems };
}

/**
 * The paths of `data` down to `depth` levels, one line each with what is there (`~/meta-data/blueprint: list of 2`),
 * at most `maxLines` lines: what a decomposer needs to write retrieval paths.
 */
export function outlinePaths(data: unknown, depth = 3, maxLines = 40): string[] {
  const lines: string[] = [];
  const what = (v: unknown): string =>
    Array.isArray(v)
      ? `list of ${v.length}`
      : v !== null && typeof v === 'object'
        ? `object (${Object.keys(v).slice(0, 8).join(', ')}${Object.keys(v).length > 8 ? ', …' : ''})`
        : JSON.stringify(v).slice(0, 60);
  const walk = (v: unknown, path: string, level: number): void => {
    if (lines.length >= maxLines || level >= depth || v === null || typeof v !== 'object') return;
    const entries: [string, unknown][] = Array.isArray(v) ? v.slice(0, 3).map((x, i) => [String(i), x]) : Object.entries(v);
    for (const [k, child] of entries) {
      if (lines.length >= maxLines) return;
      lines.push(`${path}/${k}: ${what(child)}`);
      walk(child, `${path}/${k}`, level + 1);
    }
  };
  walk(data, '~', 0);
  return lines;
}
