/**
 * Idle cost of modes: N oracle agents on the embedded server (all in this process), measured in
 * three phases of D seconds each:
 *   1. the default modes (event-driven, as shipped);
 *   2. every mode switched off (the floor for these agents);
 *   3. modes off plus a reference-style poll: every 300 ms per bot, one `findBlocks` over 16
 *      blocks (what MINDcraft's torch_placing / nearest-block checks cost it when idle).
 * Prints CPU in % of one core (process.cpuUsage, server included) and the mode counters.
 *
 * Usage: npx node bench/modes-idle.ts [bots=5] [seconds=20]
 */
import { startAgents } from '../src/app/start-bots.ts';
import { MODE_NAMES } from '../src/agent/modes/index.ts';
import { blockByName } from '../src/game/data.ts';
import { profileSchema, settingsSchema } from '../src/settings/index.ts';

const bots = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 20);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const running = await startAgents({
  settings: settingsSchema.parse({ world: 'superflat', chat_bot_messages: false }),
  profiles: Array.from({ length: bots }, (_, i) => profileSchema.parse({ name: `Bench${i}`, model: 'oracle' })),
  port: 0,
  log: () => {},
});
await sleep(3_000);

async function phase(name: string): Promise<void> {
  const stats = () =>
    running.agents.reduce(
      (s, a) => ({
        events: s.events + a.modes.stats.events,
        checks: s.checks + a.modes.stats.checks,
        fired: s.fired + a.modes.stats.fired,
      }),
      { events: 0, checks: 0, fired: 0 },
    );
  const s0 = stats();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  const s1 = stats();
  const cpu = ((c.user + c.system) / 1000 / wall) * 100;
  console.log(
    `${name.padEnd(34)} CPU ${cpu.toFixed(2).padStart(6)} % of a core | mode events ${s1.events - s0.events}, checks ${s1.checks - s0.checks}, fired ${s1.fired - s0.fired} (${bots} bots, ${seconds} s)`,
  );
}

await phase('default modes');
for (const a of running.agents) for (const m of MODE_NAMES) a.modes.set(m, false);
await phase('all modes off');
const timers = running.agents.map((a) =>
  setInterval(() => {
    a.bot.findBlocks({ matching: blockByName(a.bot.registry, 'torch').id, maxDistance: 16, count: 1 });
  }, 300),
);
await phase('modes off + 300 ms findBlocks poll');
for (const t of timers) clearInterval(t);
await running.close();
process.exit(0);
