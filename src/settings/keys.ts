/**
 * `keys.json`, MINDcraft's file of API keys: a JSON object from environment-variable names to
 * keys, e.g. `{ "OPENAI_API_KEY": "sk-…", "GEMINI_API_KEY": "" }`, beside settings.json. Its keys
 * are read as if they were environment variables (the names each provider preset reads, see
 * src/models/presets.ts); a variable set in the environment wins over the file, and empty
 * values count as unset. Keep the file out of version control.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError } from './schema.ts';

/**
 * Reads a keys file.
 *
 * @returns the non-empty keys by name, or undefined when the file does not exist.
 * @throws ConfigError naming the file when it is not JSON, not an object, or holds a value that
 *   is not a string (naming the key).
 */
export async function loadKeysFile(file: string): Promise<Record<string, string> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(`${file}: expected a JSON object of key names to keys, e.g. { "OPENAI_API_KEY": "sk-..." }`);
  }
  const keys: Record<string, string> = {};
  for (const [name, value] of Object.entries(data)) {
    if (typeof value !== 'string')
      throw new ConfigError(`${file}: key "${name}": expected a string, found ${value === null ? 'null' : typeof value}`);
    if (value.trim()) keys[name] = value.trim();
  }
  return keys;
}

/**
 * Adds keys to an environment where it has no non-empty value for that name (the environment wins).
 *
 * @param keys keys by variable name (see {@link loadKeysFile}).
 * @param env the environment to fill (mutated).
 * @returns the names added, sorted.
 */
export function applyKeys(keys: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv): string[] {
  const added: string[] = [];
  for (const [name, value] of Object.entries(keys)) {
    if (env[name]?.trim()) continue;
    env[name] = value;
    added.push(name);
  }
  return added.sort();
}
