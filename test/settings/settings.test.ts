import { mkdtemp, writeFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, loadSettings } from '../../src/settings/index.ts';

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
});

async function project(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mc-settings-'));
  made.push(dir);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

describe('loadSettings', () => {
  test('loads settings.json and its profiles, filling defaults', async () => {
    const dir = await project({
      'settings.json': { port: 25570, profiles: ['./profiles/a.json', './profiles/b.json'] },
      'profiles/a.json': { name: 'Andy', model: 'anthropic/claude-sonnet-4-5' },
      'profiles/b.json': { name: 'Bob' },
    });
    const { settings, profiles, file } = await loadSettings(dir);
    expect(file).toBe(path.join(dir, 'settings.json'));
    expect(settings.port).toBe(25570);
    expect(settings.server).toBe('embedded');
    expect(profiles.map((p) => [p.name, p.model])).toEqual([
      ['Andy', 'anthropic/claude-sonnet-4-5'],
      ['Bob', 'oracle'],
    ]);
  });

  test('a wrong type names the file, the key, the expectation and the value found', async () => {
    const dir = await project({ 'settings.json': { port: 'abc', profiles: [] } });
    const err = await loadSettings(dir).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain(path.join(dir, 'settings.json'));
    expect(err.message).toMatch(/key "port": expected number, found string "abc"/);
    expect(err.message).toMatch(/key "profiles"/);
  });

  test('the world is survival unless it says superflat; a bad world or seed is named with what was expected', async () => {
    const andy = { 'a.json': { name: 'Andy' } };
    const plain = await project({ 'settings.json': { profiles: ['a.json'] }, ...andy });
    const { settings } = await loadSettings(plain);
    expect(settings.world).toBe('survival');
    expect(settings.seed).toBeUndefined();
    const flat = await project({ 'settings.json': { world: 'superflat', seed: -7, profiles: ['a.json'] }, ...andy });
    expect((await loadSettings(flat)).settings).toMatchObject({ world: 'superflat', seed: -7 });
    const badWorld = await project({ 'settings.json': { world: 'caves' } });
    await expect(loadSettings(badWorld)).rejects.toThrow(/key "world": .*"survival".*"superflat".*caves/);
    const badSeed = await project({ 'settings.json': { seed: 1.5 } });
    await expect(loadSettings(badSeed)).rejects.toThrow(/key "seed": .*int/i);
    const bigSeed = await project({ 'settings.json': { seed: 2 ** 31 } });
    await expect(loadSettings(bigSeed)).rejects.toThrow(/key "seed": .*2147483647/);
  });

  test('an unknown key is rejected by name', async () => {
    const dir = await project({ 'settings.json': { prot: 1 } });
    await expect(loadSettings(dir)).rejects.toThrow(/unknown key "prot"/);
  });

  test('a bad profile names the profile file and key', async () => {
    const dir = await project({
      'settings.json': { profiles: ['p.json'] },
      'p.json': { name: 'a b', model: 3 },
    });
    const err: Error = await loadSettings(dir).catch((e) => e);
    expect(err.message).toContain(path.join(dir, 'p.json'));
    expect(err.message).toMatch(/key "name": .*username.*found string "a b"/);
    expect(err.message).toMatch(/key "model"/);
  });

  test('a missing profile file and duplicate names are clear errors', async () => {
    const missing = await project({ 'settings.json': { profiles: ['nope.json'] } });
    await expect(loadSettings(missing)).rejects.toThrow(/nope\.json: profile file not found/);
    const dup = await project({
      'settings.json': { profiles: ['a.json', 'b.json'] },
      'a.json': { name: 'Same' },
      'b.json': { name: 'Same' },
    });
    await expect(loadSettings(dup)).rejects.toThrow(/two profiles use the name "Same"/);
  });

  test('malformed JSON is reported with the file name', async () => {
    const dir = await project({ 'settings.json': '{ "port": ' });
    await expect(loadSettings(dir)).rejects.toThrow(/settings\.json/);
  });
});
