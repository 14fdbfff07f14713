/**
 * Chat-to-model latency through a real client: a player (a plain mineflayer client, Steve)
 * whispers a bot on the embedded server; the bot's agent asks its model (a fake OpenAI-compatible
 * provider on loopback that answers at once, so the figure is ours, not a model's) and whispers
 * the answer back. Measured from Steve sending the whisper to Steve receiving the answer, one
 * message at a time; the model's own share (request received → answered, at the fake) is shown
 * apart. The bot's chat rate limit is off (`chat_interval_ms: 0`): messages follow one another
 * at once, and a player chatting at a normal pace stays within the default burst anyway.
 * Every message counts, the first included (the bot warms its model path up at start-up: see
 * src/app/warm-up.ts); the first one's latency is shown apart too. The first is sent once the
 * server has stopped streaming chunks to Steve.
 *
 *   npx node bench/chat-latency.ts [--messages 60]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import mineflayer from 'mineflayer';
import { startAgents } from '../src/app/start-bots.ts';
import { profileSchema, settingsSchema } from '../src/settings/index.ts';
import { startFakeProvider } from '../test/helpers/fake-providers.ts';

const { values: args } = parseArgs({ options: { messages: { type: 'string', default: '60' } } });
const count = Number(args.messages);

const botsDir = await mkdtemp(path.join(tmpdir(), 'bench-chat-latency-'));
const fake = await startFakeProvider('openai', { handler: (call) => `Sure, ${call.lastUserMessage.split(': ').at(-1)} done.` });
const running = await startAgents({
  // No chat rate limit (by default a burst of 6 lines, then one a second): one message after the
  // other would otherwise measure the limit, not the pipeline.
  settings: settingsSchema.parse({
    world: 'superflat',
    chat_bot_messages: false,
    bot_transport: 'in-process',
    load_memory: false,
    max_messages: 200,
    chat_interval_ms: 0,
  }),
  profiles: [profileSchema.parse({ name: 'Andy', model: fake.spec('bench-model', 'openai') })],
  port: 0,
  env: fake.env,
  botsDir,
  log: () => {},
});
const server = running.server!;
const steve = mineflayer.createBot({ host: server.host, port: server.port, username: 'Steve', version: server.version, auth: 'offline' });
// Steve's client runs in this process, as a player's would not: the measuring starts once the
// server has stopped streaming chunks to it (it goes on for a while after the spawn, and decoding
// them here would be counted against the bot): no chunk for half a second.
let lastChunk = performance.now();
steve._client.on('packet', (_data: unknown, meta: { name: string }) => {
  if (meta.name === 'map_chunk') lastChunk = performance.now();
});
await new Promise<void>((resolve, reject) => {
  steve.once('spawn', () => resolve());
  steve.once('error', reject);
});
await steve.waitForChunksToLoad();
await new Promise<void>((resolve) => {
  const check = () => (performance.now() - lastChunk > 500 ? resolve() : setTimeout(check, 50));
  check();
});

const percentile = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const total: number[] = [];
const model: number[] = [];
let first: number | undefined;
for (let i = 0; i < count; i++) {
  const text = `message ${i}`;
  const answered = new Promise<void>((resolve) => {
    const onWhisper = (from: string, said: string) => {
      if (from !== 'Andy' || !said.includes(`message ${i} done`)) return;
      steve.off('whisper', onWhisper);
      resolve();
    };
    steve.on('whisper', onWhisper);
  });
  const before = fake.requests.length;
  const t0 = performance.now();
  steve.whisper('Andy', text);
  await answered;
  const ms = performance.now() - t0;
  const request = fake.requests[before];
  first ??= ms;
  total.push(ms);
  if (request?.answeredAt) model.push(request.answeredAt - request.receivedAt);
}
total.sort((a, b) => a - b);
model.sort((a, b) => a - b);
const row = (what: string, xs: number[]) => ({
  what,
  n: xs.length,
  p50_ms: +percentile(xs, 50).toFixed(1),
  p95_ms: +percentile(xs, 95).toFixed(1),
  p99_ms: +percentile(xs, 99).toFixed(1),
  max_ms: +xs.at(-1)!.toFixed(1),
});
console.log("Chat-to-model latency: a real client whispers the bot, the bot's model (an instant fake) answers, the client hears it");
console.table([row('whisper → answer heard', total), row('model request at the fake', model)]);
console.log(`the first message: ${first!.toFixed(1)} ms`);
steve.quit();
await running.close();
await fake.close();
await rm(botsDir, { recursive: true, force: true });
process.exit(0);
