/**
 * Evaluations on a queue, for real: Debian's `redis-server` on a loopback port, worker processes
 * (`npm run worker`) and a coordinator (`npm run eval -- --queue`), with the offline oracle on the
 * two-agent crafting tasks it solves. A worker SIGKILLed mid-run loses nothing (its run is retried
 * by the other worker after the stall timeout), a killed coordinator re-attaches with `--resume`,
 * every run completes exactly once and the summary is the one of the local evaluation's functions;
 * a run out of attempts is recorded as failed with the reason; a worker stopped with Ctrl-C twice
 * hands its run back without using an attempt; submitting a campaign again adds no job. Hand-made
 * hostile jobs (settings a job may not carry, a file as `base_profile`, a model at another
 * address with a key variable, `..` in campaign and run ids, a deeply nested task) are failed by
 * the worker with the reason, and nothing is written outside its output folder.
 *
 * Without `redis-server` (`apt-get install redis-server`; `.ci/run` installs it) the file is
 * skipped with one line saying so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evaluateOnQueue, type QueueEvaluateOptions } from '../../src/app/queue/coordinator.ts';
import {
  campaignId,
  JOB_FORMAT,
  jobId,
  jobSettings,
  modelKey,
  plannedRun,
  QUEUE_NAME,
  redactedUrl,
  redisConnection,
  type RunJobData,
} from '../../src/app/queue/jobs.ts';
import { loadTaskFile } from '../../src/tasks/loader.ts';
import { startFakeProvider } from '../helpers/fake-providers.ts';
import { ConfigError, profileSchema } from '../../src/settings/index.ts';
import { parseResults } from '../../src/tasks/eval/records.ts';
import { summarise, summaryCsv } from '../../src/tasks/eval/summary.ts';
import { testSettings } from '../helpers/version.ts';
import { waitUntil } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'src/cli.ts');
const TASKS = path.join(ROOT, 'test/fixtures/minecollab/crafting_2_agents.json');
/** Short lock and stall check, so that a killed worker's run is retried within seconds. */
const WORKER_FLAGS = ['--lock-duration', '6', '--stalled-interval', '1'];
/** The campaign: the two tasks the oracle solves fastest, 2 episodes each (4 runs). */
const CAMPAIGN = [TASKS, '--ids', 'compass|firework', '--episodes', '2'];

const hasRedis = spawnSync('which', ['redis-server']).status === 0;
if (!hasRedis) console.warn('test/e2e/queue.test.ts skipped: no redis-server on this machine (apt-get install redis-server)');

let dir: string;
let redis: ChildProcess | undefined;
let url = '';
/** Why the file's tests are skipped, when redis-server is there but would not start. */
let unavailable: string | undefined;

/** A free loopback port. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mc-queue-'));
  if (!hasRedis) return;
  const port = await freePort();
  redis = spawn('redis-server', ['--save', '', '--appendonly', 'no', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<boolean>((resolve) => {
    redis!.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.includes('Ready to accept connections')) resolve(true);
    });
    redis!.once('exit', () => resolve(false));
    redis!.once('error', () => resolve(false));
  });
  if (await ready) {
    url = `redis://127.0.0.1:${port}/0`;
  } else {
    unavailable = `redis-server would not start: ${output.trim().split('\n').at(-1) ?? ''}`;
    console.warn(`test/e2e/queue.test.ts skipped: ${unavailable}`);
  }
});

afterAll(async () => {
  if (redis && redis.exitCode === null) {
    redis.kill('SIGTERM');
    await once(redis, 'exit');
  }
  await rm(dir, { recursive: true, force: true });
});

/** A child process of the command line, with its output kept and lines watched. */
interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first stderr line matching `pattern` (from the start of the output). */
  line: (pattern: RegExp) => Promise<string>;
  exited: Promise<number | null>;
}

function cli(args: string[]): Cli {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/_API_KEY$/.test(k)));
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const check = () => {
    for (const w of [...watchers]) {
      const found = stderr.split('\n').find((l) => w.pattern.test(l));
      if (found !== undefined) {
        watchers.splice(watchers.indexOf(w), 1);
        w.resolve(found);
      }
    }
  };
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    check();
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        watchers.push({ pattern, resolve });
        check();
        void exited.then((code) => reject(new Error(`exited (${code}) before a line matching ${pattern}:\n${stderr}`)));
      }),
  };
}

