/**
 * One Agent per bot: a serial inbox (no two handlers race), a history, one action at a time,
 * and the loop that prompts the model, runs the command in its reply, and feeds the output back.
 */
import type { Bot } from 'mineflayer';
import type { CommandContext, AgentControl, CodingSupport } from '../commands/context.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import { parseCommand, type ParseResult } from '../commands/parser.ts';
import type { NameResolver } from '../game/names.ts';
import { ChatOutbox, type BotMessage, type Conversations } from '../conversation/index.ts';
import type { GameData } from '../game/data.ts';
import { OracleModel } from '../models/oracle.ts';
import type { ExampleSelector } from '../models/prompts/examples.ts';
import { fillTemplate } from '../models/prompts/template.ts';
import { commandTools } from '../commands/tools.ts';
import type { ChatModel, ChatTurn, ToolSpec } from '../models/types.ts';
import type { Blueprint } from '../tasks/schema.ts';
import { isAbortError } from '../util/abort.ts';
import { ActionRunner } from './action-runner.ts';
import { DEFAULT_MODES, ModeController } from './modes/index.ts';
import { releaseControls } from './bot.ts';
import { History, MAX_MEMORY_CHARS } from './history.ts';
import type { PlaceStore } from '../game/places.ts';
import { MemoryStore } from './memory-store.ts';
import type { MergedProfile } from '../settings/profiles.ts';
import { conversingPrompt, inventoryLine, promptCommandDocs, promptExamples, statsLine } from './prompt.ts';
import { SelfPrompter } from './self-prompter.ts';
import { SerialQueue } from './serial-queue.ts';

/** Where a message came from, and so where the answer goes. */
export type Channel = 'whisper' | 'public' | 'bot' | 'system';

export interface IncomingMessage {
  from: string;
  text: string;
  channel: Channel;
  /** Bot messages answered together: each line is kept as its own turn. */
  lines?: string[];
}

/** The parts of a merged profile the agent uses (prompt templates, persona, tool calling). */
export type AgentProfile = Pick<MergedProfile, 'persona' | 'conversing' | 'coding' | 'saving_memory' | 'tool_calling'>;

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
  /** Turns kept in the history before the oldest are summarised into the memory. */
  maxMessages: number;
  /** Cap on consecutive command replies for one message; -1 = none. */
  maxCommands: number;
  /** Time bound of one action (ms). */
  actionTimeoutMs: number;
  /** Minimum spacing between model calls (ms). */
  cooldownMs?: number;
  log?: (line: string) => void;
  /** The profile's mode switches (over the defaults of `profiles/defaults/_default.json`). */
  modes?: Record<string, boolean>;
}

