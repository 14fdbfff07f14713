/**
 * The policy's eyes: reads what happened since its last decision, as data, into its memory. A
 * teammate's words are read with the team protocol (`./protocol.ts`, the policy's own language);
 * everything the game and the agent report (command outcomes, conversation notices) is read by
 * code and data, never by its wording.
 */
import type { JournalEntry } from '../commands/journal.ts';
import type { CommandOutcome, HandOver } from '../skills/outcome.ts';
import type { OracleMemory } from './memory.ts';
import type { Observation } from './observation.ts';
import {
  formatLying,
  formatNeed,
  isDone,
  parseGave,
  parseLying,
  parseNeed,
  parseShort,
  parseStatus,
  parseSummary,
  parseTeam,
  parseUnsolvable,
} from './protocol.ts';
import type { Plan } from './memory.ts';

/** How a fresh plan is made from the statuses known (see `./team.ts`). */
export type PlanMaker = (obs: Observation) => Plan;

/** Reads `obs` (its state and its new records) into `m`. */
export function observe(m: OracleMemory, obs: Observation, makePlan: PlanMaker): void {
  m.team ??= [...new Set([obs.name, ...(obs.task?.teammates ?? [])])].sort((a, b) => a.localeCompare(b));
  m.home ??= obs.position && { x: Math.floor(obs.position.x), y: Math.floor(obs.position.y), z: Math.floor(obs.position.z) };
  m.goHome = undefined;
  for (const record of obs.records) read(m, obs, record, makePlan);
  // Too far from the furnaces or the chests (a hunt led the bot away): the last thing it learnt.
  const last = [...obs.records].reverse().find((r) => r.kind === 'outcome' || r.kind === 'message');
  m.goHome = last?.kind === 'outcome' ? missingStation(last.outcome) : undefined;
}

/** The blocks `!smeltItem` smelts in. */
const SMELTERS = ['furnace', 'smoker', 'blast_furnace'];

/** Where the agent stands, across (what `m.gone` keeps a block or mob gone around), if known. */
const across = (obs: Observation): { x: number; z: number } | undefined => obs.position && { x: obs.position.x, z: obs.position.z };

/**
 * What a command found none of within its range: a furnace (`!smeltItem`) or a chest
 * (`!takeFromChest`, `!putInChest`, `!viewChest`: `data.sought` a container). Those stand where the
 * task began.
 */
function missingStation(o: CommandOutcome): 'furnace' | 'container' | undefined {
  if (o.code !== 'not_found') return undefined;
  if (o.command === '!smeltItem') return 'furnace';
  return o.data?.sought?.kind === 'container' ? 'container' : undefined;
}

function read(m: OracleMemory, obs: Observation, record: JournalEntry, makePlan: PlanMaker): void {
  switch (record.kind) {
    case 'message': {
      const { message } = record;
      if (message.channel !== 'bot') return;
      for (const line of message.lines ?? [message.text]) hear(m, obs, message.from, line, true, makePlan);
      return;
    }
    case 'notice': {
      const { notice } = record;
      switch (notice.kind) {
        // Lines this agent had not read (it was acting) when the teammate moved on: said to it directly.
        case 'unread':
          hear(m, obs, notice.partner, notice.lines.join('\n'), true, makePlan);
          return;
        // A teammate who came while this agent talked with another: heard, not answered.
        case 'refused':
          hear(m, obs, notice.partner, notice.text, false, makePlan);
          return;
        // Asked and silent, or some of the answer dropped unread (too many lines while both acted): ask again.
        case 'silent':
        case 'dropped':
          m.asked.delete(notice.partner);
          m.planSent.delete(notice.partner);
          return;
        case 'ended':
        case 'late':
        case 'left':
          return;
      }
      return;
    }
    case 'outcome':
      outcome(m, obs, record.outcome);
      return;
    case 'said':
      return;
  }
}

