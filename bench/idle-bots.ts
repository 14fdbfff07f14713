/**
 * Idle cost of bots, ours against bare mineflayer bots, each kind in a process of its own apart
 * from the server: the embedded server runs in this process; a child process joins N bots, lets
 * them idle, and reports its own RSS and CPU (process.memoryUsage, process.cpuUsage) over the idle
 * window. Each kind runs with 1 bot and with N bots; the difference divided by N − 1 is the cost
 * of one more bot.
 * - ours: `startAgents` with N oracle agents (modes, conversations, the command registry: all
 *   of an agent but a paid model), against the server as an external one;
 * - bare: N `mineflayer.createBot` clients with the plugins our bots load (pathfinder,
 *   collectblock), nothing else (./lib/floor.ts: none of our library fixes either).
 *
 *   npx node bench/idle-bots.ts [--bots 8] [--idle 8]     (the figures: --bots 50 --idle 30)
 *   npx node bench/idle-bots.ts --same-process [--bots 8] [--idle 8]   (server and bots together, as before)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Bot } from 'mineflayer';

const { values: args } = parseArgs({
  options: {
    bots: { type: 'string', default: '8' },
    idle: { type: 'string', default: '8' },
    child: { type: 'string' },
    port: { type: 'string' },
    'same-process': { type: 'boolean' },
  },
});
const bots = Number(args.bots);
const idleSeconds = Number(args.idle);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Idles `idleSeconds` and measures this process. */
async function measure(): Promise<{ rss_mb: number; cpu_pct: number }> {
  await sleep(2_000); // let joins settle before measuring
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await sleep(idleSeconds * 1000);
  const cpu = process.cpuUsage(cpu0);
  return { rss_mb: process.memoryUsage().rss / 1e6, cpu_pct: ((cpu.user + cpu.system) / 1000 / (performance.now() - wall0)) * 100 };
}

if (args.child) {
  // A child: join `bots` bots of one kind to the server at 127.0.0.1:port, measure, report one JSON line.
  const port = Number(args.port);
  const version = process.env.BENCH_MC_VERSION!;
  let close: () => Promise<void> | void;
  if (args.child === 'ours') {
    const { startAgents } = await import('../src/app/start-bots.ts');
    const { profileSchema, settingsSchema } = await import('../src/settings/index.ts');
    const botsDir = await mkdtemp(path.join(tmpdir(), 'bench-idle-'));
    const running = await startAgents({
      settings: settingsSchema.parse({
        server: 'external',
        host: '127.0.0.1',
        port,
        minecraft_version: version,
        chat_bot_messages: false,
        bot_transport: 'in-process',
        load_memory: false,
      }),
      profiles: Array.from({ length: bots }, (_, i) => profileSchema.parse({ name: `Ours${i}`, model: 'oracle' })),
      botsDir,
      log: () => {},
    });
    close = async () => {
      await running.close();
      await rm(botsDir, { recursive: true, force: true });
    };
  } else {
    const { joinFloorBot } = await import('./lib/floor.ts');
    const list: Bot[] = [];
    for (let i = 0; i < bots; i++) list.push(await joinFloorBot(`Bare${i}`, { host: '127.0.0.1', port, version }));
    close = () => {
      for (const bot of list) bot.quit();
    };
  }
  const figures = await measure();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  await close();
  await sleep(500); // the quit packets leave before the process does
  process.exit(0);
}

if (args['same-process']) {
  const { startAgents } = await import('../src/app/start-bots.ts');
  const { profileSchema, settingsSchema } = await import('../src/settings/index.ts');
  const t0 = performance.now();
  const running = await startAgents({
    settings: settingsSchema.parse({ world: 'superflat', chat_bot_messages: false, bot_transport: 'in-process' }),
    profiles: Array.from({ length: bots }, (_, i) => profileSchema.parse({ name: `Bench${i}`, model: 'oracle' })),
    port: 0,
    log: () => {},
  });
  const spawned = (performance.now() - t0) / 1000;
  const { rss_mb, cpu_pct } = await measure();
  console.log(
    JSON.stringify({
      bots,
      idle_s: idleSeconds,
      all_spawned_s: +spawned.toFixed(2),
      rss_mb: Math.round(rss_mb),
      cpu_pct_of_one_core: +cpu_pct.toFixed(1),
      node: process.version,
    }),
  );
  await running.close();
  process.exit(0);
}

const { startEmbeddedServer } = await import('../src/server/embedded.ts');
const server = await startEmbeddedServer({ port: 0 });
const self = fileURLToPath(import.meta.url);
/** Runs one child and returns what it measured. */
function child(kind: 'ours' | 'bare', count: number): Promise<{ rss_mb: number; cpu_pct: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [self, '--child', kind, '--port', String(server.port), '--bots', String(count), '--idle', String(idleSeconds)],
      {
        env: { ...process.env, BENCH_MC_VERSION: server.version },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) reject(new Error(`${kind} child with ${count} bots exited with ${code}`));
      else resolve(JSON.parse(line) as { rss_mb: number; cpu_pct: number });
    });
  });
}
const rows = [];
for (const kind of ['ours', 'bare'] as const) {
  const one = await child(kind, 1);
  const many = await child(kind, bots);
  rows.push({
    kind,
    [`rss_mb_1_bot`]: +one.rss_mb.toFixed(1),
    [`rss_mb_${bots}_bots`]: +many.rss_mb.toFixed(1),
    mb_per_extra_bot: +((many.rss_mb - one.rss_mb) / Math.max(1, bots - 1)).toFixed(2),
    [`cpu_pct_${bots}_bots`]: +many.cpu_pct.toFixed(2),
    cpu_pct_per_extra_bot: +((many.cpu_pct - one.cpu_pct) / Math.max(1, bots - 1)).toFixed(3),
  });
}
console.log(
  `Idle bots, each kind in its own process apart from the server (1 and ${bots} bots, ${idleSeconds} s idle; CPU in % of one core)`,
);
console.table(rows);
await server.close();
process.exit(0);
