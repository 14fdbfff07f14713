/**
 * The coordination layer: team strategies above the agents (VillagerAgent's task graph `dag`,
 * CausalMACE's causal graph `causal`), as pure parts the application wires to the agents:
 * - `graph.ts` the task graph; `work.ts` typed work; `retrieval.ts` paths into task data;
 * - `assign.ts` Algorithm 2's assignment; `paths.ts` CausalMACE's path workers;
 * - `rules.ts` edges checked by the game's facts; `causal.ts` the causal intervention;
 * - `organisation.ts` S-Agents' organisation, order guard, reports, todos and quotas;
 * - `roles/` the LLM roles as typed calls; `metrics.ts` the papers' metrics.
 */
export * from './graph.ts';
export * from './work.ts';
export * from './retrieval.ts';
export * from './assign.ts';
export * from './paths.ts';
export * from './rules.ts';
export * from './causal.ts';
export * from './metrics.ts';
export * from './organisation.ts';
export * from './roles/index.ts';
