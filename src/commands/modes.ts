/** Mode commands: listing the agent's behaviour modes and turning one on or off. */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { done, failure, SkillError } from '../skills/outcome.ts';

const modesCommand = defineCommand({
  name: '!modes',
  kind: 'query',
  description: 'Your modes and whether each is on.',
  params: {},
  async perform({ agent }) {
    const list = agent.modes?.list();
    if (!list) return failure('unavailable', 'This agent has no behaviour modes.');
    return done(
      list
        .map((m) => `${m.name}: ${m.on ? 'ON' : 'OFF'}${m.paused ? ' (paused)' : ''}${m.acting ? ' (acting now)' : ''} - ${m.description}`)
        .join('\n') || 'No modes.',
    );
  },
});

const setModeCommand = defineCommand({
  name: '!setMode',
  kind: 'action',
  alongside: true,
  description: 'Turn a mode on or off.',
  params: {
    mode_name: { type: 'string', description: 'mode', example: 'hunting' },
    on: { type: 'boolean', description: 'true = on' },
  },
  async perform({ agent }, { mode_name, on }) {
    if (!agent.modes) return failure('unavailable', 'This agent has no behaviour modes.');
    const name = mode_name.trim();
    const mode = agent.modes.list().find((m) => m.name.toLowerCase() === name.toLowerCase());
    if (!mode)
      throw new SkillError(
        'invalid',
        `No mode "${name}". Modes: ${agent.modes
          .list()
          .map((m) => m.name)
          .join(', ')}.`,
      );
    if (mode.on === on) return done(`Mode ${mode.name} is already ${on ? 'on' : 'off'}.`);
    agent.modes.set(mode.name, on);
    return done(`Mode ${mode.name} is now ${on ? 'on' : 'off'}.`);
  },
});

/**
 * The query `!modes` and the action `!setMode` (mode names match case-insensitively; an unknown
 * name is an error that lists the modes). Both answer "This agent has no behaviour modes." for
 * an agent without modes.
 */
export const modesCommands: CommandDef<CommandContext>[] = [modesCommand, setModeCommand];