/** What one of this agent's commands tells it, by code and data. */
function outcome(m: OracleMemory, obs: Observation, o: CommandOutcome): void {
  const { data } = o;
  // No free spot to place the table or furnace a craft or a smelting needs, where the bot stands.
  if (o.code === 'not_found' && data?.sought?.kind === 'place') {
    m.cramped = true;
    return;
  }
  switch (o.command) {
    case '!startConversation':
      // A teammate who is not a bot (a human player, or gone) is left out of the plan.
      if (o.code === 'not_found' && data?.sought?.kind === 'bot' && m.team) m.team = m.team.filter((n) => n !== data.sought?.name);
      return;
    case '!placeBlockAt':
    case '!digAt':
      // Often the builder's own body overlaps the cell: tried again from elsewhere.
      if (o.code === 'refused_by_server' && data?.position) m.refused.add(`${data.position.x},${data.position.y},${data.position.z}`);
      // A subtask's cell done: off its list.
      if (o.ok && m.assignment?.current) {
        m.assignment.cells = m.assignment.cells.filter((c) => c !== m.assignment?.current);
        m.assignment.current = undefined;
      }
      return;
    case '!givePlayer':
      if (m.assignment) {
        // A subtask's hand-over: what was received is off its list; the rest is given again.
        const handOver = data?.handOver;
        if (handOver) m.assignment.toGive[handOver.item] = (m.assignment.toGive[handOver.item] ?? 0) - handOver.received;
        return;
      }
      // A hand-over cut short (a teammate's message interrupted it) is made again.
      if (o.code === 'interrupted') m.undoGive();
      else if (data?.handOver && data.handOver.received < data.handOver.count) putRight(m, obs, data.handOver);
      return;
    case '!checkBlueprintLevel':
      if (data?.blueprint) m.levelCheck = data.blueprint;
      return;
    case '!collectBlocks':
    case '!attack':
    case '!useItemOnEntity':
    case '!searchForEntity': {
      // Seen but not found by the command: a mob out of its range is walked to once, then given up;
      // so is one the search could not reach (a monster deep in a cave: the path searches that
      // failed took the machine's CPU for minutes from the bots beside it).
      const sought = data?.sought;
      const unreachable = o.command === '!searchForEntity' && o.code === 'unreachable';
      if ((o.code !== 'not_found' && !unreachable) || !sought || (sought.kind !== 'block' && sought.kind !== 'mob')) return;
      if (sought.kind === 'mob' && o.command !== '!searchForEntity') m.seek = sought.name;
      else m.gone.set(sought.name, across(obs));
      return;
    }
    case '!craftRecipe':
      // No crafting table within the command's range after all (one seen at the edge of sight, or
      // left behind by a dig): none here from now on, so the plan makes one.
      if (o.code === 'missing_items' && data?.missing?.crafting_table) m.gone.set('crafting_table', across(obs));
      // A table the craft placed stands here now.
      else if (data?.spent?.crafting_table) m.gone.delete('crafting_table');
      return;
    case '!smeltItem':
      // No furnace in range here (the one placed is left far behind, up a mine): none here from now
      // on, so a plan that can make one does; a smelting done found or placed one here.
      if (o.code === 'not_found') for (const station of SMELTERS) m.gone.set(station, across(obs));
      else if (o.ok) for (const station of SMELTERS) m.gone.delete(station);
      // No fuel in the furnace at hand nor in the inventory: smelting brings its own from now on.
      if (o.code === 'missing_items' && data?.missing && Object.keys(data.missing).some((item) => item !== o.args.item_name))
        m.unfuelled = true;
      return;
    case '!goToCoordinates':
      // Back where the task began after a furnace was out of range (see `goHome`): the furnaces
      // stand here, even when the one that was not found lay within GONE_RADIUS of this spot (the
      // hunt had ended 20 blocks off, the smoker 33 blocks from there).
      if (o.ok && m.home && o.args.x === m.home.x && o.args.y === m.home.y && o.args.z === m.home.z)
        for (const station of SMELTERS) m.gone.delete(station);
      return;
    default:
      return;
  }
}

/**
 * What this giver does about a hand-over its recipient did not pick up: gives again what it
 * picked back up, asks each teammate who picked some up to pass it on (as the coordinator asks
 * for a shortfall), and tells the recipient where the rest lies, for them to walk onto it.
 */
function putRight(m: OracleMemory, obs: Observation, missed: HandOver): void {
  const { to, item } = missed;
  if (missed.takenBack > 0) m.relays.push(`!givePlayer("${to}", "${item}", ${missed.takenBack})`);
  for (const [who, n] of Object.entries(missed.takenBy)) {
    if (who !== obs.name && who !== to) m.relays.push(`!startConversation("${who}", "${formatNeed(to, { [item]: n })}")`);
  }
  if (missed.lying) m.relays.push(`!startConversation("${to}", "${formatLying(item, missed.lying)}")`);
}

/**
 * A teammate's line, read with the team protocol.
 *
 * @param direct said to this agent (not a line it heard while it talked with someone else).
 */
function hear(m: OracleMemory, obs: Observation, from: string, text: string, direct: boolean, makePlan: PlanMaker): void {
  const status = parseStatus(text);
  if (status) m.statuses.set(from, status);
  const team = parseTeam(text);
  // The plan again, after this agent said `Done.`: its word was lost, say it again.
  if (team && m.plan && !team.go && direct && m.reportedDone) m.reportedDone = false;
  if (team && !m.plan) {
    for (const [name, s] of Object.entries(team.team)) m.statuses.set(name, s);
    m.teamText = text;
    // The coordinator's own words of the plan, when it gives them, settle what it saw and
    // this agent may not (a crafting table or a crop out of sight).
    const summary = obs.blueprint ? undefined : parseSummary(text);
    m.plan = summary ? { kind: 'items', plan: summary } : makePlan(obs);
  }
  if (team?.go) m.go = true;
  if (isDone(text)) m.dones.set(from, (m.dones.get(from) ?? 0) + 1);
  if (direct) for (const g of parseGave(text)) if (g.to === obs.name) m.received[g.item] = (m.received[g.item] ?? 0) + g.count;
  // A hand-over went astray (another agent picked it up): the coordinator asks everyone to
  // make up the shortfall, and each gives what it has.
  const short = parseShort(text);
  if (short && direct && m.isCoordinator(obs.name))
    m.shortfall = { worker: from, items: short.items, target: short.target, asked: new Set() };
  const need = parseNeed(text);
  // A caller's new call replaces its earlier one; calls of different callers queue.
  if (need && direct) m.needs.splice(0, m.needs.length, ...m.needs.filter((n) => n.from !== from), { ...need, from });
  const lying = parseLying(text);
  if (lying && direct) m.fetch = lying;
  const unsolvable = parseUnsolvable(text);
  if (unsolvable) {
    m.unsolvableSaid = true;
    m.unsolvable ??= unsolvable;
  }
  // A teammate's question (or its own status) is answered with this agent's status.
  if (direct && !team && !need && !lying && !isDone(text) && !unsolvable && !m.isCoordinator(obs.name)) m.answer = from;
}
