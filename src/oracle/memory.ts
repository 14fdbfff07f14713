/**
 * What one agent's offline policy remembers between its decisions: the team and its statuses,
 * the plan, who was asked, told and answered, hand-overs made, calls to answer, and the state of
 * its own work and building. The policy's roles (`./observe.ts`, `./team.ts`, `./work.ts`,
 * `./build.ts`, `./retry.ts`) read and write it; nothing else does.
 */
import type { Observation } from './observation.ts';
import type { Counts } from '../game/production.ts';
import type { BlueprintCheckData } from '../skills/outcome.ts';
import type { BuildPlan } from './construction-plan.ts';
import type { Gift, Spot, Status } from './protocol.ts';
import type { TeamPlan, Transfer } from './team-plan.ts';
import type { BuildCell } from '../game/work.ts';
import type { EscapeChain } from '../tasks/villager/escape.ts';

/** The team's plan: items to make, or a blueprint to build. */
export type Plan = { kind: 'items'; plan: TeamPlan } | { kind: 'build'; plan: BuildPlan };

/** A call to give a short worker items: what it lacks and, when it said, what they are for. */
export interface Call {
  worker: string;
  items: Counts;
  target?: Counts | undefined;
}

/** A crop harvest: the seed item of the crop, how many cells it empties, the seeds held before. */
export interface Harvest {
  seed: string;
  cells: number;
  held: number;
}

/** Where the policy stands in its current subtask. */
export interface AssignmentState {
  node: string;
  /** `give`: items still to hand over. */
  toGive: Counts;
  /** `build`: cells still to place or clear, bottom up, with their tries. */
  cells: { cell: BuildCell; tries: number }[];
  /** The cell whose command the policy sent last (its outcome decides what next). */
  current?: { cell: BuildCell; tries: number } | undefined;
  /** The reason it said it cannot go on, once said. */
  said?: string;
  /** `build`: the ground dug for scaffolds placements asked for (`data.scaffold`; `ScaffoldDigs`). */
  scaffold?: { next(obs: Observation): string | undefined };
}

/** How far from where a block or mob was found gone it stays left out of the agent's sources (blocks). */
export const GONE_RADIUS = 24;

/** One agent's memory (see the module comment). Fields are read and written by the policy's roles. */
export class OracleMemory {
  /** Every teammate's name, this agent's included, sorted; the first is the coordinator. */
  team: string[] | undefined;
  readonly statuses = new Map<string, Status>();
  /** Coordinator: teammates asked for their status / sent the plan / sent the go-ahead. */
  readonly asked = new Set<string>();
  readonly planSent = new Set<string>();
  readonly goSent = new Set<string>();
  /** Coordinator: how many times each teammate said `Done.` (its first: its plan hand-overs are made; later ones answer calls). */
  readonly dones = new Map<string, number>();
  plan: Plan | undefined;
  /** The plan as the coordinator words it (`Plan. Team: ...`). */
  teamText = '';
  /** Coordinator: the go-ahead, the same team in the protocol's words (`Go. Team: ...`). */
  goText = '';
  /** The go-ahead came: this agent works. */
  go = false;
  /** This agent's plan hand-overs made so far. */
  given = 0;
  reportedDone = false;
  unsolvableSaid = false;
  finishedSaid = false;
  /** A teammate's message that this agent answers with its status. */
  answer: string | undefined;
  /** Where this agent stood at its first decision: the task's set-up spot (the cooking world's centre). */
  home: { x: number; y: number; z: number } | undefined;
  /**
   * The last command found no furnace (`'furnace'`) or chest (`'container'`) in range: go back to
   * where the task began (for a furnace, unless one can be made from what is held).
   */
  goHome: 'furnace' | 'container' | undefined;
  /** Escape runs: the rooms of `chain` this agent has seen open (by index in the chain). */
  escape: { chain: EscapeChain; opened: Set<number> } | undefined;
  /** Why the task cannot be done, once this agent knows it. */
  unsolvable: string | undefined;
  /** Coordinator: a worker's shortfall being made up. */
  shortfall: (Call & { asked: Set<string>; asking?: string; dones?: number }) | undefined;
  /** Teammates' calls to give a short worker items, oldest first. */
  readonly needs: (Call & { from: string })[] = [];
  /** The last shortfall this worker reported (items and inventory). */
  shortSaid = '';
  /** Waits since this worker last said its shortfall. */
  shortWaits = 0;
  /** The crop harvest this agent's last work command started, until the sowing after it is decided. */
  harvest: Harvest | undefined;
  /** Replies that put right this agent's hand-overs that went astray, oldest first. */
  readonly relays: string[] = [];
  /** How to make this agent's last hand-over again, should it be cut short. */
  giveAgain: (() => void) | undefined;
  /** Where a teammate's hand-over to this agent lies: walk onto it. */
  fetch: Spot | undefined;
  /** A helper has handed its share of the worker's gathering over (see `withHelpers`). */
  shareGiven = false;
  /** A helper has told the worker so. */
  shareSaid = false;
  /** Worker: the items teammates said they handed to it (`Done. I gave ...`). */
  readonly received: Counts = {};
  /** Worker: waits for its helpers' shares once it has made the rest. */
  shareWaits = 0;
  /** Worker: its helpers' shares are no longer counted on (they did not come in time): it makes them. */
  sharesDropped = false;
  // Construction.
  /** The level being built. */
  level: number | undefined;
  /** Cell commands of the level check being worked through. */
  queue: string[] = [];
  /** Waits for teammates' cells on the current level. */
  waits = 0;
  /** Tries per cell command. */
  readonly attempts = new Map<string, number>();
  /** Cells (`x,y,z`) the server refused a placement at: tried again from elsewhere. */
  readonly refused = new Set<string>();
  /** The last walk off the building site. */
  offSiteWalk = '';
  /** The newest level check not acted on yet. */
  levelCheck: BlueprintCheckData | undefined;
  /** Under a coordination strategy: the subtask being done (see ./assignment.ts). */
  assignment: AssignmentState | undefined;
  // Gathering.
  /**
   * Blocks and mobs a command found none of in its range though the agent saw some (a block type
   * a chunk's palette still lists once its last one is dug, a mob out of the command's range):
   * left out of the agent's sources while it stays within {@link GONE_RADIUS} of where it learnt it.
   */
  readonly gone = new Map<string, { x: number; z: number } | undefined>();
  /** A mob a hunt found out of its range: walk to it (`!searchForEntity`) before the next try. */
  seek: string | undefined;
  /** The furnace in sight was found without fuel: smelting brings its own from now on. */
  unfuelled = false;
  /**
   * A command found no free spot to place a block where the bot stands (a crafting table or a
   * furnace at the bottom of a one-wide shaft it dug): it walks a few blocks off first, digging
   * itself the room.
   */
  cramped = false;

