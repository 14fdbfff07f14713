/**
 * The policy's team play, through pairwise conversations only (as an LLM team would):
 * 1. The coordinator, the first teammate by name, asks each teammate in turn for its status
 *    (`My items: ...`, see `./protocol.ts`); a teammate answers any message with its status.
 * 2. Knowing everyone, the coordinator sends the team's statuses (`Plan. Team: ...`) to each agent
 *    that hands items over; each computes the same plan from them (`./team-plan.ts` for items,
 *    `./construction-plan.ts` for a blueprint), makes its hand-overs and answers `Done.`
 * 3. Then it tells each worker `Go. Team: ...`; workers do their work (`./work.ts`, `./build.ts`).
 * 4. A worker short of items says so; the coordinator calls on the team to give toward it.
 * 5. An unsolvable task is said once, with the reason.
 */
import type { GameData } from '../game/data.ts';
import { type Counts, planProduction } from '../game/production.ts';
import { planConstruction } from './construction-plan.ts';
import type { Call, OracleMemory, Plan } from './memory.ts';
import type { Observation } from './observation.ts';
import { formatGave, formatNeed, formatStatus, formatTeam, formatUnsolvable, type Limit, type Status } from './protocol.ts';
import { type Job, planTeam, transfersFrom, withHelpers } from './team-plan.ts';
import { worldSources } from './sources.ts';

/** What the team roles need besides the memory: the game's data and this agent's own work. */
export interface TeamContext {
  data: GameData;
  /** This agent's work once the go-ahead came (`./work.ts`, `./build.ts`). */
  work(obs: Observation): string;
}

/** This agent's status as the protocol words it. */
export function myStatus(obs: Observation): Status {
  const cannot: Limit[] = [];
  if (!obs.canUse('!craftRecipe')) cannot.push('craft');
  if (!obs.canUse('!givePlayer')) cannot.push('give');
  if (!obs.canUse('!collectBlocks')) cannot.push('gather');
  if (obs.blueprint && !obs.canUse('!placeBlockAt')) cannot.push('build');
  return { inventory: { ...obs.inventory }, wants: { ...(obs.targets ?? {}) }, cannot };
}

/**
 * Hell's Kitchen: the partner's recipe this agent holds, as one sentence to pass on with its
 * status; '' for other tasks. (The policy itself plans from minecraft-data; the recipe is shared
 * as the task asks.)
 */
export function sharedRecipe(obs: Observation): string {
  const recipe = obs.task?.partnerRecipe;
  return recipe ? ` Your recipe: ${recipe}` : '';
}

/** The next decision of a team member: answer a call, coordinate, or follow the plan. */
export function teamDecision(m: OracleMemory, obs: Observation, ctx: TeamContext): string {
  const give = answerNeed(m, obs, ctx);
  if (give !== undefined) return give;
  return m.isCoordinator(obs.name) ? coordinate(m, obs, ctx) : follow(m, obs, ctx);
}

/**
 * Teammates' calls to give a worker items (`Jill needs ...`), one at a time in the order they
 * came: gives what this agent has toward it, then a teammate says `Done.` to the caller (who
 * waits for it); the coordinator itself goes on with its own work, as nobody waits for its word.
 */
function answerNeed(m: OracleMemory, obs: Observation, ctx: TeamContext): string | undefined {
  const need = m.needs[0];
  if (!need) return undefined;
  const give = giveToward(m, obs, ctx, need, () => {
    if (!m.needs.includes(need)) m.needs.unshift(need);
  });
  if (give) return give;
  m.needs.shift();
  // A teammate with hand-overs of the plan still to make makes them first; its report of them
  // ("Done. I gave ...") then answers the call too.
  const planGivesLeft = m.plan !== undefined && m.given < transfersFrom(m.plan.plan, obs.name).length;
  if (m.isCoordinator(obs.name) || planGivesLeft) return answerNeed(m, obs, ctx);
  // To the caller, even when this agent has since spoken to someone else (it passed on a
  // hand-over that went astray); by a command while more calls wait, so that its turn goes on.
  return say(obs, need.from, 'Done.', m.needs.length > 0);
}

