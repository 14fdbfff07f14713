/**
 * The `bot_key` setting, resolved at start-up: the shared secret our whispering bots prove they
 * know (see `conversation/whisper.ts`). There is no built-in key: a key anyone can read in the
 * source would let any player pose as one of our bots.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** File of the per-installation key inside the bots folder (`bot_key: "auto"`). */
export const BOT_KEY_FILE = '.bot_key';

/** The setting value that asks for the per-installation key. */
export const AUTO_BOT_KEY = 'auto';

/** Random bytes in a generated key (hex-encoded: 64 characters). */
const KEY_BYTES = 32;

/** What {@link resolveBotKey} found. */
export interface ResolvedBotKey {
  /** The key, or undefined when none is set (cross-process discovery off). */
  key: string | undefined;
  /** `<botsDir>/.bot_key` when the key came from (or was written to) that file. */
  file?: string;
}

/**
 * Resolves the `bot_key` setting: `""` → no key; `"auto"` → the installation's key in
 * `<botsDir>/.bot_key`, created on first use from `crypto.randomBytes` with mode 0600 (created
 * atomically, so two processes starting at once end up with the same key); any other text →
 * that text.
 *
 * @throws Error when the key file cannot be read or written (the message names the file).
 */
export async function resolveBotKey(setting: string, botsDir: string): Promise<ResolvedBotKey> {
  if (setting === '') return { key: undefined };
  if (setting !== AUTO_BOT_KEY) return { key: setting };
  const file = path.join(botsDir, BOT_KEY_FILE);
  try {
    return { key: await readKey(file), file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`could not read the bot key ${file}: ${(err as Error).message}`);
  }
  try {
    await mkdir(botsDir, { recursive: true });
    // Write a private temporary file, then link it into place: the key file appears whole or not at all.
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      await link(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process was first: use its key
    } finally {
      await unlink(tmp).catch(() => {});
    }
    return { key: await readKey(file), file };
  } catch (err) {
    throw new Error(`could not create the bot key ${file}: ${(err as Error).message}`);
  }
}

async function readKey(file: string): Promise<string> {
  const key = (await readFile(file, 'utf8')).trim();
  if (!key) throw new Error('the file is empty: delete it and start again');
  return key;
}

/** The start-up line when no key is set and bots of other processes therefore are not looked for. */
export const NO_BOT_KEY_NOTICE =
  'Bots in other processes are not discovered: no "bot_key" is set. To let them find each other by whispers, set "bot_key": "auto" in settings.json (processes on this machine), or the same secret text in every process of the team.';
