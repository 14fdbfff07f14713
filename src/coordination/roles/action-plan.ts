/**
 * The action_plan role: S-Agents' action planner (Chen et al. 2024, §III-B.3 and Appendix C-3):
 * the task at hand as a JSON list of todos, done in order. A todo is either direct ("Mine
 * [quantity] [block]", "Craft [quantity] [item]", …, or a `!command` as written), run on the agent
 * as its `!command`, or a delegation ("inform [player] to …"), an order in that player's inbox.
 *
 * Its answer is checked (`../organisation.ts`): every todo readable; orders only to known agents
 * the planner may command; a leaf never delegates; and each order passes the run's guard (at most
 * one commander, no command cycle, no delegation loop). A problem goes back to the model (the
 * bounded retry) with what to write instead.
 */
import { z } from 'zod';
import { parseTodo, type Todo } from '../organisation.ts';
import { bullets } from './format.ts';
import type { RoleSpec } from './role.ts';
import { listOf } from './shape.ts';

/** What the action planner is shown. */
export interface ActionPlanInput {
  name: string;
  /** The task at hand, from the task planner. */
  task: string;
  /** Agents it may inform (an empty list: a leaf, which does everything itself). */
  mayInform: string[];
  /** Every agent of the team. */
  agents: string[];
  /** Why an order to `to` would be refused now, if it would (the run's guard). */
  guard?(to: string, task: string): string | undefined;
}

const EXAMPLE_ROOT = `["inform Jill to mine 17 oak_log", "inform Bob to mine 16 oak_log", "Mine 17 oak_log"]`;
const EXAMPLE_LEAF = `["Mine 17 oak_log", "Craft 4 oak_planks"]`;

/** The action_plan role (see the module header). */
export const actionPlanRole: RoleSpec<ActionPlanInput, Todo[]> = {
  name: 'action_plan',
  system: `You turn a Minecraft task into a TODO list, done in order. A todo is one short phrase:
"Mine [quantity] [block]", "Craft [quantity] [item]", "Smelt [quantity] [item]", "Cook [quantity] [food]", "Kill [quantity] [mob]", "Equip [item]", "Give [quantity] [item] to [player]", "Place [block] at (x, y, z)", a !command, or "inform [player] to [task]" for work someone else does.
If the task is someone else's, inform that person instead of doing it yourself.
Answer with the JSON list only (it is parsed as JSON), e.g. ${EXAMPLE_LEAF}`,
  expect: 'array',
  schema: listOf(z.string().trim().min(1, 'a todo is a non-empty phrase'), ['todo', 'todos', 'todo_list']).transform((todos) =>
    todos.map(parseTodo),
  ),
  example: EXAMPLE_LEAF,
  check(todos, input) {
    const problems: string[] = [];
    if (todos.length === 0) problems.push('the list is empty; give at least one todo');
    for (const t of todos) {
      if (t.kind === 'unreadable') problems.push(t.reason);
      else if (t.kind === 'inform') {
        if (!input.agents.includes(t.to)) problems.push(`"${t.todo}": ${t.to} is not in the team (${input.agents.join(', ')})`);
        else if (input.mayInform.length === 0) problems.push(`"${t.todo}": you are a leaf; do the task yourself and never inform others`);
        else if (!input.mayInform.includes(t.to)) problems.push(`"${t.todo}": you may inform only ${input.mayInform.join(', ')}`);
        else {
          const refused = input.guard?.(t.to, t.task);
          if (refused) problems.push(`"${t.todo}": ${refused}`);
        }
      }
    }
    return problems;
  },
  prompt(input) {
    return [
      `Your name: ${input.name}`,
      `Current task: ${input.task}`,
      input.mayInform.length
        ? `You may inform: ${input.mayInform.join(', ')}. E.g. ${EXAMPLE_ROOT}`
        : `You do everything yourself: no "inform" todos. E.g. ${EXAMPLE_LEAF}`,
      `Players: ${bullets(input.agents)}`,
      'Give the TODO list as JSON.',
    ].join('\n\n');
  },
};
