/**
 * Where a task is played. Crafting (`techtree`) tasks with `missing_items` and collection tasks
 * gather from the world, so they play in the survival world, as MineCollab places crafting tasks
 * "randomly in a Forest biome … with all the necessary materials" (MINDcraft paper, appendix
 * "Task resetting"); cooking and construction keep the superflat world their set-ups are laid on.
 *
 * The spot is found from the seed alone: a forest place near a point drawn from the task's id,
 * its episode and the world's seed, that holds what the task's team must gather there. What that
 * is comes from a plan (`planProduction`) of the task's targets from the team's starting
 * inventories over everything the survival world gives (its blocks, animals and monsters): logs,
 * stone, flowers, ores, sheep, spiders. Monsters come in the dark anywhere (the natural spawner:
 * caves at any hour), so a spot need not hold them; they count only for what nothing else gives
 * (string for a fishing rod, gunpowder). The same task, episode and seed give the same spot on any
 * machine.
 */
import { createHash } from 'node:crypto';
import type { GameData } from '../game/data.ts';
import { addCounts, type Counts, planProduction, productionClosure } from '../game/production.ts';
// The world generator's own modules, not ../server/embedded.ts: a task's spot is found without loading the server.
import { ANIMAL_NAMES, type AnimalName } from '../server/worldgen/animals.ts';
import { MONSTER_NAMES } from '../server/worldgen/monsters.ts';
import type { BiomeName } from '../server/worldgen/blocks.ts';
import type { SurvivalGenerator } from '../server/worldgen/generator.ts';
import { findSpot, type Spot } from '../server/worldgen/spawn.ts';
import { SURVIVAL_BLOCKS, WorldSurvey } from '../server/worldgen/survey.ts';
import type { Settings } from '../settings/index.ts';
import { sourcesFrom } from '../skills/surroundings.ts';
import { taskTargets } from '../tasks/loader.ts';
import type { Task } from '../tasks/schema.ts';
import type { Pos } from '../tasks/worlds.ts';
import type { ServerWorldChoice } from './start-bots.ts';

/** The survival world's seed of task runs when neither the run nor the settings give one. */
export const TASK_WORLD_SEED = 1;

/** The seed of a task run's survival world: the run's own (`--seed`), else the settings' `seed`, else {@link TASK_WORLD_SEED}. */
export function taskWorldSeed(settings: Pick<Settings, 'seed'>, runSeed?: number): number {
  return runSeed ?? settings.seed ?? TASK_WORLD_SEED;
}

/**
 * Whether `task` gathers from the world: a collection task, or a crafting task with
 * `missing_items` (MineCollab's items that "must be gathered from the environment") or whose team
 * cannot make its targets from what it holds together (the benchmark's 1-agent files give one
 * agent its part of a 2-agent task: the rest is the forest's, as in the reference).
 */
export function gathersFromWorld(data: GameData, task: Task & { id?: string }): boolean {
  if (task.type === 'collection') return true;
  if (task.type !== 'techtree') return false;
  if (Array.isArray(task.missing_items) && task.missing_items.length > 0) return true;
  const targets = taskTargets(task);
  if (Object.keys(targets).some((item) => !data.itemsByName[item])) return false;
  return Object.keys(planProduction(data, pooledInventory(task), targets, {}).missing).length > 0;
}

/**
 * The embedded server's world for `task`: the survival world of `seed` when it gathers from the
 * world ({@link gathersFromWorld}), superflat for the rest (cooking and construction lay their
 * worlds on it; a crafting task with all it needs in hand plays there too).
 */
export function taskServerWorld(data: GameData, task: Task & { id?: string }, seed: number): ServerWorldChoice {
  return gathersFromWorld(data, task) ? { world: 'survival', seed } : { world: 'superflat' };
}

/** The team's starting inventories together. */
function pooledInventory(task: Task): Counts {
  return addCounts(...Array.from({ length: task.agent_count }, (_, i) => task.initial_inventory[String(i)] ?? {}));
}

