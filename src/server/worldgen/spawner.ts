/**
 * The natural spawner of monsters (vanilla 1.21 `NaturalSpawner.spawnForChunk` for the `monster`
 * category, with `Monster.checkMonsterSpawnRules`): monsters appear in the dark, in caves at any
 * hour and on the surface at night, and go away when no player is near. Survival worlds only (the
 * superflat worlds of tests and construction tasks stay empty, as their tasks expect).
 *
 * Each server tick, for each loaded chunk with a player within {@link SPAWN_RANGE} blocks of its
 * centre, while the monsters in those chunks number fewer than {@link MONSTER_CAP} × chunks / 289
 * (vanilla's global cap, `NaturalSpawner.MAGIC_NUMBER` = 17²):
 * - a random block of the chunk, at a height between the world's bottom and one above the ground
 *   (vanilla `getRandomPosWithin`, the `WORLD_SURFACE` height map; here the generator's ground);
 * - three groups from there, each of 1–4 tries that move 0–5 blocks across each time
 *   (`nextInt(6) − nextInt(6)`); the first try that is 24–128 blocks from every player and more
 *   than 24 from the world spawn draws the species by weight from the biome's monster list
 *   (./monsters.ts), and the group's size becomes the tries left; each try then
 *   spawns one where the mob fits, at most 4 per chunk and tick (`Mob.getMaxSpawnClusterSize`).
 *
 * A place fits ({@link fitsMonster}) when it is dark enough (vanilla `Monster.isDarkEnoughToSpawn`,
 * Minecraft wiki "Light" and "Spawn"): sky light not above `nextInt(32)`, block light 0, and the
 * raw brightness (sky light less the sky's darkening for the time of day and weather, or the
 * block light) at most a uniform draw 0–7; the block below has a full solid top that lets mobs
 * spawn (not leaves, glass, bedrock or a barrier, nor a block giving light 14 or more); and the
 * mob's box is free of blocks and fluids. Peaceful difficulty and the game rule `doMobSpawning`
 * false stop it.
 *
 * Monsters it spawned despawn as vanilla's `Mob.checkDespawn` has them: at once beyond
 * {@link DESPAWN_DISTANCE} blocks of every player, one tick in 800 beyond
 * {@link RANDOM_DESPAWN_DISTANCE} (vanilla also waits for 600 idle ticks first), and all of them on
 * peaceful. Mobs summoned by a command are left alone.
 */

import { Vec3 } from 'vec3';
import { gameRule } from '../services/game-rules.ts';
import { blockOfState } from '../services/blocks.ts';
import { collides } from '../services/collision.ts';
import { discardMob, mobRegistry, spawnMob, type MobState } from '../services/mobs.ts';
import type { SquidServer } from '../types.ts';
import { darkEnough, monstersOf, skyDarken, type MonsterEntry } from './monsters.ts';
import { nextBetween, pickByWeight } from './random.ts';
import type { Surfaces } from './surface.ts';
import { MIN_Y } from './terrain.ts';

/** vanilla `MobCategory.MONSTER` maximum, per 289 spawnable chunks. */
export const MONSTER_CAP = 70;
/** vanilla `NaturalSpawner.MAGIC_NUMBER`: 17 × 17 chunks. */
const MAGIC_NUMBER = 289;
/** A chunk spawns while a player is within this many blocks of its centre (vanilla `ChunkMap`, 128). */
export const SPAWN_RANGE = 128;
/** No monster spawns within this many blocks of a player or of the world spawn (vanilla, 24). */
export const MIN_SPAWN_DISTANCE = 24;
/** Beyond this many blocks of every player a monster despawns at once (`MobCategory.despawnDistance`). */
export const DESPAWN_DISTANCE = 128;
/** Beyond this many blocks a monster may despawn at random (`MobCategory.noDespawnDistance`). */
export const RANDOM_DESPAWN_DISTANCE = 32;
/** One chance in this many per tick of a random despawn (vanilla `Mob.checkDespawn`). */
const RANDOM_DESPAWN_ODDS = 800;
/** Groups tried per chunk and tick, and most spawned per chunk and tick (vanilla). */
const GROUPS = 3;
const MAX_PER_CHUNK = 4;

/** Names of blocks whose top never lets a mob spawn, though it is a full cube (vanilla `Blocks::never`). */
const NO_SPAWN_FLOORS = /(^bedrock$|^barrier$|glass$|_leaves$)/;

/** What the spawner keeps per server. */
export interface MonsterSpawner {
  /** Entity ids of the monsters it spawned. */
  readonly spawned: Set<number>;
  /** Whether a state id is a floor monsters may spawn on, per state id. */
  readonly floors: Map<number, boolean>;
  /** Whether a state id is a cell a mob may spawn in (no collision, no fluid, no rail). */
  readonly cells: Map<number, boolean>;
}

