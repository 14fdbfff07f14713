/**
 * Prompt caching: the conversing prompt's static part is byte-identical across a bot's calls and
 * comes first; the live state comes after the conversation; Anthropic requests carry at most 4
 * cache breakpoints where the provider reads them; the cache fields of the usage are recorded per
 * call. Through the real PromptBuilder, the real adapters and SDKs, against the fake providers
 * with their prompt-cache simulation.
 */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { afterEach, describe, expect, test } from 'vitest';
import { allCommands } from '../../src/commands/index.ts';
import { LIVE_HEADER, LIVE_VARIABLES, PromptBuilder, splitTemplate, type AgentSnapshot } from '../../src/agent/prompt-builder.ts';
import { createModel, type ChatTurn, type TokenUsage } from '../../src/models/index.ts';
import { ExampleSelector, EXAMPLES_DIR } from '../../src/agent/prompts/examples.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { completeProfile } from '../../src/settings/profiles.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';
import path from 'node:path';

/** What the prompt reads of a bot: position, health, food, time and inventory. */
function stubBot(items: Array<{ name: string; count: number }>, x: number): Bot {
  return {
    entity: { position: new Vec3(x, -60, 3) },
    health: 20,
    food: 18,
    time: { timeOfDay: 1000 },
    inventory: { items: () => items, slots: [] },
  } as unknown as Bot;
}

const snapshot = (bot: Bot, more: Partial<AgentSnapshot> = {}): AgentSnapshot => ({
  name: 'Andy',
  bot,
  memory: '',
  currentAction: undefined,
  partner: undefined,
  goal: { loop: 'stopped', loopGoal: '', taskGoal: undefined },
  ...more,
});

describe('splitTemplate', () => {
  test('cuts at the start of the line holding the first live variable', () => {
    expect(splitTemplate('You are $NAME.\nCommands:\n$COMMAND_DOCS\nMemory: $MEMORY\n$STATS', LIVE_VARIABLES)).toEqual({
      static: 'You are $NAME.\nCommands:\n$COMMAND_DOCS\n',
      live: 'Memory: $MEMORY\n$STATS',
    });
  });

  test('a template without live variables is all static; one that opens with one is all live', () => {
    expect(splitTemplate('You are $NAME. $COMMAND_DOCS', LIVE_VARIABLES)).toEqual({ static: 'You are $NAME. $COMMAND_DOCS', live: '' });
    // MINDcraft's order: state before the command docs. Still works, caches only the first line.
    const mindcraft = 'You are $NAME.\n$SELF_PROMPT Summarized memory: $MEMORY\n$STATS\n$COMMAND_DOCS';
    expect(splitTemplate(mindcraft, LIVE_VARIABLES)).toEqual({
      static: 'You are $NAME.\n',
      live: '$SELF_PROMPT Summarized memory: $MEMORY\n$STATS\n$COMMAND_DOCS',
    });
    expect(splitTemplate('$STATS\nRules', LIVE_VARIABLES)).toEqual({ static: '', live: '$STATS\nRules' });
  });
});

describe('the conversing prompt', () => {
  test('the static part holds role, rules and command docs and stays byte-identical while the state changes; the state is live', async () => {
    const profile = await completeProfile(profileSchema.parse({ name: 'Andy', model: 'oracle', persona: 'You are practical.' }));
    const examples = await ExampleSelector.load(path.join(EXAMPLES_DIR, 'conversing.json'));
    const prompts = new PromptBuilder(profile, { examples, numExamples: 2 });
    const first = await prompts.conversing(snapshot(stubBot([], 1)), allCommands, [{ role: 'user', content: 'Steve: get wood' }]);
    const second = await prompts.conversing(
      snapshot(stubBot([{ name: 'oak_log', count: 3 }], 7), {
        memory: 'Steve likes oak.',
        currentAction: '!collectBlocks',
        partner: 'Jill',
        goal: { loop: 'active', loopGoal: 'build a hut', taskGoal: undefined },
      }),
      allCommands,
      [{ role: 'user', content: 'Steve: now build a house with a furnace' }],
    );
    expect(second.system).toBe(first.system);
    expect(first.system).toContain('You are Andy');
    expect(first.system).toContain('!collectBlocks(');
    // Examples are chosen per call (28 of them, 2 shown): live, not static.
    expect(first.system).not.toContain('Example 1:');
    expect(first.live.startsWith(`${LIVE_HEADER}\nExamples:`)).toBe(true);
    for (const text of [
      'Inventory: 3 oak_log',
      'Memory: Steve likes oak.',
      'Current action: !collectBlocks',
      'In a conversation with Jill.',
      'Your goal: build a hut',
      'Position (7, -60, 3)',
    ]) {
      expect(second.live).toContain(text);
      expect(second.system).not.toContain(text);
    }
    expect(first.text).toBe(`${first.system}\n${first.live.slice(LIVE_HEADER.length + 1)}`);
  });

  test('examples that are the same on every call (all of them fit) stay in the static part', async () => {
    const profile = await completeProfile(profileSchema.parse({ name: 'Andy', model: 'oracle' }));
    const few = new ExampleSelector([
      [
        { role: 'user', content: 'greg: hi' },
        { role: 'assistant', content: 'Hello!' },
      ],
      [
        { role: 'user', content: 'greg: wood' },
        { role: 'assistant', content: '!collectBlocks("oak_log", 3)' },
      ],
    ]);
    const prompts = new PromptBuilder(profile, { examples: few, numExamples: 2 });
    const a = await prompts.conversing(snapshot(stubBot([], 1)), allCommands, [{ role: 'user', content: 'greg: wood please' }]);
    const b = await prompts.conversing(snapshot(stubBot([], 2)), allCommands, [{ role: 'user', content: 'greg: hi' }]);
    expect(a.system).toBe(b.system);
    expect(a.system).toContain('Example 1:\ngreg: hi');
    expect(a.live).not.toContain('Example');
  });
});

