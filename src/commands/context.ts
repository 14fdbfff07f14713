/** What a command's `perform` receives: the bot, game data, a cancel signal and its agent. */
import type { Bot } from 'mineflayer';
import type { GameData } from '../game/data.ts';
import type { WorldSupplies } from '../game/production.ts';
import type { PlaceStore } from '../game/places.ts';
import type { Blueprint } from '../tasks/schema.ts';
import type { EscapeChain } from '../tasks/villager/escape.ts';
import type { ChatModel, ChatTurn } from '../models/types.ts';
import type { Journal } from './journal.ts';
import type { Work } from '../game/work.ts';
import { defineCommandFor } from './registry.ts';

/** The parts of an agent that commands use (the Agent class implements it). */
export interface AgentControl {
  readonly name: string;
  /** Label of the running action, if any. */
  currentAction(): string | undefined;
  /** Stops the running action and the model loop. */
  stop(reason: string): Promise<void>;
  /** `!help` text for this agent's (possibly restricted) commands; with `command`, that command's details. */
  help(command?: string): string;
  /** `!goal`: starts the goal loop (empty goal: the last one again); returns a line for the model. */
  setGoal?(goal: string): string;
  /** `!endGoal`: ends the goal loop; returns a line for the model. */
  endGoal?(): string;
  /** `!newAction`: what writing and running code needs for `task` (its prompt picks coding examples for it). */
  coding?(task?: string): CodingSupport | Promise<CodingSupport>;
  /** `!lookAtPlayer` / `!lookAtPosition`: what describing the view needs; undefined while vision is off. */
  vision?(): VisionSupport | undefined;
  /** Names of the other bots of ours this agent can converse with. */
  knownBots(): string[];
  /** @throws Error when `partner` is not a bot of ours. */
  startConversation(partner: string, message: string): Promise<string>;
  endConversation(partner: string): string;

  // Optional: commands that need these say so when the agent lacks them.
  /** Named places (`!rememberHere`, `!goToRememberedPlace`), persisted with the agent's memory. */
  readonly places?: PlaceStore;
  /** The agent's behaviour modes (`!modes`, `!setMode`, `!stay`). */
  readonly modes?: ModeControl;
  /** The agent's part of the running task, if any (`!checkBlueprint` reads its blueprint). */
  readonly task?: Readonly<AgentTask>;
  /** `!stfu`: stop chatting and self-prompting (goal loop), keep the current action. */
  silence?(): void | Promise<void>;
  /** `!restart`: restart the agent (reconnect, reload memory). */
  restart?(): Promise<void>;
  /** `!clearChat`: forget the conversation history. */
  clearHistory?(): void;
}

/**
 * A narrow, read-only view of an agent: what a model built for it may read (the offline policy
 * reads its bot, its task and its journal; a provider's model needs none of it).
 */
export interface AgentView {
  readonly name: string;
  readonly bot: Bot;
  readonly data: GameData;
  /** Its part of the running task, if any. */
  readonly task: Readonly<AgentTask> | undefined;
  /** What it took in and what its commands did, as data. */
  readonly journal: Journal;
  /** Whether the agent has a command now (the task and settings block some). */
  canUse(command: string): boolean;
  /** The bot it is talking with now, if any. */
  partner(): string | undefined;
}

/**
 * One agent's part of a task, given with `setTask` by the task runner and read by commands and
 * the offline policy.
 */
