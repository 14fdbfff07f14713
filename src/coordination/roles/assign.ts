/**
 * The assign role: VillagerAgent's agent controller call (Dong et al. 2024, §3.3, prompt of Figure
 * 11): for the ready nodes not assigned directly, the model pairs tasks with free agents and answers
 * `[{reason, task_id, agent}]` (`agent` one name or a list). Checked by `validateAssignment` of
 * `../assign.ts` (offered task, free candidate, no agent twice, exactly `number` agents per task).
 */
import { z } from 'zod';
import { type AskAssignment, type AssignmentOffer, type ProposedAssignment, validateAssignment } from '../assign.ts';
import { callRole, type RoleCall, type RoleSpec } from './role.ts';
import { formatByName } from './format.ts';
import { idString, listOf, stringList, withKeys } from './shape.ts';

/** What the controller is shown. */
export interface AssignInput {
  /** The tasks and free agents left after the direct assignments (`directAssignments`). */
  offer: AssignmentOffer;
  environment?: string;
  /** Each agent's state summary, by name. */
  agentStates?: Record<string, string>;
  /** Each agent's record (tasks done and failed), by name. */
  experience?: Record<string, string>;
}

const itemSchema = withKeys(
  z.object({
    reason: z.string().default(''),
    task_id: idString,
    agent: stringList.refine((a) => a.length > 0, 'name at least one agent'),
  }),
  { task: 'task_id', id: 'task_id', node: 'task_id', node_id: 'task_id', agents: 'agent', agent_name: 'agent' },
);

const schema = listOf(itemSchema, ['assignments', 'assignment', 'tasks']).transform((list): ProposedAssignment[] =>
  list.map((a) => ({ nodeId: a.task_id, agents: a.agent.map((x) => x.trim()), reason: a.reason })),
);

const EXAMPLE = `[
  {"reason": "Alice holds the planks the sticks need", "task_id": "1.2", "agent": "Alice"},
  {"reason": "Bob is free and next to the trees", "task_id": "1.3", "agent": "Bob"}
]`;

const SYSTEM = `You are the controller of a team of Minecraft agents: you give tasks to free agents.
Each task needs exactly its number of agents, all among its candidates, and no agent takes two tasks.
Consider each agent's state (position, items held, health), what the task needs (items, place), each agent's record of tasks done and failed, and their abilities; leave as few agents idle as you can.
Answer with a JSON list of assignments only, one entry per agent (or a list of names for a task that needs several), with a short reason each:
${EXAMPLE}`;

/** The assign role (see the module header). */
export const assignRole: RoleSpec<AssignInput, ProposedAssignment[]> = {
  name: 'assign',
  system: SYSTEM,
  expect: 'array',
  schema,
  example: EXAMPLE,
  prompt(input) {
    const { offer } = input;
    const tasks = offer.nodes
      .map((n) => {
        const free = n.candidates.filter((c) => offer.free.includes(c));
        return `${n.id}: ${n.description} (needs ${n.number} agent${n.number === 1 ? '' : 's'}; free candidates: ${free.join(', ')})`;
      })
      .join('\n');
    return [
      `The environment:\n${input.environment ?? '(not given)'}`,
      `The agents' records:\n${formatByName(input.experience)}`,
      `The agents' states:\n${formatByName(input.agentStates)}`,
      `Free agents: ${offer.free.join(', ')}`,
      `Tasks to assign:\n${tasks}`,
      'Answer with the JSON list of assignments.',
    ].join('\n\n');
  },
  check(value, input) {
    return validateAssignment(input.offer, value);
  },
};

/**
 * The `ask` of `assignReady` through the assign role.
 *
 * @param context what the controller is shown besides the offer.
 * @example await assignReady(graph, free, askWithRole({ model, stats }, { environment }))
 */
export function askWithRole(call: RoleCall, context: Omit<AssignInput, 'offer'> = {}): AskAssignment {
  return (offer) => callRole(assignRole, { ...context, offer }, call);
}
