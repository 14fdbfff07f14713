/**
 * The offline policy's decisions: a function of what the agent observes (its inventory, what it
 * sees, its task and the conversation) to one reply: a line of chat, one `!command`, or nothing.
 *
 * Team play, through pairwise conversations only (as an LLM team would):
 * 1. The coordinator, the first teammate by name, asks each teammate in turn for its status
 *    (`My items: ...`, see `./protocol.ts`); a teammate answers any message with its status.
 * 2. Knowing everyone, the coordinator sends the team's statuses (`Plan. Team: ...`) to each agent
 *    that hands items over; each computes the same plan from them (`./team-plan.ts` for items,
 *    `./construction-plan.ts` for a blueprint), makes its hand-overs and answers `Done.`
 * 3. Then it tells each worker `Go. Team: ...`; workers make their items (crafting, smelting,
 *    gathering what the world gives, sowing back the crops they harvest with the seeds they do
 *    not need: `!sow`) or build their cells level by level, bottom up.
 * 4. An unsolvable task is said once, with the reason.
 */
import type { GameData } from '../game/data.ts';
import { recipeIngredients } from '../game/data.ts';
import { cropOf } from '../game/crops.ts';
import { type Counts, formatCounts, planProduction, type ProductionStep, usableRecipes } from '../game/production.ts';
import type { Blueprint } from '../tasks/schema.ts';
import { blueprintBox } from '../tasks/worlds.ts';
import type { ChatTurn } from '../models/types.ts';
import { blueprintCells, type BuildPlan, cellKey, planConstruction } from './construction-plan.ts';
import {
  formatLying,
  formatNeed,
  formatShort,
  formatStatus,
  formatTeam,
  formatUnsolvable,
  isDone,
  type Limit,
  type MissedHandOver,
  parseCollector,
  parseLying,
  parseMissedHandOver,
  parseNeed,
  parseShort,
  parseStatus,
  parseSummary,
  parseTeam,
  parseTeammates,
  parseUnsolvable,
  type Spot,
  type Status,
} from './protocol.ts';
import { sourcesFrom } from '../skills/surroundings.ts';
import { commandCall } from '../commands/skill-commands.ts';
import { COOKING_SUPPLIES } from '../tasks/cooking.ts';
import { type Job, planTeam, type TeamPlan, transfersFrom } from './team-plan.ts';

/** What the policy reads for one decision: the facts a prompt gives a model. */
export interface Observation {
  name: string;
  inventory: Counts;
  /** Item targets the task gave this agent (item → count); undefined without an item task. */
  targets: Counts | undefined;
  /** The construction blueprint the task gave this agent, if any. */
  blueprint: Blueprint | undefined;
  /** The task's goal text for this agent, if a task runs (names the teammates). */
  goal?: string | undefined;
  /** Where the agent stands (its feet's block), as `!stats` shows it. */
  position?: { x: number; y: number; z: number } | undefined;
  /** Whether this agent may use a command (tasks block some). */
  canUse(command: string): boolean;
  /** The bot this agent is talking with, if any. */
  partner: string | undefined;
  /** Names of the blocks in sight (within about 24 blocks). */
  blocks: readonly string[];
  /** Names of the mobs in sight. */
  mobs: readonly string[];
  /** The conversation, oldest first (the same turns a model gets). */
  turns: readonly ChatTurn[];
}

/** Tries of one command without any change in the inventory before the policy gives up on it. */
const MAX_TRIES = 6;
/** The wait between two tries of a command that changed nothing. */
const WAIT = '!stay(2)';
/** Waits (`!stay`) for teammates' cells on one level before a builder gives up. */
const MAX_WAITS = 40;
/** Level checks a builder with no cells of its own left waits before it takes over a teammate's. */
const TAKEOVER_WAITS = 5;
/** How often a worker waits and looks again after saying what it lacks. */
const SHORT_WAITS = 5;
/** Farther than this from its set-up spot (blocks, horizontally), a worker goes back before saying it lacks something. */
const HOME_RADIUS = 12;
/** Tries of one cell's command before a builder leaves that cell. */
const MAX_CELL_ATTEMPTS = 5;

type Plan = { kind: 'items'; plan: TeamPlan } | { kind: 'build'; plan: BuildPlan };

/** One agent's policy; keeps what it learnt from the conversation between calls. */
export class OraclePolicy {
  readonly #data: GameData;
  /** Every teammate's name, this agent's included, sorted. */
  #team: string[] | undefined;
  readonly #statuses = new Map<string, Status>();
  readonly #seen = new WeakSet<object>();
  /** Coordinator: teammates asked for their status / sent the plan / sent the go-ahead. */
  readonly #asked = new Set<string>();
  readonly #planSent = new Set<string>();
  readonly #goSent = new Set<string>();
  /** Coordinator: how many times each teammate said `Done.` (its first: its plan hand-overs are made; later ones answer calls). */
  readonly #dones = new Map<string, number>();
  #plan: Plan | undefined;
  #teamText = '';
  #go = false;
  #given = 0;
  #reportedDone = false;
  #unsolvableSaid = false;
  #finishedSaid = false;
  #stuckSaid = false;
  /** A teammate's message that this agent answers with its status. */
  #answer: string | undefined;
  #lastCommand = '';
  #lastInventory = '';
  readonly #tries = new Map<string, number>();
  /** Commands that have had their wait before their next retry. */
  readonly #waited = new Set<string>();
  // Construction.
  #level: number | undefined;
  #queue: string[] = [];
  #waits = 0;
  /** Where this agent stood at its first decision: the task's set-up spot (the cooking world's centre). */
  #home: { x: number; y: number; z: number } | undefined;
  /** Why the task cannot be done, once this agent knows it. */
  unsolvable: string | undefined;

