/**
 * `boundedWalk` (src/skills/movement.ts), under every walk whose end the pathfinder may never
 * reach (a hand-over's, a villager's, a container's): past its bound it fails `unreachable` naming
 * the target; the caller's own abort stays an abort; a walk's own `unreachable` carries the data.
 */
import { expect, test } from 'vitest';
import { boundedWalk } from '../../src/skills/movement.ts';
import { SkillError } from '../../src/skills/outcome.ts';
import { isAbortError } from '../../src/util/abort.ts';

/** A walk that ends only when its signal aborts (the pathfinder replanning without end). */
const endless = (bound: AbortSignal) =>
  new Promise<never>((_, reject) => bound.addEventListener('abort', () => reject(bound.reason), { once: true }));

test('a walk that never arrives fails unreachable at its bound, naming the target, with the data given', async () => {
  const started = Date.now();
  const err = await boundedWalk(new AbortController().signal, 100, 'Jill', endless, { position: { x: 1, y: 2, z: 3 } }).catch(
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SkillError);
  expect(err).toMatchObject({
    code: 'unreachable',
    message: 'Could not walk to Jill within 0 s.',
    data: { position: { x: 1, y: 2, z: 3 } },
  });
  expect(Date.now() - started).toBeGreaterThanOrEqual(95);
});

test("the caller's abort stays an abort; a walk's own unreachable keeps its message and gets the data", async () => {
  const caller = new AbortController();
  const walking = boundedWalk(caller.signal, 60_000, 'Jill', endless).catch((e: unknown) => e);
  caller.abort();
  expect(isAbortError(await walking)).toBe(true);
  const noPath = await boundedWalk(
    new AbortController().signal,
    60_000,
    'Jill',
    () => Promise.reject(new SkillError('unreachable', 'No path to Jill.')),
    {
      position: { x: 0, y: 0, z: 0 },
    },
  ).catch((e: unknown) => e);
  expect(noPath).toMatchObject({ code: 'unreachable', message: 'No path to Jill.', data: { position: { x: 0, y: 0, z: 0 } } });
  expect(await boundedWalk(new AbortController().signal, 60_000, 'Jill', async () => 'there')).toBe('there');
});
