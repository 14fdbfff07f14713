/**
 * Entry point of the sandbox worker thread (see `runner.ts`). Never imported by the parent.
 *
 * It locks down this thread's realm with SES, then evaluates the model's code in a fresh
 * Compartment whose only globals are async stubs for the skills, `sleep`, `console.log`, and a
 * `skills` namespace holding the same stubs. A stub posts `{type:'call'}` to the parent and waits
 * for its `{type:'reply'}`; the parent runs the real function. The code has no `process`,
 * `require`, `import()`, `fetch`, timers, file system, network or bot: only what the stubs do.
 *
 * Protocol (all messages structured-cloned):
 *   workerData: {@link WorkerInput}
 *   worker → parent: `{type:'ready'}` (locked down, about to run), `{type:'call', id, name, args}`, `{type:'log', line}`, `{type:'done', ok, value | error}`
 *   parent → worker: `{type:'reply', id, ok, value | error, code?}` (a failed skill's outcome code, set on the error the code catches)
 */
import { parentPort, workerData } from 'node:worker_threads';
import 'ses';

/** What the parent passes in `workerData`. */
export interface WorkerInput {
  /** The body of an async function, as the model wrote it. */
  code: string;
  /** Names of the skills to expose. */
  skillNames: string[];
  /** Number of source lines the runner put before the model's first line. */
  lineOffset: number;
}

/** An error, reduced to cloneable fields. */
export interface WorkerError {
  name: string;
  message: string;
  /** 1-based line in the model's code, when known. */
  line?: number;
}

export type FromWorker =
  | { type: 'call'; id: number; name: string; args: unknown[] }
  | { type: 'ready' }
  | { type: 'log'; line: string }
  | { type: 'done'; ok: true; value: unknown }
  | { type: 'done'; ok: false; error: WorkerError };

export type ToWorker =
  { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; error: string; code?: string };

const port = parentPort!;
const input = workerData as WorkerInput;

// Keep what this file needs before the realm is frozen and its dangerous globals are removed.
const post = (msg: FromWorker): void => port.postMessage(msg);
const realSetTimeout = setTimeout;

lockdown({ errorTaming: 'unsafe', reporting: 'none', stackFiltering: 'verbose', overrideTaming: 'severe', consoleTaming: 'unsafe' });

// Defence in depth: even if code escaped the Compartment into this realm, it finds no process,
// network or module loader here. (Node's internals hold their own references.)
for (const name of [
  'process',
  'fetch',
  'Buffer',
  'WebSocket',
  'EventSource',
  'XMLHttpRequest',
  'require',
  'module',
  'global',
  'navigator',
  'WebAssembly',
  'SharedArrayBuffer',
  'Atomics',
]) {
  try {
    delete (globalThis as Record<string, unknown>)[name];
  } catch {
    /* non-configurable: leave it */
  }
}

const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let nextId = 0;

port.on('message', (msg: ToWorker) => {
  if (msg?.type !== 'reply') return;
  const p = pending.get(msg.id);
  if (!p) return;
  pending.delete(msg.id);
  if (msg.ok) p.resolve(harden(msg.value));
  else p.reject(msg.code === undefined ? new Error(msg.error) : Object.assign(new Error(msg.error), { code: msg.code }));
});

function stub(name: string): (...args: unknown[]) => Promise<unknown> {
  // A named async function so stack traces and `String(fn)` look ordinary to the model's code.
  return {
    async [name](...args: unknown[]): Promise<unknown> {
      const id = ++nextId;
      const result = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      try {
        post({ type: 'call', id, name, args });
      } catch (err) {
        pending.delete(id);
        throw new TypeError(
          `${name}: arguments must be plain data (numbers, strings, booleans, arrays, objects): ${(err as Error).message}`,
        );
      }
      return result;
    },
  }[name]!;
}

const skills: Record<string, unknown> = {};
for (const name of input.skillNames) skills[name] = stub(name);

const text = (v: unknown): string => {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

const globals: Record<string, unknown> = {
  ...skills,
  skills: { ...skills },
  console: { log: (...a: unknown[]) => post({ type: 'log', line: a.map(text).join(' ') }) },
  sleep: (ms: unknown) => new Promise<void>((resolve) => realSetTimeout(resolve, Math.max(0, Math.min(Number(ms) || 0, 2 ** 31 - 1)))),
};
const compartment = new Compartment({ __options__: true, globals: harden(globals) });

// SES reads an unknown global as `undefined`, which hides typos from the model ("got " + m works).
// Put a prototype under the Compartment's global object that throws the usual ReferenceError for
// names found nowhere else (Object.prototype's members and symbols read through as before).
const ObjectPrototype = Object.prototype;
const undefinedNames = new Proxy(Object.create(ObjectPrototype) as object, {
  has: () => true,
  get(_target, prop, receiver) {
    if (typeof prop === 'symbol' || prop in ObjectPrototype) return Reflect.get(ObjectPrototype, prop, receiver);
    throw new ReferenceError(`${prop} is not defined`);
  },
});
Object.setPrototypeOf(compartment.globalThis, undefinedNames);

/** 1-based line of the model's code from a stack trace of code evaluated in the compartment. */
function lineOf(err: unknown): number | undefined {
  const stack = typeof (err as { stack?: unknown })?.stack === 'string' ? (err as { stack: string }).stack : '';
  const m = stack.match(/<anonymous>:(\d+):\d+\)?/);
  if (!m) return undefined;
  const line = Number(m[1]) - input.lineOffset;
  return line >= 1 ? line : undefined;
}

function describe(err: unknown): WorkerError {
  if (err instanceof Error) {
    const line = lineOf(err);
    return { name: err.name, message: err.message, ...(line !== undefined ? { line } : {}) };
  }
  return { name: 'Error', message: `thrown value: ${text(err)}` };
}

function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return text(value);
  }
}

async function main(): Promise<void> {
  post({ type: 'ready' });
  try {
    const value = await compartment.evaluate(input.code);
    post({ type: 'done', ok: true, value: cloneable(value) });
  } catch (err) {
    post({ type: 'done', ok: false, error: describe(err) });
  }
}

void main();
