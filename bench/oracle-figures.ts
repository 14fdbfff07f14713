/**
 * Success figures of the offline policy (`--model oracle`), per task file, until `npm run eval`
 * covers them: plays every task of the given files one after another on the embedded server and
 * prints one line per file (solved / tasks, mean duration, mean commands), plus the tasks the
 * oracle reported unsolvable.
 *
 *   npx node bench/oracle-figures.ts [--cap <s>] [--limit <n>] [--out results.jsonl] <task-file>...
 *
 * `--cap` shortens each task's time limit to at most that many seconds (unsolvable tasks otherwise
 * run to their full limit); `--limit` plays only the first n tasks of each file.
 */
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadTaskProfiles, runTask } from '../src/app/run-task.ts';
import type { OracleModel } from '../src/models/oracle.ts';
import { loadSettings } from '../src/settings/index.ts';
import { loadTaskFile } from '../src/tasks/loader.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { cap: { type: 'string' }, limit: { type: 'string' }, out: { type: 'string' } } });
const cap = values.cap ? Number(values.cap) : Infinity;
const limit = values.limit ? Number(values.limit) : Infinity;
const { settings } = await loadSettings();
// Tasks already in --out are not played again (a long run can be resumed).
const done = new Map<string, { success: boolean; unsolvable?: string; duration_s: number; commands: number; error?: string }>();
if (values.out) {
  const text = await readFile(values.out, 'utf8').catch(() => '');
  for (const line of text.split('\n').filter(Boolean)) {
    const r = JSON.parse(line);
    done.set(`${r.file}/${r.id}`, r);
  }
}

for (const file of positionals) {
  const tasks = [...(await loadTaskFile(file)).values()].slice(0, limit);
  let solved = 0;
  let seconds = 0;
  let commands = 0;
  const unsolvable: string[] = [];
  for (const task of tasks) {
    const key = `${path.basename(file)}/${task.id}`;
    let line = done.get(key);
    if (!line) {
      const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), task.agent_count);
      let oracles: OracleModel[] = [];
      try {
        const result = await runTask({
          task: { ...task, timeout: Math.min(task.timeout, cap) }, settings: { ...settings, chat_bot_messages: false }, profiles, model: 'oracle', log: () => {},
          onReady: ({ agents }) => { oracles = agents.map((a) => a.model as OracleModel); },
        });
        const reason = oracles.map((o) => o.unsolvable).find(Boolean);
        line = { success: result.success, duration_s: result.duration_s, commands: Object.values(result.commands).flat().length, ...(reason ? { unsolvable: reason } : {}), ...((result as { error?: string }).error ? { error: (result as { error?: string }).error } : {}) };
      } catch (err) {
        // A task the runner refuses (an item this version does not have) counts as not solved.
        line = { success: false, duration_s: 0, commands: 0, error: (err as Error).message };
      }
      const record = { file: path.basename(file), id: task.id, ...line };
      console.error(JSON.stringify(record));
      if (values.out) await appendFile(values.out, `${JSON.stringify(record)}\n`);
    }
    if (line.success) solved++;
    if (line.unsolvable) unsolvable.push(`${task.id}: ${line.unsolvable}`);
    if (line.error) unsolvable.push(`${task.id}: refused by the runner: ${line.error.replace(/^.*?: /, '')}`);
    seconds += line.duration_s;
    commands += line.commands;
  }
  console.log(`${file}: ${solved}/${tasks.length} solved, ${unsolvable.length} reported unsolvable or refused, mean ${(seconds / tasks.length).toFixed(1)} s, ${(commands / tasks.length).toFixed(1)} commands`);
  for (const u of unsolvable) console.log(`  unsolvable: ${u}`);
}
process.exit(0);
