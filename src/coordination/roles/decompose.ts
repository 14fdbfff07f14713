/**
 * The decompose role: VillagerAgent's task decomposer (Dong et al. 2024, §3.2, prompts of Figures 9
 * and 10, "update" mode): each round, from the task, the environment, the agents' states and the
 * graph so far (its success and failure traces), the model proposes the next few subtasks as a JSON
 * list; `TaskGraph.addRound` turns them into nodes and edges with Algorithm 1.
 *
 * The answer, one object per subtask (keys as VillagerAgent's prompt writes them, with spaces, are
 * accepted too, and `candidate agents` for `assigned_agents`):
 * `{id, description, milestones[], retrieval_paths[], required_subtasks[], assigned_agents[], number?, work?}`.
 * `assigned_agents` are the node's candidates (empty: every agent); `number` the agents it needs at
 * once (default 1); `work`, beyond the paper, the subtask's typed work (`../work.ts`), which lets the
 * game's rules (`../rules.ts`) check the round's edges.
 *
 * Checked: at least one subtask (unless `allowEmpty`), at most `maxSubtasks` (VillagerAgent: no
 * more subtasks than agents, a rolling horizon), every check of `TaskGraph.checkRound` (ids,
 * prerequisites, agents, `number`, cycles), and each retrieval path against the task data.
 */
import { z } from 'zod';
import type { Subtask, TaskGraph } from '../graph.ts';
import { workSchema } from '../work.ts';
import { outlinePaths, retrieve } from '../retrieval.ts';
import { bullets, formatByName, formatNodes } from './format.ts';
import type { RoleSpec } from './role.ts';
import { idString, listOf, stringList, withKeys } from './shape.ts';

/** What the decomposer is shown. */
export interface DecomposeInput {
  /** The team's task (VillagerAgent's T_g). */
  task: string;
  /** The graph so far (its nodes, statuses and feedback are shown; new ids are checked against it). */
  graph: TaskGraph;
  /** The environment summary (the state manager's E). */
  environment?: string;
  /** Each agent's state summary (S_i), by name. */
  agentStates?: Record<string, string>;
  /** What an agent can do in one step (its commands), as text. */
  abilities?: string;
  /** The task data that retrieval paths point into (its outline is shown; paths are checked). */
  data?: unknown;
  /** Most subtasks in one answer (default: the team's size). */
  maxSubtasks?: number;
  /** Accept an empty list (the model judges the task done or waits for information). Default false. */
  allowEmpty?: boolean;
}

const subtaskSchema = withKeys(
  z.object({
    id: idString,
    description: z.string().trim().min(1, 'a description is needed'),
    milestones: stringList.default([]),
    retrieval_paths: stringList.default([]),
    required_subtasks: z.array(idString).default([]),
    assigned_agents: stringList.default([]),
    number: z.number().int().min(1).optional(),
    work: workSchema.optional(),
  }),
  {
    candidate_agents: 'assigned_agents',
    candidates: 'assigned_agents',
    agents: 'assigned_agents',
    requires: 'required_subtasks',
    retrieval_path: 'retrieval_paths',
  },
);

const schema = listOf(subtaskSchema, ['subtasks', 'tasks', 'plan', 'nodes']).transform((list): Subtask[] =>
  list.map((s) => ({
    id: s.id,
    description: s.description,
    milestones: s.milestones,
    retrievalPaths: s.retrieval_paths,
    requires: s.required_subtasks,
    candidates: s.assigned_agents,
    ...(s.number !== undefined ? { number: s.number } : {}),
    ...(s.work ? { work: s.work } : {}),
  })),
);

const EXAMPLE = `[
  {"id": 1, "description": "Collect 3 oak_log", "milestones": ["find oak trees", "hold 3 oak_log"], "retrieval_paths": [], "required_subtasks": [], "assigned_agents": ["Alice"], "number": 1},
  {"id": 2, "description": "Craft 12 oak_planks from the 3 oak_log", "milestones": ["hold 12 oak_planks"], "retrieval_paths": [], "required_subtasks": [1], "assigned_agents": ["Alice"]}
]`;

const SYSTEM = `You lead a team of Minecraft agents and split their task into subtasks.
The subtasks form a directed acyclic graph: a subtask starts once every subtask it requires has succeeded, and subtasks that do not require each other run in parallel on different agents.
The task is planned a few subtasks at a time: each round you give only the next subtasks, from what the agents have done so far; you will be asked again later.

Rules:
- Make each subtask small, specific and doable by one command sequence: say how many items, which blocks, and where (positions and facing for blocks).
- Agents do not talk while they work, so make subtasks independent; when items must come together (crafting from several agents' materials), add a subtask that hands them to one agent.
- Items lie in an agent's inventory, in a chest or on the ground; items on the ground must be picked up before they can be used.
- Place lower blocks before higher ones.
- required_subtasks lists the ids (of this answer, or of the graph's nodes) that must succeed first. A subtask with no required_subtasks shares the prerequisites of the subtask before it in your list.
- assigned_agents lists the agents who may do the subtask (empty: anyone); number is how many of them it needs at once (default 1).
- retrieval_paths point into the task data (~/key/0 style) at what the subtask needs to know.
- Optionally, work says exactly what the subtask does, with Minecraft item and block names, so the game's rules can check the order of the subtasks: {"kind": "collect", "targets": {"oak_log": 3}}, {"kind": "make", "targets": {"oak_planks": 12}}, {"kind": "give", "to": "Bob", "items": {"stick": 2}} or {"kind": "build", "cells": [{"x": 1, "y": -60, "z": 2, "block": "stone"}]}.

Answer with a JSON list of subtasks only, in this form:
${EXAMPLE}`;

/** The decompose role (see the module header). */
export const decomposeRole: RoleSpec<DecomposeInput, Subtask[]> = {
  name: 'decompose',
  system: SYSTEM,
  expect: 'array',
  schema,
  example: EXAMPLE,
  prompt(input) {
    const max = input.maxSubtasks ?? input.graph.agents.length;
    const nodes = input.graph.nodes();
    const sections = [
      `The task:\n${input.task}`,
      `The agents: ${input.graph.agents.join(', ')}`,
      `What they can do in one step:\n${input.abilities ?? '(not given)'}`,
      `The environment:\n${input.environment ?? '(not given)'}`,
      `The agents' states:\n${formatByName(input.agentStates)}`,
      `Succeeded so far:\n${formatNodes(nodes.filter((n) => n.status === 'success'))}`,
      `Failed so far:\n${formatNodes(nodes.filter((n) => n.status === 'failure'))}`,
      `Running or waiting:\n${formatNodes(nodes.filter((n) => n.status === 'running' || n.status === 'unknown'))}`,
    ];
    if (input.data !== undefined) sections.push(`The task data (retrieval paths):\n${bullets(outlinePaths(input.data))}`);
    sections.push(`Give at most ${max} subtask${max === 1 ? '' : 's'}, as a JSON list.`);
    return sections.join('\n\n');
  },
  check(value, input) {
    const problems: string[] = [];
    const max = input.maxSubtasks ?? input.graph.agents.length;
    if (value.length === 0 && !input.allowEmpty) problems.push('the list is empty: give at least one subtask');
    if (value.length > max) problems.push(`${value.length} subtasks, but at most ${max} may be given`);
    problems.push(...input.graph.checkRound(value));
    if (input.data !== undefined) {
      for (const s of value) {
        for (const p of s.retrievalPaths ?? []) {
          const r = retrieve(input.data, p);
          if (!r.ok) problems.push(`subtask ${s.id}: retrieval path ${r.reason}`);
        }
      }
    }
    return problems;
  },
};
