/**
 * minecraft-data's factory, memoised per version.
 *
 * `require('minecraft-data')(version)` returns its cached data, but first builds a new `Version`
 * for the name, and the `Version` constructor walks the whole version table (several hundred
 * entries) each time. prismarine-physics calls the factory in `new PlayerState(bot, …)`, so on every
 * physics tick of every bot (20 a second each): 15 % of an idle 200-bot process, plus 4.5 % in the
 * garbage it leaves. The memo returns the same object the factory returns for a name, without the
 * walk.
 *
 * Upstream: docs/upstream/minecraft-data.md. The patch checks first whether the factory still walks
 * the table on a repeated call (it reads one table entry through a counting accessor) and leaves
 * a factory that does not alone.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** What applying a fix did: `applied`, `not needed` (upstream has it), or `applied before`. */
export type FixStatus = 'applied' | 'not needed' | 'applied before';

type Factory = ((version: string | number, preNetty?: boolean) => unknown) & {
  versionsByMinecraftVersion?: Record<string, Record<string, unknown>>;
};

const MEMOISED = Symbol.for('mindcraft-ts.memoised');

/**
 * True when a repeated `factory(version)` still walks `versionsByMinecraftVersion.pc`: one entry
 * other than `version` is read through a counting accessor while the call runs.
 */
function walksVersionTable(factory: Factory, version: string): boolean {
  const table = factory.versionsByMinecraftVersion?.pc;
  const other = table && Object.keys(table).find((key) => key !== version);
  if (!table || other === undefined) return false;
  factory(version);
  const original = Object.getOwnPropertyDescriptor(table, other)!;
  let value = original.value as unknown;
  let reads = 0;
  Object.defineProperty(table, other, {
    configurable: true,
    enumerable: true,
    get: () => {
      reads++;
      return value;
    },
    set: (v: unknown) => {
      value = v;
    },
  });
  try {
    factory(version);
  } finally {
    Object.defineProperty(table, other, { ...original, value });
  }
  return reads > 0;
}

/**
 * Replaces the exports of minecraft-data (every `require('minecraft-data')` made from now on gets
 * it) with a memoised factory, unless minecraft-data no longer needs it. Idempotent.
 *
 * @param probeVersion a version name minecraft-data knows, used to probe the factory.
 */
export function memoiseMinecraftData(probeVersion = '1.21.4'): FixStatus {
  const path = require.resolve('minecraft-data');
  require(path);
  const module = require.cache[path]!;
  const factory = module.exports as Factory & { [MEMOISED]?: true };
  if (factory[MEMOISED]) return 'applied before';
  if (!walksVersionTable(factory, probeVersion)) return 'not needed';
  // Keyed by the arguments as minecraft-data reads them: a name (or protocol number) and preNetty.
  // Bounded by the versions a process asks for.
  const memo = new Map<string, unknown>();
  const memoised = (version: string | number, preNetty?: boolean): unknown => {
    const key = `${String(version)}\0${preNetty ? 1 : 0}`;
    if (memo.has(key)) return memo.get(key);
    const data = factory(version, preNetty);
    memo.set(key, data);
    return data;
  };
  // The factory's own members (Version, supportedVersions, versions, schemas, legacy, ...).
  Object.assign(memoised, factory, { [MEMOISED]: true });
  module.exports = memoised;
  return 'applied';
}
