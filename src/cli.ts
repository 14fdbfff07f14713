/**
 * mindcraft-ts command line: `start` (default) runs the bots of settings.json, `server` runs the
 * embedded Minecraft server alone, `task` runs one MineCollab task and prints its result, `eval`
 * runs whole task files and summarises them (locally, or as jobs on a Redis queue with `--queue`),
 * `worker` plays queued runs, `export` turns an evaluation's records into a chat dataset, `mcp`
 * serves the bots to an MCP client (stdio, or Streamable HTTP with `--http`). Bad input exits
 * with 2 before anything starts; an interrupted evaluation with 130.
 *
 * `start`, `server`, `mcp`, `worker` and `eval` own SIGINT (Ctrl-C) and SIGTERM from their first
 * line (./app/signals.ts): the first stops cleanly (memories saved, bots and servers closed, exit
 * code 0 for `start`, `server` and `mcp`), one more than the command handles quits at once
 * (130 / 143).
 */
import { writeFile } from 'node:fs/promises';
import { enableCompileCache } from 'node:module';
import { parseArgs } from 'node:util';
import path from 'node:path';
import type { Interrupts } from './app/signals.ts';
import type { EvaluationProgress } from './app/evaluate.ts';
import type { McpStartOptions } from './app/mcp/start.ts';

// Node's on-disk compile cache (in the system's temporary folder; NODE_COMPILE_CACHE=<dir> moves
// it, NODE_DISABLE_COMPILE_CACHE=1 turns it off): from the second start on, our modules are not
// stripped of their types again nor the libraries' compiled again, about 0.3 s of a task's start.
// It must be on before they load, hence the imports below come after it.
enableCompileCache();
const [{ ConfigError, loadSettings }, { lazy }, { takeSignals }] = await Promise.all([
  import('./settings/index.ts'),
  // Everything else is imported by the command that needs it (./app/lazy-modules.ts): `npm start`
  // loads no evaluation, queue or dashboard code it does not use, and no provider SDK (src/models/).
  import('./app/lazy-modules.ts'),
  import('./app/signals.ts'),
]);

const USAGE = `Usage:
  npm start                                   run the bots of settings.json
  npm run mcp -- [--as <name>]                 serve the bots of settings.json to an MCP client over stdio
  npm run mcp -- --http <port> [--host <addr>] [--token <secret>] [--allow-origin <origin>]... [--as <name>]
                                              serve them over Streamable HTTP at http://<addr>:<port>/mcp
                                              (default 127.0.0.1; any other address needs --token or MCP_TOKEN)
  npm run server -- [--port <n>] [--version <v>] [--max-players <n>] [--world survival|superflat] [--seed <n>] [--folder <dir>]
                                              run the embedded Minecraft server alone (default: 50 players, a
                                              survival world of a random seed, in memory; --folder keeps it)
  npm run task -- <task-file> <task-id> [--model <model>] [--coordination chat|dag|causal|tree|chain|graph] [--out <dir>] [--humans-timeout <s>] [--agents <n>]
                                              run one MineCollab or VillagerBench task; with --out, append its result
                                              to <dir>/results.jsonl and keep its records in <dir>/runs/;
                                              --coordination: how the team works together (default: settings.json's);
                                              --agents: team size of VillagerBench tasks (default: the task's, else 2)
  npm run eval -- <task-file|dir>... [--ids <regexp>] [--episodes <n>] [--coordination chat,dag,causal] [--parallel <p>]
                  [--model <model>] [--out <dir>] [--resume] [--servers <host:port,...>] [--humans-timeout <s>] [--max-timeout <s>] [--agents <n>] [--dashboard]
                                              run every task of the files (with each strategy named, N episodes
                                              each), summarise (stdout) and write
                                              results.jsonl, runs/, summary.csv, report.html to <dir>;
                                              --max-timeout caps every task's timeout (recorded as timeout_s);
                                              --dashboard shows the campaign live on the dashboard
  npm run eval -- <task-file|dir>... --queue <redis://host:port/db> [--campaign <name>] [--attempts <n>] [eval options]
                                              submit the runs as jobs to a Redis queue and follow them;
                                              the campaign is named after --out unless --campaign is given
  npm run worker -- --queue <redis://host:port/db> [--parallel <p>] [--servers <host:port,...>] [--out <dir>] [--job-models]
                    [--lock-duration <s>] [--stalled-interval <s>]
                                              play queued runs with this machine's settings.json; run folders
                                              go to <dir>/<campaign>/ (default evals/); --job-models takes a
                                              model's url and apiKeyEnv from jobs (a queue no one else writes)
  npm run export -- <dir> [--min-score <s>] [--format sft] [--out <file.jsonl>]
                                              turn an evaluation's runs into a chat dataset (JSONL)
  <model> is "<provider>/<model>" (e.g. anthropic/claude-sonnet-4-5, ollama/llama3.1), a bare name such as
  gpt-4o or claude-sonnet-4-5, or "oracle" (the offline policy). Tasks and evaluations never fall back to it.
  $GENERATE_USAGE
                                              write generated task files (MineCollab's format, or VillagerBench's)`;

