/** The `bot_key` setting: no built-in key, a per-installation key file for `"auto"`, or the user's text. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { BOT_KEY_FILE, resolveBotKey } from '../../src/app/bot-key.ts';
import { settingsSchema } from '../../src/settings/index.ts';
import * as conversation from '../../src/conversation/index.ts';

const root = mkdtempSync(path.join(tmpdir(), 'bot-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('the default is no key: cross-process discovery stays off, and the source has no public key', async () => {
  expect(settingsSchema.parse({}).bot_key).toBe('');
  expect(await resolveBotKey('', path.join(root, 'none'))).toEqual({ key: undefined });
  expect('DEFAULT_BOT_KEY' in conversation).toBe(false);
});

test('any other text is the key itself', async () => {
  expect(await resolveBotKey('team secret', path.join(root, 'text'))).toEqual({ key: 'team secret' });
});

test('"auto" writes a random key once to bots/.bot_key (mode 0600) and every process reads the same one', async () => {
  const dir = path.join(root, 'auto', 'bots');
  // Several processes starting at once: one file, one key for all.
  const results = await Promise.all([1, 2, 3, 4].map(() => resolveBotKey('auto', dir)));
  const file = path.join(dir, BOT_KEY_FILE);
  const key = readFileSync(file, 'utf8').trim();
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  for (const r of results) expect(r).toEqual({ key, file });
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(await resolveBotKey('auto', dir)).toEqual({ key, file });
  // Another installation gets another key.
  const other = await resolveBotKey('auto', path.join(root, 'auto2', 'bots'));
  expect(other.key).toMatch(/^[0-9a-f]{64}$/);
  expect(other.key).not.toBe(key);
});

test('an empty key file is an error that says what to do, not a silent empty key', async () => {
  const dir = path.join(root, 'empty');
  await resolveBotKey('auto', dir);
  writeFileSync(path.join(dir, BOT_KEY_FILE), '\n');
  await expect(resolveBotKey('auto', dir)).rejects.toThrow(/could not read the bot key .*\.bot_key: the file is empty: delete it/);
});
