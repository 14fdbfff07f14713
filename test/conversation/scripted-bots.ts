/** Shared pieces of the conversation tests on the embedded server: scripted models per bot, a human. */
import type { Bot } from 'mineflayer';
import type { Agent } from '../../src/agent/agent.ts';
import { profileSchema } from '../../src/settings/index.ts';
import type { FakeProviderServer } from '../helpers/fake-providers.ts';

/** What each bot's scripted model answers, by bot name, given the last user turn. */
export type Scripts = Record<string, (last: string) => string>;

/** Routes the fake provider's requests to each bot's script (the system prompt names the bot). */
export function scriptBots(fake: FakeProviderServer, scripts: Scripts, calls: { bot: string; last: string }[]): void {
  fake.setHandler((call) => {
    const bot = /You are (\w+)/.exec(call.system)?.[1] ?? '?';
    calls.push({ bot, last: call.lastUserMessage });
    return scripts[bot]?.(call.lastUserMessage) ?? '';
  });
}

/** Profiles for `names`, all on the fake provider. */
export function fakeProfiles(fake: FakeProviderServer, names: string[]) {
  return names.map((name) => profileSchema.parse({ name, model: fake.spec('gpt-test', 'openai') }));
}

/** Records what a human player hears. */
export function listen(human: Bot) {
  const heard: string[] = [];
  const whispered: string[] = [];
  human.on('chat', (from, text) => {
    heard.push(`${from}: ${text}`);
  });
  human.on('whisper', (from, text) => {
    whispered.push(`${from}: ${text}`);
  });
  return { heard, whispered };
}

/** The agent called `name`. */
export function agentNamed(agents: Agent[], name: string): Agent {
  const a = agents.find((x) => x.name === name);
  if (!a) throw new Error(`no agent ${name}`);
  return a;
}

/** True when the agent's history has a turn containing `text`. */
export function remembers(agent: Agent, text: string | RegExp): boolean {
  return agent.history.some((t) => (typeof text === 'string' ? t.content.includes(text) : text.test(t.content)));
}
