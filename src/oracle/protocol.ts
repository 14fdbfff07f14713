/**
 * The plain-chat protocol oracle agents use to agree on a plan: short English sentences that a
 * person (or an LLM teammate) can read, with no `!` in them, so no line is ever taken for a command.
 * It is the policy's own language with its teammates: each line is written and read here, in
 * pairs (`formatX` / `parseX`, tested to round-trip); nothing else in the policy reads words.
 *
 * - status: `My items: 2 wheat, 1 crafting_table. I want 1 bread. I cannot craft.` (`My items:
 *   nothing.` when empty; `I want` lists the task's targets given to the agent; `I cannot` what it
 *   may not do: craft, give, gather, build)
 * - team, sent by the coordinator once it knows everyone: `Plan. Team: Andy has 2 wheat; Jill has
 *   1 wheat and cannot craft. So Jill makes 1 bread, Andy gives Jill 2 wheat.` Every agent computes
 *   the plan from the team part with the same rule; the sentence after `So` is for people.
 *   `Go.` instead of `Plan.` tells a worker that every hand-over is done.
 * - `Done.` when an agent has made its hand-overs.
 * - `We cannot finish the task: <reason>.` once, when the task is unsolvable.
 */
import type { Counts } from '../game/production.ts';
import { formatCounts } from '../game/production.ts';

/** What an agent may not do, as the protocol names it. */
export type Limit = 'craft' | 'give' | 'gather' | 'build';
const LIMITS: readonly Limit[] = ['craft', 'give', 'gather', 'build'];

/** One agent's status. */
export interface Status {
  inventory: Counts;
  /** The item targets the task gave this agent (empty for construction). */
  wants: Counts;
  cannot: Limit[];
}

const COUNTS = /(\d+)\s+([a-z0-9_]+)/g;

function parseCounts(text: string): Counts {
  // Item names come from chat: a key like __proto__ must be an ordinary key.
  const out: Counts = Object.create(null);
  for (const [, n, item] of text.matchAll(COUNTS)) out[item!] = (out[item!] ?? 0) + Number(n);
  return out;
}

function parseLimits(text: string | undefined): Limit[] {
  return (text ?? '').split(/[,\s]+/).filter((w): w is Limit => (LIMITS as readonly string[]).includes(w));
}

/** `My items: 2 wheat, 1 crafting_table. I want 1 bread. I cannot craft, give.` */
export function formatStatus(status: Status): string {
  const items = formatCounts(status.inventory) || 'nothing';
  const wants = formatCounts(status.wants);
  return `My items: ${items}.${wants ? ` I want ${wants}.` : ''}${status.cannot.length ? ` I cannot ${status.cannot.join(', ')}.` : ''}`;
}

/** The status in a line, or undefined when the line has none. */
export function parseStatus(text: string): Status | undefined {
  const m = /My items: ([^.]*)\.(?:\s*I want ([^.]*)\.)?(?:\s*I cannot ([a-z, ]+)\.)?/.exec(text);
  if (!m) return undefined;
  return { inventory: m[1]!.trim() === 'nothing' ? {} : parseCounts(m[1]!), wants: parseCounts(m[2] ?? ''), cannot: parseLimits(m[3]) };
}

/** A team message: each member's status, and whether it is the go-ahead. */
export interface TeamMessage {
  go: boolean;
  team: Record<string, Status>;
}

/**
 * `Plan. Team: Andy has 2 wheat; Jill has nothing and cannot craft. So ...`
 *
 * @param summary the plan in words, for people (`Jill makes 1 bread, Andy gives Jill 2 wheat`).
 */
export function formatTeam(go: boolean, team: Record<string, Status>, summary: string): string {
  const parts = Object.entries(team)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, s]) => {
      const wants = formatCounts(s.wants);
      return `${name} has ${formatCounts(s.inventory) || 'nothing'}${wants ? ` and wants ${wants}` : ''}${s.cannot.length ? ` and cannot ${s.cannot.join(', ')}` : ''}`;
    });
  return `${go ? 'Go.' : 'Plan.'} Team: ${parts.join('; ')}.${summary ? ` So ${summary}.` : ''}`;
}

/** The team message in a line, or undefined. */
export function parseTeam(text: string): TeamMessage | undefined {
  const m = /\b(Plan|Go)\. Team: ([^.]*)\./.exec(text);
  if (!m) return undefined;
  const team: Record<string, Status> = {};
  for (const part of m[2]!.split(';')) {
    const p = /^\s*([A-Za-z0-9_]+) has (.*?)(?: and wants (.*?))?(?: and cannot ([a-z, ]+))?\s*$/.exec(part);
    if (!p) continue;
    team[p[1]!] = {
      inventory: p[2]!.trim() === 'nothing' ? {} : parseCounts(p[2]!),
      wants: parseCounts(p[3] ?? ''),
      cannot: parseLimits(p[4]),
    };
  }
  return { go: m[1] === 'Go', team };
}