export interface AgentTask {
  /** The goal the prompt shows while no goal loop (`!goal`) runs. */
  goal?: string;
  /** Item targets (item name → count). */
  targets?: Record<string, number>;
  /** The construction blueprint (`!checkBlueprint`, `!getBlueprint`...). */
  blueprint?: Blueprint;
  /** Commands this agent may not use while the task runs, e.g. `['!craftRecipe']`. */
  blockedActions?: readonly string[];
  /**
   * MineCollab's `restrict_to_inventory`: the agents must make do with what they hold, so
   * `!getCraftingPlan` plans from the inventory only and names missing ingredients as items to
   * get from the others instead of raw materials to gather.
   */
  restrictToInventory?: boolean;
  /** The other agents of the team, by name (the task's agents; humans are not in it). */
  teammates?: readonly string[];
  /**
   * The agent who must end up holding the targets, when the task names one (MineCollab's cooking
   * tasks with more than two agents: every dish to one bot).
   */
  collector?: string;
  /** Hell's Kitchen: the partner's recipe this agent holds and is to pass on, as the task words it. */
  partnerRecipe?: string;
  /**
   * What the task's world is known to supply beyond what lies in sight (the cooking world's farm
   * and animals, `COOKING_SUPPLIES` in `src/tasks/cooking.ts`): `!getCraftingPlan` plans with it,
   * as the offline policy does.
   */
  supplies?: WorldSupplies;
  /**
   * The mobs a survival world gives near a task's spot, of those its team must hunt or milk
   * (`src/app/task-spot.ts`): the animals the spot was chosen for (their chunks started with them
   * within 24 blocks), and the monsters that come in the dark (caves at any hour). They wander, out
   * of sight at times: the offline policy plans with them, and looks for one farther off when a
   * command finds none in range.
   */
  mobsNearby?: readonly string[];
  /**
   * The ores a survival world gives near a task's spot, of those its team must mine
   * (`src/app/task-spot.ts`: within 56 blocks across, at any depth). Deeper, at times, than
   * `!collectBlocks` sees from the surface (64 blocks): the offline policy plans with them from
   * the start, and digs down toward them on its way.
   */
  oresNearby?: readonly string[];
  /**
   * VillagerBench's farm-to-table cooking: the team shares the dish's ingredients out (each agent
   * gets and makes its part) and hands them to one cook, who makes the dish, so that each agent
   * contributes checkpoint items (the offline policy: `src/oracle/villager-cooking.ts`).
   */
  shareIngredients?: boolean;
  /**
   * The subtask a coordination strategy gives this agent now (a node of its task graph): its id
   * and words, and its typed work, which an offline policy executes (`src/game/work.ts`).
   */
  assignment?: Assignment;
  /**
   * VillagerBench escape: the rooms as placed (conditions with positions and states, exits,
   * `and`/`or`, wait intervals), the data of the goal's description, for an offline policy.
   */
  escape?: EscapeChain;
  /**
   * VillagerBench construction: the chests holding the blueprint's materials (block positions),
   * the data of the goal's "The materials are in the chest(s) at ..." line, for an offline policy.
   */
  materialChests?: readonly { x: number; y: number; z: number }[];
}

/** One subtask of a coordination strategy, as its agent gets it (see {@link AgentTask.assignment}). */
export interface Assignment {
  /** The graph node's id, e.g. `1.2`. */
  node: string;
  /** What to do, in words (for a model). */
  description: string;
  /** What to do, as data (for an offline policy; a model's planner may give none). */
  work?: Work;
}

/** One behaviour mode as `!modes` lists it. */
export interface ModeState {
  name: string;
  on: boolean;
  description: string;
  /** Held back by `!stay` for now. */
  paused?: boolean;
  /** Its own action is running now. */
  acting?: boolean;
}

/** What an agent with modes exposes to commands. */
export interface ModeControl {
  list(): ModeState[];
  /** @throws Error naming the known modes when `name` is not one. */
  set(name: string, on: boolean): void;
  /** Suspends all modes until the returned function is called (`!stay`). */
  pause?(): () => void;
}

export interface CommandContext {
  bot: Bot;
  data: GameData;
  /** Fires when the command must stop (`!stop`, a newer action, the time bound). */
  signal: AbortSignal;
  agent: AgentControl;
}

/** `defineCommand` with the context fixed: every command file uses this. */
export const defineCommand = defineCommandFor<CommandContext>();

/** What an agent gives `!newAction`. */
export interface CodingSupport {
  /** The model that writes the code. */
  model: ChatModel;
  /** The coding system prompt, with `$CODE_DOCS` still to fill. */
  systemPrompt: string;
  /** Time limit for one run, in ms. */
  timeoutMs: number;
  /** Recent conversation turns shown before the task. */
  context: ChatTurn[];
  /** Says a line in chat through the agent's rate-limited outbox. */
  say(text: string): void;
}

/** What an agent with vision (`allow_vision`) gives `!lookAtPlayer` and `!lookAtPosition`. */
export interface VisionSupport {
  /** The model that describes the image (the profile's `vision_model`, else its `model`). */
  model: ChatModel;
  /** The system prompt: the profile's `image_analysis`, filled in. */
  prompt: string;
  /** Recent conversation turns, so the description can focus on what matters now. */
  context: ChatTurn[];
}
