/**
 * Conversation commands: starting and ending a conversation with another bot of ours. Both run
 * alongside the current action; the agent's conversation state machine does the work.
 */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';

const startConversationCommand = defineCommand({
  name: '!startConversation',
  kind: 'action',
  alongside: true,
  description: 'Start talking with a bot.',
  params: {
    player_name: { type: 'string', description: 'bot', example: 'Bob' },
    message: { type: 'string', description: 'first message', example: 'Hi!' },
  },
  async perform({ agent }, { player_name, message }) {
    return agent.startConversation(player_name, message);
  },
});

const endConversationCommand = defineCommand({
  name: '!endConversation',
  kind: 'action',
  alongside: true,
  description: 'Stop talking with a bot.',
  params: {
    player_name: { type: 'string', description: 'bot', example: 'Bob' },
  },
  async perform({ agent }, { player_name }) {
    return agent.endConversation(player_name);
  },
});

/** `!startConversation` and `!endConversation`. */
export const conversationCommands: CommandDef<CommandContext>[] = [startConversationCommand, endConversationCommand];
