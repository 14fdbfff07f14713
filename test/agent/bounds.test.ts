/**
 * Players stay in charge: a person in Minecraft chat (a plain mineflayer client) with bots on the
 * embedded server whose model is a fake provider server. The model loop is bounded (repeats,
 * commands per message, spacing, token budget), a hung model never blocks commands, long replies
 * are cut, and a command addressed in public chat (`Andy !stop`) acts at once.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Agent } from '../../src/agent/agent.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, roundTrip, waitUntil } from '../helpers/world.ts';
import { startFakeProvider, type FakeChatCall, type FakeProviderServer, type FakeReply } from '../helpers/fake-providers.ts';

const MAX_COMMANDS = 4;
const MIN_INTERVAL_MS = 300;
let running: RunningBots;
let steve: Bot;
let fake: FakeProviderServer;
let andy: Agent;
const heard: string[] = [];
const whispered: string[] = [];
const logs: string[] = [];
let script: (call: FakeChatCall) => FakeReply = () => 'ok';

const botOf = (call: FakeChatCall | undefined) => /^You are (\w+)/.exec(call?.system ?? '')?.[1];
/** Conversing requests of one bot. */
const callsOf = (name: string) =>
  fake.requests.filter((r) => botOf(r.call) === name && r.call!.system.includes('Use only these commands:'));
const saidBy = (lines: string[], name: string) => lines.filter((l) => l.startsWith(`${name}: `));

beforeAll(async () => {
  fake = await startFakeProvider('openai', { handler: (call) => script(call) });
  running = await startAgents({
    settings: testSettings({
      chat_bot_messages: false,
      bot_transport: 'in-process',
      goal_idle_ms: 100,
      max_commands: MAX_COMMANDS,
      max_repeats: 3,
      min_model_interval_ms: MIN_INTERVAL_MS,
      model_timeout_s: 2,
      max_tokens_per_hour: 0,
    }),
    profiles: [
      profileSchema.parse({ name: 'Andy', model: fake.spec('gpt-test', 'openai') }),
      profileSchema.parse({ name: 'Jill', model: 'oracle' }),
    ],
    port: 0,
    env: fake.env,
    log: (line) => {
      logs.push(line);
    },
  });
  andy = running.agents[0]!;
  steve = await connectBot(running.server!, 'Steve');
  steve.on('chat', (from, text) => {
    heard.push(`${from}: ${text}`);
  });
  steve.on('whisper', (from, text) => {
    whispered.push(`${from}: ${text}`);
  });
});

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await fake?.close();
});

beforeEach(async () => {
  andy.endGoal();
  await andy.stop('next test');
  await andy.idle();
  andy.clearHistory();
  script = () => 'ok';
});

test('a runaway model ("Sure! !inventory" forever) is stopped by the repeat guard, in a loop and in the goal loop', async () => {
  script = () => 'Sure! !inventory';
  const before = callsOf('Andy').length;
  steve.whisper('Andy', 'what do you have?');
  await waitUntil(
    () => andy.history.some((t) => t.content.includes('3 times in a row with the same result')),
    'the repeat guard ends the loop',
  );
  await andy.idle();
  expect(callsOf('Andy').length - before).toBe(3);
  // The follow-ups, which the bot makes on its own, keep the minimum interval.
  const times = callsOf('Andy')
    .slice(before)
    .map((r) => r.receivedAt);
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(MIN_INTERVAL_MS - 20);

  // The goal loop asks again, gets the same command, which is no longer run: it gives up.
  const goalStart = callsOf('Andy').length;
  const ran = andy.commandLog.length;
  steve.whisper('Andy', '!goal("show me your inventory")');
  await waitUntil(() => heard.some((l) => /Andy: I stopped working on my goal/.test(l)), 'the goal loop gives up', 20_000);
  await andy.idle();
  expect(callsOf('Andy').length - goalStart).toBeLessThanOrEqual(3);
  expect(andy.commandLog.slice(ran).filter((c) => c === '!inventory')).toHaveLength(0);
});

test('a model running different commands forever stops at max_commands and is told so', async () => {
  let n = 0;
  script = () => (n++ % 2 ? 'Next. !stats' : 'Now. !inventory');
  const before = callsOf('Andy').length;
  const ran = andy.commandLog.length;
  steve.whisper('Andy', 'keep checking');
  await waitUntil(
    () => andy.history.some((t) => t.content === 'SYSTEM: command limit reached for this message.'),
    'the command limit ends the loop',
  );
  await andy.idle();
  // max_commands N: N model replies with a command, N commands run, then no further call.
  expect(callsOf('Andy').length - before).toBe(MAX_COMMANDS);
  expect(andy.commandLog.length - ran).toBe(MAX_COMMANDS);
});

test('"Andy !stop" in public chat stops an endless action within a second; queries are answered while it runs', async () => {
  steve.chat('Andy !stay(-1)');
  await waitUntil(() => andy.actions.current === '!stay', 'Andy stays');
  const asked = Date.now();
  steve.chat('Andy !stats');
  await waitUntil(() => saidBy(heard, 'Andy').some((l) => l.includes('Position')), 'Andy answers !stats while staying');
  expect(Date.now() - asked).toBeLessThan(2_000);
  expect(andy.actions.current).toBe('!stay');

  const stopped = Date.now();
  steve.chat('Andy !stop');
  await waitUntil(() => andy.actions.current === undefined, '!stay ends', 1_000);
  expect(Date.now() - stopped).toBeLessThan(1_000);
  await waitUntil(() => heard.includes('Andy: Stopped.'), 'Andy says so');
  expect(andy.history.some((t) => t.content.includes('!stay was stopped by Steve'))).toBe(true);
  // Jill was not named: she said nothing.
  expect(saidBy(heard, 'Jill')).toEqual([]);
});

