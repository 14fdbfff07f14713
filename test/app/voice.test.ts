/**
 * The bots' voice (src/app/voice.ts): espeak-ng writing WAV files whose length is read from their
 * RIFF header, OpenAI's speech API through the real SDK against the fake provider, the queue's
 * bound and drop count, a hanging engine that never delays chat, and missing engines said once.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BotEventBus, type BotEvent } from '../../src/agent/events.ts';
import { chooseEngine, onPath, Voice, type SpeechEngine, type SpokenLine } from '../../src/app/voice.ts';
import { FAKE_SPEECH_SECONDS, startFakeGeminiSpeech, startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { waitUntil } from '../helpers/wait.ts';

/** The length of a PCM WAV file in seconds: its `data` chunk's bytes over the `fmt ` chunk's byte rate. */
function wavSeconds(file: string): number {
  const wav = readFileSync(file);
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
  expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
  let byteRate: number | undefined;
  for (let at = 12; at + 8 <= wav.length;) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') byteRate = wav.readUInt32LE(at + 8 + 8);
    if (id === 'data') {
      expect(byteRate, 'a fmt chunk before the data').toBeGreaterThan(0);
      expect(at + 8 + size, 'the data chunk fits in the file').toBeLessThanOrEqual(wav.length);
      return size / byteRate!;
    }
    at += 8 + size + (size % 2);
  }
  throw new Error(`${file} has no data chunk`);
}

