/**
 * `causal`: CausalMACE's coordination (Chai et al. 2025, §3; re-implemented from the paper, which
 * published no code):
 * 1. **Decomposition** once into nodes (the decompose role, its prerequisites dropped: CausalMACE's
 *    edges come from step 2); a decomposition that stays bad after the role's retries falls back to
 *    one node for the whole task.
 * 2. **Initial graph** G_init: for each node the dependency role proposes its edges under the game
 *    rules R ({@link GAME_RULES}; `proposeDependencies`).
 * 3. **Causal intervention**: every edge is asked again under R and under each R_i* (a
 *    counterfactual rule per rule), and removed when its ATE is 0 (`interveneEdges`).
 * 4. **Rules** (`./rules.ts`, when `rule_checked_edges` is on): edges the game's facts refute are
 *    removed and those they require added, at no token cost.
 * 5. **Workers** (`./paths.ts`): the entry-to-exit paths by DFS (at most 256; nodes on none become
 *    paths of their own); a free agent takes the least busy path whose next subtask lists it as a
 *    candidate, and the next when it is done (a worker blocked on its path takes a ready one:
 *    `preferReady`). Each node runs and is reflected on as in `dag` (`./execute.ts`).
 * 6. **Stops**: the paper plans once and describes no replanning; here a failed node is tried again
 *    in place until the strategy's failures reach 3 (`gave_up`, as `dag`), and when every path is
 *    finished, or none can go on, while the task is not done, it gives up (after a grace).
 *
 * Offline (no planner): the nodes are the rules' decomposition (`./rule-plan.ts`, as `dag`'s) and
 * the edges the rules' own; no intervention queries (the rules are R themselves).
 */
import { interveneEdges, proposeDependencies } from './causal.ts';
import { ABILITIES, DEFAULT_GRAPH_OPTIONS, GraphRun, type GraphStrategyOptions, type GraphTeam, graphTeamOf } from './graph-run.ts';
import { enumeratePaths, PathWorkers } from './paths.ts';
import { decomposeRole } from './roles/decompose.ts';
import { callRole } from './roles/role.ts';
import { rulePlan } from './rule-plan.ts';
import type { CoordinationStrategy, StrategyEnd, StrategyRun, TeamRun } from './strategy.ts';

/**
 * The game rules R given to the dependency role (CausalMACE §3.4 names "take an item out of a
 * container before using it", "equip before placing", "lower blocks first"; these are the rules
 * of MineCollab's crafting, cooking and construction in the same plain words).
 */
export const GAME_RULES = [
  'An agent can use, give or place an item only while it holds the item in its inventory.',
  'An item is crafted, smelted or cooked from ingredients the crafting agent holds, so the ingredients must be obtained first.',
  'Items given by one agent to another can be used by the receiver only after the hand-over.',
  'A block must rest on the block below it: the block at a lower place must be placed first.',
];

/** Most nodes of the one decomposition (the role's bound). */
const MAX_NODES = 12;

/**
 * The `causal` strategy with `options` (the same as `dag`'s; `maxRounds` is unused).
 *
 * @example const strategy = causalStrategy({ roleTimeoutMs: 20_000 });
 */
export function causalStrategy(options: Partial<GraphStrategyOptions> = {}): CoordinationStrategy {
  return {
    name: 'causal',
    start(team: TeamRun): Promise<StrategyRun> {
      return Promise.resolve({ ended: runCausal(graphTeamOf(team), options) });
    },
  };
}

/** The default `causal` strategy. */
export const causal: CoordinationStrategy = causalStrategy();

/**
 * Runs CausalMACE's planner and workers on `team` until they stop or the run ends (see the module
 * header). Never rejects.
 */
export async function runCausal(team: GraphTeam, options: Partial<GraphStrategyOptions> = {}): Promise<StrategyEnd> {
  const run = new GraphRun(team, 'causal', { ...DEFAULT_GRAPH_OPTIONS, ...options });
  return run.play(async () => (await plan(run)) ?? work(run));
}

