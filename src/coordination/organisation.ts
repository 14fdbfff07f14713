/**
 * S-Agents' organisation of agents (Chen et al. 2024, §III-A), as pure parts the `tree`, `chain`
 * and `graph` strategies (`./sagents.ts`) use:
 * - {@link Organisation}: who may command whom. The paper's tree of agents: one root leader
 *   commands the leaves, leaves act and never command, every agent has at most one commander. Its
 *   two alternatives for comparison: a chain (a fixed relay, each agent commands the next) and a
 *   fully connected graph (anyone may command anyone, which the paper finds prone to command cycles
 *   and delegation loops, §IV-C "Following instructions and execution", Fig. 9(a)).
 * - {@link OrderBook}: the open orders, and the guard every order passes: a known agent, an edge of
 *   the organisation, at most one commander at a time, no command cycle, no delegation loop.
 * - The fixed report phrases of the progress monitor's prompt (Appendix C-1), both ways.
 * - The action planner's todos (Appendix C-3: "Mine [quantity] [block]", "inform [player] to …"),
 *   read as a `!command` or an order.
 * - Quotas split evenly across the agents (the task planner's rule: 50 logs → 17/17/16).
 * - Time cost in minutes with the paper's "NaN" rule (§IV a).
 */

/** The organisation's shape (the `coordination` setting's S-Agents values). */
export type OrganisationKind = 'tree' | 'chain' | 'graph';

/** One edge of the organisation: `commander` may give `subordinate` orders. */
export interface CommandEdge {
  commander: string;
  subordinate: string;
}

/**
 * Who may command whom among `agents` (the first is the root leader).
 * - `tree`: the root commands every other agent; leaves command nobody;
 * - `chain`: agent i commands agent i + 1 (an order to a later agent is relayed along the chain);
 * - `graph`: every agent may command every other (the {@link OrderBook} guards it).
 *
 * @throws Error for no agents or a name given twice.
 * @example new Organisation('tree', ['Andy', 'Jill', 'Bob']).edges() // Andy→Jill, Andy→Bob
 */
export class Organisation {
  readonly kind: OrganisationKind;
  readonly agents: readonly string[];

  constructor(kind: OrganisationKind, agents: readonly string[]) {
    if (agents.length === 0) throw new Error('an organisation needs at least one agent');
    const twice = agents.filter((a, i) => agents.indexOf(a) !== i);
    if (twice.length) throw new Error(`an organisation's agents must differ; ${twice.join(', ')} is given twice`);
    this.kind = kind;
    this.agents = [...agents];
  }

  /** The root leader: the agent that plans the whole task. */
  get root(): string {
    return this.agents[0]!;
  }

  /** Whether `name` is in the organisation. */
  has(name: string): boolean {
    return this.agents.includes(name);
  }

  /** Whether `commander` may order `subordinate` directly (an edge of the organisation). */
  mayCommand(commander: string, subordinate: string): boolean {
    if (commander === subordinate || !this.has(commander) || !this.has(subordinate)) return false;
    switch (this.kind) {
      case 'tree':
        return commander === this.root;
      case 'chain':
        return this.agents.indexOf(subordinate) === this.agents.indexOf(commander) + 1;
      case 'graph':
        return true;
    }
  }

  /** Whether `name` may command anyone (the tree's leaves and the chain's last agent may not). */
  commands(name: string): boolean {
    return this.agents.some((a) => this.mayCommand(name, a));
  }

  /** The fixed commander of `name` (tree and chain); undefined for the root and in a graph. */
  commanderOf(name: string): string | undefined {
    if (this.kind === 'graph' || name === this.root || !this.has(name)) return undefined;
    return this.kind === 'tree' ? this.root : this.agents[this.agents.indexOf(name) - 1];
  }

  /**
   * The hops an order from the root to `to` takes: `[root, …, to]` (tree: `[root, to]`; chain:
   * every agent between; graph: `[root, to]`). `[root]` for the root itself.
   */
  routeFromRoot(to: string): string[] {
    if (to === this.root) return [this.root];
    if (this.kind === 'chain') return this.agents.slice(0, this.agents.indexOf(to) + 1);
    return [this.root, to];
  }

  /** The edges, in agent order. */
  edges(): CommandEdge[] {
    const out: CommandEdge[] = [];
    for (const c of this.agents) for (const s of this.agents) if (this.mayCommand(c, s)) out.push({ commander: c, subordinate: s });
    return out;
  }
}

/** An order given: who gave it, to whom, the task, and the order it delegates (if any). */
export interface Order {
  id: number;
  from: string;
  to: string;
  task: string;
  /** The order `from` was carrying out when it gave this one (a delegation). */
  parent?: number;
}

