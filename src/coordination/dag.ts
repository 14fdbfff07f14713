/**
 * `dag`: VillagerAgent's coordination (Dong et al. 2024, §3; re-implemented from the paper, with
 * the facts of its code noted in ../shared/notes/coordination-systems.md):
 * 1. **Task decomposer.** A round of subtasks becomes graph nodes and edges by Algorithm 1
 *    (`TaskGraph.addRound`); a round the graph refuses (cycle, unknown agent or id, empty) is given
 *    back to the model with the reason (the decompose role's bounded retry), then the fallback: one
 *    node for the whole task, and the failure counts.
 * 2. **Rules** (`./rules.ts`, when `rule_checked_edges` is on): the edges the game's facts refute
 *    are removed and those they require are added.
 * 3. **Agent controller** (Algorithm 2, `./assign.ts`): the ready nodes go to free agents, directly
 *    when a node needs all its free candidates, else by the assign role (its answer checked), else
 *    by the deterministic fallback; a node assigned to several agents is split into one node per
 *    agent, its dependants' edges kept (`TaskGraph.split`).
 * 4. **Execution** (`./execute.ts`): each node runs on its agent as a bounded goal (6 steps or 120 s
 *    with a model), then a reflection gives `{summary, status}`: the node's outcome and feedback.
 * 5. **State manager** (`./state.ts`): a summary per agent after each of its subtasks, and an
 *    environment summary cached for 120 s, shown to the decomposer and the controller.
 * 6. **Rolling update.** When the graph is settled (nothing runs, nothing is ready), the decomposer
 *    runs again with the success and failure traces: at most as many new subtasks as agents per
 *    round (VillagerAgent's "update" mode).
 * 7. **Stops** (VillagerAgent's code): 3 failed subtasks → `gave_up`; a node's own bound (120 s;
 *    the code's 30 min per task is longer than every MineCollab timeout); a decomposer with nothing
 *    more to do while the task is not done → `gave_up` after a grace; the run's own timeout.
 *    The code's "10 successes" stop is left out: MineCollab's construction needs more subtasks.
 *
 * Offline (no planner, `--model oracle`): every round comes from the rules (`./rule-plan.ts`: the
 * offline policy's own plan from the agents' real inventories and what the world gives, with its
 * edges as the rules' own); assignment is direct or the fallback; the offline policy executes each
 * node by its typed work, and the rules judge it from the world. A rolling update plans again from
 * the state: only what is left.
 */
import { assignReady } from './assign.ts';
import { ABILITIES, DEFAULT_GRAPH_OPTIONS, GraphRun, type GraphStrategyOptions, type GraphTeam, graphTeamOf } from './graph-run.ts';
import { askWithRole } from './roles/assign.ts';
import { decomposeRole } from './roles/decompose.ts';
import { callRole } from './roles/role.ts';
import { rulePlan } from './rule-plan.ts';
import type { CoordinationStrategy, StrategyEnd, StrategyRun, TeamRun } from './strategy.ts';

/**
 * The `dag` strategy with `options` (default: VillagerAgent's bounds).
 *
 * @example const strategy = dagStrategy({ maxFailures: 5 });
 */
export function dagStrategy(options: Partial<GraphStrategyOptions> = {}): CoordinationStrategy {
  return {
    name: 'dag',
    start(team: TeamRun): Promise<StrategyRun> {
      return Promise.resolve({ ended: runDag(graphTeamOf(team), options) });
    },
  };
}

/** The default `dag` strategy. */
export const dag: CoordinationStrategy = dagStrategy();

/**
 * Runs VillagerAgent's loop on `team` until it stops or the run ends (see the module header).
 * Never rejects: a failure of its own ends it with `gave_up` and the reason.
 */
export async function runDag(team: GraphTeam, options: Partial<GraphStrategyOptions> = {}): Promise<StrategyEnd> {
  const run = new GraphRun(team, 'dag', { ...DEFAULT_GRAPH_OPTIONS, ...options });
  return run.play(() => loop(run));
}

