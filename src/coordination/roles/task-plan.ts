/**
 * The task_plan role: S-Agents' task planner (Chen et al. 2024, §III-B.3 and Appendix C-2), a
 * chain of thought that narrows everything the agent perceives to one objective (the hourglass's
 * bottleneck), then widens it into a staged long-term plan and the task at hand. Its fields are the
 * paper's: the current inventory of the employees, the objective, the analysis, the long-term plan
 * in stages, the task at hand (none when nothing is to be done now) and the informer (who gave it).
 *
 * The root and the leaves follow different rules (the paper's two prompts): the root keeps every
 * employee busy in every stage, one thing each, splits large quotas evenly (50 logs → 17/17/16),
 * puts dependent work in different stages and independent work in the same one, writes no
 * "assist" tasks, prefers employees with a record of success, and gives construction steps their
 * coordinates; a leaf does its task itself and never delegates, retries the same plan after a
 * timeout, and collects a little extra.
 */
import { z } from 'zod';
import { bullets, formatByName } from './format.ts';
import type { RoleSpec } from './role.ts';
import { withKeys } from './shape.ts';

/** What the task planner is shown. */
export interface TaskPlanInput {
  /** The planning agent. */
  name: string;
  /** Whether it is the root (it plans for `employees`) or a leaf (it plans for itself). */
  root: boolean;
  /** The agents it may command (the root's employees; empty for a leaf). */
  employees: string[];
  /** The task as given (the root: the team's task; a leaf: its order). */
  task: string;
  /** Everyone's inventory in words, by name (the employees' and its own). */
  inventories: Readonly<Record<string, string>>;
  /** The agent's perception: position, biome, time, health, hunger, nearby blocks. */
  perception: string;
  /** The group's messages since the last plan, oldest first. */
  conversation: string[];
  previousObjective?: string;
  previousPlan?: string;
  /** Each employee's record of tasks done and failed. */
  progress?: Readonly<Record<string, string>>;
}

/** The task planner's answer. */
export interface TaskPlan {
  inventories: string;
  objective: string;
  analysis: string;
  /** The long-term plan, one entry per stage. */
  plan: string[];
  /** The stage to do now; empty when there is nothing to do now ("None"). */
  taskAtHand: string;
  informer: string;
}

const text = z
  .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
  .transform((v) => (typeof v === 'string' ? v.trim() : JSON.stringify(v)));

const schema = withKeys(
  z.object({
    inventories: text.optional(),
    objective: z.string().trim().min(1, 'an objective is needed'),
    analysis: text.optional(),
    plan: z.union([
      z.string().transform((s) =>
        s
          .split(/\n+/)
          .map((l) => l.trim())
          .filter(Boolean),
      ),
      z.array(text),
    ]),
    task_at_hand: z.union([z.string(), z.null()]).transform((s) => (s === null || /^\s*none\.?\s*$/i.test(s) ? '' : s.trim())),
    informer: z.string().trim().min(1, 'the informer is needed'),
  }),
  {
    current_inventory_of_employers: 'inventories',
    current_inventory_of_employees: 'inventories',
    inventory: 'inventories',
    long_term_plan: 'plan',
    stages: 'plan',
    the_task_at_hand: 'task_at_hand',
    current_task: 'task_at_hand',
    task: 'task_at_hand',
  },
).transform((r): TaskPlan => ({
  inventories: r.inventories ?? '',
  objective: r.objective,
  analysis: r.analysis ?? '',
  plan: r.plan,
  taskAtHand: r.task_at_hand,
  informer: r.informer,
}));

const EXAMPLE = `{"inventories": "Andy has nothing; Jill has nothing; Bob has nothing", "objective": "Collect 50 oak_log", "analysis": "Three employees with empty inventories; the logs are independent work, so one stage with 17, 17 and 16.", "plan": ["Stage 1: Andy mines 17 oak_log, Jill mines 17 oak_log, Bob mines 16 oak_log"], "task_at_hand": "Stage 1: Andy mines 17 oak_log, Jill mines 17 oak_log, Bob mines 16 oak_log", "informer": "system"}`;

const ROOT_RULES = `You lead employees in Minecraft and divide the work among them. Rules:
1. Arrange for every employee to have one specific thing to do in every stage, to maximise parallelism; nobody waits for or blocks another.
2. Split large quotas evenly (50 logs among 3: 17, 17 and 16).
3. Dependent work goes in different stages; independent work goes in the same stage, to different employees.
4. Adjust a previous plan from the inventories and progress; give a finished employee what the others left.
5. Prefer employees with a record of success for what they have done before.
6. No "assist" tasks: each employee does different things, from its inventory.
7. Each construction step says its exact coordinates.`;

const LEAF_RULES = `You are an employee in Minecraft: you do your task yourself. Rules:
1. Never delegate: the task at hand is yours.
2. After a timeout, retry the same plan.
3. Collect a little more than asked.
4. Each construction step says its exact coordinates.`;

/** The task_plan role (see the module header). */
export const taskPlanRole: RoleSpec<TaskPlanInput, TaskPlan> = {
  name: 'task_plan',
  system: `You are a Minecraft planner who splits a task into stages by the rules of Minecraft. Think step by step.
Answer with one JSON object only, with the fields of this example:
${EXAMPLE}
"plan" is the long-term plan, one entry per stage; "task_at_hand" is the stage to do now ("None" when nothing is to be done now); "informer" is who gave you the task ("system" for the team's task).`,
  expect: 'object',
  schema,
  example: EXAMPLE,
  check(value, input) {
    const problems: string[] = [];
    if (value.plan.length === 0 && value.taskAtHand) problems.push('plan: the long-term plan has no stage');
    const known = new Set([input.name, ...input.employees, ...Object.keys(input.inventories), 'system', 'task', 'none', 'leader']);
    if (!known.has(value.informer) && !input.conversation.some((l) => l.includes(value.informer)))
      problems.push(`informer: "${value.informer}" gave you nothing; name who did (${[...known].slice(0, 6).join(', ')})`);
    return problems;
  },
  prompt(input) {
    return [
      input.root ? ROOT_RULES.replace('employees', `employees (${input.employees.join(', ') || 'none: only you'})`) : LEAF_RULES,
      `Your name: ${input.name}`,
      `The task: ${input.task}`,
      `What you perceive: ${input.perception}`,
      `Previous inventory of employees:\n${formatByName(input.inventories)}`,
      `Previous progress:\n${formatByName(input.progress)}`,
      `Previous objective: ${input.previousObjective ?? 'None'}`,
      `Previous long-term plan: ${input.previousPlan ?? 'None'}`,
      `Conversation:\n${bullets(input.conversation)}`,
      'Give the JSON object.',
    ].join('\n\n');
  },
};
