/**
 * One Agent per bot: its state and lifecycle, its one way in ({@link Agent.receive}), and the
 * control surface commands use ({@link AgentControl}). Every message — a player's chat, a bot's
 * lines, the dashboard, the task runner, a coordinator, an MCP client — enters through
 * `receive`: it is recorded once (the journal, the run records), parsed once, and sorted into
 * control, query, action or chat. The parts it composes, each an object with its own job:
 * - {@link Inbox}: the bounded queue that runs one job at a time;
 * - {@link CommandExecutor}: parse and run commands, typed outcomes, the journal;
 * - {@link ModelLoop}: prompt the model, run the command in its reply, feed the outcome back;
 * - {@link PromptBuilder}: every prompt, from the profile's templates;
 * - {@link ReplyRouter}: answers go back the way the message came;
 * - {@link ActionRunner}: one cancellable, time-bounded action at a time;
 * - {@link SelfPrompter}: the goal loop; {@link History}: turns and summarised memory; modes.
 */
import type { Bot } from 'mineflayer';
import type { AgentControl, AgentTask, AgentView, CodingSupport, CommandContext, VisionSupport } from '../commands/context.ts';
import { Journal } from '../commands/journal.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import type { NameResolver } from '../game/names.ts';
import {
  ChatOutbox,
  fromPlayer,
  noticeText,
  type Conversations,
  type ConversationNotice,
  type IncomingMessage,
} from '../conversation/index.ts';
import type { GameData } from '../game/data.ts';
import type { ChatModel, ChatTurn } from '../models/types.ts';
import type { CommandOutcome } from '../skills/outcome.ts';
import { isAbortError } from '../util/abort.ts';
import { ActionRunner } from './action-runner.ts';
import { CommandExecutor, type ParsedCommand } from './command-executor.ts';
import { DEFAULT_MODES, ModeController } from './modes/index.ts';
import { releaseControls } from './bot.ts';
import { History, MAX_MEMORY_CHARS } from './history.ts';
import { Inbox, type InboxJob } from './inbox.ts';
import type { PlaceStore } from '../game/places.ts';
import { MemoryStore } from './memory-store.ts';
import { ModelLoop, type LoopPrompts } from './model-loop.ts';
import {
  PromptBuilder,
  promptExamples,
  wantsToRespond,
  type AgentProfile,
  type AgentSnapshot,
  type ConversingPrompt,
} from './prompt-builder.ts';
import { ReplyRouter } from './reply-router.ts';
import { TokenBudget } from './token-budget.ts';
import { SelfPrompter, type SelfPromptState } from './self-prompter.ts';
import type { ExampleSelector } from './prompts/examples.ts';
import type { BotPublisher } from './events.ts';

export type { Channel, IncomingMessage } from '../conversation/index.ts';
export type { AgentProfile } from './prompt-builder.ts';

export interface AgentOptions {
  bot: Bot;
  data: GameData;
  names: NameResolver;
  /** This agent's commands (the shared registry minus its blocked actions). */
  commands: CommandRegistry<CommandContext>;
  conversations: Conversations;
  /** The bot's rate-limited chat (default: an outbox with the default limit over `bot.chat`). */
  outbox?: ChatOutbox;
  /**
   * The agent's model, or how to build it from a narrow read-only view of the agent (the
   * offline policy reads its bot, task and journal through it).
   */
  model: ChatModel | ((view: AgentView) => ChatModel);
  /** The model that writes `!newAction` code (the profile's `code_model`); default: {@link model}'s. */
  codeModel?: ChatModel;
  /** The model that describes the bot's view (the profile's `vision_model`); default: {@link model}'s. */
  visionModel?: ChatModel;
  /** Few-shot examples for the coding prompt's `$EXAMPLES` (matched against the task and recent turns). */
  codingExamples?: ExampleSelector;
  /** Prompt templates and persona (a merged profile, see `profiles.ts`). */
  profile: AgentProfile;
  /** Few-shot examples for `$EXAMPLES`; share one selector between the agents of a process. */
  examples?: ExampleSelector;
  /** Examples per prompt (default 2). */
  numExamples?: number;
  /** Persisted memory (`bots/<name>/memory.json`); default: kept in memory only. */
  memory?: MemoryStore;
  /** Idle time before the goal loop prompts itself (ms; default 2000). */
  goalIdleMs?: number;
  /** Time limit of one `!newAction`, every attempt included (ms; default 300 000). */
  codeTimeoutMs?: number;
  /** `allow_vision`: `!lookAtPlayer` / `!lookAtPosition` render the view and have {@link visionModel} describe it. */
  allowVision?: boolean;
  /** The profile's `image_analysis` prompt (`$NAME` is filled in); default {@link DEFAULT_VISION_PROMPT}. */
  visionPrompt?: string;
  /** Turns kept in the history before the oldest are summarised into the memory. */
  maxMessages: number;
  /** Cap on consecutive command replies for one message; -1 = none. */
  maxCommands: number;
  /** The same command with the same outcome this many times in a row ends a model loop (default 3). */
  maxRepeats?: number;
  /** Time bound of one action (ms). */
  actionTimeoutMs: number;
  /** Minimum spacing between model calls (ms). */
  cooldownMs?: number;
  /** Minimum spacing before a model call the agent makes on its own: goal loop, follow-ups (ms; default 0). */
  minModelIntervalMs?: number;
  /** Model tokens per hour (0 or absent: no limit). */
  maxTokensPerHour?: number;
  /** Time bound of one model call, retries included (ms; default 60 000). */
  modelTimeoutMs?: number;
  /** Longest chat reply, in characters (default: no bound). */
  maxChatChars?: number;
  /** Jobs (messages, commands, goal prompts) that may wait in the inbox (default {@link INBOX_LIMIT}). */
  inboxLimit?: number;
  /**
   * Commands this agent lacks and how to enable each, e.g.
   * `{ '!newAction': 'set "allow_insecure_coding": true in settings.json' }`: a player or the model
   * naming one is told so instead of getting "unknown command".
   */
  disabledCommands?: Readonly<Record<string, string>>;
  log?: (line: string) => void;
  /** Receives the agent's mode-switch events (see `./events.ts`); default: none. */
  events?: BotPublisher;
  /**
   * Receives every message the inbox takes in, once (the run records and the event stream): the
   * one place messages are recorded, whichever way they came.
   */
  onMessage?: (message: IncomingMessage) => void;
  /** The profile's mode switches (over the defaults of `profiles/defaults/_default.json`). */
  modes?: Record<string, boolean>;
}

