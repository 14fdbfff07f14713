/**
 * Parses and runs an agent's commands, whoever asks (its model, a player, the dashboard, a
 * coordinator, an MCP client): one parse against the agent's current commands, one way to run.
 * Queries and commands that do not occupy the bot (`alongside`) run at once, time-bounded;
 * actions run through the {@link ActionRunner} (one at a time, cancellable, time-bounded). Every
 * run is a typed {@link CommandOutcome}, kept in the journal and the (bounded) command log.
 */
import type { Bot } from 'mineflayer';
import type { AgentControl, AgentTask, CommandContext } from '../commands/context.ts';
import type { Journal } from '../commands/journal.ts';
import { parseCommand, type ParseResult } from '../commands/parser.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import type { GameData } from '../game/data.ts';
import type { NameResolver } from '../game/names.ts';
import { outcomeOfError, type CommandOutcome, type Outcome } from '../skills/outcome.ts';
import type { ActionRunner } from './action-runner.ts';

/** A command the parser accepted. */
export type ParsedCommand = Extract<ParseResult<CommandContext>, { kind: 'command' }>;

/** Bound on query commands, which only read state (ms). */
export const QUERY_TIMEOUT_MS = 10_000;

/** Commands kept in {@link CommandExecutor.log}. */
export const COMMAND_LOG_LIMIT = 1_000;

/** What a {@link CommandExecutor} works with. */
export interface CommandExecutorOptions {
  bot: Bot;
  data: GameData;
  names: NameResolver;
  /** Every command the agent has (its task may narrow them, see {@link CommandExecutor.setTask}). */
  commands: CommandRegistry<CommandContext>;
  /** What commands may ask of the agent (goal, conversations, modes...). */
  agent: AgentControl;
  actions: ActionRunner;
  journal: Journal;
  /**
   * Commands the agent lacks by configuration and how to enable each, e.g.
   * `{ '!newAction': 'set "allow_insecure_coding": true in settings.json' }`.
   */
  disabled?: Readonly<Record<string, string>>;
  /** The text of the disabled-command answer (the profile's `command_disabled`), from the command and how to enable it. */
  disabledText(command: string, how: string): string;
  /** An action ended (e.g. held conversation lines may be answered now). */
  afterAction?(): void;
  log?(line: string): void;
}

/**
 * Parses and runs one agent's commands.
 *
 * @example
 * const parsed = executor.parse('!collectBlocks("oak_log", 3)');
 * if (parsed.kind === 'command') {
 *   const outcome = await executor.run(parsed, 'Steve');
 *   if (outcome.code === 'not_found') ...; // never read outcome.text to decide
 * }
 */
export class CommandExecutor {
  readonly #options: CommandExecutorOptions;
  #commands: CommandRegistry<CommandContext>;
  #blocked: readonly string[] = [];
  /** Commands run, oldest first, as written (the last {@link COMMAND_LOG_LIMIT}). */
  readonly log: string[] = [];

  constructor(options: CommandExecutorOptions) {
    this.#options = options;
    this.#commands = options.commands;
  }

  /** The agent's commands now (without the running task's blocked actions). */
  get commands(): CommandRegistry<CommandContext> {
    return this.#commands;
  }

  /** Narrows the commands to those a task allows (see `AgentTask.blockedActions`); undefined: all again. */
  setTask(task: Pick<AgentTask, 'blockedActions'> | undefined): void {
    this.#blocked = task?.blockedActions ? [...task.blockedActions] : [];
    this.#commands = this.#blocked.length ? this.#options.commands.without(this.#blocked) : this.#options.commands;
  }

  /**
   * Parses `text` against the current commands. A disabled command (by configuration, or blocked
   * by the task) comes back as an error that says how to enable it.
   */
  parse(text: string): ParseResult<CommandContext> {
    const parsed = parseCommand(text, this.#commands, this.#options.names);
    if (parsed.kind === 'command') return parsed;
    for (const [, word] of text.matchAll(/(?:^|[^\w!])(![A-Za-z]\w*)/g)) {
      const how = word && this.#disabled(word);
      if (how) {
        return {
          kind: 'error',
          commandName: word,
          before: parsed.kind === 'error' ? parsed.before : text.slice(0, text.indexOf(word)).trim(),
          message: this.#options.disabledText(word, how),
        };
      }
    }
    return parsed;
  }

  /**
   * Runs a parsed command. Queries and `alongside` commands run at once (bounded by
   * {@link QUERY_TIMEOUT_MS}); actions through the action runner.
   *
   * @param by who asked: `model`, or the player's (or client's) name; kept in the journal.
   * @returns the typed outcome; never rejects.
   */
  async run(parsed: ParsedCommand, by: string): Promise<CommandOutcome> {
    const { command, args } = parsed;
    this.log.push(parsed.source);
    if (this.log.length > COMMAND_LOG_LIMIT) this.log.splice(0, this.log.length - COMMAND_LOG_LIMIT);
    this.#options.log?.(`runs ${parsed.source}`);
    const context = (signal: AbortSignal): CommandContext => ({
      bot: this.#options.bot,
      data: this.#options.data,
      signal,
      agent: this.#options.agent,
    });
    const perform = (signal: AbortSignal) => command.perform(context(signal), args);
    let outcome: Outcome;
    if (command.kind === 'query' || command.alongside) {
      try {
        outcome = await perform(AbortSignal.timeout(QUERY_TIMEOUT_MS));
      } catch (err) {
        outcome = outcomeOfError(err, `${command.name} failed: `);
      }
    } else {
      const bound = command.timeBound?.(args);
      const result = await this.#options.actions.run(
        command.name,
        perform,
        bound === undefined ? {} : { timeoutMs: bound === 'until stopped' ? Infinity : bound },
      );
      outcome = result.outcome;
      this.#options.log?.(outcome.text);
      this.#options.afterAction?.();
    }
    const done: CommandOutcome = { command: command.name, args: { ...args }, ...outcome };
    this.#options.journal.add({ kind: 'outcome', outcome: done, by });
    return done;
  }

  /** How to enable `name` when the agent lacks it; undefined for a command it has or that does not exist. */
  #disabled(name: string): string | undefined {
    const lower = name.toLowerCase();
    if (this.#commands.list().some((c) => c.name.toLowerCase() === lower)) return undefined;
    const configured = Object.entries(this.#options.disabled ?? {}).find(([n]) => n.toLowerCase() === lower);
    if (configured) return configured[1];
    const blocked = (n: string) => this.#blocked.some((b) => `!${b.replace(/^!/, '')}`.toLowerCase() === n.toLowerCase());
    if (blocked(lower)) return 'the running task blocks it';
    const variantOf = this.#options.commands.getIgnoringCase(name)?.variantOf;
    if (variantOf && blocked(variantOf)) return `the running task blocks ${variantOf}`;
    return undefined;
  }
}
