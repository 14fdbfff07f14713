/**
 * Soak: N bots on the embedded server, P players (plain mineflayer clients) each whispering one
 * bot a line every few seconds, for a given time. Each bot's model is a fake OpenAI-compatible
 * provider on loopback that takes `--model-ms` to answer and, by default, always answers with a
 * command after its text (alternating `!stats` and `!inventory`, so no repeat limit ends the
 * loop): the model never stops on its own, and a player's line has to get past its follow-ups.
 * That is the load of issue 27 (10 bots, 2 players talking every 3 s).
 *
 * Each line carries a number (`line 17 ...`); the fake answers `Got <n>.` for the newest line in
 * the prompt it was sent. A line is answered when the bot it went to whispers its number back to
 * the player; its latency runs from the whisper sent to the answer heard. After the last line the
 * run waits `--grace` seconds; lines still unanswered then are counted as such.
 *
 * Everything runs in this one process (server, bots, players, fake model): the RSS figure is the
 * whole of it, sampled every 10 s; its slope (least squares, MB per hour, ± its standard error) is
 * taken over the samples after the first quarter of the run (joins and warm-up). The fake's own
 * request records are emptied at each sample, so they do not count. Run with `--expose-gc` and
 * the JavaScript heap is sampled too, right after a full collection (what is still referenced,
 * apart from the allocator's slack that RSS includes), with its own slope.
 *
 * `--heap-snapshots DIR` writes V8 heap snapshots of the whole process (`soak-0.heapsnapshot`,
 * `-25`, `-50`, `-75`, `-100`) into DIR, each right after a full collection: once every player
 * has joined, at 25, 50 and 75 % of the talking time and after the grace period. Compare two
 * with `bench/lib/heap-diff.ts` to see what the heap keeps, and where. Writing one stops the
 * process for about 3 s (lines waiting then are answered late) and leaves the RSS hundreds of MB
 * higher (467 → 764 MB over 20 minutes with four), so the latency and RSS figures of such a run are
 * not the plain soak's; the heap after a collection is. Each file is about 110 MB for 10 bots:
 * keep DIR out of the repository (under /tmp).
 *
 *   npx node bench/soak.ts [--bots 10] [--players 2] [--interval 3] [--minutes 5] [--model-ms 500]
 *                          [--grace 30] [--follow-ups true] [--heap-snapshots DIR]
 *   npx node --expose-gc bench/soak.ts --minutes 60   (the hour the README's figures call for)
 *   npx node --expose-gc bench/soak.ts --minutes 20 --heap-snapshots /tmp/soak-heap
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { parseArgs } from 'node:util';
import mineflayer, { type Bot } from 'mineflayer';
import { startAgents } from '../src/app/start-bots.ts';
import { profileSchema, settingsSchema } from '../src/settings/index.ts';
import { startFakeProvider, type FakeChatCall } from '../test/helpers/fake-providers.ts';

const { values: args } = parseArgs({
  options: {
    bots: { type: 'string', default: '10' },
    players: { type: 'string', default: '2' },
    interval: { type: 'string', default: '3' },
    minutes: { type: 'string', default: '5' },
    'model-ms': { type: 'string', default: '500' },
    grace: { type: 'string', default: '30' },
    'follow-ups': { type: 'string', default: 'true' },
    'heap-snapshots': { type: 'string' },
  },
});
/** A number option ≥ `min`, or a clear error. */
function option(name: keyof typeof args, min: number): number {
  const n = Number(args[name]);
  if (!Number.isFinite(n) || n < min) throw new RangeError(`--${name} expects a number ≥ ${min}, got "${String(args[name])}"`);
  return n;
}
const botCount = Math.round(option('bots', 1));
const playerCount = Math.round(option('players', 1));
const intervalMs = option('interval', 0.1) * 1000;
const durationMs = option('minutes', 0.1) * 60_000;
const modelMs = option('model-ms', 0);
const graceMs = option('grace', 0) * 1000;
const followUps = args['follow-ups'] !== 'false';
const snapshotDir = args['heap-snapshots'];
if (snapshotDir !== undefined) await mkdir(snapshotDir, { recursive: true });

/** The newest line number a prompt shows the model, if any. */
function newestLine(call: FakeChatCall): number | undefined {
  let newest: number | undefined;
  for (const message of call.messages) {
    for (const m of message.content.matchAll(/\bline (\d+)\b/g)) newest = Math.max(newest ?? 0, Number(m[1]));
  }
  return newest;
}

let calls = 0;
const fake = await startFakeProvider('openai', {
  handler: (call) => {
    const line = newestLine(call);
    calls++;
    const command = followUps ? ` ${calls % 2 ? '!stats' : '!inventory'}` : '';
    return { text: `${line === undefined ? 'Nothing yet.' : `Got ${line}.`}${command}`, delayMs: modelMs };
  },
});
const names = Array.from({ length: botCount }, (_, i) => `Bot${i + 1}`);
const botsDir = `/tmp/bench-soak-${process.pid}`;
const started = performance.now();
const running = await startAgents({
  settings: settingsSchema.parse({
    world: 'superflat',
    chat_bot_messages: false,
    bot_transport: 'in-process',
    load_memory: false,
    // No token budget: an hour of a model that never stops would spend the default's million.
    max_tokens_per_hour: 0,
  }),
  profiles: names.map((name) => profileSchema.parse({ name, model: fake.spec('soak-model', 'openai') })),
  port: 0,
  env: fake.env,
  botsDir,
  log: () => {},
});
const server = running.server!;
console.error(`${botCount} bots joined in ${((performance.now() - started) / 1000).toFixed(1)} s`);

