/**
 * The coding command, `!newAction(prompt)`: the model writes JavaScript against the skill library,
 * run in the SES sandbox in a worker thread (see `src/sandbox/`). Offered only with
 * `allow_insecure_coding`.
 *
 * The code never sees the bot: it gets the functions of `src/sandbox/skills.ts`, made from the
 * same skill declarations as the commands (`src/skills/index.ts`) and bound to the bot, the
 * action's AbortSignal and the agent's task; they take and return plain data only.
 */
import { nameResolver } from '../game/names.ts';
import { writeAndRunCode } from '../sandbox/index.ts';
import { SANDBOX_HELPERS, sandboxSkills } from '../sandbox/skills.ts';
import { SKILLS } from '../skills/index.ts';
import { done, failure } from '../skills/outcome.ts';
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { commandCall } from './skill-commands.ts';

const newActionCommand = defineCommand({
  name: '!newAction',
  kind: 'action',
  description: 'Write and run JavaScript for what no command does.',
  params: {
    prompt: { type: 'string', description: 'what the code should do', example: 'build a 3x3 dirt platform' },
  },
  async perform({ bot, agent, signal }, { prompt }) {
    const coding = await agent.coding?.(prompt);
    if (!coding) return failure('unavailable', 'Writing code is not available to this agent.');
    const context = { bot, signal, task: agent.task, writeCall: commandCall, say: coding.say };
    const { skills, docs } = sandboxSkills(SKILLS, SANDBOX_HELPERS, context, nameResolver(bot.version));
    const result = await writeAndRunCode({
      model: coding.model,
      task: prompt,
      skillsDoc: docs,
      skills,
      systemPrompt: coding.systemPrompt,
      context: coding.context,
      timeoutMs: coding.timeoutMs,
      signal,
    });
    if (result.ok) return done(result.message);
    // Stopped from outside (`!stop`, a newer action) or by the action's time bound: the code's run was cut short.
    if (signal.aborted) return failure(isTimeout(signal.reason) ? 'timeout' : 'interrupted', result.message);
    return failure('failed', result.message);
  },
});

/** Whether an abort reason is a time bound's (`AbortSignal.timeout`), not a stop. */
function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}

/**
 * `!newAction`. For an agent without `coding()` (no `allow_insecure_coding`) it answers that
 * writing code is not available (`unavailable`); otherwise with the run's message: what the code
 * returned (`ok`), or why it stopped (`interrupted`, `timeout`) or failed after its attempts
 * (`failed`).
 */
export const codingCommands: CommandDef<CommandContext>[] = [newActionCommand];
