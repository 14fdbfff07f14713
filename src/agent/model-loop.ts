/**
 * The model loop of one agent: prompt the model, run the command in its reply, feed the outcome
 * back as a SYSTEM turn, and again, until a reply has no command or a bound is hit. `stop` and
 * `!stfu` end a loop between two steps and cancel the model call in flight; a new message from a
 * player ends it too ({@link ModelLoop.yieldTo}), so the player is never stuck behind the
 * model's own follow-ups.
 *
 * The loop works with its collaborators as objects ({@link ModelLoopParts}): the history, the
 * prompts, the command executor, the actions, the reply router. It reads outcomes by their code,
 * never by their text.
 *
 * Bounds (settings): `max_commands` per message, `max_repeats` of one command with the same
 * outcome, `min_model_interval_ms` before self-driven calls, `max_tokens_per_hour` (from the
 * providers' usage fields, checked when a call is about to be made) and `model_timeout_s` over
 * each whole call, retries included.
 */
import type { CommandContext } from '../commands/context.ts';
import type { ParseResult } from '../commands/parser.ts';
import type { IncomingMessage } from '../conversation/types.ts';
import { fromPlayer } from '../conversation/types.ts';
import type { ChatModel, ChatRequest, ChatTurn, ToolSpec } from '../models/types.ts';
import type { CommandOutcome } from '../skills/outcome.ts';
import { abortError, sleep } from '../util/abort.ts';
import type { ParsedCommand } from './command-executor.ts';
import type { MessageKey } from './prompt-builder.ts';
import type { TokenBudget } from './token-budget.ts';

export type { ParsedCommand } from './command-executor.ts';

/** The turns the loop reads and adds to (a {@link History}). */
export interface LoopHistory {
  readonly turns: readonly ChatTurn[];
  add(turn: ChatTurn): void;
}

/** The prompts of the loop's calls. */
export interface LoopPrompts {
  /**
   * The next call's prompt: its static part (`system`, byte-identical from call to call) and its
   * live part (the agent's state now), sent after the turns.
   */
  conversing(): Promise<{ system: string; live: string }>;
  /** Tools of the next call (native tool calling), if any. */
  tools(): ToolSpec[] | undefined;
  /** One of the profile's short texts, filled in. */
  message(key: MessageKey, values: Record<string, string>): string;
}

/** How the loop parses and runs commands (a {@link CommandExecutor}). */
export interface LoopCommands {
  parse(text: string): ParseResult<CommandContext>;
  /** Runs a command; never rejects. `by` is who asked (`model`). */
  run(parsed: ParsedCommand, by: string): Promise<CommandOutcome>;
}

/** Where the loop's words go (a {@link ReplyRouter}). */
export interface LoopReplies {
  /** Says `text` back the way `source` came. */
  say(source: IncomingMessage, text: string, options?: { busy?: boolean; urgent?: boolean }): void;
  /** A notice of the agent's own in public chat (model down, budget spent). */
  announce(text: string): void;
}

/** The collaborators of a {@link ModelLoop}. */
export interface ModelLoopParts {
  readonly model: ChatModel;
  readonly history: LoopHistory;
  readonly prompts: LoopPrompts;
  readonly commands: LoopCommands;
  /** The bot's action runner: is an action running now. */
  readonly actions: { readonly current: string | undefined };
  readonly replies: LoopReplies;
  log?(line: string): void;
}

