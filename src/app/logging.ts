/**
 * The process's structured logger (pino): readable lines on the terminal (pino-pretty) and, for
 * each bot, JSON lines in `<botsDir>/<name>/log.<n>.jsonl`, rotated by size (pino-roll: the live
 * file has the highest number, `current.log` beside it links to it). Whenever a file is opened
 * (at start and at each rotation) the bot's folder is pruned to the live file and the `keepFiles`
 * newest before it, whichever process wrote them: pino-roll's own limit counts only the files of
 * the process that made them, so every restart left its files behind. Every bot has a child logger; {@link Logging.attach} logs every event
 * of a {@link BotEventBus} through the bot's child, so the terminal, the files, the dashboard and
 * the run records all read the same stream.
 */
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import pinoRoll from 'pino-roll';
import type { SonicBoom } from 'sonic-boom';
import { describeEvent, eventLevel, type BotEvent, type BotEventBus } from '../agent/events.ts';

export interface LoggingOptions {
  /** Folder of the bots' files (`<botsDir>/<name>/log.<n>.jsonl`); default `bots`. */
  botsDir?: string;
  /** Where readable lines go: a file descriptor (default 2, stderr) or `false` for none. */
  terminal?: number | false;
  /** Lowest level shown on the terminal (default `info`); the files get `debug` and above. */
  level?: 'debug' | 'info' | 'warn' | 'error';
  /** Size at which a bot's file is rotated (pino-roll's `size`; default `10m`). */
  fileSize?: string;
  /** Rotated files kept besides the live one (default 3). */
  keepFiles?: number;
  /** Colours on the terminal (default: when it is a TTY). */
  colorize?: boolean;
}

/** The logger of `npm start`: see the module comment. */
export interface Logging {
  /** The process's logger (lines of no particular bot; not written to any bot's file). */
  readonly root: Logger;
  /** The child logger of `bot` (its lines carry `bot` and go to its file too). */
  forBot(bot: string): Logger;
  /** Logs every event of `bus` through its bot's child logger. @returns the unsubscribe function. */
  attach(bus: BotEventBus): () => void;
  /** A `log` callback of plain lines, through the root logger at `info`. */
  line(text: string): void;
  /** Flushes and closes the files. */
  close(): Promise<void>;
}

/**
 * A writable that sends each JSON line with a `bot` field to that bot's rotating file, opened on
 * the bot's first line; lines written while a file is opening wait for it.
 */
class BotFiles extends Writable {
  readonly #files = new Map<string, Promise<SonicBoom | undefined>>();
  readonly #options: Required<Pick<LoggingOptions, 'botsDir' | 'fileSize' | 'keepFiles'>>;

  constructor(options: Required<Pick<LoggingOptions, 'botsDir' | 'fileSize' | 'keepFiles'>>) {
    super({ decodeStrings: false });
    this.#options = options;
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const line = chunk.toString();
    let bot: unknown;
    try {
      bot = (JSON.parse(line) as { bot?: unknown }).bot;
    } catch {
      bot = undefined;
    }
    if (typeof bot !== 'string' || !/^\w{1,16}$/.test(bot)) {
      done();
      return;
    }
    void this.#file(bot).then((file) => {
      file?.write(line);
      done();
    });
  }

  #file(bot: string): Promise<SonicBoom | undefined> {
    let file = this.#files.get(bot);
    if (!file) {
      const { botsDir, fileSize, keepFiles } = this.#options;
      const dir = path.join(botsDir, bot);
      // The folder first: pino-roll links current.log before its stream has made the folder.
      file = mkdir(dir, { recursive: true })
        .then(() => pinoRoll({ file: path.join(dir, 'log.jsonl'), size: fileSize, symlink: true }))
        .then((stream) => {
          // 'ready' follows every open: the first one and each rotation's.
          const prune = () =>
            void pruneLogFiles(dir, keepFiles, path.basename((stream as SonicBoom & { file?: string | null }).file ?? ''));
          stream.on('ready', prune);
          prune();
          return stream;
        })
        .catch(() => undefined); // an unwritable folder loses the file, never the bot
      this.#files.set(bot, file);
    }
    return file;
  }

  async closeFiles(): Promise<void> {
    const files = await Promise.all(this.#files.values());
    await Promise.all(
      files.map(
        (f) =>
          f &&
          new Promise<void>((resolve) => {
            f.once('close', () => resolve());
            f.end();
          }),
      ),
    );
    this.#files.clear();
  }
}

