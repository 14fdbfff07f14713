/**
 * Game-name resolution: turns what a model writes for an item or block ("Oak Plank",
 * "minecraft:oak_logs", "COBBLESTONE") into the exact minecraft-data name, or into a short
 * list of the closest valid names when it cannot.
 *
 * The valid names always come from minecraft-data for the requested version; nothing here is a
 * hard-coded list.
 */
import minecraftData from 'minecraft-data';
import { distance } from 'fastest-levenshtein';

/** Outcome of resolving one name. */
export type NameResolution = { ok: true; name: string } | { ok: false; suggestions: string[] };

/** Resolves item and block names for one Minecraft version. */
export interface NameResolver {
  /** Resolve an item name (anything in `minecraft-data`'s `itemsByName`). */
  item(name: string): NameResolution;
  /** Resolve a block name (anything in `minecraft-data`'s `blocksByName`). */
  block(name: string): NameResolution;
}

/** How many suggestions an unresolved name gets. */
const SUGGESTIONS = 3;

const cache = new Map<string, NameResolver>();

/**
 * The resolver for a Minecraft version such as `'1.21.4'`, cached per version.
 *
 * Resolution, in order:
 * 1. normalise: trim, strip surrounding quotes, lower-case, drop a `minecraft:` prefix, turn
 *    spaces and hyphens into underscores, collapse repeated underscores;
 * 2. an exact match wins;
 * 3. otherwise plural-ish mistakes are repaired, trying the last word's variants
 *    (`oak_plank` → `oak_planks`, `oak_logs` → `oak_log`, `berries` ↔ `berry`, `glasses` → `glass`);
 * 4. otherwise fail with the {@link SUGGESTIONS} closest valid names by Levenshtein distance,
 *    names that contain the (singularised) query ranked before the others.
 *
 * @throws Error if minecraft-data does not know the version.
 */
export function nameResolver(version: string): NameResolver {
  const cached = cache.get(version);
  if (cached) return cached;
  const data = minecraftData(version);
  if (!data) throw new Error(`nameResolver: minecraft-data has no version "${version}"`);
  const items = new NameSet(Object.keys(data.itemsByName));
  const blocks = new NameSet(Object.keys(data.blocksByName));
  const resolver: NameResolver = {
    item: (name) => items.resolve(name),
    block: (name) => blocks.resolve(name),
  };
  cache.set(version, resolver);
  return resolver;
}

/** Normalise a name as written by a model into minecraft-data's spelling conventions. */
export function normaliseName(raw: string): string {
  let s = raw.trim();
  // Quotes of any style around the whole name.
  s = s.replace(/^["'`\u2018\u2019\u201c\u201d]+|["'`\u2018\u2019\u201c\u201d]+$/g, '');
  s = s.toLowerCase().trim();
  if (s.startsWith('minecraft:')) s = s.slice('minecraft:'.length);
  s = s
    .replace(/[\s-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  return s;
}

/** Singular and plural variants of the last word of a normalised name (without the name itself). */
function pluralVariants(name: string): string[] {
  const out: string[] = [];
  const add = (v: string): void => {
    if (v && v !== name && !out.includes(v)) out.push(v);
  };
  if (name.endsWith('ies')) add(name.slice(0, -3) + 'y');
  if (name.endsWith('es')) add(name.slice(0, -2));
  if (name.endsWith('s')) add(name.slice(0, -1));
  if (name.endsWith('y')) add(name.slice(0, -1) + 'ies');
  add(name + 's');
  add(name + 'es');
  return out;
}

/** One set of valid names with resolution and suggestions. */
class NameSet {
  readonly #names: readonly string[];
  readonly #set: ReadonlySet<string>;

  constructor(names: string[]) {
    this.#names = names;
    this.#set = new Set(names);
  }

  resolve(raw: string): NameResolution {
    const name = normaliseName(raw);
    if (this.#set.has(name)) return { ok: true, name };
    for (const v of pluralVariants(name)) if (this.#set.has(v)) return { ok: true, name: v };
    return { ok: false, suggestions: this.suggest(name) };
  }

  /** The closest valid names; names containing the query (or its singular) come first. */
  suggest(name: string): string[] {
    if (name === '') return [];
    const query = name.slice(0, 64);
    const stems = [query, ...pluralVariants(query).filter((v) => v.length < query.length)];
    const scored = this.#names.map((candidate) => {
      const contains = stems.some((s) => s.length >= 3 && candidate.includes(s));
      return { candidate, contains, d: distance(query, candidate) };
    });
    scored.sort((a, b) => Number(b.contains) - Number(a.contains) || a.d - b.d || a.candidate.localeCompare(b.candidate));
    return scored.slice(0, SUGGESTIONS).map((s) => s.candidate);
  }
}
