/**
 * A lean start: `npm run task` with the oracle, from process start to the first agent action (the
 * first `[Bot] runs !command` line), and where the time goes before it (modules, the server, the
 * bots' joins, the task's set-up), read from the lines the command prints as they come. Each run
 * is a fresh process on a fresh embedded server; the table shows every run and the median.
 *
 *   npx node bench/start-up.ts [--runs 5] [--task test/fixtures/minecollab/crafting_2_agents.json] [--id <task id>]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    task: { type: 'string', default: 'test/fixtures/minecollab/crafting_2_agents.json' },
    id: { type: 'string', default: 'multiagent_crafting_firework_rocket_partial_plan__depth_0' },
  },
});
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** Milestones of one run, in ms from the spawn. */
interface Run {
  server_ms?: number;
  first_join_ms?: number;
  set_up_ms?: number;
  first_action_ms?: number;
}

/** One `npm run task`: resolves with the time of each milestone line, once the first action is seen (the process is then ended). */
function once(): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'task', args.task, args.id, '--model', 'oracle'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const run: Run = {};
    let pending = '';
    const at = () => Math.round(performance.now() - t0);
    child.stderr.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (run.server_ms === undefined && line.startsWith('Embedded Minecraft')) run.server_ms = at();
        else if (run.first_join_ms === undefined && / joined as /.test(line)) run.first_join_ms = at();
        else if (run.set_up_ms === undefined && line.startsWith('Set up ')) run.set_up_ms = at();
        else if (/^\[\w+\] runs !/.test(line)) {
          run.first_action_ms = at();
          child.kill();
          resolve(run);
        }
      }
    });
    child.on('exit', (code) => {
      if (run.first_action_ms === undefined) reject(new Error(`the task ended (exit code ${code}) before any action`));
    });
  });
}

const runs: Run[] = [];
for (let i = 0; i < Number(args.runs); i++) runs.push(await once());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`npm run task (oracle), ${args.id}: ms from process start`);
console.table([
  ...runs,
  Object.fromEntries(
    (['server_ms', 'first_join_ms', 'set_up_ms', 'first_action_ms'] as const).map((k) => [k, median(runs.map((r) => r[k]!))]),
  ),
]);
console.log('(the last row is the median)');
