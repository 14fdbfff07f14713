/**
 * Agent control: stopping, silencing, restarting, forgetting the chat, and `!help`. The actions
 * run alongside the current action (they are how it is stopped); each answers with a line for the
 * model when the agent lacks the optional member it needs.
 */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { done, failure } from '../skills/outcome.ts';

const helpCommand = defineCommand({
  name: '!help',
  kind: 'query',
  description: "The commands, or one command's parameters.",
  params: {
    command: { type: 'string', description: 'a command name', example: 'craftRecipe', optional: true },
  },
  async perform({ agent }, { command }) {
    return done(agent.help(command));
  },
});

const stopCommand = defineCommand({
  name: '!stop',
  kind: 'action',
  alongside: true,
  description: 'Stop the current action and the goal.',
  params: {},
  async perform({ agent }) {
    const what = agent.currentAction();
    await agent.stop('stopped');
    return done(what ? `Stopped ${what}.` : 'Nothing was running.');
  },
});

const stfuCommand = defineCommand({
  name: '!stfu',
  kind: 'action',
  alongside: true,
  description: 'Stop chatting and the goal; keep acting.',
  params: {},
  async perform({ agent }) {
    if (!agent.silence) return failure('unavailable', 'This agent cannot be silenced.');
    await agent.silence();
    return done('Quiet now.');
  },
});

const restartCommand = defineCommand({
  name: '!restart',
  kind: 'action',
  alongside: true,
  description: 'Stop, forget the chat, reset modes.',
  params: {},
  async perform({ agent }) {
    if (!agent.restart) return failure('unavailable', 'This agent cannot restart itself.');
    await agent.restart();
    return done('Restarted.');
  },
});

const clearChatCommand = defineCommand({
  name: '!clearChat',
  kind: 'action',
  alongside: true,
  description: 'Forget the chat history.',
  params: {},
  async perform({ agent }) {
    if (!agent.clearHistory) return failure('unavailable', 'This agent cannot clear its chat history.');
    agent.clearHistory();
    return done('Chat history cleared.');
  },
});

/** The query `!help`, and the actions `!stop`, `!stfu`, `!restart` and `!clearChat`. */
export const controlCommands: CommandDef<CommandContext>[] = [helpCommand, stopCommand, stfuCommand, restartCommand, clearChatCommand];
