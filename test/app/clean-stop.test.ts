/**
 * Clean stops of the real command line (src/cli.ts, src/app/signals.ts), in child processes sent
 * real signals: `start`, `server` and `mcp` stop on SIGTERM or Ctrl-C with exit code 0, memory
 * changes still waiting on their save delay written, bots and servers closed; a second signal
 * quits at once; flying-squid's exit hook (installed by the embedded server) does not preempt
 * them. With the embedded server, `start` keeps serving its players when every bot has given up,
 * and says why they did (a ban here: final, with the server's reason). Andy runs the offline
 * oracle: a player's whispered command is answered without a model.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { readMemoryFile } from '../../src/agent/memory-store.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { connectBot, roundTrip, waitUntil } from '../helpers/world.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
const players: Bot[] = [];
afterEach(async () => {
  for (const bot of players.splice(0)) bot.quit();
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * A folder with settings.json (the embedded server on `port`, and `settings`) and Andy's profile.
 * The embedded server is the case that matters: it loads flying-squid, whose exit hook took the
 * signals first.
 */
function project(port: number, settings: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'clean-stop-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'andy.json'), JSON.stringify({ name: 'Andy' }));
  writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify({
      server: 'embedded',
      port,
      minecraft_version: TEST_VERSION,
      profiles: ['./andy.json'],
      goal_idle_ms: 600_000,
      dashboard_port: 0, // no dashboard: its port may be taken (a developer's own npm start)
      ...settings,
    }),
  );
  return dir;
}

/** The command line run in `dir`: its stderr kept as it comes, its exit code when it exits. */
function cli(dir: string, args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  const run = {
    child,
    stderr: '',
    stdout: '',
    exited: once(child, 'exit').then(([code, signal]) => (code as number | null) ?? `killed by ${signal as string}`),
    /** Waits for a line of stderr matching `pattern`. */
    line: (pattern: RegExp, timeoutMs = 30_000) =>
      waitUntil(() => pattern.test(run.stderr), `stderr matches ${pattern}`, { timeoutMs, state: () => run.stderr.slice(-2000) }),
  };
  child.stderr.on('data', (chunk: Buffer) => {
    run.stderr += chunk.toString();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    run.stdout += chunk.toString();
  });
  return run;
}

/** A loopback port nobody listens on. */
async function freePort(): Promise<number> {
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as { port: number };
  srv.close();
  await once(srv, 'close');
  return port;
}

/** Steve joins the embedded server on `port` and records what Andy whispers to him. */
async function joinSteve(port: number): Promise<{ steve: Bot; whispers: string[] }> {
  const steve = await connectBot({ host: '127.0.0.1', port, version: TEST_VERSION } as EmbeddedServer, 'Steve');
  players.push(steve);
  const whispers: string[] = [];
  steve.on('whisper', (from, text) => {
    if (from === 'Andy') whispers.push(text);
  });
  return { steve, whispers };
}

