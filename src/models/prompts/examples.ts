/**
 * Few-shot examples: short dialogues shipped as data (`profiles/examples/*.json`), of which the
 * `k` most relevant to the current conversation go into the prompt (`$EXAMPLES`).
 *
 * Relevance is cosine similarity of embeddings when an {@link Embedder} is given, and word
 * overlap otherwise. The examples' embeddings are computed once (one batched call) and cached
 * on disk under `cacheDir`, keyed by the embedder id and a hash of the examples' text, so
 * restarts and other bots reuse them; each selection then embeds only the query.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One turn of an example dialogue. `system` turns show command output. */
export interface ExampleTurn {
  role: 'user' | 'assistant' | 'system';
  content: string;
}

/** One example dialogue, oldest turn first. */
export type Example = ExampleTurn[];

/** Turns text into vectors (one per text, same order, same length each). */
export interface Embedder {
  /** Identifies the embedding model, e.g. `openai/text-embedding-3-small`; part of the cache key. */
  readonly id?: string;
  /** @throws anything; selection then falls back to word overlap for that call. */
  embed(texts: string[]): Promise<number[][]>;
}

/** The shipped `profiles/examples/` folder. */
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../profiles/examples/', import.meta.url));

/** Cosine similarity of two vectors of equal length; 0 when either is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

const STOPWORDS = new Set(['a', 'an', 'the', 'to', 'of', 'and', 'or', 'i', 'you', 'me', 'my', 'your', 'it', 'is', 'are', 'be', 'can', 'do', 'some', 'for', 'in', 'on', 'at', 'with', 'that', 'this', 'what', 'please']);

/** Lower-case words of 2+ letters/digits, without stopwords and without `speaker:` prefixes' colons. */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[a-z0-9_]+/g) ?? []) {
    if (w.length >= 2 && !STOPWORDS.has(w)) out.add(w);
  }
  return out;
}

/** Share of `query`'s words also in `text` (0–1); 0 for an empty query. */
export function wordOverlap(query: string, text: string): number {
  const q = words(query);
  if (q.size === 0) return 0;
  const t = words(text);
  let hit = 0;
  for (const w of q) if (t.has(w)) hit++;
  return hit / q.size;
}

/**
 * The text an example is matched on: its user turns with the `speaker:` prefix removed (what
 * was asked, not how the bot answered).
 */
export function exampleKey(example: Example): string {
  return example.filter((t) => t.role === 'user').map((t) => t.content.replace(/^[\w.-]+:\s*/, '').replace(/^\(FROM OTHER BOT\)\s*/, '')).join('\n');
}

/**
 * Renders examples for `$EXAMPLES`:
 * `Examples of how to respond:` then `Example 1:` with one `role: content` line per turn.
 */
export function formatExamples(examples: readonly Example[]): string {
  if (examples.length === 0) return '';
  const blocks = examples.map((ex, i) =>
    `Example ${i + 1}:\n${ex.map((t) => `${t.role === 'assistant' ? 'Your output' : t.role === 'system' ? 'System output' : 'User input'}: ${t.content}`).join('\n')}`);
  return `Examples of how to respond:\n${blocks.join('\n\n')}`;
}

/** Options of {@link ExampleSelector}. */
export interface ExampleSelectorOptions {
  /** Ranks by embedding similarity; without one, by word overlap. */
  embedder?: Embedder;
  /** Folder for the examples' embeddings cache; without one, they are kept in memory only. */
  cacheDir?: string;
  /** How many of the latest history turns make up the query (default 4). */
  queryTurns?: number;
}

const isVectorList = (v: unknown, n: number): v is number[][] =>
  Array.isArray(v) && v.length === n && v.every((x) => Array.isArray(x) && x.every((y) => typeof y === 'number'));

/**
 * Picks the examples most relevant to a conversation. Share one instance between bots: the
 * examples' embeddings are computed (or read from the cache) once.
 */
export class ExampleSelector {
  readonly examples: readonly Example[];
  readonly #keys: string[];
  readonly #embedder: Embedder | undefined;
  readonly #cacheDir: string | undefined;
  readonly #queryTurns: number;
  #vectors: Promise<number[][]> | undefined;
  /** The last embedding failure (selection fell back to word overlap), if any. */
  lastError: unknown;