test('"Andy !stop" also ends a model call in progress; control commands never wait behind it', async () => {
  script = () => ({ hang: true });
  const before = callsOf('Andy').length;
  steve.chat('Andy, think about life');
  await fake.waitForRequests(fake.requests.length + 1);
  expect(callsOf('Andy').length).toBe(before + 1);
  const stopped = Date.now();
  steve.chat('Andy !stop');
  await andy.idle();
  expect(Date.now() - stopped).toBeLessThan(1_000);
  await waitUntil(() => heard.filter((l) => l === 'Andy: Stopped.').length === 2, 'Andy acknowledges');
});

test("a malformed addressed command gets the parser's error; a disabled one says how to enable it", async () => {
  const before = fake.requests.length;
  steve.chat('Andy !craftRecipe("oak_planks"');
  await waitUntil(() => saidBy(heard, 'Andy').some((l) => l.includes('!craftRecipe') && l.includes(')')), "the parser's error");
  steve.chat('Andy !newAction("build a house")');
  await waitUntil(
    () => heard.some((l) => l.startsWith('Andy: !newAction is disabled for Andy: set "allow_insecure_coding": true')),
    'how to enable !newAction',
  );
  expect(fake.requests.length).toBe(before);
});

test('a hung model: commands are still answered at once, and the player whose line it could not answer is told why', async () => {
  script = () => ({ hang: true });
  const down = () => saidBy(whispered, 'Andy').filter((l) => l.includes('is not answering'));
  steve.whisper('Andy', 'hello?');
  await fake.waitForRequests(fake.requests.length + 1);
  steve.whisper('Andy', '!inventory');
  await waitUntil(() => whispered.some((l) => l.startsWith('Andy: Inventory')), 'Andy answers !inventory while the model hangs', {
    state: () => whispered.slice(-5),
  });
  expect(down()).toEqual([]);
  await waitUntil(() => down().length === 1, 'Andy says the model is down', 10_000);
  expect(down()[0]).toBe('Andy: My model (openai/gpt-test) is not answering: no answer within 2 s. Commands still work.');

  const calls = fake.requests.length;
  steve.whisper('Andy', 'hello again?');
  await fake.waitForRequests(calls + 1);
  await andy.idle();
  steve.whisper('Andy', '!stats');
  await waitUntil(() => saidBy(whispered, 'Andy').some((l) => l.includes('Position')), 'Andy still answers commands');
  await waitUntil(() => down().length === 2 && andy.outbox.pending === 0, 'each unanswered line is told why');
  // The server has relayed Andy's last line (it came before his ping), and Steve has it (before his).
  await roundTrip(andy.bot);
  await roundTrip(steve);
  expect(saidBy(heard, 'Andy').filter((l) => l.includes('is not answering'))).toEqual([]); // nothing said to everyone
});

test('a 100 kB reply is cut to max_chat_chars (the log keeps it whole); !help fits in a few lines', async () => {
  const story = 'Once upon a time there was a block. '.repeat(2_800);
  script = () => story;
  const from = whispered.length;
  steve.whisper('Andy', 'tell me a story');
  await waitUntil(() => whispered.slice(from).some((l) => l.startsWith('Andy:') && l.endsWith('…')), 'the cut reply');
  const lines = saidBy(whispered.slice(from), 'Andy');
  expect(lines.join(' ').length).toBeLessThanOrEqual(1_000 + 10 * lines.length);
  expect(lines.length).toBeLessThanOrEqual(5);
  expect(logs.some((l) => l.includes('cut to 1000') && l.includes(story.trim()))).toBe(true);

  const helpFrom = whispered.length;
  steve.whisper('Andy', '!help');
  await waitUntil(() => whispered.slice(helpFrom).some((l) => l.includes('!help("')), 'the pointer to !help("command")');
  expect(saidBy(whispered.slice(helpFrom), 'Andy').length).toBeLessThanOrEqual(5);
});

test("the token budget: the bot says so once, stops calling its model, and a player's message raises it", async () => {
  // A second process's bot on the same server, with a budget smaller than one prompt.
  const second = await startAgents({
    settings: testSettings({
      server: 'external',
      host: running.address.host,
      port: running.address.port,
      bot_transport: 'in-process',
      max_tokens_per_hour: 100,
      chat_bot_messages: false,
    }),
    profiles: [profileSchema.parse({ name: 'Bea', model: fake.spec('gpt-test', 'openai') })],
    env: fake.env,
    log: () => {},
  });
  try {
    script = () => 'Hi!';
    const bea = second.agents[0]!;
    const spent = () => saidBy(heard, 'Bea').filter((l) => l.includes('model budget'));
    steve.whisper('Bea', 'hello');
    await waitUntil(() => whispered.includes('Bea: Hi!'), 'Bea answers once');
    expect(callsOf('Bea')).toHaveLength(1);
    // The budget is spent: the goal loop's self-prompts do not reach the model, and the goal waits.
    bea.setGoal('say hi');
    await waitUntil(() => spent().length === 1, 'Bea says the budget is spent');
    await waitUntil(() => saidBy(heard, 'Bea').some((l) => l.includes('go on with my goal')), 'the goal loop says it waits');
    expect(bea.selfPrompter.state).toBe('active');
    expect(callsOf('Bea')).toHaveLength(1);
    expect(spent()[0]).toMatch(/^Bea: I have used my model budget for this hour \(\d+ tokens\), so I stop thinking until \d\d:\d\d\./);
    // A player's message raises it.
    steve.whisper('Bea', 'are you there?');
    await waitUntil(() => callsOf('Bea').length === 2, 'Bea asks her model again');
    await bea.idle();
    expect(spent()).toHaveLength(1);
  } finally {
    await second.close();
  }
});