/** Bad command-line input: printed with the usage, exit code 2. */
class UsageError extends Error {}

function log(line: string): void {
  console.error(line);
}

/**
 * Resolves at the first Ctrl-C (or SIGTERM). Holds the process open until then: a process whose
 * bots are all between reconnect attempts must not end by itself.
 */
async function untilInterrupted(signals: Interrupts): Promise<void> {
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    await signals.first;
  } finally {
    clearInterval(keepAlive);
  }
}

/** Longest clean stop after a signal (ms); past it the process quits with code 1 and says so. */
const STOP_TIMEOUT_MS = 30_000;

/** Runs `stop` (a clean shutdown) within {@link STOP_TIMEOUT_MS}. */
async function boundedStop(stop: () => Promise<void>, say: (line: string) => void): Promise<void> {
  const timer = setTimeout(() => {
    say(`Stopping took longer than ${STOP_TIMEOUT_MS / 1000} s: quitting now.`);
    process.exit(1);
  }, STOP_TIMEOUT_MS);
  timer.unref();
  try {
    await stop();
  } finally {
    clearTimeout(timer);
  }
}

async function start(): Promise<void> {
  // Before anything starts a server: see ./app/signals.ts.
  const signals = takeSignals();
  const { settings, profiles, file, keys, keysFile } = await loadSettings();
  const [{ startAgents }, { BotEventBus }, { createLogging }] = await Promise.all([lazy.startBots(), lazy.events(), lazy.logging()]);
  const dashboardOptions = settings.dashboard_port === 0 ? undefined : (await lazy.dashboard()).dashboardSettings(settings);
  // One event stream: readable lines on the terminal, JSON lines in bots/<name>/, the dashboard.
  const logging = createLogging({ botsDir: 'bots' });
  const bus = new BotEventBus();
  logging.attach(bus);
  void signals.first.then((signal) =>
    logging.line(`${signal}: stopping (memories saved, bots and the server closed). Ctrl-C again quits at once.`),
  );
  try {
    logging.line(
      `Settings: ${file ?? 'defaults (no settings.json found)'}; bots: ${profiles.map((p) => p.name).join(', ')}${keysFile ? `; API keys from ${keysFile}: ${keys.join(', ') || 'none new (the environment sets them)'}` : ''}`,
    );
    const running = await startAgents({ settings, profiles, bus });
    let dashboard;
    try {
      dashboard = dashboardOptions && (await (await lazy.dashboard()).startDashboard({ ...dashboardOptions, bots: running }));
    } catch (err) {
      await running.close();
      throw err;
    }
    logging.line(
      `Join ${running.address.host}:${running.address.port} with a Minecraft ${running.address.version} client and talk to the bots in chat.${dashboard ? ` Dashboard: ${dashboard.url}` : ''} Ctrl-C stops.`,
    );
    // Runs until Ctrl-C, or until every bot has lost the server and used up its reconnect attempts.
    const interrupted = untilInterrupted(signals);
    let lost = await Promise.race([interrupted.then(() => undefined), running.lost]);
    if (lost && running.server) {
      // The embedded server is this process: its players stay, and bots may be started again.
      logging.line(
        `${lost.message} The embedded server keeps running for its players on ${running.address.host}:${running.address.port}${dashboard ? `; start a bot again from the dashboard (${dashboard.url})` : ''}. Ctrl-C stops.`,
      );
      lost = undefined;
      await interrupted;
    }
    await boundedStop(
      async () => {
        await dashboard?.close();
        await running.close();
      },
      (line) => logging.line(line),
    );
    if (lost) throw lost;
  } finally {
    await logging.close();
  }
}

