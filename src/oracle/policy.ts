/**
 * The offline policy's decisions: a function of what the agent observes (its inventory, what it
 * sees, its task, and what happened since its last decision, as data) to one reply: a line of
 * chat, one `!command`, or nothing. Its roles, each in its own module:
 * - observe (`./observe.ts`): outcomes by code and data, notices, teammates' protocol lines;
 * - coordinate and follow (`./team.ts`): the team's plan, hand-overs, calls for what is short;
 * - work (`./work.ts`): crafting, smelting, gathering and sowing toward the plan's targets;
 * - build (`./build.ts`): a blueprint's cells, level by level; a VillagerBench blueprint's
 *   oriented cells from its material chests (`./villager-construction.ts`);
 * - retry (`./retry.ts`): a command that changes nothing is retried after a wait, then given up;
 * - under a coordination strategy (`./assignment.ts`): the subtask it was given, by its typed work;
 * - VillagerBench's escape rooms (`./villager-escape.ts`): the rooms' switches and blocks, room by room.
 * - VillagerBench cooking (`./villager-cooking.ts`): its share of the dish's ingredients, handed to the cook.
 */
import type { GameData } from '../game/data.ts';
import { planProduction } from '../game/production.ts';
import { doAssignment } from './assignment.ts';
import { build } from './build.ts';
import { OracleMemory } from './memory.ts';
import type { Observation } from './observation.ts';
import { observe } from './observe.ts';
import { RetryGuard } from './retry.ts';
import { makePlan, teamDecision, type TeamContext } from './team.ts';
import { work } from './work.ts';
import { VillagerBuilder } from './villager-construction.ts';
import { SharedCooking } from './villager-cooking.ts';
import { fromPlayer } from '../conversation/types.ts';
import { nameResolver } from '../game/names.ts';
import { understandRequest } from './requests.ts';
import { escapeDecision } from './villager-escape.ts';
import { commandCall } from '../commands/skill-commands.ts';

export type { Observation } from './observation.ts';

/** The answer to a player's chat it does not understand when no model is configured (see `./requests.ts` for what it does understand). */
export const OFFLINE_ANSWER =
  'I am the offline oracle policy: I play MineCollab tasks, run the commands you type (an exclamation mark, then the command; the help command lists them) and understand a few plain requests (come here, follow me, stop, collect 3 oak logs, craft a wooden pickaxe, give me 2 bread, what do you have). Configure a model in my profile to chat.';

/**
 * A command's report told back to the player who asked, with no `!` before a word, so that a report
 * naming a command (`... with !craftRecipe`) is not read as the policy's next command.
 */
function reportText(text: string): string {
  return text.replace(/!(?=[A-Za-z])/g, '');
}

/** One agent's policy; keeps what it learnt between calls (its {@link OracleMemory}). */
export class OraclePolicy {
  readonly #data: GameData;
  readonly #memory = new OracleMemory();
  readonly #retry = new RetryGuard();
  readonly #cooking = new SharedCooking();
  readonly #team: TeamContext;
  readonly #villager: VillagerBuilder;

  constructor(data: GameData) {
    this.#data = data;
    this.#villager = new VillagerBuilder(data);
    this.#team = { data, work: (obs) => this.#work(obs) };
  }

  /** Why the running task cannot be done, once this agent knows it. */
  get unsolvable(): string | undefined {
    return this.#memory.unsolvable;
  }

