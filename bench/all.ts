/**
 * `npm run bench`: every figure's script, one after the other, each in a process of its own,
 * with small sizes (a few minutes in all on a 2-core machine); `--full` for the big runs. Prints
 * the date and the machine first, then each script's table as it ends. A script that fails is
 * reported and the others still run; the exit code is then 1.
 *
 *   npm run bench [-- --full] [-- --only scale,start-up]
 *
 * Every script in bench/ has an entry below (this script refuses to run when one lacks it, and
 * `--only` refuses a name that is not one): what it measures and its arguments. Scripts marked
 * "on request" run only when named with `--only` (they need Redis, or take long at any size).
 * Helpers the scripts share live in bench/lib/.
 *
 * | figure | script | default | --full |
 * | --- | --- | --- | --- |
 * | idle bots vs bare mineflayer bots, separate processes | idle-bots.ts | 8 bots, 8 s | 50 bots, 30 s |
 * | idle and walking bots vs the floor, server TPS, per-bot cost | scale.ts | 1, 25, 50 bots, 10 s | 1, 50, 100, 200 bots, 15 s |
 * | join/leave cycles: heap, timers, listeners of the server | join-leave.ts | 200 cycles | 1,000 |
 * | `npm run task` to the first action | start-up.ts | 3 runs | 10 |
 * | chat-to-model latency p50/p95/p99 through a real client | chat-latency.ts | 60 messages | 300 |
 * | prompt cache share and cost per turn | prompt-cache.ts | 30 requests | 60 |
 * | evaluation throughput, runs per hour at P = 1 and 2 | eval-throughput.ts | 3 fixture tasks × 2, 60 s cap | MineCollab's 17 test tasks, 120 s cap |
 * | warm world start-up + reset vs an oracle run | warm-world.ts | 3 tasks × 2 | × 5 |
 * | per-tick check cost: inventory targets, 5,000-cell blueprint | check-cost.ts | 300 checks | 3,000 |
 * | survival world: columns/s, a loaded world's memory, worst tick while a bot crosses the world | worldgen.ts | 500 blocks | 2,000 blocks |
 * | idle cost of modes, and of a reference-style poll | modes-idle.ts | 5 bots, 20 s | 10 bots, 30 s |
 * | first conversing prompt size | prompt-size.ts | one bot | the same |
 * | the offline policy on generated tasks, in the stand-in | oracle-sim-figures.ts | 100 tasks per type | 300 |
 * | queue throughput with 1 and 2 workers (needs redis-server) | queue-throughput.ts | on request | on request |
 * | coordination strategies (chat, dag, causal) with the oracle: success, makespan, balance, commands, messages | coordination.ts | 2 and 4 agents per type | 2–6 agents, construction to 8 |
 * | S-Agents' Figure 7: collection tasks' time cost with 1, 2 and 3 agents under the tree (oracle, survival world) | collection.ts | on request | on request |
 * | soak: 10 bots, 2 players talking every 3 s to a model that never stops: reply latency, unanswered lines, RSS slope | soak.ts | 2 min | 60 min |
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { full: { type: 'boolean' }, only: { type: 'string' } } });
const full = args.full === true;
const FIXTURE = 'test/fixtures/minecollab/crafting_2_agents.json';
/** Each script: its arguments (small and --full), and whether a plain `npm run bench` runs it. */
const SCRIPTS: Record<string, { small: string[]; full: string[]; onRequest?: true }> = {
  'idle-bots': { small: [], full: ['--bots', '50', '--idle', '30'] },
  scale: { small: ['--counts', '1,25,50', '--window', '10'], full: ['--counts', '1,50,100,200', '--window', '15'] },
  'join-leave': { small: ['--cycles', '200', '--step', '100'], full: ['--cycles', '1000', '--step', '250'] },
  'start-up': { small: ['--runs', '3'], full: ['--runs', '10'] },
  'chat-latency': { small: [], full: ['--messages', '300'] },
  'prompt-cache': { small: [], full: ['--turns', '60'] },
  'eval-throughput': { small: ['60', FIXTURE, '2'], full: ['120'] },
  'warm-world': { small: [], full: ['--rounds', '5'] },
  'check-cost': { small: [], full: ['--iterations', '3000'] },
  'modes-idle': { small: ['5', '20'], full: ['10', '30'] },
  'prompt-size': { small: [], full: [] },
  'oracle-sim-figures': { small: [], full: ['--count', '300'] },
  worldgen: { small: [], full: ['--distance', '2000'] },
  'queue-throughput': { small: [], full: [], onRequest: true },
  coordination: { small: [], full: ['--full'] },
  collection: { small: [], full: [], onRequest: true },
  soak: { small: ['--minutes', '2'], full: ['--minutes', '60'] },
};
const here = fileURLToPath(new URL('.', import.meta.url));
const onDisk = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'all.ts')
  .map((f) => f.slice(0, -'.ts'.length));
const missing = onDisk.filter((name) => !(name in SCRIPTS));
const gone = Object.keys(SCRIPTS).filter((name) => !onDisk.includes(name));
if (missing.length || gone.length) {
  console.error(
    `bench/all.ts is out of date: ${[...missing.map((n) => `bench/${n}.ts has no entry in SCRIPTS`), ...gone.map((n) => `SCRIPTS names ${n}, which is not in bench/`)].join('; ')}.`,
  );
  process.exit(2);
}
const only = args.only?.split(',').map((s) => s.trim());
const unknown = only?.filter((name) => !(name in SCRIPTS)) ?? [];
if (unknown.length) {
  console.error(
    `Unknown bench script${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}: the scripts are ${Object.keys(SCRIPTS).join(', ')}.`,
  );
  process.exit(2);
}

const cpus = os.cpus();
console.log(`# npm run bench${full ? ' --full' : ''}: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
console.log(
  `Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}\n`,
);

let failed = 0;
for (const [name, entry] of Object.entries(SCRIPTS)) {
  if (only ? !only.includes(name) : entry.onRequest) continue;
  const argv = full ? entry.full : entry.small;
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const t0 = performance.now();
  console.log(`## ${name} ${argv.join(' ')}`);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [script, ...argv], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (c) => resolve(c));
  });
  const seconds = ((performance.now() - t0) / 1000).toFixed(0);
  if (code !== 0) failed++;
  console.log(`(${name}: ${seconds} s${code === 0 ? '' : `, exit code ${code}`})\n`);
}
process.exitCode = failed ? 1 : 0;
