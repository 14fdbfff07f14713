/**
 * Runs model-written JavaScript (`!newAction`) in an SES Compartment inside a worker thread, in a
 * child process of its own whose whole memory is capped.
 *
 * The code is the body of an async function: `await collectBlocks('oak_log', 3); return 'done';`.
 * It sees only async stubs of the skill functions the caller passes (also as `skills.name`),
 * `sleep(ms)` and `console.log`; each stub call is run here, in the parent, against the real
 * function. No bot, process, module loader, network, file system or timers of its own. A time
 * limit kills the process, so even `while (true) {}` ends.
 *
 * Memory: a worker thread's `resourceLimits` cap only its JS heap; typed arrays and other array
 * buffers live outside it (two 1 GiB arrays grew the bot's process to 2.5 GB). So the thread runs
 * in a child process (`host.ts`) started under `ulimit -d` (the kernel's RLIMIT_DATA: every
 * private writable mapping of the process, the heap and array buffers included) with V8's JIT
 * off (`--jitless`: its reservations would take most of a small limit; no WebAssembly either).
 * An allocation past the cap is refused inside the code (`RangeError: Array buffer allocation
 * failed`, reported with the cap) or ends the child, never the bot. A child process rather than
 * capped buffer constructors: a cap on `ArrayBuffer` and the typed array constructors misses
 * the other ways to memory (species constructors, `resize`, `transfer`, strings and arrays held
 * outside the heap limit, allocations inside V8 and Node), while the kernel counts them all. The
 * limit is enforced on Linux; elsewhere the child still isolates the bot from a crash. The child
 * gets no environment (no API keys), no stdin, and a CPU-time limit as a second bound.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import type { HostError, HostStart } from './host.ts';
import type { FromWorker, ToWorker, WorkerInput } from './worker.ts';

/** An async function the sandboxed code may call; arguments and result must be structured-cloneable. */
export type SkillFunction = (...args: any[]) => Promise<unknown>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The skills the code may call, by name (names must be JavaScript identifiers). */
export type SkillTable = Record<string, SkillFunction>;

/** Why a run failed. `syntax`/`lint` are found before anything runs. */
export type SandboxErrorKind = 'syntax' | 'lint' | 'runtime' | 'timeout' | 'aborted' | 'crash';

/** A failure, in a form the agent can show the model. */
export interface SandboxError {
  kind: SandboxErrorKind;
  /** One line, e.g. `TypeError: collectBlocks is not a function (line 3)`. */
  message: string;
  /** 1-based line in the model's code, when known. */
  line?: number;
}

/** The outcome of one {@link runSandboxed}. Never a thrown error. */
export type SandboxResult =
  | { ok: true; value: unknown; output: string[]; calls: number; durationMs: number }
  | { ok: false; error: SandboxError; output: string[]; calls: number; durationMs: number };

/** Options of {@link runSandboxed}. */
export interface SandboxOptions {
  /** The functions the code may call. */
  skills: SkillTable;
  /**
   * Wall-clock limit for the code (including its skill calls), in ms, counted from when the
   * locked-down worker is ready. Default 60 000. Starting the worker has its own bound
   * ({@link WORKER_START_LIMIT_MS}).
   */
  timeoutMs?: number;
  /** Aborting terminates the worker; the result is then `{ok:false, error:{kind:'aborted'}}`. */
  signal?: AbortSignal;
  /**
   * Skills whose first argument is chat text: a line of it starting with `/` (a server command)
   * is refused before the skill runs. Default `['say']`.
   */
  chatSkills?: readonly string[];
  /** Keep at most this many `console.log` lines (oldest dropped). Default 50. */
  maxOutputLines?: number;
  /** The worker thread's JS heap limit in MB (a runaway heap crashes the sandbox, not the bot). Default 128. */
  maxHeapMb?: number;
  /**
   * The sandbox process's whole memory in MB (heap, array buffers, everything; `ulimit -d`).
   * Default {@link DEFAULT_MAX_MEMORY_MB}; at least {@link MIN_MEMORY_MB}.
   */
  maxMemoryMb?: number;
}

