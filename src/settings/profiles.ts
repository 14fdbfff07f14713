/**
 * Profile layering: `_default` ← base profile (`survival`, `creative`, `god_mode`, shipped as JSON
 * in `profiles/defaults/`, or any JSON file) ← the bot's own profile. Layers are merged on their
 * raw JSON (objects merge key by key, arrays and scalars replace), and only the result is
 * validated, so a bot file need only name what it changes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { agentMessagesSchema, ConfigError, profileSchema, UNUSED_PROFILE_KEYS, validate, type Profile } from './schema.ts';

/** The shipped `profiles/defaults/` folder (`_default.json` and the base profiles). */
export const PROFILE_DEFAULTS_DIR = fileURLToPath(new URL('../../profiles/defaults/', import.meta.url));

/** The base profiles shipped in {@link PROFILE_DEFAULTS_DIR}. */
export const BASE_PROFILES = ['survival', 'creative', 'god_mode'] as const;

/** A fully merged profile: every prompt template, the agent's texts and the mode switches are present. */
export const mergedProfileSchema = profileSchema.extend({
  conversing: z.string(),
  coding: z.string(),
  saving_memory: z.string(),
  bot_responder: z.string(),
  messages: agentMessagesSchema,
  modes: z.record(z.string(), z.boolean()),
});
export type MergedProfile = z.infer<typeof mergedProfileSchema>;

type Json = unknown;

const isPlainObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Deep-merges JSON layers, later layers winning: plain objects merge key by key (recursively);
 * arrays, strings, numbers, booleans and null replace; `undefined` values are skipped. Inputs are
 * not mutated; `__proto__`, `constructor` and `prototype` keys are ignored.
 *
 * @param layers lowest priority first.
 */
export function deepMerge(...layers: Json[]): Json {
  let out: Json = undefined;
  for (const layer of layers) {
    if (layer === undefined) continue;
    if (isPlainObject(layer)) {
      const merged: Record<string, Json> = isPlainObject(out) ? { ...out } : {};
      for (const [key, value] of Object.entries(layer)) {
        if (key === '__proto__' || key === 'constructor' || key === 'prototype' || value === undefined) continue;
        merged[key] = deepMerge(merged[key], value);
      }
      out = merged;
    } else if (Array.isArray(layer)) {
      out = structuredClone(layer);
    } else {
      out = layer;
    }
  }
  return out;
}

async function readJson(file: string, what: string): Promise<Record<string, Json>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'ENOENT' ? `${file}: ${what} not found` : `${file}: ${(err as Error).message}`);
  }
  let data: Json;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!isPlainObject(data)) throw new ConfigError(`${file}: a ${what} must be a JSON object`);
  return data;
}

/** Options of {@link loadMergedProfile}. */
export interface LoadProfileOptions {
  /**
   * Base profile: a name in {@link BASE_PROFILES} (or any `<name>.json` in `defaultsDir`), or a
   * path to a JSON file (contains `/` or ends in `.json`; relative to `baseDir`). Default `survival`.
   */
  base?: string;
  /** Folder with `_default.json` and the named base profiles. Default {@link PROFILE_DEFAULTS_DIR}. */
  defaultsDir?: string;
  /** Folder a relative base path is resolved against (usually settings.json's). Default the cwd. */
  baseDir?: string;
}

/** Resolves the file of a base profile name or path (see {@link LoadProfileOptions.base}). */
export function baseProfileFile(base: string, defaultsDir = PROFILE_DEFAULTS_DIR, baseDir = process.cwd()): string {
  if (base.includes('/') || base.includes('\\') || base.endsWith('.json')) return path.resolve(baseDir, base);
  if (!/^\w+$/.test(base)) throw new ConfigError(`base profile "${base}": use one of ${BASE_PROFILES.join(', ')} or a path to a JSON file`);
  return path.join(defaultsDir, `${base}.json`);
}

/**
 * Merges raw profile objects in order `_default` ← base ← bot and validates the result.
 *
 * @param layers `[defaults, base, bot]` raw JSON objects (any may be `{}`).
 * @param file named in validation errors.
 * @throws ConfigError naming `file`, each wrong key, what was expected and what was found.
 */
export function mergeProfiles(layers: readonly Json[], file = 'profile'): MergedProfile {
  return validate(mergedProfileSchema, deepMerge({}, ...layers), file);
}

/**
 * Loads a bot profile merged over `_default.json` and its base profile.
 *
 * @param botFile the bot's profile JSON (e.g. `profiles/andy.json`).
 * @param options base profile name or path, defaults folder, base dir for relative paths.
 * @returns the merged, validated profile (prompt templates and modes always present).
 * @throws ConfigError for a missing or malformed file, an unknown base profile, or a wrong key
 *   or type in the merged result (named after `botFile`).
 */