async function loop(run: GraphRun): Promise<StrategyEnd> {
  const { graph, team } = run;
  const limit = run.options.maxFailures;
  for (;;) {
    if (team.signal.aborted) return run.end({ kind: 'stopped' });
    if (run.failures >= limit)
      return run.end({ kind: 'gave_up', reason: `${run.failures} subtasks failed (VillagerAgent stops at ${limit})` });
    const free = run.free();
    let started = 0;
    if (free.length && graph.available(free).length) {
      const ask =
        run.call &&
        askWithRole(run.call, {
          environment: await run.state.environment(),
          agentStates: run.state.agentStates(),
          experience: run.experience(),
        });
      const round = await assignReady(graph, free, ask);
      if (team.signal.aborted) continue;
      if (round.fallbackReason) run.note(`assign: the fallback decided (${round.fallbackReason})`);
      for (const a of round.assignments) {
        const node = graph.node(a.nodeId);
        if (!node || node.status !== 'unknown' || a.agents.some((x) => run.busy.has(x))) continue;
        const how = a.by === 'fallback' && round.fallbackReason ? `fallback: ${round.fallbackReason}` : `${a.by}: ${a.reason}`;
        if (a.agents.length === 1) {
          graph.start(a.nodeId, a.agents);
          run.launch(a.nodeId, a.agents[0]!, how);
          started++;
          continue;
        }
        // VillagerAgent splits a node assigned to several agents into one node per agent.
        const split = graph.split(
          a.nodeId,
          a.agents.map((agent) => ({
            agent,
            description: `${node.description} (together with ${a.agents.filter((x) => x !== agent).join(', ')})`,
          })),
        );
        if (!split.ok) {
          run.note(`${a.nodeId} not split: ${split.reason}`);
          continue;
        }
        run.record(`${a.nodeId} split into ${split.ids.join(', ')} for ${a.agents.join(', ')}`);
        split.ids.forEach((id, i) => {
          graph.start(id, [a.agents[i]!]);
          run.launch(id, a.agents[i]!, how);
          started++;
        });
      }
    }
    if (started === 0 && run.running === 0) {
      // Settled (or nothing any free agent can take): the rolling update.
      if (graph.rounds >= run.options.maxRounds)
        return run.end({ kind: 'gave_up', reason: `${graph.rounds} decomposer rounds and the task is not done` });
      const next = await decompose(run);
      if (next.kind === 'end') return next.end;
      continue;
    }
    await run.changed();
  }
}

type RoundResult = { kind: 'added' } | { kind: 'end'; end: StrategyEnd | Promise<StrategyEnd> };

/** One decomposer round: the model's, or the rules'. */
async function decompose(run: GraphRun): Promise<{ kind: 'added' } | { kind: 'end'; end: StrategyEnd }> {
  const r = run.call ? await modelRound(run) : ruleRound(run);
  if (r.kind === 'end') return { kind: 'end', end: await r.end };
  run.checkRules();
  return r;
}

function ruleRound(run: GraphRun): RoundResult {
  const plan = rulePlan({ data: run.team.data, members: run.team.members, blueprint: run.team.blueprint });
  if (plan.kind === 'unsolvable')
    return { kind: 'end', end: run.end({ kind: 'gave_up', reason: `the rules find the task cannot be done: ${plan.reason}` }) };
  if (plan.kind === 'done') return { kind: 'end', end: run.graceThenGiveUp(`the plan is done (${plan.reason}), but the task is not`) };
  if (!run.addRulePlan(plan)) return { kind: 'end', end: run.end({ kind: 'gave_up', reason: 'the rules planned nothing' }) };
  return { kind: 'added' };
}

async function modelRound(run: GraphRun): Promise<RoundResult> {
  const { graph } = run;
  const first = graph.nodes().length === 0;
  const r = await callRole(
    decomposeRole,
    {
      task: run.taskText(),
      graph,
      environment: await run.state.environment(),
      agentStates: run.state.agentStates(),
      abilities: ABILITIES,
      data: run.taskData(),
      maxSubtasks: run.names.length,
      // Once the graph holds work, an empty answer says the task is done.
      allowEmpty: !first,
    },
    run.call!,
  );
  if (run.team.signal.aborted) return { kind: 'end', end: run.end({ kind: 'stopped' }) };
  if (!r.ok) {
    run.fail();
    run.addWholeTask(`the decomposer failed: ${r.reason}`);
    return { kind: 'added' };
  }
  if (r.value.length === 0)
    return { kind: 'end', end: run.graceThenGiveUp('the decomposer has nothing more to do, but the task is not done') };
  const added = graph.addRound(r.value);
  if (!added.ok) {
    run.fail();
    run.addWholeTask(`the graph refused the round: ${added.problems.join('; ')}`);
    return { kind: 'added' };
  }
  run.record(`decomposed (round ${added.round}): ${Object.values(added.ids).join(', ')}`);
  return { kind: 'added' };
}
