/**
 * The voice wired into a fleet (src/app/fleet.ts → src/app/voice.ts), on the embedded server with
 * a real client (Steve): with `speak` on, Andy's public answer reaches Steve at once although the
 * `espeak-ng` on PATH is a stand-in that takes the line and never finishes; closing the bots ends
 * it. Jill's voice (OpenAI, no key) is said missing once at start-up. Andy runs the offline oracle.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { connectBot, settingsFor, startTestServer, waitUntil } from '../helpers/world.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'voice-fleet-'));
const binDir = path.join(dir, 'bin');
const heardFile = path.join(dir, 'heard.txt');
const pidFile = path.join(dir, 'pid');
const lines: string[] = [];
let server: EmbeddedServer;
let running: RunningBots | undefined;
let steve: Bot;

beforeAll(async () => {
  // A stand-in for espeak-ng that keeps the line it is given and then hangs (exec: the killed process is the one that hangs).
  const script = `#!/bin/sh\necho $$ > '${pidFile}'\ncat >> '${heardFile}'\nexec sleep 600\n`;
  const bin = path.join(binDir, 'espeak-ng');
  mkdirSync(binDir);
  writeFileSync(bin, script);
  chmodSync(bin, 0o755);
  server = await startTestServer();
  running = await startAgents({
    settings: settingsFor(server, { speak: true }),
    profiles: [profileSchema.parse({ name: 'Andy' }), profileSchema.parse({ name: 'Jill', speak_model: 'openai/tts-1/alloy' })],
    botsDir: dir,
    env: { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, OPENAI_API_KEY: '' },
    log: (l) => lines.push(l),
  });
  steve = await connectBot(server, 'Steve');
});

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a hanging voice does not delay chat; a missing one is said once; closing ends the utterance', async () => {
  expect(lines.filter((l) => l.includes('voice:'))).toEqual([
    'voice: openai/tts-1/alloy needs OPENAI_API_KEY (in keys.json or the environment); the bots that use it stay silent.',
  ]);
  const heard: string[] = [];
  steve.on('chat', (from, text) => {
    if (from === 'Andy') heard.push(text);
  });
  steve.chat('Andy !stats');
  await waitUntil(() => heard.some((t) => /health/i.test(t)), 'Andy answers in public chat', 15_000);
  // The stand-in espeak-ng took the line and hangs; the next answer is not held up by it.
  await waitUntil(() => existsSync(heardFile) && /health/i.test(readFileSync(heardFile, 'utf8')), 'espeak-ng was given the line', 10_000);
  const before = heard.length;
  steve.chat('Andy !stats');
  await waitUntil(() => heard.length > before, 'Andy answers again while the voice hangs', 15_000);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  expect(alive()).toBe(true);
  await running!.close();
  running = undefined;
  await waitUntil(() => !alive(), 'the hanging espeak-ng ended by the close', 5_000);
});
