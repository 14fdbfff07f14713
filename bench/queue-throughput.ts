/**
 * Throughput of an evaluation on the queue (`npm run eval -- --queue`): a campaign played by the
 * offline oracle with 1 worker process, then with 2 (`npm run worker`, each run on a fresh
 * embedded server), against a redis-server started here on a free loopback port. Prints, per
 * worker count, the wall time from submission to the last result and the runs per minute.
 *
 *   npx node bench/queue-throughput.ts [task-file] [episodes]
 *
 * Default: the three tasks of test/fixtures/minecollab/crafting_2_agents.json, 2 episodes each
 * (6 runs). Needs `redis-server` (apt-get install redis-server).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { evaluateOnQueue } from '../src/app/queue/coordinator.ts';
import { settingsSchema } from '../src/settings/index.ts';

const file = path.resolve(process.argv[2] ?? 'test/fixtures/minecollab/crafting_2_agents.json');
const episodes = Number(process.argv[3] ?? 2);
const work = await mkdtemp(path.join(tmpdir(), 'bench-queue-'));

const probe = createServer().listen(0, '127.0.0.1');
await once(probe, 'listening');
const port = (probe.address() as { port: number }).port;
probe.close();
const redis = spawn('redis-server', ['--save', '', '--appendonly', 'no', '--port', String(port), '--bind', '127.0.0.1', '--dir', work], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  let out = '';
  redis.stdout.on('data', (c: Buffer) => {
    if ((out += c.toString()).includes('Ready to accept connections')) resolve();
  });
  redis.once('exit', () => reject(new Error(`redis-server ended: ${out}`)));
});
const url = `redis://127.0.0.1:${port}/0`;

/** Starts a worker process and resolves once it takes jobs; its run folders go to `<work>/<campaign>/`, beside the coordinator's. */
async function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['src/cli.ts', 'worker', '--queue', url, '--out', work], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      if ((err += c.toString()).includes('takes runs from')) resolve();
    });
    child.once('exit', () => reject(new Error(`worker ended: ${err}`)));
  });
  return child;
}

const settings = settingsSchema.parse({ chat_bot_messages: false });
const rows = [];
for (const count of [1, 2]) {
  const workers = await Promise.all(Array.from({ length: count }, () => startWorker()));
  const evaluation = await evaluateOnQueue({
    inputs: [file],
    episodes,
    queue: url,
    out: path.join(work, `w${count}`),
    settings,
    log: () => {},
  });
  for (const w of workers) {
    w.kill('SIGINT');
    await once(w, 'exit');
  }
  const runs = evaluation.results.length;
  rows.push({
    workers: count,
    runs,
    successes: evaluation.results.filter((r) => r.success).length,
    wall_s: evaluation.wall_s,
    runs_per_min: +((runs / evaluation.wall_s) * 60).toFixed(1),
    mean_run_s: +(evaluation.results.reduce((a, r) => a + r.duration_s, 0) / runs).toFixed(1),
  });
}
console.table(rows);
console.log(JSON.stringify({ file: path.relative(process.cwd(), file), episodes, node: process.version, rows }));
redis.kill('SIGTERM');
await once(redis, 'exit');
await rm(work, { recursive: true, force: true });
process.exit(0);
