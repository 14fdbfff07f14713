/**
 * A lean start (src/app/lazy-modules.ts, src/models/): `npm start` with the oracle and the
 * dashboard off loads no provider SDK and no dashboard, evaluation or queue code; bots joining
 * another server load no embedded server (flying-squid, src/server/), and no bot loads the
 * sandbox's TypeScript stripper (amaro) before its first `!newAction`. The real command
 * line runs in a child process whose module loads are recorded (Node's module hooks); it has loaded
 * all it will once it tries to join (here: a port nobody listens on, no retries).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { TEST_VERSION } from '../helpers/version.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'lean-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records the URL of every module the process loads into `$MODULES_OUT`, at exit. */
const RECORDER = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = [];
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.MODULES_OUT, seen.join('\\n')));
`;

async function freePort(): Promise<number> {
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as { port: number };
  srv.close();
  await once(srv, 'close');
  return port;
}

test('npm start with the oracle and no dashboard loads no provider SDK, no dashboard, evaluation, queue or embedded server code', async () => {
  writeFileSync(path.join(dir, 'andy.json'), JSON.stringify({ name: 'Andy', model: 'oracle' }));
  writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify({
      server: 'external',
      port: await freePort(),
      minecraft_version: TEST_VERSION,
      profiles: ['./andy.json'],
      reconnect_attempts: 0,
      dashboard_port: 0,
    }),
  );
  const modules = path.join(dir, 'modules.txt');
  const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(RECORDER)}`, CLI, 'start'], {
    cwd: dir,
    env: { ...process.env, MODULES_OUT: modules },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'exit');
  expect(stderr).toContain('could not join');
  expect(code).toBe(1);
  const loaded = readFileSync(modules, 'utf8').split('\n');
  // It did load the bots' own code, so the list is the real one.
  expect(loaded.some((url) => url.endsWith('/src/app/start-bots.ts'))).toBe(true);
  expect(loaded.some((url) => url.includes('/node_modules/mineflayer/'))).toBe(true);
  const unwanted = loaded.filter((url) =>
    /\/node_modules\/(openai|@anthropic-ai|fastify|@fastify|bullmq|ioredis|cli-progress|flying-squid|amaro)\/|\/src\/app\/(dashboard|queue)\/|\/src\/app\/evaluate\.ts|\/src\/tasks\/eval\/(summary|report|export)\.ts/.test(
      url,
    ),
  );
  expect(unwanted).toEqual([]);
  const ownServerCode = pathToFileURL(path.join(path.dirname(CLI), 'server')).href + '/';
  expect(loaded.filter((url) => url.startsWith(ownServerCode))).toEqual([]);
});
