/**
 * The Minecraft version the integration tests run on. vitest.config.ts runs the suite once per
 * version of the test matrix, each project setting `MC_TEST_VERSION` for its test workers; tests
 * read the version only through this module.
 */
import { DEFAULT_MINECRAFT_VERSION } from '../../src/game/versions.ts';
import minecraftData from 'minecraft-data';
import { settingsSchema, type Settings } from '../../src/settings/index.ts';

/** The version under test: `MC_TEST_VERSION` when set and not empty, otherwise the server default. */
export const TEST_VERSION: string = process.env.MC_TEST_VERSION || DEFAULT_MINECRAFT_VERSION;

/** True when the tests run on the server's default version (the full-suite project of the matrix). */
export const ON_DEFAULT_VERSION: boolean = TEST_VERSION === DEFAULT_MINECRAFT_VERSION;

/**
 * Agent settings for a test: the schema defaults, on {@link TEST_VERSION} and in a superflat world
 * (the tests lay out what they need on flat ground; the survival world has tests of its own), with
 * `overrides` on top.
 *
 * @param overrides raw settings fields, validated by the settings schema as a settings file would be.
 */
export function testSettings(overrides: Record<string, unknown> = {}): Settings {
  return settingsSchema.parse({ minecraft_version: TEST_VERSION, world: 'superflat', ...overrides });
}

/**
 * The English text of translation `key` on {@link TEST_VERSION} (minecraft-data's `language`),
 * with `%s` / `%1$s` filled from `args`: for messages whose wording changed between versions
 * (1.21.5+ "Unknown or incomplete command. See below for error").
 *
 * @throws Error when the version's language has no such key.
 */
export function vanillaText(key: string, ...args: Array<string | number>): string {
  const template = (minecraftData(TEST_VERSION).language as Record<string, string>)[key];
  if (template === undefined) throw new Error(`Minecraft ${TEST_VERSION} has no translation "${key}"`);
  let next = 0;
  return template.replace(/%(?:(\d+)\$)?s/g, (_, index: string | undefined) => String(args[index ? Number(index) - 1 : next++] ?? ''));
}
