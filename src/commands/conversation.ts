/**
 * Conversation commands: starting and ending a conversation with another bot of ours. Both run
 * alongside the current action; the agent's conversation state machine does the work.
 */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { done, SkillError } from '../skills/outcome.ts';

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
    try {
      return done(await agent.startConversation(player_name, message), { partner: player_name });
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      if (player_name === agent.name) throw new SkillError('invalid', err.message);
      // Not one of our bots (a player, a name nobody has): `not_found`, in the agent's words.
      if (!agent.knownBots().includes(player_name))
        throw new SkillError('not_found', err.message, { sought: { kind: 'bot', name: player_name } });
      throw err;
    }
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
    return done(agent.endConversation(player_name), { partner: player_name });
  },
});

/**
 * `!startConversation` (`data.partner`; `not_found` with `data.sought` `{ kind: 'bot' }` for a
 * name that is not one of our bots) and `!endConversation` (`data.partner`).
 */
export const conversationCommands: CommandDef<CommandContext>[] = [startConversationCommand, endConversationCommand];