/** Jobs that may wait in an agent's inbox by default. */
export const INBOX_LIMIT = 32;

/**
 * The vision prompt when the profile has no `image_analysis` (the reference's, in substance):
 * describe the screenshot briefly, for the conversation at hand.
 */
export const DEFAULT_VISION_PROMPT =
  'You are $NAME, a Minecraft bot, shown a screenshot of your current view. Describe it briefly and correctly: terrain, blocks, players, mobs, structures and anything notable, focusing on what matters for the conversation. The sky is always blue whatever the weather or time; dropped items are small cubes. Reply only with the description.';
/** Bound on the respond-or-ignore question asked while acting (ms). */
const RESPOND_DECISION_TIMEOUT_MS = 15_000;
/** Bound on one summary request (ms). */
const SUMMARY_TIMEOUT_MS = 120_000;

/**
 * How {@link Agent.receive} sorted a message: `control` and `query` commands ran at once,
 * `action` commands and `chat` were queued, `error` was answered at once (a malformed or disabled
 * command), `dropped` was refused (the inbox was full, or the agent is detached).
 */
export type Received =
  | { kind: 'control' | 'query' | 'action'; command: string }
  | { kind: 'chat' }
  | { kind: 'error'; error: string }
  | { kind: 'dropped'; reason: string };

/**
 * What {@link Agent.runCommand} did: the command's outcome, the parser's error (a malformed,
 * unknown or disabled command, or no command at all), or why it was not taken (`dropped`).
 */
export type CommandRun =
  { kind: 'outcome'; outcome: CommandOutcome } | { kind: 'error'; error: string } | { kind: 'dropped'; reason: string };

/** What an agent is doing now, as plain data (the dashboard's views and MCP's resources are built from it). */
export interface AgentStatus {
  name: string;
  /** The model's id (`provider/model`, `oracle`). */
  model: string;
  /** Why the agent is paused (see {@link Agent.pause}), if it is. */
  paused: string | null;
  /** The running action and when it started (ms since the epoch). */
  action: { label: string; since: number } | null;
  goal: { state: SelfPromptState; text: string };
  /** The bot it is talking with. */
  partner: string | null;
  /** Jobs waiting or running in its inbox. */
  inbox: number;
  /** Health and food (0–20 half-points each), position (blocks): null while not in the world. */
  health: number | null;
  food: number | null;
  position: { x: number; y: number; z: number } | null;
  inventory: Record<string, number>;
  modes: Record<string, boolean>;
  /** Its task's goal and targets, if a task runs. */
  task: { goal: string | null; targets: Record<string, number> } | null;
}