/** The guard's verdict on an order. */
export type OrderCheck = { ok: true; order: Order } | { ok: false; reason: string };

/**
 * The open orders of a run and the guard each new one passes (see the module header). An order is
 * open from {@link OrderBook.give} until {@link OrderBook.close}.
 *
 * @example
 * const book = new OrderBook(new Organisation('graph', ['A', 'B']));
 * const ab = book.give('A', 'B', 'mine 10 stone');  // ok
 * book.give('B', 'A', 'mine 10 stone', ab.ok ? ab.order.id : undefined); // refused: a command cycle
 */
export class OrderBook {
  readonly organisation: Organisation;
  /** How many times one order may be passed on (a delegation of a delegation…); default 1. */
  readonly maxDelegations: number;
  readonly #open = new Map<number, Order>();
  #next = 1;

  constructor(organisation: Organisation, maxDelegations = 1) {
    this.organisation = organisation;
    this.maxDelegations = maxDelegations;
  }

  /** The orders open now. */
  open(): Order[] {
    return [...this.#open.values()];
  }

  /** The open order `name` carries out (the latest), if any. */
  current(name: string): Order | undefined {
    return this.open()
      .filter((o) => o.to === name)
      .at(-1);
  }

  /** Checks and opens an order (see the module header); never throws. */
  give(from: string, to: string, task: string, parent?: number): OrderCheck {
    const refused = this.check(from, to, parent);
    if (refused) return { ok: false, reason: refused };
    const order: Order = { id: this.#next++, from, to, task, ...(parent !== undefined ? { parent } : {}) };
    this.#open.set(order.id, order);
    return { ok: true, order };
  }

  /** Why an order from `from` to `to` (delegating `parent`) would be refused now; undefined when it would pass. */
  check(from: string, to: string, parent?: number): string | undefined {
    const r = this.#check(from, to, parent);
    return r.ok ? undefined : r.reason;
  }

  #check(from: string, to: string, parent?: number): { ok: true } | { ok: false; reason: string } {
    const org = this.organisation;
    if (!org.has(to)) return { ok: false, reason: `${to} is not an agent of this team (${org.agents.join(', ')})` };
    if (!org.has(from)) return { ok: false, reason: `${from} is not an agent of this team` };
    if (from === to) return { ok: false, reason: `${from} cannot give itself an order; it does the task itself` };
    if (!org.commands(from)) return { ok: false, reason: `${from} is a leaf: leaves act and report, they never command` };
    if (!org.mayCommand(from, to))
      return {
        ok: false,
        reason: `${from} may not command ${to} in the ${org.kind} (its commander is ${org.commanderOf(to) ?? 'nobody'})`,
      };
    const commanders = new Set(
      this.open()
        .filter((o) => o.to === to)
        .map((o) => o.from),
    );
    commanders.delete(from);
    if (commanders.size)
      return { ok: false, reason: `${to} already has a commander (${[...commanders].join(', ')}); an agent has at most one` };
    if (this.#commandsTransitively(to, from)) return { ok: false, reason: `a command cycle: ${to} already commands ${from}` };
    if (parent !== undefined) {
      const chain = this.#chain(parent);
      if (chain.some((o) => o.from === to || o.to === to))
        return {
          ok: false,
          reason: `a delegation loop: the task came through ${to} already (${chain.map((o) => `${o.from}→${o.to}`).join(', ')})`,
        };
      if (chain.length > this.maxDelegations)
        return { ok: false, reason: `the task was passed on ${chain.length - 1} times already (at most ${this.maxDelegations})` };
    }
    return { ok: true };
  }

  /** Closes an order (reported done or failed); closing an unknown id does nothing. */
  close(id: number): void {
    this.#open.delete(id);
  }

  /** Whether `a` commands `b` through open orders (a → … → b). */
  #commandsTransitively(a: string, b: string): boolean {
    const seen = new Set<string>();
    const stack = [a];
    while (stack.length) {
      const x = stack.pop()!;
      if (seen.has(x)) continue;
      seen.add(x);
      for (const o of this.#open.values()) {
        if (o.from !== x) continue;
        if (o.to === b) return true;
        stack.push(o.to);
      }
    }
    return false;
  }

  /** The order `id` and the orders it delegates, newest first. */
  #chain(id: number): Order[] {
    const out: Order[] = [];
    let o = this.#open.get(id);
    while (o && out.length <= this.#open.size) {
      out.push(o);
      o = o.parent === undefined ? undefined : this.#open.get(o.parent);
    }
    return out;
  }
}

/** A progress status, as the progress monitor gives it. */
export type ProgressStatus = 'success' | 'fail' | 'unknown';

