/**
 * Five bots in one process on the embedded server (in-process transport), driven by scripted
 * models, and a human player (a plain mineflayer bot): two bots talking, partners switching with
 * !startConversation while busy and !endConversation, a human joining in, public and whispered
 * replies going back the way they came.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, waitUntil } from '../helpers/world.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { agentNamed, fakeProfiles, listen, remembers, scriptBots, type Scripts } from './scripted-bots.ts';

const NAMES = ['Andy', 'Jill', 'Bob', 'Kate', 'Mia'];
let running: RunningBots;
let steve: Bot;
let fake: FakeProviderServer;
let ears: ReturnType<typeof listen>;
const calls: { bot: string; last: string }[] = [];
const scripts: Scripts = {};
const agent = (name: string) => agentNamed(running.agents, name);

beforeAll(async () => {
  fake = await startFakeProvider('openai');
  scriptBots(fake, scripts, calls);
  running = await startAgents({
    settings: testSettings({ chat_bot_messages: true, convo_reminder_ms: 600_000, chat_burst: 10, chat_interval_ms: 200 }),
    profiles: fakeProfiles(fake, NAMES),
    port: 0,
    env: fake.env,
    log: () => {},
  });
  steve = await connectBot(running.server!, 'Steve');
  ears = listen(steve);
}, 120_000);

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await fake?.close();
});

test('two bots converse in-process; each line is echoed publicly as "(to X) ..."; no envelope ever goes to chat', async () => {
  scripts.Jill = (last) => (last.includes('Andy (a bot): How many logs') ? 'I have none yet, Andy.' : '');
  scripts.Andy = () => '';
  steve.whisper('Andy', '!startConversation("Jill", "How many logs do you have?")');
  await waitUntil(() => ears.whispered.includes('Andy: Started a conversation with Jill.'), 'Andy confirms');
  await waitUntil(() => calls.some((c) => c.bot === 'Andy' && c.last.endsWith('Jill (a bot): I have none yet, Andy.')), 'Andy hears Jill');
  expect(agent('Andy').conversations.active).toBe('Jill');
  expect(agent('Jill').conversations.active).toBe('Andy');
  await waitUntil(() => ears.heard.includes('Jill: (to Andy) I have none yet, Andy.'), 'public echo of Jill');
  expect(ears.heard).toContain('Andy: (to Jill) How many logs do you have?');
  // Bot messages never travel by chat in-process; a human only ever sees each bot's one discovery hello.
  expect(ears.heard.some((l) => l.includes('mcb|'))).toBe(false);
  expect(ears.whispered.filter((l) => l.includes('mcb|')).every((l) => /^\w+: mcb\|hello\|/.test(l))).toBe(true);
  // The command typed by Steve ran without a model call: Andy's model was first asked on Jill's answer.
  expect(calls.find((c) => c.bot === 'Andy')!.last).toMatch(/Jill \(a bot\): I have none yet, Andy\.$/);
}, 30_000);

test('a third bot is refused while Jill is busy; Andy switching to Bob ends Andy–Jill; then Jill is free again', async () => {
  steve.whisper('Bob', '!startConversation("Jill", "Jill, want to build?")');
  await waitUntil(
    () => remembers(agent('Bob'), /Jill ended the conversation: I'm talking with Andy right now/),
    'Bob is told Jill is busy',
  );
  expect(remembers(agent('Jill'), /Bob wanted to talk; you were busy with Andy/)).toBe(true);
  expect(agent('Jill').conversations.active).toBe('Andy');
  expect(agent('Bob').conversations.active).toBeUndefined();

  scripts.Bob = (last) => (last.includes('Andy (a bot): Bob, come help') ? 'On my way.' : '');
  steve.whisper('Andy', '!startConversation("Bob", "Bob, come help me.")');
  await waitUntil(() => agent('Bob').conversations.active === 'Andy', 'Bob talks with Andy');
  await waitUntil(() => agent('Jill').conversations.state('Andy') === 'ended', 'Jill sees the end');
  expect(agent('Andy').conversations.state('Jill')).toBe('ended');
  expect(remembers(agent('Jill'), 'Andy ended the conversation.')).toBe(true);
  await waitUntil(() => calls.some((c) => c.bot === 'Andy' && c.last.endsWith('Bob (a bot): On my way.')), 'Andy hears Bob');

  // Jill is free now: Kate can talk to her, and !endConversation closes it on both sides.
  scripts.Jill = () => 'Hi Kate!';
  steve.whisper('Kate', '!startConversation("Jill", "Hi Jill")');
  await waitUntil(() => calls.some((c) => c.bot === 'Kate' && c.last.endsWith('Jill (a bot): Hi Kate!')), 'Kate hears Jill');
  steve.whisper('Kate', '!endConversation("Jill")');
  await waitUntil(() => ears.whispered.includes('Kate: Ended the conversation with Jill.'), 'Kate ends');
  await waitUntil(() => agent('Jill').conversations.state('Kate') === 'ended', 'Jill sees Kate end');
  expect(agent('Jill').conversations.active).toBeUndefined();
}, 40_000);

test('five bots asking each other at once pair up consistently: nobody is in two conversations', async () => {
  for (const n of NAMES) scripts[n] = () => '';
  for (const n of NAMES) {
    const other = agent(n).conversations.active;
    if (other) steve.whisper(n, `!endConversation("${other}")`);
  }
  await waitUntil(() => NAMES.every((n) => agent(n).conversations.active === undefined), 'everyone free');
  // Each bot opens a conversation with the next one, all at the same moment.
  const next = (i: number): string => NAMES[(i + 1) % NAMES.length]!;
  NAMES.forEach((n, i) => void agent(n).startConversation(next(i), `hello from ${n}`));
  // Every opening has been answered: accepted, or refused and the refusal received.
  await waitUntil(
    () =>
      NAMES.every((n, i) => {
        const theirs = agent(next(i)).conversations.state(n);
        return theirs === 'active' || (theirs === 'ended' && agent(n).conversations.state(next(i)) === 'ended');
      }),
    'every opening answered',
    {
      state: () =>
        NAMES.map((n, i) => `${n}->${next(i)}: ${agent(n).conversations.state(next(i))}/${agent(next(i)).conversations.state(n)}`),
    },
  );
  const active = Object.fromEntries(NAMES.map((n) => [n, agent(n).conversations.active]));
  for (const [n, partner] of Object.entries(active)) {
    if (partner) expect(active[partner], `${n} talks with ${partner}, who must talk with ${n}`).toBe(n);
  }
  // The ones refused were told why.
  const refused = NAMES.filter((n) => !active[n]);
  for (const n of refused) expect(remembers(agent(n), /ended the conversation: I'm talking with|wanted to talk; you were busy/)).toBe(true);
  // One after another, they pair up; a fifth asking a taken bot is refused.
  for (const n of NAMES) {
    const p = agent(n).conversations.active;
    if (p) agent(n).endConversation(p);
  }
  await waitUntil(() => NAMES.every((n) => agent(n).conversations.active === undefined), 'both sides of every conversation ended');
  await agent('Andy').startConversation('Jill', 'pair?');
  await waitUntil(() => agent('Jill').conversations.active === 'Andy', 'Andy–Jill');
  await agent('Bob').startConversation('Kate', 'pair?');
  await waitUntil(() => agent('Kate').conversations.active === 'Bob', 'Bob–Kate');
  await agent('Mia').startConversation('Andy', 'pair?');
  await waitUntil(() => agent('Mia').conversations.state('Andy') === 'ended', 'Mia refused');
  expect(NAMES.map((n) => agent(n).conversations.active)).toEqual(['Jill', 'Andy', 'Kate', 'Bob', undefined]);
}, 30_000);

test('a human joins in: whispers reach a bot mid-conversation and get whispered answers; public chat naming it gets public answers', async () => {
  for (const n of NAMES) {
    const other = agent(n).conversations.active;
    if (other) agent(n).endConversation(other);
  }
  scripts.Andy = (last) => {
    if (last.endsWith('Steve: what are you two doing?')) return 'Planning a house with Bob.';
    if (last.endsWith('Steve: Andy, say hi to everyone')) return 'Hi everyone!';
    return '';
  };
  scripts.Bob = () => '';
  await agent('Andy').startConversation('Bob', 'Let us plan a house.');
  await waitUntil(() => agent('Bob').conversations.active === 'Andy', 'Bob in conversation');
  steve.whisper('Andy', 'what are you two doing?');
  await waitUntil(() => ears.whispered.includes('Andy: Planning a house with Bob.'), 'Andy whispers back to Steve');
  // The human's message did not take Andy out of the bot conversation, and did not go to Bob.
  expect(agent('Andy').conversations.active).toBe('Bob');
  expect(ears.heard).not.toContain('Andy: (to Bob) Planning a house with Bob.');
  steve.chat('Andy, say hi to everyone');
  await waitUntil(() => ears.heard.includes('Andy: Hi everyone!'), 'Andy answers in public');
  // Public chat that names no bot reaches none of the five.
  steve.chat('nice weather today');
  steve.chat('Andy: nice weather today');
  await waitUntil(() => calls.some((c) => c.last.endsWith('Steve: Andy: nice weather today')), 'the named line reaches Andy');
  expect(calls.filter((c) => c.last.includes('Steve: nice weather today'))).toEqual([]);
}, 30_000);