/** A spawner that has spawned nothing yet, for one server. */
export function newMonsterSpawner(): MonsterSpawner {
  return { spawned: new Set(), floors: new Map(), cells: new Map() };
}

/** The game's state that decides spawning, read once a tick. */
interface Conditions {
  darken: number;
  thundering: boolean;
  players: Vec3[];
  spawn: Vec3;
}

function cached(cache: Map<number, boolean>, id: number, compute: () => boolean): boolean {
  let value = cache.get(id);
  if (value === undefined) cache.set(id, (value = compute()));
  return value;
}

function isFloor(serv: SquidServer, spawner: MonsterSpawner, id: number): boolean {
  return cached(spawner.floors, id, () => {
    const block = blockOfState(serv, id);
    const full = block.boundingBox === 'block' && block.shapes.length === 1 && block.shapes[0]!.join() === '0,0,0,1,1,1';
    return full && !NO_SPAWN_FLOORS.test(block.name) && (serv.registry.blocksByStateId[id]?.emitLight ?? 0) < 14;
  });
}

function isEmptyCell(serv: SquidServer, spawner: MonsterSpawner, id: number): boolean {
  return cached(spawner.cells, id, () => {
    const block = blockOfState(serv, id);
    return (
      block.boundingBox === 'empty' &&
      !/(^water$|^lava$|rail$|^bubble_column$|^powder_snow$)/.test(block.name) &&
      !block.getProperties().waterlogged
    );
  });
}

/**
 * Whether a monster of `name` may spawn with its feet in block cell `at` of the overworld (see
 * the module comment: light, floor, room).
 */
export function fitsMonster(
  serv: SquidServer,
  spawner: MonsterSpawner,
  name: string,
  at: Vec3,
  conditions: Pick<Conditions, 'darken' | 'thundering'>,
): boolean {
  const world = serv.overworld;
  if (!world.sync.getColumnAt(at)) return false;
  if (!isFloor(serv, spawner, world.sync.getBlockStateId(at.offset(0, -1, 0)))) return false;
  if (
    !isEmptyCell(serv, spawner, world.sync.getBlockStateId(at)) ||
    !isEmptyCell(serv, spawner, world.sync.getBlockStateId(at.offset(0, 1, 0)))
  )
    return false;
  if (!darkEnough(world.sync.getSkyLight(at), world.sync.getBlockLight(at), conditions.darken, conditions.thundering)) return false;
  const info = serv.registry.entitiesByName[name]!;
  const feet = at.offset(0.5, 0, 0.5);
  return !collides(serv, world, { halfWidth: (info.width ?? 0.6) / 2, height: info.height ?? 1.8 }, feet);
}

/** Squared distance from `at` to the nearest of `players`. */
function nearestSquared(players: Vec3[], at: Vec3): number {
  let best = Infinity;
  for (const p of players) best = Math.min(best, p.distanceSquared(at));
  return best;
}

/**
 * Runs one tick of the spawner (spawning, then despawning); a no-op on peaceful or with
 * `doMobSpawning` false but for the despawns.
 *
 * @param surfaces the world's surfaces: each column's ground height and biome.
 * @param weather the overworld's weather now.
 */
export function tickMonsters(
  serv: SquidServer,
  spawner: MonsterSpawner,
  surfaces: Surfaces,
  spawn: Vec3,
  weather: { raining: boolean; thundering: boolean },
): void {
  // Spectators neither draw monsters nor keep them (vanilla `EntitySelector.NO_SPECTATORS`).
  const players = serv.players.filter((p) => p.world === serv.overworld && p.position && p.gameMode !== 3).map((p) => p.position.clone());
  const registry = mobRegistry(serv);
  despawn(serv, spawner, registry.mobs, players);
  if (players.length === 0 || serv.difficulty === 0 || !gameRule(serv, 'doMobSpawning')) return;
  const conditions: Conditions = {
    darken: skyDarken(Number(serv.time), weather.raining, weather.thundering),
    thundering: weather.thundering,
    players,
    spawn,
  };
  const chunks = spawnableChunks(serv, players);
  const cap = Math.floor((MONSTER_CAP * chunks.length) / MAGIC_NUMBER);
  const inChunks = new Set(chunks.map(([x, z]) => `${x},${z}`));
  let monsters = 0;
  for (const mob of registry.mobs.values()) {
    if (
      mob.hostile &&
      !mob.dead &&
      mob.entity.world === serv.overworld &&
      inChunks.has(`${Math.floor(mob.entity.position.x) >> 4},${Math.floor(mob.entity.position.z) >> 4}`)
    )
      monsters++;
  }
  // vanilla shuffles the chunks each tick.
  for (let i = chunks.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [chunks[i], chunks[j]] = [chunks[j]!, chunks[i]!];
  }
  for (const [chunkX, chunkZ] of chunks) {
    if (monsters >= cap) return;
    monsters += spawnInChunk(serv, spawner, surfaces, chunkX, chunkZ, conditions);
  }
}

