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
    const result = await writeAndRunCode({ model, task: 'collect 3 oak logs and tell me', skillsDoc: SKILLS_DOC, skills, timeoutMs: 5000 });

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

  test('a timeout is fed back as an error', async () => {
    fake.enqueue('```js\nwhile (true) {}\n```', '```js\nreturn "ok";\n```');
    const model = createModel(fake.spec(), { env: fake.env, maxRetries: 0 });
    const result = await writeAndRunCode({ model, task: 't', skillsDoc: SKILLS_DOC, skills: {}, timeoutMs: 500 });
    expect(result.ok).toBe(true);
    expect(result.attempts[0]?.result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(fake.requests.at(-1)!.call!.lastUserMessage).toContain('time limit');
  });

  test('model errors propagate as ModelError', async () => {
    fake.enqueue({ status: 400, message: 'prompt too long' });
    const model = createModel(fake.spec(), { env: fake.env, maxRetries: 0 });
    await expect(writeAndRunCode({ model, task: 't', skillsDoc: '', skills: {} })).rejects.toBeInstanceOf(ModelError);
  });
});
