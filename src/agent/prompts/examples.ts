/**
 * Few-shot examples: short dialogues shipped as data (`profiles/examples/*.json`) or given by a
 * profile (MINDcraft's `conversation_examples`, `coding_examples`), of which the `k` most
 * relevant to the current conversation go into the prompt (`$EXAMPLES`).
 *
 * Relevance is cosine similarity of embeddings when an {@link Embedder} is given (the profile's
 * `embedding`), and BM25 full-text ranking (MiniSearch) otherwise. The examples' embeddings are
 * computed once (batched calls) and cached on disk under `cacheDir`, keyed by the embedder id and
 * a hash of the examples' matched text, so restarts and other bots reuse them and they are
 * embedded again only when the examples (or the model) change; each selection then embeds only
 * the query.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';

/** One turn of an example dialogue. `system` turns show command output. */
export interface ExampleTurn {
  role: 'user' | 'assistant' | 'system';
  content: string;
}

/** One example dialogue, oldest turn first. */
export type Example = ExampleTurn[];

/** Turns text into vectors (one per text, same order, same length each). */
export type { Embedder } from '../../models/embeddings.ts';
import type { Embedder } from '../../models/embeddings.ts';

/** The shipped `profiles/examples/` folder. */
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../profiles/examples/', import.meta.url));

/** Cosine similarity of two vectors of equal length; 0 when either is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

const STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'and',
  'or',
  'i',
  'you',
  'me',
  'my',
  'your',
  'it',
  'is',
  'are',
  'be',
  'can',
  'do',
  'some',
  'for',
  'in',
  'on',
  'at',
  'with',
  'that',
  'this',
  'what',
  'please',
]);

/** MiniSearch's term filter: lower case, no stopwords, no one-letter terms. */
function searchTerm(term: string): string | null {
  const t = term.toLowerCase();
  return t.length < 2 || STOPWORDS.has(t) ? null : t;
}

/**
 * A BM25 full-text index over texts (MiniSearch: words split at spaces and punctuation, so
 * `oak_log` is `oak` + `log`; prefix matches for words of 4+ letters, small typos forgiven in
 * words of 6+).
 */
export class TextRanker {
  readonly #index: MiniSearch<{ id: number; text: string }>;
  readonly #size: number;

  /** @param texts the documents, scored by their position. */
  constructor(texts: readonly string[]) {
    this.#size = texts.length;
    this.#index = new MiniSearch({ fields: ['text'], processTerm: searchTerm });
    this.#index.addAll(texts.map((text, id) => ({ id, text })));
  }

  /**
   * The BM25 score of every document for `query`, in document order (0 where nothing matches).
   *
   * @example new TextRanker(['kill that zombie', 'collect wood']).scores('zombie!') // → [1.2…, 0]
   */
  scores(query: string): number[] {
    const scores = new Array<number>(this.#size).fill(0);
    if (!query.trim()) return scores;
    const hits = this.#index.search(query, {
      combineWith: 'OR',
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
    });
    for (const hit of hits) scores[hit.id as number] = hit.score;
    return scores;
  }
}

/**
 * The text an example is matched on: what the bot was asked, not how it answered — the turns
 * before its first reply (a player's line, or a SYSTEM line such as a goal, as MINDcraft's
 * examples start) and every later user turn, with `speaker:`, `speaker (a bot):` and
 * `(FROM OTHER BOT)` prefixes removed.
 */
export function exampleKey(example: Example): string {
  const firstReply = example.findIndex((t) => t.role === 'assistant');
  return example
    .filter((t, i) => t.role === 'user' || (t.role === 'system' && (firstReply < 0 || i < firstReply)))
    .map((t) => t.content.replace(/^[\w.-]+(?: \(a bot\))?:\s*/, '').replace(/^\(FROM OTHER BOT\)\s*/, ''))
    .join('\n');
}

/**
 * Renders examples for `$EXAMPLES`:
 * `Examples of how to respond:` then `Example 1:` with one `role: content` line per turn.
 */
