/** Few-shot example selection: BM25 full-text ranking without an embedder, cosine similarity with one, cached on disk. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  cosineSimilarity,
  exampleKey,
  ExampleSelector,
  EXAMPLES_DIR,
  formatExamples,
  TextRanker,
  type Embedder,
  type Example,
} from '../../src/agent/prompts/examples.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'examples-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const conversing = (): Promise<ExampleSelector> => ExampleSelector.load(path.join(EXAMPLES_DIR, 'conversing.json'));
/** The first user turn of a selected example; fails the test when nothing was selected. */
const firstUser = (ex: Example | undefined): string => {
  if (!ex) throw new Error('select() returned no example');
  return ex.find((t) => t.role === 'user')!.content;
};

/**
 * A deterministic embedder: one dimension per concept, where a concept is a set of synonyms. So
 * "slay the undead" and "kill that zombie" are close although they share no word.
 */
function conceptEmbedder(id = 'fake/concepts'): Embedder & { calls: string[][] } {
  const concepts = [
    ['kill', 'slay', 'attack', 'fight'],
    ['zombie', 'undead', 'creeper', 'mobs'],
    ['food', 'hungry', 'starving', 'bread', 'eat'],
    ['wood', 'log', 'logs', 'oak_log', 'timber'],
    ['craft', 'make', 'plank'],
    ['come', 'here', 'over'],
    ['stop', 'halt', 'freeze'],
    ['sleep', 'bed', 'dark', 'night'],
    ['remember', 'base', 'home'],
  ];
  const calls: string[][] = [];
  return {
    id,
    calls,
    async embed(texts) {
      calls.push([...texts]);
      return texts.map((t) => {
        const ws = t.toLowerCase().match(/[a-z_]+/g) ?? [];
        return concepts.map((c) => ws.filter((w) => c.includes(w)).length);
      });
    },
  };
}

describe('shipped examples', () => {
  test('conversing has 20–30 dialogues and coding 6, all well-formed and using commands or code', async () => {
    const conv = await conversing();
    const coding = await ExampleSelector.load(path.join(EXAMPLES_DIR, 'coding.json'));
    expect(conv.examples.length).toBeGreaterThanOrEqual(20);
    expect(conv.examples.length).toBeLessThanOrEqual(30);
    expect(coding.examples).toHaveLength(6);
    for (const ex of conv.examples) {
      expect(ex[0]?.role).toBe('user');
      expect(ex.some((t) => t.role === 'assistant' && /![a-z]+[A-Za-z]*/.test(t.content)) || ex.length === 2).toBe(true);
    }
    for (const ex of coding.examples) expect(ex.some((t) => t.role === 'assistant' && t.content.includes('```js'))).toBe(true);
  });

  test('a malformed file is rejected', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = path.join(tempDir(), 'bad.json');
    writeFileSync(file, JSON.stringify([[{ role: 'bot', content: 'x' }]]));
    await expect(ExampleSelector.load(file)).rejects.toThrow(/expected an array of dialogues/);
  });
});

