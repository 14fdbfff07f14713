/**
 * The evaluation's job queue: one BullMQ queue (`mindcraft-eval`) on a Redis server, shared by
 * every campaign and every worker. Each planned run of a campaign is one job.
 *
 * Job ids are idempotent: `<campaign>|<run id>|<model>`, where the run id is
 * `<file key>/<task id>/<episode>` (`src/tasks/eval/campaign.ts`), the model is `--model` or the
 * profiles' models joined by `+`, and the campaign is `--campaign` or, by default, the name of the
 * evaluation's `--out` folder (`evals/sonnet` → `sonnet`). BullMQ ignores an add whose job id
 * exists, so submitting a campaign again never doubles a run. (`%`, `:` and `|` inside a part are
 * written `%25`, `%3A`, `%7C`: BullMQ refuses `:` in custom ids.)
 *
 * A job carries everything a worker on another machine needs: the task itself (not its file), the
 * task profiles, `--model`, the run's coordination strategy, and the coordinator's settings without
 * its secrets (`bot_key`, `dashboard_token`; workers use their own), their `coordination` set to the
 * run's (so a worker that predates the field plays the same strategy). Its return value is the run's {@link RunResult}: the
 * record lives in Redis; the run's files go to a directory on the worker (see `worker.ts`).
 */
import { Queue, type ConnectionOptions } from 'bullmq';
import { z } from 'zod';
import { parseModelSpec } from '../../models/spec.ts';
import {
  ConfigError,
  COORDINATIONS,
  profileSchema,
  settingsSchema,
  type Coordination,
  type Profile,
  type Settings,
} from '../../settings/index.ts';
import { runFolder, taskConditions, type PlannedRun } from '../../tasks/eval/campaign.ts';
import { RunRecorder, totals, type RunResult } from '../../tasks/eval/records.ts';
import { taskSchema, type LoadedTask } from '../../tasks/schema.ts';

/** The BullMQ queue every campaign's runs go to. */
export const QUEUE_NAME = 'mindcraft-eval';

/** Version of {@link RunJobData}: a worker refuses (fails) jobs of another version. */
export const JOB_FORMAT = 1;

/** How often a run may be started before it is recorded as failed (`--attempts`). */
export const DEFAULT_ATTEMPTS = 3;

/** How long to wait for Redis before giving up at start-up (ms). */
const CONNECT_TIMEOUT_MS = 10_000;

/** What a job carries (JSON in Redis). */
export interface RunJobData {
  format: typeof JOB_FORMAT;
  campaign: string;
  /** The coordinator's `--out` folder (absolute on its machine): where run folders go by default. */
  out: string;
  runId: string;
  episode: number;
  /** How the run's team works together (`--coordination`); absent in older jobs: the settings' one. */
  coordination?: Coordination;
  task: LoadedTask;
  /** The task profiles, agent 0 first (at least `task.agent_count`). */
  profiles: Profile[];
  /** `--model`: replaces every profile's model. */
  model?: Profile['model'];
  /** The coordinator's settings, without `bot_key` and `dashboard_token`. */
  settings: Omit<Settings, 'bot_key' | 'dashboard_token'>;
  humansTimeoutMs?: number;
  /** Starts allowed: lost workers (stalls) and worker errors each use one. */
  attempts: number;
}

const jobDataSchema = z.object({
  format: z.literal(JOB_FORMAT),
  campaign: z.string().min(1),
  out: z.string().min(1),
  runId: z.string().min(1),
  episode: z.number().int().min(1),
  coordination: z.enum(COORDINATIONS).optional(),
  task: taskSchema.and(z.object({ id: z.string(), file: z.string() })),
  profiles: z.array(profileSchema).min(1),
  model: profileSchema.shape.model.optional(),
  settings: settingsSchema.omit({ bot_key: true, dashboard_token: true }),
  humansTimeoutMs: z.number().int().positive().optional(),
  attempts: z.number().int().min(1),
});

/**
 * Checks a job's data as a worker receives it (a coordinator of another version, a hand-made job).
 *
 * @throws Error naming the first fields that do not fit.
 */