function coordinate(m: OracleMemory, obs: Observation, ctx: TeamContext): string {
  const team = m.team!;
  if (!m.plan) {
    m.statuses.set(obs.name, myStatus(obs));
    for (const mate of team) {
      if (m.statuses.has(mate)) continue;
      if (m.asked.has(mate) && obs.partner === mate) return '';
      m.asked.add(mate);
      return `!startConversation("${mate}", "${formatStatus(myStatus(obs))}${sharedRecipe(obs)} What do you have?")`;
    }
    m.plan = makePlan(m, obs, ctx.data);
    const statuses = Object.fromEntries(team.map((n) => [n, m.statuses.get(n)!]));
    m.teamText = formatTeam(false, statuses, m.summary());
    m.goText = formatTeam(true, statuses, m.summary());
  }
  if (m.unsolvable) return sayUnsolvable(m);
  const give = nextGive(m, obs);
  if (give) return give;
  for (const mate of team) {
    if (mate === obs.name || m.dones.has(mate) || !m.transfers().some((t) => t.from === mate)) continue;
    if (m.planSent.has(mate) && obs.partner === mate) return '';
    m.planSent.add(mate);
    return `!startConversation("${mate}", "${m.teamText}")`;
  }
  // In a construction every teammate hears it: one with no cells may stand in one (it then
  // steps off the site, see ./build.ts).
  for (const mate of m.plan.kind === 'build' ? team : m.workers()) {
    if (mate === obs.name || m.goSent.has(mate)) continue;
    m.goSent.add(mate);
    return `!startConversation("${mate}", "${m.goText}")`;
  }
  const madeUp = makeUp(m, obs, ctx);
  if (madeUp !== undefined) return madeUp;
  m.go = true;
  return ctx.work(obs);
}

/** Coordinator: gets a short worker's missing items from the team, then tells it to go on. */
export function makeUp(m: OracleMemory, obs: Observation, ctx: TeamContext): string | undefined {
  const s = m.shortfall;
  if (!s) return undefined;
  const give = giveToward(m, obs, ctx, s, () => {
    m.shortfall ??= s;
  });
  if (give) return give;
  for (const mate of m.team!) {
    if (mate === obs.name || mate === s.worker || s.asked.has(mate)) continue;
    if (s.asking === mate) {
      if ((m.dones.get(mate) ?? 0) <= (s.dones ?? 0) && obs.partner === mate) return '';
      s.asked.add(mate);
      continue;
    }
    s.asking = mate;
    // Its answer is its next Done (the plan's Done it said before stays said).
    s.dones = m.dones.get(mate) ?? 0;
    return `!startConversation("${mate}", "${formatNeed(s.worker, s.items, s.target)}")`;
  }
  m.shortfall = undefined;
  if (s.worker === obs.name) return undefined;
  return `!startConversation("${s.worker}", "${m.goText}")`;
}

/**
 * The next `!givePlayer` toward a call to give `call.worker` items, from what this agent can
 * spare ({@link spare}): the items named; else, outside a construction, what they are made from
 * (a worker short of its banner gets the wool and dye); else what the worker's target is made
 * from (one short of birch planks for its fence's sticks gets oak planks). A named item given
 * comes off `call.items`; ingredients do not, so the next teammate asked gives its part too.
 * Undefined when there is nothing to give toward it, or this agent is the worker or may not give.
 *
 * @param again puts the call back should the hand-over be cut short (see `OracleMemory.giveAgain`).
 */
function giveToward(m: OracleMemory, obs: Observation, ctx: TeamContext, call: Call, again: () => void): string | undefined {
  if (call.worker === obs.name || !obs.canUse('!givePlayer')) return undefined;
  const left = spare(m, obs, ctx.data);
  for (const [item, n] of Object.entries(call.items)) {
    const have = Math.min(left[item] ?? 0, n);
    if (have <= 0) continue;
    call.items[item] = n - have;
    m.giveAgain = () => {
      call.items[item] = (call.items[item] ?? 0) + have;
      again();
    };
    return `!givePlayer("${call.worker}", "${item}", ${have})`;
  }
  if (obs.blueprint) return undefined; // blocks are placed, not crafted
  for (const wanted of [call.items, call.target ?? {}]) {
    const known = Object.fromEntries(Object.entries(wanted).filter(([item, n]) => n > 0 && ctx.data.itemsByName[item]));
    if (Object.keys(known).length === 0) continue;
    // Down the whole recipe tree (the worker may lack a banner's wool and its dye both); the
    // worker has a table or says so: the ingredients proper.
    const parts = planProduction(ctx.data, left, known, { tableNearby: true }, { expand: 'raw' }).consumed;
    const part = Object.entries(parts).find(([, n]) => n > 0);
    if (!part) continue;
    m.giveAgain = again;
    return `!givePlayer("${call.worker}", "${part[0]}", ${part[1]})`;
  }
  return undefined;
}

