/**
 * The dependency roles of CausalMACE's planner (Chai et al. 2025, §3.4 and Appendix B Table 7):
 * - {@link dependencyRole}: for one step, every dependency it has with the other steps under the
 *   game rules R, answered as `{"causal effect": [{"chosen_node": a, "target_node": x}, …]}`
 *   (a must be done before x may start); these edges form the initial graph G_init;
 * - {@link dependencyPairRole}: the same question for one pair X = (s_p, s_q), answered
 *   `{"depends": true|false}`: the Y of the causal intervention, asked under R and under each R_i*
 *   (`../causal.ts`).
 *
 * The rules travel in the user turn (they change between the intervention's queries); the system
 * prompt stays the same on every call.
 */
import { z } from 'zod';
import { findCycle, type TaskGraph } from '../graph.ts';
import { bullets } from './format.ts';
import type { RoleSpec } from './role.ts';
import { idString, listOf, looseBoolean, withKeys } from './shape.ts';

/** A step as the dependency roles see it. */
export interface Step {
  id: string;
  description: string;
}

/** The per-step question. */
export interface DependencyInput {
  steps: Step[];
  /** The id of the step to deal with now. */
  step: string;
  /** The game rules to follow (R, or R_i* with one rule replaced). */
  rules: string[];
  /** The graph the edges go into (its node ids are the steps' ids), to refuse edges that would close a cycle with it. */
  graph?: TaskGraph;
}

/** A proposed edge: `from` must be done before `to` may start. */
export interface ProposedEdge {
  from: string;
  to: string;
}

const edgeSchema = withKeys(z.object({ chosen_node: idString, target_node: idString }), {
  from: 'chosen_node',
  source: 'chosen_node',
  to: 'target_node',
  target: 'target_node',
});

const edgesSchema = listOf(edgeSchema, ['causal_effect', 'causal_effects', 'edges', 'dependencies']).transform((list): ProposedEdge[] => {
  const seen = new Set<string>();
  const out: ProposedEdge[] = [];
  for (const e of list) {
    const k = `${e.chosen_node}\u0000${e.target_node}`;
    if (!seen.has(k)) out.push({ from: e.chosen_node, to: e.target_node });
    seen.add(k);
  }
  return out;
});

const EXAMPLE = `{"causal effect": [{"chosen_node": 2, "target_node": 3}, {"chosen_node": 1, "target_node": 2}]}`;

const SYSTEM = `You find the dependencies between the steps of a Minecraft task. Step a is a prerequisite of step x when x cannot start before a is completed. Follow the game rules you are given, and only them.
For the step you are asked about, list every dependency it takes part in: the steps it is a prerequisite of ({"chosen_node": that step, "target_node": the other}) and the steps that are its prerequisites ({"chosen_node": the other, "target_node": that step}). An empty list means it depends on nothing and nothing depends on it.
Think step by step, then answer with one JSON object:
${EXAMPLE}`;

/** The per-step dependency role (see the module header). */
export const dependencyRole: RoleSpec<DependencyInput, ProposedEdge[]> = {
  name: 'dependency',
  system: SYSTEM,
  expect: 'object',
  schema: edgesSchema,
  example: EXAMPLE,
  prompt(input) {
    return [
      `The game rules:\n${bullets(input.rules)}`,
      `The steps:\n${input.steps.map((s) => `${s.id}: ${s.description}`).join('\n')}`,
      `The step to deal with now: ${input.step}`,
      'Answer with the JSON object of its causal effects.',
    ].join('\n\n');
  },
  check(value, input) {
    const ids = new Set(input.steps.map((s) => s.id));
    const problems: string[] = [];
    for (const e of value) {
      for (const id of [e.from, e.to]) if (!ids.has(id)) problems.push(`step ${id} does not exist (steps: ${[...ids].join(', ')})`);
      if (e.from === e.to) problems.push(`step ${e.from} cannot depend on itself`);
      else if (e.from !== input.step && e.to !== input.step) problems.push(`${e.from} → ${e.to} does not involve step ${input.step}`);
    }
    if (!problems.length) {
      const edges = [...(input.graph?.edges() ?? []), ...value];
      const cycle = findCycle([...ids], edges);
      if (cycle) problems.push(`these edges close a cycle: ${cycle.join(' → ')}`);
    }
    return problems;
  },
};

/** The pairwise question of the causal intervention. */
export interface DependencyPairInput {
  from: Step;
  to: Step;
  /** The game rules to follow (R, or R_i*). */
  rules: string[];
}

const pairSchema = withKeys(z.object({ depends: looseBoolean, reason: z.string().optional() }), {
  dependency: 'depends',
  dependent: 'depends',
  answer: 'depends',
  prerequisite: 'depends',
}).transform((r) => r.depends);

const PAIR_EXAMPLE = `{"reason": "The planks are crafted from the logs.", "depends": true}`;

const PAIR_SYSTEM = `You decide whether one step of a Minecraft task must be completed before another may start. Follow the game rules you are given, and only them.
Answer with one JSON object:
${PAIR_EXAMPLE}`;

/** The pairwise dependency role (see the module header). */
export const dependencyPairRole: RoleSpec<DependencyPairInput, boolean> = {
  name: 'dependency',
  system: PAIR_SYSTEM,
  expect: 'object',
  schema: pairSchema,
  example: PAIR_EXAMPLE,
  prompt(input) {
    return [
      `The game rules:\n${bullets(input.rules)}`,
      `Step ${input.from.id}: ${input.from.description}`,
      `Step ${input.to.id}: ${input.to.description}`,
      `Must step ${input.from.id} be completed before step ${input.to.id} can start? Answer with the JSON object.`,
    ].join('\n\n');
  },
};
