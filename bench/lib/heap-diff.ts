/**
 * Compares two V8 heap snapshots of the same process (`v8.writeHeapSnapshot()`, as
 * `bench/soak.ts --heap-snapshots` writes them) and prints what the later one holds more of.
 *
 * 1. Every object grouped as DevTools' summary groups it (`object Map`, `closure onData`,
 *    `array (object elements)`, `string`, ...): count and self size in each snapshot, and the
 *    difference, the largest growth first.
 * 2. The objects of the later snapshot that the earlier one lacks, and those of the earlier one
 *    the later one lacks (V8 keeps an object's id across the snapshots of one process), each by
 *    the place it hangs from: its retaining path (see `heap-snapshot.ts`) is followed up to the
 *    first object both snapshots have. That object with two steps of its own path, the edge and
 *    the first new (or gone) object name the place (`object Agent .journal > object Journal
 *    .#entries > object Array [] -> object Object`); objects held only through other new ones
 *    count towards the same place. Places are listed by net growth (new minus gone, self
 *    sizes), one sample path to a root for each of the first, then by churn (a bounded buffer
 *    that is full replaces as much as it adds).
 *
 * 3. With `--holder "object Journal.#entries"` (repeatable): in each snapshot, the element count
 *    of every `#entries` of an `object Journal`, and the objects and MB under them. A buffer
 *    still filling to its cap looks like a leak in 1 and 2; its counts say how far it is from
 *    the cap.
 *
 *   npx node bench/lib/heap-diff.ts OLD.heapsnapshot NEW.heapsnapshot [--top 30] [--paths 10]
 *                                   [--group "object Foo"]   (sample paths for one group's new objects)
 *                                   [--holder "object Client._lastChatHistory" ...]
 */
import { parseArgs } from 'node:util';
import {
  count,
  edgeName,
  group,
  holders,
  id,
  load,
  pathOf,
  retainers,
  selfSize,
  summary,
  type Retainers,
  type Snapshot,
} from './heap-snapshot.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    paths: { type: 'string', default: '10' },
    group: { type: 'string' },
    holder: { type: 'string', multiple: true },
  },
});
if (positionals.length !== 2) {
  console.error('heap-diff expects two snapshot files: OLD.heapsnapshot NEW.heapsnapshot (see the header for options)');
  process.exit(2);
}
const top = Number(args.top);
const pathCount = Number(args.paths);
if (!Number.isInteger(top) || top < 1) throw new RangeError(`--top expects a whole number ≥ 1, got "${args.top}"`);
if (!Number.isInteger(pathCount) || pathCount < 0) throw new RangeError(`--paths expects a whole number ≥ 0, got "${args.paths}"`);

const [oldFile, newFile] = positionals as [string, string];
const before = load(oldFile);
const after = load(newFile);
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
const total = (s: Snapshot) => {
  let size = 0;
  for (let i = 0; i < count(s); i++) size += selfSize(s, i);
  return size;
};
console.log(`old: ${count(before)} objects, ${mb(total(before))} MB; new: ${count(after)} objects, ${mb(total(after))} MB`);

// 1. Groups, by growth of their self size.
const a = summary(before);
const b = summary(after);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
  const x = a.get(key) ?? { count: 0, size: 0 };
  const y = b.get(key) ?? { count: 0, size: 0 };
  return { key, count: y.count - x.count, size: y.size - x.size, before: x, after: y };
});
rows.sort((p, q) => q.size - p.size);
console.log(`\n## Groups by growth (top ${top})\n| group | count old → new (Δ) | MB old → new (Δ) |\n| --- | --- | --- |`);
for (const r of rows.slice(0, top)) {
  console.log(
    `| ${r.key} | ${r.before.count} → ${r.after.count} (${r.count >= 0 ? '+' : ''}${r.count}) | ${mb(r.before.size)} → ${mb(r.after.size)} (${r.size >= 0 ? '+' : ''}${mb(r.size)}) |`,
  );
}
console.log(`\n## Groups by shrinkage (top 10)`);
for (const r of rows.slice(-10).reverse()) console.log(`| ${r.key} | ${r.count} | ${mb(r.size)} |`);

// 2. Objects new in the later snapshot and objects gone from the earlier one, by place.

/**
 * Where node `i` (new, or gone) hangs: the first object on its retaining path that both snapshots
 * have, two steps of that object's own path, the edge and the group of the first new (or gone)
 * object; undefined when no root reaches it.
 */
function place(r: Retainers, i: number): string | undefined {
  if (i !== 0 && r.retainer[i]! < 0) return undefined;
  let child = i;
  while (r.retainer[child]! >= 0 && !r.kept(r.retainer[child]!)) child = r.retainer[child]!;
  const holder = r.retainer[child]!;
  if (holder < 0) return `(root) -> ${group(r.s, child)}`;
  let key = `${group(r.s, holder)} ${edgeName(r.s, r.edge[child]!, true)} -> ${group(r.s, child)}`;
  for (let c = holder, k = 0; k < 2 && r.retainer[c]! >= 0; c = r.retainer[c]!, k++)
    key = `${group(r.s, r.retainer[c]!)} ${edgeName(r.s, r.edge[c]!, true)} > ${key}`;
  return key;
}