/**
 * This agent's items less what its own jobs take (the targets it holds and their ingredients) and
 * its plan's hand-overs still to make. A helper's share is made to be given: it is not kept.
 */
function spare(m: OracleMemory, obs: Observation, data: GameData): Counts {
  const kept: Counts = {};
  const targets = m.jobTargets(obs.name, false);
  if (Object.keys(targets).length > 0) {
    Object.assign(kept, planProduction(data, obs.inventory, targets, worldSources(m, obs, data)).consumed);
  }
  for (const t of m.plan ? transfersFrom(m.plan.plan, obs.name).slice(m.given) : []) kept[t.item] = (kept[t.item] ?? 0) + t.count;
  const out: Counts = {};
  for (const [item, n] of Object.entries(obs.inventory)) if (n - (kept[item] ?? 0) > 0) out[item] = n - (kept[item] ?? 0);
  return out;
}

/**
 * `text` to `to`: a plain reply when `to` is the partner of the conversation (ending the turn),
 * else, or when the turn must go on (`goOn`), a `!startConversation` with them.
 */
function say(obs: Observation, to: string, text: string, goOn = false): string {
  return obs.partner === to && !goOn ? text : `!startConversation("${to}", "${text}")`;
}

/** A teammate: answers with its status until the plan comes, makes its hand-overs, says Done, then works once told to go. */
function follow(m: OracleMemory, obs: Observation, ctx: TeamContext): string {
  if (m.plan) {
    if (m.unsolvable) return '';
    const give = nextGive(m, obs);
    if (give) return give;
    if (!m.reportedDone && m.transfers().some((t) => t.from === obs.name)) {
      m.reportedDone = true;
      const mine = m.transfers().filter((t) => t.from === obs.name);
      // To the coordinator, who waits for it, even when this agent last spoke to someone else
      // (a hand-over put right).
      return say(obs, m.team![0]!, formatGave(mine));
    }
    if (m.go) return ctx.work(obs);
    return '';
  }
  if (m.answer) {
    m.answer = undefined;
    return `${formatStatus(myStatus(obs))}${sharedRecipe(obs)}`;
  }
  return '';
}

/** The team's plan from the statuses known: a construction split, or who makes which items. */
export function makePlan(m: OracleMemory, obs: Observation, data: GameData): Plan {
  const team = m.team ?? [obs.name];
  const members = team.map((name) => {
    const s = m.statuses.get(name) ?? { inventory: {}, wants: {}, cannot: [] };
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
    if (plan.unsolvable) m.unsolvable = plan.unsolvable;
    return { kind: 'build', plan };
  }
  // Everyone wants the same: one worker for all. Otherwise (Hell's Kitchen) each makes its own.
  const wants = team.map((n) => m.statuses.get(n)?.wants ?? {});
  const same = wants.every((w) => JSON.stringify(sorted(w)) === JSON.stringify(sorted(wants[0]!)));
  // A task that names who must end up with the items (MINDcraft's cooking collector) fixes the worker.
  const collector = obs.task?.collector;
  const able = members.find((p) => p.name === collector && p.canCraft && p.canGather);
  const jobs: Job[] = same
    ? Object.entries(wants[0] ?? {}).map(([target, count]) => ({ target, count, ...(able ? { worker: able.name } : {}) }))
    : team.flatMap((name, i) => Object.entries(wants[i]!).map(([target, count]) => ({ target, count, worker: name })));
  const sources = worldSources(m, obs, data, {});
  const plan = withHelpers(data, members, planTeam(data, members, jobs, sources), sources);
  if (plan.unsolvable) m.unsolvable = plan.unsolvable;
  return { kind: 'items', plan };
}

function sayUnsolvable(m: OracleMemory): string {
  if (m.unsolvableSaid) return '';
  m.unsolvableSaid = true;
  return formatUnsolvable(m.unsolvable!);
}

/** The next `!givePlayer` of this agent's hand-overs, if any is left. */
function nextGive(m: OracleMemory, obs: Observation): string | undefined {
  const mine = transfersFrom(m.plan!.plan, obs.name);
  while (m.given < mine.length) {
    const index = m.given++;
    const t = mine[index]!;
    const have = obs.inventory[t.item] ?? 0;
    if (have === 0) continue;
    m.giveAgain = () => {
      m.given = Math.min(m.given, index);
    };
    return `!givePlayer("${t.to}", "${t.item}", ${Math.min(have, t.count)})`;
  }
  return undefined;
}

function sorted(c: Counts): [string, number][] {
  return Object.entries(c).sort(([a], [b]) => a.localeCompare(b));
}