/** The planner: nodes, edges, intervention and rules. Resolves with an end when it cannot plan. */
async function plan(run: GraphRun): Promise<StrategyEnd | undefined> {
  const { graph, team } = run;
  if (!run.call) {
    const p = rulePlan({ data: team.data, members: team.members, blueprint: team.blueprint });
    if (p.kind === 'unsolvable') return run.end({ kind: 'gave_up', reason: `the rules find the task cannot be done: ${p.reason}` });
    if (p.kind === 'done') return run.graceThenGiveUp(`nothing to plan (${p.reason}), but the task is not done`);
    if (!run.addRulePlan(p)) return run.end({ kind: 'gave_up', reason: 'the rules planned nothing' });
    run.checkRules();
    return undefined;
  }
  const call = run.call;
  const r = await callRole(
    decomposeRole,
    {
      task: run.taskText(),
      graph,
      environment: await run.state.environment(),
      agentStates: run.state.agentStates(),
      abilities: ABILITIES,
      data: run.taskData(),
      maxSubtasks: Math.min(MAX_NODES, Math.max(6, 3 * run.names.length)),
    },
    call,
  );
  if (team.signal.aborted) return run.end({ kind: 'stopped' });
  const added = r.ok ? graph.addRound(r.value.map((s) => ({ ...s, requires: [] }))) : undefined;
  if (!r.ok || !added?.ok) {
    run.fail();
    run.addWholeTask(
      r.ok
        ? `the graph refused the nodes: ${added && !added.ok ? added.problems.join('; ') : ''}`
        : `the decomposition failed: ${r.reason}`,
    );
    return undefined;
  }
  // Algorithm 1's inheritance gives nodes without prerequisites none: the edges are the dependency role's.
  run.record(`decomposed: ${Object.values(added.ids).join(', ')}`);
  const proposed = await proposeDependencies(graph, { ...call, rules: GAME_RULES });
  for (const f of proposed.failures) run.note(`dependency of ${f.step}: no edges (${f.reason})`);
  run.record(
    `initial graph: ${proposed.added} edges proposed under the game rules${proposed.failures.length ? `, ${proposed.failures.length} steps without an answer` : ''}`,
  );
  if (team.signal.aborted) return run.end({ kind: 'stopped' });
  const report = await interveneEdges(graph, { ...call, rules: GAME_RULES });
  const unknown = report.edges.filter((e) => e.ate === null).length;
  run.record(
    `causal intervention: ${report.edges.length} edges, ${report.queries} questions, ${report.removed} removed at ATE 0${unknown ? `, ${unknown} kept with the ATE unknown` : ''}${report.aborted ? ' (cut short)' : ''}`,
  );
  if (team.signal.aborted) return run.end({ kind: 'stopped' });
  run.checkRules();
  return undefined;
}

/** The workers: each free agent takes its next step on the paths, until nothing is left. */
async function work(run: GraphRun): Promise<StrategyEnd> {
  const { graph, team } = run;
  const found = enumeratePaths(graph);
  const paths = [...found.paths, ...found.uncovered.map((id) => [id])];
  const workers = new PathWorkers(graph, paths);
  run.record(
    `${paths.length} paths${found.truncated ? ` (the search stopped at ${found.paths.length}; ${found.uncovered.length} nodes as paths of their own)` : ''}`,
  );
  const limit = run.options.maxFailures;
  for (;;) {
    if (team.signal.aborted) return run.end({ kind: 'stopped' });
    if (run.failures >= limit)
      return run.end({ kind: 'gave_up', reason: `${run.failures} subtasks failed (the strategy stops at ${limit})` });
    let started = 0;
    for (const agent of run.free()) {
      const step = workers.next(agent, { preferReady: true });
      if (step.kind !== 'run') continue;
      started++;
      run.launch(
        step.node,
        agent,
        `path ${step.path}, busy rates ${workers
          .busyRates(agent)
          .map((x) => Math.round(x * 100) / 100)
          .join(' ')}`,
        (node, status) => {
          // No replanning in the paper: a failed node is tried again in place while failures allow.
          if (status === 'failure' && run.failures < limit) {
            graph.reopen(node.id);
            run.record(`${node.id} opened again (failure ${run.failures} of ${limit})`);
          }
        },
      );
    }
    if (started === 0 && run.running === 0) {
      const open = graph.nodes().filter((n) => n.status !== 'success');
      if (open.length === 0) return run.graceThenGiveUp('every path is done, but the task is not');
      return run.end({
        kind: 'gave_up',
        reason: `no path can go on: ${open
          .slice(0, 6)
          .map((n) => `${n.id} ${n.status}`)
          .join(', ')}`,
      });
    }
    await run.changed();
  }
}