/** The pid of a process that has exited (for a temporary file a crashed process left). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

test('start with the embedded server: SIGTERM right after a memory change saves it (within its save delay) and exits 0; stale temporary memory files are removed at start-up', async () => {
  const port = await freePort();
  const dir = project(port);
  // What a process killed between writing and renaming left.
  mkdirSync(path.join(dir, 'bots', 'Andy'), { recursive: true });
  const stale = path.join(dir, 'bots', 'Andy', `memory.json.${deadPid()}.1.tmp`);
  writeFileSync(stale, '{"memory": "half');
  const run = cli(dir, ['start']);
  await run.line(/Andy joined as oracle/, 60_000);
  expect(existsSync(stale)).toBe(false);
  expect(run.stderr).toContain('removed 1 stale temporary memory file(s)');

  const { whispers } = await joinSteve(port).then(({ steve, whispers }) => {
    steve.whisper('Andy', '!rememberHere("home")');
    return { steve, whispers };
  });
  await waitUntil(() => whispers.some((w) => /home/i.test(w)), 'Andy says he saved "home"', { state: () => whispers });
  // The place is saved 500 ms after the change (MEMORY_WRITE_DEBOUNCE_MS): the signal comes first.
  run.child.kill('SIGTERM');
  expect(await run.exited, run.stderr).toBe(0);
  expect(run.stderr).toContain('SIGTERM: stopping');
  const memory = readMemoryFile(path.join(dir, 'bots', 'Andy', 'memory.json'));
  expect(memory?.places).toHaveProperty('home');
  expect(readdirSync(path.join(dir, 'bots', 'Andy')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
}, 90_000);

test('start with the embedded server: a ban gives Andy up for good, with its reason; the server keeps serving Steve; Ctrl-C then exits 0', async () => {
  const port = await freePort();
  const run = cli(project(port, { reconnect_attempts: 3, reconnect_delay_ms: 100 }), ['start']);
  await run.line(/Andy joined as oracle/, 60_000);
  const { steve } = await joinSteve(port);
  steve.chat('/ban Andy Too much chatter'); // everybody is an operator on the embedded server
  await run.line(/The embedded server keeps running for its players/);
  expect(run.stderr).toMatch(/Andy was banned: You are banned from this server\. A ban or the whitelist holds/);
  expect(run.stderr).toMatch(/Every bot is off 127\.0\.0\.1:\d+ for good: Andy was banned/);
  expect(run.stderr).not.toContain('Is the server running?');
  expect(run.stderr).not.toMatch(/Rejoining|attempt 1 of/); // a ban is not retried
  // Steve still plays: the server answers him.
  await roundTrip(steve);
  expect(run.child.exitCode).toBeNull();
  const ended = once(steve, 'end');
  run.child.kill('SIGINT');
  expect(await run.exited, run.stderr).toBe(0);
  await ended; // the server closed under him
}, 90_000);

test('start: a second signal while stopping quits at once, with the code of that signal', async () => {
  const port = await freePort();
  const run = cli(project(port), ['start']);
  await run.line(/Andy joined as oracle/, 60_000);
  // Two different signals (the same one twice may be merged by the kernel before Node sees it).
  // Both are pending at once, and Node's threads may take them in either order: the one taken
  // first starts the clean stop, the other quits at once with its code.
  run.child.kill('SIGINT');
  run.child.kill('SIGTERM');
  const code = await run.exited;
  const first = code === 143 ? 'SIGINT' : 'SIGTERM';
  expect([130, 143], run.stderr).toContain(code);
  expect(run.stderr).toContain(`${first}: stopping`);
  expect(run.stderr).not.toContain(`${first === 'SIGINT' ? 'SIGTERM' : 'SIGINT'}: stopping`);
}, 90_000);

test('server: SIGTERM disconnects the players and exits 0 (flying-squid exit hook does not take the signal)', async () => {
  const port = await freePort();
  const run = cli(project(port), ['server', '--port', String(port)]);
  await run.line(/Ctrl-C stops\./, 60_000);
  const { steve } = await joinSteve(port);
  const ended = once(steve, 'end');
  run.child.kill('SIGTERM');
  expect(await run.exited, run.stderr).toBe(0);
  expect(run.stderr).toContain('Stopping: the players are disconnected');
  await ended;
}, 90_000);

test('mcp with the embedded server: SIGTERM right after a tool changed the memory saves it and exits 0', async () => {
  const dir = project(await freePort());
  const run = cli(dir, ['mcp']);
  const replies = new Map<number, unknown>();
  let buffer = '';
  run.child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, end)) as { id?: number; result?: unknown; error?: unknown };
      buffer = buffer.slice(end + 1);
      if (message.id !== undefined) replies.set(message.id, message.result ?? message.error);
    }
  });
  // JSON-RPC over stdio, one message a line (the MCP stdio transport).
  const send = (message: object) => run.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const call = async (id: number, method: string, params: object) => {
    send({ id, method, params });
    await waitUntil(() => replies.has(id), `the reply to ${method}`, { timeoutMs: 60_000, state: () => run.stderr.slice(-2000) });
    return replies.get(id);
  };
  await call(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'clean-stop-test', version: '1' } });
  send({ method: 'notifications/initialized' });
  const saved = (await call(2, 'tools/call', { name: 'rememberHere', arguments: { name: 'home' } })) as { isError?: boolean };
  expect(saved.isError, JSON.stringify(saved)).toBe(false);
  run.child.kill('SIGTERM');
  expect(await run.exited, run.stderr).toBe(0);
  expect(readMemoryFile(path.join(dir, 'bots', 'Andy', 'memory.json'))?.places).toHaveProperty('home');
}, 90_000);