/**
 * `npm run mcp`: the bots of settings.json served over MCP (see `src/app/mcp/`), with the
 * dashboard as `npm start` serves it, until the stdio client leaves, Ctrl-C, or every bot has lost
 * the server. Over stdio, stdout is the protocol's from the first moment: everything else printed
 * goes to stderr.
 */
async function mcp(args: string[]): Promise<void> {
  // Before anything starts a server: see ./app/signals.ts.
  const signals = takeSignals();
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      http: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      as: { type: 'string' },
    },
  });
  const module = await lazy.mcp();
  let transport: McpStartOptions['transport'];
  if (values.http === undefined) {
    if (values.host !== undefined || values.token !== undefined || values['allow-origin'] !== undefined)
      throw new UsageError('--host, --token and --allow-origin go with --http <port>; without --http the server talks over stdio');
    transport = { kind: 'stdio', out: module.takeStdout() };
  } else {
    const port = Number(values.http);
    if (!Number.isInteger(port) || port < 0 || port > 65535 || values.http.trim() === '')
      throw new UsageError(`--http expects a port number 0–65535, got "${values.http}"`);
    const host = values.host ?? '127.0.0.1';
    const token = values.token ?? process.env.MCP_TOKEN ?? '';
    if (!module.isLoopback(host) && !token)
      throw new UsageError(
        `--host ${host} opens the MCP server beyond this machine: give --token <secret> (or MCP_TOKEN) too, or bind 127.0.0.1`,
      );
    const origins = values['allow-origin'] ?? [];
    for (const origin of origins) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin))
        throw new UsageError(`--allow-origin expects an origin such as http://localhost:6274, got "${origin}"`);
    }
    transport = { kind: 'http', port, host, token, allowedOrigins: origins };
  }
  if (values.as !== undefined && !/^[\w.-]{1,32}$/.test(values.as))
    throw new UsageError(`--as expects a name of 1–32 letters, digits, _, . or -, got "${values.as}"`);
  const { settings, profiles, file } = await loadSettings();
  const [{ BotEventBus }, { createLogging }] = await Promise.all([lazy.events(), lazy.logging()]);
  const dashboardOptions = settings.dashboard_port === 0 ? undefined : (await lazy.dashboard()).dashboardSettings(settings);
  const logging = createLogging({ botsDir: 'bots' });
  const bus = new BotEventBus();
  logging.attach(bus);
  void signals.first.then((signal) =>
    logging.line(`${signal}: stopping (memories saved, bots and the server closed). Ctrl-C again quits at once.`),
  );
  try {
    logging.line(`Settings: ${file ?? 'defaults (no settings.json found)'}; bots: ${profiles.map((p) => p.name).join(', ')}`);
    const served = await module.startMcp({
      settings,
      profiles,
      bus,
      client: values.as,
      log: (line) => logging.line(line),
      transport,
    });
    let dashboard;
    try {
      dashboard = dashboardOptions && (await (await lazy.dashboard()).startDashboard({ ...dashboardOptions, bots: served.running }));
    } catch (err) {
      await served.close();
      throw err;
    }
    if (dashboard) logging.line(`Dashboard: ${dashboard.url}`);
    const lost = await Promise.race([
      untilInterrupted(signals).then(() => undefined),
      served.ended.then(() => undefined),
      served.running.lost,
    ]);
    await boundedStop(
      async () => {
        await dashboard?.close();
        await served.close();
      },
      (line) => logging.line(line),
    );
    if (lost) throw lost;
  } finally {
    await logging.close();
  }
}