/** Bound on query commands, which only read state (ms). */
const QUERY_TIMEOUT_MS = 10_000;
/** Bound on the respond-or-ignore question asked while acting (ms). */
const RESPOND_DECISION_TIMEOUT_MS = 15_000;
/** Malformed commands in a row after which the loop gives up on this message. */
const MAX_PARSE_ERRORS = 3;

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
  /** Item targets of the running task, if any (item name → count). */
  taskTargets: Record<string, number> | undefined;
  /** The construction blueprint of the running task, if any (read by `!checkBlueprint`...). */
  blueprint: Blueprint | undefined;
  readonly model: ChatModel;
  readonly #options: AgentOptions;
  readonly #inbox = new SerialQueue(() => this.selfPrompter.idle());
  readonly #history: History;
  #commands: CommandRegistry<CommandContext>;
  /** Prompt docs and tools of the current registry, computed once per registry. */
  #docs: { registry: CommandRegistry<CommandContext>; text: string; tools: ToolSpec[] | undefined } | undefined;
  #taskGoal: string | undefined;
  #lastPartner: string | undefined;
  #warnedTemplate = false;
  /** Bumped by stop(): model loops started before it end at their next step. */
  #generation = 0;
  #modelAbort = new AbortController();
  #lastModelCall = 0;

  constructor(options: AgentOptions) {
    this.#options = options;
    this.bot = options.bot;
    this.name = options.bot.username;
    this.data = options.data;
    this.#commands = options.commands;
    this.conversations = options.conversations;
    this.outbox = options.outbox ?? new ChatOutbox((line) => this.bot.chat(line));
    this.actions = new ActionRunner({
      timeoutMs: options.actionTimeoutMs,
      release: () => {
        releaseControls(this.bot);
        queueMicrotask(() => this.selfPrompter.idle());
      },
    });
    this.model = options.model(this);
    this.memoryStore = options.memory ?? new MemoryStore();
    this.#history = new History({
      maxMessages: options.maxMessages,
      summarise: this.model instanceof OracleModel ? undefined : (memory, turns, signal) => this.#summarise(memory, turns, signal),
      changed: () => this.memoryStore.changed(),
      log: (line) => this.#log(line),
    });
    this.selfPrompter = new SelfPrompter({
      isIdle: () => this.#inbox.size === 0 && this.actions.current === undefined,
      inConversation: () => this.conversations.active !== undefined,
      prompt: (text) => this.#inbox.push(async () => (await this.#think({ from: 'system', channel: 'system', text }, text)) > 0),
      announce: (text) => { this.#log(text); this.outbox.chat(text); },
      changed: () => this.memoryStore.changed(),
    }, { idleMs: options.goalIdleMs });
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
      changed: (switches) => this.memoryStore.setModes(switches),
      log: (line) => this.#log(line),
    });
    if (this.memoryStore.modes) this.modes.load(this.memoryStore.modes);
    this.conversations.attach({
      isBusy: () => this.actions.current !== undefined,
      shouldRespond: (partner, lines) => this.#shouldRespond(partner, lines),
      deliver: (partner, lines) => this.#deliver(partner, lines),
      note: (text) => {
        this.#remember({ role: 'user', content: `SYSTEM: ${text}` });
        this.selfPrompter.idle(); // a conversation may have ended: a paused goal resumes
      },
      remind: (partner, silentMs) => this.receive({
        from: 'system',
        channel: 'system',
        text: `${partner} has not answered for ${Math.round(silentMs / 1000)} s. Remind them, keep waiting, or end with !endConversation("${partner}").`,
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

  /** The goal shown in the prompt: the goal loop's while it runs, else a task's (settable). */
  get goal(): string | undefined {
    return this.selfPrompter.state !== 'stopped' ? this.selfPrompter.goal : this.#taskGoal;
  }

  set goal(goal: string | undefined) {
    this.#taskGoal = goal;
  }

  /** Named places, persisted in the memory file. */
  get places(): PlaceStore {
    return this.memoryStore.places;
  }

  /** This agent's command registry. */
  get commands(): CommandRegistry<CommandContext> {
    return this.#commands;
  }

  /** Removes commands for this agent (a task's `blocked_actions`). */
  block(names: readonly string[]): void {
    this.#commands = this.#commands.without(names);
  }

  /** Resolves once every queued message has been handled. */
  async idle(): Promise<void> {
    await this.#inbox.drained();
  }

  /**
   * Accepts a message. A player's `!stop` acts at once; everything else is handled in arrival order.
   */
  receive(message: IncomingMessage): void {
    this.selfPrompter.busy();
    if (this.#isHuman(message) && /^\s*!stop\b/.test(message.text)) {
      void this.stop(`stopped by ${message.from}`).then(() => this.#say(message, 'Stopped.'));
      return;
    }
    if (this.#isHuman(message) && this.actions.current) {
      // A player's action command replaces the running action now, not after it.
      const parsed = parseCommand(message.text, this.#commands, this.#options.names);
      if (parsed.kind === 'command' && parsed.command.kind === 'action' && !parsed.command.alongside) {
        void this.#interrupt(`interrupted by ${message.from}'s ${parsed.command.name}`);
      }
    }
    void this.#inbox.push(() => this.#handle(message)).catch((err) => this.#log(`error handling a message: ${(err as Error).stack}`));
  }

  /**
   * A message from a verified bot of ours. Transports normally hand messages to the agent's
   * {@link Conversations} themselves; this is the same entry for callers holding a message.
   */
  receiveFromBot(message: BotMessage): void {
    this.conversations.receive(message);
  }

  /** Queued lines of a conversation partner, due now; an action still running is interrupted. */
  #deliver(partner: string, lines: string[]): void {
    this.#lastPartner = partner;
    if (this.actions.current) void this.actions.stop(`interrupted to answer ${partner}`);
    this.receive({ from: partner, text: lines.join('\n'), channel: 'bot', lines });
  }

  /**
   * The cheap respond-or-ignore decision while acting: the oracle follows its rule; a model gets
   * a tiny yes/no prompt.
   */
  async #shouldRespond(partner: string, lines: string[]): Promise<boolean> {
    if (this.model instanceof OracleModel) return this.model.respondWhileBusy(lines);
    try {
      const reply = await this.model.complete({
        system: `You are ${this.name}, a Minecraft bot, busy with ${this.actions.current ?? 'an action'}. Answer with one word: yes or no.`,
        turns: [{ role: 'user', content: `${partner} (a bot) wrote:\n${lines.join('\n')}\nShould you stop what you are doing to answer right now?` }],
        maxTokens: 5,
        signal: AbortSignal.any([this.#modelAbort.signal, AbortSignal.timeout(RESPOND_DECISION_TIMEOUT_MS)]),
      });
      return /^\W*yes\b/i.test(reply.trim());
    } catch (err) {
      if (!isAbortError(err)) this.#log(`respond-or-ignore failed (answering later): ${(err as Error).message}`);
      return false;
    }
  }

  async #handle(message: IncomingMessage): Promise<void> {
    if (this.#isHuman(message)) {
      const parsed = parseCommand(message.text, this.#commands, this.#options.names);
      if (parsed.kind === 'command') {
        this.#remember({ role: 'user', content: `${message.from}: ${message.text}` });
        const output = await this.execute(parsed);
        this.#remember({ role: 'user', content: `SYSTEM: ${output}` });
        this.#say(message, output);
        return;
      }
      if (parsed.kind === 'error' && message.text.trimStart().startsWith('!')) {
        this.#say(message, parsed.message);
        return;
      }
    }
    const prefix = message.channel === 'system' ? 'SYSTEM' : message.channel === 'bot' ? `${message.from} (a bot)` : message.from;
    for (const line of message.lines ?? [message.text]) this.#remember({ role: 'user', content: `${prefix}: ${line}` });
    await this.#think(message);
  }

  /**
   * Prompts the model until a reply has no command (or a cap is hit). An action interrupted from
   * outside (a player, a mode, a conversation partner) ends the loop: whoever interrupted decides
   * what happens next.
   *
   * @param nudge a self-prompt shown as the last turn of the first request only (not kept).
   * @returns how many commands ran.
   */
  async #think(source: IncomingMessage, nudge?: string): Promise<number> {
    const generation = this.#generation;
    let commands = 0;
    let parseErrors = 0;
    while (generation === this.#generation) {
      if (this.#options.maxCommands >= 0 && commands > this.#options.maxCommands) {
        this.#remember({ role: 'user', content: 'SYSTEM: command limit reached for this message.' });
        return commands;
      }
      const reply = await this.#ask(nudge);
      nudge = undefined;
      if (reply === undefined || generation !== this.#generation) return commands;
      const parsed = parseCommand(reply, this.#commands, this.#options.names);
      if (parsed.kind === 'none') {
        this.#remember({ role: 'assistant', content: reply });
        this.#say(source, reply, this.actions.current !== undefined);
        return commands;
      }
      this.#remember({ role: 'assistant', content: parsed.kind === 'command' ? `${parsed.before} ${parsed.source}`.trim() : reply });
      this.#say(source, parsed.before, parsed.kind === 'command');
      if (parsed.kind === 'error') {
        this.#remember({ role: 'user', content: `SYSTEM: ${parsed.message}` });
        if (++parseErrors >= MAX_PARSE_ERRORS) return commands;
        continue;
      }
      commands++;
      const { output, interrupted } = await this.#execute(parsed);
      this.#remember({ role: 'user', content: `SYSTEM: ${output}` });
      if (interrupted) return commands;
    }
    return commands;
  }

  /**
   * The system prompt the next model call gets: the profile's `conversing` template filled with
   * this agent's state, command docs and the examples closest to the recent history.
   *
   * @param recent the turns examples are matched against (default: the history).
   */
  async systemPrompt(recent: readonly ChatTurn[] = this.#history.turns): Promise<string> {
    const examples = this.#options.examples
      ? promptExamples(await this.#options.examples.select(recent, this.#options.numExamples ?? 2))
      : '';
    const { text, unknown } = conversingPrompt(this.#options.profile.conversing, {
      name: this.name,
      persona: this.#options.profile.persona,
      commandDocs: this.#commandDocs().text,
      examples,
      memory: this.#history.memory,
      bot: this.bot,
      currentAction: this.actions.current,
      selfPrompt: this.#selfPromptLine(),
      partner: this.conversations.active,
    });
    if (unknown.length && !this.#warnedTemplate) {
      this.#warnedTemplate = true;
      this.#log(`conversing template: no value for ${unknown.map((v) => `$${v}`).join(', ')}`);
    }
    return text;
  }

  #selfPromptLine(): string {
    const state = this.selfPrompter.state;
    if (state !== 'stopped') return `Your goal${state === 'paused' ? ' (paused while you talk)' : ''}: ${this.selfPrompter.goal}. Work on it with commands; use !endGoal when it is done.`;
    return this.#taskGoal ? `Your goal: ${this.#taskGoal}` : '';
  }

  /** Command docs for the prompt and, with native tool calling, the tools; cached per registry. */
  #commandDocs(): { text: string; tools: ToolSpec[] | undefined } {
    if (this.#docs?.registry !== this.#commands) {
      const list = this.#commands.list();
      const native = this.#options.profile.tool_calling === 'native';
      this.#docs = {
        registry: this.#commands,
        text: native ? 'Your commands are given to you as tools: call one to act.' : promptCommandDocs(list),
        tools: native ? commandTools(list) : undefined,
      };
    }
    return this.#docs;
  }

  async #ask(nudge?: string): Promise<string | undefined> {
    const wait = this.#lastModelCall + (this.#options.cooldownMs ?? 0) - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.#lastModelCall = Date.now();
    try {
      const turns = [...this.#history.turns];
      if (nudge) turns.push({ role: 'user', content: `SYSTEM: ${nudge}` });
      const reply = await this.model.complete({
        system: await this.systemPrompt(),
        turns,
        tools: this.#commandDocs().tools,
        signal: this.#modelAbort.signal,
      });
      return reply.trim();
    } catch (err) {
      if (!isAbortError(err)) this.#log(`model error (the bot keeps running): ${(err as Error).message}`);
      return undefined;
    }
  }

  /**
   * Runs a parsed command. Queries and commands that do not move the bot run at once; actions
   * run through the action runner (cancellable, time-bounded).
   *
   * @returns the command's output for the model or the player; never rejects.
   */
  async execute(parsed: Extract<ParseResult<CommandContext>, { kind: 'command' }>): Promise<string> {
    return (await this.#execute(parsed)).output;
  }

  async #execute(parsed: Extract<ParseResult<CommandContext>, { kind: 'command' }>): Promise<{ output: string; interrupted: boolean }> {
    const { command, args } = parsed;
    this.commandLog.push(parsed.source);
    this.#log(`runs ${parsed.source}`);
    const context = (signal: AbortSignal): CommandContext => ({ bot: this.bot, data: this.data, signal, agent: this });
    const perform = (signal: AbortSignal) => command.perform(context(signal), args as never);
    if (command.kind === 'query' || command.alongside) {
      try {
        return { output: (await perform(AbortSignal.timeout(QUERY_TIMEOUT_MS))) ?? `${command.name} done.`, interrupted: false };
      } catch (err) {
        return { output: `${command.name} failed: ${(err as Error).message}`, interrupted: false };
      }
    }
    const result = await this.actions.run(command.name, perform);
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
    this.#generation++;
    this.#modelAbort.abort(reason);
    this.#modelAbort = new AbortController();
    await this.actions.stop(reason);
    this.conversations.wake();
  }

  help(): string {
    return this.#commands.help();
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
    this.#generation++;
    this.#modelAbort.abort('silenced');
    this.#modelAbort = new AbortController();
  }

  /**
   * `!restart`: a fresh start without leaving the server. Stops the action, the goal loop and any
   * model call, forgets the conversation turns (the summarised memory stays) and puts the modes
   * back to the profile's switches.
   */
  async restart(): Promise<void> {
    this.selfPrompter.stop();
    await this.stop('restarting');
    this.#history.clear();
    this.modes.load({ ...DEFAULT_MODES, ...this.#options.modes });
  }

  /** `!clearChat`: forgets the conversation history (the summarised memory stays). */
  clearHistory(): void {
    this.#history.clear();
  }

  /** What `!newAction` needs: the model, the coding prompt, the time limit and recent turns. */
  coding(): CodingSupport {
    const { text } = fillTemplate(this.#options.profile.coding, {
      NAME: this.name,
      MEMORY: this.#history.memory || 'none',
      STATS: statsLine(this.bot),
      INVENTORY: inventoryLine(this.bot),
      EXAMPLES: '',
    });
    return {
      model: this.model,
      systemPrompt: text.replace(/\n{2,}/g, '\n'),
      timeoutMs: this.#options.codeTimeoutMs ?? 300_000,
      context: this.#history.turns.slice(-6),
      say: (line) => this.outbox.chat(line),
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
    this.modes.dispose();
    // Save first: the goal loop's state is kept as it was, for load_memory.
    await this.memoryStore.close();
    this.#history.close();
    await this.stop('shutting down');
    this.conversations.close();
    this.outbox.close();
    this.bot.quit();
  }

  #isHuman(message: IncomingMessage): boolean {
    return message.channel === 'whisper' || message.channel === 'public';
  }

  #remember(turn: ChatTurn): void {
    this.#history.add(turn);
  }

  /** The `saving_memory` request: old memory plus the turns leaving the history → new memory. */
  async #summarise(memory: string, turns: readonly ChatTurn[], signal: AbortSignal): Promise<string> {
    const { text } = fillTemplate(this.#options.profile.saving_memory, {
      NAME: this.name,
      MEMORY: memory || 'none',
      TO_SUMMARIZE: History.format(turns),
    });
    return this.model.complete({
      system: text,
      turns: [{ role: 'user', content: `Reply with the updated memory only, at most ${MAX_MEMORY_CHARS} characters.` }],
      maxTokens: 300,
      signal: AbortSignal.any([signal, AbortSignal.timeout(120_000)]),
    });
  }

  /**
   * Speaks `text` back the way the message being handled came: to a bot through the
   * conversation, to a player by whisper or in public chat.
   *
   * @param busy the agent is acting (tells a bot partner to wait longer).
   */
  #say(source: IncomingMessage, text: string, busy = false): void {
    text = text.trim();
    if (!text) return;
    if (source.channel === 'bot') {
      if (!this.conversations.say(source.from, text, busy)) this.#log(`not sent (no conversation with ${source.from}): ${text}`);
      return;
    }
    if (source.channel === 'system') {
      const partner = this.conversations.active;
      if (partner) this.conversations.say(partner, text, busy);
      else this.outbox.chat(text);
      return;
    }
    if (source.channel === 'whisper') this.outbox.whisper(source.from, text);
    else this.outbox.chat(text);
  }

  #log(line: string): void {
    this.#options.log?.(`[${this.name}] ${line}`);
  }
}

/** Splits `text` into pieces of at most `size` characters, at spaces where possible. */
export function chunk(text: string, size: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    let cut = rest.lastIndexOf(' ', size);
    if (cut < size / 2) cut = size;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}