/** A line sent and not yet answered, by number. */
interface Pending {
  bot: string;
  player: string;
  sentAt: number;
}
const pending = new Map<number, Pending>();
const latencies: number[] = [];
let sent = 0;

const players: Bot[] = [];
const dropped = new Set<string>();
for (let p = 0; p < playerCount; p++) {
  const bot = mineflayer.createBot({
    host: server.host,
    port: server.port,
    username: `Player${p + 1}`,
    version: server.version,
    auth: 'offline',
  });
  bot.on('error', (err) => console.error(`Player${p + 1}: ${err.message}`));
  // A player the server drops (a stall of this process past the keep-alive timeout) is not
  // rejoined: it stops talking, and the figures say how many were dropped.
  bot.once('end', (reason) => {
    dropped.add(bot.username);
    console.error(`Player${p + 1} lost its connection (${reason}); it says nothing more.`);
  });
  await new Promise<void>((resolve, reject) => {
    bot.once('spawn', () => resolve());
    bot.once('kicked', (reason) => reject(new Error(`Player${p + 1} was kicked: ${JSON.stringify(reason)}`)));
  });
  bot.on('whisper', (from, text) => {
    for (const m of text.matchAll(/\bGot (\d+)\b/g)) {
      const id = Number(m[1]);
      const line = pending.get(id);
      if (!line || line.bot !== from || line.player !== bot.username) continue;
      pending.delete(id);
      latencies.push(performance.now() - line.sentAt);
    }
  });
  players.push(bot);
}

// RSS every 10 s, the fake's records emptied.
const samples: { t: number; rss: number; heap?: number }[] = [];
const gc = (globalThis as { gc?: () => void }).gc;
const sample = () => {
  fake.requests.length = 0;
  fake.heads.length = 0;
  gc?.();
  const memory = process.memoryUsage();
  samples.push({ t: (performance.now() - runStart) / 3_600_000, rss: memory.rss / 2 ** 20, heap: gc && memory.heapUsed / 2 ** 20 });
};
const runStart = performance.now();
sample();
const sampler = setInterval(sample, 10_000);

/** A heap snapshot named by its share of the run, after a full collection (the sampler's `gc`). */
const snapshot = (percent: number) => {
  if (snapshotDir === undefined) return;
  gc?.();
  const t0 = performance.now();
  const file = v8.writeHeapSnapshot(path.join(snapshotDir, `soak-${percent}.heapsnapshot`));
  console.error(`heap snapshot ${file} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
};
snapshot(0);
const snapshotTimers = [25, 50, 75].map((percent) => setTimeout(() => snapshot(percent), (durationMs * percent) / 100));

// Each player whispers the next bot in its turn every interval, the players spread over it.
const turn = players.map((_, p) => p);
const talkers = players.map((player, p) =>
  setTimeout(
    () => {
      const say = () => {
        if (dropped.has(player.username)) return;
        const bot = names[turn[p]! % botCount]!;
        turn[p]! += playerCount;
        const id = ++sent;
        pending.set(id, { bot, player: player.username, sentAt: performance.now() });
        player.whisper(bot, `line ${id}: what are you doing?`);
      };
      say();
      talkers[p] = setInterval(say, intervalMs);
    },
    (intervalMs * p) / playerCount,
  ),
);
await new Promise((resolve) => setTimeout(resolve, durationMs));
for (const talker of talkers) clearInterval(talker);
// The grace period ends early once every line is answered.
const graceEnd = performance.now() + graceMs;
while (pending.size && performance.now() < graceEnd) await new Promise((resolve) => setTimeout(resolve, 200));
clearInterval(sampler);
sample();
for (const timer of snapshotTimers) clearTimeout(timer);
snapshot(100);

const sorted = [...latencies].sort((a, b) => a - b);
const percentile = (p: number) =>
  sorted.length ? +(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! / 1000).toFixed(2) : NaN;
/** Least-squares slope of `ys` over the times `xs` (MB/h) with its standard error. */
function slope(xs: number[], ys: number[]): { slope: number; se: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const b = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / sxx;
  const residual = ys.reduce((a, y, i) => a + (y - (my + b * (xs[i]! - mx))) ** 2, 0);
  return { slope: b, se: Math.sqrt(residual / Math.max(1, n - 2) / sxx) };
}
const settled = samples.filter((s) => s.t >= samples.at(-1)!.t / 4);
const fit = (ys: number[]) => {
  if (settled.length < 3) return undefined;
  const { slope: b, se } = slope(
    settled.map((s) => s.t),
    ys,
  );
  return { slope: +b.toFixed(0), se: +se.toFixed(0), samples: settled.length };
};
const result = {
  bots: botCount,
  players: playerCount,
  interval_s: intervalMs / 1000,
  minutes: +(durationMs / 60_000).toFixed(2),
  model_ms: modelMs,
  follow_ups: followUps,
  lines: sent,
  answered: latencies.length,
  unanswered: pending.size,
  players_dropped: dropped.size,
  latency_s: { p50: percentile(50), p90: percentile(90), p99: percentile(99), max: percentile(100) },
  model_calls: calls,
  rss_mb: { first: +samples[0]!.rss.toFixed(0), last: +samples.at(-1)!.rss.toFixed(0) },
  rss_slope_mb_per_h: fit(settled.map((s) => s.rss)),
  heap_after_gc_mb: gc && { first: +samples[0]!.heap!.toFixed(0), last: +samples.at(-1)!.heap!.toFixed(0) },
  heap_slope_mb_per_h: gc && fit(settled.map((s) => s.heap!)),
};
console.log(JSON.stringify(result, null, 2));
for (const player of players) {
  player.removeAllListeners('end');
  player.quit();
}
await running.close();
await fake.close();
await rm(botsDir, { recursive: true, force: true });
process.exit(0);
