/**
 * Hundreds of bots: what idle and walking bots cost, ours against the floor, and what the server
 * holds. The embedded server runs in a process of its own; the bots of each run join it from one
 * or more other processes:
 * - ours: `startAgents` with oracle agents (modes, conversations, commands: all of an agent but a
 *   paid model), `join_concurrency` at a time, with the library fixes of src/upstream/;
 * - floor: bare `mineflayer.createBot` bots with the plugins ours load (pathfinder, collectblock)
 *   and nothing of this project, so none of its fixes.
 * Idle bots stand; walking bots hold `forward` and turn about every 40 physics ticks (2 s).
 *
 * For each count N a fresh set of bot processes joins, lets the joins settle, then every process
 * (server included) measures its own CPU (process.cpuUsage) and RSS over the same window; the
 * server's TPS is read from the time of day (the server adds 20 to it every 20 ticks): the advance
 * between its first and last step in the window over the wall time between them, by the server
 * itself (`tps`) and as the first bot process's first live bot hears it in `update_time`
 * (`tps_heard`). Per-bot costs are least-squares slopes over the counts.
 *
 *   npx node bench/scale.ts [--counts 1,50,100,200] [--kinds ours,floor] [--modes idle,walk]
 *                           [--processes 1] [--window 15] [--join-concurrency 8] [--profile <dir>]
 *   npx node bench/scale.ts --counts 400 --kinds ours --modes idle --processes 2   (the 400-bot check)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Bot } from 'mineflayer';

const { values: args } = parseArgs({
  options: {
    counts: { type: 'string', default: '1,50,100,200' },
    kinds: { type: 'string', default: 'ours,floor' },
    modes: { type: 'string', default: 'idle,walk' },
    processes: { type: 'string', default: '1' },
    window: { type: 'string', default: '15' },
    'join-concurrency': { type: 'string', default: '8' },
    profile: { type: 'string' },
    role: { type: 'string' },
    kind: { type: 'string' },
    mode: { type: 'string' },
    count: { type: 'string' },
    offset: { type: 'string' },
    port: { type: 'string' },
    version: { type: 'string' },
  },
});

type Kind = 'ours' | 'floor';
type Mode = 'idle' | 'walk';
/** What a process measured over a window. */
interface Sample {
  cpu_pct: number;
  rss_mb: number;
  /** Ticks per second the server ran, from the time of day: the server's own reading, or what a bot heard. */
  tps?: number;
  /** Bot processes: connections lost since the joins. */
  drops?: number;
  /** Bot processes (ours): bots that lost their connection and joined again, since the process started. */
  rejoins?: number;
}
type Message = { type: 'ready'; port: number; version: string } | { type: 'joined'; seconds: number } | ({ type: 'sample' } & Sample);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const send = (message: Message) => process.send!(message);

/** Waits for the next message from the parent of a given type. */
function fromParent<T>(type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (message: { type: string }) => {
      if (message.type !== type) return;
      process.off('message', on);
      resolve(message as T);
    };
    process.on('message', on);
  });
}

/**
 * This process's CPU (% of one core) and RSS over `seconds`. With `--profile DIR`, a CPU profile
 * of the window is written there (`<role>-<kind>-<mode>-<count>.cpuprofile`, for Chrome DevTools).
 */
async function measureSelf(seconds: number): Promise<Sample> {
  const profiler = args.profile ? await startProfile() : undefined;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await sleep(seconds * 1000);
  const cpu = process.cpuUsage(cpu0);
  const sample = { cpu_pct: ((cpu.user + cpu.system) / 1000 / (performance.now() - wall0)) * 100, rss_mb: process.memoryUsage().rss / 1e6 };
  await profiler?.();
  return sample;
}

