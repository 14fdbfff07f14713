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
 * A job carries what a run needs and nothing more: the task itself (not its file), the task
 * profiles, `--model`, the run's coordination strategy, and the settings of {@link JOB_SETTINGS}
 * (how agents behave and are measured; their `coordination` is the run's too, so a worker that
 * predates the job's field plays the same strategy). A job is untrusted input to a worker (anyone who can write to the Redis database can
 * add one): {@link parseJobData} refuses any other setting (`allow_insecure_coding`,
 * `code_timeout_s`, `base_profile`, keys, servers and paths come from the worker's own
 * settings.json), campaign and run ids other than {@link SAFE_ID} words, nesting deeper than
 * {@link MAX_JOB_DEPTH}, and, unless the worker opts in (`--job-models`), a model spec with `url`
 * or `apiKeyEnv`. Its return value is the run's {@link RunResult}: the record lives in Redis; the
 * run's files go to the worker's own output folder (see `worker.ts`).
 */
import path from 'node:path';
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
import { nestingDepth } from '../../util/nesting.ts';

/** The BullMQ queue every campaign's runs go to. */
export const QUEUE_NAME = 'mindcraft-eval';

/** Version of {@link RunJobData}: a worker refuses (fails) jobs of another version. */
export const JOB_FORMAT = 2;

/**
 * The settings a job carries: how the agents behave and are measured. Every other setting is the
 * worker's own (servers, keys, paths, `base_profile`, `allow_insecure_coding`, `code_timeout_s`,
 * the dashboard, reconnects, `load_memory`).
 */
export const JOB_SETTINGS = [
  'minecraft_version',
  'blocked_actions',
  'max_commands',
  'max_repeats',
  'min_model_interval_ms',
  'max_tokens_per_hour',
  'model_timeout_s',
  'max_chat_chars',
  'chat_queue_limit',
  'chat_bot_messages',
  'init_message',
  'max_messages',
  'num_examples',
  'goal_idle_ms',
  'action_timeout_s',
  'convo_reply_delay_ms',
  'convo_busy_partner_delay_ms',
  'convo_reminder_ms',
  'convo_leave_end_ms',
  'chat_burst',
  'chat_interval_ms',
  'model_prices',
  'coordination',
  'rule_checked_edges',
] as const satisfies readonly (keyof Settings)[];

/** The settings of a job (see {@link JOB_SETTINGS}). */
export type JobSettings = Pick<Settings, (typeof JOB_SETTINGS)[number]>;

/**
 * A campaign id, and each `/`-separated part of a run id: letters, digits, `_`, `.` and `-`, not
 * only dots (so never `.` or `..`), at most 100 characters.
 */
export const SAFE_ID = /^(?!\.+$)[\w.-]{1,100}$/;

/** Deepest nesting of objects and arrays a job may have (a task's blueprint needs about 8). */
export const MAX_JOB_DEPTH = 32;

/** Longest wait for a task's human players a job may ask for (ms). */
const MAX_HUMANS_TIMEOUT_MS = 3_600_000;

/** True for a run id of {@link SAFE_ID} parts joined by `/` (at most 80 parts, 1,000 characters). */
export function isSafeRunId(runId: string): boolean {
  const parts = runId.split('/');
  return runId.length <= 1_000 && parts.length <= 80 && parts.every((p) => SAFE_ID.test(p));
}

/** How often a run may be started before it is recorded as failed (`--attempts`). */
export const DEFAULT_ATTEMPTS = 3;

/** How long to wait for Redis before giving up at start-up (ms). */
const CONNECT_TIMEOUT_MS = 10_000;

/** What a job carries (JSON in Redis). */
export interface RunJobData {
  format: typeof JOB_FORMAT;
  /** The campaign's name ({@link SAFE_ID}): the folder of its runs in a worker's output folder. */
  campaign: string;
  /** `<file key>/<task id>/<episode>`, each part {@link SAFE_ID}. */
  runId: string;
  episode: number;
  /** How the run's team works together (`--coordination`); absent in older jobs: the settings' one. */
  coordination?: Coordination;
  task: LoadedTask;
  /** The task profiles, agent 0 first (at least `task.agent_count`). */
  profiles: Profile[];
  /** `--model`: replaces every profile's model. */
  model?: Profile['model'];
  /** The coordinator's settings of {@link JOB_SETTINGS}. */
  settings: JobSettings;
  /** Wait for the task's human players (ms, at most an hour). */
  humansTimeoutMs?: number;
  /** Starts allowed: lost workers (stalls) and worker errors each use one. */
  attempts: number;
}