/** A worker whose output folder is the test's folder (a campaign's runs land in `<dir>/<campaign>/`). */
const worker = (...more: string[]) => cli(['worker', '--queue', url, '--out', dir, ...WORKER_FLAGS, ...more]);

/** Ends a child process that may still run (SIGKILL), and waits for it. */
async function end(p: Cli | undefined): Promise<void> {
  if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await p?.exited;
}

/** Starts each test on an empty queue (the Redis database is the test's). */
async function emptyQueue(): Promise<Queue> {
  const queue = new Queue(QUEUE_NAME, { connection: redisConnection(url) });
  await queue.obliterate({ force: true });
  return queue;
}

describe('job ids and queue URLs', () => {
  test("a job id is campaign, run and model; the campaign is the --out folder's name; URLs are checked and printed without passwords", () => {
    expect(campaignId('/x/evals/sonnet/')).toBe('sonnet');
    expect(campaignId('/x/evals/sonnet', 'exp-1')).toBe('exp-1');
    expect(() => campaignId('/x/evals/sonnet', '../../etc')).toThrow(/not a campaign name/);
    expect(() => campaignId('/x/my evals/')).toThrow(/pass --campaign NAME/);
    const profiles = [
      profileSchema.parse({ name: 'Andy' }),
      profileSchema.parse({ name: 'Jill' }),
      profileSchema.parse({ name: 'Bob', model: 'openai/gpt-4o' }),
    ];
    expect(modelKey(undefined, profiles.slice(0, 2))).toBe('oracle');
    expect(modelKey(undefined, profiles)).toBe('oracle+openai/gpt-4o');
    expect(modelKey('gpt-4o', profiles)).toBe('openai/gpt-4o');
    expect(jobId('sonnet', 'tasks/t1/1', 'ollama/llama3.1:8b')).toBe('sonnet|tasks/t1/1|ollama/llama3.1%3A8b');
    expect(() => redisConnection('localhost:6379')).toThrow(ConfigError);
    expect(() => redisConnection('redis://h:6379/x')).toThrow(/database .* must be a number/);
    expect(redactedUrl('redis://:secret@h:6379/0')).toBe('redis://:***@h:6379/0');
  });

  test("a job carries its run's coordination; a job without one plays the settings' strategy", () => {
    const job = (extra: Partial<RunJobData>) =>
      ({ runId: 'tasks/t1/dag/1', episode: 1, task: {}, settings: { coordination: 'chat' }, ...extra }) as unknown as RunJobData;
    expect(plannedRun(job({ coordination: 'dag' }))).toMatchObject({
      runId: 'tasks/t1/dag/1',
      coordination: 'dag',
      folder: 'tasks__t1__dag__1',
    });
    expect(plannedRun(job({})).coordination).toBe('chat');
    // The strategies of one task are different jobs.
    expect(jobId('c', 'tasks/t1/dag/1', 'oracle')).not.toBe(jobId('c', 'tasks/t1/1', 'oracle'));
  });
});

