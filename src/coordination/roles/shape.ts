/**
 * zod helpers for the shapes models give their JSON in: keys with spaces or capitals
 * (`"required subtasks"`, VillagerAgent's own prompt writes them so), other names for a field, a
 * list wrapped in an object (`{"subtasks": [...]}`, CausalMACE's `{"causal effect": [...]}`), or
 * one item where a list was asked for.
 */
import { z } from 'zod';

/** `Required Subtasks`, `required-subtasks` → `required_subtasks`. */
export function normaliseKey(key: string): string {
  return key
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/**
 * A schema that first normalises an object's top-level keys ({@link normaliseKey}) and renames
 * `aliases` (normalised name → field name; a field's own name wins over an alias), then applies
 * `schema`. Nested values are left as they are.
 */
export function withKeys<T extends z.ZodType>(schema: T, aliases: Record<string, string> = {}) {
  return z.preprocess((value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    const entries = Object.entries(value).map(([k, v]) => [normaliseKey(k), v] as const);
    // A field's own name wins over an alias of it; among aliases, the first.
    for (const [n, v] of entries) if (!(n in aliases) && !(n in out)) out[n] = v;
    for (const [n, v] of entries) if (n in aliases && !(aliases[n]! in out)) out[aliases[n]!] = v;
    return out;
  }, schema);
}

/**
 * A list of `item`, also accepted as an object holding the list under one of `wrappers` (keys
 * normalised) or as its only list-valued field, or as a single item object.
 */
export function listOf<T extends z.ZodType>(item: T, wrappers: readonly string[] = []) {
  return z.preprocess((value) => {
    if (Array.isArray(value) || value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).map(([k, v]) => [normaliseKey(k), v] as const);
    const named = entries.find(([k, v]) => wrappers.includes(k) && Array.isArray(v));
    if (named) return named[1];
    const lists = entries.filter(([, v]) => Array.isArray(v));
    if (lists.length === 1 && entries.length <= 2) return lists[0]![1];
    return [value];
  }, z.array(item));
}

/** A string or a number, as a trimmed string (ids models write either way). */
export const idString = z
  .union([z.string(), z.number()], { error: 'an id (a number or a string) is needed' })
  .transform((v) => String(v).trim());

/** One string or a list of them, as a list. */
export const stringList = z.union([z.string().transform((s) => (s.trim() ? [s.trim()] : [])), z.array(z.string())]);

/** A boolean as models write it: `true`, `"true"`, `"success"`, `"completed"`, `1` (and the opposites). */
export const looseBoolean = z.union([
  z.boolean(),
  z.number().transform((n) => n !== 0),
  z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(
      z.enum([
        'true',
        'false',
        'yes',
        'no',
        'success',
        'succeeded',
        'failure',
        'failed',
        'completed',
        'complete',
        'done',
        'incomplete',
        'not completed',
      ]),
    )
    .transform((s) => ['true', 'yes', 'success', 'succeeded', 'completed', 'complete', 'done'].includes(s)),
]);
