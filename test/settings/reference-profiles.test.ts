/**
 * MINDcraft's profile files load unchanged (test/fixtures/mindcraft-profiles/: every key its
 * andy.json and task profiles define), its keys.json is read, the keys not acted on are named
 * once, and task profiles get their domain's prompts and examples.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import {
  ConfigError,
  loadKeysFile,
  loadMergedProfile,
  loadProfile,
  loadSettings,
  profileSchema,
  taskDomain,
  unusedProfileKeysNotice,
  withTaskDomain,
} from '../../src/settings/index.ts';
import { profileModelSpecs } from '../../src/app/profile-models.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/mindcraft-profiles/', import.meta.url));
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mc-reference-'));
  made.push(dir);
  return dir;
}

describe('a MINDcraft andy.json', () => {
  test('loads unchanged: every key accepted, the ones acted on kept with their meaning', async () => {
    const andy = await loadMergedProfile(path.join(FIXTURES, 'andy.json'));
    expect(andy.model).toBe('gpt-4o-mini');
    expect(andy.code_model).toEqual({ api: 'anthropic', model: 'claude-fixture-coder', params: { temperature: 0.2 } });
    expect(andy.vision_model).toEqual({ api: 'google', model: 'gemini-2.5-flash' });
    expect(andy.embedding).toBe('openai');
    expect(andy.cooldown).toBe(3000);
    expect(andy.conversation_examples).toHaveLength(4);
    expect(andy.coding_examples).toHaveLength(2);
    expect(andy.conversing).toContain('$MCP_TOOL_USAGE');
    expect(andy.modes.hunting).toBe(false);
    expect(profileModelSpecs(andy)).toEqual({ chat: 'gpt-4o-mini', code: andy.code_model, vision: andy.vision_model });
    expect(profileModelSpecs(andy, 'ollama/llama3.1')).toEqual({ chat: 'ollama/llama3.1' });
  });

  test('the keys not acted on are named in one line, with the bots that set them', async () => {
    const andy = await loadMergedProfile(path.join(FIXTURES, 'andy.json'));
    const plain = profileSchema.parse({ name: 'Jill' });
    expect(unusedProfileKeysNotice([andy, plain])).toBe(
      'Profile keys accepted but not acted on: mcp_tool_usage (andy), max_tokens (andy).',
    );
    expect(unusedProfileKeysNotice([plain])).toBeUndefined();
  });

  test('a typo is still an error naming the key', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'bad.json'), JSON.stringify({ name: 'andy', code_modle: 'gpt-4o' }));
    await expect(loadMergedProfile(path.join(dir, 'bad.json'))).rejects.toThrow(/unknown key "code_modle"/);
  });

  test('a task profile of MINDcraft (crafting_profile.json) loads as a task profile', async () => {
    const task = await loadProfile(path.join(FIXTURES, 'crafting_profile.json'));
    expect(task.name).toBe('andy');
    expect(task.model).toBe('claude-3-5-sonnet-latest');
    expect(task.conversation_examples?.[0]?.[0]).toEqual({ role: 'user', content: "zed: (FROM OTHER BOT) Let's make a lantern together" });
    // Its own prompt and examples win over the crafting domain's.
    const [withDomain] = await withTaskDomain([task], 'techtree');
    expect(withDomain!.conversing).toBe(task.conversing);
    expect(withDomain!.conversation_examples).toEqual(task.conversation_examples);
  });
});

describe('keys.json', () => {
  test('read beside settings.json as MINDcraft reads it; environment variables win; empty values are unset', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ profiles: ['./andy.json'] }));
    await copyFile(path.join(FIXTURES, 'andy.json'), path.join(dir, 'andy.json'));
    await copyFile(path.join(FIXTURES, 'keys.json'), path.join(dir, 'keys.json'));
    const env: NodeJS.ProcessEnv = { GEMINI_API_KEY: 'gm-from-env', ANTHROPIC_API_KEY: '' };
    const loaded = await loadSettings(dir, {}, { env });
    expect(loaded.keysFile).toBe(path.join(dir, 'keys.json'));
    expect(loaded.keys).toEqual(['OPENAI_API_KEY']);
    expect(env).toEqual({ GEMINI_API_KEY: 'gm-from-env', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: 'sk-from-keys-json' });
    expect(loaded.profiles[0]!.name).toBe('andy');
  });

  test('no keys.json: nothing added; a malformed one names the file and the key', async () => {
    const dir = await tempDir();
    expect(await loadKeysFile(path.join(dir, 'keys.json'))).toBeUndefined();
    await writeFile(path.join(dir, 'keys.json'), JSON.stringify({ OPENAI_API_KEY: 42 }));
    const err = await loadKeysFile(path.join(dir, 'keys.json')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(`${path.join(dir, 'keys.json')}: key "OPENAI_API_KEY": expected a string, found number`);
    await writeFile(path.join(dir, 'keys.json'), '["sk"]');
    await expect(loadKeysFile(path.join(dir, 'keys.json'))).rejects.toThrow(/expected a JSON object of key names to keys/);
  });
});

describe('task domains', () => {
  test('task types map to the shipped crafting, cooking and construction layers', () => {
    expect(['techtree', 'cooking', 'construction', 'other'].map(taskDomain)).toEqual(['crafting', 'cooking', 'construction', undefined]);
  });

  test.each(['techtree', 'cooking', 'construction'])(
    '%s: each bot gets the domain prompt and examples under its own keys',
    async (type) => {
      const bots = [
        profileSchema.parse({ name: 'Andy', model: 'oracle', modes: { hunting: false } }),
        profileSchema.parse({ name: 'Jill', persona: 'Be terse.', cooldown_ms: 500 }),
      ];
      const out = await withTaskDomain(bots, type);
      for (const p of out) {
        expect(p.conversing).toMatch(
          new RegExp(`^You are \\$NAME.*${type === 'techtree' ? 'Crafting' : type === 'cooking' ? 'Cooking' : 'Construction'} tasks:`, 's'),
        );
        expect(p.conversing).toContain('$COMMAND_DOCS');
        expect(p.conversation_examples!.length).toBeGreaterThanOrEqual(4);
        for (const ex of p.conversation_examples!) expect(ex.some((t) => t.role === 'assistant')).toBe(true);
      }
      expect(out[0]!.modes).toEqual({ hunting: false });
      expect(out[1]).toMatchObject({ name: 'Jill', persona: 'Be terse.', cooldown_ms: 500 });
      // Another task type: profiles unchanged.
      expect(await withTaskDomain(bots, 'other')).toEqual(bots);
    },
  );

  test('a folder without the domain file leaves the profiles as they are', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'domains'));
    const bots = [profileSchema.parse({ name: 'Andy' })];
    expect(await withTaskDomain(bots, 'cooking', path.join(dir, 'domains'))).toEqual(bots);
  });
});