export function formatExamples(examples: readonly Example[]): string {
  if (examples.length === 0) return '';
  const blocks = examples.map(
    (ex, i) =>
      `Example ${i + 1}:\n${ex.map((t) => `${t.role === 'assistant' ? 'Your output' : t.role === 'system' ? 'System output' : 'User input'}: ${t.content}`).join('\n')}`,
  );
  return `Examples of how to respond:\n${blocks.join('\n\n')}`;
}

/** Options of {@link ExampleSelector}. */
export interface ExampleSelectorOptions {
  /** Ranks by embedding similarity; without one, by BM25 full-text ranking. */
  embedder?: Embedder;
  /** Folder for the examples' embeddings cache; without one, they are kept in memory only. */
  cacheDir?: string;
  /** How many of the latest history turns make up the query (default 4). */
  queryTurns?: number;
  /** Told when embedding fails (that selection then ranks by full-text search). Must not throw. */
  onError?: (err: unknown) => void;
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
  readonly #onError: ((err: unknown) => void) | undefined;
  #vectors: Promise<number[][]> | undefined;
  #ranker: TextRanker | undefined;
  /** The last embedding failure (selection fell back to full-text ranking), if any. */
  lastError: unknown;

  /**
   * @param examples example dialogues (see `profiles/examples/`, or a profile's `conversation_examples`).
   * @param options embedder, cache folder, query length.
   */
  constructor(examples: readonly Example[], options: ExampleSelectorOptions = {}) {
    this.examples = examples;
    this.#keys = examples.map(exampleKey);
    this.#embedder = options.embedder;
    this.#cacheDir = options.cacheDir;
    this.#queryTurns = options.queryTurns ?? 4;
    this.#onError = options.onError;
  }

  /**
   * Reads examples from a JSON file (an array of dialogues, each an array of `{role, content}`).
   *
   * @param file e.g. `path.join(EXAMPLES_DIR, 'conversing.json')`.
   * @throws Error when the file is missing or not an array of dialogues.
   */
  static async load(file: string, options: ExampleSelectorOptions = {}): Promise<ExampleSelector> {
    const data: unknown = JSON.parse(await readFile(file, 'utf8'));
    const ok =
      Array.isArray(data) &&
      data.every(
        (ex) =>
          Array.isArray(ex) &&
          ex.every(
            (t) =>
              t &&
              typeof t === 'object' &&
              ['user', 'assistant', 'system'].includes((t as ExampleTurn).role) &&
              typeof (t as ExampleTurn).content === 'string',
          ),
      );
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
   * embedding fails, BM25 full-text ranking is used for this call and the error kept in
   * `lastError`. Without one: BM25 full-text ranking ({@link TextRanker}).
   *
   * @param history conversation turns, oldest first (only `content` is read).
   * @param k how many (default 2); fewer if there are fewer examples.
   */
  async select(history: readonly { content: string }[], k = 2): Promise<Example[]> {
    if (k <= 0 || this.examples.length === 0) return [];
    const query = history
      .slice(-this.#queryTurns)
      .map((t) => t.content)
      .join('\n');
    let scores: number[] | undefined;
    if (this.#embedder && query.trim()) {
      try {
        const [vectors, [q]] = await Promise.all([this.#exampleVectors(), this.#embedder.embed([query])]);
        if (!q) throw new Error('embedder returned no vector for the query');
        scores = vectors.map((v) => cosineSimilarity(q, v));
      } catch (err) {
        this.lastError = err;
        this.#onError?.(err);
      }
    }
    scores ??= (this.#ranker ??= new TextRanker(this.#keys)).scores(query);
    return scores
      .map((score, i) => ({ score, i }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, k)
      .map(({ i }) => this.examples[i]!); // one score per example, so every index is in range
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
      } catch {
        /* missing or unreadable: embed again */
      }
    }
    // Providers reject empty input texts.
    const vectors: unknown = await this.#embedder!.embed(this.#keys.map((key) => key.trim() || '(no text)'));
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
