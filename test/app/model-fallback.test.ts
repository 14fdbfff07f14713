/**
 * `npm start` with a profile whose model cannot be used: the bots still play (the offline oracle),
 * and say so once in chat, not only in the log. Task runs and evaluations never do this: see
 * test/e2e/task-semantics.test.ts and test/e2e/eval.test.ts.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, roundTrip, startTestServer, waitUntil } from '../helpers/world.ts';

let server: EmbeddedServer;
let steve: Bot;
let running: RunningBots | undefined;
beforeAll(async () => {
  server = await startTestServer();
  steve = await connectBot(server, 'Steve');
}, 30_000);
afterAll(async () => {
  await running?.close();
  steve?.quit();
  await server?.close();
});

test('a model without its key: the bot plays as the oracle and says so once in chat; the log names the variable', async () => {
  const heard: string[] = [];
  steve.on('chat', (from, text) => {
    if (from === 'Andy') heard.push(text);
  });
  const log: string[] = [];
  running = await startAgents({
    settings: testSettings({ server: 'external', host: server.host, port: server.port }),
    profiles: [
      { name: 'Andy', model: 'anthropic/claude-sonnet-4-5', persona: '', blocked_actions: [], cooldown_ms: 0, tool_calling: 'text' },
    ],
    env: {},
    log: (line) => log.push(line),
  });
  expect(running.agents[0]!.model.id).toBe('oracle');
  expect(log.join('\n')).toMatch(/ANTHROPIC_API_KEY/);
  await waitUntil(() => heard.some((t) => t.includes('offline "oracle" policy')), 'Andy says he plays as the oracle');
  await roundTrip(steve);
  expect(heard.filter((t) => t.includes('oracle'))).toHaveLength(1);
  expect(heard[0]).toMatch(/^Andy: no usable model/);
});