export async function loadMergedProfile(botFile: string, options: LoadProfileOptions = {}): Promise<MergedProfile> {
  const defaultsDir = options.defaultsDir ?? PROFILE_DEFAULTS_DIR;
  const baseFile = baseProfileFile(options.base ?? 'survival', defaultsDir, options.baseDir);
  const [defaults, base, bot] = await Promise.all([
    readJson(path.join(defaultsDir, '_default.json'), 'default profile'),
    readJson(baseFile, 'base profile'),
    readJson(botFile, 'profile file'),
  ]);
  return mergeProfiles([defaults, base, bot], botFile);
}

/**
 * A profile given as an object (e.g. `profileSchema.parse(...)`, or a task profile) merged over
 * `_default.json` and its base profile, so it has every prompt template. An already merged
 * profile comes back unchanged in content.
 *
 * @throws ConfigError for an unknown base profile or a wrong key in the result.
 */
export async function completeProfile(profile: Profile, options: LoadProfileOptions = {}): Promise<MergedProfile> {
  const defaultsDir = options.defaultsDir ?? PROFILE_DEFAULTS_DIR;
  const [defaults, base] = await Promise.all([
    readJson(path.join(defaultsDir, '_default.json'), 'default profile'),
    readJson(baseProfileFile(options.base ?? 'survival', defaultsDir, options.baseDir), 'base profile'),
  ]);
  return mergeProfiles([defaults, base, profile], `profile of ${profile.name}`);
}

/**
 * The one start-up line naming the profile keys (MINDcraft's) that the given profiles set but
 * this project does not act on ({@link UNUSED_PROFILE_KEYS}), with the bots that set each.
 *
 * @example unusedProfileKeysNotice([{ name: 'andy', max_tokens: 4096 }]) // → 'Profile keys accepted but not acted on: max_tokens (andy).'
 * @returns undefined when no profile sets one.
 */
export function unusedProfileKeysNotice(profiles: readonly Profile[]): string | undefined {
  const parts = UNUSED_PROFILE_KEYS.flatMap((key) => {
    const names = profiles.filter((p) => p[key] !== undefined).map((p) => p.name);
    return names.length ? [`${key} (${names.join(', ')})`] : [];
  });
  return parts.length ? `Profile keys accepted but not acted on: ${parts.join(', ')}.` : undefined;
}

/** The shipped task-domain layers (`crafting.json`, `cooking.json`, `construction.json`). */
export const TASK_DOMAINS_DIR = fileURLToPath(new URL('../../profiles/tasks/domains/', import.meta.url));

/** The task domains with a layer of their own. */
export type TaskDomain = 'crafting' | 'cooking' | 'construction';

/**
 * The domain of a MineCollab task type: `techtree` → crafting, `cooking`, `construction`;
 * undefined for other types (no domain layer).
 */
export function taskDomain(type: string): TaskDomain | undefined {
  if (type === 'techtree' || type === 'crafting') return 'crafting';
  if (type === 'cooking' || type === 'construction') return type;
  return undefined;
}

/**
 * Task profiles with their task's domain layer: the domain's prompts and examples
 * (`profiles/tasks/domains/<domain>.json`: `conversing`, `conversation_examples`, ...) merged
 * under each bot's own keys, so a bot profile that sets a key keeps it. Other task types, and
 * domains without a file in `dir`, leave the profiles as they are.
 *
 * @param profiles the task's bot profiles.
 * @param type the task's `type`.
 * @param dir the folder of domain layers (default {@link TASK_DOMAINS_DIR}).
 * @throws ConfigError for a domain file that is not a JSON object, or a wrong key in a result.
 */
export async function withTaskDomain(profiles: readonly Profile[], type: string, dir = TASK_DOMAINS_DIR): Promise<Profile[]> {
  const domain = taskDomain(type);
  if (!domain) return [...profiles];
  const file = path.join(dir, `${domain}.json`);
  let layer: Record<string, Json>;
  try {
    layer = await readJson(file, 'task domain profile');
  } catch (err) {
    if (err instanceof ConfigError && err.message.endsWith('not found')) return [...profiles];
    throw err;
  }
  return profiles.map((p) =>
    validate(profileSchema, deepMerge(layer, { name: p.name }, stripDefaults(p)), `${file} under the profile of ${p.name}`),
  );
}

/** The keys of a parsed profile that differ from the schema's defaults (so they do not hide a layer's). */
function stripDefaults(profile: Profile): Record<string, Json> {
  const defaults = profileSchema.parse({ name: profile.name }) as Record<string, Json>;
  return Object.fromEntries(Object.entries(profile).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(defaults[key])));
}
