/**
 * A graph strategy's view of one agent: a narrow port, so the strategies' loops work the same on
 * real agents ({@link memberOf}) and on scripted ones in tests. A strategy gives an agent its
 * subtask as task data ({@link TeamMember.assign}: `AgentTask.assignment`) and an order through the
 * agent's one way in (`Agent.receive`, from the coordinator on the system channel); it reads what
 * the agent did from its journal (typed command outcomes), and the world through its bot.
 */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../agent/agent.ts';
import type { AgentTask, Assignment } from '../commands/context.ts';
import type { Journal } from '../commands/journal.ts';
import { parseCommand } from '../commands/parser.ts';
import { nameResolver } from '../game/names.ts';
import type { Counts } from '../game/production.ts';
import { blockTypesAround, mobTypesAround } from '../skills/surroundings.ts';
import { describeOriented } from '../game/block-state.ts';

/** One agent as a graph strategy sees it (see the module header). */
export interface TeamMember {
  readonly name: string;
  /** Items held now (item → count); empty when the bot is not in the world. */
  inventory(): Counts;
  /** Where it stands (blocks, its feet's block), if it is in the world. */
  position(): { x: number; y: number; z: number } | undefined;
  /** Whether it may use `command` (e.g. `!craftRecipe`; tasks block some). */
  canUse(command: string): boolean;
  /** Its part of the task, as the task runner gave it (targets, blueprint, teammates...). */
  task(): Readonly<AgentTask> | undefined;
  /** Names of the block types and mobs in its sight (about 32 blocks), for what the world gives. */
  surroundings(): { blocks: string[]; mobs: string[] };
  /** The block at a position as its bot sees it; undefined where its bot has not loaded the world. */
  blockAt(x: number, y: number, z: number): string | undefined;
  /**
   * The block at a position with its orientation (`oak_stairs[facing=west,half=bottom]`: the
   * properties blueprints name, `describeOriented`), as its bot sees it; undefined where unloaded.
   * Without it, {@link TeamMember.blockAt}'s name stands for the state.
   */
  stateAt?(x: number, y: number, z: number): string | undefined;
  /**
   * Gives it its current subtask (`AgentTask.assignment`; the goal its prompt shows becomes the
   * subtask's words), or, with undefined, takes it back (the task's own goal again).
   */
  assign(assignment: Assignment | undefined): void;
  /** An order from the coordinator, queued for its model like any system message. */
  order(text: string): void;
  /** Resolves once it has handled every queued message (its model loop has ended). */
  idle(): Promise<void>;
  /** Stops its running action and model loop. */
  stop(reason: string): Promise<void>;
  /**
   * Steps `blocks` away from where it stands (`!moveAway`, run for the coordinator without its
   * model): an idle agent standing in a cell a teammate is to build. Never rejects.
   */
  stepAside(blocks: number): Promise<void>;
  /**
   * Hands `count` of `item` to `to` (`!givePlayer`, run for the coordinator without its model): an
   * idle agent passing on a hand-over it picked up instead of its recipient. Never rejects.
   */
  passOn(to: string, item: string, count: number): Promise<void>;
  /**
   * Runs `text` (one `!command`) for the coordinator, without its model (S-Agents' direct todos):
   * resolves with whether it succeeded and its outcome's text, or the parser's error. Never rejects.
   */
  command(text: string): Promise<{ ok: boolean; text: string }>;
  /**
   * What it perceives besides its inventory (S-Agents §III-B.1): health and hunger (0–20), the
   * time of day (ticks, 0–24 000), the biome it stands in, what it holds and wears. Fields it cannot
   * read (not in the world) are left out.
   */
  perceive(): Perception;
  /** What it took in and what its commands did (typed outcomes). */
  readonly journal: Pick<Journal, 'last' | 'since' | 'subscribe'>;
}