/** Something the team must gather from the world: blocks to dig or animals to hunt, and how many. */
export interface TaskNeed {
  kind: 'block' | 'mob';
  /** Block or entity name (minecraft-data). */
  name: string;
  count: number;
}

/** What a world around a spot shows: block names (those in sight, and ores farther off or underground) and animals. */
export interface WorldView {
  blocks: readonly string[];
  /** Blocks beyond sight that `!collectBlocks` reaches (ores underground). */
  reachable?: readonly string[];
  mobs: readonly string[];
}

/**
 * What `task`'s team must gather from a world showing `view`: the gathering steps of a plan of its
 * targets from the team's starting inventories together (`planProduction`, with the tools each
 * gathering needs: a plan for iron ore digs stone for a stone pickaxe). Empty when the team holds
 * all it needs; undefined when that world cannot give it all.
 */
export function taskNeeds(data: GameData, task: Task & { id?: string }, view: WorldView): TaskNeed[] | undefined {
  const targets = taskTargets(task);
  if (Object.keys(targets).some((item) => !data.itemsByName[item])) return undefined;
  const sources = sourcesFrom(data, { ...view, inventory: {} });
  const plan = planProduction(data, pooledInventory(task), targets, sources);
  if (Object.keys(plan.missing).length > 0) return undefined;
  const needs = new Map<string, TaskNeed>();
  for (const step of plan.steps) {
    if (step.kind !== 'gather') continue;
    const { skill, args } = step.source.call(step.count);
    const kind = skill === 'collectBlocks' ? 'block' : 'mob';
    const name = String(args.type ?? args.entity_type);
    const count = Math.ceil(step.count / step.source.perAction);
    const key = `${kind}:${name}`;
    needs.set(key, { kind, name, count: (needs.get(key)?.count ?? 0) + count });
  }
  return [...needs.values()];
}

/**
 * How far from a task's spot what it needs must lie (blocks): ores within `!collectBlocks`'
 * reach (64, less a margin for where each agent stands), the rest within sight (32, less a margin).
 */
const ORE_RADIUS = 56;
const NEAR_RADIUS = 24;
/** How far from the point drawn from the task the search for its spot starts (blocks, each way). */
const SPREAD = 2048;
/** How far from that point a spot with all the task needs is looked for (blocks). */
const SEARCH_RADIUS = 768;
/** The biomes of a task's spot, most wanted first: a forest (MineCollab's), then any wooded biome. */
const SPOT_BIOMES: readonly (readonly BiomeName[])[] = [['forest'], ['forest', 'flower_forest', 'birch_forest', 'taiga']];
/**
 * How much a search for a task's spot may look before it settles for a forest place that does not
 * hold everything: places looked at (about 1–2 ms each) and chunks generated for what lies around
 * them (2–5 ms each). Counted, not timed, so that every machine finds the same spot.
 */
export interface SpotEffort {
  looks: number;
  chunks: number;
}

/**
 * The default {@link SpotEffort}: 16 and 14 times the most that MineCollab's crafting tasks take
 * (1,202 places and 69 chunks, for `2_agent.json`'s cake). A task whose needs no place held had
 * searched for more than 10 minutes; now 15–45 s at most.
 */
export const SPOT_EFFORT: SpotEffort = { looks: 20_000, chunks: 1_000 };
/** The monsters that come in the dark (the natural spawner's species). */
const MONSTERS: ReadonlySet<string> = new Set(MONSTER_NAMES);
/** Blocks between the agents' stands around the spot. */
const STAND_SPACING = 4;

/** A task's spot and what was asked of it. */
export interface TaskSpot extends Spot {
  /** What the task needs from the world there (see {@link taskNeeds}); where no place holds it, what the whole world would have to give. */
  needs: TaskNeed[];
  /** Whether the spot holds every need (false: no place near the drawn point does, or the world cannot give it; a forest spot instead). */
  holdsNeeds: boolean;
  /**
   * The mobs of `needs` the world gives near the spot: the monsters, which come in the dark
   * anywhere, and the animals when the spot holds every need.
   */
  mobs: string[];
  /**
   * The ores of `needs` the spot holds within {@link ORE_RADIUS} blocks across, at any depth
   * (when it holds every need): deeper, at times, than `!collectBlocks` sees from the surface
   * (64 blocks; gold lies around y −16).
   */
  ores: string[];
  /** Where each agent stands, agent 0 on the spot itself, the others a few blocks off. */
  stands: Pos[];
}

