/**
 * `npm run worker`: takes run jobs from the queue (`jobs.ts`) and plays each on its slot's embedded
 * server (kept warm between runs of the same agents and settings and reset after each, as a local
 * evaluation does: `../warm-world.ts`) or on one of the given external servers (`--servers`, one
 * per parallel slot), up to P at once.
 *
 * Where things go: the run's result (its {@link RunResult}) is the job's return value, in Redis;
 * the run's files (`runs/<run>/`: requests, commands, messages, inventories) and its log lines
 * (`eval.log`) go to `<out>/<campaign>/` in the worker's own output folder (`--out`, default
 * `evals`: run beside a coordinator whose `--out` is `evals/<campaign>`, it is the same folder).
 * Every file it writes is checked to resolve inside that folder.
 *
 * A job is untrusted input (`jobs.ts`): the worker takes from it the task, the profiles (a model's
 * `url` and `apiKeyEnv` only with `jobModels`), `--model` and the settings of `JOB_SETTINGS`;
 * everything else is the worker's own `settings`.
 *
 * Nothing is lost: BullMQ holds a lock on each running job, renewed every `lockDuration / 2`; a
 * worker that dies (SIGKILL, power loss) stops renewing it, and the stalled-job check that every
 * worker runs each `stalledInterval` puts the job back in the queue, where another worker takes it.
 * A job may be started `attempts` times (the campaign's `--attempts`): each lost worker and each
 * worker error uses one, a hand-back does not; the next start after the last is failed at once with
 * the reason, which the coordinator records as an `error` run. {@link RunningWorker.stop} (Ctrl-C)
 * takes no new job and waits for the running ones; {@link RunningWorker.handBack} (Ctrl-C twice)
 * ends them and puts their jobs back at the head of the queue.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { ConfigError, settingsSchema, type Settings } from '../../settings/index.ts';
import type { RunResult } from '../../tasks/eval/records.ts';
import { openLog, playOne, type ServerAddressOption } from '../evaluate.ts';
import { WarmWorld } from '../warm-world.ts';
import { runFolderOf } from '../run-task.ts';
import { inside, openQueue, parseJobData, plannedRun, QUEUE_NAME, redisConnection, type RunJobData } from './jobs.ts';

/** Default lock of a running job (ms): a dead worker's run restarts after this plus at most two stall checks. */
export const DEFAULT_LOCK_DURATION_MS = 30_000;

/** Default interval of the stalled-job check (ms). */
export const DEFAULT_STALLED_INTERVAL_MS = 15_000;

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** `redis://HOST:PORT/DB`. */
  queue: string;
  /** Runs at once (default 1). */
  parallel?: number;
  /** External servers, one per parallel slot; default: an embedded server per slot, kept warm. */
  servers?: ServerAddressOption[];
  /** The output folder: run folders and logs go to `<out>/<campaign>/` (default `evals`). */
  out?: string;
  /**
   * This worker's own settings (its settings.json): every setting a job does not carry
   * (`JOB_SETTINGS`), among them `allow_insecure_coding`, `code_timeout_s`, `base_profile` and
   * `bot_key`. Default: the defaults.
   */
  settings?: Settings;
  /** Take a model's `url` and `apiKeyEnv` from jobs (`--job-models`): only for a queue no one else can write to. */
  jobModels?: boolean;
  /** The models' API keys (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** BullMQ's `lockDuration` (ms, default {@link DEFAULT_LOCK_DURATION_MS}). */
  lockDurationMs?: number;
  /** BullMQ's `stalledInterval` (ms, default {@link DEFAULT_STALLED_INTERVAL_MS}). */
  stalledIntervalMs?: number;
  /** The worker's name in logs and job logs (default `<hostname>:<pid>`). */
  name?: string;
  /** Lines about jobs taken and finished (the runs' own logs go to `eval.log`). */
  log?: (line: string) => void;
}

/** A worker taking jobs. */
export interface RunningWorker {
  readonly name: string;
  /** Runs in progress. */
  running(): number;
  /** Takes no new job; resolves once the running runs have finished and been recorded. */
  stop(): Promise<void>;
  /** Ends the running runs unrecorded and puts their jobs back in the queue, then stops. */
  handBack(): Promise<void>;
  /** Resolves when the worker has stopped (by {@link stop} or {@link handBack}). */
  readonly closed: Promise<void>;
}

