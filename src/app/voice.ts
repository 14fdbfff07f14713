/**
 * The bots' voice (MINDcraft's `speak`): each public chat line a speaking bot says is read aloud
 * by its profile's `speak_model`:
 *
 * - `system`: the platform's own voice, `espeak-ng` (Debian's package) or `say` on macOS;
 * - `openai/<model>/<voice>`: OpenAI's speech API (`POST {baseURL}/audio/speech`) through the SDK;
 * - `google/<model>/<voice>`: Gemini's speech generation (`models.generateContent` with audio out)
 *   through @google/genai.
 *
 * The dashboard's pages can play the lines too ({@link Voice.listen}).
 *
 * Speaking never waits on the bots: lines go into one bounded queue per process ({@link Voice}),
 * spoken one at a time, each utterance bounded in time and cancelled when the voice closes. A full
 * queue drops new lines and logs how many. An engine that cannot work (no `espeak-ng` on PATH, no
 * API key) is said once, when the first bot that uses it starts; that bot's lines are not queued.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type OpenAI from 'openai';
import type { BotEvent, BotEventBus } from '../agent/events.ts';

/** Something that reads a line aloud, or writes it to a sound file. */
export interface SpeechEngine {
  /** How the engine is named in log lines, e.g. `espeak-ng` or `openai/tts-1/alloy`. */
  readonly name: string;
  /** Extension of the files it writes: `wav`, or `aiff` for macOS `say`. */
  readonly extension: string;
  /**
   * Speaks `text`; resolves when the utterance has ended.
   *
   * @param file where to write the sound instead of playing it, or undefined to play it.
   * @throws when the engine fails or `signal` aborts (the voice logs it; chat never sees it).
   */
  speak(text: string, signal: AbortSignal, file?: string): Promise<void>;
}

/** An engine, or the one-line reason there is none. */
export type EngineChoice = { engine: SpeechEngine } | { missing: string };

/** Where to find programs and keys. */
export interface EngineEnvironment {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Whether sound goes to files (`speak_output_dir`): then no player is needed. */
  toFiles?: boolean;
}

/**
 * The full path of the executable `name` on `env.PATH`, or undefined.
 *
 * @example onPath('espeak-ng') // '/usr/bin/espeak-ng' where Debian's package is installed
 */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, name);
    try {
      accessSync(full, constants.X_OK);
      return full;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Runs `program` with `text` on its standard input; rejects on a failure exit or when `signal` aborts (the child is killed). */
function run(program: string, args: readonly string[], text: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(program, args, { signal }, (error) => (error ? reject(error) : resolve()));
    child.stdin?.on('error', () => {}); // a child that exits early closes the pipe; its exit code tells
    child.stdin?.end(text);
  });
}

/**
 * The platform's own voice: `say` on macOS (reads standard input with `-f -`; files as AIFF),
 * elsewhere `espeak-ng` (reads standard input; `-w` writes a WAV file).
 */
export function systemEngine(options: EngineEnvironment = {}): EngineChoice {
  const env = options.env ?? process.env;
  if ((options.platform ?? process.platform) === 'darwin') {
    const say = onPath('say', env);
    if (!say) return { missing: 'the "system" voice needs macOS `say`, which is not on PATH' };
    return {
      engine: {
        name: 'say',
        extension: 'aiff',
        speak: (text, signal, file) => run(say, file ? ['-f', '-', '-o', file] : ['-f', '-'], text, signal),
      },
    };
  }
  const espeak = onPath('espeak-ng', env);
  if (!espeak) return { missing: 'the "system" voice needs espeak-ng, which is not on PATH (Debian: apt-get install espeak-ng)' };
  return {
    engine: {
      name: 'espeak-ng',
      extension: 'wav',
      speak: (text, signal, file) => run(espeak, file ? ['-w', file] : [], text, signal),
    },
  };
}

/** Players tried, in order, for sound that an API returns (they take a file path). */
const PLAYERS = ['afplay', 'paplay', 'aplay'] as const;

/** The first of {@link PLAYERS} on PATH. */
function soundPlayer(env: NodeJS.ProcessEnv): string | undefined {
  return PLAYERS.map((p) => onPath(p, env)).find(Boolean);
}

/** Plays the sound file `file` with `player`; resolves when it has ended. */
function play(player: string, file: string, signal: AbortSignal): Promise<void> {
  return run(player, [file], '', signal);
}

/**
 * An engine whose sound comes back as WAV bytes (a provider's API): written to the file asked
 * for, or played by the first of afplay, paplay or aplay on PATH.
 */