const idsOf = (s: Snapshot) => {
  const ids = new Set<number>();
  for (let i = 0; i < count(s); i++) ids.add(id(s, i));
  return ids;
};
const later = retainers(after, idsOf(before));
const earlier = retainers(before, idsOf(after));
interface Place {
  added: number;
  addedSize: number;
  gone: number;
  goneSize: number;
  /** A new object there (later snapshot), else a gone one (earlier snapshot). */
  sample?: number;
  goneSample?: number;
}
const places = new Map<string, Place>();
const byGroup = new Map<string, { count: number; size: number }>();
const tally = (r: Retainers, added: boolean) => {
  let total = 0;
  let size = 0;
  let unreachable = 0;
  for (let i = 0; i < count(r.s); i++) {
    if (r.kept(i)) continue;
    total++;
    size += selfSize(r.s, i);
    if (added) {
      const g = group(r.s, i);
      const bg = byGroup.get(g) ?? { count: 0, size: 0 };
      bg.count++;
      bg.size += selfSize(r.s, i);
      byGroup.set(g, bg);
    }
    const key = place(r, i);
    if (key === undefined) {
      unreachable += selfSize(r.s, i);
      continue;
    }
    const p = places.get(key) ?? { added: 0, addedSize: 0, gone: 0, goneSize: 0 };
    if (added) {
      p.added++;
      p.addedSize += selfSize(r.s, i);
      p.sample ??= i;
    } else {
      p.gone++;
      p.goneSize += selfSize(r.s, i);
      p.goneSample ??= i;
    }
    places.set(key, p);
  }
  return { total, size, unreachable };
};
const added = tally(later, true);
const gone = tally(earlier, false);
console.log(
  `\n## Objects new in the later snapshot: ${added.total}, ${mb(added.size)} MB; gone from the earlier one: ${gone.total}, ${mb(gone.size)} MB`,
);
console.log(`\n### New objects by group (top ${top})\n| group | count | MB |\n| --- | --- | --- |`);
for (const [key, g] of [...byGroup].sort((p, q) => q[1].size - p[1].size).slice(0, top))
  console.log(`| ${key} | ${g.count} | ${mb(g.size)} |`);

console.log(
  `\n### Net growth by place (top ${top}; a sample path for the first ${pathCount}, (*) marking new objects)\n` +
    'A place: the nearest object both snapshots have on the retaining path (with two steps above it), the edge, the first new or gone object.',
);
const sortedPlaces = [...places].sort((p, q) => q[1].addedSize - q[1].goneSize - (p[1].addedSize - p[1].goneSize));
sortedPlaces.slice(0, top).forEach(([key, p], k) => {
  console.log(
    `- net ${p.addedSize >= p.goneSize ? '+' : ''}${mb(p.addedSize - p.goneSize)} MB, ${p.added - p.gone >= 0 ? '+' : ''}${p.added - p.gone} objects (+${p.added} / -${p.gone}): ${key}`,
  );
  if (k < pathCount && p.sample !== undefined) console.log(`    ${pathOf(later, p.sample)}`);
});
console.log(`\n### Largest churn without growth (top 10 by objects replaced)`);
for (const [key, p] of [...places]
  .sort((x, y) => Math.min(y[1].addedSize, y[1].goneSize) - Math.min(x[1].addedSize, x[1].goneSize))
  .slice(0, 10))
  console.log(`- +${mb(p.addedSize)} / -${mb(p.goneSize)} MB (+${p.added} / -${p.gone}): ${key}`);
if (args.group !== undefined) {
  console.log(`\n### Sample paths of new objects of group "${args.group}"`);
  let shown = 0;
  for (let i = 0; i < count(after) && shown < Math.max(pathCount, 1); i++) {
    if (later.kept(i) || group(after, i) !== args.group || (i !== 0 && later.retainer[i]! < 0)) continue;
    console.log(`- ${pathOf(later, i)}`);
    shown++;
  }
}

if (args.holder?.length) {
  console.log(`\n## Holders: element counts, and the objects under them`);
  for (const [name, r] of [
    [oldFile, earlier],
    [newFile, later],
  ] as const) {
    console.log(`${name}:`);
    for (const h of holders(r, args.holder)) {
      const sum = h.lengths.reduce((x, y) => x + y, 0);
      console.log(
        `- ${h.spec}: ${h.lengths.length} found, elements [${h.lengths.join(', ')}] (${sum} in all); ${h.objects} objects, ${mb(h.size)} MB`,
      );
    }
  }
}
