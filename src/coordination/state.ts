/**
 * VillagerAgent's state manager (Dong et al. 2024, §3.4): a state summary per agent, S_i, updated
 * from its latest actions (its long-term memory), and an environment summary E from the union of
 * what every agent observes, cached (VillagerAgent's code: about 120 s). The decomposer and the
 * controller read both.
 *
 * With a model the summaries are the summarise role's (`./roles/summarise.ts`); a summary that
 * fails keeps the last one and adds the facts plainly. Offline they are the facts themselves:
 * the last subtasks' outcomes, and what the agents see.
 */
import { formatCounts } from '../game/production.ts';
import type { TeamMember } from './members.ts';

/** How summaries are written (the summarise roles); undefined from either: keep the plain facts. */
export interface Summariser {
  agent(name: string, summary: string, actions: string[]): Promise<string | undefined>;
  environment(task: string, observations: Record<string, string>): Promise<string | undefined>;
}

/** Subtask outcomes kept per agent in a plain (offline) summary. */
const PLAIN_KEPT = 6;
/** Longest summary kept, in characters. */
const MAX_SUMMARY_CHARS = 2_000;

/** See the module header. */
export class StateManager {
  readonly #members: readonly TeamMember[];
  readonly #task: string;
  readonly #summariser: Summariser | undefined;
  readonly #cacheMs: number;
  readonly #now: () => number;
  readonly #summaries = new Map<string, string>();
  readonly #plain = new Map<string, string[]>();
  #environment: { text: string; at: number } | undefined;

  /**
   * @param options.cacheMs how long an environment summary is reused, ms (default 120 000).
   */
  constructor(options: { members: readonly TeamMember[]; task: string; summariser?: Summariser; cacheMs?: number; now?: () => number }) {
    this.#members = options.members;
    this.#task = options.task;
    this.#summariser = options.summariser;
    this.#cacheMs = options.cacheMs ?? 120_000;
    this.#now = options.now ?? Date.now;
  }

  /** One agent's observation now: position, items held, what it sees. */
  static observe(member: TeamMember): string {
    const p = member.position();
    const inv = member.inventory();
    const seen = member.surroundings();
    return [
      p ? `at (${p.x}, ${p.y}, ${p.z})` : 'not in the world',
      `holds ${formatCounts(inv) || 'nothing'}`,
      `blocks in sight: ${seen.blocks.slice(0, 40).join(', ') || 'none'}`,
      `mobs in sight: ${seen.mobs.join(', ') || 'none'}`,
    ].join('; ');
  }

  /** S_i of every agent: its summary so far and its state now. */
  agentStates(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const m of this.#members) {
      const summary = this.#summaries.get(m.name);
      const p = m.position();
      const now = `Now: holds ${formatCounts(m.inventory()) || 'nothing'}${p ? `, at (${p.x}, ${p.y}, ${p.z})` : ''}.`;
      out[m.name] = summary ? `${summary} ${now}` : now;
    }
    return out;
  }

  /**
   * Updates `name`'s summary after a subtask: `outcome` is one line (`1.2 success: ...`), `actions`
   * what it did, oldest first.
   */
  async update(name: string, outcome: string, actions: string[]): Promise<void> {
    const plain = [...(this.#plain.get(name) ?? []), outcome].slice(-PLAIN_KEPT);
    this.#plain.set(name, plain);
    const before = this.#summaries.get(name) ?? '';
    const written = this.#summariser ? await this.#summariser.agent(name, before, [...actions, outcome]).catch(() => undefined) : undefined;
    const text = written ?? `Subtasks: ${plain.join(' | ')}`;
    this.#summaries.set(name, text.slice(-MAX_SUMMARY_CHARS));
  }

  /** E: the environment summary, written again once it is older than the cache time. */
  async environment(): Promise<string> {
    const now = this.#now();
    if (this.#environment && now - this.#environment.at < this.#cacheMs) return this.#environment.text;
    const observations = Object.fromEntries(this.#members.map((m) => [m.name, StateManager.observe(m)]));
    const written = this.#summariser ? await this.#summariser.environment(this.#task, observations).catch(() => undefined) : undefined;
    const text = (
      written ??
      Object.entries(observations)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')
    ).slice(0, MAX_SUMMARY_CHARS * 2);
    this.#environment = { text, at: now };
    return text;
  }
}
