/**
 * The coordination strategies side by side with the offline oracle: generated crafting, cooking
 * and construction tasks (src/tasks/generate.ts, fixed seeds) played by `npm run eval
 * --coordination chat,dag,causal --model oracle` on the embedded server. Prints, per task type,
 * agent count and strategy: success, makespan (play time from the goals to the end, s), balance
 * (VillagerAgent's B as its code computes it, and CausalMACE's BS against the task's time limit),
 * commands run and messages sent; then a summary per type and strategy.
 *
 *   npx node bench/coordination.ts [--full] [--parallel P] [--cap S] [--json FILE]
 *
 * Default (`npm run bench`): 2 and 4 agents per type, 1 task each (18 runs). `--full`: crafting
 * and cooking with 2–6 agents, construction with 2, 4, 6 and 8 (VillagerAgent's Table 6), 1 task
 * each (42 runs). `--cap` caps each task's timeout (default 180 s; recorded per run). The agents
 * are the task profiles of profiles/tasks/ (8), all on the oracle. Takes minutes; run it on a
 * quiet machine.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate } from '../src/app/evaluate.ts';
import { COORDINATIONS, settingsSchema } from '../src/settings/index.ts';
import { gameData } from '../src/game/data.ts';
import type { RunResult } from '../src/tasks/eval/records.ts';
import { generateConstructionTasks, generateCookingTasks, generateCraftingTasks } from '../src/tasks/generate.ts';

const { values: args } = parseArgs({
  options: { full: { type: 'boolean' }, parallel: { type: 'string' }, cap: { type: 'string' }, json: { type: 'string' } },
});
const full = args.full === true;
const parallel = Number(args.parallel ?? 1);
const cap = Number(args.cap ?? 180);
const settings = settingsSchema.parse({ chat_bot_messages: false });
const data = gameData(settings.minecraft_version);

const sizes = {
  crafting: full ? [2, 3, 4, 5, 6] : [2, 4],
  cooking: full ? [2, 3, 4, 5, 6] : [2, 4],
  construction: full ? [2, 4, 6, 8] : [2, 4],
};

const work = await mkdtemp(path.join(tmpdir(), 'bench-coordination-'));
const inputs: string[] = [];
const write = async (file: string, tasks: Record<string, unknown>) => {
  const p = path.join(work, file);
  await writeFile(p, JSON.stringify(tasks, null, 1));
  inputs.push(p);
};
for (const agents of sizes.crafting)
  await write(`crafting_${agents}.json`, generateCraftingTasks(data, { agents, count: 1, seed: 500 + agents, depth: 1 }));
for (const agents of sizes.cooking)
  await write(`cooking_${agents}.json`, generateCookingTasks(data, { agents, count: 1, seed: 600 + agents }));
for (const agents of sizes.construction)
  await write(`construction_${agents}.json`, generateConstructionTasks(data, { agents, count: 1, seed: 700 + agents, size: 5, levels: 2 }));

const t0 = performance.now();
const evaluation = await evaluate({
  inputs,
  coordinations: [...COORDINATIONS],
  model: 'oracle',
  parallel,
  maxTimeoutS: cap,
  out: path.join(work, 'eval'),
  settings,
  log: () => {},
});
const wall = (performance.now() - t0) / 1000;

const typeOf = (r: RunResult) => (r.type === 'techtree' ? 'crafting' : r.type);
const f = (x: number | null | undefined, d = 2) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : '–');
const rows = evaluation.results
  .map((r) => ({
    type: typeOf(r),
    agents: r.agent_count,
    strategy: r.coordination,
    success: r.success ? 'yes' : `no (${r.end_reason})`,
    makespan_s: r.play_s,
    balance_B: f(r.metrics?.balanceCode),
    balance_BS: f(r.metrics?.balanceBS),
    commands: r.commands_run,
    messages: r.messages_sent,
  }))
  .sort(
    (a, b) =>
      a.type.localeCompare(b.type) ||
      a.agents - b.agents ||
      COORDINATIONS.indexOf(a.strategy as never) - COORDINATIONS.indexOf(b.strategy as never),
  );
console.table(rows);

// Per type and strategy: successes, and the means over the runs that played (makespan over the successful ones).
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN);
const summary: Record<string, string | number>[] = [];
for (const type of ['crafting', 'cooking', 'construction']) {
  for (const strategy of COORDINATIONS) {
    const all = evaluation.results.filter((r) => typeOf(r) === type && r.coordination === strategy);
    if (!all.length) continue;
    const ok = all.filter((r) => r.success);
    // Runs that never played (an error in set-up) have no activity to average.
    const mine = all.filter((r) => r.end_reason !== 'error');
    summary.push({
      type,
      strategy,
      agents: [...new Set(all.map((r) => r.agent_count))].join(', '),
      success: `${ok.length}/${all.length}`,
      makespan_s: f(mean(ok.map((r) => r.play_s)), 1),
      balance_B: f(mean(mine.map((r) => r.metrics?.balanceCode).filter((x): x is number => typeof x === 'number'))),
      balance_BS: f(mean(mine.map((r) => r.metrics?.balanceBS).filter((x): x is number => typeof x === 'number'))),
      commands: f(mean(mine.map((r) => r.commands_run)), 1),
      messages: f(mean(mine.map((r) => r.messages_sent)), 1),
    });
  }
}
console.table(summary);
console.log(
  `${evaluation.results.length} runs in ${wall.toFixed(0)} s (P = ${parallel}, timeouts capped at ${cap} s, ${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
);
const failed = evaluation.results.filter((r) => !r.success);
for (const r of failed) console.log(`not solved: ${r.run_id}: ${r.end_reason}${r.error ? ` (${r.error.slice(0, 200)})` : ''}`);
if (args.json) await writeFile(args.json, JSON.stringify({ rows, summary, results: evaluation.results }, null, 1));
await rm(work, { recursive: true, force: true });
process.exit(0);