/** Starts the V8 profiler; the function returned stops it and writes the profile. */
async function startProfile(): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    const name = [args.role, args.kind, args.mode, args.count].filter(Boolean).join('-');
    await writeFile(path.join(args.profile!, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

if (args.role === 'server') {
  const { startEmbeddedServer } = await import('../src/server/embedded.ts');
  const server = await startEmbeddedServer({ port: 0, maxPlayers: 1_000 });
  send({ type: 'ready', port: server.port, version: server.version });
  for (;;) {
    const { seconds } = await fromParent<{ seconds: number }>('measure');
    // The time of day at each of its steps during the window: [wall ms, time].
    const times: Array<[number, number]> = [];
    let last = Number(server.serv.time);
    const onTick = () => {
      const time = Number(server.serv.time);
      if (time !== last) times.push([performance.now(), time]);
      last = time;
    };
    server.serv.on('tick', onTick);
    const sample = await measureSelf(seconds);
    server.serv.off('tick', onTick);
    send({ type: 'sample', ...sample, tps: ticksPerSecond(times) });
  }
}

if (args.role === 'bots') {
  const kind = args.kind as Kind;
  const count = Number(args.count);
  const offset = Number(args.offset);
  const address = { host: '127.0.0.1', port: Number(args.port), version: args.version!, auth: 'offline' as const };
  const concurrency = Number(args['join-concurrency']);
  const t0 = performance.now();
  let bots: Bot[];
  let close: () => Promise<void>;
  let rejoins = 0;
  if (kind === 'ours') {
    const { startAgents } = await import('../src/app/start-bots.ts');
    const { profileSchema, settingsSchema } = await import('../src/settings/index.ts');
    const botsDir = await mkdtemp(path.join(tmpdir(), 'bench-scale-'));
    const running = await startAgents({
      settings: settingsSchema.parse({
        server: 'external',
        host: address.host,
        port: address.port,
        minecraft_version: address.version,
        chat_bot_messages: false,
        bot_transport: 'in-process',
        load_memory: false,
        // Older trees (a baseline run) have no such setting and join one by one.
        ...('join_concurrency' in settingsSchema.shape ? { join_concurrency: concurrency } : {}),
      }),
      profiles: Array.from({ length: count }, (_, i) => profileSchema.parse({ name: `Ours${offset + i}`, model: 'oracle' })),
      botsDir,
      // A bot session logs "<name> is back on <server>" once it has joined again.
      log: (line) => {
        if (/ is back on /.test(line)) rejoins++;
      },
    });
    bots = running.agents.map((agent) => agent.bot);
    close = async () => {
      await running.close();
      await rm(botsDir, { recursive: true, force: true });
    };
  } else {
    const { joinFloorBot } = await import('./lib/floor.ts');
    bots = new Array<Bot>(count);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async () => {
        while (next < count) {
          const i = next++;
          bots[i] = await joinFloorBot(`Floor${offset + i}`, address);
        }
      }),
    );
    close = async () => {
      for (const bot of bots) bot.quit();
    };
  }
  send({ type: 'joined', seconds: (performance.now() - t0) / 1000 });
  if (args.mode === 'walk') {
    for (const bot of bots) {
      let ticks = 0;
      bot.setControlState('forward', true);
      bot.on('physicsTick', () => {
        if (++ticks % 40 === 0) void bot.look(bot.entity.yaw + Math.PI, 0, true);
      });
    }
  }
  // Connections lost since the joins (a kick, a dropped socket): a run with any is not a clean one.
  let drops = 0;
  if (process.env.DEBUG_DROPS)
    for (const bot of bots) bot.on('kicked', (reason) => console.error('kicked', bot.username, JSON.stringify(reason)));
  for (const bot of bots)
    bot.on('end', () => {
      drops++;
      if (process.env.DEBUG_DROPS) console.error('drop', bot.username);
    });
  for (;;) {
    const message = await Promise.race([fromParent<{ seconds: number }>('measure'), fromParent<{ type: 'quit' }>('quit')]);
    if ('type' in message && message.type === 'quit') break;
    // The time of day as the first live bot hears it during the window: [wall ms, time] of each update.
    const times: Array<[number, number]> = [];
    const live = (bot: Bot) => !!bot.entity && !(bot._client as unknown as { ended?: boolean }).ended;
    const client = (bots.find(live) ?? bots[0]!)._client;
    const onTime = (packet: { time: bigint | number | [number, number] }) => {
      const t = Array.isArray(packet.time) ? packet.time[1] : Number(packet.time);
      times.push([performance.now(), Math.abs(t)]);
    };
    client.on('update_time', onTime);
    const sample = await measureSelf((message as { seconds: number }).seconds);
    client.off('update_time', onTime);
    send({ type: 'sample', ...sample, tps: ticksPerSecond(times), drops, rejoins });
  }
  await close();
  await sleep(500); // the quit packets leave before the process does
  process.exit(0);
}

/** Ticks per second from time-of-day samples (the day wraps at 24,000). */
function ticksPerSecond(times: Array<[number, number]>): number | undefined {
  if (times.length < 2) return undefined;
  let ticks = 0;
  for (let i = 1; i < times.length; i++) ticks += (times[i]![1] - times[i - 1]![1] + 24_000) % 24_000;
  return ticks / ((times.at(-1)![0] - times[0]![0]) / 1000);
}

/** Least-squares slope and intercept of y over x. */
function leastSquares(points: Array<[number, number]>): { slope: number; intercept: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = sxx === 0 ? 0 : points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
  return { slope, intercept: my - slope * mx };
}

const self = fileURLToPath(import.meta.url);

