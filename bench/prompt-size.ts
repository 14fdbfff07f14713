/**
 * Measures the first conversing prompt of a bot with an empty inventory (the system prompt of
 * the model request answering a player's first message), against MINDcraft's 8,734 characters.
 *
 *   npx node bench/prompt-size.ts
 *
 * Starts the embedded server and one oracle bot (no model is called), builds the prompt the way
 * the agent does for each request, and prints its size. Exit code 1 if it is over half of
 * MINDcraft's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAgents } from '../src/app/start-bots.ts';
import { profileSchema, settingsSchema } from '../src/settings/index.ts';

/** MINDcraft's first conversing prompt for a bot with an empty inventory (characters). */
export const MINDCRAFT_PROMPT_CHARS = 8_734;

const botsDir = mkdtempSync(path.join(tmpdir(), 'prompt-size-'));
const running = await startAgents({
  settings: settingsSchema.parse({
    world: 'superflat',
    chat_bot_messages: false,
    allow_insecure_coding: process.argv.includes('--coding'),
  }),
  profiles: [profileSchema.parse({ name: 'Andy', model: 'oracle', persona: 'You are friendly and practical.' })],
  port: 0,
  botsDir,
  log: process.argv.includes('--verbose') ? (l) => console.error(l) : () => {},
});
try {
  const [agent] = running.agents;
  if (!agent) throw new Error('startAgents started no agent for the one profile');
  const first = [{ role: 'user' as const, content: 'Steve: hi Andy, can you get me some wood?' }];
  const prompt = await agent.systemPrompt(first);
  const commands = agent.commands.list().length;
  const tokens = Math.round(prompt.length / 4);
  const share = ((prompt.length / MINDCRAFT_PROMPT_CHARS) * 100).toFixed(0);
  console.log(`first conversing prompt: ${prompt.length} chars (~${tokens} tokens), ${commands} commands documented`);
  console.log(`MINDcraft: ${MINDCRAFT_PROMPT_CHARS} chars; ours is ${share} % of it (target <= 50 %)`);
  const runs = 200;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await agent.systemPrompt(first);
  console.log(`building it: ${((performance.now() - t0) / runs).toFixed(3)} ms per request (examples ranked, template filled)`);
  if (process.argv.includes('--print')) console.log(`---\n${prompt}\n---`);
  process.exitCode = prompt.length <= MINDCRAFT_PROMPT_CHARS / 2 ? 0 : 1;
} finally {
  await running.close();
  rmSync(botsDir, { recursive: true, force: true });
}
// The server library leaves sockets and timers behind after close; do not wait for them.
if (process.argv.includes('--verbose')) console.error('left behind:', process.getActiveResourcesInfo().join(', '));
process.exit();
