/**
 * The !newAction sandbox: each known escape route must fail, legit code calling skills must work,
 * and memory past the sandbox's cap is refused with the reason. Every case runs real code in a
 * real SES-locked worker thread inside its own memory-capped process.
 */
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkCode, runSandboxed, type SandboxResult, type SkillTable } from '../../src/sandbox/runner.ts';

function makeSkills(): { skills: SkillTable; log: string[] } {
  const log: string[] = [];
  const skills: SkillTable = {
    async position() {
      log.push('position');
      return { x: 10, y: 64, z: -3 };
    },
    async collectBlocks(type: string, n: number) {
      log.push(`collect ${type} ${n}`);
      return n;
    },
    async craftRecipe(item: string, n: number) {
      log.push(`craft ${item} ${n}`);
      return true;
    },
    async say(text: string) {
      log.push(`say ${text}`);
    },
    async inventory() {
      return { oak_log: 3 };
    },
    async fails() {
      throw new Error('no crafting table nearby');
    },
  };
  return { skills, log };
}

const run = (code: string, timeoutMs = 5000): Promise<SandboxResult> => runSandboxed(code, { skills: makeSkills().skills, timeoutMs });

/** Code that reports what it could reach; the sandbox must let it run and answer 'blocked'. */
async function expectBlocked(code: string): Promise<void> {
  expect(await run(code), code).toMatchObject({ ok: true, value: 'blocked' });
}

/**
 * Sandboxed code that reads each expression and answers 'blocked' only if every read throws
 * (ReferenceError for a missing global, TypeError for a tamed one) or yields undefined.
 */
function probeGlobals(names: string[]): string {
  return `const reached = [];
    for (const read of [${names.map((n) => `() => ${n}`).join(', ')}]) {
      try { if (read() !== undefined) reached.push(String(read)); }
      catch (e) { /* blocked */ }
    }
    return reached.length ? 'reached ' + reached.join(' ') : 'blocked';`;
}