/** The plan in a team message's `So ...` sentence: who makes what, who gives what to whom. */
export interface PlanSummary {
  /** `for`: the teammate a helper hands its share to (`Jill makes 4 gold_ingot for Andy`). */
  jobs: { worker: string; target: string; count: number; for?: string }[];
  transfers: { from: string; to: string; item: string; count: number }[];
}

/**
 * The `So Jill makes 1 bread, Andy gives Jill 2 wheat.` part of a team message, or undefined
 * when it names no job (a construction plan: `Andy places 10 blocks`).
 */
export function parseSummary(text: string): PlanSummary | undefined {
  const m = /\. So (.*)\.\s*$/.exec(text.trim());
  if (!m) return undefined;
  const out: PlanSummary = { jobs: [], transfers: [] };
  for (const part of m[1]!.split(', ')) {
    const job = /^([A-Za-z0-9_]+) makes (\d+) ([a-z0-9_]+)(?: for ([A-Za-z0-9_]+))?$/.exec(part);
    if (job) out.jobs.push({ worker: job[1]!, count: Number(job[2]), target: job[3]!, ...(job[4] ? { for: job[4] } : {}) });
    const give = /^([A-Za-z0-9_]+) gives ([A-Za-z0-9_]+) (\d+) ([a-z0-9_]+)$/.exec(part);
    if (give) out.transfers.push({ from: give[1]!, to: give[2]!, count: Number(give[3]), item: give[4]! });
  }
  return out.jobs.length ? out : undefined;
}

/** `I still need 3 wheat to make 1 bread.`: a worker short of items after the hand-overs. */
export function formatShort(items: Counts, target: Counts): string {
  return `I still need ${formatCounts(items)} to make ${formatCounts(target)}.`;
}

/** The items and the target of an `I still need ...` line, or undefined. */
export function parseShort(text: string): { items: Counts; target: Counts } | undefined {
  const m = /I still need (.*?) to make (.*?)\./.exec(text);
  return m ? { items: parseCounts(m[1]!), target: parseCounts(m[2]!) } : undefined;
}

/**
 * `Jill needs 3 wheat to make 1 bread. Please give what you have of it.`: the coordinator's call
 * for a short worker; `target`, what the items are for, when known.
 */
export function formatNeed(worker: string, items: Counts, target?: Counts): string {
  return `${worker} needs ${formatCounts(items)}${target ? ` to make ${formatCounts(target)}` : ''}. Please give what you have of it.`;
}

/** The worker, items and target (when said) of a need line, or undefined. */
export function parseNeed(text: string): { worker: string; items: Counts; target?: Counts } | undefined {
  const m = /^([A-Za-z0-9_]+) needs (.*?)(?: to make (.*?))?\. Please give what you have of it\./.exec(text.trim());
  if (!m) return undefined;
  return m[3] ? { worker: m[1]!, items: parseCounts(m[2]!), target: parseCounts(m[3]) } : { worker: m[1]!, items: parseCounts(m[2]!) };
}

/** A block position (x, y, z). */
export interface Spot {
  x: number;
  y: number;
  z: number;
}

/** `The wheat I gave you lies at (26, -60, 24): please pick it up.`: told to the recipient of a missed hand-over. */
export function formatLying(item: string, at: Spot): string {
  return `The ${item} I gave you lies at (${at.x}, ${at.y}, ${at.z}): please pick it up.`;
}

/** The block of a `... I gave you lies at (x, y, z)` line, or undefined. */
export function parseLying(text: string): Spot | undefined {
  const m = /^The [a-z0-9_]+ I gave you lies at \((-?\d+), (-?\d+), (-?\d+)\)/.exec(text.trim());
  return m ? { x: Number(m[1]), y: Number(m[2]), z: Number(m[3]) } : undefined;
}

/** True when the line reports hand-overs done. */
export function isDone(text: string): boolean {
  return /^Done\b/.test(text.trim());
}

/** One hand-over as a `Done.` line names it. */
export interface Gift {
  item: string;
  count: number;
  to: string;
}

/** `Done. I gave 4 gold_ingot to Andy, 1 stick to Jill.`: the hand-overs an agent has made. */
export function formatGave(gifts: readonly Gift[]): string {
  return `Done. I gave ${gifts.map((g) => `${g.count} ${g.item} to ${g.to}`).join(', ')}.`;
}

/** The hand-overs a {@link formatGave} line names; none for any other line. */
export function parseGave(text: string): Gift[] {
  const m = /^Done\. I gave (.*)\.\s*$/.exec(text.trim());
  if (!m) return [];
  return m[1]!.split(', ').flatMap((part) => {
    const g = /^(\d+) ([a-z0-9_]+) to ([A-Za-z0-9_]+)$/.exec(part);
    return g ? [{ count: Number(g[1]), item: g[2]!, to: g[3]! }] : [];
  });
}

/** `We cannot finish the task: <reason>.` */
export function formatUnsolvable(reason: string): string {
  return `We cannot finish the task: ${reason}.`;
}

/** The reason of an unsolvable message, or undefined. */
export function parseUnsolvable(text: string): string | undefined {
  return /We cannot finish the task: (.*?)\.?$/.exec(text.trim())?.[1];
}