  /**
   * @param examples example dialogues (see `profiles/examples/`).
   * @param options embedder, cache folder, query length.
   */
  constructor(examples: readonly Example[], options: ExampleSelectorOptions = {}) {
    this.examples = examples;
    this.#keys = examples.map(exampleKey);
    this.#embedder = options.embedder;
    this.#cacheDir = options.cacheDir;
    this.#queryTurns = options.queryTurns ?? 4;
  }

  /**
   * Reads examples from a JSON file (an array of dialogues, each an array of `{role, content}`).
   *
   * @param file e.g. `path.join(EXAMPLES_DIR, 'conversing.json')`.
   * @throws Error when the file is missing or not an array of dialogues.
   */
  static async load(file: string, options: ExampleSelectorOptions = {}): Promise<ExampleSelector> {
    const data: unknown = JSON.parse(await readFile(file, 'utf8'));
    const ok = Array.isArray(data) && data.every((ex) => Array.isArray(ex) && ex.every((t) =>
      t && typeof t === 'object' && ['user', 'assistant', 'system'].includes((t as ExampleTurn).role) && typeof (t as ExampleTurn).content === 'string'));
    if (!ok) throw new Error(`${file}: expected an array of dialogues, each an array of { role: "user"|"assistant"|"system", content }`);
    return new ExampleSelector(data as Example[], options);
  }

  /** Path of the embeddings cache file for this embedder and these examples (undefined without cacheDir/embedder). */
  cacheFile(): string | undefined {
    if (!this.#cacheDir || !this.#embedder) return undefined;
    const id = this.#embedder.id ?? 'embedder';
    const hash = createHash('sha256').update(JSON.stringify(this.#keys)).digest('hex').slice(0, 16);
    return path.join(this.#cacheDir, `${id.replace(/[^\w.-]+/g, '_')}-${hash}.json`);
  }

  /**
   * The `k` examples most relevant to `history` (its last few turns), best first; ties keep
   * file order. With an embedder: cosine similarity (the query costs one embed call); if
   * embedding fails, word overlap is used for this call and the error kept in `lastError`.
   *
   * @param history conversation turns, oldest first (only `content` is read).
   * @param k how many (default 2); fewer if there are fewer examples.
   */
  async select(history: readonly { content: string }[], k = 2): Promise<Example[]> {
    if (k <= 0 || this.examples.length === 0) return [];
    const query = history.slice(-this.#queryTurns).map((t) => t.content).join('\n');
    let scores: number[] | undefined;
    if (this.#embedder && query.trim()) {
      try {
        const [vectors, [q]] = await Promise.all([this.#exampleVectors(), this.#embedder.embed([query])]);
        scores = vectors.map((v) => cosineSimilarity(q, v));
      } catch (err) {
        this.lastError = err;
      }
    }
    scores ??= this.#keys.map((key) => wordOverlap(query, key));
    return scores
      .map((score, i) => ({ score, i }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, k)
      .map(({ i }) => this.examples[i]);
  }

  #exampleVectors(): Promise<number[][]> {
    this.#vectors ??= this.#loadOrEmbed().catch((err: unknown) => {
      this.#vectors = undefined; // try again next time
      throw err;
    });
    return this.#vectors;
  }

  async #loadOrEmbed(): Promise<number[][]> {
    const file = this.cacheFile();
    if (file) {
      try {
        const cached: unknown = JSON.parse(await readFile(file, 'utf8'));
        const vectors = (cached as { vectors?: unknown })?.vectors;
        if (isVectorList(vectors, this.#keys.length)) return vectors;
      } catch { /* missing or unreadable: embed again */ }
    }
    const vectors: unknown = await this.#embedder!.embed(this.#keys);
    if (!isVectorList(vectors, this.#keys.length)) {
      throw new Error(`embedder returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${this.#keys.length} examples`);
    }
    if (file) {
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, JSON.stringify({ embedder: this.#embedder!.id ?? 'embedder', count: vectors.length, vectors }));
      await rename(tmp, file);
    }
    return vectors;
  }
}
