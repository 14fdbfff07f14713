/**
 * Playing a set-up task: the task's validator reads the world every game tick of agent 0's bot
 * (never the agents' claims), presence is checked every second, and the run ends at the first
 * success, the timeout, a missing agent or the signal.
 */
import type { Bot } from 'mineflayer';
import blockLoader from 'prismarine-block';
import { Vec3 } from 'vec3';
import { ChatOutbox } from '../conversation/outbox.ts';
import { SETUP_RATE_LIMIT } from './setup-steps.ts';
import type { Agent } from '../agent/agent.ts';
import { inventoryCounts } from '../skills/items.ts';
import type { BlockLookup } from '../tasks/blueprint.ts';
import type { EndReason } from '../tasks/eval/records.ts';
import type { LoadedTask } from '../tasks/schema.ts';
import type { TaskState, Validation, validatorFor } from '../tasks/validators.ts';
import type { BlockState, StateLookup } from '../tasks/villager/states.ts';
import type { StrategyEnd } from '../coordination/strategies.ts';
import type { RunningBots } from './start-bots.ts';

/** MINDcraft's rule: a run where an agent is missing for this long ends with score 0 (ms). */
export const MISSING_AGENT_MS = 30_000;

/**
 * The world's blocks as `bot` sees them: the block name, or undefined in chunks it has not
 * loaded. Reads state ids directly (no Block objects), cheap enough for a check every tick.
 */
export function botBlockLookup(bot: Bot): BlockLookup {
  const world = bot.world as unknown as { getColumnAt(p: Vec3): unknown; getBlockStateId(p: Vec3): number | null };
  return (x, y, z) => {
    const p = new Vec3(x, y, z);
    if (!world.getColumnAt(p)) return undefined;
    const id = world.getBlockStateId(p);
    return id === null || id === undefined ? undefined : bot.registry.blocksByStateId[id]?.name;
  };
}

/**
 * The world's blocks as `bot` sees them, with all their properties (prismarine-block's
 * `getProperties`, values as text: `facing=west`, `powered=true`), or undefined in chunks it has
 * not loaded. Properties are read once per state id and kept for the lookup's life.
 */
export function botStateLookup(bot: Bot): StateLookup {
  const world = bot.world as unknown as { getColumnAt(p: Vec3): unknown; getBlockStateId(p: Vec3): number | null };
  const Block = blockLoader(bot.registry as never);
  const known = new Map<number, BlockState>();
  return (x, y, z) => {
    const p = new Vec3(x, y, z);
    if (!world.getColumnAt(p)) return undefined;
    const id = world.getBlockStateId(p);
    if (id === null || id === undefined) return undefined;
    let state = known.get(id);
    if (!state) {
      const block = Block.fromStateId(id, 0);
      const properties = Object.fromEntries(Object.entries(block.getProperties()).map(([k, v]) => [k, String(v)]));
      state = { name: block.name, properties };
      known.set(id, state);
    }
    return state;
  };
}

/** A run ending: why, and the last validation. */
export interface Ending {
  reason: EndReason;
  outcome: Validation;
  error?: string;
}

/** A bot's inventory, or nothing when the bot has already left. */
export function safeInventory(bot: Bot): Record<string, number> {
  try {
    return inventoryCounts(bot);
  } catch {
    return {};
  }
}

/**
 * Plays until success, the timeout, a missing agent or the signal: the validator runs on every
 * game tick of agent 0's bot; presence is checked every second.
 */
export function play(
  task: LoadedTask,
  agents: Agent[],
  running: RunningBots,
  validate: ReturnType<typeof validatorFor>,
  options: {
    missingAgentMs: number;
    signal: AbortSignal;
    onCheck: (v: Validation) => void;
    /** The coordination strategy stopped by itself: a `gave_up` ends the run with its reason. */
    teamEnded?: Promise<StrategyEnd>;
  },
): Promise<Ending> {
  const bot = agents[0]!.bot;
  // A judge's changes to the world (VillagerBench's escape effects) are op commands agent 0 types,
  // at the set-up's rate.
  const outbox = new ChatOutbox((line) => bot.chat(line), SETUP_RATE_LIMIT);
  const state: TaskState = {
    inventories: () => agents.map((a) => safeInventory(a.bot)),
    lookup: botBlockLookup(bot),
    states: botStateLookup(bot),
    agents: agents.map((a) => a.name),
    now: () => Date.now(),
    runner: { command: (lines) => lines.forEach((line) => outbox.raw(line)) },
  };
  return new Promise<Ending>((resolve) => {
    let latest: Validation = { success: false, score: 0 };
    let done = false;
    const missingSince = new Map<string, number>();
    const end = (ending: Omit<Ending, 'outcome'> & { outcome?: Validation }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(presence);
      bot.off('physicsTick', check);
      outbox.close();
      options.signal.removeEventListener('abort', interrupted);
      resolve({ outcome: latest, ...ending });
    };
    const check = () => {
      if (done || !validate) return;
      try {
        latest = validate(state);
      } catch {
        return; // a bot mid-reconnect: check again next tick
      }
      options.onCheck(latest);
      if (latest.success) end({ reason: 'success' });
    };
    const interrupted = () => end({ reason: 'interrupted' });
    const timer = setTimeout(() => {
      check();
      end({ reason: 'timeout' });
    }, task.timeout * 1000);
    const presence = setInterval(
      () => {
        const now = Date.now();
        running.sessions.forEach((session, i) => {
          const name = agents[i]!.name;
          if (session.online) {
            missingSince.delete(name);
            return;
          }
          const since = missingSince.get(name) ?? now;
          missingSince.set(name, since);
          if (now - since >= options.missingAgentMs) {
            end({
              reason: 'missing_agent',
              outcome: { success: false, score: 0 },
              error: `No other agents found: ${name} has been off the server for ${Math.round(options.missingAgentMs / 1000)} s`,
            });
          }
        });
      },
      Math.min(1000, options.missingAgentMs / 4),
    );
    if (options.signal.aborted) return interrupted();
    options.signal.addEventListener('abort', interrupted, { once: true });
    void options.teamEnded?.then((team) => {
      if (team.kind === 'gave_up') {
        check();
        end({ reason: 'gave_up', error: team.reason });
      }
    });
    bot.on('physicsTick', check);
    check();
  });
}
