/**
 * Throughput of `npm run eval`: the 17 two-agent crafting test tasks of MineCollab
 * (../shared/minecollab/crafting_tasks/test_tasks/2_agent.json) played by the offline oracle, at
 * P = 1 and P = 2 workers, each run on a fresh embedded server. Prints, per P, the wall time, the
 * successes, and the per-run overhead (server start, bots joining, set-up: `setup_s` of each run)
 * as a share of the runs' time and of the wall time.
 *
 *   npx node bench/eval-throughput.ts [timeout_s] [task-file] [episodes]
 *
 * `timeout_s` caps every task's timeout (default: the tasks' own, 300 s), so that the tasks the
 * oracle cannot solve do not dominate. Takes minutes; run it on a quiet machine. `task-file`
 * replaces the 17 test tasks (`npm run bench` plays test/fixtures/minecollab/crafting_2_agents.json,
 * 2 episodes); `episodes` runs each task that many times (default 1). Workers keep their worlds
 * warm between runs (src/app/warm-world.ts), as evaluations do.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { evaluate } from '../src/app/evaluate.ts';
import { settingsSchema } from '../src/settings/index.ts';

const FILE = path.resolve(process.argv[3] ?? '../shared/minecollab/crafting_tasks/test_tasks/2_agent.json');
const episodes = Number(process.argv[4] ?? 1);
const cap = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
const work = await mkdtemp(path.join(tmpdir(), 'bench-eval-'));
let input = FILE;
if (cap !== undefined) {
  const tasks = JSON.parse(await readFile(FILE, 'utf8')) as Record<string, { timeout?: number }>;
  for (const task of Object.values(tasks)) task.timeout = Math.min(task.timeout ?? 300, cap);
  input = path.join(work, path.basename(FILE));
  await writeFile(input, JSON.stringify(tasks));
}
const settings = settingsSchema.parse({ chat_bot_messages: false });
const rows = [];
for (const parallel of [1, 2]) {
  const t0 = performance.now();
  const evaluation = await evaluate({ inputs: [input], parallel, episodes, out: path.join(work, `p${parallel}`), settings, log: () => {} });
  const wall = (performance.now() - t0) / 1000;
  const sum = (f: (r: (typeof evaluation.results)[number]) => number) => evaluation.results.reduce((a, r) => a + f(r), 0);
  const runTime = sum((r) => r.duration_s);
  const setup = sum((r) => r.setup_s);
  rows.push({
    P: parallel,
    runs: evaluation.results.length,
    successes: evaluation.results.filter((r) => r.success).length,
    wall_s: +wall.toFixed(1),
    runs_per_min: +((evaluation.results.length / wall) * 60).toFixed(1),
    runs_per_hour: Math.round((evaluation.results.length / wall) * 3600),
    mean_run_s: +(runTime / evaluation.results.length).toFixed(1),
    mean_setup_s: +(setup / evaluation.results.length).toFixed(2),
    setup_share_of_run_time: `${((100 * setup) / runTime).toFixed(1)}%`,
    setup_share_of_wall: `${((100 * setup) / parallel / wall).toFixed(1)}%`,
    failed: evaluation.results.filter((r) => !r.success).map((r) => `${r.task_id} (${r.end_reason})`),
  });
}
console.table(rows.map(({ failed: _failed, ...r }) => r));
for (const r of rows) if (r.failed.length) console.log(`P=${r.P} not solved: ${r.failed.join(', ')}`);
console.log(JSON.stringify({ timeout_cap_s: cap ?? null, node: process.version, rows }));
await rm(work, { recursive: true, force: true });
process.exit(0);
