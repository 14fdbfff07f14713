/**
 * Progress of a running action, for MCP progress notifications: read from the bot while the
 * action runs (no skill reports it), once at the start and then every {@link PROGRESS_INTERVAL_MS}:
 * the seconds it has run (the `progress` value, which so always increases), and a line saying
 * what runs, where the bot is, how far it still is from the player or position it was sent to,
 * and what came into and left its inventory since the action began.
 */
import type { Agent } from '../../agent/agent.ts';

/** Time between two progress notifications of one action (ms). */
export const PROGRESS_INTERVAL_MS = 1_000;

/** One progress notification's content (see the MCP `notifications/progress` params). */
export interface Progress {
  /** Seconds since the call started (0.1 s). */
  progress: number;
  message: string;
}

/** What an action was asked to reach, read from its arguments: a player, or coordinates. */
type Target = { player: string } | { x: number; y: number; z: number } | undefined;

function targetOf(args: Readonly<Record<string, unknown>>): Target {
  if (typeof args.player_name === 'string') return { player: args.player_name };
  const { x, y, z } = args;
  if (typeof x === 'number' && typeof y === 'number' && typeof z === 'number') return { x, y, z };
  return undefined;
}

/** `+2 oak_log, -1 oak_planks` (or '' for no change). */
function change(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): string {
  const parts: string[] = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const d = (after[name] ?? 0) - (before[name] ?? 0);
    if (d !== 0) parts.push(`${d > 0 ? '+' : ''}${d} ${name}`);
  }
  return parts.join(', ');
}

/**
 * Sends `send` a {@link Progress} at once and every {@link PROGRESS_INTERVAL_MS} until the
 * returned function is called. `send` must not throw (a failed send is the transport's matter).
 *
 * @param args the command's arguments (`player_name`, or `x`/`y`/`z`, give the distance left).
 * @param boundS the action's time bound in seconds, shown in the line; undefined: runs until stopped.
 * @example const stop = reportProgress(agent, '!goToPlayer', { player_name: 'Steve', closeness: 2 }, 300, send); ...; stop();
 */
export function reportProgress(
  agent: Agent,
  command: string,
  args: Readonly<Record<string, unknown>>,
  boundS: number | undefined,
  send: (progress: Progress) => void,
): () => void {
  const started = Date.now();
  const before = agent.status().inventory;
  const target = targetOf(args);
  let last = -Infinity;
  const tick = () => {
    const state = agent.status();
    const at = state.position;
    const parts = [
      state.action ? `${state.action.label} running` : `${command} starting`,
      `${Math.round((Date.now() - started) / 1000)} s of ${boundS === undefined ? 'until stopped' : `at most ${boundS} s`}`,
    ];
    if (at) parts.push(`at ${at.x} ${at.y} ${at.z}`);
    const goal = target && 'player' in target ? agent.bot.players[target.player]?.entity?.position : target ? { ...target } : undefined;
    if (at && goal) {
      const d = Math.hypot(goal.x - at.x, goal.y - at.y, goal.z - at.z);
      parts.push(
        `${Math.round(d * 10) / 10} blocks from ${target && 'player' in target ? target.player : `${goal.x} ${goal.y} ${goal.z}`}`,
      );
    } else if (target && 'player' in target) parts.push(`${target.player} not in sight`);
    const changed = change(before, state.inventory);
    if (changed) parts.push(`inventory ${changed}`);
    // Strictly increasing, as the protocol asks, even when two ticks come close together.
    last = Math.max(Math.round((Date.now() - started) / 100) / 10, last + 0.1);
    send({ progress: Math.round(last * 10) / 10, message: parts.join('; ') });
  };
  tick();
  const timer = setInterval(tick, PROGRESS_INTERVAL_MS);
  return () => clearInterval(timer);
}