  /** This agent coordinates: it is the first teammate by name (or alone). */
  isCoordinator(name: string): boolean {
    return (this.team?.[0] ?? name) === name;
  }

  /** The plan's hand-overs, in order. */
  transfers(): Transfer[] {
    return this.plan?.plan.transfers ?? [];
  }

  /** The members with work of the plan (making items, placing cells), sorted. */
  workers(): string[] {
    const plan = this.plan;
    if (!plan) return [];
    if (plan.kind === 'items') return [...new Set(plan.plan.jobs.map((j) => j.worker))].sort((a, b) => a.localeCompare(b));
    return [...new Set(plan.plan.owner.values())].sort((a, b) => a.localeCompare(b));
  }

  /**
   * The items the plan's jobs give `name` to make (item → count); none outside a team making items.
   *
   * @param shares whether a helper's share made for a teammate counts (false: only its own jobs).
   */
  jobTargets(name: string, shares = true): Counts {
    const targets: Counts = {};
    if (this.plan?.kind !== 'items') return targets;
    for (const j of this.plan.plan.jobs) {
      if (j.worker !== name || (j.for && !shares)) continue;
      targets[j.target] = (targets[j.target] ?? 0) + j.count;
    }
    return targets;
  }

  /** The helpers' shares still to come to `name` (item → count), see `withHelpers`; none once given up on. */
  sharesDue(name: string): Counts {
    const due: Counts = {};
    if (this.plan?.kind !== 'items' || this.sharesDropped) return due;
    for (const j of this.plan.plan.jobs) if (j.for === name) due[j.target] = (due[j.target] ?? 0) + j.count;
    for (const [item, n] of Object.entries(due)) {
      const left = n - (this.received[item] ?? 0);
      if (left > 0) due[item] = left;
      else delete due[item];
    }
    return due;
  }

  /** `name`'s share of a worker's gathering, if it helps one: what it makes, and for whom. */
  share(name: string): Gift | undefined {
    const job = this.plan?.kind === 'items' ? this.plan.plan.jobs.find((j) => j.worker === name && j.for) : undefined;
    return job?.for ? { item: job.target, count: job.count, to: job.for } : undefined;
  }

  /** The plan in words, for people (`Jill makes 1 bread, Andy gives Jill 2 wheat`). */
  summary(): string {
    const plan = this.plan;
    if (!plan) return '';
    const gives = plan.plan.transfers.map((t) => `${t.from} gives ${t.to} ${t.count} ${t.item}`);
    if (plan.kind === 'build') {
      const counts = new Map<string, number>();
      for (const who of plan.plan.owner.values()) counts.set(who, (counts.get(who) ?? 0) + 1);
      return [...[...counts].map(([who, n]) => `${who} places ${n} blocks`), ...gives].join(', ');
    }
    const jobs = plan.plan.jobs.map((j) => `${j.worker} makes ${j.count} ${j.target}${j.for ? ` for ${j.for}` : ''}`);
    return [...jobs, ...gives].join(', ');
  }

  /** Counts the last hand-over as not made (see {@link giveAgain}), so it is made again. */
  undoGive(): void {
    this.giveAgain?.();
    this.giveAgain = undefined;
  }
}
