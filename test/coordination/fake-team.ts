/**
 * A scripted team for the graph strategies' loops, without a server: members whose inventories and
 * world live in memory, whose journals are real journals, and who act on an order by a behaviour
 * (by default: they do their subtask's typed work exactly, reporting typed command outcomes).
 */
import type { AgentTask, Assignment } from '../../src/commands/context.ts';
import { Journal } from '../../src/commands/journal.ts';
import type { TeamMember } from '../../src/coordination/members.ts';
import type { GraphTeam } from '../../src/coordination/graph-run.ts';
import { gameData } from '../../src/game/data.ts';
import type { Counts } from '../../src/game/production.ts';
import type { ChatModel } from '../../src/models/types.ts';
import type { GraphEvent } from '../../src/tasks/eval/records.ts';
import type { Blueprint, LoadedTask } from '../../src/tasks/schema.ts';
import { TEST_VERSION } from '../helpers/version.ts';

/** The shared world: blocks by `x,y,z`. */
export type FakeWorld = Map<string, string>;

/** What a member does with an order; resolves when its "model loop" ends. */
export type Behaviour = (member: FakeMember, order: string) => Promise<void> | void;

/** Everything a fake member did, in order, across the team. */
export interface Act {
  agent: string;
  what: string;
}

export class FakeMember implements TeamMember {
  readonly name: string;
  readonly inv: Counts;
  readonly journal = new Journal();
  readonly orders: string[] = [];
  assignment: Assignment | undefined;
  readonly team: FakeTeam;
  readonly #task: AgentTask;
  #busy: Promise<void> = Promise.resolve();
  stops = 0;

  constructor(team: FakeTeam, name: string, inv: Counts, task: AgentTask) {
    this.team = team;
    this.name = name;
    this.inv = { ...inv };
    this.#task = task;
  }

  inventory(): Counts {
    return Object.fromEntries(Object.entries(this.inv).filter(([, n]) => n > 0));
  }
  /** Where it stands (its feet's block). */
  pos = { x: 0, y: -60, z: 5 };
  position() {
    return { ...this.pos };
  }
  passOn(to: string, item: string, count: number): Promise<void> {
    const recipient = this.team.member(to)!;
    const n = Math.min(count, this.inv[item] ?? 0);
    this.inv[item] = (this.inv[item] ?? 0) - n;
    recipient.inv[item] = (recipient.inv[item] ?? 0) + n;
    this.team.acts.push({ agent: this.name, what: `!givePlayer(${to}, ${item}, ${count}) for the coordinator` });
    return Promise.resolve();
  }
  stepAside(blocks: number): Promise<void> {
    this.pos = { ...this.pos, z: this.pos.z + blocks };
    this.team.acts.push({ agent: this.name, what: `!moveAway(${blocks})` });
    return Promise.resolve();
  }
  canUse(command: string): boolean {
    return !(this.#task.blockedActions ?? []).includes(command);
  }
  task(): Readonly<AgentTask> {
    return this.#task;
  }
  surroundings() {
    return { blocks: this.team.sight, mobs: [] };
  }
  blockAt(x: number, y: number, z: number): string | undefined {
    return this.team.world.get(`${x},${y},${z}`) ?? 'air';
  }
  /** The ids of the subtasks it was given, in order. */
  readonly given: string[] = [];
  assign(assignment: Assignment | undefined): void {
    this.assignment = assignment;
    if (assignment) this.given.push(assignment.node);
  }
  order(text: string): void {
    this.orders.push(text);
    this.#busy = this.#busy.then(() => this.team.behaviour(this, text));
  }
  idle(): Promise<void> {
    return this.#busy;
  }
  stop(): Promise<void> {
    this.stops++;
    return Promise.resolve();
  }

  /** Reports a command's typed outcome, as the agent's executor would. */
  outcome(command: string, args: Record<string, unknown>, ok: boolean, data?: Record<string, unknown>): void {
    this.journal.add({
      kind: 'outcome',
      outcome: { command, args, ok, code: ok ? 'ok' : 'failed', text: ok ? 'done' : 'failed', data },
      by: 'model',
    });
    this.team.acts.push({ agent: this.name, what: `${command}(${Object.values(args).join(', ')})` });
  }
}

/** The perfect executor: each subtask's typed work done at once. */
export const doWork: Behaviour = (m) => {
  const work = m.assignment?.work;
  if (!work) return;
  const team = m.team;
  switch (work.kind) {
    case 'make':
    case 'collect':
      for (const [item, n] of Object.entries(work.targets)) {
        m.inv[item] = Math.max(m.inv[item] ?? 0, n);
        m.outcome(work.kind === 'make' ? '!craftItems' : '!collectBlocks', { item, n }, true);
      }
      return;
    case 'give':
      for (const [item, n] of Object.entries(work.items)) {
        const to = team.member(work.to)!;
        m.inv[item] = (m.inv[item] ?? 0) - n;
        to.inv[item] = (to.inv[item] ?? 0) + n;
        m.outcome('!givePlayer', { to: work.to, item, n }, true, {
          handOver: { to: work.to, item, count: n, received: n, takenBy: {}, takenBack: 0 },
        });
      }
      return;
    case 'build':
      for (const c of work.cells) {
        team.world.set(`${c.x},${c.y},${c.z}`, c.block);
        m.inv[c.block] = (m.inv[c.block] ?? 0) - 1;
        m.outcome('!placeBlockAt', { block: c.block, x: c.x, y: c.y, z: c.z }, true);
      }
      return;
  }
};

/** A team of fake members on one task. */
export class FakeTeam {
  readonly world: FakeWorld = new Map();
  readonly acts: Act[] = [];
  readonly events: Omit<GraphEvent, 'type' | 't'>[] = [];
  readonly logs: string[] = [];
  readonly members: FakeMember[] = [];
  readonly controller = new AbortController();
  behaviour: Behaviour = doWork;
  sight: string[] = ['grass_block', 'dirt', 'crafting_table', 'oak_log'];

  constructor(agents: Record<string, { inventory: Counts; task?: AgentTask }>) {
    for (const [name, a] of Object.entries(agents)) {
      const m = new FakeMember(this, name, a.inventory, { teammates: Object.keys(agents).filter((n) => n !== name), ...a.task });
      this.members.push(m);
    }
  }

  member(name: string): FakeMember | undefined {
    return this.members.find((m) => m.name === name);
  }

  /** The {@link GraphTeam} of these members. */
  graphTeam(options: { task?: Partial<LoadedTask>; blueprint?: Blueprint; planner?: ChatModel; ruleChecks?: boolean } = {}): GraphTeam {
    const names = this.members.map((m) => m.name);
    return {
      task: {
        id: 'fake',
        file: 'inline',
        type: options.blueprint ? 'construction' : 'techtree',
        goal: 'the task',
        agent_count: names.length,
        timeout: 60,
        initial_inventory: {},
        blocked_actions: {},
        ...options.task,
      },
      members: this.members,
      blueprint: options.blueprint,
      goals: Object.fromEntries(names.map((n) => [n, 'Make the target together.'])),
      data: gameData(TEST_VERSION),
      planner: options.planner,
      ruleChecks: options.ruleChecks ?? true,
      record: (e) => this.events.push(e),
      signal: this.controller.signal,
      log: (line) => this.logs.push(line),
    };
  }

  /** The changes recorded, in order. */
  changes(): string[] {
    return this.events.map((e) => e.change);
  }

  /** The last graph recorded. */
  last(): Omit<GraphEvent, 'type' | 't'> {
    return this.events[this.events.length - 1]!;
  }
}
