/**
 * The model loop of one agent: prompt the model, run the command in its reply, feed the output
 * back as a SYSTEM turn, and again, until a reply has no command or a bound is hit. `stop` and
 * `!stfu` end a loop between two steps and cancel the model call in flight.
 *
 * Bounds (settings): `max_commands` per message, `max_repeats` of one command with the same
 * output, `min_model_interval_ms` before self-driven calls, `max_tokens_per_hour` (from the
 * providers' usage fields) and `model_timeout_s` over each whole call, retries included. A model
 * that fails or times out is announced once in chat; commands keep working without it.
 */
import type { CommandContext } from '../commands/context.ts';
import type { ParseResult } from '../commands/parser.ts';
import type { ChatModel, ChatRequest, ChatTurn, ToolSpec } from '../models/types.ts';
import type { CommandOutcome } from '../skills/outcome.ts';
import { abortError, sleep } from '../util/abort.ts';
import type { IncomingMessage } from './reply-router.ts';
import type { TokenBudget } from './token-budget.ts';

/** A command the parser accepted. */
export type ParsedCommand = Extract<ParseResult<CommandContext>, { kind: 'command' }>;

/**
 * What a command run reports to the loop (see `src/skills/outcome.ts`): its `text` is fed back to
 * the model; code `interrupted` (the action was stopped from outside: a player, a mode, a partner)
 * ends the loop.
 */
export type { CommandOutcome } from '../skills/outcome.ts';

/** What the loop needs from its agent. */
export interface ModelLoopHost {
  readonly model: ChatModel;
  /** The history, oldest first. */
  turns(): readonly ChatTurn[];
  /** Adds a turn to the history. */
  remember(turn: ChatTurn): void;
  /** Parses a reply against the agent's current commands. */
  parse(text: string): ParseResult<CommandContext>;
  /** Runs a command; never rejects. */
  run(parsed: ParsedCommand): Promise<CommandOutcome>;
  /** Says text back the way `source` came (see `ReplyRouter`). */
  say(source: IncomingMessage, text: string, busy: boolean): void;
  /** Says a notice of the agent's own in public chat (model down, budget spent). */
  announce(text: string): void;
  /**
   * The prompt of the next call: its static part (`system`, byte-identical from call to call)
   * and its live part (the agent's state now), sent after the turns.
   */
  prompt(): Promise<{ system: string; live: string }>;
  /** Tools of the next call (native tool calling), if any. */
  tools(): ToolSpec[] | undefined;
  /** An action is running. */
  acting(): boolean;
  /** One of the profile's short texts (see `PromptBuilder.message`). */
  message(key: 'command_limit' | 'repeated_command' | 'token_budget' | 'model_down', values: Record<string, string>): string;
  log(line: string): void;
}

/** Bounds of a {@link ModelLoop}. */
export interface ModelLoopOptions {
  /** Commands one message may run before the loop stops; -1 = none. */
  maxCommands: number;
  /** The same command with the same output this many times in a row ends the loop (default 3). */
  maxRepeats?: number;
  /** Minimum spacing between two model calls, ms (default 0). */
  cooldownMs?: number;
  /** Minimum spacing before a call the agent makes on its own (goal loop, follow-ups), ms (default 0). */
  minIntervalMs?: number;
  /** Time bound of one model call, retries included, ms (default 60 000). */
  timeoutMs?: number;
  /** Tokens per hour; without one, no limit. */
  budget?: TokenBudget;
  /** Malformed commands in a row after which the loop gives up on a message (default 3). */
  maxParseErrors?: number;
}

/** Thrown by {@link ModelLoop.request} while the token budget is spent. */
export class BudgetError extends Error {
  override readonly name = 'BudgetError';
}

/**
 * Runs model loops for one agent, one at a time (the agent's inbox serialises them), within its
 * bounds: commands per message, repeated commands, spacing of self-driven calls, the hour's
 * token budget and a time bound on every call.
 *
 * @example
 * const loop = new ModelLoop(host, { maxCommands: 20, budget: new TokenBudget(1_000_000) });
 * const ran = await loop.think({ from: 'Steve', text: 'get wood', channel: 'whisper' });
 * loop.interrupt('stopped by Steve'); // the running loop ends at its next step
 */
