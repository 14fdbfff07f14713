/**
 * The policy's patience: a command that changes nothing (the inventory stays the same) is tried
 * again after a short wait (a busy smoker, a path not found in time), and given up after a few
 * tries, once said.
 */
import type { OracleMemory } from './memory.ts';

/** Tries of one command without any change in the inventory before the policy gives up on it. */
const MAX_TRIES = 6;
/** The wait between two tries of a command that changed nothing. */
export const WAIT = '!stay(2)';
/** Commands that change no inventory by design: never counted as tries. */
const NOT_TRIED: ReadonlySet<string> = new Set(['!checkBlueprintLevel', '!stay', '!goToCoordinates', '!moveAway', '!startConversation']);

/** Counts tries per command between inventory changes, and the waits before retries. */
export class RetryGuard {
  readonly #tries = new Map<string, number>();
  /** Commands that have had their wait before their next retry. */
  readonly #waited = new Set<string>();
  #lastInventory = '';
  #stuckSaid = false;
  /** The last reply that was a command (as sent). */
  lastCommand = '';

  /**
   * The reply to send instead of `reply`: `reply` itself, a wait before a retry, or (once) why the
   * agent is stuck, then nothing.
   *
   * @param inventory the agent's inventory now (JSON), to tell whether the last command changed anything.
   */
  guard(m: OracleMemory, reply: string, inventory: string): string {
    if (!reply.startsWith('!')) return reply;
    if (inventory !== this.#lastInventory) {
      this.#tries.clear();
      this.#waited.clear();
      this.#lastInventory = inventory;
    }
    if (NOT_TRIED.has(reply.slice(0, reply.indexOf('(')))) {
      this.lastCommand = reply;
      return reply;
    }
    const tries = (this.#tries.get(reply) ?? 0) + 1;
    if (tries > MAX_TRIES) {
      if (this.#stuckSaid) return '';
      this.#stuckSaid = true;
      return `I am stuck: ${reply.slice(1)} keeps changing nothing.`;
    }
    // One wait before each retry, even when other commands (a level check) come in between.
    if (tries >= 2 && !this.#waited.has(reply)) {
      this.#waited.add(reply);
      this.lastCommand = WAIT;
      // A hand-over waited for is made after the wait: it is not counted as made yet (the same
      // inventory as at an earlier identical hand-over is not a failure: the items came back).
      m.undoGive();
      return WAIT;
    }
    this.#waited.delete(reply);
    this.#tries.set(reply, tries);
    this.lastCommand = reply;
    return reply;
  }
}
