/**
 * Token usage from the providers' usage fields, through the real SDKs against the fake provider
 * servers: `onUsage` is called once per answer and `respond()` returns the same counts.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createModel, type TokenUsage } from '../../src/models/index.ts';
import { anthropicUsage } from '../../src/models/anthropic.ts';
import { openAIUsage } from '../../src/models/openai.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';

let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('token usage', () => {
  for (const protocol of ['anthropic', 'openai'] as const) {
    test(`${protocol}: onUsage gets the answer's prompt and output tokens; respond() carries them`, async () => {
      fake = await startFakeProvider(protocol, { replies: ['Hello there, friend.', 'Again.'] });
      const model = createModel(fake.spec('test-model'), { env: fake.env, maxRetries: 0 });
      const seen: TokenUsage[] = [];
      await model.complete({ system: 'You are a bot', turns: [{ role: 'user', content: 'hi' }], onUsage: (u) => seen.push(u) });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.input).toBeGreaterThan(0);
      expect(seen[0]!.output).toBeGreaterThan(0);
      expect(seen[0]).toMatchObject({ cachedInput: 0, cacheWriteInput: 0 });
      const result = await model.respond!({ system: 'You are a bot', turns: [{ role: 'user', content: 'hi' }] });
      expect(result.usage).toMatchObject({ input: seen[0]!.input, cachedInput: 0 });
      expect(result.usage!.output).toBeGreaterThan(0);
    });
  }

  test('cache fields: Anthropic counts cache reads and writes into the prompt total; OpenAI reports cached prompt tokens', () => {
    expect(anthropicUsage({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 })).toEqual({
      input: 130,
      cachedInput: 100,
      cacheWriteInput: 20,
      output: 5,
    });
    expect(
      openAIUsage({ prompt_tokens: 130, completion_tokens: 5, total_tokens: 135, prompt_tokens_details: { cached_tokens: 100 } }),
    ).toEqual({ input: 130, cachedInput: 100, cacheWriteInput: 0, output: 5 });
    expect(anthropicUsage(undefined)).toBeUndefined();
    expect(openAIUsage(null)).toBeUndefined();
  });
});
