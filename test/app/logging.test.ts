/**
 * The one event stream and what it feeds: the typed bus, the readable line of each event, the
 * terminal (pino-pretty) and each bot's JSON lines in `<botsDir>/<name>/log.<n>.jsonl`, rotated
 * by size; and the run records' taps publishing into the bus.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { BotEventBus, botEventSchema, describeEvent, type BotEvent } from '../../src/agent/events.ts';
import { botEventOf, busSink } from '../../src/app/bot-events.ts';
import { createLogging } from '../../src/app/logging.ts';
import type { RunEvent } from '../../src/tasks/eval/records.ts';
import { waitUntil } from '../helpers/wait.ts';

function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'logging-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test('the bus stamps events, hands them to every listener in order, and survives a listener that throws', () => {
  const bus = new BotEventBus();
  const seen: string[] = [];
  bus.subscribe(() => {
    throw new Error('broken listener');
  });
  const off = bus.subscribe((e) => {
    seen.push(`${e.bot}:${e.type}`);
  });
  const event = bus.publisher('Andy')({ type: 'mode', mode: 'hunting', on: false });
  expect(event).toBeUndefined();
  bus.logger('Jill')('hello');
  off();
  bus.publish({ type: 'log', bot: 'Andy', level: 'info', text: 'not seen' });
  expect(seen).toEqual(['Andy:mode', 'Jill:log']);
  const stamped = bus.publish({ type: 'log', bot: '', level: 'info', text: 'x' });
  expect(stamped.t).toBeGreaterThan(0);
  expect(botEventSchema.parse(stamped)).toEqual(stamped);
});

test('each event has one readable line', () => {
  const t = 0;
  const lines = (
    [
      { t, bot: 'Andy', type: 'chat', direction: 'in', channel: 'whisper', peer: 'Steve', text: 'hi' },
      { t, bot: 'Andy', type: 'chat', direction: 'out', channel: 'public', peer: '*', text: 'Hello!' },
      {
        t,
        bot: 'Andy',
        type: 'model',
        model: 'openai/gpt-4o',
        purpose: 'conversing',
        ms: 1500,
        reply: 'On it. !stats',
        usage: { input: 1200, cachedInput: 0, cacheWriteInput: 0, output: 8 },
      },
      { t, bot: 'Andy', type: 'model', model: 'openai/gpt-4o', purpose: 'respond', ms: 20, error: 'rate limited' },
      { t, bot: 'Andy', type: 'command', command: '!stats', kind: 'query', ok: true, output: 'Health 20', ms: 3 },
      { t, bot: 'Andy', type: 'action', phase: 'start', label: 'mode:self_defense' },
      { t, bot: 'Andy', type: 'mode', mode: 'hunting', on: false },
      { t, bot: 'Andy', type: 'connection', state: 'reconnecting', detail: 'was kicked: spam' },
      { t, bot: 'Andy', type: 'log', level: 'info', text: '[Andy] runs !stats' },
    ] satisfies BotEvent[]
  ).map(describeEvent);
  expect(lines).toEqual([
    'Steve (whisper): hi',
    'says in chat: Hello!',
    'openai/gpt-4o (conversing, 1.5 s, 1200+8 tokens): On it. !stats',
    'openai/gpt-4o (respond, 20 ms) failed: rate limited',
    '!stats → Health 20 (3 ms)',
    'starts mode:self_defense',
    'mode hunting switched off',
    'connection reconnecting: was kicked: spam',
    'runs !stats',
  ]);
});

test("the run records' taps publish into the bus and still reach the run's sink", () => {
  const bus = new BotEventBus();
  const published: BotEvent[] = [];
  bus.subscribe((e) => {
    published.push(e);
  });
  const forwarded: RunEvent[] = [];
  const sink = busSink(bus, {
    emit: (e) => {
      forwarded.push(e);
    },
  });
  sink.emit({
    type: 'request',
    t: 1000,
    agent: 'Andy',
    model: 'oracle',
    purpose: 'conversing',
    system: 'S',
    turns: [{ role: 'user', content: 'hi' }],
    reply: '!stats',
    usage: { input: 5, cached: 1, cacheWrite: 0, output: 2 },
    ms: 40,
  });
  sink.emit({ type: 'message', t: 2000, agent: 'Andy', direction: 'received', peer: 'Jill', channel: 'bot', text: 'hello' });
  sink.emit({ type: 'phase', t: 3000, phase: 'play' });
  expect(forwarded.map((e) => e.type)).toEqual(['request', 'message', 'phase']);
  expect(published).toEqual([
    {
      type: 'model',
      t: 1040,
      bot: 'Andy',
      model: 'oracle',
      purpose: 'conversing',
      ms: 40,
      reply: '!stats',
      usage: { input: 5, cachedInput: 1, cacheWriteInput: 0, output: 2 },
      request: { system: 'S', turns: [{ role: 'user', content: 'hi' }] },
    },
    { type: 'chat', t: 2000, bot: 'Andy', direction: 'in', channel: 'bot', peer: 'Jill', text: 'hello' },
  ]);
  expect(botEventOf({ type: 'phase', t: 0, phase: 'end' })).toBeUndefined();
});

test('the terminal gets readable lines; each bot its own JSON lines, rotated by size', async () => {
  const dir = tempDir();
  const terminalFile = path.join(dir, 'terminal.txt');
  const fd = openSync(terminalFile, 'w');
  const logging = createLogging({ botsDir: dir, terminal: fd, colorize: false, fileSize: '2k', keepFiles: 2 });
  const bus = new BotEventBus();
  logging.attach(bus);
  logging.line('Dashboard: http://127.0.0.1:8080/');
  // Four bursts, each past the size: after each one the file rolls over to the next number.
  const newest = () => Math.max(0, ...readdirSyncSafe(path.join(dir, 'Andy')).map((f) => Number(/^log\.(\d+)\.jsonl$/.exec(f)?.[1] ?? 0)));
  for (let burst = 0; burst < 4; burst++) {
    for (let i = 0; i < 30; i++)
      bus.publish({
        type: 'command',
        bot: 'Andy',
        command: `!stats`,
        kind: 'query',
        ok: true,
        output: `Health 20, line ${burst * 30 + i}`,
        ms: 2,
      });
    await waitUntil(() => newest() === burst + 2, `Andy's log rolls over to log.${burst + 2}.jsonl`);
  }
  bus.publish({
    type: 'model',
    bot: 'Jill',
    model: 'oracle',
    purpose: 'conversing',
    ms: 3,
    reply: 'ok',
    request: { system: 'a long system prompt', turns: [{ role: 'user', content: 'hi' }] },
  });
  bus.publish({ type: 'action', bot: 'Jill', phase: 'end', label: '!collectBlocks', ok: true, ms: 5 });
  await logging.close();
  closeSync(fd);

  const terminal = readFileSync(terminalFile, 'utf8');
  expect(terminal).toMatch(/INFO: Dashboard: http:\/\/127\.0\.0\.1:8080\//);
  expect(terminal).toMatch(/INFO: \[Andy\] !stats → Health 20, line 119 \(2 ms\)/);
  expect(terminal).toMatch(/INFO: \[Jill\] oracle \(conversing, 3 ms\): ok/);
  expect(terminal).not.toMatch(/collectBlocks/); // action events are debug: files only
  expect(terminal).not.toMatch(/\{/); // no JSON on the terminal

  const andyFiles = readdirSync(path.join(dir, 'Andy'))
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
  expect(andyFiles).toEqual(['log.3.jsonl', 'log.4.jsonl', 'log.5.jsonl']); // the live file and 2 old ones
  const andyLines = andyFiles
    .flatMap((f) =>
      readFileSync(path.join(dir, 'Andy', f), 'utf8')
        .split('\n')
        .filter(Boolean),
    )
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(andyLines.every((l) => l.bot === 'Andy' && l.event === 'command')).toBe(true);
  expect(andyLines.at(-1)).toMatchObject({
    level: 30,
    bot: 'Andy',
    event: 'command',
    command: '!stats',
    output: 'Health 20, line 119',
    msg: '!stats → Health 20, line 119 (2 ms)',
  });
  const jill = readFileSync(path.join(dir, 'Jill', 'log.1.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(jill[0]).toMatchObject({ bot: 'Jill', event: 'model', reply: 'ok', turns: 1 });
  expect(jill[0]).not.toHaveProperty('request'); // prompts stay in the run records
  expect(jill[1]).toMatchObject({ level: 20, event: 'action', label: '!collectBlocks' });
  expect(readdirSync(dir)).not.toContain(''); // process lines go to no bot's file
});

test('three restarts leave at most the kept files: each start and rotation counts every file of the bot, whichever process wrote it', async () => {
  const dir = tempDir();
  const logging = new URL('../../src/app/logging.ts', import.meta.url).href;
  const events = new URL('../../src/agent/events.ts', import.meta.url).href;
  // One process of `npm start`, cut short: it writes Andy's lines until its file has rolled over twice.
  const run = `
    const { createLogging } = await import(${JSON.stringify(logging)});
    const { BotEventBus } = await import(${JSON.stringify(events)});
    const { readdirSync } = await import('node:fs');
    const dir = ${JSON.stringify(dir)};
    const logging = createLogging({ botsDir: dir, terminal: false, fileSize: '2k', keepFiles: 2 });
    const bus = new BotEventBus();
    logging.attach(bus);
    const newest = () => Math.max(0, ...readdirSync(dir + '/Andy', { withFileTypes: true }).map((f) => Number(/^log\\.(\\d+)\\.jsonl$/.exec(f.name)?.[1] ?? 0)));
    // In bursts: pino-roll rotates when its file has drained, which a steady stream never lets it.
    let start;
    for (let burst = 0; ; burst++) {
      for (let i = 0; i < 30; i++)
        bus.publish({ type: 'command', bot: 'Andy', command: '!stats', kind: 'query', ok: true, output: 'Health 20, line ' + burst * 30 + i, ms: 2 });
      await new Promise((r) => setTimeout(r, 20));
      let n = 0;
      try { n = newest(); } catch {}
      start ??= n || undefined;
      if (start !== undefined && n >= start + 2) break;
    }
    await logging.close();
  `;
  const filesOf = () => readdirSyncSafe(path.join(dir, 'Andy')).filter((f) => f.endsWith('.jsonl'));
  for (let restart = 0; restart < 4; restart++) {
    const child = spawn(process.execPath, ['--input-type=module', '-e', run], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).toBe(0);
    // The live file and the 2 kept before it, however many processes wrote them.
    expect(filesOf().length, filesOf().join(', ')).toBeLessThanOrEqual(3);
  }
  const numbers = filesOf()
    .map((f) => Number(/^log\.(\d+)\.jsonl$/.exec(f)?.[1]))
    .sort((a, b) => a - b);
  expect(numbers).toEqual([numbers[2]! - 2, numbers[2]! - 1, numbers[2]!]); // the newest three
  expect(numbers[2]).toBeGreaterThanOrEqual(8); // four processes rolled over twice each
});
