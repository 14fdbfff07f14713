import { expect, test } from 'vitest';
import { ActionRunner } from '../../src/agent/action-runner.ts';
import { SerialQueue } from '../../src/agent/serial-queue.ts';
import { done, failure, SkillError } from '../../src/skills/outcome.ts';
import { sleep } from '../../src/util/abort.ts';
import { waitUntil } from '../helpers/wait.ts';

test('an action that finishes reports its output', async () => {
  let released = 0;
  const runner = new ActionRunner({ timeoutMs: 1000, release: () => released++ });
  const result = await runner.run('!demo', async () => 'made 3 planks');
  expect(result).toMatchObject({ ok: true, output: 'made 3 planks', interrupted: false, timedOut: false });
  expect(released).toBe(1);
  expect(runner.current).toBeUndefined();
});

test('stop() cancels a running action through its signal', async () => {
  const runner = new ActionRunner({ timeoutMs: 10_000 });
  let sawAbort = false;
  let started = false;
  const pending = runner.run('!wait', async (signal) => {
    started = true;
    try {
      await sleep(10_000, signal);
    } catch (e) {
      sawAbort = true;
      throw e;
    }
    return 'never';
  });
  await waitUntil(() => started, 'the action to start');
  expect(runner.current).toBe('!wait');
  const t = Date.now();
  await runner.stop('stopped by Steve');
  const result = await pending;
  expect(Date.now() - t).toBeLessThan(500);
  expect(sawAbort).toBe(true);
  expect(result).toMatchObject({ ok: false, interrupted: true, output: '!wait was stopped by Steve.' });
});

test('a new action interrupts the old one', async () => {
  const runner = new ActionRunner({ timeoutMs: 10_000 });
  let started = false;
  const first = runner.run('!first', (signal) => {
    started = true;
    return sleep(10_000, signal).then(() => 'x');
  });
  await waitUntil(() => started, 'the first action to start');
  const second = await runner.run('!second', async () => 'ok');
  expect((await first).output).toBe('!first was interrupted by !second.');
  expect(second.ok).toBe(true);
});

test('an action that ignores its signal still settles within the bound', async () => {
  const runner = new ActionRunner({ timeoutMs: 100 });
  const t = Date.now();
  const result = await runner.run('!stubborn', () => new Promise<string>(() => {}));
  expect(result.timedOut).toBe(true);
  expect(result.output).toMatch(/took longer than/);
  expect(Date.now() - t).toBeLessThan(1500);
});

test('errors are reported, not thrown', async () => {
  const runner = new ActionRunner({ timeoutMs: 1000 });
  const result = await runner.run('!bad', async () => {
    throw new Error('no crafting table nearby');
  });
  expect(result).toMatchObject({ ok: false, interrupted: false, output: '!bad failed: no crafting table nearby' });
});

test("every run ends in an outcome: the action's own, or the runner's code for a stop, a time bound or an error", async () => {
  const runner = new ActionRunner({ timeoutMs: 1000 });
  // A mode's text is an `ok` outcome; nothing at all is `<label> done.`
  expect((await runner.run('mode:x', async () => 'fled')).outcome).toEqual({ ok: true, code: 'ok', text: 'fled' });
  expect((await runner.run('!quiet', async () => undefined)).outcome).toEqual({ ok: true, code: 'ok', text: '!quiet done.' });
  // A command's outcome is kept as it is, failures included; `output` is its text.
  const collected = done('Collected 3 oak_log.', { gained: { oak_log: 3 } });
  expect(await runner.run('!collectBlocks', async () => collected)).toMatchObject({
    outcome: collected,
    output: 'Collected 3 oak_log.',
    ok: true,
    interrupted: false,
    timedOut: false,
  });
  const none = failure('not_found', 'No oak_log within 64 blocks.', { sought: { kind: 'block', name: 'oak_log', range: 64 } });
  expect(await runner.run('!collectBlocks', async () => none)).toMatchObject({
    outcome: none,
    output: none.text,
    ok: false,
    interrupted: false,
  });

  // Thrown: a SkillError keeps its code and data under the runner's words; anything else is `failed`.
  const refused = await runner.run('!placeBlockAt', async () => {
    throw new SkillError('refused_by_server', 'Server refused to place stone at (1, 2, 3): the block is still air', {
      position: { x: 1, y: 2, z: 3 },
    });
  });
  expect(refused.outcome).toEqual({
    ok: false,
    code: 'refused_by_server',
    text: '!placeBlockAt failed: Server refused to place stone at (1, 2, 3): the block is still air',
    data: { position: { x: 1, y: 2, z: 3 } },
  });
  expect((await runner.run('!bad', () => Promise.reject(new Error('boom')))).outcome).toEqual({
    ok: false,
    code: 'failed',
    text: '!bad failed: boom',
  });

  // Its time bound: `timeout`, whatever the action threw.
  const slow = await runner.run('!slow', (signal) => sleep(10_000, signal).then(() => 'never'), 50);
  expect(slow).toMatchObject({
    ok: false,
    timedOut: true,
    interrupted: false,
    outcome: { code: 'timeout', text: expect.stringMatching(/^!slow stopped: it took longer than/) },
  });
});