async function server(args: string[]): Promise<void> {
  // Before the server starts: see ./app/signals.ts.
  const signals = takeSignals();
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      version: { type: 'string' },
      'max-players': { type: 'string' },
      world: { type: 'string' },
      seed: { type: 'string' },
      folder: { type: 'string' },
    },
    strict: true,
  });
  const port = values.port === undefined ? 25565 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port expects a port number 0–65535, got "${values.port}"`);
  const maxPlayers = wholeNumber('max-players', values['max-players'], 1);
  const [{ startEmbeddedServer, MAX_SEED, MIN_SEED, WORLD_KINDS }, { DEFAULT_MINECRAFT_VERSION }, { describeWorld }] = await Promise.all([
    lazy.embeddedServer(),
    lazy.versions(),
    lazy.startBots(),
  ]);
  const world = values.world ?? 'survival';
  if (!(WORLD_KINDS as readonly string[]).includes(world))
    throw new UsageError(`--world expects ${WORLD_KINDS.join(' or ')}, got "${values.world}"`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && (values.seed?.trim() === '' || !Number.isInteger(seed) || seed < MIN_SEED || seed > MAX_SEED))
    throw new UsageError(`--seed expects a whole number from ${MIN_SEED} to ${MAX_SEED}, got "${values.seed}"`);
  const srv = await startEmbeddedServer({
    port,
    version: values.version ?? DEFAULT_MINECRAFT_VERSION,
    maxPlayers,
    world: world as (typeof WORLD_KINDS)[number],
    seed,
    worldFolder: values.folder,
  });
  log(`Minecraft ${srv.version} server (offline mode, ${describeWorld(srv)}) on ${srv.host}:${srv.port}.`);
  log(`Join: Multiplayer > Direct Connection > ${srv.host}:${srv.port} with a ${srv.version} client (any username). Ctrl-C stops.`);
  await untilInterrupted(signals);
  log('Stopping: the players are disconnected and the server closed. Ctrl-C again quits at once.');
  await boundedStop(() => srv.close(), log);
}

/** A whole number ≥ `min` from an option, or undefined when absent. */
function wholeNumber(option: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${option} expects a whole number ≥ ${min}, got "${value}"`);
  return n;
}

/** `--humans-timeout` seconds as ms. */
async function humansTimeout(value: string | undefined): Promise<number> {
  const s = wholeNumber('humans-timeout', value, 1);
  return s === undefined ? (await lazy.taskSetup()).HUMANS_TIMEOUT_MS : s * 1000;
}

/** An AbortSignal fired by the first Ctrl-C (or SIGTERM), saying `message`; a second Ctrl-C ends the process at once. */
function interruptSignal(
  signals: Interrupts,
  say: (line: string) => void,
  message = 'Stopping: the runs in progress end unrecorded, finished ones are kept. Ctrl-C again quits at once.',
): AbortSignal {
  const controller = new AbortController();
  void signals.first.then(() => {
    say(message);
    controller.abort();
  });
  return controller.signal;
}

async function task(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      model: { type: 'string' },
      out: { type: 'string' },
      'humans-timeout': { type: 'string' },
      coordination: { type: 'string' },
      agents: { type: 'string' },
    },
  });
  const [file, id, ...extra] = positionals;
  if (file === undefined || id === undefined || extra.length > 0)
    throw new UsageError(`task expects <task-file> <task-id>, got ${positionals.length} argument(s)`);
  const [
    { appendResult, loadTaskProfiles, runFolderOf, runTask },
    { loadTask },
    { requireUsableModels },
    { fileKeys, parseCoordinations, runIdOf },
  ] = await Promise.all([lazy.runTask(), lazy.taskLoader(), lazy.modelChoice(), lazy.campaign()]);
  const humansTimeoutMs = await humansTimeout(values['humans-timeout']);
  const chosen = values.coordination === undefined ? undefined : parseCoordinations(values.coordination);
  if (chosen && chosen.length !== 1)
    throw new UsageError(
      `task plays one strategy: --coordination chat, dag, causal, tree, chain or graph (got "${values.coordination}"); eval plays several`,
    );
  const agents = wholeNumber('agents', values.agents, 1);
  const loaded = await loadTask(file, id, agents === undefined ? {} : { agents });
  const { settings } = await loadSettings();
  const coordination = chosen?.[0] ?? settings.coordination;
  const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), loaded.agent_count);
  requireUsableModels(
    profiles.map((p) => ({ owner: values.model ? '--model' : `profile "${p.name}" (profiles/tasks/)`, spec: values.model ?? p.model })),
  );
  const runId = runIdOf(fileKeys([file]).get(file)!, id, 1, coordination);
  const result = await runTask({
    task: loaded,
    settings,
    profiles,
    model: values.model,
    coordination,
    log,
    humansTimeoutMs,
    runId,
    folder: values.out ? runFolderOf(values.out, runId) : undefined,
  });
  if (values.out) log(`Result appended to ${await appendResult(values.out, result)}; records in ${runFolderOf(values.out, runId)}.`);
  console.log(JSON.stringify(result));
}

