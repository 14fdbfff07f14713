/**
 * `npm run eval -- ... --queue redis://HOST:PORT/DB`: the campaign's runs become jobs on the queue
 * (`jobs.ts`), workers anywhere play them (`worker.ts`, `npm run worker`), and this coordinator
 * follows the campaign: the same checks before anything is submitted, the same progress, and at the
 * end the same `results.jsonl`, `summary.csv` and `report.html` as a local evaluation
 * (`../evaluate.ts`: the functions are shared).
 *
 * The record of a run is its job's return value in Redis; the coordinator appends it to
 * `results.jsonl` when the job completes. A job that fails (every attempt lost its worker, or the
 * worker failed) is recorded as an `error` run naming the reason. The coordinator holds no state
 * of its own: stopped (Ctrl-C) it detaches, the workers go on, and the same command with
 * `--resume` re-attaches: it reads the campaign's jobs from Redis, records what finished meanwhile
 * (results in Redis count as done, so this works from another machine too), submits the unfinished
 * runs again (BullMQ ignores an add whose job id exists, so only those without a job are added) and
 * follows them.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ConfigError } from '../../settings/index.ts';
import type { PlannedRun } from '../../tasks/eval/campaign.ts';
import { runResultSchema, type RunResult } from '../../tasks/eval/records.ts';
import {
  evaluationFiles,
  prepareCampaign,
  previousResults,
  writeSummaryFiles,
  type Evaluation,
  type EvaluateOptions,
  type EvaluationProgress,
} from '../evaluate.ts';
import { appendResult, runFolderOf } from '../run-task.ts';
import {
  campaignId,
  DEFAULT_ATTEMPTS,
  failedRunResult,
  JOB_FORMAT,
  jobId,
  isSafeRunId,
  jobSettings,
  modelKey,
  openQueue,
  parseJobData,
  QUEUE_NAME,
  redactedUrl,
  redisConnection,
  type RunJobData,
} from './jobs.ts';

/** Options of {@link evaluateOnQueue}: those of a local evaluation, without workers or servers. */
export interface QueueEvaluateOptions extends Omit<EvaluateOptions, 'parallel' | 'servers'> {
  /** `redis://HOST:PORT/DB`. */
  queue: string;
  /** The campaign's name in job ids (default: the name of the `out` folder). */
  campaign?: string;
  /** Starts allowed per run before it is recorded as failed (default {@link DEFAULT_ATTEMPTS}). */
  attempts?: number;
}

/** Jobs read or added per Redis round of calls. */
const BATCH = 200;

/**
 * Submits the campaign and follows it until every run is recorded or the signal fires (then it
 * detaches: the jobs stay queued). Resolves with the same {@link Evaluation} as a local one;
 * `interrupted` means detached before the end.
 *
 * @throws TaskError / ConfigError for bad input (before anything is submitted), including a
 *   campaign that already has jobs in Redis without `resume`; Error when Redis cannot be reached.
 */
