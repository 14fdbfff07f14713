/**
 * A bot's model token budget per hour (settings `max_tokens_per_hour`): tokens are counted from
 * the providers' usage fields (prompt plus generated tokens of every call: conversing, summaries,
 * decisions, code). Once the hour's allowance is used up the agent stops calling its model until
 * the hour is over, or until a player raises the allowance by writing to the bot.
 */
import type { TokenUsage } from '../models/types.ts';

/** One hour, the budget's window (ms). */
export const BUDGET_WINDOW_MS = 3_600_000;

/**
 * Counts tokens in windows of an hour, starting with the first tokens counted.
 *
 * @example
 * const budget = new TokenBudget(200_000);
 * budget.record({ input: 3000, cachedInput: 0, cacheWriteInput: 0, output: 50 });
 * if (budget.exhausted()) { ... } // true once 200 000 tokens were used within the hour
 */
export class TokenBudget {
  readonly #perHour: number;
  readonly #now: () => number;
  #windowStart = 0;
  #used = 0;
  #allowance: number;

  /**
   * @param perHour tokens allowed per hour; 0 = no limit.
   * @param now the clock (ms), replaceable in tests.
   */
  constructor(perHour: number, now: () => number = Date.now) {
    this.#perHour = perHour;
    this.#allowance = perHour;
    this.#now = now;
  }

  /** Tokens allowed per hour (0 = no limit). */
  get perHour(): number {
    return this.#perHour;
  }

  /** Tokens counted in the current window. */
  get used(): number {
    this.#roll();
    return this.#used;
  }

  /** When the current window ends (ms since the epoch); 0 before any token was counted. */
  get resetsAt(): number {
    return this.#windowStart ? this.#windowStart + BUDGET_WINDOW_MS : 0;
  }

  /** Counts one answer's tokens (prompt and generated). */
  record(usage: TokenUsage): void {
    this.#roll();
    if (!this.#windowStart) this.#windowStart = this.#now();
    this.#used += usage.input + usage.output;
  }

  /** True when the window's allowance is used up (never without a limit). */
  exhausted(): boolean {
    this.#roll();
    return this.#perHour > 0 && this.#used >= this.#allowance;
  }

  /** A player asked for more: when exhausted, another hour's worth is allowed in this window. */
  raise(): void {
    if (this.exhausted()) this.#allowance = this.#used + this.#perHour;
  }

  #roll(): void {
    if (this.#windowStart && this.#now() - this.#windowStart >= BUDGET_WINDOW_MS) {
      this.#windowStart = 0;
      this.#used = 0;
      this.#allowance = this.#perHour;
    }
  }
}
