/**
 * One Agent per bot: its state and lifecycle, a serial inbox (no two handlers race) and the
 * control surface commands use ({@link AgentControl}). The parts it composes:
 * - {@link ModelLoop}: prompt the model, run the command in its reply, feed the output back;
 * - {@link PromptBuilder}: every prompt, from the profile's templates;
 * - {@link ReplyRouter}: answers go back the way the message came;
 * - {@link ActionRunner}: one cancellable, time-bounded action at a time;
 * - {@link SelfPrompter}: the goal loop; {@link History}: turns and summarised memory; modes.
 */
import type { Bot } from 'mineflayer';
import type { AgentControl, AgentTask, CodingSupport, CommandContext, VisionSupport } from '../commands/context.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import { parseCommand, type ParseResult } from '../commands/parser.ts';
import type { NameResolver } from '../game/names.ts';
import { ChatOutbox, type Conversations } from '../conversation/index.ts';
import type { GameData } from '../game/data.ts';
import type { ChatModel, ChatTurn } from '../models/types.ts';
import { isAbortError } from '../util/abort.ts';
import { ActionRunner } from './action-runner.ts';
import { DEFAULT_MODES, ModeController } from './modes/index.ts';
import { releaseControls } from './bot.ts';
import { History, MAX_MEMORY_CHARS } from './history.ts';
import type { PlaceStore } from '../game/places.ts';
import { MemoryStore } from './memory-store.ts';
import { ModelLoop, type CommandOutcome, type ParsedCommand } from './model-loop.ts';
import {
  PromptBuilder,
  promptExamples,
  wantsToRespond,
  type AgentProfile,
  type AgentSnapshot,
  type ConversingPrompt,
} from './prompt-builder.ts';
import { fromPlayer, ReplyRouter, type IncomingMessage } from './reply-router.ts';
import { TokenBudget } from './token-budget.ts';
import { SelfPrompter } from './self-prompter.ts';
import { SerialQueue } from './serial-queue.ts';
import type { ExampleSelector } from '../models/prompts/examples.ts';
import type { BotPublisher } from './events.ts';

export type { Channel, IncomingMessage } from './reply-router.ts';
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
  /** Builds the agent's model; called once, with the agent (the offline oracle reads its state). */
  model: (agent: Agent) => ChatModel;
  /** Builds the model that writes `!newAction` code (the profile's `code_model`); default: {@link model}'s. */
  codeModel?: (agent: Agent) => ChatModel | undefined;
  /** Builds the model that describes the bot's view (the profile's `vision_model`); default: {@link model}'s. */
  visionModel?: (agent: Agent) => ChatModel | undefined;
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
  /** Time limit of one run of `!newAction` code (ms; default 300 000). */
  codeTimeoutMs?: number;
  /** `allow_vision`: `!lookAtPlayer` / `!lookAtPosition` render the view and have {@link visionModel} describe it. */
  allowVision?: boolean;
  /** The profile's `image_analysis` prompt (`$NAME` is filled in); default {@link DEFAULT_VISION_PROMPT}. */
  visionPrompt?: string;
  /** Turns kept in the history before the oldest are summarised into the memory. */
  maxMessages: number;
  /** Cap on consecutive command replies for one message; -1 = none. */
  maxCommands: number;
  /** The same command with the same output this many times in a row ends a model loop (default 3). */
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
  /**
   * Commands this agent lacks and how to enable each, e.g.
   * `{ '!newAction': 'set "allow_insecure_coding": true in settings.json' }`: a player or the model
   * naming one is told so instead of getting "unknown command".
   */
  disabledCommands?: Readonly<Record<string, string>>;
  log?: (line: string) => void;
  /** Receives the agent's mode-switch events (see `./events.ts`); default: none. */
  events?: BotPublisher;
  /** The profile's mode switches (over the defaults of `profiles/defaults/_default.json`). */
  modes?: Record<string, boolean>;
}

