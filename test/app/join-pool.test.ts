/** Bounded parallel joins (src/app/join-pool.ts): the bound, the order, and what a failure leaves behind. */
import { describe, expect, test } from 'vitest';
import { joinAll } from '../../src/app/join-pool.ts';
import { waitUntil } from '../helpers/wait.ts';

/** A join the test finishes by hand: `started` lists the items under way, `finish(i)` settles one. */
function controlledJoins() {
  const started: number[] = [];
  const settle = new Map<number, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  const join = (item: number) =>
    new Promise<string>((resolve, reject) => {
      started.push(item);
      settle.set(item, { resolve, reject });
    });
  return {
    join,
    started,
    running: () => [...settle.keys()],
    finish(item: number, error?: Error) {
      const s = settle.get(item)!;
      settle.delete(item);
      if (error) s.reject(error);
      else s.resolve(`bot${item}`);
    },
  };
}

describe('joinAll', () => {
  test('runs at most `concurrency` joins at once, starts the next as one ends, and returns the results in the items’ order', async () => {
    const joins = controlledJoins();
    const all = joinAll([0, 1, 2, 3, 4], joins.join, { concurrency: 2 });
    await waitUntil(() => joins.started.length === 2, 'two joins started');
    expect(joins.running()).toEqual([0, 1]);
    joins.finish(1);
    await waitUntil(() => joins.started.length === 3, 'a third join started');
    expect(joins.running()).toEqual([0, 2]);
    joins.finish(2);
    joins.finish(0);
    await waitUntil(() => joins.started.length === 5, 'every join started');
    joins.finish(4);
    joins.finish(3);
    await expect(all).resolves.toEqual(['bot0', 'bot1', 'bot2', 'bot3', 'bot4']);
  });

  test('after a failure no join starts; the ones under way finish, every success is discarded, and the first error is thrown', async () => {
    const joins = controlledJoins();
    const discarded: string[] = [];
    const all = joinAll([0, 1, 2, 3, 4], joins.join, { concurrency: 3, discard: (bot) => void discarded.push(bot) });
    await waitUntil(() => joins.started.length === 3, 'three joins started');
    joins.finish(0);
    await waitUntil(() => joins.started.length === 4, 'a fourth join started');
    joins.finish(1, new Error('Bot1 could not join: kicked'));
    joins.finish(2);
    joins.finish(3);
    await expect(all).rejects.toThrow('Bot1 could not join: kicked');
    expect(joins.started).toEqual([0, 1, 2, 3]);
    expect(discarded.sort()).toEqual(['bot0', 'bot2', 'bot3']);
  });

  test('an abort stops further joins and discards what joined', async () => {
    const joins = controlledJoins();
    const controller = new AbortController();
    const discarded: string[] = [];
    const all = joinAll([0, 1, 2], joins.join, { concurrency: 1, signal: controller.signal, discard: (bot) => void discarded.push(bot) });
    await waitUntil(() => joins.started.length === 1, 'one join started');
    controller.abort(new Error('stopped'));
    joins.finish(0);
    await expect(all).rejects.toThrow('stopped');
    expect(joins.started).toEqual([0]);
    expect(discarded).toEqual(['bot0']);
  });

  test('a concurrency that is not a whole number ≥ 1 is refused with what was given', async () => {
    await expect(joinAll([1], async () => 1, { concurrency: 0 })).rejects.toThrow('join concurrency must be a whole number ≥ 1, got 0');
  });
});
