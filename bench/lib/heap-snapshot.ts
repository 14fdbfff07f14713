/**
 * Reading V8 heap snapshots (`v8.writeHeapSnapshot()`, DevTools' `.heapsnapshot`) for the bench
 * scripts: the flat node and edge arrays, DevTools' summary groups, and a retaining tree (each
 * object's retainer nearest a GC root, weak edges left out, as DevTools' retainer view orders
 * them). See `bench/lib/heap-diff.ts`.
 *
 * The file format is V8's `HeapSnapshotJSONSerializer` output: `snapshot.meta` names the fields
 * of the flat `nodes` and `edges` arrays and the node and edge types, so they are read from each
 * file, not assumed. Files of hundreds of MB are read as bytes (the number arrays) and only the
 * `strings` array goes through `JSON.parse`. Nodes are named by ordinal (0 is the root).
 */
import { readFileSync } from 'node:fs';

/** One snapshot: the flat arrays V8 writes, with the field offsets read from its meta. */
export interface Snapshot {
  nodes: Float64Array;
  edges: Float64Array;
  strings: string[];
  nodeTypes: string[];
  edgeTypes: string[];
  nodeFieldCount: number;
  edgeFieldCount: number;
  /** Offsets of the node fields this script reads. */
  nf: { type: number; name: number; id: number; selfSize: number; edgeCount: number };
  /** Offsets of the edge fields this script reads. */
  ef: { type: number; nameOrIndex: number; toNode: number };
  /** Index (in nodes) of each node's first edge, by node ordinal; one more entry at the end. */
  firstEdge: Uint32Array;
}

/** The bytes of a top-level `"key":[n,n,...]` array of numbers in `buf`, parsed. */
function numberArray(buf: Buffer, key: string, from: number): { values: Float64Array; end: number } {
  const start = buf.indexOf(`"${key}":[`, from);
  if (start < 0) throw new Error(`The snapshot has no "${key}" array: is it a V8 .heapsnapshot file?`);
  let i = start + key.length + 4;
  let values = new Float64Array(1 << 20);
  let n = 0;
  let current = 0;
  let inNumber = false;
  for (; ; i++) {
    const c = buf[i]!;
    if (c >= 48 && c <= 57) {
      current = current * 10 + (c - 48);
      inNumber = true;
    } else {
      if (inNumber) {
        if (n === values.length) {
          const grown = new Float64Array(values.length * 2);
          grown.set(values);
          values = grown;
        }
        values[n++] = current;
        current = 0;
        inNumber = false;
      }
      if (c === 93) break; // ']'
    }
  }
  return { values: values.subarray(0, n), end: i };
}

/** Reads a `.heapsnapshot` file; throws when it lacks the arrays V8 writes. */
export function load(file: string): Snapshot {
  const buf = readFileSync(file);
  const metaEnd = buf.indexOf('"nodes":[');
  const head = buf.subarray(0, metaEnd).toString('utf8').replace(/,\s*$/, '') + '}';
  const meta = (JSON.parse(head) as { snapshot: { meta: Record<string, unknown> } }).snapshot.meta as {
    node_fields: string[];
    node_types: [string[]];
    edge_fields: string[];
    edge_types: [string[]];
  };
  const nodes = numberArray(buf, 'nodes', metaEnd);
  const edges = numberArray(buf, 'edges', nodes.end);
  const stringsAt = buf.indexOf('"strings":[', edges.end);
  // The strings array runs to the file's last ']' (before the closing '}').
  const stringsEnd = buf.lastIndexOf(']');
  const strings = JSON.parse(buf.subarray(stringsAt + '"strings":'.length, stringsEnd + 1).toString('utf8')) as string[];
  const nodeFieldCount = meta.node_fields.length;
  const edgeFieldCount = meta.edge_fields.length;
  const nf = {
    type: meta.node_fields.indexOf('type'),
    name: meta.node_fields.indexOf('name'),
    id: meta.node_fields.indexOf('id'),
    selfSize: meta.node_fields.indexOf('self_size'),
    edgeCount: meta.node_fields.indexOf('edge_count'),
  };
  const ef = {
    type: meta.edge_fields.indexOf('type'),
    nameOrIndex: meta.edge_fields.indexOf('name_or_index'),
    toNode: meta.edge_fields.indexOf('to_node'),
  };
  const count = nodes.values.length / nodeFieldCount;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes.values[i * nodeFieldCount + nf.edgeCount]! * edgeFieldCount;
    firstEdge[i + 1] = e;
  }
  return {
    nodes: nodes.values,
    edges: edges.values,
    strings,
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    nodeFieldCount,
    edgeFieldCount,
    nf,
    ef,
    firstEdge,
  };
}

/** DevTools' summary group of node `i` (an ordinal). */
export function group(s: Snapshot, i: number): string {
  const type = s.nodeTypes[s.nodes[i * s.nodeFieldCount + s.nf.type]!]!;
  const name = s.strings[s.nodes[i * s.nodeFieldCount + s.nf.name]!]!;
  switch (type) {
    case 'string':
    case 'concatenated string':
    case 'sliced string':
      return 'string';
    case 'number':
    case 'heap number':
      return 'number';
    case 'code':
      return 'code';
    case 'hidden':
      return `hidden ${name.slice(0, 60)}`;
    default:
      return `${type} ${name.length > 60 ? `${name.slice(0, 57)}...` : name}`;
  }
}

/** How many objects the snapshot has. */
export const count = (s: Snapshot) => s.nodes.length / s.nodeFieldCount;
/** Node `i`'s own size (bytes). */
export const selfSize = (s: Snapshot, i: number) => s.nodes[i * s.nodeFieldCount + s.nf.selfSize]!;
/** Node `i`'s id, the same for one object in every snapshot of one process. */
export const id = (s: Snapshot, i: number) => s.nodes[i * s.nodeFieldCount + s.nf.id]!;

