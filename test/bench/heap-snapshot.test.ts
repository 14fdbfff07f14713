import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, group, holders, id, load, pathOf, retainers, summary } from '../../bench/lib/heap-snapshot.ts';

// A small Node process writes two snapshots: before and after it puts 3,000 `Kept` objects in a
// buffer capped at 1,000 (so 2,000 are gone) and 500 `Grown` ones in a plain array.
const PROGRAM = `
const v8 = require('node:v8');
class Kept { constructor(i) { this.i = i; } }
class Grown { constructor(i) { this.i = i; } }
class Holder { buffer = []; grown = []; }
const holder = new Holder();
globalThis.holder = holder;
v8.writeHeapSnapshot(process.argv[1] + '/a.heapsnapshot');
for (let i = 0; i < 3000; i++) { holder.buffer.push(new Kept(i)); if (holder.buffer.length > 1000) holder.buffer.shift(); }
for (let i = 0; i < 500; i++) holder.grown.push(new Grown(i));
v8.writeHeapSnapshot(process.argv[1] + '/b.heapsnapshot');
`;

describe('bench/lib/heap-snapshot', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'heap-snapshot-test-'));
    await promisify(execFile)(process.execPath, ['-e', PROGRAM, dir]);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('counts objects per group, keeps ids across snapshots and finds a holder with its length', () => {
    const a = load(path.join(dir, 'a.heapsnapshot'));
    const b = load(path.join(dir, 'b.heapsnapshot'));
    expect(summary(a).get('object Kept')).toBeUndefined();
    expect(summary(b).get('object Kept')?.count).toBe(1000);
    expect(summary(b).get('object Grown')?.count).toBe(500);

    // The holder and its arrays are in both snapshots under one id each; the Kept objects only in the later one.
    const idsOfA = new Set(Array.from({ length: count(a) }, (_, i) => id(a, i)));
    const r = retainers(b, idsOfA);
    const kept = Array.from({ length: count(b) }, (_, i) => i).filter((i) => group(b, i) === 'object Kept');
    expect(kept.some((i) => r.kept(i))).toBe(false);
    expect(pathOf(r, kept[0]!)).toMatch(/^object Kept <- object Array \[\d+\] <- object Holder \.buffer <- object global \.holder/);

    const [buffer, grown] = holders(r, ['object Holder.buffer', 'object Holder.grown']);
    expect(buffer!.lengths).toEqual([1000]);
    expect(grown!.lengths).toEqual([500]);
    expect(buffer!.objects).toBeGreaterThanOrEqual(1001);
    expect(() => holders(r, ['buffer'])).toThrow(/"group\.property"/);
  });
});
