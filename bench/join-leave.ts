/**
 * Join/leave cycles against the embedded server: what each join leaves behind. One raw
 * minecraft-protocol client at a time joins (login, spawn, chunks) and leaves; the server's heap
 * (v8.getHeapStatistics after two full collections), its timers and its listeners are read after
 * a warm-up and after every `--step` cycles. A server that keeps nothing of a player stays flat;
 * flying-squid 1.12 as shipped kept a 5 s timer per join, and about 256 KB of heap with it. Each
 * reading waits 5.5 s first: the latency timer of a player who just left stops when it first fires.
 * The server runs in this process (with --expose-gc, set here), the clients too.
 *
 *   npx node bench/join-leave.ts [--cycles 1000] [--step 250] [--warm-up 20]
 */
import { createRequire } from 'node:module';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseArgs } from 'node:util';
import type { EventEmitter } from 'node:events';
import { startEmbeddedServer } from '../src/server/embedded.ts';

const { values: args } = parseArgs({
  options: {
    cycles: { type: 'string', default: '1000' },
    step: { type: 'string', default: '250' },
    'warm-up': { type: 'string', default: '20' },
  },
});
const require = createRequire(import.meta.url);
const mc = require('minecraft-protocol') as {
  createClient(options: object): EventEmitter & { username: string; write(name: string, params: object): void; end(): void };
};
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const server = await startEmbeddedServer({ port: 0 });
const serv = server.serv as unknown as EventEmitter & {
  players: Array<{ username: string; once(e: 'disconnected', l: () => void): void }>;
};

/** One join (until the client's health packet, the end of a login) and leave (until the server let the player go). */
async function cycle(i: number): Promise<void> {
  const name = `Cycle${i % 10_000}`;
  const client = mc.createClient({
    host: server.host,
    port: server.port,
    username: name,
    version: server.version,
    auth: 'offline',
    validateChannelProtocol: false,
  });
  client.on('error', () => {});
  client.on('position', (p: { teleportId: number }) => client.write('teleport_confirm', { teleportId: p.teleportId }));
  await new Promise((resolve) => client.once('update_health', resolve));
  const player = serv.players.find((p) => p.username === name)!;
  const gone = new Promise<void>((resolve) => player.once('disconnected', resolve));
  client.end();
  await gone;
}

/** flying-squid's per-player latency timer fires (and is stopped) 5 s after its join: read after it. */
const LATENCY_TIMER_MS = 5_000;

/** The server's state after the last players' latency timers fired and two full collections. */
async function state(cycles: number) {
  await new Promise((resolve) => setTimeout(resolve, LATENCY_TIMER_MS + 500));
  gc();
  gc();
  return {
    cycles,
    heap_mb: +(getHeapStatistics().used_heap_size / 1e6).toFixed(1),
    timers: process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length,
    server_listeners: serv.eventNames().reduce((n, e) => n + serv.listenerCount(e), 0),
  };
}

const cycles = Number(args.cycles);
const step = Number(args.step);
for (let i = 0; i < Number(args['warm-up']); i++) await cycle(i);
const rows = [await state(0)];
let busy = 0;
for (let done = 0; done < cycles;) {
  const n = Math.min(step, cycles - done);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await cycle(done + i);
  busy += performance.now() - t0;
  done += n;
  rows.push(await state(done));
}
console.log(`Join/leave cycles, one raw client at a time (${(busy / cycles).toFixed(0)} ms a cycle)`);
console.table(rows);
const first = rows[0]!;
const last = rows.at(-1)!;
console.log(
  `heap: ${(((last.heap_mb - first.heap_mb) * 1000) / cycles).toFixed(1)} KB per join over ${cycles} cycles; timers ${first.timers} → ${last.timers}; server listeners ${first.server_listeners} → ${last.server_listeners}`,
);
await server.close();
process.exit(0);