describe('sandbox: legit code', () => {
  test('calls skills in order, gets their results, returns a value and console output', async () => {
    const { skills, log } = makeSkills();
    const r = await runSandboxed(
      `const p = await position();
       console.log('start at', p.x, p.z);
       const got = await skills.collectBlocks('oak_log', 3);
       await craftRecipe('oak_planks', got * 4);
       await say('made ' + got * 4 + ' planks');
       return { got, y: p.y, inv: await inventory() };`,
      { skills, timeoutMs: 5000 },
    );
    expect(r).toMatchObject({ ok: true, value: { got: 3, y: 64, inv: { oak_log: 3 } }, output: ['start at 10 -3'], calls: 5 });
    expect(log).toEqual(['position', 'collect oak_log 3', 'craft oak_planks 12', 'say made 12 planks']);
  });

  test('a skill that throws rejects inside the code, which can catch it', async () => {
    const r = await run(`try { await fails(); } catch (e) { return 'caught: ' + e.message; }`);
    expect(r).toMatchObject({ ok: true, value: 'caught: no crafting table nearby' });
  });

  test("runtime errors come back structured, with the line in the model's code", async () => {
    const r = await run(`const a = 1;\nconst b = null;\nreturn b.count;`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('runtime');
    expect(r.error.message).toMatch(/^TypeError: .*null/);
    expect(r.error.line).toBe(3);
  });

  test('syntax errors are found before a worker starts, with the line', async () => {
    const r = await run(`const a = 1;\nif (a {\n  return 2;\n}`);
    expect(r).toMatchObject({ ok: false, error: { kind: 'syntax', line: 2 } });
    const ok = checkCode('await say("hi");', ['say']);
    expect(ok).toBeUndefined();
  });

  test('lint: unknown skills and the bot object are reported with the available names', () => {
    const e = checkCode(`await skills.mineDiamonds(3);\nbot.chat('hi');`, ['say', 'position']);
    expect(e?.kind).toBe('lint');
    expect(e?.message).toContain('unknown skill skills.mineDiamonds (line 1); available: say, position');
    expect(e?.message).toContain('there is no bot object (line 2)');
  });
});

describe('sandbox: escapes fail', () => {
  test('no process global', async () => {
    await expectBlocked(probeGlobals(['process', 'globalThis.process', 'globalThis.global']));
    const r = await run(`return process.exit(1)`);
    expect(r).toMatchObject({ ok: false, error: { kind: 'runtime', message: 'ReferenceError: process is not defined (line 1)' } });
  });

  test('no require, no module, no global', async () => {
    await expectBlocked(probeGlobals(['require', 'module', 'exports', 'global', 'Buffer', '__dirname', 'WebAssembly']));
    const r = await run(`const r = globalThis['req' + 'uire']; return r('fs').readFileSync('/etc/passwd', 'utf8')`);
    expect(r).toMatchObject({ ok: false, error: { kind: 'runtime' } });
  });

  test('import() and static import are rejected', async () => {
    expect(await run(`const fs = await import('node:fs'); return fs.readdirSync('/')`)).toMatchObject({
      ok: false,
      error: { kind: 'lint' },
    });
    expect(await run(`import fs from 'fs';`)).toMatchObject({ ok: false });
    // Hidden from the lint (no "import(" on one line): the Compartment itself must refuse it.
    const r = await run("const f = Function('return imp' + 'ort')\nreturn await (0, import\n('fs'))");
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining('import expression rejected') } });
  });

  test('constructor chains do not reach the real Function', async () => {
    const attempts = [
      `(function(){}).constructor('return process')()`,
      `(async function(){}).constructor('return process')()`,
      `(function*(){}).constructor('return process')().next().value`,
      `globalThis.constructor.constructor('return process')()`,
      `({}).constructor.constructor('return process')()`,
      `Object.getPrototypeOf(async () => {}).constructor('return process')()`,
    ];
    for (const expr of attempts) {
      const r = await run(
        `let p; try { p = await ${expr}; } catch (e) { return 'blocked'; }\nreturn typeof p === 'undefined' ? 'blocked' : typeof p.pid;`,
      );
      expect(r, expr).toMatchObject({ ok: true, value: 'blocked' });
    }
  });

  test('Function and indirect eval evaluate inside the Compartment; direct eval is rejected', async () => {
    await expectBlocked(
      probeGlobals([
        `Function('return process')()`,
        `(0, globalThis.eval)('process')`,
        `Function('return this')().setTimeout`,
        `(0, eval)('require')`,
      ]),
    );
    expect(await run(`return eval('process')`)).toMatchObject({ ok: false, error: { kind: 'lint' } });
  });

  test('no fetch, no network or timer globals', async () => {
    await expectBlocked(
      probeGlobals([
        'fetch',
        'WebSocket',
        'XMLHttpRequest',
        'EventSource',
        'setTimeout',
        'setInterval',
        'setImmediate',
        'queueMicrotask',
        'Date.now()',
      ]),
    );
    expect(await run(`await fetch('http://127.0.0.1:1/')`)).toMatchObject({
      ok: false,
      error: { kind: 'runtime', message: expect.stringContaining('fetch is not defined') },
    });
  });

  test('no file system by any route', async () => {
    const marker = path.join(tmpdir(), `sandbox-escape-${process.pid}-${Date.now()}`);
    rmSync(marker, { force: true });
    const routes = [
      `process.mainModule.require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`,
      `process.binding('fs')`,
      `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`,
      `Function('return require')()('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`,
      `skills.constructor.constructor('return process')().binding('fs')`,
      `say.constructor('return import.meta')()`,
      `new Compartment({ __options__: true }).evaluate('process').binding('fs')`,
    ];
    for (const route of routes) {
      const r = await run(`${route};\nreturn 'reached';`);
      expect(r.ok, route).toBe(false);
    }
    expect(existsSync(marker)).toBe(false);
  });

  test('V8 stack frames do not leak real functions', async () => {
    await expectBlocked(`
      let leaked = 'blocked';
      try {
        Error.prepareStackTrace = (e, frames) => frames;
        const frames = new Error().stack;
        if (Array.isArray(frames)) for (const f of frames) {
          const fn = f.getFunction && f.getFunction();
          if (fn && fn.constructor('return typeof process')() !== 'undefined') leaked = 'leaked';
        }
      } catch (e) {}
      return leaked;`);
  });

  test('prototype pollution neither works inside nor reaches the parent', async () => {
    const r = await run(`
      const results = [];
      for (const attack of [
        () => { Object.prototype.polluted = 'yes'; },
        () => { ({}).__proto__.polluted = 'yes'; },
        () => { Array.prototype.push = () => 0; },
        () => { Object.defineProperty(Object.prototype, 'polluted', { value: 'yes' }); },
        () => { say.__proto__.call = () => 'hijacked'; },
      ]) { try { attack(); results.push('done'); } catch (e) { results.push(e.name); } }
      return results.join(',') + ' ' + String(({}).polluted);`);
    expect(r).toMatchObject({ ok: true, value: 'TypeError,TypeError,TypeError,TypeError,TypeError undefined' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  test('an endless loop is terminated within the time limit', async () => {
    const started = Date.now();
    const r = await run(`while (true) {}`, 1000);
    const took = Date.now() - started;
    expect(r).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(3000);
  });

  test('an endless await loop on skills is terminated too', async () => {
    const r = await run(`while (true) { await position(); }`, 800);
    expect(r).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(r.calls).toBeGreaterThan(0);
  });

  test('the signal stops a run', async () => {
    const ac = new AbortController();
    // Aborted once the code runs: it reports in through a skill, then spins.
    const skills: SkillTable = {
      async started() {
        ac.abort();
      },
    };
    const r = await runSandboxed(`await started(); while (true) {}`, { skills, timeoutMs: 10_000, signal: ac.signal });
    expect(r).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(r.durationMs).toBeLessThan(3000);
  });

  test("say('/op me') is refused and never reaches the skill", async () => {
    const { skills, log } = makeSkills();
    for (const text of ['/op me', '  /gamemode creative', 'hello\n/op me']) {
      const r = await runSandboxed(`await say(${JSON.stringify(text)}); return 'sent';`, { skills, timeoutMs: 5000 });
      expect(r).toMatchObject({ ok: false, error: { kind: 'runtime', message: expect.stringContaining('refused') } });
    }
    expect(log).toEqual([]);
    const ok = await runSandboxed(`await say('a/b is fine'); return 'sent';`, { skills, timeoutMs: 5000 });
    expect(ok).toMatchObject({ ok: true, value: 'sent' });
  });

  test('runaway memory crashes the sandbox, not this process', async () => {
    const r = await runSandboxed(`const a = []; while (true) a.push(new Array(1e5).fill(1));`, {
      skills: {},
      timeoutMs: 20_000,
      maxHeapMb: 32,
    });
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'crash', message: expect.stringMatching(/used more memory than the sandbox allows/) },
    });
  });

  test('2 GiB of typed arrays, at once or bit by bit, is refused with the reason; this process does not grow', async () => {
    const before = process.memoryUsage().rss;
    const attempts = [
      `const a = new Uint8Array(2 ** 30); a.fill(1); const b = new Uint8Array(2 ** 30); b.fill(2); return a[0] + b[0];`,
      `const kept = []; for (let i = 0; i < 32; i++) { const a = new Uint8Array(64 * 2 ** 20); a.fill(i); kept.push(a); } return kept.length;`,
      `const b = new ArrayBuffer(8, { maxByteLength: 2 ** 31 }); b.resize(2 ** 31); new Uint8Array(b).fill(1); return b.byteLength;`,
      `const a = new Uint8Array(64 * 2 ** 20); const kept = [a]; for (let i = 0; i < 32; i++) kept.push(a.slice()); return kept.length;`,
    ];
    for (const code of attempts) {
      const r = await runSandboxed(code, { skills: {}, timeoutMs: 20_000 });
      expect(r, code).toMatchObject({ ok: false });
      if (!r.ok) expect(r.error.message, code).toMatch(/used more memory than the sandbox allows \(256 MB in all/);
    }
    // Well under one of those arrays: the memory was the sandbox process's, and it is gone.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 2 ** 20);
    // The sandbox still runs the next code.
    expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: 42 });
  });
});
