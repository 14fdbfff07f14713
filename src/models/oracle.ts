/**
 * `oracle`: a rule-based policy that plays MineCollab crafting tasks with no LLM, through the same
 * `!command` interface a model uses. It reads its goal and inventory, plans from recipes, asks its
 * conversation partner for what it lacks, hands over what it is asked for, crafts, and stops.
 *
 * Turn-taking: it asks only in answer to a partner's message (the bot that opens the task's
 * conversation therefore helps, the one that answers crafts), so two oracles never ask each other
 * at once.
 */
import type { Bot } from 'mineflayer';
import type { GameData } from '../game/data.ts';
import { type Counts, formatCounts, planCrafting } from '../skills/crafting-plan.ts';
import { inventoryCounts } from '../skills/items.ts';
import type { ChatModel, ChatRequest } from './types.ts';

/** What the oracle may read of its agent: the same facts its prompt gives an LLM. */
export interface OracleView {
  readonly name: string;
  readonly bot: Bot;
  readonly data: GameData;
  /** Item targets of the running task (item → count), if a task runs. */
  readonly taskTargets: Record<string, number> | undefined;
  /** Whether this agent may use a command (tasks block some). */
  canUse(command: string): boolean;
  /** Current conversation partner, if any. */
  partner(): string | undefined;
}

const REQUEST = /I need (.+?) to craft/i;
const ITEM_COUNT = /(\d+)\s+([a-z0-9_]+)/g;

/** Parses "I need 3 purple_wool, 1 stick to craft ..." into counts. */
export function parseRequest(text: string): Counts | undefined {
  const m = REQUEST.exec(text);
  if (!m) return undefined;
  const counts: Counts = {};
  for (const [, n, item] of m[1].matchAll(ITEM_COUNT)) counts[item] = (counts[item] ?? 0) + Number(n);
  return Object.keys(counts).length ? counts : undefined;
}

export class OracleModel implements ChatModel {
  readonly id = 'oracle';
  readonly #view: OracleView;
  /** A partner's request is being served. */
  #serving = false;
  /** Items still to hand over for the request being served. */
  #toGive: Counts = {};
  #given: Counts = {};
  #lacking: Counts = {};
  /** Partner turns already read for requests. */
  readonly #seen = new WeakSet<object>();
  #helper = false;
  /** The partner said something since this oracle last asked. */
  #partnerSpoke = false;
  #askedFor = '';
  #plannedOnce = false;
  #announced = false;
  #lastCommand = '';
  #repeats = 0;

  constructor(view: OracleView) {
    this.#view = view;
  }

  /**
   * The oracle's respond-or-ignore rule while its bot is acting: never interrupt. Its actions are
   * short hand-overs and crafts whose result the partner is waiting for, so it answers once the
   * action has ended (the conversation holds the lines until then).
   */
  respondWhileBusy(_lines: readonly string[]): boolean {
    return false;
  }

  async complete(req: ChatRequest): Promise<string> {
    const reply = this.#decide(req);
    // Never loop on a command that keeps failing.
    if (reply.startsWith('!')) {
      this.#repeats = reply === this.#lastCommand ? this.#repeats + 1 : 0;
      this.#lastCommand = reply;
      if (this.#repeats >= 2) return '';
    }
    return reply;
  }

  #decide(req: ChatRequest): string {
    const v = this.#view;
    const last = req.turns.at(-1)?.content ?? '';
    const targets = v.taskTargets;
    if (!targets) {
      return last.startsWith('SYSTEM') ? '' : 'I am the offline oracle policy: I play crafting tasks and run the commands you type (try !help). Configure a model in my profile to chat.';
    }
    const partner = v.partner();
    this.#takeRequests(req, partner);
    const give = this.#nextHandOver(partner);
    if (give !== undefined) return give;

    const [target, count] = Object.entries(targets)[0];
    const inventory = inventoryCounts(v.bot);
    if ((inventory[target] ?? 0) >= count) {
      if (this.#announced) return '';
      this.#announced = true;
      return `I have ${count} ${target}. Our task is done!`;
    }
    const plan = planCrafting(v.data, inventory, target, count, { expand: 'direct' });
    if (Object.keys(plan.missing).length === 0) {
      const step = plan.steps[0];
      return `!craftRecipe("${step.item}", ${step.produces})`;
    }
    // Lacking items: ask, but only in answer to the partner, and never as the helper.
    if (!partner || this.#helper || !this.#partnerSpoke) return '';
    if (!this.#plannedOnce && v.canUse('!getCraftingPlan')) {
      this.#plannedOnce = true;
      return `!getCraftingPlan("${target}", ${count})`;
    }
    const ask = formatCounts(plan.missing);
    if (ask === this.#askedFor && !/gave you|don't have/i.test(last)) return '';
    this.#askedFor = ask;
    this.#partnerSpoke = false;
    return `I need ${ask} to craft ${target}. Can you give them to me?`;
  }

  /** Reads new partner requests from the history. */
  #takeRequests(req: ChatRequest, partner: string | undefined): void {
    if (!partner) return;
    for (const turn of req.turns) {
      if (this.#seen.has(turn)) continue;
      this.#seen.add(turn);
      if (turn.role !== 'user' || !turn.content.startsWith(`${partner} `)) continue;
      this.#partnerSpoke = true;
      const request = parseRequest(turn.content);
      if (request) {
        this.#helper = true;
        this.#serving = true;
        this.#toGive = request;
        this.#given = {};
        this.#lacking = {};
      }
    }
  }

  /** The next hand-over command, the closing message once all is handed over, or undefined. */
  #nextHandOver(partner: string | undefined): string | undefined {
    if (!partner || !this.#serving) return undefined;
    const v = this.#view;
    const inventory = inventoryCounts(v.bot);
    for (const [item, wanted] of Object.entries(this.#toGive)) {
      const have = inventory[item] ?? 0;
      if (have > 0) {
        const n = Math.min(have, wanted);
        this.#settle(item, n);
        this.#given[item] = (this.#given[item] ?? 0) + n;
        return `!givePlayer("${partner}", "${item}", ${n})`;
      }
      const plan = planCrafting(v.data, inventory, item, wanted, { expand: 'direct' });
      if (Object.keys(plan.missing).length === 0 && plan.steps.length > 0) {
        return `!craftRecipe("${plan.steps[0].item}", ${plan.steps[0].produces})`;
      }
      this.#lacking[item] = wanted;
      this.#settle(item, wanted);
    }
    const lacking = formatCounts(this.#lacking);
    const given = formatCounts(this.#given);
    this.#serving = false;
    return [given ? `I gave you ${given}.` : '', lacking ? `I don't have ${lacking}.` : ''].join(' ').trim();
  }

  #settle(item: string, n: number): void {
    const left = (this.#toGive[item] ?? 0) - n;
    if (left > 0) this.#toGive[item] = left;
    else delete this.#toGive[item];
  }
}