function say(bus: BotEventBus, bot: string, text: string, channel: 'public' | 'whisper' = 'public'): BotEvent {
  return bus.publish({ type: 'chat', bot, direction: 'out', channel, peer: channel === 'public' ? '*' : 'Steve', text });
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function outDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'voice-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A voice on a fresh bus, its log lines and finished lines kept; closed after the test. */
function voiceOf(options: Partial<ConstructorParameters<typeof Voice>[0]> = {}) {
  const bus = new BotEventBus();
  const log: string[] = [];
  const spoken: SpokenLine[] = [];
  const voice = new Voice({ bus, log: (l) => log.push(l), onSpoken: (l) => spoken.push(l), ...options });
  cleanups.push(() => voice.close());
  return { bus, log, spoken, voice };
}

/** An engine whose utterances end only when the test says so (or their signal aborts). */
function heldEngine() {
  const started: { text: string; signal: AbortSignal; end: () => void }[] = [];
  const engine: SpeechEngine = {
    name: 'held',
    extension: 'wav',
    speak: (text, signal) =>
      new Promise<void>((resolve, reject) => {
        started.push({ text, signal, end: resolve });
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      }),
  };
  return { engine, started };
}

const espeak = onPath('espeak-ng');

describe('system voice (espeak-ng)', () => {
  test.skipIf(!espeak)('writes one WAV file per public line, as long as the line takes to say', async () => {
    const dir = outDir();
    const { bus, log, spoken, voice } = voiceOf({ outputDir: dir });
    expect(voice.add('Andy', 'system')).toBe(true);
    const short = 'I have wood.';
    const long = 'I have collected twelve oak logs and I am going back to the village to build a small house for us.';
    say(bus, 'Andy', short);
    say(bus, 'Andy', 'a whisper is not read aloud', 'whisper');
    say(bus, 'Jill', 'Jill does not speak');
    say(bus, 'Andy', long);
    await waitUntil(() => spoken.length >= 2, 'two lines spoken', 20_000);
    expect(log).toEqual([]);
    expect(spoken.map((l) => [l.bot, l.text, l.error])).toEqual([
      ['Andy', short, undefined],
      ['Andy', long, undefined],
    ]);
    expect(spoken.map((l) => path.basename(l.file!))).toEqual(['Andy-1.wav', 'Andy-2.wav']);
    const [a, b] = spoken.map((l) => wavSeconds(l.file!));
    // espeak-ng speaks about 175 words a minute: 3 words ≈ 1 s, 21 words ≈ 7 s.
    expect(a).toBeGreaterThan(0.5);
    expect(a).toBeLessThan(3);
    expect(b).toBeGreaterThan(4);
    expect(b).toBeLessThan(12);
  });
  if (!espeak) test.skip('espeak-ng is not on PATH (Debian: apt-get install espeak-ng); the system voice test is skipped', () => {});

  test('no espeak-ng on PATH: said once at start-up, and the bot stays silent', () => {
    const { bus, log, voice } = voiceOf({ choose: (m) => chooseEngine(m, { env: { PATH: '' }, platform: 'linux' }) });
    expect(voice.add('Andy', 'system')).toBe(false);
    expect(voice.add('Jill', 'system')).toBe(false);
    say(bus, 'Andy', 'hello');
    expect(voice.waiting).toBe(0);
    expect(log).toEqual([
      'voice: the "system" voice needs espeak-ng, which is not on PATH (Debian: apt-get install espeak-ng); the bots that use it stay silent.',
    ]);
  });
});

describe('choosing the engine', () => {
  test('macOS: `say` reads the line from standard input and writes AIFF with -o', async () => {
    const bin = outDir();
    // A stand-in for macOS `say`: writes its arguments and its input to the -o file.
    writeFileSync(path.join(bin, 'say'), '#!/bin/sh\nout="$4"\n{ echo "$@"; cat; } > "$out"\n');
    chmodSync(path.join(bin, 'say'), 0o755);
    const choice = chooseEngine('system', { env: { PATH: bin }, platform: 'darwin' });
    expect('engine' in choice && choice.engine.name).toBe('say');
    const file = path.join(bin, 'line.aiff');
    await (choice as { engine: SpeechEngine }).engine.speak('-rf hello', AbortSignal.timeout(5_000), file);
    expect(readFileSync(file, 'utf8')).toBe(`-f - -o ${file}\n-rf hello`);
    expect(chooseEngine('system', { env: { PATH: '' }, platform: 'darwin' })).toEqual({
      missing: 'the "system" voice needs macOS `say`, which is not on PATH',
    });
  });

  test('a speak_model of no known shape is refused by the profile schema, with the expected forms', () => {
    expect(profileSchema.safeParse({ name: 'Andy', speak_model: 'openai/tts-1/alloy' }).success).toBe(true);
    const bad = profileSchema.safeParse({ name: 'Andy', speak_model: 'espeak' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(
      'expected "system", "openai/<model>/<voice>" (e.g. "openai/tts-1/alloy") or "google/<model>/<voice>" (e.g. "google/gemini-2.5-flash-preview-tts/Kore")',
    );
    expect(chooseEngine('openai/tts-1')).toEqual({
      missing:
        'speak_model "openai/tts-1" is not one of "system", "openai/<model>/<voice>" (e.g. "openai/tts-1/alloy") or "google/<model>/<voice>" (e.g. "google/gemini-2.5-flash-preview-tts/Kore")',
    });
  });
});

describe('OpenAI voice', () => {
  let fake: FakeProviderServer;

  test('reads lines through audio.speech.create and writes the WAV it answers', async () => {
    fake = await startFakeProvider('openai');
    cleanups.push(() => fake.close());
    const dir = outDir();
    const { bus, log, spoken, voice } = voiceOf({
      outputDir: dir,
      choose: (m) => chooseEngine(m, { env: { ...fake.env, OPENAI_BASE_URL: fake.url }, toFiles: true }),
    });
    expect(voice.add('Andy', 'openai/tts-1/alloy')).toBe(true);
    say(bus, 'Andy', 'Hello there!');
    await waitUntil(() => spoken.length === 1, 'the line spoken');
    expect(log).toEqual([]);
    expect(spoken[0]!.error).toBeUndefined();
    expect(fake.requests.map((r) => [r.method, r.path])).toEqual([['POST', '/v1/audio/speech']]);
    expect(fake.requests[0]!.body).toMatchObject({ model: 'tts-1', voice: 'alloy', input: 'Hello there!', response_format: 'wav' });
    expect(wavSeconds(spoken[0]!.file!)).toBeCloseTo(FAKE_SPEECH_SECONDS, 6);
  });

  test('no API key: said once for each voice; a wrong key is logged per line, chat unharmed', async () => {
    fake = await startFakeProvider('openai');
    cleanups.push(() => fake.close());
    const { bus, log, spoken, voice } = voiceOf({
      outputDir: outDir(),
      choose: (m) =>
        chooseEngine(m, { env: { OPENAI_API_KEY: m.endsWith('nova') ? 'wrong' : '', OPENAI_BASE_URL: fake.url }, toFiles: true }),
    });
    expect(voice.add('Andy', 'openai/tts-1/alloy')).toBe(false);
    expect(voice.add('Bob', 'openai/tts-1/alloy')).toBe(false);
    expect(voice.add('Jill', 'google/gemini-2.5-flash-preview-tts/Kore')).toBe(false);
    expect(log).toEqual([
      'voice: openai/tts-1/alloy needs OPENAI_API_KEY (in keys.json or the environment); the bots that use it stay silent.',
      'voice: google/gemini-2.5-flash-preview-tts/Kore needs GEMINI_API_KEY (in keys.json or the environment); the bots that use it stay silent.',
    ]);
    expect(voice.add('Eve', 'openai/tts-1/nova')).toBe(true);
    say(bus, 'Eve', 'one');
    await waitUntil(() => spoken.length === 1, 'the line tried');
    expect(spoken[0]!.error).toMatch(/401/);
    expect(log[2]).toMatch(/^voice: Eve's line was not spoken by openai\/tts-1\/nova: 401/);
  });
});

describe('Google voice', () => {
  test('reads lines through @google/genai generateContent with audio out, and writes its PCM as WAV', async () => {
    const fake = await startFakeGeminiSpeech();
    cleanups.push(() => fake.close());
    const { bus, log, spoken, voice } = voiceOf({
      outputDir: outDir(),
      choose: (m) => chooseEngine(m, { env: fake.env, toFiles: true }),
    });
    expect(voice.add('Andy', 'google/gemini-2.5-flash-preview-tts/Kore')).toBe(true);
    say(bus, 'Andy', 'Hello there!');
    await waitUntil(() => spoken.length === 1, 'the line spoken');
    expect(log).toEqual([]);
    expect(spoken[0]!.error).toBeUndefined();
    expect(fake.requests.map((r) => r.method)).toEqual(['POST']);
    expect(fake.requests[0]!.path).toMatch(/^\/v1(beta)?\/models\/gemini-2.5-flash-preview-tts:generateContent$/);
    expect(fake.requests[0]!.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Hello there!' }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
      },
    });
    expect(wavSeconds(spoken[0]!.file!)).toBeCloseTo(FAKE_SPEECH_SECONDS, 6);
  });

  test('a wrong key is logged per line', async () => {
    const fake = await startFakeGeminiSpeech('right-key');
    cleanups.push(() => fake.close());
    const { bus, log, spoken, voice } = voiceOf({
      outputDir: outDir(),
      choose: (m) => chooseEngine(m, { env: { ...fake.env, GEMINI_API_KEY: 'wrong' }, toFiles: true }),
    });
    expect(voice.add('Andy', 'google/gemini-2.5-flash-preview-tts/Puck')).toBe(true);
    say(bus, 'Andy', 'one');
    await waitUntil(() => spoken.length === 1, 'the line tried');
    expect(spoken[0]!.error).toMatch(/API key not valid/);
    expect(log[0]).toMatch(/^voice: Andy's line was not spoken by google\/gemini-2.5-flash-preview-tts\/Puck: .*API key not valid/);
  });
});

describe('the queue', () => {
  test('holds at most `limit` lines; more are dropped and counted in one log line once it has room', async () => {
    const { engine, started } = heldEngine();
    const { bus, log, spoken, voice } = voiceOf({ limit: 3, choose: () => ({ engine }) });
    voice.add('Andy', 'system');
    for (let i = 1; i <= 7; i++) say(bus, 'Andy', `line ${i}`);
    // line 1 is being spoken, lines 2–4 wait, 5–7 are dropped.
    await waitUntil(() => started.length === 1, 'the first line started');
    expect(voice.waiting).toBe(3);
    expect(voice.dropped).toBe(3);
    expect(log).toEqual([]);
    started[0]!.end();
    await waitUntil(() => started.length === 2, 'the second line started');
    say(bus, 'Andy', 'line 8');
    expect(log).toEqual(['voice: the queue was full (3 lines); 3 line(s) not spoken (3 in all).']);
    for (let i = 1; i < 5; i++) {
      await waitUntil(() => started.length > i, `line ${i + 1} started`);
      started[i]!.end();
    }
    await waitUntil(() => spoken.length === 5, 'every kept line spoken');
    expect(spoken.map((l) => l.text)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 8']);
    expect(voice.dropped).toBe(3);
  });

  test('a hanging engine never delays chat; each utterance is cut at its time bound; close cancels the one under way', async () => {
    const { engine, started } = heldEngine();
    const { bus, log, spoken, voice } = voiceOf({ utteranceTimeoutMs: 200, choose: () => ({ engine }) });
    const heard: string[] = [];
    voice.add('Andy', 'system');
    bus.subscribe((e) => {
      if (e.type === 'chat') heard.push(e.text);
    });
    say(bus, 'Andy', 'first');
    say(bus, 'Andy', 'second');
    // publish returned, and the other listener had both lines, while the engine hangs.
    expect(heard).toEqual(['first', 'second']);
    await waitUntil(() => spoken.length === 1, 'the first line cut at its bound');
    expect(spoken[0]!.error).toMatch(/timeout/i);
    expect(log[0]).toMatch(/^voice: Andy's line was not spoken by held: .*timeout/i);
    await waitUntil(() => started.length === 2, 'the second line started');
    const closing = voice.close();
    expect(started[1]!.signal.aborted).toBe(true);
    await closing;
    expect(spoken.map((l) => [l.text, l.error])).toEqual([
      ['first', spoken[0]!.error],
      ['second', 'the voice was closed'],
    ]);
    say(bus, 'Andy', 'after close');
    expect(voice.waiting).toBe(0);
    expect(log).toHaveLength(1);
  });
});
