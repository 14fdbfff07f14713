/**
 * `npm run setup:vision`: builds headless-gl (the optional `gl` package) for the Node.js running
 * this script, so that `!lookAtPlayer` / `!lookAtPosition` can render the bot's view
 * (src/skills/camera.ts).
 *
 * npm does not run gl's install script: package.json's `allowScripts` denies it (`"gl": false`,
 * which npm 11 honours; a script merely left out of it still runs there, and took 5.5 min of
 * `npm ci` on this 2-core machine). That script would fetch a prebuilt binary from outside the
 * registries or build against the npm config's `nodedir` (the system Node's headers, the wrong
 * ABI for the project's Node). So this
 * builds it explicitly: the headers of exactly this Node version come from the npm registry's
 * `node-<platform>-<arch>` package (the official build, `include/node` inside), cached under
 * node_modules/.cache/node-headers/, and gl's own node-gyp compiles against them.
 *
 * Needs python3, make, g++ and the X11/GL development headers (Debian: libxi-dev
 * libglu1-mesa-dev libglew-dev pkg-config). Exits 0 when gl loads afterwards (or already did),
 * 1 with the reason otherwise.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(path.join(root, 'package.json'));

/** Whether `gl` loads in this Node (run in a child process: a failed native load is not retried). */
function glLoads(): { ok: boolean; why: string } {
  const r = spawnSync(process.execPath, ['-e', "require('gl')"], { cwd: root, encoding: 'utf8' });
  return { ok: r.status === 0, why: (r.stderr || '').split('\n').find((l) => /Error/.test(l)) ?? r.stderr.trim() };
}

function fail(message: string): never {
  console.error(`setup:vision: ${message}`);
  process.exit(1);
}

let glDir: string;
try {
  glDir = path.dirname(require.resolve('gl/package.json'));
} catch {
  fail('the gl package is not installed; run `npm install` (without --omit=optional).');
}

const before = glLoads();
if (before.ok) {
  console.log(`setup:vision: gl already loads in Node ${process.version}.`);
  process.exit(0);
}

const version = process.version.slice(1);
const headersPackage = `node-${process.platform}-${process.arch}@${version}`;
const cache = path.join(root, 'node_modules', '.cache', 'node-headers', version);
const nodedir = path.join(cache, 'package');
if (!existsSync(path.join(nodedir, 'include', 'node', 'node_version.h'))) {
  mkdirSync(cache, { recursive: true });
  console.log(`setup:vision: fetching the headers of Node ${version} (${headersPackage}) from the npm registry…`);
  try {
    execFileSync('npm', ['pack', headersPackage, '--pack-destination', cache, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(cache).find((f) => f.endsWith('.tgz'));
    if (!tarball) fail(`npm pack ${headersPackage} wrote no tarball`);
    execFileSync('tar', ['-xzf', path.join(cache, tarball), '-C', cache, 'package/include', 'package/package.json']);
  } catch (err) {
    fail(`could not get the headers of Node ${version}: ${(err as Error).message}`);
  }
}

let nodeGyp: string;
try {
  nodeGyp = require.resolve('node-gyp/bin/node-gyp.js', { paths: [glDir] });
} catch {
  fail('node-gyp (a dependency of gl) is not installed.');
}

console.log(`setup:vision: building gl ${require('gl/package.json').version} for Node ${version} (a minute or two)…`);
const env = { ...process.env };
// The npm config's nodedir (the system Node's headers) must not win over ours.
for (const key of Object.keys(env)) if (key.toLowerCase() === 'npm_config_nodedir') delete env[key];
const build = spawnSync(process.execPath, [nodeGyp, 'rebuild', `--nodedir=${nodedir}`, '--jobs=2'], {
  cwd: glDir,
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
  encoding: 'utf8',
});
if (build.status !== 0) {
  const tail = (build.stderr ?? '').trim().split('\n').slice(-15).join('\n');
  fail(
    `building gl failed (exit ${build.status}). Debian needs: apt-get install -y python3 make g++ libxi-dev libglu1-mesa-dev libglew-dev pkg-config\n${tail}`,
  );
}
const after = glLoads();
if (!after.ok) fail(`gl was built but does not load: ${after.why}`);
console.log(`setup:vision: gl loads in Node ${process.version}.`);