/** Bound on starting the sandbox process and locking it down, in ms (normally 0.3–1 s; more under load). */
export const WORKER_START_LIMIT_MS = 15_000;

/** Default cap on the sandbox process's whole memory (MB). */
export const DEFAULT_MAX_MEMORY_MB = 256;

/** Least memory a sandbox process needs to start Node, SES and its worker thread (MB). */
export const MIN_MEMORY_MB = 128;

let hostFile: string | undefined;

/**
 * The sandbox process's entry (`host.ts`) and its thread (`worker.ts`) as JavaScript, written once
 * per process to a private temporary folder (removed at exit): under `--jitless` Node has no
 * WebAssembly, which its own TypeScript stripping needs. `ses` is imported by its resolved path.
 */
function hostEntry(): string {
  if (hostFile) return hostFile;
  // Loaded here, at the first !newAction: amaro's 3.5 MB bundle and its WebAssembly stripper would
  // otherwise stay in every bot process's heap (about 10 MB) from start-up.
  const amaro = createRequire(import.meta.url)('amaro') as typeof import('amaro').default;
  const strip = (file: string) => amaro.transformSync(readFileSync(new URL(file, import.meta.url), 'utf8'), { mode: 'strip-only' }).code;
  const ses = JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('ses')).href);
  const worker = strip('./worker.ts').replace(/^import 'ses';$/m, `import ${ses};`);
  const host = strip('./host.ts').replace("new URL('./worker.ts', import.meta.url)", "new URL('./worker.mjs', import.meta.url)");
  if (!worker.includes(ses) || !host.includes('./worker.mjs')) throw new Error('the sandbox entry files changed: update hostEntry()');
  const dir = mkdtempSync(path.join(tmpdir(), 'mindcraft-sandbox-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'worker.mjs'), worker);
  writeFileSync(path.join(dir, 'host.mjs'), host);
  return (hostFile = path.join(dir, 'host.mjs'));
}

/**
 * Starts the sandbox process (see the module comment): `ulimit -d` caps its data (KiB), `-t` its
 * CPU time (s), `-f 0` lets it write no file; no environment, no stdin, IPC with structured clone.
 */
function startHost(memoryMb: number, cpuSeconds: number) {
  const node = [process.execPath, '--jitless', '--max-semi-space-size=8', hostEntry()];
  const options: SpawnOptions = { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced', env: {} };
  if (process.platform === 'win32') return spawn(node[0]!, node.slice(1), options);
  const limits = `ulimit -d ${memoryMb * 1024} && ulimit -t ${cpuSeconds} && ulimit -f 0 && exec "$@"`;
  return spawn('/bin/sh', ['-c', limits, 'sandbox', ...node], options);
}

/** Lines the runner puts before the model's first line. */
const LINE_OFFSET = 1;
const wrap = (code: string): string => `(async () => {\n${code}\n})()`;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Checks code without running it: it must parse as the body of an async function, must not use
 * forms the Compartment rejects (`import(`, direct `eval(`, HTML comments), must not use `bot`
 * or `require`, and every `skills.x` must be a known skill.
 *
 * @param code the body of an async function.
 * @param skillNames the names the code may call.
 * @returns undefined when the code looks runnable, else a `syntax` or `lint` error.
 */
export function checkCode(code: string, skillNames: readonly string[]): SandboxError | undefined {
  try {
    // Compiled only, never run: a parse check with real line numbers.
    new Script(`(async function () {\n${code}\n})`, { filename: 'action.js', lineOffset: -LINE_OFFSET });
  } catch (err) {
    const e = err as Error;
    const line = /action\.js:(\d+)/.exec(e.stack ?? '')?.[1];
    const n = line ? Number(line) : undefined;
    return { kind: 'syntax', message: `SyntaxError: ${e.message}${n ? ` (line ${n})` : ''}`, ...(n ? { line: n } : {}) };
  }
  const lines = code.split('\n');
  const problems: SandboxError[] = [];
  const known = new Set(skillNames);
  lines.forEach((text, i) => {
    const line = i + 1;
    const bare = text.replace(/\/\/.*$/, '');
    if (/\bimport\s*\(/.test(bare) || /^\s*import\s/.test(bare))
      problems.push({ kind: 'lint', line, message: `import is not available (line ${line}); use only the listed skills` });
    if (/\brequire\s*\(/.test(bare))
      problems.push({ kind: 'lint', line, message: `require is not available (line ${line}); use only the listed skills` });
    if (/(^|[^.\w$])eval\s*\(/.test(bare)) problems.push({ kind: 'lint', line, message: `eval is not allowed (line ${line})` });
    if (/<!--|-->/.test(bare))
      problems.push({
        kind: 'lint',
        line,
        message: `HTML comment markers <!-- and --> are not allowed (line ${line}); write "x-- > y" with spaces`,
      });
    if (/(^|[^.\w$])bot\s*\./.test(bare))
      problems.push({
        kind: 'lint',
        line,
        message: `there is no bot object (line ${line}); call the skills directly, e.g. await ${skillNames[0] ?? 'skill'}(...)`,
      });
    for (const m of bare.matchAll(/\bskills\s*\.\s*([A-Za-z_$][\w$]*)/g)) {
      const name = m[1]!;
      if (!known.has(name))
        problems.push({ kind: 'lint', line, message: `unknown skill skills.${name} (line ${line}); available: ${skillNames.join(', ')}` });
    }
  });
  const [first] = problems;
  if (!first) return undefined;
  return { kind: 'lint', line: first.line, message: problems.map((p) => p.message).join('; ') };
}

/**
 * Runs `code` (the body of an async function; its `return` value is the result) in a fresh
 * SES-locked worker thread. Each call starts its own worker (about 100–300 ms) and ends it.
 *
 * Skill calls are refused after the run ends; a call in flight when the time limit or the
 * signal fires is not awaited (abort your own action signal to stop it).
 *
 * @param code JavaScript from the model (no ``` fences).
 * @param options skills, time limit (ms), signal, chat skills, output bound.
 * @returns a {@link SandboxResult}; never throws. Syntax and lint problems are reported without
 *   starting a worker.
 */
export async function runSandboxed(code: string, options: SandboxOptions): Promise<SandboxResult> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxLines = options.maxOutputLines ?? 50;
  const chatSkills = new Set(options.chatSkills ?? ['say']);
  const skillNames = Object.keys(options.skills).filter((n) => IDENTIFIER.test(n) && typeof options.skills[n] === 'function');
  const output: string[] = [];
  let calls = 0;
  const elapsed = (): number => Math.round(performance.now() - started);
  const fail = (error: SandboxError): SandboxResult => ({ ok: false, error, output, calls, durationMs: elapsed() });

  const problem = checkCode(code, skillNames);
  if (problem) return fail(problem);
  if (options.signal?.aborted) return fail({ kind: 'aborted', message: 'stopped before it ran' });

  const input: WorkerInput = { code: wrap(code), skillNames, lineOffset: LINE_OFFSET };
  const memoryMb = Math.max(MIN_MEMORY_MB, options.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB);
  const child = startHost(memoryMb, Math.ceil((WORKER_START_LIMIT_MS + timeoutMs) / 1000) + 5);
  // The process's own stderr (never the model's console.log, which comes as messages): its last
  // lines tell a V8 out-of-memory death from another one.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  // The worker thread as seen through its process: messages both ways, and the end of both.
  let onWorkerMessage: (msg: FromWorker) => void = () => {};
  const worker = {
    postMessage: (msg: ToWorker): void => {
      if (!child.connected) throw new Error('the sandbox process is gone');
      child.send(msg);
    },
    on: (_event: 'message', handler: (msg: FromWorker) => void): void => {
      onWorkerMessage = handler;
    },
    emit: (msg: FromWorker): void => onWorkerMessage(msg),
    terminate: (): void => {
      child.kill('SIGKILL');
    },
  };
  if (child.connected) child.send({ type: 'start', input, maxHeapMb: options.maxHeapMb ?? 128 } satisfies HostStart);
  const tooMuch = `the code used more memory than the sandbox allows (${memoryMb} MB in all, ${options.maxHeapMb ?? 128} MB of it for objects)`;

  return new Promise<SandboxResult>((resolve) => {
    let settled = false;
    const finish = (result: SandboxResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(startTimer);
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(result);
    };
    let timer: NodeJS.Timeout | undefined;
    const startTimer = setTimeout(() => {
      finish(fail({ kind: 'crash', message: `the sandbox did not start within ${WORKER_START_LIMIT_MS} ms` }));
    }, WORKER_START_LIMIT_MS);
    const startCodeTimer = (): void => {
      clearTimeout(startTimer);
      timer = setTimeout(() => {
        finish(
          fail({
            kind: 'timeout',
            message: `stopped after the time limit of ${Math.round(timeoutMs / 100) / 10} s; the code must finish sooner (avoid endless loops)`,
          }),
        );
      }, timeoutMs);
    };
    const onAbort = (): void => finish(fail({ kind: 'aborted', message: 'stopped by the agent' }));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const reply = (msg: ToWorker): void => {
      if (settled) return;
      try {
        worker.postMessage(msg);
      } catch (err) {
        worker.postMessage({
          type: 'reply',
          id: msg.id,
          ok: false,
          error: `result could not be passed to the code: ${(err as Error).message}`,
        } satisfies ToWorker);
      }
    };

    const runSkill = async (id: number, name: string, args: unknown[]): Promise<void> => {
      calls++;
      const fn = Object.hasOwn(options.skills, name) ? options.skills[name] : undefined;
      if (!fn || !skillNames.includes(name)) return reply({ type: 'reply', id, ok: false, error: `${name} is not a skill` });
      if (chatSkills.has(name) && typeof args[0] === 'string' && args[0].split('\n').some((l) => l.trimStart().startsWith('/'))) {
        return reply({ type: 'reply', id, ok: false, error: `${name}: messages starting with "/" (server commands) are refused` });
      }
      try {
        const value = await fn(...args);
        reply({ type: 'reply', id, ok: true, value });
      } catch (err) {
        // A skill's failure keeps its outcome code (`not_found`, ...) for the code to read as `err.code`.
        const code = (err as { code?: unknown } | null)?.code;
        reply({
          type: 'reply',
          id,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
          ...(typeof code === 'string' ? { code } : {}),
        });
      }
    };

    worker.on('message', (msg: FromWorker) => {
      if (settled) return;
      if (msg.type === 'ready') startCodeTimer();
      else if (msg.type === 'call') void runSkill(msg.id, msg.name, Array.isArray(msg.args) ? msg.args : []);
      else if (msg.type === 'log') {
        output.push(String(msg.line).slice(0, 500));
        if (output.length > maxLines) output.shift();
      } else if (msg.type === 'done') {
        if (msg.ok) finish({ ok: true, value: msg.value, output, calls, durationMs: elapsed() });
        else {
          const e = msg.error;
          const at = e.line !== undefined ? ` (line ${e.line})` : '';
          // An allocation the memory cap refused: say so, with the cap.
          const capped = /allocation failed|out of memory/i.test(e.message) ? `; ${tooMuch}` : '';
          finish(
            fail({ kind: 'runtime', message: `${e.name}: ${e.message}${at}${capped}`, ...(e.line !== undefined ? { line: e.line } : {}) }),
          );
        }
      }
    });
    child.on('message', (msg: FromWorker | HostError) => {
      if (msg.type === 'host-error')
        finish(fail({ kind: 'crash', message: msg.outOfMemory ? tooMuch : `sandbox crashed: ${msg.message}` }));
      else worker.emit(msg);
    });
    child.on('error', (err) => {
      finish(fail({ kind: 'crash', message: `the sandbox process could not start: ${err.message}` }));
    });
    child.on('exit', (code, signal) => {
      const why = stderr.trim().split('\n').slice(0, 3).join(' | ');
      let message = `sandbox exited unexpectedly (${signal ?? `code ${code}`})${why ? `: ${why}` : ''}`;
      if (/out of memory|allocation failed/i.test(stderr)) message = tooMuch;
      else if (signal === 'SIGXCPU') message = 'the sandbox used up its CPU time';
      finish(fail({ kind: 'crash', message }));
    });
  });
}
