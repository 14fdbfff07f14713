/**
 * `npm run eval` end to end with the offline oracle: a small task file on 2 workers (each run on
 * its own embedded server), the summary against results.jsonl, the report and CSV, an interrupted
 * evaluation resumed, training-data export, and bad input refused with exit code 2 before any
 * server starts (through the real command line).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evaluate, parseServers, type EvaluateOptions } from '../../src/app/evaluate.ts';
import { ConfigError } from '../../src/settings/index.ts';
import { exportSft } from '../../src/tasks/eval/export.ts';
import { parseResults } from '../../src/tasks/eval/records.ts';
import { meanInterval, wilsonInterval } from '../../src/tasks/eval/stats.ts';
import { testSettings } from '../helpers/version.ts';
import { startTestServer, waitUntil } from '../helpers/world.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'src/cli.ts');
const TASKS = path.join(ROOT, 'test/fixtures/minecollab/crafting_2_agents.json');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mc-eval-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const settings = testSettings({ chat_bot_messages: false });
const options = (out: string, more: Partial<EvaluateOptions> = {}): EvaluateOptions => ({
  inputs: [TASKS],
  out,
  settings,
  log: () => {},
  ...more,
});

describe('an evaluation with the oracle', () => {
  test('2 workers, each on its own server: results.jsonl, run folders, a summary that matches the results, CSV, report, export', async () => {
    const out = path.join(dir, 'two-workers');
    const seen: number[] = [];
    const evaluation = await evaluate(options(out, { parallel: 2, onProgress: (p) => seen.push(p.running) }));
    expect(evaluation).toMatchObject({ planned: 3, skipped: 0, made: 3, interrupted: false });
    expect(Math.max(...seen)).toBe(2);

    const results = parseResults(await readFile(evaluation.files.results, 'utf8'));
    expect(results.map((r) => r.task_id).sort()).toEqual([
      'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0',
      'multiagent_crafting_firework_rocket_partial_plan__depth_0',
      'multiagent_crafting_purple_banner_full_plan_requires_ctable__depth_0',
    ]);
    // Every run was played to its end (the oracle solves these three today; the machinery does not depend on it).
    expect(
      results.every((r) => ['success', 'timeout'].includes(r.end_reason) && r.models.Andy === 'oracle' && r.models.Jill === 'oracle'),
    ).toBe(true);
    // Two runs overlapped in time: the workers ran side by side.
    const spans = results.map((r) => [Date.parse(r.started_at), Date.parse(r.started_at) + r.duration_s * 1000] as const);
    expect(spans.some(([a0, a1], i) => spans.some(([b0, b1], j) => i !== j && a0 < b1 && b0 < a1))).toBe(true);
    // Each worker played on an embedded server of its own (kept warm between its runs, or fresh).
    const servers = [
      ...(await readFile(evaluation.files.log, 'utf8')).matchAll(/\[w(\d)[^\]]*\] Embedded Minecraft \S+ server on 127\.0\.0\.1:(\d+)/g),
    ];
    expect(new Set(servers.map((m) => m[1]))).toEqual(new Set(['0', '1']));
    expect(servers.length).toBeLessThanOrEqual(results.length);

    const all = evaluation.rows.find((r) => r.dimension === 'all')!;
    const successes = results.filter((r) => r.success).length;
    expect(all).toMatchObject({ runs: results.length, successes });
    expect(all.success).toEqual(wilsonInterval(successes, results.length));
    expect(all.score).toEqual(meanInterval(results.map((r) => r.score)));
    expect(evaluation.rows.filter((r) => r.dimension === 'plan access').map((r) => [r.group, r.runs])).toEqual([
      ['full', 1],
      ['partial', 2],
    ]);
    expect(evaluation.table).toContain('all runs');
    const csv = parse(await readFile(evaluation.files.csv, 'utf8'), { columns: true });
    expect(csv[0]).toMatchObject({ dimension: 'all', runs: String(results.length), successes: String(successes) });
    const html = await readFile(evaluation.files.report, 'utf8');
    expect(html.length).toBeGreaterThan(100_000); // Chart.js is inlined
    expect(html).not.toMatch(/<script[^>]+src=/);
    for (const r of results) expect(html).toContain(r.run_id);

    const runs = await readdir(path.join(out, 'runs'));
    expect(runs).toHaveLength(3);
    for (const run of runs) {
      const files = await readdir(path.join(out, 'runs', run));
      expect(files).toEqual(expect.arrayContaining(['requests', 'commands.jsonl', 'messages.jsonl', 'inventories.json', 'result.json']));
    }

    const { examples } = await exportSft(out);
    expect(examples.length).toBe(6); // one conversation per bot per run
    for (const e of examples) {
      expect(e.messages[0]!.role).toBe('system');
      expect(e.messages.some((m) => m.role === 'assistant')).toBe(true);
      const run = results.find((r) => r.run_id === e.metadata.run_id)!;
      expect(e.metadata).toMatchObject({ model: 'oracle', success: run.success, score: run.score });
    }
    expect((await exportSft(out, { minScore: 1.5 })).examples).toHaveLength(0);
  }, 180_000);

  test('--coordination chat,dag: a run per strategy with its own id, metrics and drawn graph; --resume finds both', async () => {
    const out = path.join(dir, 'strategies');
    const more = { ids: 'firework', coordinations: ['chat', 'dag'] as const, maxTimeoutS: 90 };
    const evaluation = await evaluate(options(out, { ...more, coordinations: [...more.coordinations] }));
    expect(evaluation).toMatchObject({ planned: 2, made: 2 });
    const results = parseResults(await readFile(evaluation.files.results, 'utf8'));
    const key = 'minecollab/crafting_2_agents/multiagent_crafting_firework_rocket_partial_plan__depth_0';
    expect(results.map((r) => [r.run_id, r.coordination]).sort()).toEqual([
      [`${key}/1`, 'chat'],
      [`${key}/dag/1`, 'dag'],
    ]);
    for (const r of results) expect(r.metrics).toMatchObject({ completion: r.score, actions: expect.any(Number) });
    const dag = results.find((r) => r.coordination === 'dag')!;
    expect(dag.metrics!.graph).toMatchObject({ rule_checked_edges: true });
    expect(evaluation.rows.filter((r) => r.dimension === 'coordination').map((r) => [r.group, r.runs])).toEqual([
      ['chat', 1],
      ['dag', 1],
    ]);
    const html = await readFile(evaluation.files.report, 'utf8');
    const graphs = html.slice(html.indexOf('<h2>Task graphs</h2>'), html.indexOf('<h2>Summary</h2>'));
    expect(graphs.match(/<svg /g)).toHaveLength(1);
    expect(await readdir(path.join(out, 'runs'))).toEqual(
      expect.arrayContaining([expect.stringMatching(/__dag__1$/), expect.stringMatching(/depth_0__1$/)]),
    );
    const again = await evaluate(options(out, { ...more, coordinations: [...more.coordinations], resume: true }));
    expect(again).toMatchObject({ planned: 2, skipped: 2, made: 0 });
  }, 180_000);

  test('an interrupted evaluation keeps its finished runs; --resume makes only the rest; without it the folder is refused', async () => {
    const out = path.join(dir, 'resume');
    const stop = new AbortController();
    const first = await evaluate(
      options(out, {
        signal: stop.signal,
        onProgress: (p) => {
          if (p.done === 1) stop.abort();
        },
      }),
    );
    expect(first).toMatchObject({ interrupted: true, made: 1 });
    expect(parseResults(await readFile(first.files.results, 'utf8'))).toHaveLength(1);

    await expect(evaluate(options(out))).rejects.toThrow(ConfigError);
    await expect(evaluate(options(out))).rejects.toThrow(/pass --resume/);

    const second = await evaluate(options(out, { resume: true }));
    expect(second).toMatchObject({ planned: 3, skipped: 1, made: 2, interrupted: false });
    const results = parseResults(await readFile(second.files.results, 'utf8'));
    expect(new Set(results.map((r) => r.run_id)).size).toBe(3);
    expect(second.rows.find((r) => r.dimension === 'all')!.runs).toBe(3);
  }, 180_000);
});

describe('tasks the version cannot play', () => {
  test('a task naming an item this Minecraft version lacks is announced and recorded as an error run, without a server', async () => {
    const tasks = JSON.parse(await readFile(TASKS, 'utf8'));
    const task = tasks.multiagent_crafting_compass_partial_plan_requires_ctable__depth_0;
    const file = path.join(dir, 'old_names.json');
    await writeFile(file, JSON.stringify({ old_dye: { ...task, initial_inventory: { 0: { rose_red: 1 }, 1: {} } } }));
    const lines: string[] = [];
    const evaluation = await evaluate({ ...options(path.join(dir, 'unplayable')), inputs: [file], log: (l) => lines.push(l) });
    expect(lines.join('\n')).toMatch(/1 task\(s\) cannot be played on Minecraft .*recorded as errors.*\n.*"rose_red" is not an item/);
    expect(evaluation.results).toMatchObject([{ task_id: 'old_dye', end_reason: 'error', score: 0, success: false, play_s: 0 }]);
    // The time it took to find the task unplayable (tenths of a second on a loaded machine).
    expect(evaluation.results[0]!.setup_s).toBeLessThan(2);
    expect(evaluation.results[0]!.error).toMatch(/^not played: .*rose_red/);
    expect(await readFile(evaluation.files.log, 'utf8')).not.toContain('Embedded Minecraft');
  }, 30_000);
});

describe('external servers', () => {
  test('--servers: each worker plays on its own given server; a malformed list or too few servers is refused', async () => {
    const server = await startTestServer();
    try {
      const out = path.join(dir, 'external');
      const evaluation = await evaluate(options(out, { ids: 'firework', servers: parseServers(`${server.host}:${server.port}`) }));
      expect(evaluation.results).toHaveLength(1);
      expect(['success', 'timeout']).toContain(evaluation.results[0]!.end_reason);
      expect(await readFile(evaluation.files.log, 'utf8')).not.toContain('Embedded Minecraft');
    } finally {
      await server.close();
    }
    expect(() => parseServers('localhost')).toThrow(/"localhost" is not host:port/);
    await expect(evaluate(options(path.join(dir, 'too-few'), { parallel: 2, servers: parseServers('127.0.0.1:1') }))).rejects.toThrow(
      /--parallel 2 needs 2 servers/,
    );
  }, 60_000);
});

/**
 * Runs the command line in the repository (without any *_API_KEY of this environment); resolves
 * with its exit code and output. `during` runs while it does, with the child process.
 */
