/** History summarised in the background, and the persisted memory file. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { History, MAX_MEMORY_CHARS } from '../../src/agent/history.ts';
import { CorruptMemoryError, MemoryStore, readMemoryFile } from '../../src/agent/memory-store.ts';
import type { ChatTurn } from '../../src/models/types.ts';
import { waitUntil } from '../helpers/wait.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'memory-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const user = (content: string): ChatTurn => ({ role: 'user', content });

describe('History', () => {
  test('over the limit, the oldest turns are summarised in the background; they stay until the summary lands', async () => {
    let release: (text: string) => void = () => {};
    const calls: { memory: string; turns: string[] }[] = [];
    const h = new History({
      maxMessages: 6,
      summarise: (memory, turns) => {
        calls.push({ memory, turns: turns.map((t) => t.content) });
        return new Promise((r) => {
          release = r;
        });
      },
    });
    for (let i = 1; i <= 7; i++) h.add(user(`m${i}`));
    expect(h.summarising).toBe(true);
    expect(calls).toEqual([{ memory: '', turns: ['m1', 'm2'] }]);
    // Adding goes on while the summary is pending; nothing is lost from the prompt meanwhile.
    h.add(user('m8'));
    h.add(user('m9'));
    expect(h.turns.map((t) => t.content)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
    expect(calls).toHaveLength(1);
    release('x'.repeat(MAX_MEMORY_CHARS + 100));
    // A second summary follows for the turns still over the limit, with the new memory.
    await waitUntil(() => calls.length === 2, 'the second summary to be asked for');
    expect(h.memory).toHaveLength(MAX_MEMORY_CHARS);
    expect(calls[1]!.memory).toBe(h.memory);
    release('short memory');
    await h.settled();
    expect(h.memory).toBe('short memory');
    expect(h.turns.length).toBeLessThanOrEqual(6);
    expect(h.turns.at(-1)?.content).toBe('m9');
  });

  test('a failing summariser still bounds the history; without one the oldest turns are dropped; clear() discards a pending summary', async () => {
    const failing = new History({
      maxMessages: 4,
      summarise: async () => {
        throw new Error('down');
      },
    });
    for (let i = 0; i < 20; i++) failing.add(user(`t${i}`));
    await failing.settled();
    expect(failing.turns.length).toBeLessThanOrEqual(4);
    expect(failing.memory).toBe('');

    const plain = new History({ maxMessages: 3 });
    for (let i = 0; i < 5; i++) plain.add(user(`p${i}`));
    expect(plain.turns.map((t) => t.content)).toEqual(['p2', 'p3', 'p4']);

    let release: (text: string) => void = () => {};
    const h = new History({
      maxMessages: 2,
      summarise: () =>
        new Promise((r) => {
          release = r;
        }),
    });
    for (let i = 0; i < 3; i++) h.add(user(`c${i}`));
    h.clear();
    h.add(user('fresh'));
    release('stale memory');
    await h.settled();
    expect(h.memory).toBe('');
    expect(h.turns.map((t) => t.content)).toEqual(['fresh']);
  });
});

describe('MemoryStore', () => {
  test('debounces writes, writes atomically, and reads back memory, turns, goal, places and modes', async () => {
    const file = path.join(dir, 'Andy', 'memory.json');
    const store = new MemoryStore({ file, debounceMs: 50 });
    let turns: ChatTurn[] = [user('Steve: hi')];
    store.snapshot = () => ({ memory: 'Steve likes oak.', turns, goal: { text: 'build a hut', state: 'active' }, lastPartner: 'Jill' });
    store.places.set('Home', { x: 1, y: 64, z: -3, dimension: 'overworld' });
    store.setModes({ hunting: false, cheat: true });
    turns = [...turns, { role: 'assistant', content: 'Hello!' }];
    store.changed();
    expect(existsSync(file)).toBe(false); // not yet: debounced
    const changedAt = Date.now();
    await waitUntil(() => existsSync(file), 'the memory file to be written');
    expect(Date.now() - changedAt).toBeGreaterThanOrEqual(45); // after the 50 ms debounce (timers may fire a ms early)
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const saved = readMemoryFile(file)!;
    expect(saved).toMatchObject({
      memory: 'Steve likes oak.',
      turns: [user('Steve: hi'), { role: 'assistant', content: 'Hello!' }],
      goal: { text: 'build a hut', state: 'active' },
      places: { home: { x: 1, y: 64, z: -3, dimension: 'overworld' } },
      modes: { hunting: false, cheat: true },
      lastPartner: 'Jill',
    });

    const reloaded = new MemoryStore({ file, load: true });
    expect(reloaded.loaded?.memory).toBe('Steve likes oak.');
    expect(reloaded.places.get('HOME')).toEqual({ x: 1, y: 64, z: -3, dimension: 'overworld' });
    expect(reloaded.modes).toEqual({ hunting: false, cheat: true });
    expect(new MemoryStore({ file, load: false }).loaded).toBeUndefined();
    expect(new MemoryStore({ file, load: false }).places.list()).toEqual([]);
  });

  test('places named __proto__, constructor or toString survive a reload like any other name', async () => {
    const file = path.join(dir, 'Proto', 'memory.json');
    const store = new MemoryStore({ file, debounceMs: 60_000 });
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'home'];
    names.forEach((name, i) => store.places.set(name, { x: i, y: 64, z: 100 + i, dimension: 'overworld' }));
    store.setModes({ hunting: false });
    await store.flush();
    const reloaded = new MemoryStore({ file, load: true });
    expect(reloaded.places.list().map(([n]) => n)).toEqual(names.map((n) => n.toLowerCase()));
    names.forEach((name, i) => expect(reloaded.places.get(name)).toEqual({ x: i, y: 64, z: 100 + i, dimension: 'overworld' }));
    expect(Object.keys(readMemoryFile(file)!.places)).toEqual(names.map((n) => n.toLowerCase()));
    // A hand-edited file with such keys in "modes" and "places" is read safely too.
    writeFileSync(file, '{"places":{"__proto__":{"x":1,"y":2,"z":3}},"modes":{"__proto__":true,"constructor":false,"hunting":true}}');
    const edited = readMemoryFile(file)!;
    expect(edited.places.__proto__).toEqual({ x: 1, y: 2, z: 3, dimension: 'overworld' });
    expect(Object.keys(edited.modes)).toEqual(['__proto__', 'constructor', 'hunting']);
    expect(new MemoryStore({ file, load: true }).places.get('__proto__')).toEqual({ x: 1, y: 2, z: 3, dimension: 'overworld' });
  });

  test('flush() writes a pending change at once; bad place names are refused', async () => {
    const file = path.join(dir, 'Jill', 'memory.json');
    const store = new MemoryStore({ file, debounceMs: 60_000 });
    store.snapshot = () => ({ memory: 'm', turns: [] });
    store.changed();
    await store.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).memory).toBe('m');
    expect(() => store.places.set(' ', { x: 0, y: 0, z: 0, dimension: 'overworld' })).toThrow(/name/);
    expect(() => store.places.set('x'.repeat(65), { x: 0, y: 0, z: 0, dimension: 'overworld' })).toThrow(/64/);
  });

  test('a memory.json that does not parse is kept beside it, start-up says so, and the next save does not destroy it', async () => {
    const file = path.join(dir, 'Corrupt', 'memory.json');
    const good = new MemoryStore({ file });
    good.snapshot = () => ({ memory: 'the castle is at 10 64 -3', turns: [] });
    good.changed();
    await good.close();
    const truncated = readFileSync(file, 'utf8').slice(0, 20);
    writeFileSync(file, truncated);
    expect(() => readMemoryFile(file)).toThrow(CorruptMemoryError);
    const lines: string[] = [];
    const store = new MemoryStore({ file, load: true, log: (l) => lines.push(l) });
    expect(store.loaded).toBeUndefined();
    const kept = readdirSync(path.dirname(file)).filter((f) => f.startsWith('memory.json.corrupt-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(path.join(path.dirname(file), kept[0]!), 'utf8')).toBe(truncated);
    expect(lines).toEqual([
      expect.stringMatching(
        /memory\.json does not parse \(.+\): kept as .*memory\.json\.corrupt-\d{4}-\d\d-\d\dT.*; starting with an empty memory/,
      ),
    ]);
    // The next save writes a new memory.json; the kept copy stays.
    store.snapshot = () => ({ memory: 'new', turns: [] });
    store.changed();
    await store.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).memory).toBe('new');
    expect(readFileSync(path.join(path.dirname(file), kept[0]!), 'utf8')).toBe(truncated);
    // A file that parses but is no object is kept aside too; a missing one is simply no memory.
    writeFileSync(file, '[1, 2]');
    expect(() => readMemoryFile(file)).toThrow(/not a JSON object/);
    rmSync(file);
    expect(readMemoryFile(file)).toBeUndefined();
  });

  test("stale temporary files of a process that died between write and rename are removed at start-up; a live writer's are kept", async () => {
    const file = path.join(dir, 'Temps', 'memory.json');
    const folder = path.dirname(file);
    mkdirSync(folder, { recursive: true });
    // A process that is gone: a child that has exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    const stale = [`memory.json.${deadPid}.1.tmp`, `memory.json.${deadPid}.7.tmp`];
    const live = [`memory.json.${process.ppid}.3.tmp`, `memory.json.${process.pid}.2.tmp`];
    const other = ['other.json.1.1.tmp', 'memory.json.bak'];
    for (const name of [...stale, ...live, ...other]) writeFileSync(path.join(folder, name), '{"memory":"half');
    const lines: string[] = [];
    new MemoryStore({ file, log: (l) => lines.push(l) });
    expect(readdirSync(folder).sort()).toEqual([...live, ...other].sort());
    expect(lines).toEqual([expect.stringMatching(/^removed 2 stale temporary memory file\(s\)/)]);
  });
});
