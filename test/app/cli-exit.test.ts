/**
 * `npm start` as a person runs it, in a child process: when the server is not there, or goes
 * away for good, the process says so, retries, and exits with code 1 and a clear message only
 * after the retry budget; it never ends silently.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { startTestServer, waitUntil } from '../helpers/world.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const dirs: string[] = [];

/** A folder with settings.json (external server at `port`, fast retries) and Andy's profile. */
function project(port: number, version = TEST_VERSION): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cli-exit-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'andy.json'), JSON.stringify({ name: 'Andy' }));
  writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify({
      server: 'external',
      host: '127.0.0.1',
      port,
      minecraft_version: version,
      profiles: ['./andy.json'],
      reconnect_attempts: 2,
      reconnect_delay_ms: 100,
      reconnect_max_delay_ms: 200,
      dashboard_port: 0, // no dashboard: its port may be taken (a developer's own npm start)
    }),
  );
  return dir;
}

/** Runs `src/cli.ts start` in `dir`; `stderr` fills as it runs, `exited` resolves with the exit code. */
function start(dir: string) {
  const child = spawn(process.execPath, [CLI, 'start'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stderr: '', exited: once(child, 'exit').then(([code]) => code as number | null), child };
  child.stderr.on('data', (chunk: Buffer) => {
    out.stderr += chunk.toString();
  });
  return out;
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

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('no server at start-up: each failed join is logged with its retry, then exit code 1 with the reason', async () => {
  const run = start(project(await freePort()));
  const code = await run.exited;
  expect(code, run.stderr).toBe(1);
  expect(run.stderr).toMatch(/Andy could not join 127\.0\.0\.1:\d+: connection refused\..* Retrying in 100 ms \(retry 1 of 2\)\./);
  expect(run.stderr).toMatch(/Retrying in 200 ms \(retry 2 of 2\)\./);
  expect(run.stderr).toMatch(/Error: Andy could not join 127\.0\.0\.1:\d+: connection refused\..* Gave up after 3 attempts\./);
  expect(run.stderr).not.toMatch(/unsettled top-level await/);
});

test('the server goes away for good: the bot retries, then the process exits with code 1 saying why', async () => {
  const server = await startTestServer();
  const run = start(project(server.port));
  try {
    await waitUntil(() => run.stderr.includes('Andy joined as oracle'), `Andy joins (stderr: ${run.stderr})`, 30_000);
  } catch (err) {
    run.child.kill('SIGKILL');
    await server.close();
    throw err;
  }
  await server.close();
  const code = await run.exited;
  expect(code, run.stderr).toBe(1);
  expect(run.stderr).toMatch(/Andy was kicked: Server closed\. Rejoining 127\.0\.0\.1:\d+ in 100 ms \(attempt 1 of 2\)\./);
  expect(run.stderr).toMatch(
    /Andy was kicked: Server closed, and could not rejoin 127\.0\.0\.1:\d+ in 2 attempts \(last: connection refused\..*\)\. It stays offline/,
  );
  expect(run.stderr).toMatch(/Error: Every bot lost 127\.0\.0\.1:\d+ and none could rejoin after 2 attempts\. Is the server running\?/);
  expect(run.stderr).not.toMatch(/unsettled top-level await/);
});

test("a version that differs from the server's: one line naming both and the setting, exit code 2, no stack trace", async () => {
  const server = await startTestServer();
  try {
    const other = TEST_VERSION === '1.21.4' ? '1.21.1' : '1.21.4';
    const run = start(project(server.port, other));
    const code = await run.exited;
    expect(code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `Error: The server at 127.0.0.1:${server.port} runs Minecraft ${TEST_VERSION}, but settings.json says "minecraft_version": "${other}". Set "minecraft_version" to "${TEST_VERSION}" (or "auto" to ask the server each time).`,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  } finally {
    await server.close();
  }
});