async function cli(args: string[], during?: (child: ChildProcess) => Promise<void>) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/_API_KEY$/.test(k)));
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = once(child, 'exit');
  await during?.(child);
  const [code] = await exited;
  return { code: code as number, stdout, stderr };
}

describe('the command line', () => {
  test('bad input exits with 2 before any server starts: a model without its key, an unknown model, a bad or missing task file', async () => {
    const noKey = await cli(['eval', TASKS, '--model', 'anthropic/claude-sonnet-4-5', '--out', path.join(dir, 'cli-nokey')]);
    expect(noKey.code, noKey.stderr).toBe(2);
    expect(noKey.stderr).toMatch(/--model cannot use model "anthropic\/claude-sonnet-4-5".*set ANTHROPIC_API_KEY/);
    const bare = await cli(['task', TASKS, 'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0', '--model', 'gtp-4o']);
    expect(bare.code, bare.stderr).toBe(2);
    expect(bare.stderr).toMatch(/closest valid spellings: "openai\/gpt-4o"/);
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, '{ "t": { "type": "techtree", "goal": 3 } }');
    const invalid = await cli(['eval', bad]);
    expect(invalid.code, invalid.stderr).toBe(2);
    expect(invalid.stderr).toMatch(/bad\.json, task "t": key "goal"/);
    const missing = await cli(['eval', path.join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such task file or folder/);
    const strategy = await cli(['eval', TASKS, '--coordination', 'chat,star']);
    expect(strategy.code).toBe(2);
    expect(strategy.stderr).toMatch(/--coordination: "star" is not a strategy; use chat, dag, causal/);
    const two = await cli([
      'task',
      TASKS,
      'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0',
      '--coordination',
      'dag,causal',
    ]);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/task plays one strategy/);
    for (const r of [noKey, bare, invalid, missing, strategy, two]) expect(r.stderr).not.toMatch(/Embedded Minecraft|joined as/);
    expect(await stat(path.join(dir, 'cli-nokey')).catch(() => undefined)).toBeUndefined();
  }, 60_000);

  test('npm run eval prints the summary table; npm run export writes one conversation per bot', async () => {
    const out = path.join(dir, 'cli-eval');
    const run = await cli(['eval', TASKS, '--ids', 'firework', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/all runs\s*│\s*1 /);
    expect(run.stderr).toContain(path.join(out, 'report.html'));
    const exported = await cli(['export', out, '--min-score', '0']);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = (await readFile(path.join(out, 'sft.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.metadata.agent).sort()).toEqual(['Andy', 'Jill']);
  }, 120_000);

  test('Ctrl-C stops cleanly: exit code 130, finished runs kept and summarised, the rest left for --resume', async () => {
    const out = path.join(dir, 'cli-interrupted');
    const run = await cli(['eval', TASKS, '--out', out], async (child) => {
      const results = path.join(out, 'results.jsonl');
      await waitUntil(async () => (await readFile(results, 'utf8').catch(() => '')).trim() !== '', 'a first run is recorded', 60_000);
      child.kill('SIGINT');
    });
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('Stopping: the runs in progress end unrecorded');
    expect(run.stderr).toMatch(/1 run\(s\) made of 3 .*interrupted: --resume continues/);
    expect(run.stdout).toMatch(/all runs\s*│\s*1 /);
    expect(parseResults(await readFile(path.join(out, 'results.jsonl'), 'utf8'))).toHaveLength(1);
    expect((await stat(path.join(out, 'report.html'))).size).toBeGreaterThan(0);
  }, 120_000);
});
