/**
 * The server's tick loop on a fixed schedule, as vanilla's: ticks due at `start + n × 50 ms`, a late
 * tick followed at once by the next one until the server has caught up.
 *
 * flying-squid 1.12 ticks from a `setInterval(50)`; Node schedules each next run from when the
 * last one ran, so every late tick pushes all later ones back and nothing catches up: a busy
 * process loses ticks for good (400 bots on 2 cores: 19.2 TPS on a server using 15 % of a core).
 * Vanilla's `MinecraftServer.runServer` instead advances `nextTickTime` by 50 ms per tick and only
 * waits while it is ahead, so the day cycle, crops, furnaces and scheduled block ticks keep game
 * time with the wall clock while the server keeps up. Past 2,000 ms behind it warns "Can't keep
 * up! Is the server overloaded?" and skips the missed ticks (at most one warning per 15 s), as
 * vanilla does.
 *
 * Each tick is emitted as flying-squid's `tick` event, `(delta, tickCount)`, with `delta` the
 * tick's length in seconds (0.05 at 20 TPS): vanilla's ticks are fixed steps. Ticks run one per
 * turn of the event loop (a `setTimeout` of what is left until the next one; a `setImmediate`,
 * after the loop has read the sockets, when late), so packets are read between them, as vanilla
 * runs its queued tasks between ticks. While catching up the server runs more than 20 ticks a
 * second.
 *
 * `serv.setTickInterval(tps)` and `serv.stopTickInterval()` keep flying-squid's meaning.
 */
import type { SquidServer } from '../types.ts';

/** How far behind (ms) the loop may fall before it skips the missed ticks (vanilla `MinecraftServer`: 2,000 ms). */
export const OVERLOAD_SKIP_MS = 2_000;
/** The least time (ms) between two "Can't keep up!" warnings (vanilla: 15,000 ms). */
const OVERLOAD_WARNING_MS = 15_000;

/** Replaces flying-squid's interval with the fixed-schedule loop, at 20 ticks per second. */
export function installTickLoop(serv: SquidServer): void {
  serv.stopTickInterval?.();
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  serv.stopTickInterval = () => {
    clearTimeout(timer);
    clearImmediate(immediate);
    timer = immediate = undefined;
  };
  serv.setTickInterval = (ticksPerSecond: number) => {
    serv.stopTickInterval?.();
    const period = 1000 / ticksPerSecond;
    let next = performance.now() + period;
    let lastWarning = -Infinity;
    const run = () => {
      const behind = performance.now() - next;
      if (behind > OVERLOAD_SKIP_MS) {
        const skipped = Math.floor(behind / period);
        if (next - lastWarning >= OVERLOAD_WARNING_MS) {
          serv.warn(`Can't keep up! Is the server overloaded? Running ${Math.round(behind)}ms or ${skipped} ticks behind`);
          lastWarning = next;
        }
        next += skipped * period;
      }
      next += period;
      serv.tickCount++;
      serv.lastTickTime = Date.now();
      serv.emit('tick', period / 1000, serv.tickCount);
      const wait = next - performance.now();
      if (wait > 0) timer = setTimeout(run, wait);
      else immediate = setImmediate(run);
    };
    timer = setTimeout(run, period);
  };
  serv.setTickInterval(20);
}
