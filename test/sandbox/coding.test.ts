/** writeAndRunCode against a fake provider speaking the real wire protocols. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createModel, ModelError } from '../../src/models/index.ts';
import { extractCode, writeAndRunCode } from '../../src/sandbox/coding.ts';
import type { SkillTable } from '../../src/sandbox/runner.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';

const SKILLS_DOC = 'collectBlocks(type, n): collect n blocks of type\nsay(text): chat';

function skillsWithLog(): { skills: SkillTable; log: string[] } {
  const log: string[] = [];
  return {
    log,
    skills: {
      async collectBlocks(type: string, n: number) {
        log.push(`collect ${type} ${n}`);
        return `collected ${n} ${type}`;
      },
      async say(text: string) {
        log.push(`say ${text}`);
      },
    },
  };
}

describe('extractCode', () => {
  test('takes the first js/javascript/bare fenced block, and an unterminated one', () => {
    expect(extractCode('Sure!\n```js\nawait say("hi");\n```\nDone.')).toBe('await say("hi");');
    expect(extractCode('```javascript\nreturn 1;\n```\n```js\nreturn 2;\n```')).toBe('return 1;');
    expect(extractCode('```\nreturn 3;\n```')).toBe('return 3;');
    expect(extractCode('```js\nreturn 4;')).toBe('return 4;');
    expect(extractCode('I will collect wood now.')).toBeUndefined();
    expect(extractCode('```js\n\n```')).toBeUndefined();
  });
});

describe.each(['anthropic', 'openai'] as const)('writeAndRunCode via %s', (protocol) => {
  let fake: FakeProviderServer;
  beforeAll(async () => {
    fake = await startFakeProvider(protocol);
  });
  afterAll(async () => {
    await fake.close();
  });

  test('a broken first reply gets its error back; the fixed second reply runs', async () => {
    const before = fake.requests.length;
    fake.enqueue(
      'Here you go:\n```js\nconst n = await collectBlocks("oak_log", 3);\nawait say("got " + m);\nreturn n;\n```',
      'Oops, fixed:\n```js\nconst n = await collectBlocks("oak_log", 3);\nawait say("got wood");\nreturn n;\n```',
    );
    const { skills, log } = skillsWithLog();
    const model = createModel(fake.spec(), { env: fake.env, maxRetries: 0 });
    const result = await writeAndRunCode({
      model,
      task: 'collect 3 oak logs and tell me',
      skillsDoc: SKILLS_DOC,
      skills,
      timeoutMs: 60_000,
    });

    expect(result.ok).toBe(true);
    expect(result.value).toBe('collected 3 oak_log');
    expect(result.message).toBe('Code ran: collected 3 oak_log');
    expect(result.attempts).toHaveLength(2);
    expect(result.attempts[0]!.result).toMatchObject({ ok: false, error: { kind: 'runtime', line: 2 } });
    // The first run collected before failing; the second collected and spoke.
    expect(log).toEqual(['collect oak_log 3', 'collect oak_log 3', 'say got wood']);

    const calls = fake.requests.slice(before).map((r) => r.call!);
    expect(calls).toHaveLength(2);
    const [first, second] = [calls[0]!, calls[1]!];
    expect(first.system).toContain('collectBlocks(type, n): collect n blocks of type');
    expect(first.lastUserMessage).toBe('Write code to: collect 3 oak logs and tell me');
    // Second request: the task, the broken code as the assistant turn, then the error as feedback.
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages[1]!.content).toContain('await say("got " + m);');
    expect(second.lastUserMessage).toMatch(/^Your code failed: ReferenceError: .*m.* \(line 2\)/);
  });

  test('gives up after maxAttempts with the last error; replies without code cost an attempt', async () => {
    const before = fake.requests.length;
    fake.enqueue('I would rather chat.', '```js\nif (true {\n```', '```js\nawait skills.fly(3);\n```');
    const { skills, log } = skillsWithLog();
    const model = createModel(fake.spec(), { env: fake.env, maxRetries: 0 });
    const result = await writeAndRunCode({ model, task: 'fly', skillsDoc: SKILLS_DOC, skills, maxAttempts: 3, timeoutMs: 5000 });
    expect(result.ok).toBe(false);
    expect(result.attempts.map((a) => (a.result?.ok === false ? a.result.error.kind : 'none'))).toEqual(['none', 'syntax', 'lint']);
    expect(result.message).toMatch(/^Code failed after 3 attempts: unknown skill skills\.fly/);
    expect(fake.requests.length - before).toBe(3);
    expect(fake.requests.at(-2)!.call!.lastUserMessage).toContain('no code');
    expect(fake.requests.at(-1)!.call!.lastUserMessage).toMatch(/^Your code was not run: SyntaxError/);
    expect(log).toEqual([]);
  });

  test('a run that timed out is not tried again: the model is not asked for another', async () => {
    // One reply only: asking again would get the fake's 500 (no reply scripted) and throw.
    fake.enqueue('```js\nwhile (true) {}\n```');
    const model = createModel(fake.spec(), { env: fake.env, maxRetries: 0 });
    const before = fake.requests.length;
    const started = Date.now();
    const result = await writeAndRunCode({ model, task: 't', skillsDoc: SKILLS_DOC, skills: {}, timeoutMs: 1500 });
    expect(result.ok).toBe(false);
    expect(result.attempts).toHaveLength(1);
    expect(result.message).toMatch(
      /^Code stopped: the time limit of 1\.5 s for the whole !newAction ran out after 1 attempt \(code_timeout_s\); it is not tried again/,
    );
    expect(fake.requests.length - before).toBe(1);
    expect(Date.now() - started).toBeLessThan(1500 + 2000);
  });

  test('the time limit bounds every attempt together: model calls, sandbox starts and runs', async () => {
    // Each reply's code fails after 600 ms; each model call takes 200 ms. Five attempts would take about 4 s.
    fake.setHandler(() => ({ text: '```js\nawait sleep(600);\nthrow new Error("again");\n```', delayMs: 200 }));
    const model = createModel(fake.spec(), { env: fake.env, maxRetries: 0 });
    const started = Date.now();
    const result = await writeAndRunCode({ model, task: 't', skillsDoc: SKILLS_DOC, skills: {}, timeoutMs: 2000, maxAttempts: 5 });
    const took = Date.now() - started;
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^Code stopped: the time limit of 2 s for the whole !newAction ran out after [1-3] attempts?/);
    expect(result.attempts.length).toBeLessThan(5);
    expect(took).toBeGreaterThanOrEqual(1950);
    expect(took).toBeLessThan(2000 + 1500);
    // A model call under way when the time runs out is cut off too.
    fake.setHandler(() => ({ text: '```js\nreturn 1;\n```', delayMs: 5_000 }));
    const cut = await writeAndRunCode({ model, task: 't', skillsDoc: SKILLS_DOC, skills: {}, timeoutMs: 500 });
    expect(cut).toMatchObject({ ok: false, attempts: [], message: expect.stringMatching(/^Code stopped: the time limit of 0\.5 s/) });
    fake.setHandler(undefined);
  });

  test('model errors propagate as ModelError', async () => {
    fake.enqueue({ status: 400, message: 'prompt too long' });
    const model = createModel(fake.spec(), { env: fake.env, maxRetries: 0 });
    await expect(writeAndRunCode({ model, task: 't', skillsDoc: '', skills: {} })).rejects.toBeInstanceOf(ModelError);
  });
});
