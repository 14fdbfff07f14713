/**
 * The summarise roles of VillagerAgent's state manager (Dong et al. 2024, §3.4; CausalMACE
 * Appendix B Table 8 has the same two prompts):
 * - the agent state S_i = LLM(prompt_a, S_i, H_i): a running first-person summary of one agent,
 *   from the summary so far and its latest actions (its long-term memory);
 * - the environment E = LLM(prompt_e, T_g, I): what matters for the task in the union I of every
 *   agent's observations (entities, blocks, creatures, interactive items, with positions).
 *   VillagerAgent's code caches it for about 120 s; caching is the caller's.
 *
 * Both answer `{"summary": "..."}`; an answer with no JSON is taken as the summary itself (models
 * often write a summary as plain text). Both count under the role name `summarise`.
 */
import { z } from 'zod';
import { bullets, formatByName } from './format.ts';
import type { RoleSpec } from './role.ts';
import { withKeys } from './shape.ts';

/** One agent's summary update. */
export interface AgentSummaryInput {
  name: string;
  /** The summary so far (empty at first). */
  summary: string;
  /** The latest actions and their results, oldest first. */
  actions: string[];
}

/** The environment summary's input. */
export interface EnvironmentSummaryInput {
  task: string;
  /** Each agent's observations (nearby blocks, entities, signs, chests), by agent name. */
  observations: Record<string, string>;
}

const schema = withKeys(z.object({ summary: z.string().trim().min(1, 'the summary is empty') }), {
  agent_state: 'summary',
  state: 'summary',
  environment: 'summary',
}).transform((r) => r.summary);

/** Plain text taken as the summary (fences and a leading `Summary:` dropped). */
function prose(text: string): unknown {
  const t = text
    .replace(/```[a-z]*\n?|```/g, '')
    .replace(/^\s*summary\s*:\s*/i, '')
    .trim();
  return t ? { summary: t } : undefined;
}

const AGENT_EXAMPLE = `{"summary": "I collected 3 oak_log at (12, -60, 4), crafted 12 oak_planks and gave 4 to Bob."}`;

/** The agent-state summary (see the module header). */
export const agentSummaryRole: RoleSpec<AgentSummaryInput, string> = {
  name: 'summarise',
  system: `You keep a running summary of a Minecraft agent's actions. Combine the summary so far with the agent's latest actions into one concise summary, written in the first person and the past tense as the agent ("I ..."), keeping what may matter later: positions, items gained, given or used, and what failed and why.
Answer with one JSON object only:
${AGENT_EXAMPLE}`,
  expect: 'object',
  schema,
  example: AGENT_EXAMPLE,
  prose,
  prompt(input) {
    return [
      `You are ${input.name}.`,
      `The summary so far:\n${input.summary || '(empty)'}`,
      `Your latest actions:\n${bullets(input.actions)}`,
    ].join('\n\n');
  },
};

const ENV_EXAMPLE = `{"summary": "Chest at (3, -60, 7) with 2 egg and 1 bucket; wheat (ripe) at (10, -60, 2) to (12, -60, 4); 3 cows near (20, -60, 0); crafting table at (1, -60, 1)."}`;

/** The environment summary (see the module header). */
export const environmentSummaryRole: RoleSpec<EnvironmentSummaryInput, string> = {
  name: 'summarise',
  system: `You summarise what a team of Minecraft agents observes, for their task. Keep what the task needs: entities, blocks, creatures and interactive items (chests and their contents, crafting tables, furnaces, animals, plants), each with its position; leave out the rest.
Answer with one JSON object only:
${ENV_EXAMPLE}`,
  expect: 'object',
  schema,
  example: ENV_EXAMPLE,
  prose,
  prompt(input) {
    return [`The task: ${input.task}`, `What the agents observe:\n${formatByName(input.observations)}`].join('\n\n');
  },
};