/** The fixed phrases of S-Agents' reports (Appendix C-1). */
export const REPORT = {
  start: (task: string) => `I'll start the task ${task}`,
  ack: 'Got it!',
  success: (task: string) => `I have succeeded the task ${task}`,
  fail: (task: string) => `I have failed the task ${task}`,
} as const;

/**
 * A leaf's report: the fixed phrase for `status` and its inventory (item → count), e.g.
 * `I have succeeded the task mine 17 oak_log. My inventory: 17 oak_log.`
 */
export function reportText(status: 'start' | 'success' | 'fail', task: string, inventory?: Readonly<Record<string, number>>): string {
  const phrase = REPORT[status](task.replace(/[.\s]+$/, ''));
  if (!inventory) return `${phrase}.`;
  const items = Object.entries(inventory)
    .filter(([, n]) => n > 0)
    .map(([item, n]) => `${n} ${item}`);
  return `${phrase}. My inventory: ${items.length ? items.join(', ') : 'empty'}.`;
}

/**
 * The status a message states by the fixed phrases (the monitor prompt's criteria 3–6): "I'll
 * start the task" and "Got it!" → `unknown`, "I have succeeded (in) the task" → `success`, "I have
 * failed the task" → `fail`; undefined when it says none of them.
 */
export function reportStatus(text: string): ProgressStatus | undefined {
  const t = text.toLowerCase();
  if (/\bi have failed (in )?the task\b/.test(t)) return 'fail';
  if (/\bi have succeeded (in )?the task\b/.test(t)) return 'success';
  if (/\bi('ll| will) start (the )?task\b/.test(t) || /^\s*got it!?\s*$/.test(t)) return 'unknown';
  return undefined;
}

/**
 * The offline progress monitor: from the reports on `task` since it was given (oldest first), the
 * last fixed phrase decides; no phrase at all is `unknown`, as in the monitor's criterion 4.
 */
export function monitorFromReports(reports: readonly string[]): ProgressStatus {
  for (let i = reports.length - 1; i >= 0; i--) {
    const s = reportStatus(reports[i]!);
    if (s) return s;
  }
  return 'unknown';
}

/** One todo read (see {@link parseTodo}). */
export type Todo =
  | { kind: 'command'; command: string; todo: string }
  | { kind: 'inform'; to: string; task: string; todo: string }
  | { kind: 'unreadable'; todo: string; reason: string };

const NUMBER = '(\\d+)';
const THING = '([a-z_ ][a-z0-9_ ]*?)';
const AT = '(?:\\s+at\\s+\\(?\\s*(-?\\d+)\\s*,?\\s*(-?\\d+)\\s*,?\\s*(-?\\d+)\\s*\\)?)?';
const name = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '_');

/** Direct todos (Appendix C-3's forms), each to its `!command`. */
const DIRECT: { re: RegExp; command: (m: RegExpExecArray) => string }[] = [
  {
    re: new RegExp(`^(?:mine|collect|gather|chop|get) ${NUMBER} ${THING}${AT}$`, 'i'),
    command: (m) => `!collectBlocks(${JSON.stringify(name(m[2]!))}, ${m[1]})`,
  },
  { re: new RegExp(`^craft ${NUMBER} ${THING}${AT}$`, 'i'), command: (m) => `!craftRecipe(${JSON.stringify(name(m[2]!))}, ${m[1]})` },
  { re: new RegExp(`^craft (?:an? )?${THING}${AT}$`, 'i'), command: (m) => `!craftRecipe(${JSON.stringify(name(m[1]!))}, 1)` },
  {
    re: new RegExp(`^(?:smelt|cook) ${NUMBER} ${THING}${AT}$`, 'i'),
    command: (m) => `!smeltItem(${JSON.stringify(name(m[2]!))}, ${m[1]})`,
  },
  { re: new RegExp(`^kill (?:${NUMBER} )?${THING}${AT}$`, 'i'), command: (m) => `!attack(${JSON.stringify(name(m[2]!))})` },
  { re: new RegExp(`^equip (?:an? )?${THING}${AT}$`, 'i'), command: (m) => `!equip(${JSON.stringify(name(m[1]!))})` },
  {
    re: new RegExp(`^give ${NUMBER} ${THING} to ([A-Za-z0-9_]+)$`, 'i'),
    command: (m) => `!givePlayer(${JSON.stringify(m[3])}, ${JSON.stringify(name(m[2]!))}, ${m[1]})`,
  },
  {
    re: /^(?:place|build) (?:an? )?([a-z_ ][a-z0-9_ ]*?) at \(?\s*(-?\d+)\s*,?\s*(-?\d+)\s*,?\s*(-?\d+)\s*\)?$/i,
    command: (m) => `!placeBlockAt(${JSON.stringify(name(m[1]!))}, ${m[2]}, ${m[3]}, ${m[4]})`,
  },
];

/**
 * Reads one todo of the action planner (Appendix C-3): "inform [player] to …" (also "instruct",
 * "tell", "ask") is an order to that player; a direct todo ("Mine 17 oak_log", "Craft 1
 * crafting_table", "Smelt 20 raw_iron", "Kill 2 cow", "Equip stone_pickaxe", "Give 3 stick to
 * Bob", "Place stone at (1, -60, 2)") or a `!command(...)` as written becomes a `!command`; any
 * other text is `unreadable`, with the forms it should take. Names are lower-cased with `_` for
 * spaces; the command's own parser checks them when it runs.
 */
export function parseTodo(todo: string): Todo {
  const text = todo.trim().replace(/[.;]+$/, '');
  if (text.startsWith('!')) return { kind: 'command', command: text, todo };
  const inform = /^(?:inform|instruct|tell|ask|order)\s+([A-Za-z0-9_]+)\s*(?:,\s*)?(?:to\s+)?(.+)$/i.exec(text);
  if (inform) return { kind: 'inform', to: inform[1]!, task: inform[2]!.trim(), todo };
  for (const d of DIRECT) {
    const m = d.re.exec(text);
    if (m) return { kind: 'command', command: d.command(m), todo };
  }
  return {
    kind: 'unreadable',
    todo,
    reason: `"${text}" is not a todo form; write "Mine [quantity] [block]", "Craft [quantity] [item]", "Smelt [quantity] [item]", "Kill [quantity] [mob]", "Equip [item]", "Give [quantity] [item] to [player]", "Place [block] at (x, y, z)", "inform [player] to [task]" or a !command`,
  };
}

/**
 * `count` split as evenly as possible into `parts` shares, larger shares first (the task planner's
 * example: 50 logs among 3 agents → 17, 17, 16). Shares of 0 are kept, so share i is agent i's.
 *
 * @throws Error for a negative or fractional count, or fewer than one part.
 */
export function splitQuota(count: number, parts: number): number[] {
  if (!Number.isInteger(count) || count < 0) throw new Error(`splitQuota: the count must be a whole number ≥ 0, got ${count}`);
  if (!Number.isInteger(parts) || parts < 1) throw new Error(`splitQuota: the parts must be a whole number ≥ 1, got ${parts}`);
  const base = Math.floor(count / parts);
  const extra = count % parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Quotas (item → count) split evenly among `agents`: each agent's share of every item, items with a
 * share of 0 left out (an agent may get nothing).
 *
 * @example splitQuotas({ oak_log: 50 }, ['A', 'B', 'C']) // { A: { oak_log: 17 }, B: { oak_log: 17 }, C: { oak_log: 16 } }
 */
export function splitQuotas(quotas: Readonly<Record<string, number>>, agents: readonly string[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = Object.fromEntries(agents.map((a) => [a, {}]));
  for (const [item, count] of Object.entries(quotas)) {
    splitQuota(count, agents.length).forEach((n, i) => {
      if (n > 0) out[agents[i]!]![item] = n;
    });
  }
  return out;
}

/** S-Agents' stall rule (§IV a): no progress for 40 minutes after more than 5 attempts. */
export const STALL = { minutes: 40, attempts: 5 } as const;

/** What {@link timeCost} reads. */
export interface TimeCostInput {
  success: boolean;
  /** Play time, ms. */
  wallMs: number;
  /** Orders given (attempts at subtasks). */
  attempts?: number;
  /** How long since the last progress (a subtask succeeded) when the run ended, ms. */
  sinceProgressMs?: number;
}

/**
 * S-Agents' time cost (§IV a "Time cost (TC)"), minutes: the play time of a run that succeeded;
 * `"NaN"` for one that did not ("NaN denotes no progress for over 40 minutes when attempts exceed
 * 5 without success"; a run that ends unsuccessful before the 40 minutes, by its own time limit or
 * its strategy giving up, has no time cost either).
 */
export function timeCost(input: TimeCostInput): number | 'NaN' {
  if (!input.success) return 'NaN';
  return Math.round((input.wallMs / 60_000) * 100) / 100;
}

/** Whether a run has stalled by {@link STALL}: more than 5 attempts and no progress for 40 minutes. */
export function stalled(attempts: number, sinceProgressMs: number, rule: { minutes: number; attempts: number } = STALL): boolean {
  return attempts > rule.attempts && sinceProgressMs >= rule.minutes * 60_000;
}
