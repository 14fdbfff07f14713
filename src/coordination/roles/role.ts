/**
 * An LLM role as a typed call: a prompt builder, a zod schema for the answer, JSON extraction from
 * what models write (`./json.ts`), checks of meaning (known agents, ready nodes, no cycle), a
 * bounded retry that gives the problem back to the model, and a time bound per model call.
 *
 * A role call never throws for what the model answered, nor for a model that fails, hangs or is
 * cancelled: it resolves with `{ ok: false, reason, kind }` after its tries.
 *
 * One call's conversation: the prompt as a user turn; after a bad answer, that answer as an
 * assistant turn and a user turn saying what was wrong and what to write instead, then the next
 * try. A timeout or a model error ends the call at once (providers already retry their transport
 * errors within their own time bound; a hung model is not asked again).
 */
import type { z } from 'zod';
import { isAbortError, type ChatModel, type ChatTurn } from '../../models/types.ts';
import { abortable } from '../../util/abort.ts';
import { extractJson } from './json.ts';
import type { RoleName, RoleStats } from './stats.ts';

/** What a role is: its prompts, the shape of its answer and the checks of its meaning. */
export interface RoleSpec<I, O> {
  name: RoleName;
  /** The static system prompt (the same on every call of the role). */
  system: string;
  /** The user turn for `input`. */
  prompt(input: I): string;
  /** The answer's shape after extraction; its output is the role's value. */
  schema: z.ZodType<O>;
  /** The top-level JSON kind the answer should be. */
  expect: 'array' | 'object';
  /** Problems of meaning (unknown ids, cycles, …); empty when the value is usable. */
  check?(value: O, input: I): string[];
  /**
   * Reads an answer that has no JSON as prose (a summary is often written as plain text); return
   * undefined to treat it as an answer without JSON.
   */
  prose?(text: string): unknown;
  /** A correct answer's form, shown to the model after a bad answer. */
  example: string;
}

/** How a role is called. */
export interface RoleCall {
  model: ChatModel;
  /** Where tokens and calls are counted. */
  stats?: RoleStats;
  /** Tries after the first when the answer is unusable (default 2). */
  retries?: number;
  /** Bound on each model call, ms (default 60 000). */
  timeoutMs?: number;
  /** Cancels the call (then `{ ok: false, kind: 'aborted' }`). */
  signal?: AbortSignal;
  /** Upper bound on generated tokens per model call. */
  maxTokens?: number;
}

/** Why a role call failed. */
export type RoleFailure = 'invalid' | 'timeout' | 'model' | 'aborted';

/** A role call's result. `attempts` counts model calls; `text` is the last answer. */
export type RoleResult<O> =
  | { ok: true; value: O; attempts: number; text: string }
  | { ok: false; reason: string; kind: RoleFailure; attempts: number; text?: string };

/** Default tries after the first. */
export const DEFAULT_RETRIES = 2;
/** Default bound on one model call, ms. */
export const DEFAULT_ROLE_TIMEOUT_MS = 60_000;

/**
 * Calls `spec` with `input`.
 *
 * @example
 * const r = await callRole(reflectRole, { task: 'Collect 3 oak_log', history: ['!collectBlocks("oak_log", 3): got 3'] }, { model });
 * if (r.ok) graph.finish(id, r.value.success ? 'success' : 'failure', r.value.summary);
 */
export async function callRole<I, O>(spec: RoleSpec<I, O>, input: I, call: RoleCall): Promise<RoleResult<O>> {
  const retries = Math.max(0, call.retries ?? DEFAULT_RETRIES);
  const timeoutMs = call.timeoutMs ?? DEFAULT_ROLE_TIMEOUT_MS;
  const turns: ChatTurn[] = [{ role: 'user', content: spec.prompt(input) }];
  let attempts = 0;
  let lastText: string | undefined;
  const fail = (reason: string, kind: RoleFailure): RoleResult<O> => {
    call.stats?.add(spec.name, { failures: 1 });
    return lastText === undefined ? { ok: false, reason, kind, attempts } : { ok: false, reason, kind, attempts, text: lastText };
  };
  for (;;) {
    if (call.signal?.aborted) return fail(`${spec.name}: cancelled`, 'aborted');
    attempts++;
    call.stats?.add(spec.name, attempts > 1 ? { calls: 1, retries: 1 } : { calls: 1 });
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timer.signal]) : timer.signal;
    const started = Date.now();
    let text: string;
    try {
      const request = call.model.complete({
        system: spec.system,
        turns: [...turns],
        signal,
        purpose: spec.name,
        ...(call.maxTokens ? { maxTokens: call.maxTokens } : {}),
        onUsage: (u) => call.stats?.usage(spec.name, u),
      });
      text = await abortable(request, signal);
    } catch (err) {
      if (call.signal?.aborted) return fail(`${spec.name}: cancelled`, 'aborted');
      if (timer.signal.aborted) {
        call.stats?.add(spec.name, { timeouts: 1 });
        return fail(`${spec.name}: the model gave no answer within ${timeoutMs} ms`, 'timeout');
      }
      const message = err instanceof Error ? err.message : String(err);
      return fail(`${spec.name}: the model failed: ${message}`, isAbortError(err) ? 'aborted' : 'model');
    } finally {
      clearTimeout(timeout);
      call.stats?.add(spec.name, { ms: Date.now() - started });
    }
    lastText = text;
    const problems = read(spec, input, text);
    if ('value' in problems) return { ok: true, value: problems.value, attempts, text };
    const reason = problems.problems.join('; ');
    if (attempts > retries)
      return fail(`${spec.name}: no usable answer after ${attempts} ${attempts === 1 ? 'try' : 'tries'}: ${reason}`, 'invalid');
    turns.push({ role: 'assistant', content: text });
    turns.push({
      role: 'user',
      content: `That answer cannot be used: ${reason}.\nAnswer again with only the JSON, in this form:\n${spec.example}`,
    });
  }
}

/** The role's value from one answer, or its problems. */
function read<I, O>(spec: RoleSpec<I, O>, input: I, text: string): { value: O } | { problems: string[] } {
  let raw: unknown;
  const extracted = extractJson(text, spec.expect);
  if (extracted.ok) raw = extracted.value;
  else {
    raw = spec.prose?.(text);
    if (raw === undefined) return { problems: [extracted.reason] };
  }
  const parsed = spec.schema.safeParse(raw);
  if (!parsed.success) return { problems: parsed.error.issues.slice(0, 6).map(formatIssue) };
  const problems = spec.check?.(parsed.data, input) ?? [];
  return problems.length ? { problems } : { value: parsed.data };
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length
    ? issue.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')
    : 'the answer';
  return `${path}: ${issue.message}`;
}
