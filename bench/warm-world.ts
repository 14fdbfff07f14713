/**
 * Warm worlds against fresh ones: the three two-agent crafting tasks of
 * test/fixtures/minecollab/crafting_2_agents.json played by the offline oracle, N rounds each,
 * once on a fresh embedded server per run and once on one warm world (src/app/warm-world.ts)
 * reset between runs. Prints, per mode: the runs' mean wall time (runTask from call to return,
 * the world's start-up and its reset or close included), the world's start-up per run (fresh:
 * server start and bots joining; warm: the check that the reset holds, when the run opens the
 * world), the reset (warm) or close (fresh) after each run, and start-up + reset as a share of
 * the mean wall time (issue 14's goal: under 10 % with warm worlds).
 *
 *   npx node bench/warm-world.ts [--rounds 2]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { tmpdir } from 'node:os';
import { loadTaskProfiles, runTask, type TaskWorld } from '../src/app/run-task.ts';
import { startAgents, type RunningBots } from '../src/app/start-bots.ts';
import { WarmWorld } from '../src/app/warm-world.ts';
import { settingsSchema } from '../src/settings/index.ts';
import { loadTaskFile } from '../src/tasks/loader.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });
const rounds = Number(args.rounds);
const tasks = [...(await loadTaskFile(path.resolve('test/fixtures/minecollab/crafting_2_agents.json'))).values()];
const settings = settingsSchema.parse({ chat_bot_messages: false, server: 'embedded' });
const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), 2);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Fresh worlds, timed the same way as the warm one: start-up in `open`, teardown in `release`. */
class FreshWorlds implements TaskWorld {
  readonly stats = { openMs: [] as number[], resetMs: [] as number[] };
  async open(request: Parameters<TaskWorld['open']>[0]): Promise<RunningBots> {
    const t0 = performance.now();
    const running = await startAgents({
      settings,
      profiles: request.profiles,
      model: request.model,
      env: request.env,
      botsDir: request.botsDir,
      port: 0,
      fallback: false,
      events: request.events,
      log: request.log,
    });
    this.stats.openMs.push(performance.now() - t0);
    return running;
  }
  async release(running: RunningBots): Promise<void> {
    const t0 = performance.now();
    await running.close();
    this.stats.resetMs.push(performance.now() - t0);
  }
}

const rows = [];
for (const mode of ['fresh', 'warm'] as const) {
  const world = mode === 'warm' ? new WarmWorld({ settings }) : new FreshWorlds();
  const walls: number[] = [];
  let successes = 0;
  for (let round = 0; round < rounds; round++) {
    for (const task of tasks) {
      const t0 = performance.now();
      const result = await runTask({
        task,
        settings,
        profiles,
        model: 'oracle',
        log: () => {},
        world,
        botsDir: path.join(tmpdir(), 'bench-warm-world-bots'),
      });
      walls.push(performance.now() - t0);
      if (result.success) successes++;
    }
  }
  if (world instanceof WarmWorld) await world.close();
  const startup = mean(world.stats.openMs);
  const reset = mean(world.stats.resetMs);
  const wall = mean(walls);
  rows.push({
    mode,
    runs: walls.length,
    successes,
    mean_wall_ms: Math.round(wall),
    startup_ms: Math.round(startup),
    reset_or_close_ms: Math.round(reset),
    'startup+reset_share': `${((100 * (startup + reset)) / wall).toFixed(1)} %`,
    ...(world instanceof WarmWorld
      ? { fresh_worlds: world.stats.fresh, warm_runs: world.stats.warm, failed_resets: world.stats.failedResets }
      : {}),
  });
}
console.log(`Warm vs fresh worlds: ${tasks.length} oracle crafting tasks × ${rounds} rounds`);
console.table(rows);
process.exit(0);
