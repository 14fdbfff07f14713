/**
 * flying-squid's readiness without a 5 s deadline that nobody catches.
 *
 * Its server's constructor waits for its plugins and its socket with
 * `Promise.all([onceWithTimeout(this, 'pluginsReady', 5000), onceWithTimeout(this._server, 'listening', 5000)]).then(…)`
 * and no `catch`: on a loaded machine (a test suite's workers, a survival world generating) either
 * may take longer, and the rejection is unhandled (Node's default ends the process; vitest fails
 * the run), while `ready` is never emitted. The replacement waits for those two events without a
 * deadline; the caller bounds the wait for `ready` itself (`waitForReady(ms)`, whose timeout it
 * handles), so a server that never comes up is still reported, once, by the caller.
 *
 * Upstream: docs/upstream/flying-squid.md (here, not in src/upstream/, as the only module outside
 * the server that would touch flying-squid). Must run before `require('flying-squid')`: its index
 * takes `onceWithTimeout` from `./lib/utils` when it loads.
 */
import { createRequire } from 'node:module';
import type { FixStatus } from '../upstream/index.ts';

const require = createRequire(import.meta.url);
const PATCHED = Symbol.for('mindcraft-ts.flying-squid.patientReadiness');

type OnceWithTimeout = ((
  emitter: NodeJS.EventEmitter,
  event: string,
  timeout?: number,
  check?: (...data: unknown[]) => boolean,
) => Promise<unknown[]>) & { [PATCHED]?: true };

/** The constructor's events whose 5 s deadline is dropped. */
const READINESS_EVENTS = new Set(['pluginsReady', 'listening']);

/** Makes flying-squid's constructor wait for its plugins and socket without its uncaught 5 s deadline. */
export function patientReadiness(): FixStatus {
  const utils = require('flying-squid/src/lib/utils') as { onceWithTimeout?: OnceWithTimeout };
  const original = utils.onceWithTimeout;
  if (!original) return 'not needed';
  if (original[PATCHED]) return 'applied before';
  const patient: OnceWithTimeout = (emitter, event, timeout, check) => {
    if (!READINESS_EVENTS.has(event)) return original(emitter, event, timeout, check);
    return new Promise((resolve) => {
      const on = (...data: unknown[]) => {
        if (check && !check(...data)) return;
        emitter.off(event, on);
        resolve(data);
      };
      emitter.on(event, on);
    });
  };
  patient[PATCHED] = true;
  utils.onceWithTimeout = patient;
  return 'applied';
}