/** Bound on query commands, which only read state (ms). */
const QUERY_TIMEOUT_MS = 10_000;

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

export class Agent implements AgentControl {
  readonly name: string;
  readonly bot: Bot;
  readonly data: GameData;
  readonly actions: ActionRunner;
  /** The bot's modes (reflexes that act without the model). */
  readonly modes: ModeController;
  readonly conversations: Conversations;
  /** Everything this agent types into chat goes through here. */
  readonly outbox: ChatOutbox;
  /** Commands run, in order (reported in task results). */
  readonly commandLog: string[] = [];
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
  readonly #inbox = new SerialQueue(() => this.selfPrompter.idle());
  readonly #history: History;
  readonly #prompts: PromptBuilder;
  readonly #replies: ReplyRouter;
  readonly #loop: ModelLoop;
  readonly #budget: TokenBudget;
  #commands: CommandRegistry<CommandContext>;
  #task: Readonly<AgentTask> | undefined;
  #lastPartner: string | undefined;
  /** Set by {@link detach}: the agent takes no message and runs nothing any more. */
  #detached = false;

  constructor(options: AgentOptions) {
    this.#options = options;
    this.bot = options.bot;
    this.name = options.bot.username;
    this.data = options.data;
    this.#commands = options.commands;
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
    });
    this.#budget = new TokenBudget(options.maxTokensPerHour ?? 0);
    this.actions = new ActionRunner({
      timeoutMs: options.actionTimeoutMs,
      release: () => {
        releaseControls(this.bot);
        queueMicrotask(() => this.selfPrompter.idle());
      },
    });
    this.model = options.model(this);
    this.codeModel = options.codeModel?.(this) ?? this.model;
    this.visionModel = options.visionModel?.(this) ?? this.model;
    this.#loop = new ModelLoop(
      {
        model: this.model,
        turns: () => this.#history.turns,
        remember: (turn) => this.#remember(turn),
        parse: (text) => this.#parse(text),
        run: (parsed) => this.#run(parsed),
        say: (source, text, busy) => this.#replies.say(source, text, { busy }),
        announce: (text) => this.#replies.announce(text),
        prompt: () => this.conversingPrompt(),
        tools: () => this.#prompts.tools(this.#commands),
        acting: () => this.actions.current !== undefined,
        message: (key, values) => this.#prompts.message(key, values),
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
    this.memoryStore = options.memory ?? new MemoryStore();
    this.#history = new History({
      maxMessages: options.maxMessages,
      summarise: this.model.summarises === false ? undefined : (memory, turns, signal) => this.#summarise(memory, turns, signal),
      changed: () => this.memoryStore.changed(),
      log: (line) => this.#log(line),
    });
    this.selfPrompter = new SelfPrompter(
      {
        isIdle: () => this.#inbox.size === 0 && this.actions.current === undefined,
        inConversation: () => this.conversations.active !== undefined,
        prompt: (text) => this.#inbox.push(async () => (await this.#loop.think({ from: 'system', channel: 'system', text }, text)) > 0),
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
      note: (text) => {
        this.#remember({ role: 'user', content: `SYSTEM: ${text}` });
        this.selfPrompter.idle(); // a conversation may have ended: a paused goal resumes
      },
      remind: (partner, silentMs) =>
        this.receive({
          from: 'system',
          channel: 'system',
          text: this.#prompts.message('partner_silent', { PARTNER: partner, SECONDS: String(Math.round(silentMs / 1000)) }),
        }),
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
    return this.#commands;
  }

  /** This agent's part of the running task, if any (see {@link setTask}). */
  get task(): Readonly<AgentTask> | undefined {
    return this.#task;
  }

  /**
   * Gives the agent its part of a task in one call: the goal its prompt shows (while no goal loop
   * runs), item targets, a blueprint and the commands it may not use. Replaces any earlier task.
   *
   * @example agent.setTask({ goal: 'Craft 1 purple_banner.', targets: { purple_banner: 1 }, blockedActions: ['!getCraftingPlan'] });
   */
  setTask(task: AgentTask): void {
    this.#task = { ...task, blockedActions: task.blockedActions && [...task.blockedActions] };
    this.#commands = task.blockedActions?.length ? this.#options.commands.without(task.blockedActions) : this.#options.commands;
    this.#keepStructures(task.blueprint !== undefined);
  }

  /** Forgets the task: no task goal, targets or blueprint, and every command of the agent again. */
  clearTask(): void {
    this.#task = undefined;
    this.#commands = this.#options.commands;
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

  /** Resolves once every queued message has been handled. */
  async idle(): Promise<void> {
    await this.#inbox.drained();
  }

  /**
   * Accepts a message. A player's command that does not move the bot (a query such as `!stats`,
   * or a control command such as `!stop`, `!stfu`, `!restart`, `!endGoal`) runs at once, whatever
   * is running, and so does the answer to a malformed or disabled one; a player's action command
   * interrupts the running action and model call and runs next. Everything else is handled in
   * arrival order.
   */
  receive(message: IncomingMessage): void {
    if (this.#detached) return;
    this.selfPrompter.busy();
    if (fromPlayer(message)) {
      this.#budget.raise(); // a player wants the bot to go on
      const parsed = this.#parse(message.text);
      if (parsed.kind === 'command' && parsed.command.name === '!stop') {
        // The action's output says who stopped it; the model is not prompted about it.
        void this.stop(`stopped by ${message.from}`).then(() => this.#replies.say(message, 'Stopped.', { urgent: true }));
        return;
      }
      if (parsed.kind === 'command' && (parsed.command.kind === 'query' || parsed.command.alongside)) {
        void this.#answerNow(message, parsed).catch((err) => this.#log(`error answering ${parsed.source}: ${(err as Error).stack}`));
        return;
      }
      if (parsed.kind === 'error') {
        this.#replies.say(message, parsed.message, { urgent: true });
        return;
      }
      if (parsed.kind === 'command' && (this.actions.current || this.#inbox.size > 0)) {
        // A player's action command replaces the running action (and model call) now, not after it.
        void this.#interrupt(`interrupted by ${message.from}'s ${parsed.command.name}`);
      }
    }
    void this.#inbox.push(() => this.#handle(message)).catch((err) => this.#log(`error handling a message: ${(err as Error).stack}`));
  }

  /** Runs a player's query or control command outside the inbox and answers first in line. */
  async #answerNow(message: IncomingMessage, parsed: ParsedCommand): Promise<void> {
    this.#remember({ role: 'user', content: `${message.from}: ${message.text}` });
    const output = await this.execute(parsed);
    this.#remember({ role: 'user', content: `SYSTEM: ${output}` });
    this.#replies.say(message, output, { urgent: true });
  }

  /**
   * Parses `text` against this agent's commands; a disabled command (see
   * {@link AgentOptions.disabledCommands}, or blocked by the task) comes back as an error that
   * says how to enable it.
   */
  #parse(text: string): ParseResult<CommandContext> {
    const parsed = parseCommand(text, this.#commands, this.#options.names);
    if (parsed.kind === 'command') return parsed;
    for (const [, word] of text.matchAll(/(?:^|[^\w!])(![A-Za-z]\w*)/g)) {
      const how = this.#disabled(word!);
      if (how) {
        return {
          kind: 'error',
          commandName: word,
          before: parsed.kind === 'error' ? parsed.before : text.slice(0, text.indexOf(word!)).trim(),
          message: this.#prompts.message('command_disabled', { NAME: this.name, COMMAND: word!, HOW: how }),
        };
      }
    }
    return parsed;
  }

  /** How to enable `name` when this agent lacks it; undefined for a command it has or that does not exist. */
  #disabled(name: string): string | undefined {
    const lower = name.toLowerCase();
    if (this.#commands.list().some((c) => c.name.toLowerCase() === lower)) return undefined;
    const configured = Object.entries(this.#options.disabledCommands ?? {}).find(([n]) => n.toLowerCase() === lower);
    if (configured) return configured[1];
    const blocked = (n: string) => this.#task?.blockedActions?.some((b) => `!${b.replace(/^!/, '')}`.toLowerCase() === n.toLowerCase());
    if (blocked(lower)) return 'the running task blocks it';
    const variantOf = this.#options.commands.getIgnoringCase(name)?.variantOf;
    if (variantOf && blocked(variantOf)) return `the running task blocks ${variantOf}`;
    return undefined;
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

  async #handle(message: IncomingMessage): Promise<void> {
    if (this.#detached) return; // queued before the agent was detached
    if (fromPlayer(message)) {
      const parsed = this.#parse(message.text);
      if (parsed.kind === 'command') {
        this.#remember({ role: 'user', content: `${message.from}: ${message.text}` });
        const output = await this.execute(parsed);
        this.#remember({ role: 'user', content: `SYSTEM: ${output}` });
        this.#replies.say(message, output);
        return;
      }
    }
    const prefix = message.channel === 'system' ? 'SYSTEM' : message.channel === 'bot' ? `${message.from} (a bot)` : message.from;
    for (const line of message.lines ?? [message.text]) this.#remember({ role: 'user', content: `${prefix}: ${line}` });
    await this.#loop.think(message);
  }

  /**
   * The whole conversing prompt the next model call gets, as one text: the profile's
   * `conversing` template filled with this agent's state, command docs and the examples closest
   * to the recent history. The call itself sends it in two parts (see {@link conversingPrompt}).
   *
   * @param recent the turns examples are matched against (default: the history).
   */
  async systemPrompt(recent: readonly ChatTurn[] = this.#history.turns): Promise<string> {
    return (await this.#prompts.conversing(this.#snapshot(), this.#commands, recent)).text;
  }

  /**
   * The next conversing call's prompt in its two parts: `system`, the static part (the same bytes
   * on every call, so providers cache it), and `live`, the agent's state now, sent after the
   * conversation (see `src/agent/prompt-builder.ts`).
   *
   * @param recent the turns examples are matched against (default: the history).
   */
  async conversingPrompt(recent: readonly ChatTurn[] = this.#history.turns): Promise<ConversingPrompt> {
    const { system, live } = await this.#prompts.conversing(this.#snapshot(), this.#commands, recent);
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

  /**
   * Runs a parsed command. Queries and commands that do not move the bot run at once; actions
   * run through the action runner (cancellable, time-bounded).
   *
   * @returns the command's output for the model or the player; never rejects.
   */
  async execute(parsed: ParsedCommand): Promise<string> {
    return (await this.#run(parsed)).output;
  }

  async #run(parsed: ParsedCommand): Promise<CommandOutcome> {
    const { command, args } = parsed;
    this.commandLog.push(parsed.source);
    this.#log(`runs ${parsed.source}`);
    const context = (signal: AbortSignal): CommandContext => ({ bot: this.bot, data: this.data, signal, agent: this });
    const perform = (signal: AbortSignal) => command.perform(context(signal), args);
    if (command.kind === 'query' || command.alongside) {
      try {
        return { output: (await perform(AbortSignal.timeout(QUERY_TIMEOUT_MS))) ?? `${command.name} done.`, interrupted: false };
      } catch (err) {
        return { output: `${command.name} failed: ${(err as Error).message}`, interrupted: false };
      }
    }
    const bound = command.timeBound?.(args);
    const result = await this.actions.run(
      command.name,
      perform,
      bound === undefined ? {} : { timeoutMs: bound === 'until stopped' ? Infinity : bound },
    );
    this.#log(result.output);
    this.conversations.wake();
    return { output: result.output, interrupted: result.interrupted };
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
    return this.#commands.help(command);
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