export async function evaluateOnQueue(options: QueueEvaluateOptions): Promise<Evaluation> {
  const began = Date.now();
  const log =
    options.log ??
    ((line: string) => {
      process.stderr.write(`${line}\n`);
    });
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  if (!Number.isInteger(attempts) || attempts < 1) throw new ConfigError(`--attempts expects a whole number ≥ 1, got ${options.attempts}`);
  redisConnection(options.queue); // a malformed URL is bad input, found before anything else
  const { plan, profiles } = await prepareCampaign(options, log);
  const out = path.resolve(options.out);
  const files = evaluationFiles(out);
  const recorded = await previousResults(files, options.resume);
  const campaign = campaignId(out, options.campaign);
  // A worker refuses a job whose run id could name a path: say so here, before anything is submitted.
  const unsafe = plan.filter((run) => !isSafeRunId(run.runId)).map((run) => run.runId);
  if (unsafe.length)
    throw new ConfigError(
      `run ids must be words of letters, digits, _ . - joined by / for a queue (workers refuse others): rename the task files or task ids of ${unsafe
        .slice(0, 3)
        .map((id) => `"${id}"`)
        .join(', ')}${unsafe.length > 3 ? ` and ${unsafe.length - 3} more` : ''}`,
    );
  const specs = [options.model, ...profiles.flatMap((p) => [p.model, p.code_model, p.vision_model, p.embedding])];
  if (specs.some((spec) => spec !== null && typeof spec === 'object' && ('url' in spec || 'apiKeyEnv' in spec)))
    log('A model spec sets url or apiKeyEnv: workers run such jobs only when started with --job-models (else they fail them).');
  const doneHere = new Set(recorded.map((r) => r.run_id));
  const runs = new Map<string, PlannedRun>();
  for (const run of plan) {
    if (!doneHere.has(run.runId))
      runs.set(jobId(campaign, run.runId, modelKey(options.model, profiles.slice(0, run.task.agent_count))), run);
  }
  const dataOf = (run: PlannedRun): RunJobData => ({
    format: JOB_FORMAT,
    campaign,
    runId: run.runId,
    episode: run.episode,
    ...(run.coordination ? { coordination: run.coordination } : {}),
    task: run.task,
    profiles: profiles.slice(0, run.task.agent_count),
    ...(options.model !== undefined ? { model: options.model } : {}),
    settings: { ...jobSettings(options.settings), coordination: run.coordination ?? options.settings.coordination },
    ...(options.humansTimeoutMs !== undefined ? { humansTimeoutMs: options.humansTimeoutMs } : {}),
    attempts,
  });

  await mkdir(out, { recursive: true });
  const queue = await openQueue(options.queue);
  let events: QueueEvents | undefined;
  const progress: EvaluationProgress = { total: 0, done: 0, successes: 0, tokens: 0, running: 0 };
  const outstanding = new Set(runs.keys());
  const running = new Set<string>();
  let skipped = plan.length - runs.size;
  let appending = Promise.resolve();
  let following = false;
  let allDone!: () => void;
  const finished = new Promise<void>((resolve) => {
    allDone = resolve;
  });

  /** Records a finished job once: its result line, the progress (or the skipped count while reading). */
  const record = async (id: string, result: RunResult) => {
    if (!outstanding.delete(id)) return;
    running.delete(id);
    appending = appending.then(() => appendResult(out, result).then(() => undefined));
    await appending;
    if (following) {
      options.board?.finished(result.run_id, {
        success: result.success,
        score: result.score,
        endReason: result.end_reason,
        folder: runFolderOf(out, result.run_id),
      });
      progress.done++;
      if (result.success) progress.successes++;
      progress.tokens += result.tokens.input + result.tokens.output;
      progress.running = running.size;
      options.onProgress?.({ ...progress, last: result });
    } else {
      skipped++;
    }
    if (outstanding.size === 0) allDone();
  };
  /** Reads a job's state; records it when it has finished. Returns the state. */
  const settle = async (id: string, job?: Job): Promise<string> => {
    job ??= await queue.getJob(id);
    if (!job) return 'missing';
    const state = await job.getState();
    if (state === 'completed') {
      const parsed = runResultSchema.safeParse(job.returnvalue);
      await record(
        id,
        parsed.success
          ? parsed.data
          : failedRunResult(
              dataOf(runs.get(id)!),
              `the worker's result is not a run result (${parsed.error.issues[0]?.message})`,
              job.processedOn ?? job.timestamp,
            ),
      );
    } else if (state === 'failed') {
      let data: RunJobData;
      try {
        data = parseJobData(job.data);
      } catch {
        data = dataOf(runs.get(id)!);
      }
      await record(id, failedRunResult(data, job.failedReason || 'failed', job.processedOn ?? job.timestamp));
    } else if (state === 'active') {
      running.add(id);
    }
    return state;
  };

  try {
    // Follow the queue's events from before the jobs are read, so that none finishes unseen.
    const redis = new Redis(options.queue, { maxRetriesPerRequest: 2 });
    const last = await redis.xrevrange(queue.keys.events!, '+', '-', 'COUNT', 1).finally(() => redis.quit());
    events = new QueueEvents(QUEUE_NAME, { connection: redisConnection(options.queue), lastEventId: last[0]?.[0] ?? '0-0' });
    events.on('error', () => {});
    const buffered: (() => Promise<unknown>)[] = [];
    const onEvent = (handle: () => Promise<unknown>) => {
      if (following) void handle().catch((err: Error) => log(`Queue: ${err.message}`));
      else buffered.push(handle);
    };
    const started = (id: string) => {
      const run = runs.get(id);
      if (!run || !outstanding.has(id) || running.has(id)) return;
      running.add(id);
      options.board?.started(run.runId, { agents: profiles.slice(0, run.task.agent_count).map((p) => p.name), timeoutS: run.task.timeout });
      progress.running = running.size;
      options.onProgress?.({ ...progress });
    };
    const back = (id: string) => {
      if (!running.delete(id)) return;
      progress.running = running.size;
      options.onProgress?.({ ...progress });
    };
    events.on('active', ({ jobId: id }) => onEvent(async () => started(id)));
    events.on('waiting', ({ jobId: id }) => onEvent(async () => back(id)));
    events.on('stalled', ({ jobId: id }) => onEvent(async () => back(id)));
    events.on('completed', ({ jobId: id }) => onEvent(() => (runs.has(id) ? settle(id) : Promise.resolve())));
    events.on('failed', ({ jobId: id }) => onEvent(() => (runs.has(id) ? settle(id) : Promise.resolve())));
    await events.waitUntilReady();

    // What Redis already has of this campaign: finished runs are recorded (as resumed), running
    // and waiting ones followed, missing ones submitted.
    const ids = [...runs.keys()];
    const states = new Map<string, string>();
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const found = await Promise.all(batch.map((id) => queue.getJob(id)));
      if (!options.resume && found.some(Boolean)) {
        throw new ConfigError(
          `campaign "${campaign}" already has jobs in ${redactedUrl(options.queue)}: pass --resume to re-attach to it, or name a new campaign (another --out folder, or --campaign)`,
        );
      }
      const got = await Promise.all(batch.map((id, j) => (found[j] ? settle(id, found[j]) : Promise.resolve('missing'))));
      batch.forEach((id, j) => states.set(id, got[j]!));
    }
    // Every run not finished is added: BullMQ ignores an add whose job id exists (waiting or
    // running here, or just added by another coordinator of the same campaign).
    const missing = ids.filter((id) => states.get(id) === 'missing');
    const unfinished = ids.filter((id) => outstanding.has(id));
    for (let i = 0; i < unfinished.length; i += BATCH) {
      await queue.addBulk(
        unfinished.slice(i, i + BATCH).map((id) => ({
          name: 'run',
          data: dataOf(runs.get(id)!),
          opts: { jobId: id, attempts, removeOnComplete: false, removeOnFail: false },
        })),
      );
    }
    const waiting = [...states.values()].filter((s) => !['missing', 'completed', 'failed', 'active'].includes(s)).length;
    if (skipped) log(`Resuming: ${skipped} of ${plan.length} runs are already recorded (${files.results}, or in Redis).`);
    log(
      `Campaign "${campaign}" on ${redactedUrl(options.queue)}: ${missing.length} run(s) submitted${waiting > 0 ? `, ${waiting} already waiting` : ''}${running.size ? `, ${running.size} running` : ''}. Workers: npm run worker -- --queue <this URL>`,
    );

    progress.total = outstanding.size;
    progress.running = running.size;
    options.board?.plan(
      [...outstanding]
        .map((id) => runs.get(id)!)
        .map((r) => ({
          runId: r.runId,
          taskId: r.task.id,
          file: r.task.file,
          ...(r.coordination ? { coordination: r.coordination } : {}),
        })),
    );
    options.onProgress?.({ ...progress });
    following = true;
    for (const handle of buffered.splice(0)) await handle();
    if (outstanding.size === 0) allDone();
    const detached = new Promise<void>((resolve) => {
      if (options.signal?.aborted) resolve();
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([finished, detached]);
    await appending;
  } finally {
    await events?.close().catch(() => {});
    await queue.close().catch(() => {});
  }

  const { results, rows, table } = await writeSummaryFiles(files, options.inputs, plan);
  return {
    results,
    rows,
    table,
    planned: plan.length,
    skipped,
    made: progress.done,
    interrupted: outstanding.size > 0,
    wall_s: Math.round((Date.now() - began) / 100) / 10,
    files,
  };
}