export class Agent implements AgentControl, AgentView {
  readonly name: string;
  readonly bot: Bot;
  readonly data: GameData;
  readonly actions: ActionRunner;
  /** The bot's modes (reflexes that act without the model). */
  readonly modes: ModeController;
  readonly conversations: Conversations;
  /** Everything this agent types into chat goes through here. */
  readonly outbox: ChatOutbox;
  /** What it took in and what its commands did, as data (the offline policy, coordinators and MCP read it). */
  readonly journal = new Journal();
  /** The goal loop (`!goal`, `!endGoal`). */
  readonly selfPrompter: SelfPrompter;
  /** What persists across restarts: memory, turns, goal, places, modes (see {@link MemoryStore}). */
  readonly memoryStore: MemoryStore;
  readonly model: ChatModel;
  /** The model that writes `!newAction` code (the profile's `code_model`, else {@link model}). */
  readonly codeModel: ChatModel;
  /** The model that describes the bot's view (the profile's `vision_model`, else {@link model}). */
  readonly visionModel: ChatModel;
  readonly #options: AgentOptions;
  readonly #inbox: Inbox;
  readonly #executor: CommandExecutor;
  readonly #history: History;
  readonly #prompts: PromptBuilder;
  readonly #replies: ReplyRouter;
  readonly #loop: ModelLoop;
  readonly #budget: TokenBudget;
  #task: Readonly<AgentTask> | undefined;
  #lastPartner: string | undefined;
  /** The running action's start (ms since the epoch). */
  #actionSince = 0;
  /** Why the agent is paused (see {@link pause}). */
  #paused: string | undefined;
  /** Set by {@link detach}: the agent takes no message and runs nothing any more. */
  #detached = false;