async function evalCommand(args: string[]): Promise<number> {
  // Before anything starts a server: see ./app/signals.ts.
  const signals = takeSignals();
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      ids: { type: 'string' },
      episodes: { type: 'string' },
      coordination: { type: 'string' },
      parallel: { type: 'string' },
      model: { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'boolean' },
      servers: { type: 'string' },
      'humans-timeout': { type: 'string' },
      dashboard: { type: 'boolean' },
      queue: { type: 'string' },
      campaign: { type: 'string' },
      attempts: { type: 'string' },
      'max-timeout': { type: 'string' },
      agents: { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new UsageError('eval expects at least one task file or folder');
  if (values.queue && (values.parallel !== undefined || values.servers !== undefined)) {
    throw new UsageError(
      'with --queue, --parallel and --servers belong to the workers: npm run worker -- --queue <url> --parallel <p> --servers <...>',
    );
  }
  if (!values.queue && (values.campaign !== undefined || values.attempts !== undefined))
    throw new UsageError('--campaign and --attempts need --queue');
  const out = values.out ?? path.join('evals', new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-'));
  const { settings } = await loadSettings();
  const [{ progressBar }, { CampaignBoard }, { dashboardSettings, startDashboard }] = await Promise.all([
    lazy.progress(),
    values.dashboard ? lazy.campaignBoard() : { CampaignBoard: undefined },
    values.dashboard ? lazy.dashboard() : { dashboardSettings: undefined, startDashboard: undefined },
  ]);
  const bar = progressBar(process.stderr);
  // --dashboard: the campaign live on the dashboard's address (settings.json), run records linked.
  const board = CampaignBoard
    ? new CampaignBoard(`MineCollab evaluation: ${positionals.map((p) => path.basename(p)).join(', ')}`, {
        recordsRoot: path.join(out, 'runs'),
      })
    : undefined;
  const dashboard =
    board &&
    startDashboard &&
    (await startDashboard({
      ...(dashboardSettings(settings) ?? {
        host: settings.dashboard_host,
        port: 0,
        token: settings.dashboard_token,
        allowedHosts: settings.dashboard_allowed_hosts,
      }),
      campaign: board,
    }));
  if (dashboard) bar.log(`Dashboard: ${dashboard.url}`);
  const signal = values.queue
    ? interruptSignal(
        signals,
        (line) => bar.log(line),
        'Detaching: the campaign stays queued and the workers go on; the same command with --resume re-attaches. Ctrl-C again quits at once.',
      )
    : interruptSignal(signals, (line) => bar.log(line));
  const common = {
    inputs: positionals,
    ids: values.ids,
    episodes: wholeNumber('episodes', values.episodes, 1),
    coordinations: values.coordination === undefined ? undefined : (await lazy.campaign()).parseCoordinations(values.coordination),
    model: values.model,
    out,
    resume: values.resume,
    maxTimeoutS: wholeNumber('max-timeout', values['max-timeout'], 1),
    agents: wholeNumber('agents', values.agents, 1),
    humansTimeoutMs: await humansTimeout(values['humans-timeout']),
    settings,
    signal,
    log: (line: string) => bar.log(line),
    onProgress: (p: EvaluationProgress) => bar.update(p),
    board,
  };
  const evaluation = await (
    values.queue
      ? (await lazy.coordinator()).evaluateOnQueue({
          ...common,
          queue: values.queue,
          campaign: values.campaign,
          attempts: wholeNumber('attempts', values.attempts, 1),
        })
      : (await lazy.evaluate()).evaluate({
          ...common,
          parallel: wholeNumber('parallel', values.parallel, 1),
          servers: values.servers ? (await lazy.evaluate()).parseServers(values.servers) : undefined,
        })
  ).finally(async () => {
    bar.stop();
    await dashboard?.close();
  });
  console.log(evaluation.table);
  log(
    `${evaluation.made} run(s) made${evaluation.skipped ? `, ${evaluation.skipped} resumed` : ''} of ${evaluation.planned} in ${evaluation.wall_s} s${evaluation.interrupted ? ' (interrupted: --resume continues)' : ''}.`,
  );
  log(
    `Results: ${evaluation.files.results}\nSummary: ${evaluation.files.csv}\nReport:  ${evaluation.files.report}\nLog:     ${evaluation.files.log}`,
  );
  return evaluation.interrupted ? 130 : 0;
}

async function workerCommand(args: string[]): Promise<number> {
  // Before the first run can start a server: flying-squid's exit hook would otherwise take a
  // signal first and end the worker before it says it is stopping (./app/signals.ts).
  const signals = takeSignals({ graceful: 2 });
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      queue: { type: 'string' },
      parallel: { type: 'string' },
      servers: { type: 'string' },
      out: { type: 'string' },
      'job-models': { type: 'boolean' },
      'lock-duration': { type: 'string' },
      'stalled-interval': { type: 'string' },
    },
  });
  if (!values.queue) throw new UsageError('worker expects --queue redis://HOST:PORT/DB');
  const { settings } = await loadSettings();
  const lock = wholeNumber('lock-duration', values['lock-duration'], 1);
  const stalled = wholeNumber('stalled-interval', values['stalled-interval'], 1);
  const [{ startWorker }, { parseServers }, { redactedUrl }] = await Promise.all([lazy.worker(), lazy.evaluate(), lazy.jobs()]);
  const worker = await startWorker({
    queue: values.queue,
    parallel: wholeNumber('parallel', values.parallel, 1),
    servers: values.servers ? parseServers(values.servers) : undefined,
    out: values.out,
    settings,
    jobModels: values['job-models'] === true,
    lockDurationMs: lock === undefined ? undefined : lock * 1000,
    stalledIntervalMs: stalled === undefined ? undefined : stalled * 1000,
    log,
  });
  let handedBack = false;
  // A signal that came while the worker started is acted on now.
  void signals.first.then(() => {
    log(
      `Stopping: no new run is taken; ${worker.running()} running run(s) finish and are recorded. Ctrl-C again hands them back to the queue.`,
    );
    void worker.stop();
  });
  void signals.nth(2).then(() => {
    log('Handing the running runs back to the queue. Ctrl-C again quits at once (their jobs restart after the stall timeout).');
    handedBack = true;
    void worker.handBack();
  });
  log(
    `Worker ${worker.name} takes runs from ${redactedUrl(values.queue)} (${wholeNumber('parallel', values.parallel, 1) ?? 1} at once). Ctrl-C stops.`,
  );
  await worker.closed;
  log(`Worker ${worker.name} stopped.`);
  return handedBack ? 130 : 0;
}

