/**
 * The tick clock (src/server/features/tick-loop.ts): ticks on a fixed schedule as vanilla's, so a
 * busy process catches up on the ticks it fell behind by, and a stall past 2 s is skipped with
 * vanilla's warning instead of being run in a burst.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { OVERLOAD_SKIP_MS } from '../../src/server/features/tick-loop.ts';
import { startTestServer, waitUntil } from '../helpers/world.ts';

let server: EmbeddedServer;
const warnings: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ logger: (level, message) => void (level === 'warn' && warnings.push(message)) });
});
afterAll(async () => {
  await server?.close();
});

/** Keeps this process (and the server in it) busy for `ms`. */
function stall(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('the tick clock', () => {
  test('ticks lost to a busy process are caught up: the tick count keeps pace with the wall clock', async () => {
    const serv = server.serv;
    const deltas: number[] = [];
    const onTick = (delta: number) => void deltas.push(delta);
    serv.on('tick', onTick);
    const t0 = performance.now();
    const c0 = serv.tickCount;
    // Five stalls of 150 ms, each three ticks long: a clock that does not catch up loses about 14 ticks.
    for (let i = 0; i < 5; i++) {
      stall(150);
      await new Promise((resolve) => serv.once('tick', resolve));
    }
    await waitUntil(
      () => serv.tickCount - c0 >= Math.floor((performance.now() - t0) / 50) - 1,
      'the tick count caught up with the wall clock',
      { timeoutMs: 2_000, state: () => ({ ticks: serv.tickCount - c0, due: Math.floor((performance.now() - t0) / 50) }) },
    );
    serv.off('tick', onTick);
    // Every tick is a fixed step of 50 ms of game time, also those run late.
    expect(new Set(deltas)).toEqual(new Set([0.05]));
  });

  test("a stall past 2 s is skipped with vanilla's warning, not run as a burst of ticks", async () => {
    const serv = server.serv;
    warnings.length = 0;
    const times: number[] = [];
    const onTick = () => void times.push(performance.now());
    serv.on('tick', onTick);
    stall(OVERLOAD_SKIP_MS + 600);
    const end = performance.now();
    expect(times).toEqual([]); // nothing ticks while the process is busy
    await waitUntil(() => performance.now() > end + 150 && times.length > 0, 'the ticks after the stall');
    serv.off('tick', onTick);
    // In the 40 ms after the stall: the next tick or two, not the 52 that fell due (a burst runs them a millisecond apart).
    expect(times.filter((t) => t < end + 40).length).toBeLessThanOrEqual(2);
    expect(warnings).toEqual([expect.stringMatching(/^Can't keep up! Is the server overloaded\? Running \d+ms or \d+ ticks behind$/)]);
  });
});
