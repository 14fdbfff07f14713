/**
 * Idle cost of N bots in one process, to compare with notes/performance-anchors.md: starts the
 * embedded server and N oracle bots, lets them idle, and prints spawn time, RSS and CPU.
 *
 *   npx node bench/idle-bots.ts [bots=5] [idle_s=30]
 *
 * Figures include the embedded server, which runs in the same process.
 */
import { startAgents } from '../src/app/start-bots.ts';
import { profileSchema, settingsSchema } from '../src/settings/index.ts';

const bots = Number(process.argv[2] ?? 5);
const idleSeconds = Number(process.argv[3] ?? 30);
const names = Array.from({ length: bots }, (_, i) => `Bench${i}`);

const t0 = performance.now();
const running = await startAgents({
  settings: settingsSchema.parse({ chat_bot_messages: false, bot_transport: 'in-process' }),
  profiles: names.map((name) => profileSchema.parse({ name, model: 'oracle' })),
  port: 0,
  log: () => {},
});
const spawnedS = (performance.now() - t0) / 1000;
await new Promise((r) => setTimeout(r, 2_000)); // let joins settle before measuring
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
await new Promise((r) => setTimeout(r, idleSeconds * 1000));
const cpu = process.cpuUsage(cpu0);
const cpuPct = ((cpu.user + cpu.system) / 1000 / (performance.now() - wall0)) * 100;
const rssMb = process.memoryUsage().rss / 1e6;
console.log(JSON.stringify({ bots, idle_s: idleSeconds, all_spawned_s: +spawnedS.toFixed(2), rss_mb: Math.round(rssMb), cpu_pct_of_one_core: +cpuPct.toFixed(1), node: process.version }));
await running.close();
process.exit(0);