/** Forks this script in a role; resolves with the child and a function awaiting its next message of a type. */
function start(
  role: string,
  extra: string[],
): { child: ChildProcess; next<T extends Message['type']>(type: T): Promise<Extract<Message, { type: T }>> } {
  const child = fork(self, ['--role', role, ...extra, ...(args.profile ? ['--profile', path.resolve(args.profile)] : [])], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends Message['type']>(type: T) =>
    new Promise<Extract<Message, { type: T }>>((resolve, reject) => {
      const onMessage = (message: Message) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<Message, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the ${role} process exited with ${code} before "${type}"`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return { child, next };
}

const counts = args.counts.split(',').map(Number);
const kinds = args.kinds.split(',') as Kind[];
const modes = args.modes.split(',') as Mode[];
const processes = Number(args.processes);
const windowS = Number(args.window);

const server = start('server', []);
const { port, version } = await server.next('ready');
interface Row {
  mode: Mode;
  kind: Kind;
  bots: number;
  processes: number;
  join_s: number;
  bots_cpu_pct: number;
  bots_rss_mb: number;
  server_cpu_pct: number;
  tps: number;
  tps_heard: number;
  drops: number;
  rejoins: number;
}
const rows: Row[] = [];
for (const mode of modes) {
  for (const kind of kinds) {
    for (const n of counts) {
      const parts = Array.from({ length: Math.min(processes, n) }, (_, i) => Math.floor(n / processes) + (i < n % processes ? 1 : 0));
      let offset = 0;
      const children = parts.map((count) => {
        const child = start('bots', [
          ...['--kind', kind, '--mode', mode, '--count', String(count), '--offset', String(offset)],
          ...['--port', String(port), '--version', version, '--join-concurrency', args['join-concurrency']],
        ]);
        offset += count;
        return child;
      });
      const joined = await Promise.all(children.map((c) => c.next('joined')));
      await sleep(3_000); // joins settle: the last chunks, the first mode checks
      const samples = children.map((c) => c.next('sample'));
      const serverSample = server.next('sample');
      for (const c of children) c.child.send({ type: 'measure', seconds: windowS });
      server.child.send({ type: 'measure', seconds: windowS });
      const bots = await Promise.all(samples);
      const srv = await serverSample;
      for (const c of children) c.child.send({ type: 'quit' });
      await Promise.all(children.map((c) => new Promise((resolve) => c.child.once('exit', resolve))));
      const row: Row = {
        mode,
        kind,
        bots: n,
        processes: parts.length,
        join_s: +Math.max(...joined.map((j) => j.seconds)).toFixed(2),
        bots_cpu_pct: +bots.reduce((s, b) => s + b.cpu_pct, 0).toFixed(1),
        bots_rss_mb: +bots.reduce((s, b) => s + b.rss_mb, 0).toFixed(0),
        server_cpu_pct: +srv.cpu_pct.toFixed(1),
        tps: +(srv.tps ?? NaN).toFixed(2),
        tps_heard: +(bots[0]!.tps ?? NaN).toFixed(2),
        drops: bots.reduce((n, b) => n + (b.drops ?? 0), 0),
        rejoins: bots.reduce((n, b) => n + (b.rejoins ?? 0), 0),
      };
      rows.push(row);
      console.error(JSON.stringify(row));
      await sleep(2_000); // the server lets the last players go
    }
  }
}

for (const mode of modes) {
  console.log(
    `\n${mode === 'idle' ? 'Idle' : 'Walking'} bots (CPU in % of one core, over ${windowS} s; ${processes} bot process(es) per run)`,
  );
  console.table(rows.filter((r) => r.mode === mode).map(({ mode: _, ...r }) => r));
  if (counts.length < 2) continue;
  const fits = kinds.map((kind) => {
    const mine = rows.filter((r) => r.mode === mode && r.kind === kind);
    const cpu = leastSquares(mine.map((r) => [r.bots, r.bots_cpu_pct]));
    const rss = leastSquares(mine.map((r) => [r.bots, r.bots_rss_mb]));
    const srv = leastSquares(mine.map((r) => [r.bots, r.server_cpu_pct]));
    return {
      kind,
      cpu_pct_per_bot: +cpu.slope.toFixed(3),
      mb_per_bot: +rss.slope.toFixed(2),
      fixed_mb: +rss.intercept.toFixed(0),
      server_cpu_pct_per_bot: +srv.slope.toFixed(3),
    };
  });
  console.log('Per extra bot (least squares over the counts)');
  console.table(fits);
  const ours = fits.find((f) => f.kind === 'ours');
  const floor = fits.find((f) => f.kind === 'floor');
  if (ours && floor)
    console.log(
      `ours / floor per extra bot: CPU ${(ours.cpu_pct_per_bot / floor.cpu_pct_per_bot).toFixed(2)} ×, memory ${(ours.mb_per_bot / floor.mb_per_bot).toFixed(2)} ×`,
    );
  const top = Math.max(...counts);
  const at = (kind: Kind) => rows.find((r) => r.mode === mode && r.kind === kind && r.bots === top);
  if (at('ours') && at('floor'))
    console.log(
      `at ${top} bots: ours ${at('ours')!.bots_cpu_pct} % against the floor's ${at('floor')!.bots_cpu_pct} % (${(at('ours')!.bots_cpu_pct / at('floor')!.bots_cpu_pct).toFixed(2)} ×)`,
    );
}
server.child.kill();
process.exit(0);