export function parseJobData(data: unknown): RunJobData {
  const parsed = jobDataSchema.safeParse(data);
  if (!parsed.success) {
    throw new Error(
      `not a run job of this version (format ${JOB_FORMAT}): ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || 'data'}: ${i.message}`)
        .join('; ')}`,
    );
  }
  return parsed.data;
}

/** The coordinator's settings as a job carries them: without the secrets. */
export function jobSettings(settings: Settings): RunJobData['settings'] {
  const { bot_key: _key, dashboard_token: _token, ...rest } = settings;
  return rest;
}

/** The planned run a job describes. */
export function plannedRun(data: RunJobData): PlannedRun {
  return {
    runId: data.runId,
    folder: runFolder(data.runId),
    task: data.task,
    episode: data.episode,
    coordination: data.coordination ?? data.settings.coordination,
  };
}

/**
 * The campaign's name: `given` (`--campaign`), else the output folder's name.
 *
 * @throws ConfigError for an empty name.
 */
export function campaignId(out: string, given?: string): string {
  const id = (
    given ??
    out
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ??
    ''
  ).trim();
  if (!id) throw new ConfigError(`--campaign: a campaign needs a name (got "${given ?? out}")`);
  return id;
}

/** A spec's model id: `oracle` or `provider/model` (the text itself when it does not parse). */
export function modelId(spec: Profile['model']): string {
  if (spec === 'oracle') return spec;
  try {
    return parseModelSpec(spec).id;
  } catch {
    return typeof spec === 'string' ? spec : spec.model;
  }
}

/** The model part of a job id: `--model`, else the distinct models of the run's profiles joined by `+`. */
export function modelKey(model: Profile['model'] | undefined, profiles: readonly Profile[]): string {
  if (model !== undefined) return modelId(model);
  return [...new Set(profiles.map((p) => modelId(p.model)))].join('+');
}

/** The job id of a run (see the module comment). */
export function jobId(campaign: string, runId: string, model: string): string {
  const part = (s: string) => s.replaceAll('%', '%25').replaceAll(':', '%3A').replaceAll('|', '%7C');
  return [campaign, runId, model].map(part).join('|');
}

/** `url` without its password, for messages (`redis://:***@host:6379/0`). */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/**
 * BullMQ's connection options for a `redis://[user:password@]host[:port][/db]` (or `rediss://`) URL.
 *
 * @throws ConfigError for anything else.
 */
export function redisConnection(url: string): ConnectionOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`--queue: "${redactedUrl(url)}" is not a URL; expected redis://HOST:PORT/DB, e.g. redis://127.0.0.1:6379/0`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ConfigError(
      `--queue: "${redactedUrl(url)}" is not a redis:// or rediss:// URL; expected redis://HOST:PORT/DB, e.g. redis://127.0.0.1:6379/0`,
    );
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db && !/^\d+$/.test(db))
    throw new ConfigError(`--queue: the database in "${redactedUrl(url)}" must be a number (redis://HOST:PORT/0)`);
  // Workers block on Redis: BullMQ wants unlimited retries per request, and no offline queue
  // would make a brief outage fail the calls instead of waiting for the reconnect.
  return { url, maxRetriesPerRequest: null };
}

/**
 * Opens the queue and waits until Redis answers.
 *
 * @throws Error naming the URL when Redis cannot be reached within 10 s.
 */
export async function openQueue(url: string): Promise<Queue> {
  const queue = new Queue(QUEUE_NAME, { connection: redisConnection(url) });
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`cannot reach Redis at ${redactedUrl(url)} within ${CONNECT_TIMEOUT_MS / 1000} s (is redis-server running there?)`),
        ),
      CONNECT_TIMEOUT_MS,
    );
  });
  queue.on('error', () => {}); // reconnects are ioredis's; a failure at start-up is reported below
  try {
    await Promise.race([queue.waitUntilReady(), failed]);
    return queue;
  } catch (err) {
    await queue.close().catch(() => {});
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The result of a run no worker could finish (its job failed: every attempt lost its worker or
 * ended in a worker error): `end_reason: 'error'`, score 0, `error: 'queue: <reason>'`, no time.
 */
export function failedRunResult(data: RunJobData, reason: string, startedAt: number): RunResult {
  const profiles = data.profiles.slice(0, data.task.agent_count);
  const recorder = new RunRecorder(Object.fromEntries(profiles.map((p) => [p.name, modelId(data.model ?? p.model)])), {
    prices: data.settings.model_prices,
  });
  const perAgent = Object.fromEntries(profiles.map((p) => [p.name, recorder.stats(p.name)]));
  return {
    run_id: data.runId,
    task_id: data.task.id,
    task_file: data.task.file,
    episode: data.episode,
    type: data.task.type,
    agent_count: data.task.agent_count,
    human_count: data.task.human_count ?? 0,
    coordination: data.coordination ?? data.settings.coordination,
    ...taskConditions(data.task),
    score: 0,
    success: false,
    end_reason: 'error',
    error: `queue: ${reason}`,
    duration_s: 0,
    setup_s: 0,
    play_s: 0,
    started_at: new Date(startedAt).toISOString(),
    agents: profiles.map((p) => p.name),
    models: Object.fromEntries(profiles.map((p) => [p.name, perAgent[p.name]!.model])),
    goals: {},
    commands: Object.fromEntries(profiles.map((p) => [p.name, []])),
    per_agent: perAgent,
    ...totals(perAgent),
  };
}
