/**
 * The goal loop (`!goal`): once a goal is set, whenever the agent has been idle for a while
 * (2 s by default) it prompts itself to take the next step. The loop stops after a few
 * self-prompts in a row answered without a command, pauses while a conversation with another
 * bot is open (and resumes when it ends), and ends on `!endGoal` or `!stop`.
 *
 * It is driven by events, not a poll: the agent calls {@link SelfPrompter.idle} when its inbox
 * drains or an action ends, and {@link SelfPrompter.busy} when work arrives; the only timer is
 * the one idle delay armed after the last event.
 *
 * Outages do not end it. While the agent is held ({@link SelfPrompter.hold}: its bot is offline)
 * the loop waits, whatever idleness says, and goes on by itself once released. A self-prompt the
 * model could not answer (an error, a timeout, the hour's token budget) does not count as one
 * without a command: the loop tries again after a growing wait (the idle delay, doubling, at
 * most {@link MAX_RETRY_MS}), and says so once per outage.
 */

/** Longest wait between two self-prompts while the model does not answer (ms). */
export const MAX_RETRY_MS = 60_000;

/** `stopped`: no goal; `active`: prompting when idle; `paused`: waiting for a conversation to end. */
export type SelfPromptState = 'stopped' | 'active' | 'paused';

/** What the self-prompter needs from its agent. */
export interface SelfPrompterHost {
  /** Nothing queued, nothing running. */
  isIdle(): boolean;
  /** A conversation with another bot is open. */
  inConversation(): boolean;
  /**
   * Runs one self-prompt cycle (queued like a message): `command` when the model ran at least one
   * command in it, `none` when it answered without one, `unanswered` when it could not answer.
   */
  prompt(text: string): Promise<'command' | 'none' | 'unanswered'>;
  /** Tells the players something (e.g. that the loop gave up). */
  announce(text: string): void;
  /** The goal or state changed (persist it). */
  changed?(): void;
}

/** Options of {@link SelfPrompter}. */
export interface SelfPrompterOptions {
  /** Idle time before a self-prompt (ms); default 2000. */
  idleMs?: number;
  /** Self-prompts in a row without a command after which the loop stops; default 3. */
  maxNoCommand?: number;
}

export class SelfPrompter {
  readonly #host: SelfPrompterHost;
  readonly #idleMs: number;
  readonly #maxNoCommand: number;
  #state: SelfPromptState = 'stopped';
  #goal = '';
  #noCommand = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A self-prompt cycle is queued or running. */
  #inFlight = false;
  /** Bumped by start/stop so a cycle from an older goal does not count for a newer one. */
  #epoch = 0;
  /** Held by the agent (offline): no self-prompt until {@link release}. */
  #held = false;
  /** Self-prompts in a row the model could not answer (the wait before the next doubles). */
  #unanswered = 0;

  constructor(host: SelfPrompterHost, options: SelfPrompterOptions = {}) {
    this.#host = host;
    this.#idleMs = options.idleMs ?? 2_000;
    this.#maxNoCommand = options.maxNoCommand ?? 3;
  }

  get state(): SelfPromptState {
    return this.#state;
  }

  /** The current (or last) goal; empty if none was ever set. */
  get goal(): string {
    return this.#goal;
  }

  /** Self-prompts answered without a command since the last one with a command. */
  get noCommandCount(): number {
    return this.#noCommand;
  }

  /** True while {@link hold} keeps the loop from prompting. */
  get held(): boolean {
    return this.#held;
  }

  /**
   * Keeps the loop from prompting, whatever its state, until {@link release} (the bot is
   * offline). The goal and its state are kept; idleness does not undo it.
   */
  hold(): void {
    this.#held = true;
    this.#clear();
  }

  /** Ends a {@link hold}: the loop goes on by itself after the idle delay. */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    this.idle();
  }

  /**
   * Sets the goal and starts the loop (the first self-prompt follows after the idle delay).
   *
   * @param goal what to pursue; empty = resume the last goal.
   * @returns a line for the model or the player.
   */
  start(goal?: string): string {
    const text = goal?.trim() || this.#goal;
    if (!text) return 'No goal given.';
    this.#goal = text;
    this.#state = 'active';
    this.#noCommand = 0;
    this.#epoch++;
    this.#host.changed?.();
    this.idle();
    return `Goal set: ${text}. I will work on it whenever I am idle, until !endGoal.`;
  }

  /** Ends the loop (the goal text is kept for {@link start} without a goal). */
  stop(): void {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    this.#epoch++;
    this.#clear();
    this.#host.changed?.();
  }

  /** Holds the loop until {@link resume} (e.g. during a conversation). */
  pause(): void {
    if (this.#state !== 'active') return;
    this.#state = 'paused';
    this.#clear();
    this.#host.changed?.();
  }

  /** Continues a paused loop; the next self-prompt follows after the idle delay. */
  resume(): void {
    if (this.#state !== 'paused') return;
    this.#state = 'active';
    this.#host.changed?.();
    this.idle();
  }

  /**
   * The agent may be idle (its inbox drained, an action ended, a conversation ended): resumes a
   * loop paused for a conversation that is over, and (re)arms the idle delay.
   */
  idle(): void {
    if (this.#held) return;
    if (this.#state === 'paused' && !this.#host.inConversation()) this.resume();
    if (this.#state !== 'active' || this.#inFlight) return;
    this.#clear();
    const wait = this.#unanswered === 0 ? this.#idleMs : Math.min(MAX_RETRY_MS, this.#idleMs * 2 ** this.#unanswered);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#fire();
    }, wait);
    this.#timer.unref?.();
  }

  /** Work arrived: the idle delay starts again at the next {@link idle}. */
  busy(): void {
    this.#clear();
  }

  /** The self-prompt text the model gets. */
  promptText(): string {
    return `You are working on your goal: "${this.#goal}". Take the next step now: your reply must contain a command. If the goal is already done, say so and use !endGoal.`;
  }

  #fire(): void {
    if (this.#state !== 'active' || this.#inFlight || this.#held || !this.#host.isIdle()) return;
    if (this.#host.inConversation()) {
      this.pause();
      return;
    }
    const epoch = this.#epoch;
    this.#inFlight = true;
    this.#host.prompt(this.promptText()).then(
      (result) => {
        this.#inFlight = false;
        if (epoch !== this.#epoch || this.#state === 'stopped') return;
        if (result === 'unanswered') {
          // The model is down or out of budget: not the model's choice; wait longer, try again.
          if (this.#unanswered++ === 0)
            this.#host.announce(`I cannot think right now; I will go on with my goal once my model answers again.`);
          if (this.#host.isIdle()) this.idle();
          return;
        }
        this.#unanswered = 0;
        this.#noCommand = result === 'command' ? 0 : this.#noCommand + 1;
        if (this.#noCommand >= this.#maxNoCommand) {
          this.stop();
          this.#host.announce(`I stopped working on my goal: no command in my last ${this.#maxNoCommand} tries.`);
          return;
        }
        if (this.#host.isIdle()) this.idle();
      },
      () => {
        this.#inFlight = false;
      },
    );
  }

  #clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