/**
 * The spot of one run of `task` in the survival world of `generator`: the nearest forest place to
 * a point drawn from the task's id, `episode` and the world's seed that holds the task's
 * {@link taskNeeds} (logs and flowers within {@link NEAR_RADIUS} blocks, ores within
 * {@link ORE_RADIUS}, animals whose chunks start with them within {@link NEAR_RADIUS}; monsters
 * anywhere); else a wooded place that does; else, once the search has spent `effort`, the nearest
 * forest place (`holdsNeeds: false`).
 *
 * @throws Error when the world has no forest within reach of the drawn point (findSpot's error).
 */
export function findTaskSpot(
  generator: SurvivalGenerator,
  data: GameData,
  task: Task & { id: string },
  episode: number,
  effort: SpotEffort = SPOT_EFFORT,
): TaskSpot {
  const survey = new WorldSurvey(generator);
  const near = drawnPoint(`${task.id}|${episode}|${generator.seed}`);
  // Only the blocks and animals that give something the task's plans might use matter.
  // Monsters come in the dark anywhere, but the team fights them only for what nothing else gives:
  // a task the world's blocks and animals give does not count on them (its white wool comes from a
  // sheep, not from four spiders' string).
  const peaceful = taskNeeds(data, task, { blocks: SURVIVAL_BLOCKS, mobs: ANIMAL_NAMES });
  const monsters = peaceful ? [] : MONSTER_NAMES;
  const world = sourcesFrom(data, { blocks: SURVIVAL_BLOCKS, mobs: [...ANIMAL_NAMES, ...monsters], inventory: {} });
  const involved = productionClosure(data, taskTargets(task), world);
  // Those that give one of the items by themselves: dug, hunted, or milked (a bucket on a cow).
  const gives = (view: { blocks: readonly string[]; mobs: readonly string[] }) => {
    const alone = sourcesFrom(data, { ...view, inventory: {} });
    return [...involved].some((item) => alone.gather?.(item) !== undefined);
  };
  const blocksOfUse = new Set(SURVIVAL_BLOCKS.filter((b) => gives({ blocks: [b], mobs: [] })));
  const mobsOfUse = new Set(ANIMAL_NAMES.filter((m) => gives({ blocks: [], mobs: [m] })));
  const oresOfUse = [...blocksOfUse].filter((name) => name.endsWith('_ore'));
  // The needs of what a place shows, by the names it shows (places nearby show the same names).
  const plans = new Map<string, TaskNeed[] | undefined>();
  const needsOf = (view: WorldView) => {
    const key = JSON.stringify([view.blocks.toSorted(), view.reachable?.toSorted(), view.mobs.toSorted()]);
    if (!plans.has(key)) plans.set(key, taskNeeds(data, task, { ...view, mobs: [...view.mobs, ...monsters] }));
    return plans.get(key);
  };
  const mobsNear = (spot: Spot) => new Map([...survey.animalsNear(spot, NEAR_RADIUS)].filter(([name]) => mobsOfUse.has(name)));
  const blocksNear = (spot: Spot) => survey.blocksNear(spot, NEAR_RADIUS, (name) => blocksOfUse.has(name));
  const around = (spot: Spot, mobs = mobsNear(spot), blocks = blocksNear(spot)) => {
    const ores = survey.blocksNear(spot, ORE_RADIUS, (name) => oresOfUse.includes(name));
    const has = (need: TaskNeed) =>
      need.kind === 'mob'
        ? MONSTERS.has(need.name)
          ? Infinity
          : (mobs.get(need.name as AnimalName) ?? 0)
        : Math.max(blocks.get(need.name) ?? 0, ores.get(need.name) ?? 0);
    return { needs: needsOf({ blocks: [...blocks.keys()], reachable: [...ores.keys()], mobs: [...mobs.keys()] }), has };
  };
  let looks = 0;
  const holds = (spot: Spot) => {
    if (++looks > effort.looks || survey.chunksGenerated > effort.chunks) throw new Error('the search for a spot has spent its effort');
    // Cheap tests first, each against the plan of a place that gives the most it could: the
    // animals in sight (read from the surface alone) with every block at hand, then the blocks in
    // sight too with every ore in reach. Most places fail these before any chunk is generated,
    // or before the ores of 50 chunks around are counted.
    const mobs = mobsNear(spot);
    const mobsMet = (need: TaskNeed) =>
      need.kind !== 'mob' || MONSTERS.has(need.name) || (mobs.get(need.name as AnimalName) ?? 0) >= need.count;
    const any = needsOf({ blocks: [...blocksOfUse], mobs: [...mobs.keys()] });
    if (any === undefined || !any.every(mobsMet)) return false;
    const blocks = blocksNear(spot);
    const inSight = (need: TaskNeed) =>
      mobsMet(need) && (need.kind === 'mob' || oresOfUse.includes(need.name) || (blocks.get(need.name) ?? 0) >= need.count);
    const best = needsOf({ blocks: [...blocks.keys()], reachable: oresOfUse, mobs: [...mobs.keys()] });
    if (best === undefined || !best.every(inSight)) return false;
    const { needs, has } = around(spot, mobs, blocks);
    return needs !== undefined && needs.every((need) => has(need) >= need.count);
  };
  // What the whole world gives: a task it cannot give gets a forest spot without a search.
  const anywhere = peaceful ?? taskNeeds(data, task, { blocks: SURVIVAL_BLOCKS, mobs: [...ANIMAL_NAMES, ...monsters] });
  let spot: Spot | undefined;
  for (const biomes of anywhere ? SPOT_BIOMES : []) {
    try {
      spot = findSpot(generator, { biomes, near, maxDistance: SEARCH_RADIUS, accept: holds });
      break;
    } catch {
      // none that close: the next biomes, then a forest that does not hold it all
    }
  }
  const holdsNeeds = spot !== undefined;
  spot ??= findSpot(generator, { biomes: ['forest'], near });
  const needs = around(spot).needs ?? anywhere ?? [];
  const mobs = needs.flatMap((n) => (n.kind === 'mob' && (holdsNeeds || MONSTERS.has(n.name)) ? [n.name] : []));
  const ores = holdsNeeds ? needs.flatMap((n) => (n.kind === 'block' && oresOfUse.includes(n.name) ? [n.name] : [])) : [];
  return { ...spot, needs, holdsNeeds, mobs, ores, stands: standsAround(generator, spot, task.agent_count) };
}

/** Where `count` agents stand around `spot`: the spot, then free places {@link STAND_SPACING} blocks apart, nearest first. */
function standsAround(generator: SurvivalGenerator, spot: Spot, count: number): Pos[] {
  const stands: Pos[] = [{ x: spot.x, y: spot.y, z: spot.z }];
  while (stands.length < count) {
    const free = (s: Spot) => stands.every((t) => Math.max(Math.abs(t.x - s.x), Math.abs(t.z - s.z)) >= STAND_SPACING);
    const s = findSpot(generator, { near: spot, accept: free });
    stands.push({ x: s.x, y: s.y, z: s.z });
  }
  return stands;
}

/** A point within {@link SPREAD} blocks of the origin, drawn from `key` (SHA-256: the same on any machine). */
function drawnPoint(key: string): { x: number; z: number } {
  const hash = createHash('sha256').update(key).digest();
  const unit = (offset: number) => hash.readUInt32BE(offset) / 2 ** 32;
  return { x: Math.round((unit(0) * 2 - 1) * SPREAD), z: Math.round((unit(4) * 2 - 1) * SPREAD) };
}