test('a stopped action is `interrupted`; what its SkillError knew when it stopped stays with the outcome', async () => {
  const runner = new ActionRunner({ timeoutMs: 10_000 });
  let started = false;
  const giving = runner.run('!givePlayer', async (signal) => {
    started = true;
    try {
      await sleep(10_000, signal);
    } catch {
      throw new SkillError('interrupted', 'stopped', {
        handOver: { to: 'Jill', item: 'stick', count: 2, received: 1, takenBy: {}, takenBack: 0, left: 0 },
      });
    }
    return done('never');
  });
  await waitUntil(() => started, 'the action to start');
  await runner.stop('interrupted by Jill');
  expect((await giving).outcome).toEqual({
    ok: false,
    code: 'interrupted',
    text: '!givePlayer was interrupted by Jill.',
    data: { handOver: { to: 'Jill', item: 'stick', count: 2, received: 1, takenBy: {}, takenBack: 0, left: 0 } },
  });
  expect((await giving).interrupted).toBe(true);
});

test('the serial queue runs jobs one at a time, in order, past failures', async () => {
  const q = new SerialQueue();
  const log: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const job = (name: string, ms: number, fail = false) =>
    q.push(async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await sleep(ms);
      log.push(name);
      running--;
      if (fail) throw new Error(name);
    });
  const all = [job('a', 30), job('b', 5, true).catch(() => {}), job('c', 1)];
  await Promise.all(all);
  expect(log).toEqual(['a', 'b', 'c']);
  expect(maxRunning).toBe(1);
});

test('drained() waits for queued jobs, including ones queued meanwhile', async () => {
  const q = new SerialQueue();
  const log: string[] = [];
  void q.push(async () => {
    await sleep(20);
    log.push('a');
    void q.push(async () => {
      log.push('b');
    });
  });
  await q.drained();
  expect(log).toEqual(['a', 'b']);
  expect(q.size).toBe(0);
  await q.drained(); // an empty queue resolves at once
});

test('a newer action waits for an urgent one instead of cancelling it; preempt and stop() still cancel', async () => {
  const runner = new ActionRunner({ timeoutMs: 10_000 });
  const events: string[] = [];
  runner.subscribe((e) => events.push(`${e.type} ${e.label}`));
  const urgent = runner.run('mode:self_defense', (signal) => sleep(150, signal).then(() => 'killed it'), { urgent: true });
  expect(runner.urgent).toBe(true);
  const next = runner.run('!collectBlocks', async () => 'collected');
  expect((await urgent).ok).toBe(true);
  expect((await next).output).toBe('collected');
  expect(events).toEqual(['start mode:self_defense', 'end mode:self_defense', 'start !collectBlocks', 'end !collectBlocks']);

  const fight = runner.run('mode:self_defense', (signal) => sleep(10_000, signal).then(() => 'x'), { urgent: true });
  const lava = runner.run('mode:self_preservation', async () => 'out of the lava', { urgent: true, preempt: true });
  expect(await fight).toMatchObject({ interrupted: true, output: 'mode:self_defense was interrupted by mode:self_preservation.' });
  expect((await lava).ok).toBe(true);

  const again = runner.run('mode:unstuck', (signal) => sleep(10_000, signal).then(() => 'x'), { urgent: true });
  await runner.stop('stopped by Steve');
  expect((await again).interrupted).toBe(true);
});

test('two actions started together never run at once: the later one wins', async () => {
  const runner = new ActionRunner({ timeoutMs: 10_000 });
  let running = 0;
  let most = 0;
  const act = (signal: AbortSignal) => {
    running++;
    most = Math.max(most, running);
    return sleep(200, signal)
      .then(() => 'done')
      .finally(() => running--);
  };
  void runner.run('!first', act);
  const a = runner.run('!a', act);
  const b = runner.run('!b', act);
  const [ra, rb] = await Promise.all([a, b]);
  expect(most).toBe(1);
  expect([ra.interrupted, rb.ok]).toEqual([true, true]);
});
