/**
 * A person in Minecraft chat (a plain mineflayer bot standing in for a player) talking to the
 * bots: commands run without a model call, plain chat goes to the model.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, waitUntil } from '../helpers/world.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';

let running: RunningBots;
let steve: Bot;
let fake: FakeProviderServer;
const heard: string[] = [];
const whispered: string[] = [];

beforeAll(async () => {
  fake = await startFakeProvider('openai');
  running = await startAgents({
    settings: testSettings({ chat_bot_messages: false }),
    profiles: [
      profileSchema.parse({ name: 'Andy', model: fake.spec('gpt-test', 'openai') }),
      profileSchema.parse({ name: 'Jill', model: 'oracle' }),
    ],
    port: 0,
    env: fake.env,
    log: () => {},
  });
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

test('a command typed in public chat naming a bot runs without a model call, and the bot says what it did', async () => {
  const andy = running.agents[0]!.bot;
  const jill = running.agents[1]!.bot;
  steve.chat(`/tp Steve ${Math.floor(andy.entity.position.x) + 6} ${andy.entity.position.y} ${Math.floor(andy.entity.position.z)}`);
  await waitUntil(
    () => andy.players.Steve?.entity !== undefined && andy.entity.position.distanceTo(steve.entity.position) > 4,
    'Steve away from Andy',
  );
  const jillStart = jill.entity.position.clone();
  steve.chat('Andy !goToPlayer("Steve", 1)');
  await waitUntil(() => heard.some((l) => l.startsWith('Andy: Reached Steve')), 'Andy reports reaching Steve', 20_000);
  expect(andy.entity.position.distanceTo(steve.entity.position)).toBeLessThan(2.5);
  // Jill was not named: she did not move, and no model was asked anything.
  expect(jill.entity.position.distanceTo(jillStart)).toBeLessThan(0.5);
  expect(fake.requests.length).toBe(0);
});

test('a whispered command gets a whispered answer', async () => {
  steve.chat('/give Jill oak_log 1');
  await waitUntil(() => running.agents[1]!.bot.inventory.items().length > 0, 'Jill gets a log');
  steve.whisper('Jill', '!inventory');
  await waitUntil(() => whispered.some((l) => l.startsWith('Jill: Inventory: 1 oak_log')), 'Jill whispers her inventory');
});

test('a malformed command gets a precise error instead of running', async () => {
  steve.whisper('Jill', '!craftRecipe("oak_plank", lots)');
  await waitUntil(() => whispered.some((l) => l.includes('!craftRecipe') && l.includes('num')), 'Jill explains the bad argument');
});

test('plain chat goes to the model; the command in its reply runs and its output goes back to the model', async () => {
  fake.enqueue('Let me look. !inventory');
  fake.enqueue('I have nothing yet, Steve.');
  steve.whisper('Andy', 'what do you have?');
  await waitUntil(() => whispered.some((l) => l === 'Andy: I have nothing yet, Steve.'), 'Andy answers from the model', 20_000);
  expect(fake.requests.length).toBe(2);
  expect(fake.requests[0]!.call?.lastUserMessage).toContain('Steve: what do you have?');
  expect(fake.requests[1]!.call?.lastUserMessage).toMatch(/^SYSTEM: Inventory: empty/);
  expect(whispered).toContain('Andy: Let me look.');
});

test('a bare !help in public chat gets one answer with two bots: the first by name answers, the other stays quiet', async () => {
  const from = heard.length;
  const requests = fake.requests.length;
  steve.chat('!help("inventory")');
  await waitUntil(() => heard.slice(from).some((l) => l.startsWith('Andy: ') && l.includes('!inventory')), 'Andy answers !help', 20_000);
  // Jill's answer to a later line comes after any answer of hers to the first: by then she has said nothing to it.
  steve.chat('Jill !stats');
  await waitUntil(() => heard.slice(from).some((l) => l.startsWith('Jill: ') && /health/i.test(l)), 'Jill answers !stats', 20_000);
  expect(heard.slice(from).filter((l) => l.includes('!inventory'))).toHaveLength(1);
  expect(heard.slice(from).filter((l) => l.startsWith('Jill: ') && l.includes('!inventory'))).toEqual([]);
  expect(fake.requests.length).toBe(requests); // commands: no model call
});

test('with no model, a plain request runs its command and the bot tells the player what it did', async () => {
  const requests = fake.requests.length;
  const from = whispered.length;
  steve.whisper('Jill', 'Jill, what do you have?');
  await waitUntil(() => whispered.slice(from).some((l) => l.startsWith('Jill: Inventory:')), 'Jill tells Steve her inventory', 20_000);
  // A request the oracle cannot map onto a command gets its offline answer, once.
  steve.whisper('Jill', 'Jill, how are you?');
  await waitUntil(
    () => whispered.slice(from).some((l) => l.startsWith('Jill: I am the offline oracle policy')),
    'the offline answer',
    20_000,
  );
  expect(fake.requests.length).toBe(requests);
});