/** See {@link TeamMember.perceive}. */
export interface Perception {
  health?: number;
  food?: number;
  /** Ticks since dawn, 0–24 000. */
  timeOfDay?: number;
  biome?: string;
  /** Item names in hand and worn (`hand`, `head`, `torso`, `legs`, `feet`). */
  equipment?: Record<string, string>;
}

/**
 * The {@link TeamMember} of a set-up agent. Its task's own goal is kept when it is first wrapped,
 * and shown again when a subtask is taken back.
 */
export function memberOf(agent: Agent): TeamMember {
  const goal = agent.task?.goal;
  const bot: Bot = agent.bot;
  /** Runs a command on the agent for the coordinator (not its model); a refused or failed one is its outcome's. */
  const run = async (text: string): Promise<{ ok: boolean; text: string }> => {
    const parsed = parseCommand(text, agent.commands, nameResolver(agent.data.version.minecraftVersion ?? bot.version));
    if (parsed.kind === 'error') return { ok: false, text: parsed.message };
    if (parsed.kind !== 'command') return { ok: false, text: `"${text}" is not a command` };
    const cursor = agent.journal.last;
    const out = await agent.execute(parsed, 'coordinator').catch((err: Error) => err.message);
    const outcome = agent.journal
      .since(cursor)
      .filter((e) => e.kind === 'outcome')
      .at(-1);
    return { ok: outcome?.kind === 'outcome' ? outcome.outcome.ok : false, text: out };
  };
  return {
    name: agent.name,
    inventory() {
      const out: Counts = {};
      try {
        for (const item of bot.inventory.items()) out[item.name] = (out[item.name] ?? 0) + item.count;
      } catch {
        // not in the world: nothing held
      }
      return out;
    },
    position() {
      const p = bot.entity?.position as Vec3 | undefined;
      return p ? { x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) } : undefined;
    },
    canUse: (command) => agent.canUse(command),
    task: () => agent.task,
    surroundings() {
      try {
        return { blocks: blockTypesAround(bot), mobs: mobTypesAround(bot) };
      } catch {
        return { blocks: [], mobs: [] };
      }
    },
    blockAt(x, y, z) {
      try {
        return bot.blockAt(new Vec3(x, y, z))?.name ?? undefined;
      } catch {
        return undefined;
      }
    },
    stateAt(x, y, z) {
      try {
        const block = bot.blockAt(new Vec3(x, y, z));
        return block ? describeOriented(block) : undefined;
      } catch {
        return undefined;
      }
    },
    assign(assignment) {
      const task = agent.task ?? {};
      if (assignment) {
        agent.setTask({ ...task, goal: `Your subtask ${assignment.node}: ${assignment.description}`, assignment });
      } else {
        const { assignment: _done, ...rest } = task;
        agent.setTask(goal === undefined ? rest : { ...rest, goal });
      }
    },
    order(text) {
      agent.receive({ from: 'system', channel: 'system', via: 'coordinator', text });
    },
    idle: () => agent.idle(),
    stop: (reason) => agent.stop(reason),
    stepAside: async (blocks) => void (await run(`!moveAway(${blocks})`)),
    passOn: async (to, item, count) => void (await run(`!givePlayer(${JSON.stringify(to)}, ${JSON.stringify(item)}, ${count})`)),
    command: run,
    perceive() {
      const out: Perception = {};
      try {
        out.health = bot.health;
        out.food = bot.food;
        out.timeOfDay = bot.time?.timeOfDay;
        const p = bot.entity?.position as Vec3 | undefined;
        const biome = p ? (bot.blockAt(p.floored())?.biome as { name?: string } | undefined)?.name : undefined;
        if (biome) out.biome = biome;
        const equipment: Record<string, string> = {};
        if (bot.heldItem) equipment.hand = bot.heldItem.name;
        (['head', 'torso', 'legs', 'feet'] as const).forEach((slot, i) => {
          const item = bot.inventory.slots[5 + i];
          if (item) equipment[slot] = item.name;
        });
        out.equipment = equipment;
      } catch {
        // not in the world: what was read so far
      }
      return out;
    },
    journal: agent.journal,
  };
}
