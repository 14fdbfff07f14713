/**
 * The agent loop on the embedded server with scripted models: the goal loop, conversations
 * pausing it, background summaries, !newAction, interrupted actions, and agents replaced on
 * their bots (warm worlds).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Agent } from '../../src/agent/agent.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import type { RunEvent } from '../../src/tasks/eval/records.ts';
import { profileSchema, settingsSchema } from '../../src/settings/index.ts';
import { connectBot, waitUntil } from '../helpers/world.ts';
import { startFakeProvider, type FakeChatCall, type FakeProviderServer, type FakeReply } from '../helpers/fake-providers.ts';

const NUDGE = 'working on your goal';
let running: RunningBots;
let steve: Bot;
let fake: FakeProviderServer;
let andy: Agent;
const botsDir = mkdtempSync(path.join(tmpdir(), 'agent-loop-'));
const whispered: string[] = [];
const heard: string[] = [];
const script: Record<string, (call: FakeChatCall) => FakeReply | Promise<FakeReply>> = {};
/** What the agents were sent, as recorded for run logs. */
const received: string[] = [];

/**
 * Steve whispers Andy and waits for the answer: a sign that Andy has handled everything that came
 * before (his inbox is one queue) and gone idle again, which re-arms a goal loop that still runs.
 */
async function whisperRoundTrip(text: string, answer: string): Promise<void> {
  const n = whispered.length;
  steve.whisper('Andy', text);
  await waitUntil(() => whispered.slice(n).includes(`Andy: ${answer}`), `Andy answers "${text}" with "${answer}"`, {
    state: () => whispered.slice(n),
  });
  await andy.idle();
}

const botOf = (call: FakeChatCall | undefined) => /^You are (\w+)/.exec(call?.system ?? '')?.[1];
/** Conversing requests of Andy (not summaries, not code). */
const andyCalls = () =>
  fake.requests.map((r) => r.call!).filter((c) => botOf(c) === 'Andy' && c.system.includes('Use only these commands:'));
const nudges = () => andyCalls().filter((c) => c.lastUserMessage.includes(NUDGE));

beforeAll(async () => {
  fake = await startFakeProvider('openai', {
    handler: (call) => {
      const bot = botOf(call) ?? '';
      const kind = call.system.includes('Update your memory') ? 'summary' : call.system.includes('Skills:') ? 'coding' : bot;
      const fn = script[kind];
      if (!fn) throw new Error(`no script for ${kind}`);
      return fn(call);
    },
  });
  running = await startAgents({
    settings: settingsSchema.parse({
      world: 'superflat',
      chat_bot_messages: false,
      goal_idle_ms: 300,
      max_messages: 8,
      allow_insecure_coding: true,
      convo_reply_delay_ms: 50,
      bot_transport: 'in-process',
    }),
    profiles: [
      profileSchema.parse({ name: 'Andy', model: fake.spec('gpt-test', 'openai') }),
      profileSchema.parse({ name: 'Jill', model: fake.spec('gpt-test', 'openai') }),
    ],
    port: 0,
    env: fake.env,
    botsDir,
    log: () => {},
    events: {
      emit: (event: RunEvent) => {
        if (event.type === 'message' && event.direction === 'received') received.push(`${event.agent} <- ${event.peer}: ${event.text}`);
      },
    },
  });
  andy = running.agents[0]!;
  steve = await connectBot(running.server!, 'Steve');
  steve.on('whisper', (from, text) => {
    whispered.push(`${from}: ${text}`);
  });
  steve.on('chat', (from, text) => {
    heard.push(`${from}: ${text}`);
  });
  script.summary = () => 'Memory kept short.';
});

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await fake?.close();
  rmSync(botsDir, { recursive: true, force: true });
});

beforeEach(() => {
  andy.endGoal();
  andy.clearHistory();
});

