/**
 * Tokens and calls per LLM role of the coordination layer, from the providers' usage reports
 * (`ChatRequest.onUsage`). VillagerAgent reports token cost (Table 4); counting by role shows where
 * a strategy spends them (the decomposer, the controller, the causal intervention, …).
 */
import type { CoordinationRole, TokenUsage } from '../../models/types.ts';

/** The coordination layer's LLM roles (also their requests' `purpose`). */
export type RoleName = CoordinationRole;

/** The counters of one role. */
export interface RoleCounters {
  /** Model calls made (first tries and retries). */
  calls: number;
  /** Calls that were retries after a bad answer. */
  retries: number;
  /** Role calls that ended in a typed failure (after their retries). */
  failures: number;
  /** Model calls cut by the role's time bound. */
  timeouts: number;
  /** Prompt tokens, cached ones included (as the provider reported them). */
  input: number;
  /** Prompt tokens read from the provider's cache (a part of `input`). */
  cachedInput: number;
  /** Generated (completion) tokens. */
  output: number;
  /** Time spent waiting for the model, ms. */
  ms: number;
}

const zero = (): RoleCounters => ({ calls: 0, retries: 0, failures: 0, timeouts: 0, input: 0, cachedInput: 0, output: 0, ms: 0 });

/**
 * Counters per role, shared by every role call of a run (pass the same object to each call).
 *
 * @example
 * const stats = new RoleStats();
 * await callRole(decomposeRole, input, { model, stats });
 * stats.get('decompose').output // completion tokens of the decomposer
 */
export class RoleStats {
  readonly #byRole = new Map<RoleName, RoleCounters>();

  /** The counters of `role` (zeros when it was never called); a copy. */
  get(role: RoleName): RoleCounters {
    return { ...(this.#byRole.get(role) ?? zero()) };
  }

  /** Adds to `role`'s counters. */
  add(role: RoleName, delta: Partial<RoleCounters>): void {
    const c = this.#byRole.get(role) ?? zero();
    for (const [k, v] of Object.entries(delta) as [keyof RoleCounters, number][]) c[k] += v;
    this.#byRole.set(role, c);
  }

  /** Adds a provider's usage report to `role`. */
  usage(role: RoleName, usage: TokenUsage): void {
    this.add(role, { input: usage.input, cachedInput: usage.cachedInput, output: usage.output });
  }

  /** The sum over every role. */
  total(): RoleCounters {
    const t = zero();
    for (const c of this.#byRole.values()) for (const k of Object.keys(t) as (keyof RoleCounters)[]) t[k] += c[k];
    return t;
  }

  /** Counters of the roles that were called, by role name. */
  toJSON(): Partial<Record<RoleName, RoleCounters>> {
    return Object.fromEntries([...this.#byRole].map(([r, c]) => [r, { ...c }]));
  }
}
