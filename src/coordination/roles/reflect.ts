/**
 * The reflect role: after a node's execution the agent checks from its actions whether the subtask
 * is done (VillagerAgent §3.5 "Self-Reflection", its code's `{reasoning, summary, task_status}`;
 * CausalMACE Appendix B Table 10, `{reasoning, summary, status}`). The summary becomes the node's
 * feedback F, which the next decomposition reads.
 *
 * Accepted answers: `{summary, status}` or `{reasoning, summary, task_status}`, the status as a
 * boolean or as models write it (`"success"`, `"completed"`, `"failed"`, …).
 */
import { z } from 'zod';
import { bullets } from './format.ts';
import type { RoleSpec } from './role.ts';
import { looseBoolean, withKeys } from './shape.ts';

/** What the reflection is shown. */
export interface ReflectInput {
  /** The subtask's description. */
  task: string;
  milestones?: string[];
  /** The agent's actions on it and their results, oldest first. */
  history: string[];
  /** The agent's state now (inventory, position). */
  state?: string;
}

/** The reflection's verdict. */
export interface Reflection {
  success: boolean;
  /** The vital facts of the actions (positions, counts) not in the task's description. */
  summary: string;
  reasoning?: string;
}

const schema = withKeys(
  z.object({
    reasoning: z.string().optional(),
    summary: z.string().trim().min(1, 'a summary is needed'),
    task_status: looseBoolean.optional(),
    status: looseBoolean.optional(),
  }),
  { completed: 'task_status', success: 'task_status', done: 'task_status' },
)
  .refine((r) => r.task_status !== undefined || r.status !== undefined, {
    message: 'task_status (true or false) is needed',
    path: ['task_status'],
  })
  .transform((r): Reflection => ({
    success: (r.task_status ?? r.status)!,
    summary: r.summary,
    ...(r.reasoning ? { reasoning: r.reasoning } : {}),
  }));

const EXAMPLE = `{"reasoning": "The last collect returned 3 oak_log and the inventory holds 3.", "summary": "Collected 3 oak_log at (12, -60, 4); holding 3 oak_log.", "task_status": true}`;

const SYSTEM = `You check whether a Minecraft agent has completed its task, by comparing its actions and state with the task.
Answer with one JSON object only:
${EXAMPLE}
"summary" keeps the vital facts of the actions that the task does not say (positions, counts, what failed and why); "task_status" is true only when the task is done.`;

/** The reflect role (see the module header). */
export const reflectRole: RoleSpec<ReflectInput, Reflection> = {
  name: 'reflect',
  system: SYSTEM,
  expect: 'object',
  schema,
  example: EXAMPLE,
  prompt(input) {
    return [
      `The task: ${input.task}`,
      `Milestones:\n${bullets(input.milestones ?? [])}`,
      `The actions and their results:\n${bullets(input.history)}`,
      `The agent's state:\n${input.state ?? '(not given)'}`,
      'Is the task done? Answer with the JSON object.',
    ].join('\n\n');
  },
};
