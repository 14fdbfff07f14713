/**
 * What model calls cost: a price table in US dollars per million tokens, and the cost of a run's
 * token counts. Prices are the providers' list prices for standard (non-batch) requests as
 * published in their pricing pages in 2025; check them before quoting a cost, and override or
 * extend them with `model_prices` in settings.json:
 *
 * ```json
 * { "model_prices": { "openai/gpt-4o": { "input": 2.5, "cached_input": 1.25, "output": 10 } } }
 * ```
 *
 * Local servers (`ollama/`, `lmstudio/`, `vllm/`) and the offline `oracle` cost nothing. A model
 * with no price gets a cost of `null` (unknown), never a guess.
 */
import type { ModelPrice } from '../../settings/schema.ts';

export type { ModelPrice };

/** Model id (`provider/model`) → price; the shape of settings.json's `model_prices`. */
export type PriceTable = Record<string, ModelPrice>;

/**
 * The built-in price table (USD per million tokens). A model id matches an entry exactly or by
 * the longest entry that is a prefix followed by `-` (so `anthropic/claude-sonnet-4-5-20250929`
 * matches `anthropic/claude-sonnet-4-5`).
 *
 * | model | input | cached input | cache write | output |
 * | --- | --- | --- | --- | --- |
 * | anthropic/claude-opus-4-1, claude-opus-4 | 15 | 1.50 | 18.75 | 75 |
 * | anthropic/claude-sonnet-4-5, claude-sonnet-4, claude-3-7-sonnet | 3 | 0.30 | 3.75 | 15 |
 * | anthropic/claude-haiku-4-5 | 1 | 0.10 | 1.25 | 5 |
 * | anthropic/claude-3-5-haiku | 0.80 | 0.08 | 1 | 4 |
 * | openai/gpt-5 | 1.25 | 0.125 | – | 10 |
 * | openai/gpt-5-mini | 0.25 | 0.025 | – | 2 |
 * | openai/gpt-5-nano | 0.05 | 0.005 | – | 0.40 |
 * | openai/gpt-4.1 | 2 | 0.50 | – | 8 |
 * | openai/gpt-4.1-mini | 0.40 | 0.10 | – | 1.60 |
 * | openai/gpt-4.1-nano | 0.10 | 0.025 | – | 0.40 |
 * | openai/gpt-4o | 2.50 | 1.25 | – | 10 |
 * | openai/gpt-4o-mini | 0.15 | 0.075 | – | 0.60 |
 * | openai/o3 | 2 | 0.50 | – | 8 |
 * | openai/o4-mini | 1.10 | 0.275 | – | 4.40 |
 * | google/gemini-2.5-pro (prompts ≤ 200k tokens) | 1.25 | 0.31 | – | 10 |
 * | google/gemini-2.5-flash | 0.30 | 0.075 | – | 2.50 |
 * | google/gemini-2.0-flash | 0.10 | 0.025 | – | 0.40 |
 * | xai/grok-3 | 3 | 0.75 | – | 15 |
 * | deepseek/deepseek-chat | 0.27 | 0.07 | – | 1.10 |
 * | mistral/mistral-large-latest | 2 | – | – | 6 |
 */