export class ModelLoop {
  readonly #host: ModelLoopHost;
  readonly #options: ModelLoopOptions;
  /** Bumped by interrupt(): loops started before it end at their next step. */
  #generation = 0;
  /** Set by close(): no loop runs and no request is sent any more. */
  #closed = false;
  #abort = new AbortController();
  /** When the last model call ended (ms). */
  #lastCall = 0;
  /** The last command run and how many times in a row it gave the same output. */
  #repeat = { key: '', source: '', count: 0 };
  /** The players were told the model is down / the budget is spent (once each, until it changes). */
  #toldDown = false;
  #toldBudget = false;

  constructor(host: ModelLoopHost, options: ModelLoopOptions) {
    this.#host = host;
    this.#options = options;
  }

  /**
   * Prompts the model until a reply has no command or a bound is hit: `maxCommands` commands,
   * the same command with the same output `maxRepeats` times in a row, 3 malformed commands in a
   * row, a failed call, or the token budget. An action interrupted from outside ends the loop:
   * whoever interrupted decides what happens next.
   *
   * @param source the message being answered (replies go back its way).
   * @param nudge a self-prompt shown as the last turn of the first request only (not kept).
   * @returns how many commands ran.
   */
  async think(source: IncomingMessage, nudge?: string): Promise<number> {
    const host = this.#host;
    const generation = this.#generation;
    const maxParseErrors = this.#options.maxParseErrors ?? 3;
    const maxRepeats = this.#options.maxRepeats ?? 3;
    if (source.channel === 'whisper' || source.channel === 'public') this.#repeat = { key: '', source: '', count: 0 };
    let selfDriven = source.channel === 'system';
    let commands = 0;
    let parseErrors = 0;
    while (!this.#closed && generation === this.#generation) {
      if (this.#options.maxCommands >= 0 && commands >= this.#options.maxCommands) {
        host.remember({
          role: 'user',
          content: `SYSTEM: ${host.message('command_limit', { MAX_COMMANDS: String(this.#options.maxCommands) })}`,
        });
        return commands;
      }
      const reply = await this.#ask(generation, selfDriven, nudge);
      nudge = undefined;
      selfDriven = true;
      if (reply === undefined || generation !== this.#generation) return commands;
      const parsed = host.parse(reply);
      if (parsed.kind === 'none') {
        host.remember({ role: 'assistant', content: reply });
        host.say(source, reply, host.acting());
        return commands;
      }
      host.remember({ role: 'assistant', content: parsed.kind === 'command' ? `${parsed.before} ${parsed.source}`.trim() : reply });
      host.say(source, parsed.before, parsed.kind === 'command');
      if (parsed.kind === 'error') {
        host.remember({ role: 'user', content: `SYSTEM: ${parsed.message}` });
        if (++parseErrors >= maxParseErrors) return commands;
        continue;
      }
      parseErrors = 0;
      const repeated = () =>
        host.remember({
          role: 'user',
          content: `SYSTEM: ${host.message('repeated_command', { COMMAND: parsed.source, COUNT: String(this.#repeat.count) })}`,
        });
      // Asked again for a command that already repeated itself: not run (and not counted).
      if (this.#repeat.count >= maxRepeats && this.#repeat.source === parsed.source) {
        repeated();
        return commands;
      }
      commands++;
      const outcome = await host.run(parsed);
      const output = outcome.text;
      const interrupted = outcome.code === 'interrupted';
      host.remember({ role: 'user', content: `SYSTEM: ${output}` });
      const key = `${parsed.source}\n${output}`;
      this.#repeat =
        key === this.#repeat.key ? { ...this.#repeat, count: this.#repeat.count + 1 } : { key, source: parsed.source, count: 1 };
      if (interrupted) return commands;
      if (this.#repeat.count >= maxRepeats) {
        repeated();
        return commands;
      }
    }
    return commands;
  }

  /**
   * A request outside the loop (a respond-or-ignore question, a summary): counted in the token
   * budget, bounded by the loop's time bound (or `timeoutMs` when shorter), and cancelled by
   * {@link interrupt} unless `detached`.
   *
   * @throws BudgetError while the token budget is spent; an AbortError once {@link close}d; the
   *   model's errors (see `ChatModel.complete`).
   */
  async request(
    req: Omit<ChatRequest, 'signal' | 'onUsage'>,
    options: { timeoutMs?: number; signal?: AbortSignal; detached?: boolean } = {},
  ): Promise<string> {
    if (this.#closed) throw abortError(this.#abort.signal);
    if (this.#options.budget?.exhausted()) throw new BudgetError('the token budget of this hour is spent');
    const timeoutMs = Math.min(options.timeoutMs ?? Infinity, this.#options.timeoutMs ?? 60_000);
    const signals = [
      AbortSignal.timeout(timeoutMs),
      ...(options.detached ? [] : [this.#abort.signal]),
      ...(options.signal ? [options.signal] : []),
    ];
    return this.#host.model.complete({ ...req, signal: AbortSignal.any(signals), onUsage: (usage) => this.#options.budget?.record(usage) });
  }

  /** Ends the running loop at its next step and cancels the model call in flight. */
  interrupt(reason: string): void {
    this.#generation++;
    this.#abort.abort(reason);
    this.#abort = new AbortController();
  }

  /**
   * Interrupts for good: the running loop ends at its next step, and loops started later (a
   * message that was already queued) return at once without calling the model.
   */
  close(reason: string): void {
    this.#closed = true;
    this.interrupt(reason);
  }

  /**
   * One conversing call, after the spacing it must keep.
   *
   * @returns the reply, or undefined when interrupted, failed, timed out or out of budget.
   */
  async #ask(generation: number, selfDriven: boolean, nudge?: string): Promise<string | undefined> {
    const host = this.#host;
    const { budget } = this.#options;
    if (budget?.exhausted()) {
      if (!this.#toldBudget) {
        this.#toldBudget = true;
        const time = new Date(budget.resetsAt).toTimeString().slice(0, 5);
        host.log(`token budget of ${budget.perHour} per hour spent; no model calls until ${time}`);
        host.announce(host.message('token_budget', { TOKENS: String(budget.used), TIME: time }));
      }
      return undefined;
    }
    this.#toldBudget = false;
    const spacing = Math.max(this.#options.cooldownMs ?? 0, selfDriven ? (this.#options.minIntervalMs ?? 0) : 0);
    const wait = this.#lastCall + spacing - Date.now();
    const abort = this.#abort.signal;
    if (wait > 0) {
      try {
        await sleep(wait, abort);
      } catch {
        return undefined;
      }
    }
    if (generation !== this.#generation) return undefined;
    const timeoutMs = this.#options.timeoutMs ?? 60_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const turns = [...host.turns()];
      if (nudge) turns.push({ role: 'user', content: `SYSTEM: ${nudge}` });
      const { system, live } = await host.prompt();
      const reply = await host.model.complete({
        system,
        live,
        turns,
        tools: host.tools(),
        signal: AbortSignal.any([abort, timeout]),
        onUsage: (usage) => budget?.record(usage),
      });
      this.#toldDown = false;
      return reply.trim();
    } catch (err) {
      if (abort.aborted) return undefined; // interrupted: whoever did it decides what comes next
      const why = timeout.aborted ? `no answer within ${Math.round(timeoutMs / 1000)} s` : (err as Error).message;
      host.log(`model error (the bot keeps running): ${why}`);
      if (!this.#toldDown) {
        this.#toldDown = true;
        host.announce(host.message('model_down', { MODEL: host.model.id, ERROR: why }));
      }
      return undefined;
    } finally {
      this.#lastCall = Date.now();
    }
  }
}