describe.skipIf(!hasRedis)('an evaluation on a Redis queue', () => {
  test('two workers, one SIGKILLed mid-run, the coordinator killed and re-attached: every run completes exactly once, the summary is right', async (ctx) => {
    if (unavailable) return ctx.skip();
    const queue = await emptyQueue();
    const events = new QueueEvents(QUEUE_NAME, { connection: redisConnection(url) });
    const completions = new Map<string, number>();
    events.on('completed', ({ jobId }) => completions.set(jobId, (completions.get(jobId) ?? 0) + 1));
    await events.waitUntilReady();
    const out = path.join(dir, 'campaign');
    let a: Cli | undefined, b: Cli | undefined, first: Cli | undefined;
    try {
      a = worker();
      b = worker();
      await Promise.all([a.line(/takes runs from/), b.line(/takes runs from/)]);
      first = cli(['eval', ...CAMPAIGN, '--queue', url, '--out', out]);
      // A run is active on worker a (an event: its line saying so): kill it there.
      const took = await a.line(/: took /);
      const lostRun = /took (\S+)/.exec(took)![1]!;
      a.child.kill('SIGKILL');
      await a.exited;
      // The coordinator dies too once a first run is recorded; the same command with --resume re-attaches.
      const results = path.join(out, 'results.jsonl');
      await waitUntil(
        async () => (await readFile(results, 'utf8').catch(() => '')).trim() !== '' || first!.child.exitCode !== null,
        'a first run is recorded',
        80_000,
      );
      await end(first);
      const second = cli(['eval', ...CAMPAIGN, '--queue', url, '--out', out, '--resume']);
      const code = await second.exited;
      expect(code, second.stderr()).toBe(0);
      expect(second.stderr()).toMatch(/Resuming: [1-4] of 4 runs are already recorded/);
      expect(second.stdout()).toContain('all runs');

      // Every run recorded exactly once, and completed exactly once in Redis: the lost one by worker b.
      const lines = (await readFile(results, 'utf8')).trim().split('\n');
      const recorded = parseResults(lines.join('\n'));
      expect(lines).toHaveLength(4);
      expect(recorded.map((r) => `${r.task_id} ${r.episode}`).sort()).toEqual([
        'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0 1',
        'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0 2',
        'multiagent_crafting_firework_rocket_partial_plan__depth_0 1',
        'multiagent_crafting_firework_rocket_partial_plan__depth_0 2',
      ]);
      expect(recorded.every((r) => r.success && r.end_reason === 'success' && r.models.Andy === 'oracle')).toBe(true);
      const jobs = await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed']);
      expect(jobs).toHaveLength(4);
      expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: 4, failed: 0 });
      await waitUntil(() => completions.size === 4, 'the completed events of the 4 jobs');
      expect([...completions.values()]).toEqual([1, 1, 1, 1]);
      const lost = jobs.find((j) => j.data.runId === lostRun)!;
      expect(lost.stalledCounter).toBe(1);
      const { logs } = await queue.getJobLogs(lost.id!);
      expect(logs).toEqual([expect.stringMatching(/^attempt 1 of 3 on \S+:\d+$/), expect.stringMatching(/^attempt 2 of 3 on \S+:\d+$/)]);
      expect(new Set(logs.map((l) => l.split(' on ')[1])).size).toBe(2);

      // The summary is the local evaluation's: the same functions over the same results.
      const rows = summarise(recorded);
      expect(rows.find((r) => r.dimension === 'all')).toMatchObject({ runs: 4, successes: 4 });
      expect(await readFile(path.join(out, 'summary.csv'), 'utf8')).toBe(summaryCsv(rows));
      const html = await readFile(path.join(out, 'report.html'), 'utf8');
      for (const r of recorded) expect(html).toContain(r.run_id);
      // The run folders are in the campaign's --out: the workers' output folder holds the campaign's folder.
      const runs = await readdir(path.join(out, 'runs'));
      expect(runs).toHaveLength(4);
      for (const run of runs)
        expect(await readdir(path.join(out, 'runs', run))).toEqual(expect.arrayContaining(['result.json', 'commands.jsonl', 'requests']));

      // Worker b played three or four runs of the same agents in its slot's world, kept warm and reset between runs.
      expect(await readFile(path.join(out, 'eval.log'), 'utf8')).toMatch(/A warm world, its reset verified in \d+ ms\./);

      // Ctrl-C stops the idle worker cleanly.
      b.child.kill('SIGINT');
      expect(await b.exited, b.stderr()).toBe(0);
      expect(b.stderr()).toMatch(/Worker \S+ stopped/);
    } finally {
      await Promise.all([end(a), end(b), end(first)]);
      await events.close();
      await queue.close();
    }
  }, 90_000);

  test('a run handed back by Ctrl-C twice uses no attempt; out of attempts (--attempts 1, its worker killed) it is recorded as failed with the reason', async (ctx) => {
    if (unavailable) return ctx.skip();
    const queue = await emptyQueue();
    const out = path.join(dir, 'failing');
    let a: Cli | undefined, b: Cli | undefined, c: Cli | undefined;
    try {
      const progress: number[] = [];
      const evaluation = evaluateOnQueue({
        inputs: [TASKS],
        ids: 'firework',
        queue: url,
        out,
        attempts: 1,
        settings: testSettings({ chat_bot_messages: false }),
        log: () => {},
        onProgress: (p) => progress.push(p.running),
      });
      a = worker();
      await a.line(/: took /);
      a.child.kill('SIGINT');
      await a.line(/Stopping: no new run is taken/);
      a.child.kill('SIGINT');
      expect(await a.exited, a.stderr()).toBe(130);
      const [job] = await queue.getJobs(['waiting']);
      expect(job).toMatchObject({ attemptsMade: 0, stalledCounter: 0 });

      b = worker();
      await b.line(/: took /);
      b.child.kill('SIGKILL');
      await b.exited;
      // The next worker finds the run out of attempts: failed, with the reason, recorded as an error run.
      c = worker();
      const result = await evaluation;
      expect(result).toMatchObject({ planned: 1, made: 1, interrupted: false });
      expect(result.results).toMatchObject([{ end_reason: 'error', success: false, score: 0 }]);
      expect(result.results[0]!.error).toMatch(
        /^queue: no attempt finished: started 1 time\(s\), the limit \(--attempts 1\); 1 time\(s\) its worker was lost .*taken by: \S+:\d+, \S+:\d+$/,
      );
      expect(await queue.getJobCounts('failed')).toEqual({ failed: 1 });
      expect(Math.max(...progress)).toBe(1);
      expect(parseResults(await readFile(path.join(out, 'results.jsonl'), 'utf8'))).toHaveLength(1);
    } finally {
      await Promise.all([end(a), end(b), end(c)]);
      await queue.close();
    }
  }, 60_000);

  test('submitting a campaign again adds no job; a campaign that has jobs needs --resume; detaching leaves the jobs queued', async (ctx) => {
    if (unavailable) return ctx.skip();
    const queue = await emptyQueue();
    const options = (more: Partial<QueueEvaluateOptions> = {}): QueueEvaluateOptions => {
      const stop = new AbortController();
      // No worker runs: the coordinator detaches once it has submitted and reported progress.
      return {
        inputs: [TASKS],
        queue: url,
        out: path.join(dir, 'twice'),
        settings: testSettings(),
        log: () => {},
        signal: stop.signal,
        onProgress: () => stop.abort(),
        ...more,
      };
    };
    let events: QueueEvents | undefined;
    try {
      const first = await evaluateOnQueue(options());
      expect(first).toMatchObject({ planned: 3, made: 0, interrupted: true });
      expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 3 });
      await expect(evaluateOnQueue(options())).rejects.toThrow(ConfigError);
      await expect(evaluateOnQueue(options())).rejects.toThrow(/campaign "twice" already has jobs .*pass --resume/);
      const added: string[] = [];
      events = new QueueEvents(QUEUE_NAME, { connection: redisConnection(url) });
      events.on('duplicated', ({ jobId: id }) => added.push(id));
      await events.waitUntilReady();
      const again = await evaluateOnQueue(options({ resume: true }));
      expect(again).toMatchObject({ planned: 3, skipped: 0, interrupted: true });
      expect(await queue.getJobCounts('waiting', 'active', 'completed')).toEqual({ waiting: 3, active: 0, completed: 0 });
      // The coordinator added the 3 runs again; BullMQ kept the existing jobs.
      await waitUntil(() => added.length === 3, 'BullMQ reports the 3 adds as duplicates');
      // Another model is another run of the campaign: jobs of its own (none is played here).
      await evaluateOnQueue(options({ resume: true, model: 'openai/gpt-4o', env: { OPENAI_API_KEY: 'not-used' } }));
      expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 6 });
      expect((await queue.getJobs(['waiting'])).map((j) => j.id).sort()).toContain(
        'twice|minecollab/crafting_2_agents/multiagent_crafting_compass_partial_plan_requires_ctable__depth_0/1|openai/gpt-4o',
      );
      await expect(evaluateOnQueue(options({ queue: 'http://localhost:6379' }))).rejects.toThrow(/not a redis:\/\/ or rediss:\/\/ URL/);
    } finally {
      await events?.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }, 30_000);
});