/**
 * Connects to the queue and starts taking jobs (see the module comment).
 *
 * @throws ConfigError for a malformed queue URL or too few servers; Error when Redis cannot be reached.
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const parallel = options.parallel ?? 1;
  if (options.servers && options.servers.length < parallel) {
    throw new ConfigError(`--parallel ${parallel} needs ${parallel} servers (one per slot), --servers gives ${options.servers.length}`);
  }
  const name = options.name ?? `${os.hostname()}:${process.pid}`;
  const say =
    options.log ??
    ((line: string) => {
      process.stderr.write(`${line}\n`);
    });
  const own = options.settings ?? settingsSchema.parse({});
  const outRoot = path.resolve(options.out ?? 'evals');
  const queue = await openQueue(options.queue); // fails fast when Redis is not there; reads job logs
  const botsRoot = await mkdtemp(path.join(os.tmpdir(), 'mindcraft-worker-'));
  const logs = new Map<string, ReturnType<typeof openLog>>();
  const logFor = (dir: string) => {
    let log = logs.get(dir);
    if (!log) logs.set(dir, (log = openLog(path.join(dir, 'eval.log'))));
    return log;
  };
  const slots: boolean[] = Array.from({ length: parallel }, () => false);
  /** Each slot's warm world and the settings it was started with (a job of other settings gets a new one). */
  const worlds: ({ key: string; world: WarmWorld } | undefined)[] = Array.from({ length: parallel }, () => undefined);
  const worldFor = async (slot: number, settings: Settings): Promise<WarmWorld> => {
    const key = JSON.stringify(settings);
    const kept = worlds[slot];
    if (kept?.key === key) return kept.world;
    await kept?.world.close();
    const world = new WarmWorld({ settings, log: (line) => say(`${name} w${slot}: ${line}`) });
    worlds[slot] = { key, world };
    return world;
  };

  /**
   * Why a job is out of attempts, naming the workers that took it (from its job log: a worker
   * killed before it wrote its line there is missing).
   */
  const exhausted = async (job: Job<RunJobData, RunResult>, data: RunJobData): Promise<string> => {
    const { logs: lines } = await queue.getJobLogs(job.id!).catch(() => ({ logs: [] as string[] }));
    const workers = lines.map((l) => /on (\S+)$/.exec(l)?.[1]).filter(Boolean);
    const parts = [];
    if (job.stalledCounter) parts.push(`${job.stalledCounter} time(s) its worker was lost (killed, or it stopped renewing its lock)`);
    if (job.attemptsMade)
      parts.push(`${job.attemptsMade} time(s) the worker failed${job.failedReason ? ` (last: ${job.failedReason})` : ''}`);
    return `no attempt finished: started ${job.attemptsMade + job.stalledCounter} time(s), the limit (--attempts ${data.attempts}); ${parts.join('; ')}${workers.length ? `; taken by: ${workers.join(', ')}` : ''}`;
  };

  // Three parameters: BullMQ passes the AbortSignal of worker.cancelJob() only to processors that declare it.
  const processor = async (
    job: Job<RunJobData, RunResult>,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RunResult> => {
    let data: RunJobData;
    let dir: string;
    try {
      data = parseJobData(job.data, { jobModels: options.jobModels === true });
      dir = inside(outRoot, data.campaign);
      inside(dir, runFolderOf('.', data.runId));
    } catch (err) {
      throw new UnrecoverableError((err as Error).message);
    }
    const used = job.attemptsMade + job.stalledCounter;
    if (used >= data.attempts) throw new UnrecoverableError(await exhausted(job, data));
    await job.log(`attempt ${used + 1} of ${data.attempts} on ${name}`);
    say(`${name}: took ${data.runId} (campaign ${data.campaign}, attempt ${used + 1} of ${data.attempts})`);
    const slot = slots.indexOf(false);
    slots[slot] = true;
    try {
      const server = options.servers?.[slot];
      const settings: Settings = {
        ...own,
        ...data.settings,
        ...(server ? { server: 'external', host: server.host, port: server.port } : { server: 'embedded' }),
      };
      const log = await logFor(dir);
      const world = server ? undefined : await worldFor(slot, settings);
      const result = await playOne(
        plannedRun(data),
        settings,
        data.profiles,
        { model: data.model, env: options.env, humansTimeoutMs: data.humansTimeoutMs, signal },
        {
          out: dir,
          botsDir: path.join(botsRoot, `slot-${slot}`),
          log: (line) => log.write(`[${name} w${slot} ${data.runId}] ${line}`),
          world,
        },
      );
      if (result.end_reason === 'interrupted') {
        // Handed back (or its lock was lost): back to the head of the queue, no attempt used.
        if (token) await job.moveToWait(token).catch(() => {});
        throw new WaitingError();
      }
      return result;
    } finally {
      slots[slot] = false;
    }
  };

  const worker = new Worker<RunJobData, RunResult>(QUEUE_NAME, processor, {
    connection: redisConnection(options.queue),
    concurrency: parallel,
    name,
    lockDuration: options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS,
    stalledInterval: options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS,
    // Attempts are counted per job by the processor above (--attempts of the campaign), lost
    // workers included: BullMQ's own limit on stalls must never fail a job first.
    maxStalledCount: 1_000_000,
  });
  worker.on('completed', (job, result) => {
    say(`${name}: ${job.data.runId}: ${result.end_reason}, score ${result.score}, ${result.duration_s} s`);
  });
  worker.on('failed', (job, err) => {
    if (job) say(`${name}: ${job.data.runId} failed: ${err.message}`);
  });
  worker.on('error', (err) => {
    say(`${name}: ${err.message}`);
  });
  // A job whose lock could not be renewed now belongs to the stalled check: end our run of it.
  worker.on('lockRenewalFailed', (ids: string[]) => {
    for (const id of ids) worker.cancelJob(id, 'lock lost');
  });
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const close = () =>
    (closing ??= (async () => {
      await worker.close();
      await Promise.all(worlds.map((w) => w?.world.close()));
      await queue.close().catch(() => {});
      await Promise.all([...logs.values()].map(async (l) => (await l).close()));
      await rm(botsRoot, { recursive: true, force: true });
      resolveClosed();
    })());
  return {
    name,
    running: () => slots.filter(Boolean).length,
    stop: close,
    handBack: async () => {
      worker.cancelAllJobs('handed back');
      await close();
    },
    closed,
  };
}