/** Loaded overworld chunks with a player within {@link SPAWN_RANGE} blocks of their centre. */
function spawnableChunks(serv: SquidServer, players: Vec3[]): Array<[number, number]> {
  const world = serv.overworld as typeof serv.overworld & { getLoadedColumn(x: number, z: number): unknown };
  const seen = new Set<string>();
  const out: Array<[number, number]> = [];
  const reach = SPAWN_RANGE >> 4;
  for (const p of players) {
    const px = Math.floor(p.x) >> 4;
    const pz = Math.floor(p.z) >> 4;
    for (let x = px - reach; x <= px + reach; x++) {
      for (let z = pz - reach; z <= pz + reach; z++) {
        const key = `${x},${z}`;
        if (seen.has(key)) continue;
        const dx = x * 16 + 8 - p.x;
        const dz = z * 16 + 8 - p.z;
        if (dx * dx + dz * dz > SPAWN_RANGE * SPAWN_RANGE || !world.getLoadedColumn(x, z)) continue;
        seen.add(key);
        out.push([x, z]);
      }
    }
  }
  return out;
}

/** vanilla `NaturalSpawner.spawnCategoryForPosition` from a random block of the chunk; returns how many spawned. */
function spawnInChunk(
  serv: SquidServer,
  spawner: MonsterSpawner,
  surfaces: Surfaces,
  chunkX: number,
  chunkZ: number,
  conditions: Conditions,
): number {
  const x0 = chunkX * 16 + Math.floor(Math.random() * 16);
  const z0 = chunkZ * 16 + Math.floor(Math.random() * 16);
  const top = surfaces.column(x0, z0).height + 1;
  const y = MIN_Y + Math.floor(Math.random() * (top - MIN_Y + 1));
  const start = new Vec3(x0, y, z0);
  const world = serv.overworld;
  if (!world.sync.getColumnAt(start) || !isEmptyCell(serv, spawner, world.sync.getBlockStateId(start))) return 0;
  let spawned = 0;
  const min = MIN_SPAWN_DISTANCE * MIN_SPAWN_DISTANCE;
  for (let group = 0; group < GROUPS; group++) {
    let x = x0;
    let z = z0;
    let entry: MonsterEntry | undefined;
    let size = Math.ceil(Math.random() * 4);
    for (let t = 0; t < size; t++) {
      x += Math.floor(Math.random() * 6) - Math.floor(Math.random() * 6);
      z += Math.floor(Math.random() * 6) - Math.floor(Math.random() * 6);
      const at = new Vec3(x, y, z);
      const centre = at.offset(0.5, 0, 0.5);
      const d = nearestSquared(conditions.players, centre);
      if (d <= min || d > DESPAWN_DISTANCE * DESPAWN_DISTANCE || conditions.spawn.distanceSquared(centre) <= min) continue;
      if (!entry) {
        const list = monstersOf(surfaces.column(x, z).biome);
        entry = pickByWeight(list, Math.random);
        size = nextBetween(Math.random, entry.min, entry.max);
      }
      if (!entry.name || !fitsMonster(serv, spawner, entry.name, at, conditions)) continue;
      try {
        const mob = spawnMob(serv, entry.name, { world, position: centre });
        spawner.spawned.add(mob.entity.id);
      } catch (err) {
        // flying-squid's `max-entities` reached.
        serv.debug?.(`monster spawn at ${at}: ${String(err)}`);
        return spawned;
      }
      spawned++;
      if (spawned >= MAX_PER_CHUNK) return spawned;
    }
  }
  return spawned;
}

/** vanilla `Mob.checkDespawn` for the monsters the spawner spawned. */
function despawn(serv: SquidServer, spawner: MonsterSpawner, mobs: Map<number, MobState>, players: Vec3[]): void {
  for (const id of spawner.spawned) {
    const mob = mobs.get(id);
    if (!mob || mob.dead) {
      spawner.spawned.delete(id);
      continue;
    }
    const d = nearestSquared(players, mob.entity.position);
    const far = d > DESPAWN_DISTANCE * DESPAWN_DISTANCE;
    const wandered = d > RANDOM_DESPAWN_DISTANCE * RANDOM_DESPAWN_DISTANCE && Math.floor(Math.random() * RANDOM_DESPAWN_ODDS) === 0;
    if (serv.difficulty === 0 || far || wandered) {
      discardMob(serv, mob);
      spawner.spawned.delete(id);
    }
  }
}
