/**
 * The `!newAction` loop: ask the model for JavaScript, check it, run it in the sandbox, and feed
 * syntax, lint and runtime errors back to the model, up to a bounded number of attempts, all
 * within one time limit (`code_timeout_s`).
 */
import type { ChatModel, ChatTurn } from '../models/types.ts';
import { runSandboxed, type SandboxError, type SandboxResult, type SkillTable } from './runner.ts';

/** The default coding system prompt; `$CODE_DOCS` is replaced by the skills doc. */
export const DEFAULT_CODING_PROMPT = [
  'You control a Minecraft bot by writing JavaScript. Reply with exactly one ```js code block: the body of an async function.',
  'Only these async functions exist (also as skills.name); await every call. There is no bot object, no require, no import, no timers except sleep(ms).',
  'Return a short string saying what happened. console.log lines are shown to you. Keep it short and finish quickly.',
  'Skills:',
  '$CODE_DOCS',
].join('\n');

/** One attempt of {@link writeAndRunCode}. */
export interface CodingAttempt {
  /** The model's full reply. */
  reply: string;
  /** The code taken from it, or undefined when the reply had no code block. */
  code: string | undefined;
  /** The run's result; undefined when there was no code to run. */
  result: SandboxResult | undefined;
}

/** The outcome of {@link writeAndRunCode}. */
export interface CodingResult {
  ok: boolean;
  /** What to tell the conversing model, e.g. `Code ran: collected 3 oak_log` or `Code failed after 5 attempts: ...`. */
  message: string;
  /** The value the code returned (successful runs only). */
  value?: unknown;
  /** Every attempt, oldest first. */
  attempts: CodingAttempt[];
}

/** Options of {@link writeAndRunCode}. */
export interface WriteAndRunOptions {
  model: ChatModel;
  /** What the code should do, in words (the `!newAction` prompt). */
  task: string;
  /** The skills' documentation shown to the model (signatures and one-line descriptions). */
  skillsDoc: string;
  /** The functions the code may call (see {@link runSandboxed}). */
  skills: SkillTable;
  /** Model calls at most (default 5). */
  maxAttempts?: number;
  /**
   * Time limit of the whole `!newAction`, in ms (default 300 000): every model call, sandbox
   * start and run of every attempt. When it runs out, whatever is running stops and nothing is
   * tried again.
   */
  timeoutMs?: number;
  /** Stops everything: the model request and the running code. */
  signal?: AbortSignal;
  /** Conversation turns shown before the task (recent chat), oldest first. Default none. */
  context?: ChatTurn[];
  /** System prompt template with `$CODE_DOCS`; default {@link DEFAULT_CODING_PROMPT}. */
  systemPrompt?: string;
  /** Passed to {@link runSandboxed}. Default `['say']`. */
  chatSkills?: readonly string[];
}

/**
 * The code from a model reply: the first ```js / ```javascript / ``` fenced block; undefined if
 * there is none (an unterminated final fence counts, since replies get cut at max_tokens).
 */
export function extractCode(reply: string): string | undefined {
  const m = /```[ \t]*(?:js|javascript|ts|typescript)?[ \t]*\r?\n([\s\S]*?)(?:```|$)/i.exec(reply);
  if (!m) return undefined;
  const code = m[1]!.replace(/\s+$/, '');
  return code.trim() ? code : undefined;
}

function preview(value: unknown): string {
  if (value === undefined) return 'no return value';
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

function outputText(output: string[]): string {
  if (output.length === 0) return '';
  const shown = output.length > 12 ? [...output.slice(0, 4), '…', ...output.slice(-7)] : output;
  return `\nOutput:\n${shown.join('\n')}`;
}

function feedback(error: SandboxError, output: string[]): string {
  const what = error.kind === 'syntax' || error.kind === 'lint' ? 'Your code was not run' : 'Your code failed';
  return `${what}: ${error.message}${outputText(output)}\nFix it and reply with the whole corrected code in one \`\`\`js block.`;
}

/**
 * Asks `model` for code that does `task`, runs it in the sandbox, and on a syntax, lint or
 * runtime error sends the error back and asks again, up to `maxAttempts` model calls. A reply
 * without a code block also costs an attempt. `timeoutMs` bounds the whole of it: a run that
 * timed out, or a model call or run under way when the time is up, ends the loop (a timed-out
 * run is not tried again: each try would hold a core as long). Aborted runs are not retried.
 *
 * @returns a {@link CodingResult}; `message` is ready to show the conversing model.
 * @throws {ModelError} when the model request fails; {@link ModelAbortError} when `signal` aborts
 *   during a model request.
 */
export async function writeAndRunCode(options: WriteAndRunOptions): Promise<CodingResult> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const limitMs = options.timeoutMs ?? 300_000;
  const system = (options.systemPrompt ?? DEFAULT_CODING_PROMPT).replaceAll('$CODE_DOCS', options.skillsDoc);
  const turns: ChatTurn[] = [...(options.context ?? []), { role: 'user', content: `Write code to: ${options.task}` }];
  const attempts: CodingAttempt[] = [];
  let lastProblem = '';
  // One deadline for everything; it stops the model call or the run under way.
  const deadline = new AbortController();
  const endsAt = Date.now() + limitMs;
  const timer = setTimeout(() => deadline.abort(), limitMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  const timedOut = (): CodingResult => ({
    ok: false,
    attempts,
    message: `Code stopped: the time limit of ${seconds(limitMs)} for the whole !newAction ran out after ${attempts.length} attempt${attempts.length === 1 ? '' : 's'} (code_timeout_s); it is not tried again.${lastProblem ? ` Last problem: ${lastProblem}` : ''}`,
  });
  try {
    for (let i = 0; i < maxAttempts; i++) {
      let reply: string;
      try {
        reply = await options.model.complete({ system, turns, signal, purpose: 'coding' });
      } catch (err) {
        if (deadline.signal.aborted && !options.signal?.aborted) return timedOut();
        throw err;
      }
      const step = await attempt(reply);
      if (step) return step;
    }
  } finally {
    clearTimeout(timer);
  }
  const n = attempts.length;
  return { ok: false, attempts, message: `Code failed after ${n} attempt${n === 1 ? '' : 's'}: ${lastProblem}` };

  /** Runs one reply's code; a result ends the loop, undefined asks again. */
  async function attempt(reply: string): Promise<CodingResult | undefined> {
    turns.push({ role: 'assistant', content: reply });
    const code = extractCode(reply);
    if (code === undefined) {
      attempts.push({ reply, code, result: undefined });
      lastProblem = 'the reply had no ```js code block';
      turns.push({ role: 'user', content: 'Your reply had no code. Reply with one ```js code block.' });
      return undefined;
    }
    const result = await runSandboxed(code, {
      skills: options.skills,
      timeoutMs: Math.max(1, endsAt - Date.now()),
      signal,
      chatSkills: options.chatSkills,
    });
    attempts.push({ reply, code, result });
    if (result.ok) {
      return { ok: true, value: result.value, attempts, message: `Code ran: ${preview(result.value)}${outputText(result.output)}` };
    }
    if (result.error.kind === 'timeout' || (result.error.kind === 'aborted' && deadline.signal.aborted && !options.signal?.aborted)) {
      lastProblem = 'the code was still running';
      return { ...timedOut(), message: `${timedOut().message}${outputText(result.output)}` };
    }
    if (result.error.kind === 'aborted') {
      return { ok: false, attempts, message: `Code stopped: ${result.error.message}${outputText(result.output)}` };
    }
    lastProblem = result.error.message;
    turns.push({ role: 'user', content: feedback(result.error, result.output) });
    return undefined;
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
