/**
 * S-Agents' Figure 7 with the offline oracle: its collection tasks (`tasks/collection/`, the team's
 * inventories together must hold the count, in the survival world) played by `npm run eval
 * --model oracle --coordination tree` with 1, 2 and 3 agents. Prints one row per task and strategy:
 * the time cost (minutes from the goals to success, "NaN" when unsolved, as the paper's §IV-A
 * defines it) and mPT (mean hourglass iterations per agent) for each team size, then each run's
 * end and each agent's commands.
 *
 *   npx node bench/collection.ts [--targets oak_log_50,cobblestone_50,iron_ingot_20] [--agents 1,2,3]
 *                                [--coordinations tree] [--parallel P] [--cap S] [--json FILE] [--out DIR]
 *
 * Figure 7(b) is the default (the tree with 1, 2 and 3 agents); Figure 7(a), three agents mining
 * 50 stone under each organisation: `--targets cobblestone_50 --agents 3 --coordinations tree,chain,graph`.
 * `--targets` names tasks by item and count as their ids do (`collection_<item>_<count>__num_agents_N`);
 * `--cap` caps each task's timeout (default: the tasks' own, 900 s); `--out` keeps the evaluation's
 * records there (its runs' logs, graph.jsonl of each run; default a temporary folder). Each run is minutes of play in
 * the survival world: run it on a quiet machine.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate } from '../src/app/evaluate.ts';
import { parseCoordinations } from '../src/tasks/eval/campaign.ts';
import { settingsSchema } from '../src/settings/index.ts';
import { DEFAULT_MINECRAFT_VERSION } from '../src/game/versions.ts';
import type { RunResult } from '../src/tasks/eval/records.ts';

const { values: args } = parseArgs({
  options: {
    targets: { type: 'string', default: 'oak_log_50,cobblestone_50,iron_ingot_20' },
    agents: { type: 'string', default: '1,2,3' },
    coordinations: { type: 'string', default: 'tree' },
    parallel: { type: 'string', default: '1' },
    cap: { type: 'string' },
    json: { type: 'string' },
    out: { type: 'string' },
  },
});
const targets = args.targets.split(',').map((t) => t.trim());
for (const t of targets) if (!/^[a-z_]+_\d+$/.test(t)) throw new RangeError(`--targets expects item_count names (oak_log_50), got "${t}"`);
const sizes = args.agents.split(',').map(Number);
for (const n of sizes) if (![1, 2, 3].includes(n)) throw new RangeError(`--agents expects 1, 2 or 3 (the shipped files), got "${n}"`);
const strategies = parseCoordinations(args.coordinations);
const parallel = Number(args.parallel);
const cap = args.cap === undefined ? undefined : Number(args.cap);

const work = await mkdtemp(path.join(tmpdir(), 'bench-collection-'));
const out = args.out === undefined ? path.join(work, 'eval') : path.resolve(args.out);
const t0 = performance.now();
const evaluation = await evaluate({
  inputs: sizes.map((n) => path.resolve(`tasks/collection/${n}_agent.json`)),
  ids: `^collection_(${targets.join('|')})__num_agents_\\d+$`,
  coordinations: strategies,
  model: 'oracle',
  parallel,
  ...(cap === undefined ? {} : { maxTimeoutS: cap }),
  out,
  // The embedded server's version ("auto" has no data until a server answers).
  settings: settingsSchema.parse({ chat_bot_messages: false, minecraft_version: DEFAULT_MINECRAFT_VERSION }),
  log: () => {},
});
const wall = (performance.now() - t0) / 1000;

const targetOf = (r: RunResult) => /^collection_(.+)__num_agents_\d+$/.exec(r.task_id)?.[1] ?? r.task_id;
const cell = (r: RunResult | undefined) => {
  if (!r) return '–';
  const tc = r.metrics?.timeCostMinutes;
  const cost = typeof tc === 'number' ? tc.toFixed(2) : 'NaN';
  const mpt = r.metrics?.planning.mean;
  return `${cost} min / ${typeof mpt === 'number' ? mpt.toFixed(1) : '–'}`;
};
const table: Record<string, string>[] = [];
for (const target of targets)
  for (const strategy of strategies) {
    const row: Record<string, string> = { task: target, strategy };
    for (const n of sizes)
      row[`${n} agent${n > 1 ? 's' : ''} (time cost / mPT)`] = cell(
        evaluation.results.find((r) => targetOf(r) === target && r.coordination === strategy && r.agent_count === n),
      );
    table.push(row);
  }
console.table(table);
for (const r of evaluation.results) {
  const commands = Object.entries(r.commands)
    .map(([name, list]) => `${name} ${list.length}`)
    .join(', ');
  console.log(
    `${r.run_id}: ${r.success ? 'solved' : `not solved (${r.end_reason})`} in ${r.play_s.toFixed(0)} s of play (${r.setup_s.toFixed(0)} s set-up); commands: ${commands}`,
  );
}
if (args.out !== undefined) console.log(`Records: ${out}`);
console.log(
  `${evaluation.results.length} runs in ${wall.toFixed(0)} s (P = ${parallel}${cap === undefined ? '' : `, timeouts capped at ${cap} s`}, ${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
);
if (args.json) await writeFile(args.json, JSON.stringify({ table, results: evaluation.results }, null, 1));
await rm(work, { recursive: true, force: true });
process.exit(0);
