/**
 * Entry point of the sandbox's child process (see `runner.ts`). Never imported by the parent.
 *
 * The runner starts this file as a separate Node process under an operating-system cap on its
 * whole memory (`ulimit -d`: the heap, array buffers and every other allocation of the process),
 * with V8's JIT off (`--jitless`: no WebAssembly, no code generation), no environment and no
 * stdin. It runs the SES-locked worker thread of `worker.ts` and relays the messages between that
 * thread and the runner unchanged (the IPC channel's `advanced` serialization is the same
 * structured clone as a worker's `postMessage`). Whatever the model's code allocates, it is this
 * process that runs out of memory, never the bot's.
 *
 * Protocol over IPC:
 *   runner → host: first `{type:'start', input, maxHeapMb}` ({@link HostStart}), then the worker's `ToWorker` messages
 *   host → runner: the worker's `FromWorker` messages, and `{type:'host-error', ...}` ({@link HostError}) when the thread fails
 * The host exits when the thread ends or the runner goes away (the IPC channel closes).
 */
import { Worker } from 'node:worker_threads';
import type { WorkerInput } from './worker.ts';

/** The runner's first message. */
export interface HostStart {
  type: 'start';
  input: WorkerInput;
  /** The worker thread's heap limit (MB). */
  maxHeapMb: number;
}

/** The worker thread failed: out of heap, or another error. */
export interface HostError {
  type: 'host-error';
  /** The thread's heap limit was reached (`ERR_WORKER_OUT_OF_MEMORY`). */
  outOfMemory: boolean;
  message: string;
}

/** The last message handed to the IPC channel has gone once this settles. */
let sent: Promise<void> = Promise.resolve();
const send = (message: unknown): void => {
  if (!process.connected) return;
  sent = new Promise((resolve) => process.send?.(message, undefined, {}, () => resolve()));
};

process.on('disconnect', () => process.exit(0));
process.once('message', (start: HostStart) => {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), {
    workerData: start.input,
    env: {},
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: start.maxHeapMb, maxYoungGenerationSizeMb: 16 },
  });
  // The thread's own stdout/stderr (never the model's console.log, which comes as messages) are dropped.
  worker.stdout.resume();
  worker.stderr.resume();
  worker.on('message', send);
  process.on('message', (message) => worker.postMessage(message));
  worker.on('error', (err) => {
    send({
      type: 'host-error',
      outOfMemory: (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY',
      message: err.message,
    } satisfies HostError);
  });
  worker.on('exit', (code) => void sent.then(() => process.exit(code)));
});
