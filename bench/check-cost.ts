/**
 * Per-tick check cost: what the task runner's validator costs on every game tick (50 ms), on a
 * real bot's view of the world (the embedded server and one mineflayer bot in this process):
 * - inventory targets (crafting and cooking tasks): `techtreeValidator` over 3 agents'
 *   inventories read from the bot (`inventoryCounts`), 27 stacks each;
 * - a construction blueprint of 5,000 cells (10 levels of 20 × 25) around the bot:
 *   `constructionValidator` through `botBlockLookup`, which reads block states from the bot's
 *   loaded chunks.
 * Prints mean, p50 and p99 per check (µs) and the mean as a share of a 50 ms tick.
 *
 *   npx node bench/check-cost.ts [--iterations 300]
 */
import { parseArgs } from 'node:util';
import mineflayer from 'mineflayer';
import { botBlockLookup } from '../src/app/task-play.ts';
import { startEmbeddedServer } from '../src/server/embedded.ts';
import { inventoryCounts } from '../src/skills/items.ts';
import type { Blueprint, Task } from '../src/tasks/schema.ts';
import { constructionValidator, techtreeValidator, type TaskState } from '../src/tasks/validators.ts';

const { values: args } = parseArgs({ options: { iterations: { type: 'string', default: '300' } } });
const iterations = Number(args.iterations);

const server = await startEmbeddedServer({ port: 0 });
const bot = mineflayer.createBot({ host: server.host, port: server.port, username: 'Checker', version: server.version, auth: 'offline' });
await new Promise<void>((resolve, reject) => {
  bot.once('spawn', () => resolve());
  bot.once('error', reject);
});
await bot.waitForChunksToLoad();
const items = Object.keys(bot.registry.itemsByName)
  .filter((n) => n !== 'air')
  .slice(100, 127);
for (const name of items) bot.chat(`/give Checker ${name} 3`);
const deadline = Date.now() + 10_000;
while (bot.inventory.items().length < items.length && Date.now() < deadline) await bot.waitForTicks(1);

/** Times `fn` `n` times; microseconds per call. */
function time(n: number, fn: () => unknown): { mean: number; p50: number; p99: number } {
  for (let i = 0; i < Math.min(20, n); i++) fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    samples.push((performance.now() - t0) * 1000);
  }
  samples.sort((a, b) => a - b);
  return {
    mean: samples.reduce((a, b) => a + b, 0) / n,
    p50: samples[Math.floor(n / 2)]!,
    p99: samples[Math.min(n - 1, Math.floor(n * 0.99))]!,
  };
}

const feet = bot.entity.position.floored();
const crafting = { type: 'techtree', target: 'compass', number_of_target: 1, agent_count: 3 } as unknown as Task;
const levels = Array.from({ length: 10 }, (_, level) => ({
  level,
  coordinates: [feet.x - 12, feet.y + level, feet.z - 10] as [number, number, number],
  placement: Array.from({ length: 20 }, (_, r) => Array.from({ length: 25 }, (_, c) => ((r + c + level) % 3 === 0 ? 'stone' : 'air'))),
}));
const blueprint = { materials: { stone: 1700 }, levels } as unknown as Blueprint;
const cells = levels.reduce((n, l) => n + l.placement.length * l.placement[0]!.length, 0);
const construction = { type: 'construction', agent_count: 1, blueprint } as unknown as Task;
const state: TaskState = {
  inventories: () => [inventoryCounts(bot), inventoryCounts(bot), inventoryCounts(bot)],
  lookup: botBlockLookup(bot),
};

const inventory = time(iterations * 10, () => techtreeValidator(crafting)(state));
const validateBlueprint = constructionValidator(construction);
const building = time(iterations, () => validateBlueprint(state));
const row = (check: string, t: { mean: number; p50: number; p99: number }) => ({
  check,
  mean_us: +t.mean.toFixed(1),
  p50_us: +t.p50.toFixed(1),
  p99_us: +t.p99.toFixed(1),
  share_of_tick: `${((100 * t.mean) / 50_000).toFixed(2)} %`,
});
console.log(
  `Per-tick check cost on a real bot's view (${bot.inventory.items().length} stacks per inventory, a blueprint of ${cells} cells)`,
);
console.table([row('inventory targets (3 agents)', inventory), row(`blueprint (${cells} cells)`, building)]);
bot.quit();
await server.close();
process.exit(0);
