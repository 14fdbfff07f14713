/** Goal commands: `!goal` starts the goal loop, which self-prompts while the agent is idle; `!endGoal` ends it. */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { done, failure } from '../skills/outcome.ts';

const goalCommand = defineCommand({
  name: '!goal',
  kind: 'action',
  alongside: true,
  description: 'Work on a goal by yourself until !endGoal.',
  params: {
    selfPrompt: { type: 'string', description: 'the goal', example: 'collect 10 oak logs' },
  },
  async perform({ agent }, { selfPrompt }) {
    return agent.setGoal ? done(agent.setGoal(selfPrompt)) : failure('unavailable', 'Goals are not supported by this agent.');
  },
});

const endGoalCommand = defineCommand({
  name: '!endGoal',
  kind: 'action',
  alongside: true,
  description: 'Stop the goal.',
  params: {},
  async perform({ agent }) {
    return agent.endGoal ? done(agent.endGoal()) : failure('unavailable', 'There was no goal to end.');
  },
});

/** `!goal` and `!endGoal`; both run alongside the current action. */
export const goalsCommands: CommandDef<CommandContext>[] = [goalCommand, endGoalCommand];