describe('requests of one bot through the real adapters', () => {
  let fake: FakeProviderServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  /** Two calls of a model loop: the second after the first's reply and the command's output. */
  async function twoCalls(protocol: 'anthropic' | 'openai', tools: boolean) {
    fake = await startFakeProvider(protocol, { replies: ['Checking. !inventory', 'Done.'], cache: { minTokens: 256 } });
    const model = createModel(fake.spec('claude-test'), { env: fake.env, maxRetries: 0 });
    const profile = await completeProfile(profileSchema.parse({ name: 'Andy', model: 'oracle', tool_calling: tools ? 'native' : 'text' }));
    const prompts = new PromptBuilder(profile);
    const usage: TokenUsage[] = [];
    const turns: ChatTurn[] = [{ role: 'user', content: 'Steve: what do you have?' }];
    const ask = async (bot: Bot) => {
      const { system, live } = await prompts.conversing(snapshot(bot), allCommands, turns);
      return model.complete({ system, live, turns, tools: prompts.tools(allCommands), onUsage: (u) => usage.push(u) });
    };
    const reply = await ask(stubBot([], 1));
    turns.push({ role: 'assistant', content: reply }, { role: 'user', content: 'SYSTEM: Inventory: 2 stick' });
    await ask(stubBot([{ name: 'stick', count: 2 }], 2));
    return { bodies: fake.requests.map((r) => r.body), usage };
  }

  for (const tools of [false, true]) {
    test(`anthropic${tools ? ' with tools' : ''}: the prefix before the live part is byte-identical; ≤ 4 breakpoints; the second call reads the first's cache`, async () => {
      const {
        bodies: [a, b],
        usage,
      } = await twoCalls('anthropic', tools);
      const strip = (value: unknown) => JSON.stringify(value, (k, v) => (k === 'cache_control' ? undefined : v));
      expect(strip(b.system)).toBe(strip(a.system));
      expect(strip(b.tools)).toBe(strip(a.tools));
      expect(a.system).toHaveLength(1);
      expect(a.system[0].cache_control).toEqual({ type: 'ephemeral' });
      if (tools) expect(a.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
      // The first call's conversation (its messages without the live block) starts the second's.
      const firstConversation = a.messages.map((m: { role: string; content: unknown[] }, i: number) => ({
        role: m.role,
        content: i === a.messages.length - 1 ? m.content.slice(0, -1) : m.content,
      }));
      const secondStart = b.messages.slice(0, a.messages.length).map((m: { role: string; content: unknown[] }, i: number) => ({
        role: m.role,
        content: m.content.slice(0, firstConversation[i].content.length),
      }));
      expect(strip(secondStart)).toBe(strip(firstConversation));
      // The live part is the last block of the last user turn, after the last breakpoint.
      for (const body of [a, b]) {
        const last = body.messages.at(-1);
        expect(last.role).toBe('user');
        expect(last.content.at(-1).text.startsWith(LIVE_HEADER)).toBe(true);
        expect(last.content.at(-1).cache_control).toBeUndefined();
        const marks = JSON.stringify(body).match(/"cache_control"/g)?.length ?? 0;
        expect(marks).toBeLessThanOrEqual(4);
      }
      expect(b.messages.at(-1).content.at(-1).text).toContain('Inventory: 2 stick');
      expect(usage).toHaveLength(2);
      expect(usage[0]!.cachedInput).toBe(0);
      expect(usage[0]!.cacheWriteInput).toBeGreaterThan(0);
      expect(usage[1]!.cachedInput).toBeGreaterThanOrEqual(usage[0]!.cacheWriteInput);
      expect(usage[1]!.cachedInput / usage[1]!.input).toBeGreaterThan(0.8);
    });
  }

  test("openai: system first, the live part last in the final user message; the second call repeats the first's prefix", async () => {
    const {
      bodies: [a, b],
      usage,
    } = await twoCalls('openai', false);
    expect(b.messages[0]).toEqual(a.messages[0]);
    expect(a.messages[0].role).toBe('system');
    const text = (body: { messages: Array<{ role: string; content: string }> }) =>
      body.messages.map((m) => `${m.role}:${m.content}`).join('\n');
    const live = a.messages.at(-1).content.indexOf(LIVE_HEADER);
    expect(live).toBeGreaterThan(0);
    // The first call's conversation, up to the blank line before its live part.
    const prefixA = text(a).slice(0, text(a).indexOf(`\n\n${LIVE_HEADER}`));
    expect(text(b).startsWith(prefixA)).toBe(true);
    expect(usage[1]!.cachedInput).toBeGreaterThan(0);
    expect(usage[1]!.cachedInput / usage[1]!.input).toBeGreaterThan(0.8);
  });
});