/** Bounds of a {@link ModelLoop}. */
export interface ModelLoopOptions {
  /** Commands one message may run before the loop stops; -1 = none. */
  maxCommands: number;
  /** The same command with the same outcome this many times in a row ends the loop (default 3). */
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
 * What one {@link ModelLoop.think} did: the commands it ran, and why the model gave no answer
 * when it gave none: `down` (the call failed or timed out), `budget` (the hour's tokens are spent).
 */
export interface ThinkResult {
  commands: number;
  unanswered?: 'down' | 'budget';
}

/** A model call's answer, or why there is none: stopped (`interrupted`, `yielded`), failed (`down`) or out of budget. */
type Asked = { reply: string } | { ended: 'interrupted' | 'yielded' | 'down' | 'budget' };

/**
 * Runs model loops for one agent, one at a time (the agent's inbox serialises them), within its
 * bounds: commands per message, repeated commands, spacing of self-driven calls, the hour's
 * token budget and a time bound on every call.
 *
 * @example
 * const loop = new ModelLoop({ model, history, prompts, commands: executor, actions, replies }, { maxCommands: 20 });
 * const { commands } = await loop.think({ from: 'Steve', text: 'get wood', channel: 'whisper' });
 * loop.interrupt('stopped by Steve'); // the running loop ends at its next step
 */
export class ModelLoop {
  readonly #parts: ModelLoopParts;
  readonly #options: ModelLoopOptions;
  /** Bumped by interrupt(): loops started before it end at their next step. */
  #generation = 0;
  /** Set by close(): no loop runs and no request is sent any more. */
  #closed = false;
  /** Aborted by interrupt(): the call in flight and every request not `detached`. */
  #abort = new AbortController();
  /** Aborted by yieldTo(): the running loop's call or wait in flight, and its wait for an action. */
  #step = new AbortController();
  /** A loop is running (between think()'s start and end). */
  #running = false;
  /** When the last model call ended (ms). */
  #lastCall = 0;
  /** The last command run and how many times in a row it gave the same outcome. */
  #repeat = { key: '', source: '', count: 0 };
  /** Public chat was told the model is down / the budget is spent (once each, until it changes); a player asking is told each time. */
  #toldDown = false;
  #toldBudget = false;

  constructor(parts: ModelLoopParts, options: ModelLoopOptions) {
    this.#parts = parts;
    this.#options = options;
  }

  /** A loop is running now. */
  get running(): boolean {
    return this.#running;
  }

  /**
   * Prompts the model until a reply has no command or a bound is hit: `maxCommands` commands,
   * the same command with the same outcome `maxRepeats` times in a row, 3 malformed commands in a
   * row, a failed call, or the token budget. An action interrupted from outside ends the loop:
   * whoever interrupted decides what happens next.
   *
   * A message from a player gets an answer even when the hour's token budget is spent (the
   * player raises it, see `TokenBudget.raise`), and is told why when the model cannot answer.
   *
   * @param source the message being answered (replies go back its way).
   * @param nudge a self-prompt shown as the last turn of the first request only (not kept).
   */
  async think(source: IncomingMessage, nudge?: string): Promise<ThinkResult> {
    const { history, commands: executor, replies, prompts } = this.#parts;
    if (this.#running) throw new Error('ModelLoop.think: a loop is running already (the inbox serialises them)');
    this.#running = true;
    this.#step = new AbortController();
    try {
      const generation = this.#generation;
      const maxParseErrors = this.#options.maxParseErrors ?? 3;
      const maxRepeats = this.#options.maxRepeats ?? 3;
      const player = fromPlayer(source);
      if (player) {
        this.#repeat = { key: '', source: '', count: 0 };
        this.#options.budget?.raise(); // a player wants the bot to go on: applied now, when it is handled
      }
      let selfDriven = source.channel === 'system';
      let commands = 0;
      let parseErrors = 0;
      const system = (content: string) => history.add({ role: 'user', content: `SYSTEM: ${content}` });
      while (this.#live(generation)) {
        if (this.#options.maxCommands >= 0 && commands >= this.#options.maxCommands) {
          system(prompts.message('command_limit', { MAX_COMMANDS: String(this.#options.maxCommands) }));
          return { commands };
        }
        const asked = await this.#ask(generation, selfDriven, source, nudge);
        nudge = undefined;
        selfDriven = true;
        if ('ended' in asked)
          return asked.ended === 'down' || asked.ended === 'budget' ? { commands, unanswered: asked.ended } : { commands };
        const { reply } = asked;
        const parsed = executor.parse(reply);
        if (parsed.kind === 'none') {
          history.add({ role: 'assistant', content: reply });
          replies.say(source, reply, { busy: this.#parts.actions.current !== undefined });
          return { commands };
        }
        history.add({ role: 'assistant', content: parsed.kind === 'command' ? `${parsed.before} ${parsed.source}`.trim() : reply });
        replies.say(source, parsed.before, { busy: parsed.kind === 'command' });
        if (parsed.kind === 'error') {
          system(parsed.message);
          if (++parseErrors >= maxParseErrors) return { commands };
          continue;
        }
        parseErrors = 0;
        const repeated = () => system(prompts.message('repeated_command', { COMMAND: parsed.source, COUNT: String(this.#repeat.count) }));
        // Asked again for a command that already repeated itself: not run (and not counted).
        if (this.#repeat.count >= maxRepeats && this.#repeat.source === parsed.source) {
          repeated();
          return { commands };
        }
        commands++;
        const outcome = await this.#outcome(executor.run(parsed, 'model'));
        if (outcome === 'yielded') return { commands };
        system(outcome.text);
        const key = `${parsed.source}\n${outcome.code}\n${outcome.text}`;
        this.#repeat =
          key === this.#repeat.key ? { ...this.#repeat, count: this.#repeat.count + 1 } : { key, source: parsed.source, count: 1 };
        if (outcome.code === 'interrupted') return { commands };
        if (this.#repeat.count >= maxRepeats) {
          repeated();
          return { commands };
        }
      }
      return { commands };
    } finally {
      this.#running = false;
    }
  }

  /**
   * A new message is waiting (a player's): the running loop ends at its next step, so the message
   * is handled next with everything the loop had added. A model call or wait in flight is
   * dropped (its reply would not know the message: the next call answers both), and an action in
   * flight goes on without the loop waiting for it; its outcome still joins the history when it
   * ends. The action itself is left running (a command in the message may replace it).
   */
  yieldTo(): void {
    if (this.#running) this.#step.abort('a new message');
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
    return this.#parts.model.complete({
      ...req,
      signal: AbortSignal.any(signals),
      onUsage: (usage) => this.#options.budget?.record(usage),
    });
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

  /** The loop of `generation` may go on. */
  #live(generation: number): boolean {
    return !this.#closed && generation === this.#generation && !this.#step.signal.aborted;
  }

  /**
   * The outcome of a command run, or `yielded` when a new message came first: the run goes on,
   * and its outcome joins the history when it ends.
   */
  async #outcome(run: Promise<CommandOutcome>): Promise<CommandOutcome | 'yielded'> {
    const step = this.#step.signal;
    if (step.aborted) return this.#detach(run);
    let onYield: (() => void) | undefined;
    const yielded = new Promise<'yielded'>((resolve) => {
      onYield = () => resolve('yielded');
      step.addEventListener('abort', onYield, { once: true });
    });
    try {
      const first = await Promise.race([run, yielded]);
      return first === 'yielded' ? this.#detach(run) : first;
    } finally {
      if (onYield) step.removeEventListener('abort', onYield);
    }
  }

  #detach(run: Promise<CommandOutcome>): 'yielded' {
    void run.then((outcome) => {
      if (!this.#closed) this.#parts.history.add({ role: 'user', content: `SYSTEM: ${outcome.text}` });
    });
    return 'yielded';
  }

  /**
   * One conversing call, after the spacing it must keep.
   *
   * @returns the reply; `interrupted` or `yielded` when stopped; `down` when the call failed or
   *   timed out; `budget` when the hour's tokens are spent.
   */
  async #ask(generation: number, selfDriven: boolean, source: IncomingMessage, nudge?: string): Promise<Asked> {
    const { history, prompts, replies, model } = this.#parts;
    const { budget } = this.#options;
    const player = fromPlayer(source);
    if (budget?.exhausted()) {
      const time = new Date(budget.resetsAt).toTimeString().slice(0, 5);
      const text = prompts.message('token_budget', { TOKENS: String(budget.used), TIME: time });
      if (!this.#toldBudget) this.#parts.log?.(`token budget of ${budget.perHour} per hour spent; no model calls until ${time}`);
      if (player) replies.say(source, text, { urgent: true });
      else if (!this.#toldBudget) replies.announce(text);
      this.#toldBudget = true;
      return { ended: 'budget' };
    }
    this.#toldBudget = false;
    const spacing = Math.max(this.#options.cooldownMs ?? 0, selfDriven ? (this.#options.minIntervalMs ?? 0) : 0);
    const wait = this.#lastCall + spacing - Date.now();
    const signal = AbortSignal.any([this.#abort.signal, this.#step.signal]);
    if (wait > 0) {
      try {
        await sleep(wait, signal);
      } catch {
        return this.#stopped();
      }
    }
    if (!this.#live(generation)) return this.#stopped();
    const timeoutMs = this.#options.timeoutMs ?? 60_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const turns = [...history.turns];
      if (nudge) turns.push({ role: 'user', content: `SYSTEM: ${nudge}` });
      const { system, live } = await prompts.conversing();
      const reply = await model.complete({
        system,
        live,
        turns,
        tools: prompts.tools(),
        signal: AbortSignal.any([signal, timeout]),
        onUsage: (usage) => budget?.record(usage),
      });
      this.#toldDown = false;
      if (!this.#live(generation)) return this.#stopped();
      return { reply: reply.trim() };
    } catch (err) {
      if (this.#step.signal.aborted || this.#abort.signal.aborted || generation !== this.#generation) return this.#stopped();
      const why = timeout.aborted ? `no answer within ${Math.round(timeoutMs / 1000)} s` : (err as Error).message;
      this.#parts.log?.(`model error (the bot keeps running): ${why}`);
      const text = prompts.message('model_down', { MODEL: model.id, ERROR: why });
      if (player) replies.say(source, text, { urgent: true });
      else if (!this.#toldDown) {
        this.#toldDown = true;
        replies.announce(text);
      }
      return { ended: 'down' };
    } finally {
      this.#lastCall = Date.now();
    }
  }
  /** Why a call or wait was cut short: a new message ({@link yieldTo}) or an interruption. */
  #stopped(): Asked {
    return { ended: this.#step.signal.aborted ? 'yielded' : 'interrupted' };
  }
}
