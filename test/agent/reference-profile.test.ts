/**
 * A MINDcraft-style profile (test/fixtures/mindcraft-profiles/andy.json) running end to end: its
 * unused keys named at start-up, its own examples chosen by its embedding model, reasoning kept
 * out of the parser and the chat but in the run record, and `!newAction` code written by its
 * `code_model` with its coding examples.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { loadMergedProfile, settingsSchema } from '../../src/settings/index.ts';
import type { RequestEvent, RunEvent } from '../../src/tasks/eval/records.ts';
import { connectBot, waitUntil } from '../helpers/world.ts';
import { hashVector, startFakeVendor, type FakeVendorServer, type VendorRequest } from '../helpers/fake-vendors.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/mindcraft-profiles/andy.json', import.meta.url));
const botsDir = mkdtempSync(path.join(tmpdir(), 'reference-profile-'));
const lines: string[] = [];
const events: RunEvent[] = [];
const whispered: string[] = [];
let chat: FakeVendorServer;
let code: FakeVendorServer;
let running: RunningBots;
let steve: Bot;

/** The latest user text of a chat request. */
const lastUser = (r: VendorRequest): string =>
  String(r.body?.messages?.filter((m: { role: string }) => m.role === 'user').at(-1)?.content ?? '');
/** Vectors where "hole"/"dig" and "wood"/"log" are one concept each (deterministic otherwise). */
const vector = (text: string): number[] => [
  /\b(hole|dig|digs|deep)\b/i.test(text) ? 5 : 0,
  /\b(wood|log|birch_log)\b/i.test(text) ? 5 : 0,
  ...hashVector(text)
    .slice(0, 2)
    .map((x) => x / 10),
];

beforeAll(async () => {
  chat = await startFakeVendor('openai', {
    embed: vector,
    reply: (r) =>
      lastUser(r).includes('how are you')
        ? '<think>I could !stop everything, but a stats check is better.</think>Fine, thanks. !stats'
        : 'All good here.',
  });
  code = await startFakeVendor('deepseek', { reply: () => "```js\nreturn 'dug a hole';\n```" });
  const andy = await loadMergedProfile(FIXTURE);
  running = await startAgents({
    settings: settingsSchema.parse({
      world: 'superflat',
      chat_bot_messages: false,
      allow_insecure_coding: true,
      bot_transport: 'in-process',
      min_model_interval_ms: 0,
    }),
    profiles: [
      {
        ...andy,
        cooldown: 0,
        model: { api: 'openai', model: 'gpt-4o-mini', url: chat.url },
        code_model: { api: 'deepseek', model: 'deepseek-coder', url: code.url },
        embedding: { api: 'openai', url: chat.url },
      },
    ],
    port: 0,
    env: { ...chat.env, ...code.env, GEMINI_API_KEY: 'unused' },
    botsDir,
    log: (line) => lines.push(line),
    events: { emit: (event) => events.push(event) },
  });
  steve = await connectBot(running.server!, 'Steve');
  steve.on('whisper', (from, text) => {
    whispered.push(`${from}: ${text}`);
  });
});

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await chat?.close();
  await code?.close();
  rmSync(botsDir, { recursive: true, force: true });
});

test('start-up names the profile keys that are accepted but not acted on, once', () => {
  expect(lines.filter((l) => l.includes('not acted on'))).toEqual([
    'Profile keys accepted but not acted on: mcp_tool_usage (andy), max_tokens (andy).',
  ]);
  expect(running.agents[0]!.codeModel.id).toBe('deepseek/deepseek-coder');
  expect(running.agents[0]!.visionModel.id).toBe('google/gemini-2.5-flash');
});

test('reasoning never reaches the parser or the chat, and the run record keeps it', async () => {
  const andy = running.agents[0]!;
  steve.whisper('andy', 'hey andy, how are you?');
  await waitUntil(() => whispered.some((l) => l === 'andy: All good here.'), 'andy answers after its !stats', { state: () => whispered });
  await andy.idle();
  expect(andy.commandLog).toEqual(['!stats']);
  expect(whispered).toContain('andy: Fine, thanks.');
  expect(whispered.join('\n')).not.toMatch(/think|!stop/);
  const request = events.find((e): e is RequestEvent => e.type === 'request' && e.reply === 'Fine, thanks. !stats');
  expect(request?.reasoning).toBe('I could !stop everything, but a stats check is better.');
  // The profile's own examples, chosen by its embedding model (the chat server's /embeddings).
  const conversing = chat.requests.find((r) => r.path.endsWith('/chat/completions'))!;
  const prompt = conversing.body.messages.map((m: { content: string }) => m.content).join('\n');
  expect(prompt).toMatch(/lumberjack_7|warden_fan|mika|pim/);
  expect(prompt).not.toContain('$MCP_TOOL_USAGE');
  expect(chat.requests.some((r) => r.path.endsWith('/embeddings') && r.body.model === 'text-embedding-3-small')).toBe(true);
});

test("!newAction code comes from the profile's code_model, with its coding example closest to the task", async () => {
  const andy = running.agents[0]!;
  steve.whisper('andy', '!newAction("dig a hole here")');
  await waitUntil(() => whispered.some((l) => l.includes('dug a hole')), 'andy reports what the code returned', { state: () => whispered });
  await andy.idle();
  expect(code.requests).toHaveLength(1);
  const system = code.requests[0]!.body.messages[0].content as string;
  expect(system).toContain('mika: dig a 2 deep hole');
  // Both coding examples fit (num_examples 2): the closer one comes first.
  expect(system.indexOf('rolo: light up this spot')).toBeGreaterThan(system.indexOf('mika: dig a 2 deep hole'));
  expect(code.requests[0]!.body.model).toBe('deepseek-coder');
});
