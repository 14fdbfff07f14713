/**
 * `chat`: MINDcraft's coordination, as its task module does it (the reference's `tasks.js`,
 * mid-2025): each agent's goal starts its goal loop (`!goal("...")`), then agent 0 opens the
 * conversation with the first other agent, and the agents work the rest out by pairwise chat.
 * Nothing else steers them; results stay comparable with the MINDcraft paper's.
 */
import { openingLine } from '../tasks/goals.ts';
import type { CoordinationStrategy, StrategyRun, TeamRun } from './strategy.ts';

export const chatStrategy: CoordinationStrategy = {
  name: 'chat',
  async start(team: TeamRun): Promise<StrategyRun> {
    const { agents, task, goals, blueprint, signal } = team;
    // MINDcraft's `!goal` runs its first self-prompt at once; ours would wait for the idle
    // delay, so the first one is given here.
    for (const agent of agents) {
      agent.setGoal(goals[agent.name] ?? '');
      agent.receive({ from: 'system', channel: 'system', via: 'coordinator', text: agent.selfPrompter.promptText() });
    }
    const opening = openingLine(task, blueprint);
    const [first, second] = agents;
    if (first && second && opening) await first.startConversation(second.name, opening);
    // The agents work it out among themselves until the run ends.
    const ended = new Promise<{ kind: 'stopped' }>((resolve) => {
      if (signal.aborted) resolve({ kind: 'stopped' });
      else signal.addEventListener('abort', () => resolve({ kind: 'stopped' }), { once: true });
    });
    return { ended };
  },
};