  constructor(options: AgentOptions) {
    this.#options = options;
    this.bot = options.bot;
    this.name = options.bot.username;
    this.data = options.data;
    this.conversations = options.conversations;
    this.outbox = options.outbox ?? new ChatOutbox((line) => this.bot.chat(line));
    this.#prompts = new PromptBuilder(options.profile, {
      examples: options.examples,
      numExamples: options.numExamples,
      log: (line) => this.#log(line),
    });
    this.#replies = new ReplyRouter({
      conversations: this.conversations,
      outbox: this.outbox,
      maxChars: options.maxChatChars,
      log: (line) => this.#log(line),
      said: (to, text) => this.journal.add({ kind: 'said', to, text }),
    });
    this.#budget = new TokenBudget(options.maxTokensPerHour ?? 0);
    this.actions = new ActionRunner({
      timeoutMs: options.actionTimeoutMs,
      release: () => {
        releaseControls(this.bot);
        queueMicrotask(() => this.selfPrompter.idle());
      },
    });
    this.actions.subscribe((event) => {
      if (event.type === 'start') this.#actionSince = Date.now();
    });
    this.#executor = new CommandExecutor({
      bot: this.bot,
      data: this.data,
      names: options.names,
      commands: options.commands,
      agent: this,
      actions: this.actions,
      journal: this.journal,
      disabled: options.disabledCommands,
      disabledText: (command, how) => this.#prompts.message('command_disabled', { NAME: this.name, COMMAND: command, HOW: how }),
      afterAction: () => this.conversations.wake(),
      log: (line) => this.#log(line),
    });
    this.model = typeof options.model === 'function' ? options.model(this) : options.model;
    this.codeModel = options.codeModel ?? this.model;
    this.visionModel = options.visionModel ?? this.model;
    this.memoryStore = options.memory ?? new MemoryStore();
    this.#history = new History({
      maxMessages: options.maxMessages,
      summarise: this.model.summarises === false ? undefined : (memory, turns, signal) => this.#summarise(memory, turns, signal),
      changed: () => this.memoryStore.changed(),
      log: (line) => this.#log(line),
    });
    const prompts: LoopPrompts = {
      conversing: () => this.conversingPrompt(),
      tools: () => this.#prompts.tools(this.#executor.commands),
      message: (key, values) => this.#prompts.message(key, values),
    };
    this.#loop = new ModelLoop(
      {
        model: this.model,
        history: this.#history,
        prompts,
        commands: this.#executor,
        actions: this.actions,
        replies: this.#replies,
        log: (line) => this.#log(line),
      },
      {
        maxCommands: options.maxCommands,
        maxRepeats: options.maxRepeats,
        cooldownMs: options.cooldownMs,
        minIntervalMs: options.minModelIntervalMs,
        timeoutMs: options.modelTimeoutMs,
        budget: this.#budget,
      },
    );
    this.#inbox = new Inbox({
      limit: options.inboxLimit ?? INBOX_LIMIT,
      onIdle: () => this.selfPrompter.idle(),
      onDrop: (job, why) => this.#log(`inbox full (${options.inboxLimit ?? INBOX_LIMIT} waiting): ${why} ${job.label}`),
      onError: (job, err) => this.#log(`error handling ${job.label}: ${(err as Error).stack ?? String(err)}`),
    });
    this.selfPrompter = new SelfPrompter(
      {
        isIdle: () => this.#inbox.size === 0 && this.actions.current === undefined,
        inConversation: () => this.conversations.active !== undefined,
        prompt: (text) => this.#selfPrompt(text),
        announce: (text) => {
          this.#log(text);
          this.outbox.chat(text);
        },
        changed: () => this.memoryStore.changed(),
      },
      { idleMs: options.goalIdleMs },
    );
    this.memoryStore.snapshot = () => ({
      memory: this.#history.memory,
      turns: this.#history.turns.map((t) => ({ ...t })),
      goal: this.selfPrompter.goal ? { text: this.selfPrompter.goal, state: this.selfPrompter.state } : undefined,
      lastPartner: this.#lastPartner,
    });
    this.modes = new ModeController({
      bot: this.bot,
      actions: this.actions,
      profileModes: options.modes,
      onInterrupt: (text) => this.notifyInterrupted(text),
      changed: (switches) => {
        this.memoryStore.setModes(switches);
        for (const [mode, on] of Object.entries(switches)) if (knownModes?.[mode] !== on) options.events?.({ type: 'mode', mode, on });
        knownModes = { ...switches };
      },
      log: (line) => this.#log(line),
    });
    let knownModes: Record<string, boolean> | undefined = this.modes.toJSON();
    if (this.memoryStore.modes) this.modes.load(this.memoryStore.modes);
    this.conversations.attach({
      isBusy: () => this.actions.current !== undefined,
      shouldRespond: (partner, lines) => this.#shouldRespond(partner, lines),
      deliver: (partner, lines) => this.#deliver(partner, lines),
      note: (notice) => this.#note(notice),
      remind: (partner, silentMs) => {
        const seconds = Math.round(silentMs / 1000);
        this.journal.add({ kind: 'notice', notice: { kind: 'silent', partner, seconds } });
        this.receive({
          from: 'system',
          channel: 'system',
          text: this.#prompts.message('partner_silent', { PARTNER: partner, SECONDS: String(seconds) }),
        });
      },
    });
    const saved = this.memoryStore.loaded;
    if (saved) {
      this.#history.restore(saved.turns, saved.memory);
      this.#lastPartner = saved.lastPartner;
      if (saved.goal?.state === 'active' || saved.goal?.state === 'paused') this.selfPrompter.start(saved.goal.text);
    }
  }

  /** The conversation so far, oldest first (read-only; older turns are summarised into {@link memory}). */
  get history(): readonly ChatTurn[] {
    return this.#history.turns;
  }

  /** The summarised memory of older turns ('' if none). */
  get memory(): string {
    return this.#history.memory;
  }

  /** True while a background summary is running. */
  get summarising(): boolean {
    return this.#history.summarising;
  }

  /** Named places, persisted in the memory file. */
  get places(): PlaceStore {
    return this.memoryStore.places;
  }

  /** This agent's command registry (without the running task's blocked actions). */
  get commands(): CommandRegistry<CommandContext> {
    return this.#executor.commands;
  }

  /** Commands run, oldest first, as written (the last `COMMAND_LOG_LIMIT`). */
  get commandLog(): readonly string[] {
    return this.#executor.log;
  }

  /** This agent's part of the running task, if any (see {@link setTask}). */
  get task(): Readonly<AgentTask> | undefined {
    return this.#task;
  }

  /** Whether the agent has `command` now (its task and settings block some). */
  canUse(command: string): boolean {
    return this.#executor.commands.get(command) !== undefined;
  }

  /** The bot it is talking with now, if any. */
  partner(): string | undefined {
    return this.conversations.active;
  }

  /**
   * Gives the agent its part of a task in one call: the goal its prompt shows (while no goal loop
   * runs), item targets, a blueprint, its teammates and the commands it may not use. Replaces
   * any earlier task.
   *
   * @example agent.setTask({ goal: 'Craft 1 purple_banner.', targets: { purple_banner: 1 }, blockedActions: ['!getCraftingPlan'] });
   */
  setTask(task: AgentTask): void {
    this.#task = { ...task, blockedActions: task.blockedActions && [...task.blockedActions] };
    this.#executor.setTask(task);
    this.#keepStructures(task.blueprint !== undefined);
  }

  /** Forgets the task: no task goal, targets or blueprint, and every command of the agent again. */
  clearTask(): void {
    this.#task = undefined;
    this.#executor.setTask(undefined);
    this.#keepStructures(false);
  }

  /**
   * While a construction task runs, the pathfinder may not dig its way through blocks: it would
   * break the structure being built (a dug stone comes back as cobblestone). Digging on purpose
   * (`!digAt`, `!collectBlocks`) is unaffected.
   */
  #keepStructures(on: boolean): void {
    const movements = this.bot.pathfinder?.movements;
    if (movements) movements.canDig = !on;
  }

  /** Resolves once every queued message has been handled (at once while paused). */
  async idle(): Promise<void> {
    await this.#inbox.drained();
  }

  /**
   * The one way in. Records the message once (the journal, {@link AgentOptions.onMessage}) and
   * sorts it:
   * - from a player (whisper, public chat, or sent as one: the dashboard, MCP), a command runs
   *   directly, without the model: `!stop` and commands that do not move the bot (queries such
   *   as `!stats`, controls such as `!stfu`, `!endGoal`) at once, whatever is running; an action
   *   interrupts the running action and model call and runs next; a malformed or disabled one is
   *   answered at once. Plain chat goes to the model, and ends the model's own follow-ups at
   *   their next step (see `ModelLoop.yieldTo`);
   * - from a bot or the system (the goal loop, notices, the task runner, a coordinator): queued
   *   for the model, in arrival order.
   */
  receive(message: IncomingMessage): Received {
    if (this.#detached) return { kind: 'dropped', reason: `${this.name} is shut down` };
    this.journal.add({ kind: 'message', message });
    this.#options.onMessage?.(message);
    this.selfPrompter.busy();
    if (!fromPlayer(message)) return this.#queue(message, droppable(message));
    const parsed = this.#executor.parse(message.text);
    if (parsed.kind === 'error') {
      this.#replies.say(message, parsed.message, { urgent: true });
      return { kind: 'error', error: parsed.message };
    }
    if (parsed.kind === 'none') {
      this.#loop.yieldTo();
      return this.#queue(message, false);
    }
    const { command } = parsed;
    if (command.name === '!stop') {
      // The action's outcome says who stopped it; the model is not prompted about it.
      void this.stop(`stopped by ${message.from}`).then(() => this.#replies.say(message, 'Stopped.', { urgent: true }));
      return { kind: 'control', command: parsed.source };
    }
    if (command.kind === 'query' || command.alongside) {
      void this.#runForPlayer(message, parsed, true);
      return { kind: command.kind === 'query' ? 'query' : 'control', command: parsed.source };
    }
    // A player's action command replaces the running action (and model call) now, not after it.
    if (this.actions.current || this.#inbox.size > 0) void this.#interrupt(`interrupted by ${message.from}'s ${command.name}`);
    const queued = this.#inbox.push({
      label: `${message.from}: ${parsed.source}`,
      droppable: false,
      run: () => this.#runForPlayer(message, parsed),
    });
    if (!queued) return this.#refused(message);
    return { kind: 'action', command: parsed.source };
  }

  /**
   * A command from a client outside the game (an MCP client, `src/app/mcp/`), run as
   * {@link receive} runs a player's, but answered to the caller instead of in chat: recorded once
   * (the journal, {@link AgentOptions.onMessage}), kept in the history (a model sharing the bot
   * knows what the client did), queries and `alongside` commands at once, an action after
   * interrupting the running action and any model call (the goal loop carries on).
   *
   * @param message the command text as a player would write it, e.g.
   *   `{ from: 'mcp', text: '!collectBlocks("oak_log", 3)', channel: 'whisper', via: 'mcp' }`.
   * @param signal cancels the command as `!stop` would (the action is stopped, and the goal loop
   *   with it); an action not started yet is not run. Queries run to their end.
   * @returns the outcome (a stopped action's says by whom: `... was stopped by Steve.`), the
   *   parser's error, or `dropped` once the agent is shut down. Never rejects.
   */
  async runCommand(message: IncomingMessage, signal?: AbortSignal): Promise<CommandRun> {
    if (this.#detached) return { kind: 'dropped', reason: `${this.name} is shut down` };
    this.journal.add({ kind: 'message', message });
    this.#options.onMessage?.(message);
    this.selfPrompter.busy();
    const parsed = this.#executor.parse(message.text);
    if (parsed.kind === 'error') return { kind: 'error', error: parsed.message };
    if (parsed.kind === 'none') return { kind: 'error', error: `"${message.text.slice(0, 80)}" is not a command; !help lists them.` };
    const { command } = parsed;
    const acts = command.kind === 'action' && !command.alongside;
    if (acts) await this.#interrupt(`interrupted by ${message.from}'s ${command.name}`);
    const why = `cancelled by ${message.from}`;
    if (acts && signal?.aborted) {
      const outcome: CommandOutcome = {
        command: command.name,
        args: { ...parsed.args },
        ok: false,
        code: 'interrupted',
        text: `${command.name} was ${why}.`,
      };
      this.journal.add({ kind: 'outcome', outcome, by: message.from });
      return { kind: 'outcome', outcome };
    }
    // Cancelled while it waits for an urgent action (a mode) to end: stopped as soon as it starts.
    const started =
      acts && signal
        ? this.actions.subscribe((e) => {
            if (e.type === 'start' && e.label === command.name && signal.aborted) void this.stop(why);
          })
        : undefined;
    const cancel = () => {
      if (acts && this.actions.current === command.name) void this.stop(why);
    };
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      this.#remember({ role: 'user', content: `${message.from}: ${message.text}` });
      const outcome = await this.#executor.run(parsed, message.from);
      this.#remember({ role: 'user', content: `SYSTEM: ${outcome.text}` });
      return { kind: 'outcome', outcome };
    } finally {
      signal?.removeEventListener('abort', cancel);
      started?.();
    }
  }

  /** Queues `message` for the model. */
  #queue(message: IncomingMessage, droppable: boolean): Received {
    const job: InboxJob = { label: `${message.from}: ${message.text.slice(0, 60)}`, droppable, run: () => this.#answer(message) };
    if (!this.#inbox.push(job)) return this.#refused(message);
    return { kind: 'chat' };
  }

  /** The inbox had no room: a player is told. */
  #refused(message: IncomingMessage): Received {
    const reason = `too many messages are waiting (${this.#options.inboxLimit ?? INBOX_LIMIT}); try again in a moment`;
    if (fromPlayer(message)) this.#replies.say(message, `I dropped your message: ${reason}.`, { urgent: true });
    return { kind: 'dropped', reason };
  }

  /** Runs a player's command, keeps both in the history and answers (first in line when `now`). */
  async #runForPlayer(message: IncomingMessage, parsed: ParsedCommand, now = false): Promise<void> {
    if (this.#detached) return;
    this.#remember({ role: 'user', content: `${message.from}: ${message.text}` });
    const outcome = await this.#executor.run(parsed, message.from);
    this.#remember({ role: 'user', content: `SYSTEM: ${outcome.text}` });
    this.#replies.say(message, outcome.text, now ? { urgent: true } : {});
  }

  /** Hands a queued message to the model loop. */
  async #answer(message: IncomingMessage): Promise<void> {
    if (this.#detached) return; // queued before the agent was detached
    const prefix = message.channel === 'system' ? 'SYSTEM' : message.channel === 'bot' ? `${message.from} (a bot)` : message.from;
    for (const line of message.lines ?? [message.text]) this.#remember({ role: 'user', content: `${prefix}: ${line}` });
    await this.#loop.think(message);
  }

  /** One cycle of the goal loop, queued like a message: whether the model ran a command, or could not answer. */
  #selfPrompt(text: string): Promise<'command' | 'none' | 'unanswered'> {
    return new Promise((resolve) => {
      const queued = this.#inbox.push({
        label: 'goal loop',
        droppable: true,
        run: async () => {
          const result = await this.#loop.think({ from: 'system', channel: 'system', text }, text);
          resolve(result.unanswered ? 'unanswered' : result.commands > 0 ? 'command' : 'none');
        },
      });
      if (!queued) resolve('none');
    });
  }

  /** A fact about a conversation: kept as data and in the history, without prompting the model. */
  #note(notice: ConversationNotice): void {
    this.journal.add({ kind: 'notice', notice });
    this.#remember({ role: 'user', content: `SYSTEM: ${noticeText(notice)}` });
    this.selfPrompter.idle(); // a conversation may have ended: a paused goal resumes
  }

  /** Queued lines of a conversation partner, due now; an action still running is interrupted. */
  #deliver(partner: string, lines: string[]): void {
    this.#lastPartner = partner;
    if (this.actions.current) void this.actions.stop(`interrupted to answer ${partner}`);
    this.receive({ from: partner, text: lines.join('\n'), channel: 'bot', lines });
  }

  /**
   * The cheap respond-or-ignore decision while acting: a model with its own rule
   * (`respondWhileBusy`) follows it; any other gets the profile's `bot_responder` question.
   */
  async #shouldRespond(partner: string, lines: string[]): Promise<boolean> {
    if (this.model.respondWhileBusy) return this.model.respondWhileBusy(lines);
    try {
      const question = this.#prompts.respondRequest(this.name, this.actions.current, partner, lines);
      return wantsToRespond(await this.#loop.request({ ...question, maxTokens: 5 }, { timeoutMs: RESPOND_DECISION_TIMEOUT_MS }));
    } catch (err) {
      if (!isAbortError(err)) this.#log(`respond-or-ignore failed (answering later): ${(err as Error).message}`);
      return false;
    }
  }

  /**
   * The whole conversing prompt the next model call gets, as one text: the profile's
   * `conversing` template filled with this agent's state, command docs and the examples closest
   * to the recent history. The call itself sends it in two parts (see {@link conversingPrompt}).
   *
   * @param recent the turns examples are matched against (default: the history).
   */
  async systemPrompt(recent: readonly ChatTurn[] = this.#history.turns): Promise<string> {
    return (await this.#prompts.conversing(this.#snapshot(), this.#executor.commands, recent)).text;
  }

  /**
   * The next conversing call's prompt in its two parts: `system`, the static part (the same bytes
   * on every call, so providers cache it), and `live`, the agent's state now, sent after the
   * conversation (see `src/agent/prompt-builder.ts`).
   *
   * @param recent the turns examples are matched against (default: the history).
   */
  async conversingPrompt(recent: readonly ChatTurn[] = this.#history.turns): Promise<ConversingPrompt> {
    const { system, live } = await this.#prompts.conversing(this.#snapshot(), this.#executor.commands, recent);
    return { system, live };
  }

  #snapshot(): AgentSnapshot {
    return {
      name: this.name,
      bot: this.bot,
      memory: this.#history.memory,
      currentAction: this.actions.current,
      goal: { loop: this.selfPrompter.state, loopGoal: this.selfPrompter.goal, taskGoal: this.#task?.goal },
      partner: this.conversations.active,
    };
  }

  /** What the agent is doing now, as plain data. Never throws (fields of a bot not in the world are null). */
  status(): AgentStatus {
    const entity = this.bot.entity as Bot['entity'] | undefined;
    const label = this.actions.current;
    const p = entity?.position;
    let inventory: Record<string, number> = {};
    try {
      for (const item of this.bot.inventory.items()) inventory[item.name] = (inventory[item.name] ?? 0) + item.count;
    } catch {
      inventory = {}; // not in the world: no inventory
    }
    return {
      name: this.name,
      model: this.model.id,
      paused: this.#paused ?? null,
      action: label ? { label, since: this.#actionSince } : null,
      goal: { state: this.selfPrompter.state, text: this.selfPrompter.goal },
      partner: this.conversations.active ?? null,
      inbox: this.#inbox.size,
      health: entity && typeof this.bot.health === 'number' ? this.bot.health : null,
      food: entity && typeof this.bot.food === 'number' ? this.bot.food : null,
      position: p ? { x: round(p.x), y: round(p.y), z: round(p.z) } : null,
      inventory,
      modes: this.modes.toJSON(),
      task: this.#task ? { goal: this.#task.goal ?? null, targets: { ...(this.#task.targets ?? {}) } } : null,
    };
  }

  /**
   * Holds the agent (its bot left the server, say): the running action and model call stop, the
   * goal loop holds (its goal stays, and idleness does not resume it), and messages wait in the
   * inbox. {@link resume} undoes it.
   *
   * @param reason shown in {@link status} and told to the stopped action, e.g. `offline: kicked`.
   */
  async pause(reason: string): Promise<void> {
    if (this.#detached) return;
    this.#paused = reason;
    this.selfPrompter.hold();
    this.#inbox.hold();
    await this.#interrupt(`${this.name} paused: ${reason}`);
  }

  /** Ends a {@link pause}: waiting messages are handled, and the goal loop goes on by itself. */
  resume(): void {
    if (this.#paused === undefined || this.#detached) return;
    this.#paused = undefined;
    this.#inbox.release();
    this.selfPrompter.release();
  }

  /**
   * Runs a parsed command for `by` (a player, a coordinator, a client) as {@link receive} would,
   * without the history or a reply.
   *
   * @returns the command's outcome text; never rejects.
   */
  async execute(parsed: ParsedCommand, by = 'system'): Promise<string> {
    return (await this.#executor.run(parsed, by)).text;
  }

  /**
   * Tells the model that its action was interrupted from outside (a mode, for instance), so it
   * can decide what to do next: the message joins the history as a SYSTEM turn and the model is
   * prompted, in turn with other messages. Call it once the interrupting action has finished
   * (a command in the model's answer would otherwise replace that action).
   *
   * @param message what was interrupted and by what, e.g. `!collectBlocks was interrupted by self_defense (a zombie attacked).`
   */
  notifyInterrupted(message: string): void {
    this.receive({ from: 'system', channel: 'system', text: message });
  }

  // AgentControl, for commands.
  currentAction(): string | undefined {
    return this.actions.current;
  }

  /** Stops the running action, any model loop in progress and the goal loop. */
  async stop(reason: string): Promise<void> {
    this.selfPrompter.stop();
    await this.#interrupt(reason);
  }

  /** Stops the running action and any model loop in progress; the goal loop carries on. */
  async #interrupt(reason: string): Promise<void> {
    this.#loop.interrupt(reason);
    await this.actions.stop(reason);
    this.conversations.wake();
  }

  help(command?: string): string {
    return this.#executor.commands.help(command);
  }

  /** Starts the goal loop with `goal` (empty: the last goal again). */
  setGoal(goal: string): string {
    return this.selfPrompter.start(goal);
  }

  /** Ends the goal loop. */
  endGoal(): string {
    if (this.selfPrompter.state === 'stopped') return 'There was no goal to end.';
    this.selfPrompter.stop();
    return `Stopped working on the goal: ${this.selfPrompter.goal}.`;
  }

  /** `!stfu`: stops the goal loop and any model loop, keeping the current action. */
  silence(): void {
    this.selfPrompter.stop();
    this.#loop.interrupt('silenced');
  }

  /**
   * `!restart`: a fresh start without leaving the server. Stops the action, the goal loop and any
   * model call, forgets the conversation turns (the summarised memory stays) and puts the modes
   * back to the profile's switches.
   */
  async restart(): Promise<void> {
    await this.stop('restarting');
    this.#history.clear();
    this.modes.load({ ...DEFAULT_MODES, ...this.#options.modes });
  }

  /** `!clearChat`: forgets the conversation history (the summarised memory stays). */
  clearHistory(): void {
    this.#history.clear();
  }

  /**
   * What `!newAction` needs: the code model, the coding prompt (with the coding examples closest
   * to `task` and the recent turns), the time limit and recent turns.
   *
   * @param task what the code is to do (the `!newAction` prompt).
   */
  async coding(task = ''): Promise<CodingSupport> {
    const selector = this.#options.codingExamples;
    const k = this.#options.numExamples ?? 2;
    const recent = [...this.#history.turns.slice(-3), { content: task }];
    const examples = selector && k > 0 ? promptExamples(await selector.select(recent, k)) : '';
    const selfPrompt = this.#prompts.goalLine(this.#snapshot().goal);
    return {
      model: this.codeModel,
      systemPrompt: this.#prompts.coding(this.name, this.#history.memory, this.bot, { examples, selfPrompt }),
      timeoutMs: this.#options.codeTimeoutMs ?? 300_000,
      context: this.#history.turns.slice(-6),
      say: (line) => this.outbox.chat(line),
    };
  }

  /** What `!lookAtPlayer` / `!lookAtPosition` need to describe the view; undefined without `allow_vision`. */
  vision(): VisionSupport | undefined {
    if (!this.#options.allowVision) return undefined;
    return {
      model: this.visionModel,
      prompt: (this.#options.visionPrompt ?? DEFAULT_VISION_PROMPT).replaceAll('$NAME', this.name),
      context: this.#history.turns.slice(-6),
    };
  }

  knownBots(): string[] {
    return this.conversations.others();
  }

  async startConversation(partner: string, message: string): Promise<string> {
    this.#lastPartner = partner;
    return this.conversations.start(partner, message);
  }

  endConversation(partner: string): string {
    return this.conversations.end(partner);
  }

  /** Ends all work: stops the action and leaves the server. */
  async shutdown(): Promise<void> {
    await this.detach('shutting down');
    this.bot.quit();
  }

  /**
   * Ends all work but leaves the bot on the server: the modes let go of the bot, the memory is
   * saved, the action, model calls and goal loop stop, the conversations and the chat outbox
   * close. For good: messages received later, and those still queued, are dropped, and no model
   * call is made any more. The bot can then be given a fresh agent (warm worlds,
   * `src/app/warm-world.ts`); listeners the agent's parts added to the bot are removed by
   * whoever owns the bot.
   *
   * @param reason told to the running action, e.g. `the run ended`.
   */
  async detach(reason = 'detached'): Promise<void> {
    this.#detached = true;
    this.#loop.close(reason);
    this.#inbox.clear();
    this.#inbox.release();
    this.modes.dispose();
    // Save first: the goal loop's state is kept as it was, for load_memory.
    await this.memoryStore.close();
    this.#history.close();
    await this.stop(reason);
    this.conversations.close();
    this.outbox.close();
  }

  #remember(turn: ChatTurn): void {
    this.#history.add(turn);
  }

  /** The `saving_memory` request: old memory plus the turns leaving the history → new memory. */
  async #summarise(memory: string, turns: readonly ChatTurn[], signal: AbortSignal): Promise<string> {
    const request = this.#prompts.summaryRequest(this.name, memory, History.format(turns), MAX_MEMORY_CHARS);
    return this.#loop.request({ ...request, maxTokens: 300 }, { timeoutMs: SUMMARY_TIMEOUT_MS, signal, detached: true });
  }

  #log(line: string): void {
    this.#options.log?.(`[${this.name}] ${line}`);
  }
}

/**
 * Whether a queued message may make room for newer work: the agent's own prompts and notices
 * may; a player's, a bot's lines, and the task runner's or a coordinator's orders may not.
 */
function droppable(message: IncomingMessage): boolean {
  return message.channel === 'system' && (message.via === undefined || message.via === 'chat');
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