async function exportCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { 'min-score': { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } },
  });
  const [dir, ...extra] = positionals;
  if (dir === undefined || extra.length > 0) throw new UsageError(`export expects one evaluation folder, got ${positionals.length}`);
  if ((values.format ?? 'sft') !== 'sft') throw new UsageError(`--format: only "sft" is supported, got "${values.format}"`);
  const minScore = values['min-score'] === undefined ? undefined : Number(values['min-score']);
  if (minScore !== undefined && !(minScore >= 0 && minScore <= 1))
    throw new UsageError(`--min-score expects a score in [0, 1], got "${values['min-score']}"`);
  const [{ exportSft }, { TaskError }] = await Promise.all([lazy.exportSft(), lazy.taskLoader()]);
  const { examples, runs, skipped } = await exportSft(dir, { minScore }).catch((err: Error) => {
    throw new TaskError(err.message);
  });
  const file = values.out ?? path.join(dir, 'sft.jsonl');
  await writeFile(file, examples.map((e) => JSON.stringify(e)).join('\n') + (examples.length ? '\n' : ''));
  log(
    `Wrote ${examples.length} conversation(s) from ${runs} run(s)${skipped ? ` (${skipped} below --min-score left out)` : ''} to ${file}.`,
  );
}

async function main(argv: string[]): Promise<number> {
  const [command = 'start', ...rest] = argv;
  try {
    if (command === 'start') await start();
    else if (command === 'server') await server(rest);
    else if (command === 'mcp') await mcp(rest);
    else if (command === 'task') await task(rest);
    else if (command === 'eval') return await evalCommand(rest);
    else if (command === 'worker') return await workerCommand(rest);
    else if (command === 'export') await exportCommand(rest);
    else if (command === 'generate') {
      const { file, tasks } = await (await lazy.generate()).generate(rest);
      log(`Wrote ${tasks} tasks to ${file}.`);
    } else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (err) {
    const e = err as Error;
    // By name: the modules of TaskError and GenerateUsageError are loaded only by the commands that throw them.
    const generateUsage = e.name === 'GenerateUsageError';
    const bad =
      e instanceof UsageError ||
      generateUsage ||
      e instanceof RangeError ||
      e instanceof ConfigError ||
      e.name === 'TaskError' ||
      e.name === 'ServerVersionError' ||
      e.name === 'LanError' ||
      (e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    log(`Error: ${e.message}`);
    if (e instanceof UsageError || generateUsage || (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS'))
      log(USAGE.replace('$GENERATE_USAGE', (await lazy.generate()).GENERATE_USAGE));
    return bad || (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
// Bots and servers hold sockets open; leave once the work is done.
process.exit();