describe.skipIf(!hasRedis)('hostile jobs', () => {
  test('a worker fails hand-made hostile jobs with the reason, runs none of them, and writes nothing outside its output folder', async (ctx) => {
    if (unavailable) return ctx.skip();
    // A database of its own: a worker another test left running cannot take these jobs.
    const own = url.replace(/\/0$/, '/1');
    const queue = new Queue(QUEUE_NAME, { connection: redisConnection(own) });
    await queue.obliterate({ force: true });
    const attacker = await startFakeProvider('openai');
    attacker.setHandler(() => 'stolen');
    const outside = path.join(dir, 'outside');
    const workerOut = path.join(dir, 'worker-out');
    await mkdir(outside, { recursive: true });
    let w: Cli | undefined;
    try {
      const [task] = (await loadTaskFile(TASKS)).values();
      const profiles = ['Andy', 'Jill'].map((name) => profileSchema.parse({ name }));
      const good: RunJobData = {
        format: JOB_FORMAT,
        campaign: 'hostile',
        runId: 'minecollab/crafting_2_agents/t/1',
        episode: 1,
        task: task!,
        profiles,
        settings: jobSettings(testSettings()),
        attempts: 1,
      };
      const deep: unknown[] = [];
      let level = deep;
      for (let i = 0; i < 1_000; i++) level.push((level = [])); // as deep as BullMQ's own JSON.stringify goes here
      const hostile: Record<string, unknown> = {
        insecure: { ...good, settings: { ...good.settings, allow_insecure_coding: true, code_timeout_s: 1e9 } },
        baseProfile: { ...good, settings: { ...good.settings, base_profile: '/etc/passwd' } },
        botKey: { ...good, settings: { ...good.settings, bot_key: 'a key of the attacker' } },
        keyToAttacker: {
          ...good,
          profiles: [
            profileSchema.parse({ name: 'Andy', model: { model: 'openai/gpt-test', url: attacker.url, apiKeyEnv: 'OPENAI_API_KEY' } }),
            profiles[1],
          ],
        },
        modelToAttacker: { ...good, model: { model: 'openai/gpt-test', url: attacker.url } },
        campaignDots: { ...good, campaign: '..' },
        campaignPath: { ...good, campaign: '../outside' },
        runIdPath: { ...good, runId: 'x/../../../outside/1' },
        out: { ...good, out: outside },
        deepTask: { ...good, task: { ...task!, initial_inventory: deep } },
      };
      for (const [name, data] of Object.entries(hostile)) await queue.add('run', data, { jobId: `hostile|${name}` });
      await queue.add('run', good, { jobId: 'hostile|good' });
      w = cli(['worker', '--queue', own, '--out', workerOut, ...WORKER_FLAGS]);
      await waitUntil(
        async () => (await queue.getJobCounts('failed')).failed === Object.keys(hostile).length,
        'the worker fails every hostile job',
        30_000,
      );
      // The hand-made job that only carries what a run needs is played, its files in the worker's folder.
      // A worker process starting its server and bots, then the play: 10–20 s alone, over 40 s beside the suite.
      await waitUntil(async () => (await queue.getJobCounts('completed')).completed === 1, 'the good job is played', 120_000);
      expect((await queue.getJob('hostile|good'))!.returnvalue).toMatchObject({ run_id: good.runId, end_reason: 'success' });
      expect(await readdir(path.join(workerOut, 'hostile', 'runs'))).toEqual(['minecollab__crafting_2_agents__t__1']);
      const reason = async (name: string) => (await queue.getJob(`hostile|${name}`))!.failedReason;
      expect(await reason('insecure')).toMatch(
        /settings: .*allow_insecure_coding, code_timeout_s may not come from a job \(the worker's own settings apply\)/,
      );
      expect(await reason('baseProfile')).toMatch(/base_profile may not come from a job/);
      expect(await reason('baseProfile')).not.toMatch(/root:/); // nothing of the file is read, nothing echoed
      expect(await reason('botKey')).toMatch(/bot_key may not come from a job/);
      expect(await reason('keyToAttacker')).toMatch(/profiles\.0\.model set url or apiKeyEnv: .*only with --job-models/);
      expect(await reason('modelToAttacker')).toMatch(/the job's model set url or apiKeyEnv/);
      expect(await reason('campaignDots')).toMatch(/campaign: letters, digits/);
      expect(await reason('campaignPath')).toMatch(/campaign: letters, digits/);
      expect(await reason('runIdPath')).toMatch(/runId: parts of letters/);
      expect(await reason('out')).toMatch(/out may not come from a job/);
      expect(await reason('deepTask')).toMatch(/nested more than 32 levels deep/);
      expect(attacker.requests).toEqual([]);
      expect(await readdir(outside)).toEqual([]);
      expect(await readdir(dir)).not.toContain('hostile');
      expect(await readdir(workerOut)).toEqual(['hostile']);
      expect(w.stderr()).toMatch(/failed: not a run job of this version/);
    } finally {
      await end(w);
      await attacker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }, 180_000);
});
