/**
 * The monitor role: S-Agents' progress monitor (Chen et al. 2024, §III-B.2 and Appendix C-1). It
 * runs when an agent's action queue is empty and judges its task from the task, the group's
 * messages since the last plan, the agent's inventory and any chest contents: a rationale (the
 * paper's "Task result judgment") and a final status, `success`, `fail` or `unknown`.
 *
 * Accepted answers: `{rationale, status}` (also `judgment`/`task_result_judgment` and
 * `final_task_status`), or the paper's own prose form, "Task result judgment: … Final task status: success".
 */
import { z } from 'zod';
import { bullets } from './format.ts';
import type { RoleSpec } from './role.ts';
import { withKeys } from './shape.ts';

/** What the monitor is shown. */
export interface MonitorInput {
  /** The task to be inquired (the task at hand the planner gave). */
  task: string;
  /** The group's messages since the last plan, `[time] speaker to respondent: message`, oldest first. */
  conversation: string[];
  /** The agent's inventory and equipment, in words. */
  inventory: string;
  /** Chest contents nearby, in words; usually empty. */
  chests?: string;
  /** The results of the agent's own actions since the last plan. */
  actions?: string[];
}

/** The monitor's verdict. */
export interface MonitorVerdict {
  rationale: string;
  status: 'success' | 'fail' | 'unknown';
}

const status = z
  .string()
  .transform((s) =>
    s
      .trim()
      .toLowerCase()
      .replace(/[^a-z]/g, ''),
  )
  .pipe(
    z.enum(['success', 'succeeded', 'fail', 'failed', 'failure', 'unknown'], { error: 'status must be "success", "fail" or "unknown"' }),
  )
  .transform((s): MonitorVerdict['status'] => (s.startsWith('succ') ? 'success' : s.startsWith('fail') ? 'fail' : 'unknown'));

const schema = withKeys(z.object({ rationale: z.string().trim().min(1, 'a rationale is needed'), status }), {
  judgment: 'rationale',
  task_result_judgment: 'rationale',
  reasoning: 'rationale',
  final_task_status: 'status',
  task_status: 'status',
});

const EXAMPLE = `{"rationale": "According to 'I have succeeded the task mine 17 oak_log' from the conversation, the task has succeeded.", "status": "success"}`;

const SYSTEM = `You're a judge of progress in Minecraft, adept at judging whether or not the task to be inquired is complete, from the conversation, the inventory, the actions and any chest information so far.
Judge on the spot; do not beat around the bush. Criteria:
1. Only the conversation, inventory and chests related to the task count.
2. "I'll start the task X" means the task has started: status unknown.
3. No response, or only "Got it!", means the task did not start: status unknown.
4. "I have succeeded the task X" means it finished: status success.
5. "I have failed the task X" means it failed: status fail.
6. An inventory or chest that already holds what the task asks for is a success.
Answer with one JSON object only:
${EXAMPLE}`;

/** The monitor role (see the module header). */
export const monitorRole: RoleSpec<MonitorInput, MonitorVerdict> = {
  name: 'monitor',
  system: SYSTEM,
  expect: 'object',
  schema,
  example: EXAMPLE,
  prose(text) {
    const s = /final task status\s*:?\s*\**\s*(success|succeeded|fail|failed|failure|unknown)/i.exec(text);
    if (!s) return undefined;
    const j = /task result judgment\s*:?\s*([\s\S]*?)(?:final task status|$)/i.exec(text);
    return { rationale: (j?.[1] ?? text).trim() || text.trim(), status: s[1] };
  },
  prompt(input) {
    return [
      `Task to be inquired: ${input.task}`,
      `Conversation:\n${bullets(input.conversation)}`,
      `Actions and results:\n${bullets(input.actions ?? [])}`,
      `Inventory: ${input.inventory}`,
      `Chest information: ${input.chests || '(none)'}`,
      'Give your judgment and the final task status as the JSON object.',
    ].join('\n\n');
  },
};
