/**
 * What a profile asks of the model layer besides its chat model: the code and vision models
 * (`code_model`, `vision_model`), and the few-shot examples with the embedding model that ranks
 * them (`conversation_examples`, `coding_examples`, `embedding`), as MINDcraft's profiles name
 * them. Example sets are shared between bots that have the same examples and embedding model,
 * and their vectors are cached under `bots/.embeddings/`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createModel, type ModelSpec } from '../models/index.ts';
import { createEmbedder } from '../models/embeddings.ts';
import { ExampleSelector, EXAMPLES_DIR, type Embedder, type Example } from '../agent/prompts/examples.ts';
import { apiKeyStatus } from '../models/spec.ts';
import type { ChatModel } from '../models/types.ts';
import { ConfigError, type EmbeddingField } from '../settings/schema.ts';
import type { MergedProfile } from '../settings/profiles.ts';
import type { ChooseOptions } from '../agent/model-choice.ts';

/** The folder under `botsDir` where example vectors are cached. */
export const EMBEDDINGS_CACHE = '.embeddings';

/** The specs of a bot's models: `--model` replaces all three; otherwise code and vision default to the chat model. */
export interface ProfileModelSpecs {
  chat: ModelSpec;
  /** Undefined: the chat model writes code. */
  code?: ModelSpec;
  /** Undefined: the chat model describes images. */
  vision?: ModelSpec;
}

/** The model specs of `profile`, with `override` (a task run's `--model`) replacing every one of them. */
export function profileModelSpecs(
  profile: Pick<MergedProfile, 'model' | 'code_model' | 'vision_model'>,
  override?: ModelSpec,
): ProfileModelSpecs {
  if (override !== undefined) return { chat: override };
  return {
    chat: profile.model,
    ...(profile.code_model !== undefined ? { code: profile.code_model } : {}),
    ...(profile.vision_model !== undefined ? { vision: profile.vision_model } : {}),
  };
}

/**
 * A bot's code or vision model: a provider's. `oracle` neither writes code nor sees, and a spec
 * that cannot be used (no key) neither: the chat model stands in (undefined is returned, with a
 * log line), unless `options.fallback` is false.
 *
 * @throws ConfigError when the model cannot be used and `options.fallback` is false.
 */
export function chooseExtraModel(
  role: 'code_model' | 'vision_model',
  spec: ModelSpec | undefined,
  owner: string,
  env: NodeJS.ProcessEnv | undefined,
  options: ChooseOptions,
  log: (line: string) => void,
): ChatModel | undefined {
  if (spec === undefined) return undefined;
  if (spec === 'oracle') {
    log(`${role} "oracle" writes no code and sees nothing; the chat model stands in`);
    return undefined;
  }
  const status = apiKeyStatus(spec, env);
  if (!status.usable) {
    if (options.fallback === false) throw new ConfigError(`profile "${owner}": ${role} cannot be used (${status.reason})`);
    log(`${role} ${status.id} cannot be used (${status.reason}); the chat model stands in`);
    return undefined;
  }
  return createModel(spec, { env, timeoutMs: options.timeoutMs });
}

/** Options of {@link ExampleLibrary}. */
export interface ExampleLibraryOptions {
  /** The bots' folder; example vectors are cached in `<botsDir>/.embeddings/`. */
  botsDir: string;
  /** Where embedding API keys are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Told once per profile when its embedding model cannot be used, and once per embedding failure text. */
  log: (line: string) => void;
  /** The examples of profiles that bring none (see {@link shippedExamples}). */
  shipped: { conversing: readonly Example[]; coding: readonly Example[] };
}

/** A bot's example selectors. */
export interface ProfileExamples {
  conversing: ExampleSelector;
  coding: ExampleSelector;
  /** The embedding model ranking them (`provider/model`), or undefined for full-text ranking. */
  embedder?: string;
}

let shipped: Promise<{ conversing: readonly Example[]; coding: readonly Example[] }> | undefined;

/** The shipped example sets (`profiles/examples/`), read once per process. */
export function shippedExamples(): Promise<{ conversing: readonly Example[]; coding: readonly Example[] }> {
  shipped ??= Promise.all([
    ExampleSelector.load(path.join(EXAMPLES_DIR, 'conversing.json')),
    ExampleSelector.load(path.join(EXAMPLES_DIR, 'coding.json')),
  ])
    .then(([c, k]) => ({ conversing: [...c.examples], coding: [...k.examples] }))
    .catch((err: unknown) => {
      shipped = undefined;
      throw err;
    });
  return shipped;
}

/**
 * The example selectors of the bots of one process. A profile's own `conversation_examples` and
 * `coding_examples` replace the shipped sets; its `embedding` ranks them by similarity (vectors
 * computed once per example set and model, cached on disk), else BM25 full-text ranking does.
 * Bots with the same examples and embedding model share one selector.
 *
 * @example
 * const library = new ExampleLibrary({ botsDir: 'bots', log: console.log, shipped: await shippedExamples() });
 * const { conversing, coding } = library.forProfile(profile);
 */
export class ExampleLibrary {
  readonly #options: ExampleLibraryOptions;
  readonly #selectors = new Map<string, ExampleSelector>();
  readonly #embedders = new Map<string, Embedder | undefined>();
  readonly #failures = new Set<string>();

  constructor(options: ExampleLibraryOptions) {
    this.#options = options;
  }

  /** The selectors for `profile` (see the class comment); never throws for a bad embedding (it logs and ranks by text). */
  forProfile(profile: Pick<MergedProfile, 'name' | 'embedding' | 'conversation_examples' | 'coding_examples'>): ProfileExamples {
    const sets = this.#options.shipped;
    const embedder = this.#embedder(profile.name, profile.embedding);
    return {
      conversing: this.#selector(profile.conversation_examples ?? sets.conversing, embedder),
      coding: this.#selector(profile.coding_examples ?? sets.coding, embedder),
      ...(embedder?.id ? { embedder: embedder.id } : {}),
    };
  }

  #embedder(name: string, spec: EmbeddingField | undefined): Embedder | undefined {
    if (spec === undefined) return undefined;
    const key = JSON.stringify(spec);
    if (this.#embedders.has(key)) return this.#embedders.get(key);
    let embedder: Embedder | undefined;
    try {
      embedder = createEmbedder(spec, { env: this.#options.env });
    } catch (err) {
      this.#options.log(`profile "${name}": embedding model not used (${(err as Error).message}); examples are ranked by full-text search`);
    }
    this.#embedders.set(key, embedder);
    return embedder;
  }

  #selector(examples: readonly Example[], embedder: Embedder | undefined): ExampleSelector {
    const key = `${embedder?.id ?? 'text'}:${createHash('sha256').update(JSON.stringify(examples)).digest('hex')}`;
    let selector = this.#selectors.get(key);
    if (!selector) {
      selector = new ExampleSelector(examples, {
        embedder,
        cacheDir: path.join(this.#options.botsDir, EMBEDDINGS_CACHE),
        onError: (err) => {
          const text = `embedding with ${embedder?.id} failed (${(err as Error).message}); examples ranked by full-text search meanwhile`;
          if (!this.#failures.has(text)) {
            this.#failures.add(text);
            this.#options.log(text);
          }
        },
      });
      this.#selectors.set(key, selector);
    }
    return selector;
  }
}
