/** The hourly token budget: counting, the window, and a player's raise. */
import { expect, test } from 'vitest';
import { BUDGET_WINDOW_MS, TokenBudget } from '../../src/agent/token-budget.ts';

const usage = (input: number, output: number) => ({ input, cachedInput: 0, cacheWriteInput: 0, output });

test("prompt and generated tokens count until the hour's allowance is used; the next window starts afresh", () => {
  let now = 1_000_000;
  const budget = new TokenBudget(1_000, () => now);
  expect(budget.exhausted()).toBe(false);
  budget.record(usage(600, 100));
  expect(budget.used).toBe(700);
  expect(budget.exhausted()).toBe(false);
  budget.record(usage(250, 50));
  expect(budget.exhausted()).toBe(true);
  expect(budget.resetsAt).toBe(1_000_000 + BUDGET_WINDOW_MS);
  now += BUDGET_WINDOW_MS;
  expect(budget.exhausted()).toBe(false);
  expect(budget.used).toBe(0);
});

test("a raise allows another hour's worth within the window; no limit when 0", () => {
  const budget = new TokenBudget(100);
  budget.raise(); // not exhausted: nothing changes
  budget.record(usage(150, 0));
  expect(budget.exhausted()).toBe(true);
  budget.raise();
  expect(budget.exhausted()).toBe(false);
  budget.record(usage(100, 0));
  expect(budget.exhausted()).toBe(true);
  const free = new TokenBudget(0);
  free.record(usage(10_000_000, 0));
  expect(free.exhausted()).toBe(false);
});
