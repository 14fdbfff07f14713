/**
 * Few-shot examples per profile: the profile's own sets (MINDcraft's `conversation_examples`,
 * `coding_examples`) or the shipped ones, ranked by the profile's embedding model through the
 * provider's `/embeddings` endpoint (a fake returning deterministic vectors), with the example
 * vectors computed once per set and model and cached under the bots' folder.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { EMBEDDINGS_CACHE, ExampleLibrary, shippedExamples } from '../../src/app/profile-models.ts';
import type { Example } from '../../src/agent/prompts/examples.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { startFakeVendor, type FakeVendorServer } from '../helpers/fake-vendors.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'example-library-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

let fake: FakeVendorServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Vectors by concept (synonym sets), so meaning can match where words do not. */
function conceptVector(text: string): number[] {
  const concepts = [
    ['kill', 'attack', 'fight', 'slay', 'shooting'],
    ['skeleton', 'zombie', 'undead', 'archer'],
    ['wood', 'log', 'birch_log', 'timber', 'lumber'],
    ['chest', 'store', 'stash', 'cobblestone'],
  ];
  const words = text.toLowerCase().match(/[a-z_]+/g) ?? [];
  return concepts.map((c) => words.filter((w) => c.includes(w)).length + 0.01);
}

const EXAMPLES: Example[] = [
  [
    { role: 'user', content: 'lumberjack_7: Get me some wood please' },
    { role: 'assistant', content: '!collectBlocks("birch_log", 5)' },
  ],
  [
    { role: 'user', content: 'warden_fan: a skeleton is shooting me!' },
    { role: 'assistant', content: '!attack("skeleton")' },
  ],
  [
    { role: 'user', content: 'mika: put the cobblestone in the chest' },
    { role: 'assistant', content: '!putInChest("cobblestone", 32)' },
  ],
];
const firstUser = (ex: Example | undefined): string => ex!.find((t) => t.role === 'user')!.content;
const embeddingCalls = () => fake!.requests.filter((r) => r.path.endsWith('/embeddings')).map((r) => (r.body.input as string[]).length);

describe('ExampleLibrary', () => {
  test("a profile's own examples, ranked by its embedding model; vectors cached under bots/ and reused by the next process", async () => {
    fake = await startFakeVendor('openai', { embed: conceptVector });
    const botsDir = tempDir();
    const profile = profileSchema.parse({ name: 'andy', embedding: { api: 'openai', url: fake.url }, conversation_examples: EXAMPLES });
    const library = new ExampleLibrary({ botsDir, env: fake.env, log: () => {}, shipped: await shippedExamples() });
    const { conversing, embedder } = library.forProfile(profile);
    expect(embedder).toBe('openai/text-embedding-3-small');
    expect(conversing.examples).toEqual(EXAMPLES);
    // "slay the undead archer" shares no word with "a skeleton is shooting me".
    const [best] = await conversing.select([{ content: 'steve: slay the undead archer' }], 1);
    expect(firstUser(best)).toContain('skeleton');
    expect(embeddingCalls().sort()).toEqual([1, 3]);
    expect(fake.requests[0]!.body.model).toBe('text-embedding-3-small');
    const cached = readdirSync(path.join(botsDir, EMBEDDINGS_CACHE));
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatch(/^openai_text-embedding-3-small-[0-9a-f]{16}\.json$/);

    // A second process: the examples are not embedded again, only the query.
    const again = new ExampleLibrary({ botsDir, env: fake.env, log: () => {}, shipped: await shippedExamples() });
    const [lumber] = await again.forProfile(profile).conversing.select([{ content: 'bring timber' }], 1);
    expect(firstUser(lumber)).toContain('wood');
    expect(embeddingCalls().sort()).toEqual([1, 1, 3]);

    // Changed examples are embedded anew, into a cache file of their own.
    const changed = profileSchema.parse({
      ...profile,
      conversation_examples: [
        ...EXAMPLES,
        [
          { role: 'user', content: 'nia: fight that zombie' },
          { role: 'assistant', content: '!attack("zombie")' },
        ],
      ],
    });
    await again.forProfile(changed).conversing.select([{ content: 'attack!' }], 1);
    expect(embeddingCalls().sort()).toEqual([1, 1, 1, 3, 4]);
    expect(readdirSync(path.join(botsDir, EMBEDDINGS_CACHE))).toHaveLength(2);
  });

  test('bots with the same examples and embedding model share one selector; without an embedding, BM25 ranks', async () => {
    const library = new ExampleLibrary({ botsDir: tempDir(), log: () => {}, shipped: await shippedExamples() });
    const a = library.forProfile(profileSchema.parse({ name: 'Andy' }));
    const b = library.forProfile(profileSchema.parse({ name: 'Jill' }));
    expect(a.conversing).toBe(b.conversing);
    expect(a.coding).toBe(b.coding);
    expect(a.embedder).toBeUndefined();
    expect(a.conversing.examples).toEqual((await shippedExamples()).conversing);
    const [zombie] = await a.conversing.select([{ content: 'alex: quick, kill that zombie' }], 1);
    expect(firstUser(zombie)).toContain('zombie');
  });

  test('an unusable embedding model is named once in the log and examples are ranked by text', async () => {
    const lines: string[] = [];
    const library = new ExampleLibrary({ botsDir: tempDir(), env: {}, log: (l) => lines.push(l), shipped: await shippedExamples() });
    const profile = profileSchema.parse({ name: 'andy', embedding: 'openai', conversation_examples: EXAMPLES });
    const first = library.forProfile(profile);
    library.forProfile(profileSchema.parse({ ...profile, name: 'jill' }));
    expect(first.embedder).toBeUndefined();
    expect(lines).toEqual([
      'profile "andy": embedding model not used (openai/text-embedding-3-small: no API key — set OPENAI_API_KEY in the environment or in keys.json); examples are ranked by full-text search',
    ]);
    const [chest] = await first.conversing.select([{ content: 'store the cobblestone in a chest' }], 1);
    expect(firstUser(chest)).toContain('chest');
  });

  test('an embedding server that fails is logged once and the selection falls back to text ranking', async () => {
    fake = await startFakeVendor('ollama', {
      apiKey: null,
      fail: () => ({ status: 500, message: 'model "nomic-embed-text" not found, try pulling it first' }),
    });
    const lines: string[] = [];
    const botsDir = tempDir();
    const library = new ExampleLibrary({ botsDir, log: (l) => lines.push(l), shipped: await shippedExamples() });
    const { conversing } = library.forProfile(
      profileSchema.parse({ name: 'andy', embedding: { api: 'ollama', url: fake.url }, conversation_examples: EXAMPLES }),
    );
    const [chest] = await conversing.select([{ content: 'put it in the chest' }], 1);
    expect(firstUser(chest)).toContain('chest');
    await conversing.select([{ content: 'put it in the chest' }], 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^embedding with ollama\/nomic-embed-text failed \(.*not found, try pulling it first.*\); examples ranked by full-text search meanwhile$/,
    );
    expect(existsSync(path.join(botsDir, EMBEDDINGS_CACHE))).toBe(false);
  });
});