export const DEFAULT_PRICES: Readonly<PriceTable> = {
  'anthropic/claude-opus-4-1': { input: 15, cached_input: 1.5, cache_write_input: 18.75, output: 75 },
  'anthropic/claude-opus-4': { input: 15, cached_input: 1.5, cache_write_input: 18.75, output: 75 },
  'anthropic/claude-sonnet-4-5': { input: 3, cached_input: 0.3, cache_write_input: 3.75, output: 15 },
  'anthropic/claude-sonnet-4': { input: 3, cached_input: 0.3, cache_write_input: 3.75, output: 15 },
  'anthropic/claude-3-7-sonnet': { input: 3, cached_input: 0.3, cache_write_input: 3.75, output: 15 },
  'anthropic/claude-haiku-4-5': { input: 1, cached_input: 0.1, cache_write_input: 1.25, output: 5 },
  'anthropic/claude-3-5-haiku': { input: 0.8, cached_input: 0.08, cache_write_input: 1, output: 4 },
  'openai/gpt-5': { input: 1.25, cached_input: 0.125, output: 10 },
  'openai/gpt-5-mini': { input: 0.25, cached_input: 0.025, output: 2 },
  'openai/gpt-5-nano': { input: 0.05, cached_input: 0.005, output: 0.4 },
  'openai/gpt-4.1': { input: 2, cached_input: 0.5, output: 8 },
  'openai/gpt-4.1-mini': { input: 0.4, cached_input: 0.1, output: 1.6 },
  'openai/gpt-4.1-nano': { input: 0.1, cached_input: 0.025, output: 0.4 },
  'openai/gpt-4o': { input: 2.5, cached_input: 1.25, output: 10 },
  'openai/gpt-4o-mini': { input: 0.15, cached_input: 0.075, output: 0.6 },
  'openai/o3': { input: 2, cached_input: 0.5, output: 8 },
  'openai/o4-mini': { input: 1.1, cached_input: 0.275, output: 4.4 },
  'google/gemini-2.5-pro': { input: 1.25, cached_input: 0.31, output: 10 },
  'google/gemini-2.5-flash': { input: 0.3, cached_input: 0.075, output: 2.5 },
  'google/gemini-2.0-flash': { input: 0.1, cached_input: 0.025, output: 0.4 },
  'xai/grok-3': { input: 3, cached_input: 0.75, output: 15 },
  'deepseek/deepseek-chat': { input: 0.27, cached_input: 0.07, output: 1.1 },
  'mistral/mistral-large-latest': { input: 2, output: 6 },
};

/** Providers that run on the user's own machine: their tokens cost nothing. */
const FREE_PROVIDERS = new Set(['oracle', 'ollama', 'lmstudio', 'vllm']);

const FREE: ModelPrice = { input: 0, output: 0 };

/**
 * The price of `modelId` (`provider/model`, or `oracle`): `overrides` first, then
 * {@link DEFAULT_PRICES}, each by exact id or the longest `<entry>-` prefix; free for the
 * oracle and local servers.
 *
 * @returns undefined when the model has no known price.
 */
export function priceFor(modelId: string, overrides: Readonly<PriceTable> = {}): ModelPrice | undefined {
  const provider = modelId.split('/')[0]!;
  if (FREE_PROVIDERS.has(provider) && !overrides[modelId]) return FREE;
  for (const table of [overrides, DEFAULT_PRICES]) {
    if (table[modelId]) return table[modelId];
    const prefix = Object.keys(table)
      .filter((id) => modelId.startsWith(`${id}-`))
      .sort((a, b) => b.length - a.length)[0];
    if (prefix) return table[prefix];
  }
  return undefined;
}

/** Token counts as a run record keeps them (see `TokenUsage` in src/models/types.ts). */
export interface TokenCounts {
  /** All prompt tokens, cached ones included. */
  input: number;
  /** Prompt tokens read from the cache (a part of `input`). */
  cached: number;
  /** Prompt tokens written to the cache (a part of `input`). */
  cacheWrite: number;
  output: number;
}

/**
 * The cost of `tokens` at `price`, in US dollars: uncached input × `input` + cached input ×
 * `cached_input` + cache writes × `cache_write_input` + output × `output`, per million tokens.
 */
export function costOf(tokens: TokenCounts, price: ModelPrice): number {
  const uncached = Math.max(0, tokens.input - tokens.cached - tokens.cacheWrite);
  const usd =
    uncached * price.input +
    tokens.cached * (price.cached_input ?? price.input) +
    tokens.cacheWrite * (price.cache_write_input ?? price.input) +
    tokens.output * price.output;
  return usd / 1_000_000;
}