  /** The reply to one request. */
  decide(obs: Observation): string {
    // An escape run: its rooms, not the item protocol (every agent splits the rooms alike).
    const m = this.#memory;
    const escape = obs.task?.escape;
    if (escape) {
      if (m.escape?.chain !== escape) m.escape = { chain: escape, opened: new Set() };
      return escapeDecision(obs, escape, this.#data, m.escape.opened);
    }
    observe(m, obs, (o) => makePlan(m, o, this.#data));
    // Too far from the furnaces or chests (a hunt or a mine led the bot away): back to where the
    // task began first, unless a furnace can be made from what is held (the plan makes it).
    const makesFurnace = () => Object.keys(planProduction(this.#data, obs.inventory, { furnace: 1 }, {}).missing).length === 0;
    if (m.home && m.goHome && !(m.goHome === 'furnace' && makesFurnace()))
      return `!goToCoordinates(${m.home.x}, ${m.home.y}, ${m.home.z}, 2)`;
    // A hand-over that went astray is put right first (see observe.ts).
    const relay = m.relays.shift();
    if (relay) {
      if (relay.startsWith('!givePlayer(')) m.giveAgain = () => m.relays.unshift(relay);
      return relay;
    }
    const fetch = m.fetch;
    m.fetch = undefined;
    if (fetch) return `!goToCoordinates(${fetch.x}, ${fetch.y}, ${fetch.z}, 0)`;
    m.giveAgain = undefined; // the last hand-over's outcome has been read (observe)
    return this.#retry.guard(m, this.#decide(obs), JSON.stringify(obs.inventory));
  }

  #decide(obs: Observation): string {
    // Under a coordination strategy: its subtask, not the chat protocol.
    const assignment = obs.task?.assignment;
    if (assignment) return doAssignment(this.#memory, obs, this.#data, assignment);
    // A VillagerBench construction: materials in chests, no chat needed (see ./villager-construction.ts).
    const chests = obs.blueprint ? (obs.task?.materialChests ?? []) : [];
    if (chests.length > 0) return this.#villager.decide(obs, chests, this.#retry.lastCommand);
    // VillagerBench cooking: the ingredients shared out, then handed to the cook.
    if (obs.task?.shareIngredients && obs.targets) return this.#cooking.decide(this.#memory, obs, this.#data);
    if (!obs.targets && !obs.blueprint) {
      // No task: a teammate's call to give a player what a hand-over of its failed to bring (this
      // agent picked it up, standing by), answered with what it holds of it.
      const passOn = this.#passOn(obs);
      if (passOn) return passOn;
      // A player's newest request, when it is one the policy understands; once the request's
      // command has run (and nothing newer was asked), what it did, told back.
      const asked = obs.records.findLast(
        (r) => (r.kind === 'message' && fromPlayer(r.message)) || (r.kind === 'outcome' && r.by === 'model'),
      );
      if (asked?.kind === 'outcome') return reportText(asked.outcome.text);
      if (asked?.kind !== 'message') return '';
      const version = this.#data.version.minecraftVersion;
      const request = version && understandRequest(asked.message.text, asked.message.from, obs.name, this.#data, nameResolver(version));
      return request || OFFLINE_ANSWER;
    }
    return teamDecision(this.#memory, obs, this.#team);
  }

  /**
   * Outside a task, the next `!givePlayer` toward a teammate's `X needs ...` call (the giver of a
   * hand-over that this agent picked up asks so): what this agent holds of the items, one call at
   * a time; undefined when there is none or it holds nothing of it.
   */
  #passOn(obs: Observation): string | undefined {
    const m = this.#memory;
    while (m.needs.length > 0) {
      const need = m.needs[0]!;
      const item = Object.keys(need.items).find((i) => (need.items[i] ?? 0) > 0 && (obs.inventory[i] ?? 0) > 0);
      if (!item || need.worker === obs.name) {
        m.needs.shift();
        continue;
      }
      const n = Math.min(need.items[item]!, obs.inventory[item]!);
      need.items[item] = need.items[item]! - n;
      return commandCall({ skill: 'givePlayer', args: { player_name: need.worker, item_name: item, num: n } });
    }
    return undefined;
  }

  #work(obs: Observation): string {
    const plan = this.#memory.plan;
    if (!plan) return '';
    return plan.kind === 'build' ? build(this.#memory, obs, plan.plan, this.#retry.lastCommand) : work(this.#memory, obs, this.#team);
  }
}