function apiEngine(
  name: string,
  synthesize: (text: string, signal: AbortSignal) => Promise<Buffer>,
  options: EngineEnvironment,
): EngineChoice {
  const player = options.toFiles ? undefined : soundPlayer(options.env ?? process.env);
  if (!options.toFiles && !player)
    return { missing: `${name} needs a player for its sound (${PLAYERS.join(', ')}), and none is on PATH; or set speak_output_dir` };
  return {
    engine: {
      name,
      extension: 'wav',
      async speak(text, signal, file) {
        const sound = await synthesize(text, signal);
        if (file) return writeFile(file, sound);
        const temp = path.join(tmpdir(), `voice-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.wav`);
        await writeFile(temp, sound);
        try {
          await play(player!, temp, signal);
        } finally {
          await rm(temp, { force: true });
        }
      },
    },
  };
}

/**
 * OpenAI's text-to-speech: `audio.speech.create({ model, voice, input, response_format: 'wav' })`
 * with `OPENAI_API_KEY` (and `OPENAI_BASE_URL` when set, or `baseURL`). Without files, the WAV is
 * played by the first of afplay, paplay or aplay on PATH.
 */
export function openaiEngine(model: string, voice: string, options: EngineEnvironment & { baseURL?: string } = {}): EngineChoice {
  const env = options.env ?? process.env;
  const name = `openai/${model}/${voice}`;
  const apiKey = env.OPENAI_API_KEY;
  if (!apiKey) return { missing: `${name} needs OPENAI_API_KEY (in keys.json or the environment)` };
  // The SDK is loaded with the first line spoken: a start without this voice never loads it.
  let client: Promise<OpenAI> | undefined;
  const openai = (): Promise<OpenAI> =>
    (client ??= import('openai').then(
      ({ default: SDK }) => new SDK({ apiKey, baseURL: options.baseURL || env.OPENAI_BASE_URL || undefined, maxRetries: 0 }),
    ));
  return apiEngine(
    name,
    async (text, signal) => {
      const response = await (await openai()).audio.speech.create({ model, voice, input: text, response_format: 'wav' }, { signal });
      return Buffer.from(await response.arrayBuffer());
    },
    options,
  );
}

/**
 * Gemini's speech generation (the reference's `google/<model>/<voice>`, e.g.
 * `google/gemini-2.5-flash-preview-tts/Kore`): `models.generateContent` with
 * `responseModalities: ['AUDIO']` and the prebuilt voice, through @google/genai, with
 * `GEMINI_API_KEY` (and `GOOGLE_GEMINI_BASE_URL` when set, or `baseURL`). Its answer is raw 16-bit
 * mono PCM (`audio/L16;codec=pcm;rate=24000`: the rate from the mime type), written as WAV.
 * Without files, played as {@link openaiEngine}'s.
 */
export function googleEngine(model: string, voice: string, options: EngineEnvironment & { baseURL?: string } = {}): EngineChoice {
  const env = options.env ?? process.env;
  const name = `google/${model}/${voice}`;
  const apiKey = env.GEMINI_API_KEY;
  if (!apiKey) return { missing: `${name} needs GEMINI_API_KEY (in keys.json or the environment)` };
  const baseUrl = options.baseURL || env.GOOGLE_GEMINI_BASE_URL || undefined;
  let client: Promise<import('@google/genai').GoogleGenAI> | undefined;
  const genai = () =>
    (client ??= import('@google/genai').then(
      ({ GoogleGenAI }) => new GoogleGenAI({ apiKey, ...(baseUrl ? { httpOptions: { baseUrl } } : {}) }),
    ));
  return apiEngine(
    name,
    async (text, signal) => {
      const response = await (
        await genai()
      ).models.generateContent({
        model,
        contents: text,
        config: {
          responseModalities: ['AUDIO'],
          speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: voice } } },
          abortSignal: signal,
        },
      });
      const audio = response.candidates?.[0]?.content?.parts?.find((p) => p.inlineData?.mimeType?.startsWith('audio/'))?.inlineData;
      if (!audio?.data) throw new Error(`${name} answered without audio`);
      const rate = Number(/rate=(\d+)/.exec(audio.mimeType ?? '')?.[1] ?? 24_000);
      return pcmWav(Buffer.from(audio.data, 'base64'), rate);
    },
    options,
  );
}

/**
 * A WAV file (RIFF, PCM, 16-bit little-endian mono at `rate` samples a second) holding `pcm`.
 *
 * @example pcmWav(Buffer.alloc(48_000), 24_000) // one second of silence, 48 044 bytes
 */
