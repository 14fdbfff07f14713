/**
 * `npm run bench`: every figure's script, one after the other, each in a process of its own,
 * with small sizes (a few minutes in all on a 2-core machine); `--full` for the big runs. Prints
 * the date and the machine first, then each script's table as it ends. A script that fails is
 * reported and the others still run; the exit code is then 1.
 *
 *   npm run bench [-- --full] [-- --only prompt-cache,check-cost]
 *
 * | figure | script | default | --full |
 * | --- | --- | --- | --- |
 * | idle bots vs bare mineflayer bots, separate processes | idle-bots.ts | 8 bots, 8 s | 50 bots, 30 s |
 * | chat-to-model latency p50/p95/p99 through a real client | chat-latency.ts | 60 messages | 300 |
 * | prompt cache share and cost per turn | prompt-cache.ts | 30 requests | 60 |
 * | evaluation throughput, runs per hour at P = 1 and 2 | eval-throughput.ts | 3 fixture tasks × 2, 60 s cap | MineCollab's 17 test tasks, 120 s cap |
 * | warm world start-up + reset vs an oracle run | warm-world.ts | 3 tasks × 2 | × 5 |
 * | per-tick check cost: inventory targets, 5,000-cell blueprint | check-cost.ts | 300 checks | 3,000 |
 * | survival world: columns/s, a loaded world's memory, worst tick while a bot crosses the world | worldgen.ts | 500 blocks | 2,000 blocks |
 * | coordination strategies (chat, dag, causal) with the oracle: success, makespan, balance, commands, messages | coordination.ts | 2 and 4 agents per type | 2–6 agents, construction to 8, P = 2 |
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { full: { type: 'boolean' }, only: { type: 'string' } } });
const full = args.full === true;
const FIXTURE = 'test/fixtures/minecollab/crafting_2_agents.json';
const SCRIPTS: Array<[name: string, argv: string[]]> = [
  ['idle-bots', full ? ['--bots', '50', '--idle', '30'] : []],
  ['chat-latency', full ? ['--messages', '300'] : []],
  ['prompt-cache', full ? ['--turns', '60'] : []],
  ['eval-throughput', full ? ['120'] : ['60', FIXTURE, '2']],
  ['warm-world', full ? ['--rounds', '5'] : []],
  ['check-cost', full ? ['--iterations', '3000'] : []],
  ['worldgen', full ? ['--distance', '2000'] : []],
  ['coordination', full ? ['--full', '--parallel', '2'] : []],
];
const only = args.only?.split(',').map((s) => s.trim());

const cpus = os.cpus();
console.log(`# npm run bench${full ? ' --full' : ''}: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
console.log(
  `Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}\n`,
);

let failed = 0;
for (const [name, argv] of SCRIPTS) {
  if (only && !only.includes(name)) continue;
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