describe('full-text ranking (no embedder)', () => {
  test('picks the relevant example for the latest turns', async () => {
    const sel = await conversing();
    const [best] = await sel.select([{ content: 'steve: hi' }, { content: 'steve: I am hungry, do you have any food?' }], 2);
    expect(firstUser(best)).toMatch(/hungry/);
    const [zombie] = await sel.select([{ content: 'alex: quick, kill that zombie' }]);
    expect(firstUser(zombie)).toContain('kill that zombie');
    const [bed] = await sel.select([{ content: 'it is dark, go to sleep now' }]);
    expect(firstUser(bed)).toContain('go to sleep');
  });

  test('returns k examples, fewer if there are fewer, none for k = 0', async () => {
    const sel = await conversing();
    expect(await sel.select([{ content: 'collect wood' }], 3)).toHaveLength(3);
    expect(await sel.select([{ content: 'collect wood' }], 0)).toEqual([]);
    const two = new ExampleSelector([[{ role: 'user', content: 'a: x' }], [{ role: 'user', content: 'b: y' }]]);
    expect(await two.select([{ content: 'x' }], 5)).toHaveLength(2);
  });

  test('BM25 scores: rare words weigh more than common ones, stopwords nothing, oak_log is oak + log', () => {
    const ranker = new TextRanker(['kill that zombie', 'collect wood', 'collect an oak_log', 'collect stone', 'the the the']);
    const [zombie, wood, oak, stone, stop] = ranker.scores('collect the zombie');
    expect(oak).toBeGreaterThan(0); // "collect" matches
    expect(zombie).toBeGreaterThan(wood!); // one score per text
    expect(wood).toBeGreaterThan(0);
    expect(wood).toBeCloseTo(stone!);
    expect(stop).toBe(0);
    expect(ranker.scores('oak log')[2]).toBeGreaterThan(0);
    expect(ranker.scores('zombei')[0]).toBe(0); // short words must match exactly
    expect(ranker.scores('collecting')[1]).toBe(0);
    expect(ranker.scores('colect wood')[1]).toBeGreaterThan(0);
    expect(ranker.scores('')).toEqual([0, 0, 0, 0, 0]);
    expect(cosineSimilarity([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });
});

describe('embedder', () => {
  test('ranks by meaning where words do not overlap', async () => {
    const sel = await ExampleSelector.load(path.join(EXAMPLES_DIR, 'conversing.json'), { embedder: conceptEmbedder() });
    const [best] = await sel.select([{ content: 'eve: slay the undead' }]);
    expect(firstUser(best)).toContain('kill that zombie');
    // Full-text ranking finds nothing in common and falls back to file order.
    const plain = await conversing();
    const [fallback] = await plain.select([{ content: 'eve: slay the undead' }]);
    expect(firstUser(fallback)).not.toContain('zombie');
  });

  test('the examples are embedded once, in one call, and the disk cache is reused by a second run', async () => {
    const cacheDir = tempDir();
    const first = conceptEmbedder();
    const sel1 = await ExampleSelector.load(path.join(EXAMPLES_DIR, 'conversing.json'), { embedder: first, cacheDir });
    await sel1.select([{ content: 'I am starving' }]);
    await sel1.select([{ content: 'come over here' }]);
    // One batch of all examples (in parallel with the first query), then one query per selection.
    expect(first.calls.map((c) => c.length).sort((x, y) => y - x)).toEqual([sel1.examples.length, 1, 1]);
    expect(existsSync(sel1.cacheFile()!)).toBe(true);

    const second = conceptEmbedder();
    const sel2 = await ExampleSelector.load(path.join(EXAMPLES_DIR, 'conversing.json'), { embedder: second, cacheDir });
    const [best] = await sel2.select([{ content: 'I am starving' }]);
    expect(second.calls.map((c) => c.length)).toEqual([1]);
    expect(firstUser(best)).toMatch(/hungry/);
  });

  test('the cache key changes with the embedder id and with the examples', async () => {
    const cacheDir = tempDir();
    const examples: Example[] = [[{ role: 'user', content: 'a: kill zombie' }], [{ role: 'user', content: 'b: eat bread' }]];
    const a = new ExampleSelector(examples, { embedder: conceptEmbedder('fake/a'), cacheDir });
    const b = new ExampleSelector(examples, { embedder: conceptEmbedder('fake/b'), cacheDir });
    const c = new ExampleSelector([...examples, [{ role: 'user', content: 'c: chop wood' }]], {
      embedder: conceptEmbedder('fake/a'),
      cacheDir,
    });
    expect(new Set([a.cacheFile(), b.cacheFile(), c.cacheFile()]).size).toBe(3);
    await Promise.all([a, b, c].map((s) => s.select([{ content: 'hungry' }])));
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.json'))).toHaveLength(3);
  });

  test('a failing embedder falls back to full-text ranking and keeps the error', async () => {
    const broken: Embedder = {
      id: 'broken',
      async embed() {
        throw new Error('embedding server down');
      },
    };
    const sel = await ExampleSelector.load(path.join(EXAMPLES_DIR, 'conversing.json'), { embedder: broken, cacheDir: tempDir() });
    const [best] = await sel.select([{ content: 'kill that zombie' }]);
    expect(firstUser(best)).toContain('zombie');
    expect((sel.lastError as Error).message).toBe('embedding server down');
  });
});

test('an example is matched on what the bot was asked: turns before its first reply and later user turns', () => {
  expect(
    exampleKey([
      { role: 'system', content: 'You are self-prompting with the goal: get wood' },
      { role: 'assistant', content: '!nearbyBlocks' },
      { role: 'system', content: 'NEARBY_BLOCKS: oak_log' },
      { role: 'user', content: 'greg: (FROM OTHER BOT) need planks?' },
    ]),
  ).toBe('You are self-prompting with the goal: get wood\nneed planks?');
});

test('formatExamples renders numbered dialogues for $EXAMPLES', () => {
  const text = formatExamples([
    [
      { role: 'user', content: 'bob: hi' },
      { role: 'assistant', content: 'Hello! !stats' },
      { role: 'system', content: 'STATS' },
    ],
  ]);
  expect(text).toBe('Examples of how to respond:\nExample 1:\nUser input: bob: hi\nYour output: Hello! !stats\nSystem output: STATS');
  expect(formatExamples([])).toBe('');
});
