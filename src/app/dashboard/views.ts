/**
 * What the dashboard shows, as plain views built from the running bots: each bot's from its
 * agent's `status()` (a stopped bot from its profile), and the players on the server.
 */
import type { BotView, PlayerView } from './public/protocol.ts';
import type { RunningBots } from '../start-bots.ts';

/** The part of the running bots the dashboard reads and controls. */
export type DashboardBots = Pick<
  RunningBots,
  'agents' | 'sessions' | 'bus' | 'server' | 'address' | 'profiles' | 'addBot' | 'stopBot' | 'restartBot' | 'listenToVoice'
>;

/** A number rounded to a tenth (positions on the page). */
function rounded(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * Every bot started so far, running or stopped, in start order: a running one from its agent's
 * status and its connection, a stopped one from its profile.
 */
export function botViews(bots: DashboardBots): BotView[] {
  const views: BotView[] = [];
  for (const profile of bots.profiles()) {
    const agent = bots.agents.find((a) => a.name === profile.name);
    if (!agent) {
      views.push({
        name: profile.name,
        model: typeof profile.model === 'string' ? profile.model : profile.model.model,
        status: 'stopped',
        health: null,
        food: null,
        position: null,
        action: null,
        goal: { state: 'stopped', text: '' },
        partner: null,
        inventory: {},
        modes: {},
      });
      continue;
    }
    const session = bots.sessions.find((s) => s.username === agent.name);
    const online = session ? session.online : true;
    const status = agent.status();
    views.push({
      name: status.name,
      model: status.model,
      status: session?.state ?? 'online',
      health: online ? status.health : null,
      food: online ? status.food : null,
      position: online ? status.position : null,
      action: status.action,
      goal: status.goal,
      partner: status.partner,
      inventory: online ? status.inventory : {},
      modes: status.modes,
    });
  }
  return views;
}

/** The players on the server: from the embedded server when there is one, else from the bots' tab lists. */
export function playerViews(bots: DashboardBots): PlayerView[] {
  const ours = new Set(bots.profiles().map((p) => p.name));
  const players = new Map<string, PlayerView>();
  // The embedded server knows every player and where it is; otherwise the bots' tab lists.
  const serv = bots.server?.serv as { players?: { username: string; position?: { x: number; y: number; z: number } }[] } | undefined;
  if (serv?.players) {
    for (const p of serv.players) {
      players.set(p.username, {
        name: p.username,
        bot: ours.has(p.username),
        position: p.position ? { x: rounded(p.position.x), y: rounded(p.position.y), z: rounded(p.position.z) } : null,
      });
    }
  } else {
    for (const agent of bots.agents) {
      for (const [name, player] of Object.entries(agent.bot.players ?? {})) {
        const pos = player.entity?.position;
        if (!players.has(name) || pos)
          players.set(name, {
            name,
            bot: ours.has(name),
            position: pos ? { x: rounded(pos.x), y: rounded(pos.y), z: rounded(pos.z) } : null,
          });
      }
    }
  }
  return [...players.values()].sort((a, b) => a.name.localeCompare(b.name));
}
