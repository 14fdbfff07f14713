/**
 * `oracle`: a rule-based policy that plays MineCollab tasks (crafting, cooking, construction) with
 * no LLM, through the same `!command` and chat interface a model uses: its reply text is parsed
 * and run like any model's. It reads what a prompt shows a model (inventory, the blocks and mobs
 * in sight, its task's targets or blueprint) and, as data, what happened since its last decision
 * (the agent's journal: messages, command outcomes, conversation notices), and decides with the
 * policy of `./policy.ts`.
 */
import { Vec3 } from 'vec3';
import type { AgentView } from '../commands/context.ts';
import { inventoryCounts } from '../skills/items.ts';
import { COLLECT_RANGE } from '../skills/collect.ts';
import { blockTypesAround, mobTypesAround } from '../skills/surroundings.ts';
import { OraclePolicy } from './policy.ts';
import type { Observation } from './observation.ts';
import type { ChatModel, ChatRequest } from '../models/types.ts';

/**
 * The offline policy behind the {@link ChatModel} interface: `complete` reads the agent's state
 * through its {@link AgentView} and answers with the {@link OraclePolicy}'s reply (chat text, one
 * `!command`, or nothing). One instance per agent: it remembers the team's plan between calls.
 *
 * @example
 * const agent = new Agent({ ..., model: (view) => new OracleModel(view) });
 */
export class OracleModel implements ChatModel {
  readonly id = 'oracle';
  /** Rules cannot summarise a conversation: the agent drops old turns instead. */
  readonly summarises = false;
  readonly #view: AgentView;
  readonly #policy: OraclePolicy;
  /** The last journal entry read (see {@link observe}). */
  #cursor = 0;

  constructor(view: AgentView) {
    this.#view = view;
    this.#policy = new OraclePolicy(view.data);
  }

  /**
   * Why the running task cannot be done, once the oracle has found out (it says so once in chat,
   * `We cannot finish the task: <reason>.`); undefined otherwise.
   */
  get unsolvable(): string | undefined {
    return this.#policy.unsolvable;
  }

  /**
   * The oracle's respond-or-ignore rule while its bot is acting: never interrupt. Its actions are
   * hand-overs, crafts and builds whose result the team is waiting for, so it answers once the
   * action has ended (the conversation holds the lines until then).
   */
  respondWhileBusy(_lines: readonly string[]): boolean {
    return false;
  }

  /**
   * The observation of one decision: the agent's state now and what its journal holds since the
   * last one (the request's turns are the same events as text; the policy reads the data).
   */
  observe(): Observation {
    const v = this.#view;
    const records = v.journal.since(this.#cursor);
    this.#cursor = v.journal.last;
    const task = v.task;
    return {
      name: v.name,
      inventory: inventoryCounts(v.bot),
      targets: task?.targets,
      blueprint: task?.blueprint,
      task,
      position: v.bot.entity
        ? { x: Math.floor(v.bot.entity.position.x), y: Math.floor(v.bot.entity.position.y), z: Math.floor(v.bot.entity.position.z) }
        : undefined,
      stateAt: (x, y, z) => {
        const block = v.bot.blockAt(new Vec3(x, y, z));
        if (!block) return undefined;
        return { name: block.name, properties: Object.fromEntries(Object.entries(block.getProperties()).map(([k, p]) => [k, String(p)])) };
      },
      canUse: (c) => v.canUse(c),
      partner: v.partner(),
      blocks: blockTypesAround(v.bot),
      // The ores the task's spot was chosen for count as reachable: deeper than 64 blocks from
      // the surface at times (gold), within reach once the bot has dug down for the iron.
      reachable: [...new Set([...blockTypesAround(v.bot, COLLECT_RANGE), ...(task?.oresNearby ?? [])])],
      // The mobs the world gives near the task's spot count as seen: its animals wander out of
      // sight, its monsters come and go in the dark.
      mobs: [...new Set([...mobTypesAround(v.bot), ...(task?.mobsNearby ?? [])])],
      records,
    };
  }

  async complete(_req: ChatRequest): Promise<string> {
    return this.#policy.decide(this.observe());
  }
}
