/**
 * The time bounds of the container skills: mineflayer waits for a server's window, and for a
 * slot's update after a click, without end, and the pathfinder can replan without end, so a server
 * that ignores the bot or a walk that never arrives must end the command with a clear error; a
 * window that opens late must not stay open.
 */
import { EventEmitter } from 'node:events';
import { expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Window } from 'prismarine-windows';
import { Vec3 } from 'vec3';
import type { Block } from 'prismarine-block';
import { OPEN_TIMEOUT_MS, walkToBlock, withWindow } from '../../src/skills/containers.ts';

/** The part of a bot withWindow touches: which windows it closed. */
function fakeBot() {
  const closed: unknown[] = [];
  const bot = Object.assign(new EventEmitter(), {
    currentWindow: null,
    closeWindow: (w: unknown) => {
      closed.push(w);
    },
  });
  return { bot: bot as unknown as Bot, closed };
}

test('a window the server never opens ends the use with a clear error after the bound; one that opens late is closed', async () => {
  const { bot, closed } = fakeBot();
  let openLate!: (w: Window) => void;
  const open = new Promise<Window>((resolve) => {
    openLate = resolve;
  });
  const t0 = Date.now();
  let used = false;
  await expect(
    withWindow(bot, open, new AbortController().signal, async () => {
      used = true;
    }),
  ).rejects.toThrow(`The window did not open within ${OPEN_TIMEOUT_MS / 1000} s`);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(OPEN_TIMEOUT_MS - 50);
  expect(used).toBe(false);
  const late = { id: 3 } as unknown as Window;
  openLate(late);
  await open;
  await Promise.resolve();
  expect(closed).toEqual([late]);
}, 15_000);

test('a window that opens is used and closed; a cancel while waiting for it is an AbortError, not the bound', async () => {
  const { bot, closed } = fakeBot();
  const window = { id: 1 } as unknown as Window;
  (bot as unknown as { currentWindow: unknown }).currentWindow = window;
  expect(await withWindow(bot, Promise.resolve(window), new AbortController().signal, async (w) => w.id)).toBe(1);
  expect(closed).toEqual([window]);

  const stop = new AbortController();
  const pending = withWindow(bot, new Promise<Window>(() => {}), stop.signal, async () => 0);
  stop.abort('stopped by the player');
  await expect(pending).rejects.toMatchObject({ name: 'AbortError', message: 'stopped by the player' });
});

test('work in the window that stops getting answers ends after its bound, with the window closed and the work told to stop', async () => {
  const { bot, closed } = fakeBot();
  const window = { id: 2 } as unknown as Window;
  (bot as unknown as { currentWindow: unknown }).currentWindow = window;
  let told: AbortSignal | undefined;
  await expect(
    withWindow(
      bot,
      Promise.resolve(window),
      new AbortController().signal,
      (_w, signal) => {
        told = signal;
        return new Promise<void>(() => {}); // a click whose slot update never comes
      },
      1_000,
    ),
  ).rejects.toThrow('The window stopped answering: the work in it was not done within 1 s. Try again.');
  expect(told?.aborted).toBe(true);
  expect(closed).toEqual([window]);
});

test('a walk to a container that never arrives ends after its bound with the block named, and the pathfinder is stopped', async () => {
  let stopped = 0;
  const goals: unknown[] = [];
  const bot = {
    entity: { position: new Vec3(0, 0, 0), height: 1.8 },
    pathfinder: {
      goto: () => new Promise(() => {}),
      stop: () => {
        stopped++;
      },
      setGoal: (goal: unknown) => {
        goals.push(goal);
      },
    },
  } as unknown as Bot;
  const smoker = { name: 'smoker', position: new Vec3(20, 0, 5) } as unknown as Block;
  await expect(walkToBlock(bot, smoker, new AbortController().signal, 1_000)).rejects.toThrow(
    'Could not walk to the smoker at (20, 0, 5) within 1 s.',
  );
  // Stopped at once, with no stop left pending for the next walk (haltPathfinder).
  expect(stopped).toBe(1);
  expect(goals).toEqual([null]);
});
