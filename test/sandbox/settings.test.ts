/** The settings keys that gate !newAction. */
import { expect, test } from 'vitest';
import { ConfigError, settingsSchema, validate } from '../../src/settings/index.ts';

test('allow_insecure_coding defaults to false and code_timeout_s to 300', () => {
  const s = settingsSchema.parse({});
  expect(s.allow_insecure_coding).toBe(false);
  expect(s.code_timeout_s).toBe(300);
  expect(settingsSchema.parse({ allow_insecure_coding: true, code_timeout_s: 30 })).toMatchObject({
    allow_insecure_coding: true,
    code_timeout_s: 30,
  });
});

test('wrong types are rejected with the key named', () => {
  expect(() => validate(settingsSchema, { allow_insecure_coding: 'yes' }, 'settings.json')).toThrow(ConfigError);
  expect(() => validate(settingsSchema, { code_timeout_s: 0 }, 'settings.json')).toThrow(/code_timeout_s/);
});
