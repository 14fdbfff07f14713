/**
 * Profiles, prompts and persistence with real agents: settings load merged profiles, the
 * conversing prompt comes from the profile's template (command docs, examples, within the size
 * target), native tool calling sends tools and runs the call, !newAction is absent unless
 * allowed, and memory.json is written and restored with load_memory.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { loadSettings, type LoadedSettings } from '../../src/settings/index.ts';
import { waitUntil } from '../helpers/world.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';

/** Half of MINDcraft's first conversing prompt (8,734 characters). */
const PROMPT_TARGET = 8_734 / 2;
const NATE_TEMPLATE = 'You are $NAME, a bot that uses tools. $COMMAND_DOCS\n$INVENTORY\n$SELF_PROMPT';

const dir = mkdtempSync(path.join(tmpdir(), 'profile-memory-'));
const botsDir = path.join(dir, 'bots');
let fake: FakeProviderServer;
let loaded: LoadedSettings;
let running: RunningBots | undefined;

const start = async (overrides: Record<string, unknown> = {}) => {
  const again = await loadSettings(dir, overrides);
  return startAgents({ settings: again.settings, profiles: again.profiles, port: 0, env: fake.env, botsDir, log: () => {} });
};

beforeAll(async () => {
  fake = await startFakeProvider('openai', {
    handler: (call) => (call.system.includes('Update your memory') ? 'Steve likes oak; Bob is building a tower.' : 'I will remember.'),
  });
  const model = { model: 'openai/gpt-test', url: fake.url };
  writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify({
      profiles: ['./bob.json', './nate.json'],
      world: 'superflat',
      base_profile: 'creative',
      chat_bot_messages: false,
      load_memory: true,
      max_messages: 4,
      goal_idle_ms: 600_000,
      bot_transport: 'in-process',
    }),
  );
  writeFileSync(path.join(dir, 'bob.json'), JSON.stringify({ name: 'Bob', model, persona: 'You talk like a pirate.' }));
  writeFileSync(path.join(dir, 'nate.json'), JSON.stringify({ name: 'Nate', model, tool_calling: 'native', conversing: NATE_TEMPLATE }));
  loaded = await loadSettings(dir);
  running = await startAgents({ settings: loaded.settings, profiles: loaded.profiles, port: 0, env: fake.env, botsDir, log: () => {} });
});