  constructor(data: GameData) {
    this.#data = data;
  }

  /** The reply to one request. */
  decide(obs: Observation): string {
    this.#read(obs);
    this.#home ??= obs.position && { x: Math.floor(obs.position.x), y: Math.floor(obs.position.y), z: Math.floor(obs.position.z) };
    // Too far from the furnaces (a hunt led the bot away): back to where the task began first.
    const last = obs.turns.at(-1);
    if (this.#home && last?.role === 'user' && /^SYSTEM: !smeltItem failed: No smoker or furnace within/.test(last.content)) {
      const { x, y, z } = this.#home;
      return `!goToCoordinates(${x}, ${y}, ${z}, 2)`;
    }
    // A hand-over that went astray is put right first (see #putRight).
    const relay = this.#relays.shift();
    if (relay) {
      if (relay.startsWith('!givePlayer('))
        this.#giveAgain = () => {
          this.#relays.unshift(relay);
        };
      return relay;
    }
    const fetch = this.#fetch;
    this.#fetch = undefined;
    if (fetch) return `!goToCoordinates(${fetch.x}, ${fetch.y}, ${fetch.z}, 0)`;
    this.#giveAgain = undefined; // the last hand-over's report has been read (#read)
    const reply = this.#decide(obs);
    if (!reply.startsWith('!')) return reply;
    // A command that changes nothing is tried again after a short wait (a busy smoker, a path
    // not found in time), and given up after a few tries.
    const inventory = JSON.stringify(obs.inventory);
    if (inventory !== this.#lastInventory) {
      this.#tries.clear();
      this.#waited.clear();
      this.#lastInventory = inventory;
    }
    if (/^!(checkBlueprintLevel|stay|goToCoordinates|moveAway|startConversation)\(/.test(reply)) {
      this.#lastCommand = reply;
      return reply;
    }
    const tries = (this.#tries.get(reply) ?? 0) + 1;
    if (tries > MAX_TRIES) {
      if (this.#stuckSaid) return '';
      this.#stuckSaid = true;
      return `I am stuck: ${reply.slice(1)} keeps changing nothing.`;
    }
    // One wait before each retry, even when other commands (a level check) come in between.
    if (tries >= 2 && !this.#waited.has(reply)) {
      this.#waited.add(reply);
      this.#lastCommand = WAIT;
      // A hand-over waited for is made after the wait: it is not counted as made yet (the same
      // inventory as at an earlier identical hand-over is not a failure: the items came back).
      this.#undoGive();
      return WAIT;
    }
    this.#waited.delete(reply);
    this.#tries.set(reply, tries);
    this.#lastCommand = reply;
    return reply;
  }

  /** Counts the last hand-over as not made (see #giveAgain), so it is made again. */
  #undoGive(): void {
    this.#giveAgain?.();
    this.#giveAgain = undefined;
  }

  /** Reads the turns not seen yet. */
  #read(obs: Observation): void {
    if (!this.#team && obs.goal) {
      const mates = parseTeammates(obs.goal);
      if (mates) this.#team = [...new Set([obs.name, ...mates])].sort((a, b) => a.localeCompare(b));
    }
    const fresh = obs.turns.filter((t) => !this.#seen.has(t));
    for (const t of obs.turns) this.#seen.add(t);
    for (const turn of fresh) {
      if (turn.role !== 'user') continue;
      const text = turn.content;
      if (text.startsWith('SYSTEM: Your goal:')) {
        const mates = parseTeammates(text) ?? [];
        this.#team = [...new Set([obs.name, ...mates])].sort((a, b) => a.localeCompare(b));
        continue;
      }
      // A teammate who is not a bot (a human player of the task) is left out of the plan.
      const human = /^SYSTEM: !startConversation failed: ([A-Za-z0-9_]+) is not a bot/.exec(text);
      if (human && this.#team) {
        this.#team = this.#team.filter((n) => n !== human[1]);
        continue;
      }
      // A placement the server refused (often: the builder's own body overlaps the cell) is
      // tried again from elsewhere.
      const refused = /^SYSTEM: !placeBlockAt failed: Server refused to place .* at \(?(-?\d+)[, ]+(-?\d+)[, ]+(-?\d+)/.exec(text);
      if (refused) {
        this.#refused.add(`${refused[1]},${refused[2]},${refused[3]}`);
        continue;
      }
      // A hand-over cut short (a teammate's message interrupted it) is made again.
      if (/^SYSTEM: !givePlayer was interrupted/.test(text)) {
        this.#undoGive();
        continue;
      }
      const missed = text.startsWith('SYSTEM: ') ? parseMissedHandOver(text.slice(8)) : undefined;
      if (missed) {
        this.#putRight(obs, missed);
        continue;
      }
      const reminder = /^SYSTEM: ([A-Za-z0-9_]+) has not answered for/.exec(text);
      if (reminder) {
        this.#asked.delete(reminder[1]!);
        this.#planSent.delete(reminder[1]!);
        continue;
      }
      const bounced = /^SYSTEM: ([A-Za-z0-9_]+) wanted to talk; you were busy with [A-Za-z0-9_]+: ([\s\S]*)$/.exec(text);
      // Lines this agent had not read (it was acting) when the teammate moved on: said to it directly.
      const unread = /^SYSTEM: ([A-Za-z0-9_]+) said before ending the conversation: ([\s\S]*)$/.exec(text);
      const line = bounced ?? unread ?? /^([A-Za-z0-9_]+) \(a bot\): ([\s\S]*)$/.exec(text);
      if (!line) continue;
      this.#hear(obs, line[1]!, line[2]!, !bounced);
    }
  }

  #hear(obs: Observation, from: string, text: string, direct: boolean): void {
    const status = parseStatus(text);
    if (status) this.#statuses.set(from, status);
    const team = parseTeam(text);
    // The plan again, after this agent said `Done.`: its word was lost, say it again.
    if (team && this.#plan && !team.go && direct && this.#reportedDone) this.#reportedDone = false;
    if (team && !this.#plan) {
      for (const [name, s] of Object.entries(team.team)) this.#statuses.set(name, s);
      this.#teamText = text;
      // The coordinator's own words of the plan, when it gives them, settle what it saw and
      // this agent may not (a crafting table or a crop out of sight).
      const summary = obs.blueprint ? undefined : parseSummary(text);
      this.#plan = summary ? { kind: 'items', plan: summary } : this.#makePlan(obs);
    }
    if (team?.go) this.#go = true;
    if (isDone(text)) this.#dones.set(from, (this.#dones.get(from) ?? 0) + 1);
    // A hand-over went astray (another agent picked it up): the coordinator asks everyone to
    // make up the shortfall, and each gives what it has.
    const short = parseShort(text);
    if (short && direct && this.#isCoordinator(obs))
      this.#shortfall = { worker: from, items: short.items, target: short.target, asked: new Set() };
    const need = parseNeed(text);
    // A caller's new call replaces its earlier one; calls of different callers queue.
    if (need && direct) this.#needs.splice(0, this.#needs.length, ...this.#needs.filter((n) => n.from !== from), { ...need, from });
    const lying = parseLying(text);
    if (lying && direct) this.#fetch = lying;
    const unsolvable = parseUnsolvable(text);
    if (unsolvable) {
      this.#unsolvableSaid = true;
      this.unsolvable ??= unsolvable;
    }
    // A teammate's question (or its own status) is answered with this agent's status.
    if (direct && !team && !need && !lying && !isDone(text) && !parseUnsolvable(text) && !this.#isCoordinator(obs)) this.#answer = from;
  }

  /**
   * What this giver does about a hand-over its recipient did not pick up: gives again what it
   * picked back up, asks each teammate who picked some up to pass it on (as the coordinator asks
   * for a shortfall), and tells the recipient where the rest lies, for them to walk onto it.
   */
  #putRight(obs: Observation, missed: MissedHandOver): void {
    const { to, item } = missed;
    if (missed.takenBack > 0) this.#relays.push(`!givePlayer("${to}", "${item}", ${missed.takenBack})`);
    for (const [who, n] of Object.entries(missed.takenBy)) {
      if (who !== obs.name && who !== to) this.#relays.push(`!startConversation("${who}", "${formatNeed(to, { [item]: n })}")`);
    }
    if (missed.lying) this.#relays.push(`!startConversation("${to}", "${formatLying(item, missed.lying)}")`);
  }

  #isCoordinator(obs: Observation): boolean {
    return (this.#team?.[0] ?? obs.name) === obs.name;
  }

  #myStatus(obs: Observation): Status {
    const cannot: Limit[] = [];
    if (!obs.canUse('!craftRecipe')) cannot.push('craft');
    if (!obs.canUse('!givePlayer')) cannot.push('give');
    if (!obs.canUse('!collectBlocks')) cannot.push('gather');
    if (obs.blueprint && !obs.canUse('!placeBlockAt')) cannot.push('build');
    return { inventory: { ...obs.inventory }, wants: { ...(obs.targets ?? {}) }, cannot };
  }

  #decide(obs: Observation): string {
    if (!obs.targets && !obs.blueprint) {
      const last = obs.turns.at(-1)?.content ?? '';
      return last.startsWith('SYSTEM') || / \(a bot\): /.test(last)
        ? ''
        : 'I am the offline oracle policy: I play MineCollab tasks and run the commands you type (an exclamation mark, then the command; the help command lists them). Configure a model in my profile to chat.';
    }
    if (!this.#team) this.#team = [obs.name];
    const give = this.#answerNeed(obs);
    if (give !== undefined) return give;
    if (this.#isCoordinator(obs)) return this.#coordinate(obs);
    return this.#follow(obs);
  }

  /**
   * Teammates' calls to give a worker items (`Jill needs ...`), one at a time in the order they
   * came: gives what this agent has toward it, then a teammate says `Done.` to the caller (who
   * waits for it); the coordinator itself goes on with its own work, as nobody waits for its word.
   */
  #answerNeed(obs: Observation): string | undefined {
    const need = this.#needs[0];
    if (!need) return undefined;
    const give = this.#giveToward(obs, need, () => {
      if (!this.#needs.includes(need)) this.#needs.unshift(need);
    });
    if (give) return give;
    this.#needs.shift();
    // A teammate with hand-overs of the plan still to make makes them first; its report of them
    // ("Done. I gave ...") then answers the call too.
    const planGivesLeft = this.#plan !== undefined && this.#given < transfersFrom(this.#plan.plan, obs.name).length;
    if (this.#isCoordinator(obs) || planGivesLeft) return this.#answerNeed(obs);
    // To the caller, even when this agent has since spoken to someone else (it passed on a
    // hand-over that went astray); by a command while more calls wait, so that its turn goes on.
    return this.#say(obs, need.from, 'Done.', this.#needs.length > 0);
  }

  // The coordinator -------------------------------------------------------------------------

  #coordinate(obs: Observation): string {
    const team = this.#team!;
    if (!this.#plan) {
      this.#statuses.set(obs.name, this.#myStatus(obs));
      for (const mate of team) {
        if (this.#statuses.has(mate)) continue;
        if (this.#asked.has(mate) && obs.partner === mate) return '';
        this.#asked.add(mate);
        return `!startConversation("${mate}", "${formatStatus(this.#myStatus(obs))}${sharedRecipe(obs.goal)} What do you have?")`;
      }
      this.#plan = this.#makePlan(obs);
      this.#teamText = formatTeam(false, Object.fromEntries(team.map((n) => [n, this.#statuses.get(n)!])), this.#summary());
    }
    if (this.unsolvable) return this.#sayUnsolvable();
    const give = this.#nextGive(obs);
    if (give) return give;
    for (const mate of team) {
      if (mate === obs.name || this.#dones.has(mate) || !this.#transfers().some((t) => t.from === mate)) continue;
      if (this.#planSent.has(mate) && obs.partner === mate) return '';
      this.#planSent.add(mate);
      return `!startConversation("${mate}", "${this.#teamText}")`;
    }
    // In a construction every teammate hears it: one with no cells may stand in one (it then
    // steps off the site, see #build).
    for (const mate of this.#plan.kind === 'build' ? team : this.#workers()) {
      if (mate === obs.name || this.#goSent.has(mate)) continue;
      this.#goSent.add(mate);
      return `!startConversation("${mate}", "${this.#teamText.replace(/^Plan\./, 'Go.')}")`;
    }
    const makeUp = this.#makeUp(obs);
    if (makeUp !== undefined) return makeUp;
    this.#go = true;
    return this.#work(obs);
  }

  /** Coordinator: gets a short worker's missing items from the team, then tells it to go on. */
  #makeUp(obs: Observation): string | undefined {
    const s = this.#shortfall;
    if (!s) return undefined;
    const give = this.#giveToward(obs, s, () => {
      this.#shortfall ??= s;
    });
    if (give) return give;
    for (const mate of this.#team!) {
      if (mate === obs.name || mate === s.worker || s.asked.has(mate)) continue;
      if (s.asking === mate) {
        if ((this.#dones.get(mate) ?? 0) <= (s.dones ?? 0) && obs.partner === mate) return '';
        s.asked.add(mate);
        continue;
      }
      s.asking = mate;
      // Its answer is its next Done (the plan's Done it said before stays said).
      s.dones = this.#dones.get(mate) ?? 0;
      return `!startConversation("${mate}", "${formatNeed(s.worker, s.items, s.target)}")`;
    }
    this.#shortfall = undefined;
    if (s.worker === obs.name) return undefined;
    return `!startConversation("${s.worker}", "${this.#teamText.replace(/^Plan\./, 'Go.')}")`;
  }

  /**
   * The next `!givePlayer` toward a call to give `call.worker` items, from what this agent can
   * spare ({@link #spare}): the items named; else, outside a construction, what they are made from
   * (a worker short of its banner gets the wool and dye); else what the worker's target is made
   * from (one short of birch planks for its fence's sticks gets oak planks). A named item given
   * comes off `call.items`; ingredients do not, so the next teammate asked gives its part too.
   * Undefined when there is nothing to give toward it, or this agent is the worker or may not give.
   *
   * @param again puts the call back should the hand-over be cut short (see #giveAgain).
   */
  #giveToward(obs: Observation, call: Call, again: () => void): string | undefined {
    if (call.worker === obs.name || !obs.canUse('!givePlayer')) return undefined;
    const spare = this.#spare(obs);
    for (const [item, n] of Object.entries(call.items)) {
      const have = Math.min(spare[item] ?? 0, n);
      if (have <= 0) continue;
      call.items[item] = n - have;
      this.#giveAgain = () => {
        call.items[item] = (call.items[item] ?? 0) + have;
        again();
      };
      return `!givePlayer("${call.worker}", "${item}", ${have})`;
    }
    if (obs.blueprint) return undefined; // blocks are placed, not crafted
    for (const wanted of [call.items, call.target ?? {}]) {
      const known = Object.fromEntries(Object.entries(wanted).filter(([item, n]) => n > 0 && this.#data.itemsByName[item]));
      if (Object.keys(known).length === 0) continue;
      // Down the whole recipe tree (the worker may lack a banner's wool and its dye both); the
      // worker has a table or says so: the ingredients proper.
      const parts = planProduction(this.#data, spare, known, { tableNearby: true }, { expand: 'raw' }).consumed;
      const part = Object.entries(parts).find(([, n]) => n > 0);
      if (!part) continue;
      this.#giveAgain = again;
      return `!givePlayer("${call.worker}", "${part[0]}", ${part[1]})`;
    }
    return undefined;
  }

  /** This agent's items less what its own jobs take (the targets it holds and their ingredients) and its plan's hand-overs still to make. */
  #spare(obs: Observation): Counts {
    const kept: Counts = {};
    const targets = this.#jobTargets(obs.name);
    if (Object.keys(targets).length > 0) {
      const sources = sourcesFrom(this.#data, { blocks: obs.blocks, mobs: obs.mobs, inventory: obs.inventory, supplies: COOKING_SUPPLIES });
      Object.assign(kept, planProduction(this.#data, obs.inventory, targets, sources).consumed);
    }
    for (const t of this.#plan ? transfersFrom(this.#plan.plan, obs.name).slice(this.#given) : [])
      kept[t.item] = (kept[t.item] ?? 0) + t.count;
    const spare: Counts = {};
    for (const [item, n] of Object.entries(obs.inventory)) if (n - (kept[item] ?? 0) > 0) spare[item] = n - (kept[item] ?? 0);
    return spare;
  }

  /** The items the plan's jobs give `name` to make (item → count); none outside a team making items. */
  #jobTargets(name: string): Counts {
    const targets: Counts = {};
    if (this.#plan?.kind !== 'items') return targets;
    for (const j of this.#plan.plan.jobs) if (j.worker === name) targets[j.target] = (targets[j.target] ?? 0) + j.count;
    return targets;
  }

  /**
   * `text` to `to`: a plain reply when `to` is the partner of the conversation (ending the turn),
   * else, or when the turn must go on (`goOn`), a `!startConversation` with them.
   */
  #say(obs: Observation, to: string, text: string, goOn = false): string {
    return obs.partner === to && !goOn ? text : `!startConversation("${to}", "${text}")`;
  }

  // A teammate ------------------------------------------------------------------------------

  #follow(obs: Observation): string {
    if (this.#plan) {
      if (this.unsolvable) return '';
      const give = this.#nextGive(obs);
      if (give) return give;
      if (!this.#reportedDone && this.#transfers().some((t) => t.from === obs.name)) {
        this.#reportedDone = true;
        const mine = this.#transfers()
          .filter((t) => t.from === obs.name)
          .map((t) => `${t.count} ${t.item} to ${t.to}`);
        // To the coordinator, who waits for it, even when this agent last spoke to someone else
        // (a hand-over put right).
        const coordinator = this.#team![0]!;
        const done = `Done. I gave ${mine.join(', ')}.`;
        return this.#say(obs, coordinator, done);
      }
      if (this.#go) return this.#work(obs);
      return '';
    }
    if (this.#answer) {
      this.#answer = undefined;
      return `${formatStatus(this.#myStatus(obs))}${sharedRecipe(obs.goal)}`;
    }
    return '';
  }

  // Plans -----------------------------------------------------------------------------------

  #makePlan(obs: Observation): Plan {
    const team = this.#team ?? [obs.name];
    const members = team.map((name) => {
      const s = this.#statuses.get(name) ?? { inventory: {}, wants: {}, cannot: [] };
      return {
        name,
        inventory: s.inventory,
        canCraft: !s.cannot.includes('craft'),
        canGive: !s.cannot.includes('give'),
        canGather: !s.cannot.includes('gather'),
        canBuild: !s.cannot.includes('build'),
      };
    });
    if (obs.blueprint) {
      const plan = planConstruction(obs.blueprint, members);
      if (plan.unsolvable) this.unsolvable = plan.unsolvable;
      return { kind: 'build', plan };
    }
    // Everyone wants the same: one worker for all. Otherwise (Hell's Kitchen) each makes its own.
    const wants = team.map((n) => this.#statuses.get(n)?.wants ?? {});
    const same = wants.every((w) => JSON.stringify(sorted(w)) === JSON.stringify(sorted(wants[0]!)));
    // A task that names who must end up with the items (MINDcraft's cooking collector) fixes the worker.
    const collector = obs.goal ? parseCollector(obs.goal, obs.name) : undefined;
    const able = members.find((m) => m.name === collector && m.canCraft && m.canGather);
    const jobs: Job[] = same
      ? Object.entries(wants[0] ?? {}).map(([target, count]) => ({ target, count, ...(able ? { worker: able.name } : {}) }))
      : team.flatMap((name, i) => Object.entries(wants[i]!).map(([target, count]) => ({ target, count, worker: name })));
    const sources = sourcesFrom(this.#data, { blocks: obs.blocks, mobs: obs.mobs, inventory: {}, supplies: COOKING_SUPPLIES });
    const plan = planTeam(this.#data, members, jobs, sources);
    if (plan.unsolvable) this.unsolvable = plan.unsolvable;
    return { kind: 'items', plan };
  }

  #transfers() {
    return this.#plan?.plan.transfers ?? [];
  }

  #workers(): string[] {
    const plan = this.#plan;
    if (!plan) return [];
    if (plan.kind === 'items') return [...new Set(plan.plan.jobs.map((j) => j.worker))].sort((a, b) => a.localeCompare(b));
    return [...new Set(plan.plan.owner.values())].sort((a, b) => a.localeCompare(b));
  }

  #summary(): string {
    const plan = this.#plan;
    if (!plan) return '';
    const gives = plan.plan.transfers.map((t) => `${t.from} gives ${t.to} ${t.count} ${t.item}`);
    if (plan.kind === 'build') {
      const counts = new Map<string, number>();
      for (const who of plan.plan.owner.values()) counts.set(who, (counts.get(who) ?? 0) + 1);
      return [...[...counts].map(([who, n]) => `${who} places ${n} blocks`), ...gives].join(', ');
    }
    const jobs = plan.plan.jobs.map((j) => `${j.worker} makes ${j.count} ${j.target}`);
    return [...jobs, ...gives].join(', ');
  }

  #sayUnsolvable(): string {
    if (this.#unsolvableSaid) return '';
    this.#unsolvableSaid = true;
    return formatUnsolvable(this.unsolvable!);
  }

  /** The next `!givePlayer` of this agent's hand-overs, if any is left. */
  #nextGive(obs: Observation): string | undefined {
    const mine = transfersFrom(this.#plan!.plan, obs.name);
    while (this.#given < mine.length) {
      const index = this.#given++;
      const t = mine[index]!;
      const have = obs.inventory[t.item] ?? 0;
      if (have === 0) continue;
      this.#giveAgain = () => {
        this.#given = Math.min(this.#given, index);
      };
      return `!givePlayer("${t.to}", "${t.item}", ${Math.min(have, t.count)})`;
    }
    return undefined;
  }

  // Work ------------------------------------------------------------------------------------

  #work(obs: Observation): string {
    const plan = this.#plan;
    if (!plan) return '';
    if (plan.kind === 'build') return this.#build(obs, plan.plan);
    const targets = this.#jobTargets(obs.name);
    if (Object.keys(targets).length === 0) return '';
    // A crop harvested by the last command is sown back, once, with the seeds the work left
    // does not use.
    const harvest = this.#harvest;
    this.#harvest = undefined;
    const left: Counts = {};
    for (const [item, n] of Object.entries(targets)) if ((obs.inventory[item] ?? 0) < n) left[item] = n - (obs.inventory[item] ?? 0);
    if (Object.keys(left).length === 0) {
      const sowing = harvest && this.#sowBack(obs, harvest, (obs.inventory[harvest.seed] ?? 0) - (targets[harvest.seed] ?? 0));
      if (sowing) return sowing;
      if (this.#finishedSaid) return '';
      this.#finishedSaid = true;
      return `I have ${formatCounts(targets)}.`;
    }
    // Keep the targets already held out of the ingredients.
    const stock = { ...obs.inventory };
    for (const [item, n] of Object.entries(targets)) stock[item] = Math.max(0, (stock[item] ?? 0) - n);
    const sources = sourcesFrom(this.#data, { blocks: obs.blocks, mobs: obs.mobs, inventory: obs.inventory, supplies: COOKING_SUPPLIES });
    const next = planProduction(this.#data, stock, left, sources);
    const sowing = harvest && this.#sowBack(obs, harvest, (stock[harvest.seed] ?? 0) - (next.consumed[harvest.seed] ?? 0));
    if (sowing) return sowing;
    let lacking = next.missing;
    if (
      Object.keys(lacking).length > 0 &&
      next.steps.some((s) => s.kind === 'craft' && s.item === 'crafting_table') &&
      !left.crafting_table
    ) {
      // Short, and a table would be made too: it asks for the table itself (a teammate holds one;
      // one that holds planks gives those instead).
      lacking = { ...planProduction(this.#data, stock, left, { ...sources, tableNearby: true }).missing, crafting_table: 1 };
    }
    const missing = formatCounts(lacking);
    if (missing) {
      // Away from where the task began (a hunt led the bot off): the furnaces, crops and
      // teammates may be out of sight, so go back and look again before asking anyone.
      const home = this.#home;
      const p = obs.position;
      if (home && p && Math.hypot(p.x - home.x, p.z - home.z) > HOME_RADIUS) return `!goToCoordinates(${home.x}, ${home.y}, ${home.z}, 2)`;
      const said = `${missing}|${JSON.stringify(obs.inventory)}`;
      // Said already and nothing changed: the worker waits and looks again (crops regrow, mobs
      // wander back, a path not found in time may be found now, a hand-over passed on by a
      // teammate arrives without a word) a few times. A coordinator gets here once the team has
      // answered its call, so no answer waits behind the waits.
      if (this.#shortSaid === said) return ++this.#shortWaits <= SHORT_WAITS ? WAIT : '';
      this.#shortSaid = said;
      this.#shortWaits = 0;
      if (this.#isCoordinator(obs) && (this.#team?.length ?? 1) > 1) {
        // The coordinator asks the team itself.
        this.#shortfall = { worker: obs.name, items: { ...lacking }, target: left, asked: new Set() };
        return this.#makeUp(obs) ?? '';
      }
      return formatShort(lacking, left);
    }
    const step = pickStep(this.#data, next.steps, obs.inventory);
    if (!step) return '';
    const command = stepCommand(step);
    this.#harvest = this.#harvestOf(command, obs);
    return command;
  }

  /** The crop `command` harvests (`!collectBlocks("wheat", 3)`: 3 cells of wheat), if it is a harvest. */
  #harvestOf(command: string, obs: Observation): Harvest | undefined {
    const m = /^!collectBlocks\("([a-z0-9_]+)", (\d+)\)$/.exec(command);
    const crop = m && cropOf(this.#data, m[1]!);
    return crop ? { seed: crop.seed, cells: Number(m[2]), held: obs.inventory[crop.seed] ?? 0 } : undefined;
  }

  /**
   * `!sow` for the cells `harvest` emptied: one command, at most one seed per cell, only `spare`
   * seeds (those the rest of the work does not use), and only when the harvest brought seeds (a
   * harvest that failed emptied no cell). Undefined when there is nothing to sow or `!sow` is
   * blocked; a sowing that fails is not tried again.
   */
  #sowBack(obs: Observation, harvest: Harvest, spare: number): string | undefined {
    if (!obs.canUse('!sow') || (obs.inventory[harvest.seed] ?? 0) <= harvest.held) return undefined;
    const n = Math.min(harvest.cells, spare);
    return n > 0 ? `!sow("${harvest.seed}", ${n})` : undefined;
  }

  #build(obs: Observation, plan: BuildPlan): string {
    // Nothing to place: out of the builders' way, and done.
    if (![...plan.owner.values()].includes(obs.name)) return this.#offSite(obs) ?? '';
    const levels = [...obs.blueprint!.levels].map((l) => l.level).sort((a, b) => a - b);
    if (this.#level === undefined && !this.#finishedSaid) this.#level = levels[0];
    if (this.#level === undefined) return '';
    // The newest level check among the turns, read once.
    const check = [...obs.turns].reverse().find((t) => t.role === 'user' && /^SYSTEM: Level -?\d+ (is complete|needs)/.test(t.content));
    if (check && !this.#seenCheck.has(check)) {
      this.#seenCheck.add(check);
      const lines = check.content.split('\n');
      const levelNum = Number(/Level (-?\d+)/.exec(lines[0]!)![1]);
      if (/is complete/.test(lines[0]!)) {
        if (levelNum === this.#level) {
          this.#waits = 0;
          const higher = levels.filter((l) => l > levelNum);
          this.#level = higher[0];
          if (this.#level === undefined) {
            this.#finishedSaid = true;
            return 'My part of the blueprint is built.';
          }
        }
      } else {
        const builders = [...new Set(plan.owner.values())].sort((a, b) => a.localeCompare(b));
        const ownerOf = (p: { x: number; y: number; z: number }) =>
          plan.owner.get(cellKey(p)) ?? builders[Math.abs(p.x + p.z) % builders.length];
        // A cell that keeps failing (someone stands in it, nothing to place against) is left
        // for later passes, and given up after a few.
        // A block this builder does not hold is not tried (it waits off the site for it, or a
        // teammate with blocks to spare takes the cell over).
        const held = (c: string) => {
          const m = /^!placeBlockAt\("([a-z0-9_]+)"/.exec(c);
          return !m || (obs.inventory[m[1]!] ?? 0) > 0;
        };
        const commands = (owner: typeof ownerOf) =>
          lines
            .slice(1)
            .flatMap((line) => cellCommands(line, owner, obs.name))
            .filter((c) => (this.#attempts.get(c) ?? 0) < MAX_CELL_ATTEMPTS && held(c))
            .flatMap((c) => {
              const at = /(-?\d+), (-?\d+), (-?\d+)\)$/.exec(c);
              const key = at ? `${at[1]},${at[2]},${at[3]}` : '';
              if (!this.#refused.delete(key)) return [c];
              return ['!moveAway(2)', c];
            });
        this.#queue = commands(ownerOf);
        // Its own cells done, a builder that has waited a while on a teammate's takes them over
        // (their owner may be stuck, or out of the block) with the blocks its own cells of the
        // levels above do not need: whoever places first, the level check drops the cell for the
        // other.
        if (this.#queue.length === 0 && this.#waits >= TAKEOVER_WAITS) {
          const spare = { ...obs.inventory };
          for (const c of blueprintCells(obs.blueprint!)) {
            if (c.level > levelNum && plan.owner.get(cellKey(c)) === obs.name) spare[c.block] = (spare[c.block] ?? 0) - 1;
          }
          const toPlace = new Map<string, string>(
            lines.slice(1).flatMap((l) => {
              const m = /^Place ([a-z0-9_]+) at \((-?\d+), (-?\d+), (-?\d+)\)/.exec(l);
              return m ? [[`${m[2]},${m[3]},${m[4]}`, m[1]!] as const] : [];
            }),
          );
          const mine = (p: { x: number; y: number; z: number }) => {
            const block = toPlace.get(cellKey(p));
            if (!block || (spare[block] ?? 0) <= 0) return ownerOf(p);
            spare[block]! -= 1;
            return obs.name;
          };
          this.#queue = commands(mine);
        }
        if (this.#queue.length === 0) {
          if (++this.#waits > MAX_WAITS) return '';
          // Cells given up on get another chance now and then (a teammate may have moved away).
          if (this.#waits % 5 === 0) this.#attempts.clear();
          return this.#offSite(obs) ?? '!stay(2)';
        }
      }
    }
    const next = this.#queue.shift();
    if (next) {
      this.#attempts.set(next, (this.#attempts.get(next) ?? 0) + 1);
      return next;
    }
    return `!checkBlueprintLevel(${this.#level})`;
  }

  /**
   * The walk off the building site while this agent waits there: a player standing in a cell
   * blocks it, also one whose feet are just outside the site's cells (a player is 0.6 blocks
   * wide). Each teammate waits on its own spot, west of the site; undefined when this agent is
   * off the site already or has just walked (a walk that fell short is not tried again at once).
   */
  #offSite(obs: Observation): string | undefined {
    const box = blueprintBox(obs.blueprint!);
    const p = obs.position;
    const onSite = p && p.x > box.min.x - 1 && p.x < box.max.x + 2 && p.z > box.min.z - 1 && p.z < box.max.z + 2;
    if (!onSite || (this.#offSiteWalk && this.#lastCommand === this.#offSiteWalk)) return undefined;
    const k = Math.max(0, this.#team?.indexOf(obs.name) ?? 0);
    this.#offSiteWalk = `!goToCoordinates(${box.min.x - 3}, ${box.min.y}, ${box.min.z + k * 2}, 1)`;
    return this.#offSiteWalk;
  }

  readonly #seenCheck = new WeakSet<object>();
  readonly #attempts = new Map<string, number>();
  /** Coordinator: a worker's shortfall being made up. */
  #shortfall: (Call & { asked: Set<string>; asking?: string; dones?: number }) | undefined;
  /** Teammates' calls to give a short worker items, oldest first (see #answerNeed). */
  readonly #needs: (Call & { from: string })[] = [];
  /** The last shortfall this worker reported (items and inventory). */
  #shortSaid = '';
  /** Waits since this worker last said its shortfall (at most {@link SHORT_WAITS}). */
  #shortWaits = 0;
  readonly #refused = new Set<string>();
  /** The last walk off the building site (see #offSite). */
  #offSiteWalk = '';
  /** The crop harvest this agent's last work command started, until the sowing after it is decided. */
  #harvest: Harvest | undefined;
  /** Replies that put right this agent's hand-overs that went astray, oldest first. */
  readonly #relays: string[] = [];
  /** How to make this agent's last hand-over again, should it be cut short (see #read). */
  #giveAgain: (() => void) | undefined;
  /** Where a teammate's hand-over to this agent lies: walk onto it. */
  #fetch: Spot | undefined;
}

/** A call to give a short worker items: what it lacks and, when it said, what they are for. */
interface Call {
  worker: string;
  items: Counts;
  target?: Counts | undefined;
}

/** A crop harvest: the seed item of the crop, how many cells it empties, the seeds held before. */
interface Harvest {
  seed: string;
  cells: number;
  held: number;
}

/**
 * The step to take now: `!craftRecipe` lets the game pick among an item's recipes, so a craft
 * whose item could also be made from another ingredient held (sticks from the cherry planks meant
 * for the fence) waits while another step can go first, and a step that would create such a
 * choice for a later one goes last.
 */
export function pickStep(data: GameData, steps: readonly ProductionStep[], inventory: Counts): ProductionStep | undefined {
  const ready = (s: ProductionStep, inv: Counts) =>
    s.kind !== 'craft' || Object.entries(s.ingredients).every(([i, n]) => (inv[i] ?? 0) >= Math.min(n, 1));
  const ambiguous = (s: ProductionStep, inv: Counts) =>
    s.kind === 'craft' &&
    usableRecipes(data, data.itemsByName[s.item]!.id).some((r) => {
      const ings = [...recipeIngredients(r)].map(([id, n]) => [data.items[id]!.name, n] as const);
      return ings.some(([i]) => !(i in s.ingredients)) && ings.every(([i, n]) => (inv[i] ?? 0) >= n);
    });
  const after = (s: ProductionStep): Counts => {
    if (s.kind !== 'craft') return inventory;
    const inv = { ...inventory };
    for (const [i, n] of Object.entries(s.ingredients)) inv[i] = (inv[i] ?? 0) - n;
    inv[s.item] = (inv[s.item] ?? 0) + s.count;
    return inv;
  };
  const candidates = steps.filter((s) => ready(s, inventory));
  const safe = candidates.filter((s) => !ambiguous(s, inventory));
  const calm = safe.filter((s) => !steps.some((o) => o !== s && ambiguous(o, after(s))));
  return calm[0] ?? safe[0] ?? steps[0];
}

/**
 * Hell's Kitchen: the partner's recipe this agent's goal holds (`You have their recipe: ...`), as
 * one sentence to pass on with its status; '' for other tasks. (The policy itself plans from
 * minecraft-data; the recipe is shared as the task asks.) Quotes and `!` are dropped.
 */
export function sharedRecipe(goal: string | undefined): string {
  const m = /You have their recipe:\s*([\s\S]*?)(?:\n\s*\n|$)/.exec(goal ?? '');
  if (!m) return '';
  const text = m[1]!
    .replace(/["'!\[\]]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? ` Your recipe: ${text}` : '';
}

function sorted(c: Counts): [string, number][] {
  return Object.entries(c).sort(([a], [b]) => a.localeCompare(b));
}

/** The command of one production step. */
export function stepCommand(step: ProductionStep): string {
  // !craftRecipe's count is crafts, as in the reference (4 crafts of oak_planks make 16).
  if (step.kind === 'craft') return commandCall({ skill: 'craftRecipe', args: { recipe_name: step.item, num: step.times } });
  if (step.kind === 'smelt') return commandCall({ skill: 'smeltItem', args: { item_name: step.input, num: step.count } });
  return commandCall(step.source.call(step.count));
}

/**
 * The commands for one line of a level check (`Place X at (x, y, z)`, `Remove the Y at ...`,
 * `Replace the Y at ... with X`) when the cell is `me`'s, else none.
 */
export function cellCommands(line: string, ownerOf: (p: { x: number; y: number; z: number }) => string | undefined, me: string): string[] {
  const pos = /\((-?\d+), (-?\d+), (-?\d+)\)/.exec(line);
  if (!pos) return [];
  const p = { x: Number(pos[1]), y: Number(pos[2]), z: Number(pos[3]) };
  if (ownerOf(p) !== me) return [];
  const place = /^Place ([a-z0-9_]+) at/.exec(line);
  if (place) return [`!placeBlockAt("${place[1]}", ${p.x}, ${p.y}, ${p.z})`];
  if (/^Remove the /.test(line)) return [`!digAt(${p.x}, ${p.y}, ${p.z})`];
  const replace = / with ([a-z0-9_]+)$/.exec(line);
  if (replace) return [`!digAt(${p.x}, ${p.y}, ${p.z})`, `!placeBlockAt("${replace[1]}", ${p.x}, ${p.y}, ${p.z})`];
  return [];
}
