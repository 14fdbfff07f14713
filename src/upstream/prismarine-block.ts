/**
 * prismarine-block's `Block.fromStateId` from a per-state template.
 *
 * Every `bot.blockAt` (prismarine-chunk's `getBlock`) builds its block with `new Block(…)`, which
 * looks the state up twice, decodes its properties from the state number and copies a dozen fields
 * from minecraft-data. prismarine-physics asks for the blocks around each bot on every physics
 * tick, so an idle bot builds about a thousand blocks a second (7.8 % of a 200-bot process). The
 * replacement builds the first block of each state as before, keeps it as a template, and gives
 * every later call a copy: same prototype, same fields in the same order, its own `_properties`
 * (which `getProperties()` writes into), its own `computedStates`, `position` and biome; about
 * twice as fast. Blocks of any other shape (signs: their text methods are merged in per block) and
 * versions whose blocks carry a hash still go through the constructor.
 *
 * Upstream: docs/upstream/prismarine-block.md. The patch checks first whether a second
 * `fromStateId` of a state still looks the state up in `registry.blocksByStateId` (through a
 * counting proxy of the registry), and leaves a library that does not alone.
 */
import { createRequire } from 'node:module';
import type { FixStatus } from './minecraft-data.ts';

const require = createRequire(import.meta.url);

/** The own members `new Block(…)` gives a (non-sign) block, in its order, as of prismarine-block 1.23. */
const BLOCK_FIELDS = [
  'type',
  'metadata',
  'light',
  'skyLight',
  'biome',
  'position',
  'stateId',
  'computedStates',
  'name',
  'hardness',
  'displayName',
  'shapes',
  'boundingBox',
  'transparent',
  'diggable',
  'material',
  'harvestTools',
  'drops',
  '_properties',
  'isWaterlogged',
].join();

interface BlockLike {
  type: unknown;
  metadata: unknown;
  light: unknown;
  skyLight: unknown;
  biome: unknown;
  position: unknown;
  stateId: unknown;
  computedStates: Record<string, unknown>;
  name: string;
  hardness: unknown;
  displayName: unknown;
  shapes: unknown;
  boundingBox: unknown;
  transparent: unknown;
  diggable: unknown;
  material: unknown;
  harvestTools: unknown;
  drops: unknown;
  _properties: Record<string, unknown>;
  isWaterlogged: unknown;
}

interface BlockClass {
  fromStateId(stateId: number, biomeId: number): BlockLike;
  prototype: object;
}

interface Registry {
  blocksByStateId: Record<number, unknown>;
  supportFeature(feature: string): boolean;
  biomes?: Record<number, unknown>;
}

type Loader = ((registryOrVersion: Registry | string) => BlockClass) & { [key: string]: unknown };

const PATCHED = Symbol.for('mindcraft-ts.fromStateId');

/**
 * True when a second `fromStateId` of a state reads `registry.blocksByStateId` again: the probe
 * class is made over a counting proxy of the registry (the registry itself is left untouched: an
 * accessor on one of its elements would slow every lookup in it down for good).
 */
function looksUpEveryTime(loader: Loader, registry: Registry): boolean {
  let reads = 0;
  const counting = new Proxy(registry, {
    get: (target, key, receiver) => {
      if (key === 'blocksByStateId') reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const Block = loader(counting);
  const stateId = Number(Object.keys(registry.blocksByStateId)[0] ?? 0);
  Block.fromStateId(stateId, 0);
  reads = 0;
  Block.fromStateId(stateId, 0);
  return reads > 0;
}

/** Gives `Block` a `fromStateId` that copies a per-state template (not on versions whose blocks carry a hash). */
function patchClass(Block: BlockClass, registry: Registry): void {
  if ((Block as { [PATCHED]?: true })[PATCHED] || registry.supportFeature('blockHashes')) return;
  const build = Block.fromStateId.bind(Block);
  // The first block of each state, never handed out (callers set its light, position, entity).
  // Bounded by the version's block states (about 27,000 on 1.21); null for states built each time.
  const templates = new Map<number, BlockLike | null>();
  Block.fromStateId = (stateId, biomeId) => {
    let template = templates.get(stateId);
    if (template === undefined) {
      template = build(stateId, biomeId);
      // A block of another shape (a sign's text methods, a future field) is built each time.
      if (Object.keys(template).join() !== BLOCK_FIELDS) template = null;
      templates.set(stateId, template);
    }
    return template ? copy(Block, template, biomeId) : build(stateId, biomeId);
  };
  (Block as { [PATCHED]?: true })[PATCHED] = true;
}

/**
 * A block like `template`, with the per-block members of its own, its fields set in the
 * constructor's order (one hidden class for all, as `new Block` gives).
 */
function copy(Block: BlockClass, template: BlockLike, biomeId: number): BlockLike {
  const block = Object.create(Block.prototype) as BlockLike;
  block.type = template.type;
  block.metadata = template.metadata;
  block.light = template.light;
  block.skyLight = template.skyLight;
  // What the constructor's `new Biome(biomeId)` gives: prismarine-block hands prismarine-biome its
  // Version, not a registry, so the biome is always the empty one with the id.
  block.biome = { color: 0, height: null, name: '', rainfall: 0, temperature: 0, id: biomeId };
  block.position = null;
  block.stateId = template.stateId;
  block.computedStates = {};
  block.name = template.name;
  block.hardness = template.hardness;
  block.displayName = template.displayName;
  block.shapes = template.shapes;
  block.boundingBox = template.boundingBox;
  block.transparent = template.transparent;
  block.diggable = template.diggable;
  block.material = template.material;
  block.harvestTools = template.harvestTools;
  block.drops = template.drops;
  block._properties = { ...template._properties };
  block.isWaterlogged = template.isWaterlogged;
  return block;
}

/**
 * Wraps prismarine-block's loader (every `require('prismarine-block')(registry)` made from now on)
 * so each class it makes gets the template `fromStateId`, unless the class no longer needs it.
 * Idempotent.
 */
export function fastFromStateId(): FixStatus {
  const path = require.resolve('prismarine-block');
  require(path);
  const module = require.cache[path]!;
  const loader = module.exports as Loader;
  if (loader[PATCHED as unknown as string]) return 'applied before';
  const registryOf = require('prismarine-registry') as (version: string) => Registry;
  if (!looksUpEveryTime(loader, registryOf('1.21.4'))) return 'not needed';
  const wrapped = ((registryOrVersion: Registry | string) => {
    const Block = loader(registryOrVersion);
    patchClass(Block, typeof registryOrVersion === 'string' ? registryOf(registryOrVersion) : registryOrVersion);
    return Block;
  }) as Loader;
  Object.assign(wrapped, loader, { [PATCHED]: true });
  module.exports = wrapped;
  return 'applied';
}