const jobSettingsSchema = settingsSchema.pick(Object.fromEntries(JOB_SETTINGS.map((k) => [k, true])) as { [K in keyof JobSettings]: true });

const jobDataSchema = z.strictObject({
  format: z.literal(JOB_FORMAT),
  campaign: z.string().regex(SAFE_ID, 'letters, digits, _ . - (not only dots), at most 100'),
  runId: z.string().refine(isSafeRunId, 'parts of letters, digits, _ . - (not only dots) joined by /'),
  episode: z.number().int().min(1),
  coordination: z.enum(COORDINATIONS).optional(),
  task: taskSchema.and(z.object({ id: z.string(), file: z.string() })),
  profiles: z.array(profileSchema).min(1),
  model: profileSchema.shape.model.optional(),
  settings: jobSettingsSchema,
  humansTimeoutMs: z.number().int().positive().max(MAX_HUMANS_TIMEOUT_MS).optional(),
  attempts: z.number().int().min(1).max(100),
});

/** Options of {@link parseJobData}. */
export interface ParseJobOptions {
  /** Take model specs with `url` or `apiKeyEnv` from the job (the worker's `--job-models`); default false. */
  jobModels?: boolean;
}

/** The model fields of a job (its `--model` and each profile's models) that set `url` or `apiKeyEnv`. */
function foreignModels(data: RunJobData): string[] {
  const specs: [string, unknown][] = [['model', data.model]];
  data.profiles.forEach((p, i) => {
    for (const key of ['model', 'code_model', 'vision_model', 'embedding'] as const) specs.push([`profiles.${i}.${key}`, p[key]]);
  });
  return specs
    .filter(([, spec]) => spec !== null && typeof spec === 'object' && ('url' in spec || 'apiKeyEnv' in spec))
    .map(([where]) => where);
}

/**
 * Checks a job's data as a worker receives it: a coordinator of another version, or a hand-made,
 * hostile job (see the module comment).
 *
 * @throws Error naming what does not fit (the first fields, a setting the job may not carry, a
 *   path-like id, a model address the worker did not opt in to).
 */
export function parseJobData(data: unknown, options: ParseJobOptions = {}): RunJobData {
  const depth = nestingDepth(data, MAX_JOB_DEPTH);
  if (depth > MAX_JOB_DEPTH) throw new Error(`not a run job: nested more than ${MAX_JOB_DEPTH} levels deep`);
  const parsed = jobDataSchema.safeParse(data);
  if (!parsed.success) {
    throw new Error(
      `not a run job of this version (format ${JOB_FORMAT}): ${parsed.error.issues
        .slice(0, 3)
        .map((i) =>
          i.code === 'unrecognized_keys'
            ? `${i.path.join('.') || 'data'}: ${i.keys.join(', ')} may not come from a job (the worker's own settings apply)`
            : `${i.path.join('.') || 'data'}: ${i.message}`,
        )
        .join('; ')}`,
    );
  }
  const job = parsed.data;
  const foreign = options.jobModels ? [] : foreignModels(job);
  if (foreign.length)
    throw new Error(
      `the job's ${foreign.join(', ')} set url or apiKeyEnv: a worker takes a model's address and key variable from a job only with --job-models; write "provider/model" for the providers' own`,
    );
  return job;
}

/** The coordinator's settings as a job carries them: those of {@link JOB_SETTINGS}. */
export function jobSettings(settings: Settings): JobSettings {
  return Object.fromEntries(JOB_SETTINGS.map((k) => [k, settings[k]])) as JobSettings;
}

/**
 * `parts` joined onto `root` (an absolute folder), checked to stay inside it.
 *
 * @throws Error when the path would leave `root` (a `..` or an absolute part).
 */
export function inside(root: string, ...parts: string[]): string {
  const resolved = path.resolve(root, ...parts);
  const rel = path.relative(root, resolved);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
    throw new Error(`${parts.join('/')} leads out of the output folder ${root}`);
  return resolved;
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
 * @throws ConfigError for an empty name, or one that is not a {@link SAFE_ID} word.
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
  if (!SAFE_ID.test(id))
    throw new ConfigError(
      `--campaign: "${id}" is not a campaign name: letters, digits, _ . - (not only dots), at most 100 characters${given === undefined ? " (it is the --out folder's name: pass --campaign NAME)" : ''}`,
    );
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