test('the goal loop self-prompts when idle, runs the commands it gets, and stops after 3 replies in a row without a command', async () => {
  let cycle = 0;
  script.Andy = (call) => {
    if (!call.lastUserMessage.includes(NUDGE)) return 'That step is done.';
    cycle++;
    return cycle === 1 ? 'Checking. !stats' : 'Hmm, let me think about it.';
  };
  const before = nudges().length;
  steve.whisper('Andy', '!goal("check my stats")');
  await waitUntil(() => whispered.some((l) => l.startsWith('Andy: Goal set: check my stats')), 'Andy confirms the goal');
  await waitUntil(
    () => heard.some((l) => /Andy: I stopped working on my goal/.test(l)),
    'Andy gives up after 3 command-less replies',
    20_000,
  );
  expect(andy.selfPrompter.state).toBe('stopped');
  const mine = nudges().slice(before);
  expect(mine).toHaveLength(4); // one with a command, then three without
  expect(mine[0]!.live).toContain('Your goal: check my stats');
  // Prompt caching: every call of the bot sends the same static system prompt, byte for byte,
  // and each call's text starts with the previous call's up to its last message (the nudge and
  // the live state, which come last, are not kept).
  expect(new Set(mine.map((c) => c.system)).size).toBe(1);
  const text = (messages: Array<{ role: string; content: string }>) => messages.map((m) => `${m.role}:${m.content}`).join('\u0000');
  for (let i = 1; i < mine.length; i++) {
    expect(text(mine[i]!.body.messages).startsWith(text(mine[i - 1]!.body.messages.slice(0, -1)))).toBe(true);
  }
  expect(andy.commandLog.at(-1)).toBe('!stats');
  // The nudge is shown to the model but not kept in the history.
  expect(andy.history.some((t) => t.content.includes(NUDGE))).toBe(false);
  // Stopped for good: going idle after new work does not start it again.
  await whisperRoundTrip('still there?', 'That step is done.');
  expect(andy.selfPrompter.state).toBe('stopped');
  expect(nudges().length - before).toBe(4);
});

test('the goal loop pauses while a conversation is open and resumes when it ends; !endGoal and !stop end it', async () => {
  script.Andy = (call) => {
    if (call.lastUserMessage.includes(NUDGE)) return '!stats';
    if (call.lastUserMessage.includes('Jill (a bot)')) return 'Bye Jill! !endConversation("Jill")';
    return 'ok';
  };
  script.Jill = () => ({ text: 'Hello Andy, nice to meet you.', delayMs: 1200 });
  const before = nudges().length;
  andy.setGoal('keep checking stats');
  expect(await andy.startConversation('Jill', 'Hi Jill!')).toBe('Started a conversation with Jill.');
  await waitUntil(() => andy.selfPrompter.state === 'paused', 'the goal loop pauses for the conversation');
  expect(nudges().length).toBe(before);
  await waitUntil(() => andy.conversations.active === undefined, 'Andy ends the conversation', 15_000);
  const ended = Date.now();
  await waitUntil(() => nudges().length > before, 'the goal loop resumes', 10_000);
  const resumed = nudges()[before]!;
  expect(resumed.live).toContain('Your goal: keep checking stats');
  expect(resumed.live).not.toContain('(paused');
  expect(Date.now() - ended).toBeGreaterThanOrEqual(250); // after the idle delay, not at once
  steve.whisper('Andy', '!endGoal');
  await waitUntil(
    () => whispered.some((l) => l.startsWith('Andy: Stopped working on the goal: keep checking stats')),
    'Andy ends the goal',
  );
  expect(andy.selfPrompter.state).toBe('stopped');
  await andy.idle();
  const after = nudges().length;
  await whisperRoundTrip('are you done?', 'ok');
  expect(andy.selfPrompter.state).toBe('stopped');
  expect(nudges().length).toBe(after);

  andy.setGoal('keep checking stats');
  await waitUntil(() => nudges().length > after, 'the goal loop runs again');
  const beforeStop = whispered.length;
  steve.whisper('Andy', '!stop');
  await waitUntil(() => andy.selfPrompter.state === 'stopped', '!stop ends the goal loop');
  await waitUntil(() => whispered.slice(beforeStop).includes('Andy: Stopped.'), 'Andy confirms the stop');
  await andy.idle();
  const stopped = nudges().length;
  await whisperRoundTrip('stopped?', 'ok');
  expect(andy.selfPrompter.state).toBe('stopped');
  expect(nudges().length).toBe(stopped);
});

test("a slow summary runs in the background: the bot answers while it is pending, and its result becomes the prompt's memory", async () => {
  let summaryAsked = 0;
  script.summary = () => {
    const first = !summaryAsked;
    summaryAsked ||= Date.now();
    return { text: 'Steve asked many questions about wood.', delayMs: first ? 4000 : 0 };
  };
  script.Andy = (call) => `Answer to: ${call.lastUserMessage.slice(0, 40)}`;
  for (let i = 1; !summaryAsked; i++) {
    expect(i).toBeLessThan(10);
    const n = whispered.length;
    steve.whisper('Andy', `question ${i}`);
    await waitUntil(() => whispered.length > n, `answer ${i}`);
  }
  expect(andy.summarising).toBe(true);
  const n = whispered.length;
  steve.whisper('Andy', 'are you still there?');
  await waitUntil(() => whispered.length > n, 'an answer while the summary is pending');
  expect(whispered.at(-1)).toContain('Answer to: Steve: are you still there?');
  expect(Date.now() - summaryAsked).toBeLessThan(3500);
  expect(andy.summarising).toBe(true);
  await waitUntil(() => andy.memory === 'Steve asked many questions about wood.', 'the summary lands', 10_000);
  await waitUntil(() => !andy.summarising && andy.history.length <= 8, 'the history is back within max_messages');
  expect(await andy.systemPrompt()).toContain('Memory: Steve asked many questions about wood.');
  script.summary = () => 'Memory kept short.';
});

