/**
 * The survival world's generation speed and cost:
 * 1. columns per second: the generator alone (seed → prismarine-chunk column with light and
 *    biomes) over a 17×17-chunk area around the spawn, wall time and CPU time;
 * 2. a loaded world's memory: an embedded survival server with that 17×17 area loaded (RSS and
 *    heap, and the growth over the server with only its start-up area);
 * 3. a bot moving 500 blocks in a straight line (creative flight, about twice walking speed: a
 *    harder case than walking): the server's worst tick (longest gap between two ticks, 50 ms
 *    being on time), the most generation done within one tick, and how many of the columns the
 *    bot came to were generated ahead of it.
 *
 *   npx node bench/worldgen.ts [--seed 1] [--distance 500]
 */
import { parseArgs } from 'node:util';
import mineflayer from 'mineflayer';
import { Vec3 } from 'vec3';
import { startEmbeddedServer } from '../src/server/embedded.ts';
import { SurvivalWorld } from '../src/server/worldgen/world.ts';

const { values: args } = parseArgs({ options: { seed: { type: 'string', default: '1' }, distance: { type: 'string', default: '500' } } });
const seed = Number(args.seed);
const distance = Number(args.distance);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const RADIUS = 8; // 17 × 17 chunks

// 1. The generator alone.
{
  const server = await startEmbeddedServer({ port: 0, world: 'superflat' });
  const registry = server.serv.registry;
  await server.close();
  const world = new SurvivalWorld(seed);
  const cx = world.spawn.x >> 4;
  const cz = world.spawn.z >> 4;
  world.column(registry, cx + 100, cz + 100); // JIT warm-up, away from the measured area
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let columns = 0;
  for (let dx = -RADIUS; dx <= RADIUS; dx++) {
    for (let dz = -RADIUS; dz <= RADIUS; dz++) {
      world.column(registry, cx + dx, cz + dz);
      columns++;
    }
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(
    `| generator alone, ${columns} columns (17 × 17 around the spawn), seed ${seed} | ${((columns / wall) * 1000).toFixed(0)} columns/s wall (${(wall / columns).toFixed(2)} ms each), ${((columns / cpuMs) * 1000).toFixed(0)} columns/s of CPU |`,
  );
}

// 2. A loaded world's memory.
const server = await startEmbeddedServer({ port: 0, world: 'survival', seed });
const world = server.survival!;
global.gc?.();
const started = process.memoryUsage();
{
  const cx = world.spawn.x >> 4;
  const cz = world.spawn.z >> 4;
  const t0 = performance.now();
  for (let dx = -RADIUS; dx <= RADIUS; dx++)
    for (let dz = -RADIUS; dz <= RADIUS; dz++) await server.serv.overworld.getColumn(cx + dx, cz + dz);
  const wall = performance.now() - t0;
  global.gc?.();
  const loaded = process.memoryUsage();
  const entities = Object.keys(server.serv.entities).length;
  console.log(
    `| server with the 17 × 17 area loaded (${entities} animals) | RSS ${mb(loaded.rss)}, heap ${mb(loaded.heapUsed)}; over the start-up area (9 × 9): +${mb(loaded.rss - started.rss)} RSS, +${mb(loaded.heapUsed - started.heapUsed)} heap; loading took ${(wall / 1000).toFixed(1)} s |`,
  );
}

// 3. A bot crossing 500 blocks.
{
  // Each column's generation: when it started, its wall time and its CPU time (the wall time
  // includes whatever else the machine ran meanwhile; the CPU time does not).
  const generated: Array<{ at: number; ms: number; cpuMs: number }> = [];
  const column = world.column.bind(world);
  world.column = (registry, x, z) => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const result = column(registry, x, z);
    const cpu = process.cpuUsage(cpu0);
    generated.push({ at: t0, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 });
    return result;
  };
  const bot = mineflayer.createBot({ host: server.host, port: server.port, username: 'Walker', version: server.version, auth: 'offline' });
  await new Promise<void>((resolve) => bot.once('spawn', () => resolve()));
  await bot.waitForChunksToLoad();
  bot.chat('/gamemode creative');
  const deadline = Date.now() + 10_000;
  while (bot.game.gameMode !== 'creative') {
    if (Date.now() > deadline) throw new Error('the bot did not become creative');
    await bot.waitForTicks(1);
  }
  const ticks: number[] = [];
  const onTick = () => ticks.push(performance.now());
  server.serv.on('tick', onTick);
  const metChunks = new Set<string>();
  let prefetched = 0;
  const overworld = server.serv.overworld as unknown as { getLoadedColumn(x: number, z: number): unknown };
  const start = bot.entity.position.clone();
  const y = Math.max(start.y + 40, 140);
  bot.creative.startFlying();
  await bot.creative.flyTo(new Vec3(start.x, y, start.z));
  generated.length = 0;
  ticks.length = 0;
  const t0 = performance.now();
  for (let travelled = 0; travelled < distance; travelled += 8) {
    await bot.creative.flyTo(new Vec3(start.x + travelled + 8, y, start.z));
    // The columns at the view distance's edge ahead of the bot when it gets here.
    const ahead = (Math.floor(bot.entity.position.x) >> 4) + 4;
    for (let dz = -4; dz <= 4; dz++) {
      const key = `${ahead},${(Math.floor(start.z) >> 4) + dz}`;
      if (metChunks.has(key)) continue;
      metChunks.add(key);
      if (overworld.getLoadedColumn(ahead, (Math.floor(start.z) >> 4) + dz)) prefetched++;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  server.serv.off('tick', onTick);
  let worstGap = 0;
  for (let i = 1; i < ticks.length; i++) worstGap = Math.max(worstGap, ticks[i]! - ticks[i - 1]!);
  let worstTickGen = 0;
  let worstTickCpu = 0;
  for (let i = 1; i < ticks.length; i++) {
    const inTick = generated.filter((g) => g.at >= ticks[i - 1]! && g.at < ticks[i]!);
    worstTickGen = Math.max(
      worstTickGen,
      inTick.reduce((sum, g) => sum + g.ms, 0),
    );
    worstTickCpu = Math.max(
      worstTickCpu,
      inTick.reduce((sum, g) => sum + g.cpuMs, 0),
    );
  }
  const mean = generated.reduce((s, g) => s + g.ms, 0) / Math.max(1, generated.length);
  const meanCpu = generated.reduce((s, g) => s + g.cpuMs, 0) / Math.max(1, generated.length);
  console.log(
    `| a bot crossing ${distance} blocks (flying, ${(distance / seconds).toFixed(1)} blocks/s; ${generated.length} columns generated on the way, ${mean.toFixed(1)} ms each, ${meanCpu.toFixed(1)} ms of CPU) | worst tick gap ${worstGap.toFixed(0)} ms (50 = on time); the most generation between two ticks ${worstTickGen.toFixed(1)} ms (${worstTickCpu.toFixed(1)} ms of CPU); ${prefetched} of ${metChunks.size} columns at the view's edge were ready before the bot came to them |`,
  );
  bot.quit();
}
await server.close();
process.exit(0);