/** A bot's log file name (`log.<n>.jsonl`) and its number. */
const LOG_FILE = /^log\.(\d+)\.jsonl$/;

/**
 * Removes a bot's log files but the newest `keep + 1` (by number: the live one and `keep` before
 * it), never `live`. Files that are gone already (another process pruned them) are fine.
 */
export async function pruneLogFiles(dir: string, keep: number, live: string): Promise<void> {
  const files = (await readdir(dir).catch(() => [] as string[]))
    .map((name) => ({ name, n: Number(LOG_FILE.exec(name)?.[1] ?? NaN) }))
    .filter((f) => Number.isInteger(f.n))
    .sort((a, b) => b.n - a.n);
  await Promise.all(files.slice(keep + 1).map((f) => (f.name === live ? undefined : unlink(path.join(dir, f.name)).catch(() => {}))));
}

/** The fields of `event` kept in a log record (the prompt of a model call is left to the run records). */
function recordOf(event: BotEvent): Record<string, unknown> {
  if (event.type === 'log') return { event: 'log' };
  const { t: _t, bot: _bot, type, ...rest } = event;
  if (type === 'model') {
    const { request, ...fields } = rest as Omit<Extract<BotEvent, { type: 'model' }>, 't' | 'bot' | 'type'>;
    return { event: type, ...fields, ...(request ? { turns: request.turns.length } : {}) };
  }
  return { event: type, ...rest };
}

/**
 * Creates the process's logging (see the module comment).
 *
 * @example
 * const logging = createLogging({ botsDir: 'bots' });
 * const bus = new BotEventBus();
 * logging.attach(bus);
 * logging.line('Dashboard on http://127.0.0.1:8080');
 */
export function createLogging(options: LoggingOptions = {}): Logging {
  const files = new BotFiles({
    botsDir: path.resolve(options.botsDir ?? 'bots'),
    fileSize: options.fileSize ?? '10m',
    keepFiles: options.keepFiles ?? 3,
  });
  const streams: pino.StreamEntry[] = [{ level: 'debug', stream: files }];
  const terminal = options.terminal ?? 2;
  if (terminal !== false) {
    streams.push({
      level: options.level ?? 'info',
      stream: pretty({
        destination: terminal,
        sync: true,
        colorize: options.colorize ?? process.stderr.isTTY === true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,bot,event',
        hideObject: true,
        messageFormat: (log, key) => (typeof log.bot === 'string' ? `[${log.bot}] ${String(log[key])}` : String(log[key])),
      }),
    });
  }
  const root = pino({ level: 'debug', base: undefined }, pino.multistream(streams));
  const children = new Map<string, Logger>();
  const forBot = (bot: string): Logger => {
    let child = children.get(bot);
    if (!child) {
      child = root.child({ bot });
      children.set(bot, child);
    }
    return child;
  };
  return {
    root,
    forBot,
    attach(bus) {
      return bus.subscribe((event) => {
        const logger = event.bot ? forBot(event.bot) : root;
        logger[eventLevel(event)](recordOf(event), describeEvent(event));
      });
    },
    line(text) {
      root.info(text);
    },
    async close() {
      root.flush();
      await new Promise<void>((resolve) => {
        files.end(() => resolve());
      });
      await files.closeFiles();
    },
  };
}
