/** `!goal` and `!endGoal`: the goal loop, which self-prompts while the agent is idle. */
import { defineCommand } from '../context.ts';

export const goal = defineCommand({
  name: '!goal',
  kind: 'action',
  alongside: true,
  description: 'Work on a goal by yourself until !endGoal.',
  params: {
    selfPrompt: { type: 'string', description: 'the goal', example: 'collect 10 oak logs' },
  },
  async perform({ agent }, { selfPrompt }) {
    return agent.setGoal?.(selfPrompt) ?? 'Goals are not supported by this agent.';
  },
});

export const endGoal = defineCommand({
  name: '!endGoal',
  kind: 'action',
  alongside: true,
  description: 'Stop the goal.',
  params: {},
  async perform({ agent }) {
    return agent.endGoal?.() ?? 'There was no goal to end.';
  },
});
