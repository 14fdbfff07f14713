/** Agent control: silence, restart, clear the chat, switch modes (through optional agent members). */
import { defineCommand } from '../context.ts';

export const stfu = defineCommand({
  name: '!stfu',
  kind: 'action',
  alongside: true,
  description: 'Stop chatting and the goal; keep acting.',
  params: {},
  async perform({ agent }) {
    if (!agent.silence) return 'This agent cannot be silenced.';
    await agent.silence();
    return 'Quiet now.';
  },
});

export const restart = defineCommand({
  name: '!restart',
  kind: 'action',
  alongside: true,
  description: 'Start fresh: stop, forget the chat, reset modes.',
  params: {},
  async perform({ agent }) {
    if (!agent.restart) return 'This agent cannot restart itself.';
    await agent.restart();
    return 'Restarted.';
  },
});

export const clearChat = defineCommand({
  name: '!clearChat',
  kind: 'action',
  alongside: true,
  description: 'Forget the chat history.',
  params: {},
  async perform({ agent }) {
    if (!agent.clearHistory) return 'This agent cannot clear its chat history.';
    agent.clearHistory();
    return 'Chat history cleared.';
  },
});

export const setMode = defineCommand({
  name: '!setMode',
  kind: 'action',
  alongside: true,
  description: 'Turn a mode on or off.',
  params: {
    mode_name: { type: 'string', description: 'mode', example: 'hunting' },
    on: { type: 'boolean', description: 'true = on' },
  },
  async perform({ agent }, { mode_name, on }) {
    if (!agent.modes) return 'This agent has no behaviour modes.';
    const name = mode_name.trim();
    const mode = agent.modes.list().find((m) => m.name.toLowerCase() === name.toLowerCase());
    if (!mode) throw new Error(`No mode "${name}". Modes: ${agent.modes.list().map((m) => m.name).join(', ')}.`);
    if (mode.on === on) return `Mode ${mode.name} is already ${on ? 'on' : 'off'}.`;
    agent.modes.set(mode.name, on);
    return `Mode ${mode.name} is now ${on ? 'on' : 'off'}.`;
  },
});

export const controlCommands = [stfu, restart, clearChat, setMode];
