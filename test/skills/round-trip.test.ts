/**
 * The round trip to the server (src/skills/round-trip.ts): it waits for the answer to its own
 * ping, a server that never answers costs one bounded wait and is not asked again, and a cancel
 * ends the wait.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Bot } from 'mineflayer';
import minecraftData from 'minecraft-data';
import { ROUND_TRIP_MS, roundTrip } from '../../src/skills/round-trip.ts';

/** A bot whose client records the pings it writes; `answer` decides whether the server answers. */
function fakeBot(version: string, answer: boolean): { bot: Bot; pings: bigint[]; client: EventEmitter } {
  const client = new EventEmitter() as EventEmitter & { write(name: string, params: { id: bigint }): void };
  const pings: bigint[] = [];
  client.write = (name, params) => {
    if (name !== 'ping_request') return;
    pings.push(params.id);
    // Another id first (someone else's ping), then ours, as a server answers in order.
    if (answer)
      setImmediate(() => {
        client.emit('ping_response', { id: params.id + 1000n });
        client.emit('ping_response', { id: params.id });
      });
  };
  return { bot: { _client: client, registry: minecraftData(version) } as unknown as Bot, pings, client };
}

afterEach(() => vi.useRealTimers());

describe('roundTrip', () => {
  test("resolves on the server's answer to its own ping", async () => {
    const { bot, pings } = fakeBot('1.21.4', true);
    const t0 = performance.now();
    await roundTrip(bot, new AbortController().signal);
    expect(pings).toHaveLength(1);
    expect(performance.now() - t0).toBeLessThan(ROUND_TRIP_MS / 2);
  });

  test('a server that never answers costs one wait of ROUND_TRIP_MS, then is not asked again', async () => {
    vi.useFakeTimers();
    const { bot, pings } = fakeBot('1.21.1', false);
    let ended = false;
    const first = roundTrip(bot, new AbortController().signal).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(ROUND_TRIP_MS - 1);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await first;
    await roundTrip(bot, new AbortController().signal); // at once: fake time does not move
    expect(pings).toHaveLength(1);
  });

  test('a version without the packet (before 1.20.2) sends nothing and does not wait', async () => {
    const { bot, pings } = fakeBot('1.20.1', false);
    await roundTrip(bot, new AbortController().signal);
    expect(pings).toEqual([]);
  });

  test('a cancel ends the wait with the abort reason and leaves no listener', async () => {
    const { bot, client } = fakeBot('1.21.4', false);
    const controller = new AbortController();
    const waiting = roundTrip(bot, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(client.listenerCount('ping_response')).toBe(0);
  });
});