test('!newAction runs model-written code in the sandbox; the code calls skills bound to the bot', async () => {
  script.coding = () =>
    '```js\nconst p = await position();\nconst inv = await inventory();\nreturn `at y=${Math.round(p.y)} with ${Object.keys(inv).length} item types`;\n```';
  steve.whisper('Andy', '!newAction("tell me where you are")');
  await waitUntil(() => whispered.some((l) => l.startsWith('Andy: Code ran: at y=')), 'the code runs', 30_000);
  const line = whispered.find((l) => l.startsWith('Andy: Code ran: at y='))!;
  expect(line).toContain(`at y=${Math.round(andy.bot.entity.position.y)} with 0 item types`);
  const coding = fake.requests.map((r) => r.call!).find((c) => c.system.includes('Skills:'))!;
  expect(coding.system).toContain('position(): {x, y, z}');
  expect(coding.lastUserMessage).toContain('tell me where you are');
});

test('an action interrupted by a player ends the model loop with a SYSTEM note saying what and by whom; notifyInterrupted prompts the model', async () => {
  const p = andy.bot.entity.position;
  script.Andy = (call) =>
    call.lastUserMessage.includes('walk east')
      ? `Walking. !goToCoordinates(${Math.floor(p.x) + 40}, ${Math.floor(p.y)}, ${Math.floor(p.z)}, 1)`
      : 'Noted.';
  steve.whisper('Andy', 'please walk east');
  await waitUntil(() => andy.currentAction() === '!goToCoordinates', 'Andy starts walking');
  let calls = andyCalls().length;
  steve.whisper('Andy', '!stop');
  await waitUntil(() => andy.history.some((t) => t.content === 'SYSTEM: !goToCoordinates was stopped by Steve.'), 'the stop is noted');
  // Not prompted again after a player's stop: the next model call is the answer to Steve's next whisper.
  await whisperRoundTrip('ok, wait there', 'Noted.');
  expect(andyCalls().length).toBe(calls + 1);
  expect(andyCalls().at(-1)!.lastUserMessage).toMatch(/ok, wait there$/);

  steve.whisper('Andy', 'please walk east again');
  await waitUntil(() => andy.currentAction() === '!goToCoordinates', 'Andy walks again');
  calls = andyCalls().length;
  steve.whisper('Andy', '!goToPlayer("Steve", 2)');
  await waitUntil(
    () => andy.history.some((t) => t.content === "SYSTEM: !goToCoordinates was interrupted by Steve's !goToPlayer."),
    'the interruption is noted',
  );
  await waitUntil(() => andy.currentAction() === undefined, 'Andy reaches Steve', 20_000);
  expect(andyCalls().length).toBe(calls); // the player's command ran instead of another model turn

  andy.notifyInterrupted('!goToPlayer was interrupted by self_defense: a zombie attacked.');
  await waitUntil(() => andyCalls().length > calls, 'the model is told');
  // (Consecutive user turns reach the provider merged into one.)
  expect(andyCalls().at(-1)!.lastUserMessage.endsWith('SYSTEM: !goToPlayer was interrupted by self_defense: a zombie attacked.')).toBe(
    true,
  );
});

test('a replaced agent never acts again: neither the reply in flight nor a message queued behind it reaches the bot', async () => {
  const old = andy;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  script.Andy = async (call) => {
    if (call.lastUserMessage.includes('first job')) await gate;
    return /job|hello again/.test(call.lastUserMessage) ? 'On it. !stats' : 'Done.';
  };
  const calls = andyCalls().length;
  const ran = old.commandLog.length;
  steve.whisper('Andy', 'first job');
  await waitUntil(() => andyCalls().length > calls, 'the model call for the first job is in flight');
  // An order of the task runner waits its turn (a player's line would end the call in flight and be answered with it).
  old.receive({ from: 'system', channel: 'system', text: 'second job', via: 'task' });
  expect(old.status().inbox).toBe(2);
  const renewed = running.renewAgents();
  release();
  const [fresh] = await renewed;
  await old.idle();
  expect(andyCalls().length).toBe(calls + 1); // the second job never reached the model
  expect(old.commandLog.length).toBe(ran);
  expect(old.history.some((t) => t.content.includes('second job'))).toBe(false);
  // A message for the old agent now is dropped; the new one on the same bot answers.
  old.receive({ from: 'Steve', channel: 'whisper', text: 'are you there?' });
  await old.idle();
  expect(andyCalls().length).toBe(calls + 1);
  andy = fresh!;
  await whisperRoundTrip('hello again', 'Done.');
  expect(andy.commandLog).toEqual(['!stats']);
  expect(old.commandLog.length).toBe(ran);
});
