/**
 * One Agent per bot: a serial inbox (no two handlers race), a history, one action at a time,
 * and the loop that prompts the model, runs the command in its reply, and feeds the output back.
 */
import type { Bot } from 'mineflayer';
import type { CommandContext, AgentControl } from '../commands/context.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import { parseCommand, type ParseResult } from '../commands/parser.ts';
import type { NameResolver } from '../commands/names.ts';
import { ChatOutbox, type BotMessage, type Conversations } from '../conversation/index.ts';
import type { GameData } from '../game/data.ts';
import { OracleModel } from '../models/oracle.ts';
import type { ChatModel, ChatTurn } from '../models/types.ts';
import { isAbortError } from '../util/abort.ts';
import { ActionRunner } from './action-runner.ts';
import { ModeController } from './modes/index.ts';
import { releaseControls } from './bot.ts';
import { systemPrompt } from './prompt.ts';
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
  persona?: string;
  /** Turns kept in the history. */
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
  readonly history: ChatTurn[] = [];
  /** Commands run, in order (reported in task results). */
  readonly commandLog: string[] = [];
  /** The agent's current goal, shown in its prompt (set by a task or a player). */
  goal: string | undefined;
  /** Item targets of the running task, if any (item name → count). */
  taskTargets: Record<string, number> | undefined;
  readonly model: ChatModel;
  readonly #options: AgentOptions;
  readonly #inbox = new SerialQueue();
  #commands: CommandRegistry<CommandContext>;
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
    this.actions = new ActionRunner({ timeoutMs: options.actionTimeoutMs, release: () => releaseControls(this.bot) });
    this.model = options.model(this);
    this.modes = new ModeController({
      bot: this.bot,
      actions: this.actions,
      profileModes: options.modes,
      onInterrupt: (text) => this.receive({ from: 'system', channel: 'system', text }),
      log: (line) => this.#log(line),
    });
    this.conversations.attach({
      isBusy: () => this.actions.current !== undefined,
      shouldRespond: (partner, lines) => this.#shouldRespond(partner, lines),
      deliver: (partner, lines) => this.#deliver(partner, lines),
      note: (text) => this.#remember({ role: 'user', content: `SYSTEM: ${text}` }),
      remind: (partner, silentMs) => this.receive({
        from: 'system',
        channel: 'system',
        text: `${partner} has not answered for ${Math.round(silentMs / 1000)} s. Remind them, keep waiting, or end with !endConversation("${partner}").`,
      }),
    });
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
    if (this.#isHuman(message) && /^\s*!stop\b/.test(message.text)) {
      void this.stop(`stopped by ${message.from}`).then(() => this.#say(message, 'Stopped.'));
      return;
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

  /** Prompts the model until a reply has no command (or a cap is hit). */
  async #think(source: IncomingMessage): Promise<void> {
    const generation = this.#generation;
    let commands = 0;
    let parseErrors = 0;
    while (generation === this.#generation) {
      if (this.#options.maxCommands >= 0 && commands > this.#options.maxCommands) {
        this.#remember({ role: 'user', content: 'SYSTEM: command limit reached for this message.' });
        return;
      }
      const reply = await this.#ask();
      if (reply === undefined || generation !== this.#generation) return;
      const parsed = parseCommand(reply, this.#commands, this.#options.names);
      if (parsed.kind === 'none') {
        this.#remember({ role: 'assistant', content: reply });
        this.#say(source, reply, this.actions.current !== undefined);
        return;
      }
      this.#remember({ role: 'assistant', content: parsed.kind === 'command' ? `${parsed.before} ${parsed.source}`.trim() : reply });
      this.#say(source, parsed.before, parsed.kind === 'command');
      if (parsed.kind === 'error') {
        this.#remember({ role: 'user', content: `SYSTEM: ${parsed.message}` });
        if (++parseErrors >= MAX_PARSE_ERRORS) return;
        continue;
      }
      commands++;
      const output = await this.execute(parsed);
      this.#remember({ role: 'user', content: `SYSTEM: ${output}` });
    }
  }

  async #ask(): Promise<string | undefined> {
    const wait = this.#lastModelCall + (this.#options.cooldownMs ?? 0) - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.#lastModelCall = Date.now();
    try {
      const reply = await this.model.complete({
        system: systemPrompt({
          name: this.name,
          persona: this.#options.persona ?? '',
          commandDocs: this.#commands.docs(),
          bot: this.bot,
          currentAction: this.actions.current,
          goal: this.goal,
          partner: this.conversations.active,
        }),
        turns: this.history,
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
    const { command, args } = parsed;
    this.commandLog.push(parsed.source);
    this.#log(`runs ${parsed.source}`);
    const context = (signal: AbortSignal): CommandContext => ({ bot: this.bot, data: this.data, signal, agent: this });
    const perform = (signal: AbortSignal) => command.perform(context(signal), args as never);
    if (command.kind === 'query' || command.alongside) {
      try {
        return (await perform(AbortSignal.timeout(QUERY_TIMEOUT_MS))) ?? `${command.name} done.`;
      } catch (err) {
        return `${command.name} failed: ${(err as Error).message}`;
      }
    }
    const result = await this.actions.run(command.name, perform);
    this.#log(result.output);
    this.conversations.wake();
    return result.output;
  }

  // AgentControl, for commands.
  currentAction(): string | undefined {
    return this.actions.current;
  }

  /** Stops the running action and any model loop in progress. */
  async stop(reason: string): Promise<void> {
    this.#generation++;
    this.#modelAbort.abort(reason);
    this.#modelAbort = new AbortController();
    await this.actions.stop(reason);
    this.conversations.wake();
  }

  help(): string {
    return this.#commands.help();
  }

  knownBots(): string[] {
    return this.conversations.others();
  }

  async startConversation(partner: string, message: string): Promise<string> {
    return this.conversations.start(partner, message);
  }

  endConversation(partner: string): string {
    return this.conversations.end(partner);
  }

  /** Ends all work: stops the action and leaves the server. */
  async shutdown(): Promise<void> {
    this.modes.dispose();
    await this.stop('shutting down');
    this.conversations.close();
    this.outbox.close();
    this.bot.quit();
  }

  #isHuman(message: IncomingMessage): boolean {
    return message.channel === 'whisper' || message.channel === 'public';
  }

  #remember(turn: ChatTurn): void {
    this.history.push(turn);
    const excess = this.history.length - this.#options.maxMessages;
    if (excess > 0) this.history.splice(0, excess);
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
