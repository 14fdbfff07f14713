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

/** minecraft-data's module record, loaded: its `exports` is the factory every later `require` gets (the fixes below replace it). */
function factoryModule(): NodeJS.Module {
  const path = require.resolve('minecraft-data');
  require(path);
  return require.cache[path]!;
}

/**
 * Replaces the exports of minecraft-data (every `require('minecraft-data')` made from now on gets
 * it) with a memoised factory, unless minecraft-data no longer needs it. Idempotent.
 *
 * @param probeVersion a version name minecraft-data knows, used to probe the factory.
 */
export function memoiseMinecraftData(probeVersion = '1.21.4'): FixStatus {
  const module = factoryModule();
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

type VersionData = {
  blocksArray?: { material?: string; harvestTools?: Record<string, boolean> }[];
  materials?: Record<string, Record<string, number>>;
};

const MINEABLE = Symbol.for('mindcraft-ts.mineable');

/**
 * Gives each block whose `material` is a drop-gating tag (`incorrect_for_wooden_tool`) the
 * `mineable/*` material whose speed table holds every tool that harvests it (`mineable/pickaxe`
 * for ores, obsidian, metal blocks): {@link mineableMaterials} for one version's data, for code that
 * holds minecraft-data's factory from before the fix. Changes `data` in place; returns how many
 * blocks it changed (0 where minecraft-data is right).
 */
export function mineableMaterialsOf(data: VersionData): number {
  const mineable = Object.entries(data.materials ?? {}).filter(([name]) => name.startsWith('mineable/') && !name.includes(';'));
  let changed = 0;
  for (const block of data.blocksArray ?? []) {
    if (!block.material?.startsWith('incorrect_for_') || !block.harvestTools) continue;
    const tools = Object.keys(block.harvestTools);
    const material = mineable.find(([, speeds]) => tools.every((id) => speeds[id] !== undefined))?.[0];
    if (material) {
      block.material = material;
      changed++;
    }
  }
  return changed;
}

/**
 * Tier-gated blocks dug at their tool's speed.
 *
 * minecraft-data gives 60–108 blocks of every version from 1.20.5 on (the ores that need a stone
 * or better pickaxe, obsidian, metal blocks) the material `incorrect_for_wooden_tool`, a tag that
 * gates drops, instead of `mineable/pickaxe`. Its speed table lists only wooden tools, so
 * prismarine-block's `digTime` gives every pickaxe hand speed: iron ore takes 4.5 s with a stone
 * pickaxe instead of vanilla's 1.15 s, on the bots (which wait that long) and on the embedded
 * server (which checks it). Upstream: minecraft-data #987, PR #1307; docs/upstream/minecraft-data.md.
 *
 * The fix gives each such block with `harvestTools` the `mineable/*` material whose speeds cover
 * all of its harvest tools, in every version's data as the factory hands it out (once per data
 * object: minecraft-data caches them, so every holder sees the change). `harvestTools`, which
 * decides the drops, is untouched. Not needed when 1.21.4's `iron_ore` already has a `mineable/`
 * material. Apply it before the first registry or block class is made. Idempotent.
 */
export function mineableMaterials(probeVersion = '1.21.4'): FixStatus {
  const module = factoryModule();
  const factory = module.exports as Factory & { [MINEABLE]?: true };
  if (factory[MINEABLE]) return 'applied before';
  const probe = factory(probeVersion) as VersionData & { blocksByName?: Record<string, { material?: string }> };
  if (!probe.blocksByName?.iron_ore?.material?.startsWith('incorrect_for_')) return 'not needed';
  const fixed = new WeakSet<object>();
  const fixing = (version: string | number, preNetty?: boolean): unknown => {
    const data = factory(version, preNetty);
    if (data && typeof data === 'object' && !fixed.has(data)) {
      mineableMaterialsOf(data);
      fixed.add(data);
    }
    return data;
  };
  Object.assign(fixing, factory, { [MINEABLE]: true });
  module.exports = fixing;
  return 'applied';
}
