/**
 * Settings and profiles: found and loaded with cosmiconfig, validated with zod (`./schema.ts`),
 * profiles merged over their defaults (`./profiles.ts`); API keys from `keys.json` (`./keys.ts`).
 * Loading settings loads no server or bot code.
 */
import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import { loadMergedProfile, type MergedProfile } from './profiles.ts';
import { ConfigError, profileSchema, settingsSchema, validate, type Profile, type Settings } from './schema.ts';

import { applyKeys, loadKeysFile } from './keys.ts';

export * from './schema.ts';
export * from './profiles.ts';
export * from './keys.ts';

const explorer = cosmiconfig('mindcraft', {
  searchPlaces: ['settings.json', 'mindcraft.config.json', '.mindcraftrc.json'],
  searchStrategy: 'none',
});

export interface LoadedSettings {
  settings: Settings;
  /** Absolute path of the file read, or undefined when defaults were used. */
  file?: string;
  /** Each bot's profile merged over `_default` and `settings.base_profile`. */
  profiles: MergedProfile[];
  /** `keys.json` beside the settings, when there is one. */
  keysFile?: string;
  /** The key names `keys.json` added to the environment (those it holds that were not set there). */
  keys: string[];
}

/** Options of {@link loadSettings}. */
export interface LoadSettingsOptions {
  /**
   * The environment `keys.json`'s keys are added to (names it does not set already: environment
   * variables win). Default `process.env`, so every model created later, in this process or a
   * child, finds them.
   */
  env?: NodeJS.ProcessEnv;
}

/**
 * Finds settings.json (or mindcraft.config.json) in `dir` with cosmiconfig, validates it and
 * loads every profile it lists, each merged `_default` ← `base_profile` ← bot. Missing
 * settings = all defaults. Reads `keys.json` beside it (MINDcraft's file of API keys by
 * variable name) into the environment, where a variable set already wins.
 *
 * @throws ConfigError for an unreadable file, a wrong key or type, an unknown base profile,
 *   duplicate bot names, or a keys.json that is not an object of strings.
 */
export async function loadSettings(
  dir = process.cwd(),
  overrides: Partial<Settings> = {},
  options: LoadSettingsOptions = {},
): Promise<LoadedSettings> {
  let found;
  try {
    found = await explorer.search(dir);
  } catch (err) {
    throw new ConfigError(`settings: ${(err as Error).message}`);
  }
  const file = found?.filepath;
  const settings = validate(settingsSchema, { ...(found?.config ?? {}), ...overrides }, file ?? 'settings (defaults)');
  const base = file ? path.dirname(file) : dir;
  const keysFile = path.join(base, 'keys.json');
  const keyValues = await loadKeysFile(keysFile);
  const keys = keyValues ? applyKeys(keyValues, options.env ?? process.env) : [];
  const profiles = await Promise.all(
    settings.profiles.map((p) => loadMergedProfile(path.resolve(base, p), { base: settings.base_profile, baseDir: base })),
  );
  const seen = new Set<string>();
  for (const p of profiles) {
    if (seen.has(p.name))
      throw new ConfigError(`${file ?? 'settings'}: key "profiles": two profiles use the name "${p.name}"; bot names must be unique`);
    seen.add(p.name);
  }
  return { settings, file, profiles, keys, ...(keyValues ? { keysFile } : {}) };
}

/**
 * Loads and validates one profile file.
 *
 * @throws ConfigError when the file is missing, not JSON, or has a wrong key or type.
 */
export async function loadProfile(file: string): Promise<Profile> {
  let loaded;
  try {
    loaded = await explorer.load(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'ENOENT' ? `${file}: profile file not found` : `${file}: ${(err as Error).message}`);
  }
  return validate(profileSchema, loaded?.config ?? {}, file);
}