afterAll(async () => {
  await running?.close();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("loadSettings merges each bot over _default and base_profile; the prompt is the profile's template with docs and examples, within half of MINDcraft's size", async () => {
  const bob = loaded.profiles[0]!; // settings.json lists bob.json first
  expect(bob.modes).toMatchObject({ self_preservation: false, hunting: false }); // creative base
  expect(bob.conversing).toContain('$COMMAND_DOCS');
  const agent = running!.agents[0]!;
  const prompt = await agent.systemPrompt([{ role: 'user', content: 'Steve: collect some wood for me' }]);
  expect(prompt.startsWith('You are Bob, a Minecraft bot playing beside people and other bots. You talk like a pirate.')).toBe(true);
  expect(prompt).toContain('!collectBlocks(type, num 1..): ');
  expect(prompt).toContain('!goal(selfPrompt): ');
  expect(prompt).toContain('Examples:\nExample 1:\ngreg: Collect 10 wood\nYou: ');
  expect(prompt).toContain('Inventory: empty');
  expect(prompt).not.toMatch(/\$[A-Z_]{3,}/);
  expect(prompt.length).toBeLessThanOrEqual(PROMPT_TARGET);
  // The static part (role, rules, docs) comes first and does not change between calls.
  const docsEnd = prompt.indexOf('Examples:');
  const other = await agent.systemPrompt([{ role: 'user', content: 'Steve: attack that zombie' }]);
  expect(other.slice(0, docsEnd)).toBe(prompt.slice(0, docsEnd));
  // !newAction is not offered without allow_insecure_coding.
  expect(agent.commands.get('!newAction')).toBeUndefined();
  expect(prompt).not.toContain('!newAction');
});

test('native tool calling: the request carries the commands as tools, and the tool call runs as a command', async () => {
  const nate = running!.agents[1]!;
  const before = fake.requests.length;
  fake.enqueue({ text: '', toolCalls: [{ name: 'inventory', input: {} }] }, 'I carry nothing.');
  nate.receive({ from: 'Steve', channel: 'whisper', text: 'what do you carry?' });
  await waitUntil(() => nate.history.some((t) => t.content === 'I carry nothing.'), 'Nate answers after the tool call');
  // The answer came after the tool call's result, so both requests were made.
  const calls = fake.requests.slice(before).map((r) => r.call!);
  const first = calls[0]!;
  const second = calls[1]!;
  const names = first.tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(['inventory', 'collectBlocks', 'goal', 'endGoal']));
  expect(names).not.toContain('newAction');
  expect(first.system.startsWith('You are Nate, a bot that uses tools. Your commands are given to you as tools')).toBe(true);
  expect(first.system).not.toContain('!collectBlocks(');
  expect(nate.commandLog).toContain('!inventory');
  expect(second.lastUserMessage).toMatch(/^SYSTEM: Inventory: empty/);
});

test('memory, turns, goal, places and modes are saved to bots/<name>/memory.json and restored with load_memory', async () => {
  const bob = running!.agents[0]!;
  bob.setGoal('build a tower');
  bob.places.set('Home', { x: 10, y: 5, z: -20, dimension: 'overworld' });
  bob.modes.set('hunting', true); // off in Bob's creative base profile
  bob.modes.set('cheat', false);
  for (const text of ['I like oak', 'remember that', 'and birch too']) {
    bob.receive({ from: 'Steve', channel: 'whisper', text });
    await waitUntil(
      () => bob.history.at(-2)?.content === `Steve: ${text}` && bob.history.at(-1)?.role === 'assistant',
      `Bob answers "${text}"`,
    );
  }
  await waitUntil(() => bob.memory !== '' && !bob.summarising, 'a summary lands');
  const turns = bob.history.map((t) => t.content);
  await running!.close();
  running = undefined;

  const file = path.join(botsDir, 'Bob', 'memory.json');
  expect(existsSync(file)).toBe(true);
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  expect(saved).toMatchObject({
    memory: 'Steve likes oak; Bob is building a tower.',
    goal: { text: 'build a tower', state: 'active' },
    places: { home: { x: 10, y: 5, z: -20 } },
    modes: { hunting: true, cheat: false },
  });
  expect(saved.turns.map((t: { content: string }) => t.content)).toEqual(turns);

  running = await start();
  const back = running.agents[0]!;
  expect(back.memory).toBe('Steve likes oak; Bob is building a tower.');
  expect(back.history.map((t) => t.content)).toEqual(turns);
  expect(back.selfPrompter.state).toBe('active');
  expect(back.selfPrompter.goal).toBe('build a tower');
  expect(back.places.get('home')).toEqual({ x: 10, y: 5, z: -20, dimension: 'overworld' });
  expect(back.memoryStore.modes).toMatchObject({ hunting: true, cheat: false });
  expect(back.modes.isOn('hunting')).toBe(true);
  expect(back.modes.isOn('cheat')).toBe(false);
  expect(await back.systemPrompt()).toContain('Memory: Steve likes oak; Bob is building a tower.');
  await running.close();

  running = await start({ load_memory: false });
  const fresh = running.agents[0]!;
  expect(fresh.memory).toBe('');
  expect(fresh.history).toHaveLength(0);
  expect(fresh.selfPrompter.state).toBe('stopped');
  expect(fresh.places.list()).toEqual([]);
});

test('a memory.json cut short by a crash is kept beside it at start-up, and the start-up log says so', async () => {
  await running?.close();
  running = undefined;
  const file = path.join(botsDir, 'Bob', 'memory.json');
  writeFileSync(file, '{"memory": "Steve likes oak", "turns": [{"role": "us');
  const again = await loadSettings(dir);
  const lines: string[] = [];
  running = await startAgents({
    settings: again.settings,
    profiles: again.profiles,
    port: 0,
    env: fake.env,
    botsDir,
    log: (l) => lines.push(l),
  });
  expect(running.agents[0]!.memory).toBe('');
  expect(lines).toContainEqual(
    expect.stringMatching(
      /bots\/Bob\/memory\.json does not parse \(.+\): kept as .*memory\.json\.corrupt-.*; starting with an empty memory/,
    ),
  );
  const kept = readdirSync(path.dirname(file)).filter((f) => f.startsWith('memory.json.corrupt-'));
  expect(kept.map((f) => readFileSync(path.join(path.dirname(file), f), 'utf8'))).toEqual([
    '{"memory": "Steve likes oak", "turns": [{"role": "us',
  ]);
});