/** Count and self size (bytes) per {@link group}. */
export function summary(s: Snapshot): Map<string, { count: number; size: number }> {
  const groups = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < count(s); i++) {
    const key = group(s, i);
    const g = groups.get(key) ?? { count: 0, size: 0 };
    g.count++;
    g.size += selfSize(s, i);
    groups.set(key, g);
  }
  return groups;
}

/** A snapshot's retaining tree: each node's nearest retainer over strong edges from the root. */
export interface Retainers {
  s: Snapshot;
  retainer: Int32Array;
  edge: Int32Array;
  /** Whether node `i` is in both snapshots. */
  kept: (i: number) => boolean;
}

/** The retaining tree of `s`; `otherIds` are the ids of the other snapshot (for {@link Retainers.kept}). */
export function retainers(s: Snapshot, otherIds: Set<number>): Retainers {
  const n = count(s);
  const weak = s.edgeTypes.indexOf('weak');
  const retainer = new Int32Array(n).fill(-1);
  const edge = new Int32Array(n).fill(-1);
  const seen = new Uint8Array(n);
  seen[0] = 1;
  const queue = new Uint32Array(n);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  while (head < tail) {
    const from = queue[head++]!;
    for (let e = s.firstEdge[from]!; e < s.firstEdge[from + 1]!; e += s.edgeFieldCount) {
      if (s.edges[e + s.ef.type] === weak) continue;
      const to = s.edges[e + s.ef.toNode]! / s.nodeFieldCount;
      if (seen[to]) continue;
      seen[to] = 1;
      retainer[to] = from;
      edge[to] = e;
      queue[tail++] = to;
    }
  }
  return { s, retainer, edge, kept: (i) => otherIds.has(id(s, i)) };
}

/** Edge `e`'s name; `[]` for every element of an array when `anyIndex` (a place, not a path). */
export function edgeName(s: Snapshot, e: number, anyIndex = false): string {
  const t = s.edgeTypes[s.edges[e + s.ef.type]!];
  const v = s.edges[e + s.ef.nameOrIndex]!;
  return t === 'element' || t === 'hidden' ? (anyIndex ? '[]' : `[${v}]`) : `.${s.strings[v]}`;
}

/** Node `i`'s path to the root, nearest retainer first. */
export function pathOf(r: Retainers, i: number): string {
  const steps: string[] = [];
  for (let c = i; r.retainer[c]! >= 0 && steps.length < 40; c = r.retainer[c]!)
    steps.push(`${group(r.s, r.retainer[c]!)}${r.kept(r.retainer[c]!) ? '' : ' (*)'} ${edgeName(r.s, r.edge[c]!)}`);
  return `${group(r.s, i)} <- ${steps.join(' <- ')}`;
}

/** What {@link holders} finds for one `group.property` spec. */
export interface Held {
  spec: string;
  /** Element count of each object the property points at (a buffer's length), in node order. */
  lengths: number[];
  /** Objects under those objects in the retaining tree (themselves included), and their self sizes (bytes). */
  objects: number;
  size: number;
}

/**
 * The objects that `group.property` points at, for each spec (`object Client._lastChatHistory`:
 * the `_lastChatHistory` of every object of group `object Client`), with their element counts
 * and what hangs under them in the retaining tree `r` (an object reached first through another
 * spec's holder counts there).
 *
 * @throws {Error} when a spec has no `.` between the group and the property.
 */
export function holders(r: Retainers, specs: string[]): Held[] {
  const s = r.s;
  const n = count(s);
  const targets = new Map<number, number>();
  const held: Held[] = specs.map((spec, k) => {
    const dot = spec.lastIndexOf('.');
    if (dot < 1) throw new Error(`A holder is "group.property", as "object Journal.#entries"; got "${spec}"`);
    const [name, property] = [spec.slice(0, dot), spec.slice(dot + 1)];
    const lengths: number[] = [];
    for (let i = 0; i < n; i++) {
      if (group(s, i) !== name) continue;
      for (let e = s.firstEdge[i]!; e < s.firstEdge[i + 1]!; e += s.edgeFieldCount) {
        if (edgeName(s, e) !== `.${property}`) continue;
        const to = s.edges[e + s.ef.toNode]! / s.nodeFieldCount;
        targets.set(to, k);
        let elements = 0;
        for (let f = s.firstEdge[to]!; f < s.firstEdge[to + 1]!; f += s.edgeFieldCount)
          if (s.edgeTypes[s.edges[f + s.ef.type]!] === 'element') elements++;
        lengths.push(elements);
      }
    }
    return { spec, lengths, objects: 0, size: 0 };
  });
  // Each node's holder (spec index), found by walking up the tree once per node (memoised).
  const owner = new Int32Array(n).fill(-2);
  const chain: number[] = [];
  for (let i = 0; i < n; i++) {
    let c = i;
    let o = -1;
    for (;;) {
      if (owner[c] !== -2) {
        o = owner[c]!;
        break;
      }
      const k = targets.get(c);
      if (k !== undefined) {
        o = k;
        owner[c] = k;
        break;
      }
      chain.push(c);
      if (r.retainer[c]! < 0) break;
      c = r.retainer[c]!;
    }
    for (const x of chain) owner[x] = o;
    chain.length = 0;
    if (owner[i]! >= 0) {
      held[owner[i]!]!.objects++;
      held[owner[i]!]!.size += selfSize(s, i);
    }
  }
  return held;
}