export function pcmWav(pcm: Buffer, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // channels
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // bytes a second
  header.writeUInt16LE(2, 32); // bytes a sample
  header.writeUInt16LE(16, 34); // bits a sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/**
 * The engine of a `speak_model` (see its setting in `settings/schema.ts`).
 *
 * @example chooseEngine('openai/tts-1/alloy', { env: { OPENAI_API_KEY: 'sk-…' }, toFiles: true }) // { engine: … }
 */
export function chooseEngine(speakModel: string, options: EngineEnvironment = {}): EngineChoice {
  if (speakModel === 'system') return systemEngine(options);
  const [provider, model, voice, ...rest] = speakModel.split('/');
  if (provider === 'openai' && model && voice && !rest.length) return openaiEngine(model, voice, options);
  if (provider === 'google' && model && voice && !rest.length) return googleEngine(model, voice, options);
  return {
    missing: `speak_model "${speakModel}" is not one of "system", "openai/<model>/<voice>" (e.g. "openai/tts-1/alloy") or "google/<model>/<voice>" (e.g. "google/gemini-2.5-flash-preview-tts/Kore")`,
  };
}

/** One line the voice finished with. */
export interface SpokenLine {
  bot: string;
  text: string;
  /** The sound file written (with `outputDir`). */
  file?: string;
  /** Why it was not spoken to the end (the engine's error, a timeout or the close). */
  error?: string;
}

/** A line's sound, for those who play it elsewhere (the dashboard's pages): see {@link Voice.listen}. */
export interface LineSound {
  bot: string;
  text: string;
  /** `audio/wav`, or `audio/aiff` (macOS `say`). */
  mime: string;
  data: Buffer;
}

/** What a {@link Voice} needs. */
export interface VoiceOptions {
  bus: BotEventBus;
  /** Where notices go (the terminal and log): missing engines, drops, failures. */
  log: (line: string) => void;
  /** Lines waiting at most (the one being spoken not counted); default 20. */
  limit?: number;
  /** Longest one utterance may take, in ms; default 30 000. */
  utteranceTimeoutMs?: number;
  /** Writes each line to `<outputDir>/<bot>-<n>.<ext>` instead of playing it. */
  outputDir?: string;
  /** The engine of a `speak_model`; default {@link chooseEngine}. Called once per model. */
  choose?: (speakModel: string) => EngineChoice;
  /** Called after each line (spoken, failed or cancelled). */
  onSpoken?: (line: SpokenLine) => void;
  /** Those who get each line as sound ({@link Voice.listen} adds to it); shared with the caller, who may add and remove too. */
  listeners?: Set<(sound: LineSound) => void>;
}

/** The mime type of each engine's file extension. */
const MIME: Readonly<Record<string, string>> = { wav: 'audio/wav', aiff: 'audio/aiff' };

/** Default bound of the voice's queue, in lines. */
export const VOICE_QUEUE_LIMIT = 20;

/**
 * Reads the bots' public chat aloud, one line at a time, from the {@link BotEventBus}: a bot
 * speaks once {@link add}ed with its `speak_model`. Publishing on the bus never waits on it.
 *
 * @example
 * const voice = new Voice({ bus, log: console.log, outputDir: '/tmp/voice' });
 * voice.add('Andy', 'system'); // false, and one log line, when espeak-ng is missing
 * // … Andy says "hello" in public chat → /tmp/voice/Andy-1.wav
 * await voice.close();
 */
export class Voice {
  readonly #options: VoiceOptions;
  readonly #engines = new Map<string, EngineChoice>();
  readonly #speakers = new Map<string, SpeechEngine>();
  readonly #queue: { bot: string; text: string; engine: SpeechEngine }[] = [];
  readonly #closing = new AbortController();
  readonly #unsubscribe: () => void;
  #speaking: Promise<void> | undefined;
  #dropped = 0;
  #droppedRun = 0;
  #count = 0;
  readonly #listeners: Set<(sound: LineSound) => void>;
  #noPlayerSaid = false;

  constructor(options: VoiceOptions) {
    this.#options = options;
    this.#listeners = options.listeners ?? new Set();
    this.#unsubscribe = options.bus.subscribe((event) => this.#hear(event));
  }

  /** Lines dropped so far because the queue was full. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Lines waiting (not counting the one being spoken). */
  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * Lets `bot` speak with `speakModel`. The first time a model's engine is missing, says so in
   * the log, once.
   *
   * @returns whether the bot will speak.
   */
  add(bot: string, speakModel: string): boolean {
    let choice = this.#engines.get(speakModel);
    if (!choice) {
      const { outputDir, choose } = this.#options;
      choice = choose ? choose(speakModel) : chooseEngine(speakModel, { toFiles: Boolean(outputDir) });
      this.#engines.set(speakModel, choice);
      if ('missing' in choice) this.#options.log(`voice: ${choice.missing}; the bots that use it stay silent.`);
    }
    if ('missing' in choice) return false;
    this.#speakers.set(bot, choice.engine);
    return true;
  }

  /** Silences `bot`: its waiting lines are dropped (one being spoken ends). */
  remove(bot: string): void {
    this.#speakers.delete(bot);
    for (let i = this.#queue.length - 1; i >= 0; i--) if (this.#queue[i]!.bot === bot) this.#queue.splice(i, 1);
  }

  /**
   * Hands every line spoken from now on, as sound, to `listener` too (the dashboard's pages play
   * them). While anyone listens, each line is made into a file first; without `outputDir` that
   * file is then played on this machine by the first of afplay, paplay or aplay on PATH (with
   * none, the lines are heard where they are listened to only, said once).
   *
   * @returns a function that stops listening.
   */
  listen(listener: (sound: LineSound) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops listening, drops the waiting lines and cancels the one being spoken; resolves when it has ended. */
  async close(): Promise<void> {
    this.#unsubscribe();
    this.#noteDrops();
    this.#queue.length = 0;
    this.#closing.abort(new Error('the voice was closed'));
    await this.#speaking;
  }

  #hear(event: BotEvent): void {
    if (event.type !== 'chat' || event.direction !== 'out' || event.channel !== 'public') return;
    const engine = this.#speakers.get(event.bot);
    const text = event.text.trim();
    if (!engine || !text || this.#closing.signal.aborted) return;
    if (this.#queue.length >= (this.#options.limit ?? VOICE_QUEUE_LIMIT)) {
      this.#dropped++;
      this.#droppedRun++;
      return;
    }
    this.#noteDrops();
    this.#queue.push({ bot: event.bot, text, engine });
    if (!this.#speaking) this.#speaking = this.#drain();
  }

  /** Logs the lines dropped since the queue last had room, if any. */
  #noteDrops(): void {
    if (!this.#droppedRun) return;
    const limit = this.#options.limit ?? VOICE_QUEUE_LIMIT;
    this.#options.log(`voice: the queue was full (${limit} lines); ${this.#droppedRun} line(s) not spoken (${this.#dropped} in all).`);
    this.#droppedRun = 0;
  }

  /** Gives `sound` to every listener; a listener's fault is its own. */
  #hand(sound: LineSound): void {
    for (const listener of this.#listeners) {
      try {
        listener(sound);
      } catch {
        // a listener's fault must not stop the voice
      }
    }
  }

  /** Plays a line made into a file for the listeners on this machine too, when a player is on PATH. */
  async #playHere(file: string, signal: AbortSignal): Promise<void> {
    const player = soundPlayer(process.env);
    if (player) return play(player, file, signal);
    if (this.#noPlayerSaid) return;
    this.#noPlayerSaid = true;
    this.#options.log(
      `voice: no player for this machine's speakers (${PLAYERS.join(', ')}): the lines are heard where they are listened to.`,
    );
  }

  async #drain(): Promise<void> {
    const { outputDir, utteranceTimeoutMs = 30_000, log, onSpoken } = this.#options;
    for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
      const { bot, text, engine } = next;
      const n = ++this.#count;
      const heard = this.#listeners.size > 0;
      // Listeners get the line as sound: made into a file (a temporary one without outputDir).
      const temp = heard && !outputDir ? path.join(tmpdir(), `voice-${process.pid}-${n}.${engine.extension}`) : undefined;
      const file = outputDir ? path.join(outputDir, `${bot}-${n}.${engine.extension}`) : temp;
      const signal = AbortSignal.any([this.#closing.signal, AbortSignal.timeout(utteranceTimeoutMs)]);
      let error: string | undefined;
      try {
        if (outputDir) await mkdir(outputDir, { recursive: true });
        await engine.speak(text, signal, file);
        if (heard) this.#hand({ bot, text, mime: MIME[engine.extension] ?? 'application/octet-stream', data: await readFile(file!) });
        if (temp) await this.#playHere(temp, signal);
      } catch (err) {
        error = signal.aborted ? `${(signal.reason as Error)?.message ?? 'aborted'}` : (err as Error).message;
        if (!this.#closing.signal.aborted) log(`voice: ${bot}'s line was not spoken by ${engine.name}: ${error}`);
      }
      if (temp) await rm(temp, { force: true });
      try {
        onSpoken?.({ bot, text, ...(file && !temp && !error ? { file } : {}), ...(error ? { error } : {}) });
      } catch {
        // a listener's fault must not stop the voice
      }
    }
    this.#speaking = undefined;
  }
}
