/**
 * The survival world service, installed only on servers that serve a survival world (see
 * ../embedded.ts): it
 * - sets the world spawn to the world's forest spawn (./spawn.ts `findSpawn`): new players
 *   appear there and clients get it as their `spawn_position`;
 * - generates the columns around every player ahead of time: each tick, up to
 *   {@link PREFETCH_PER_TICK} missing columns within the view distance plus
 *   {@link PREFETCH_MARGIN} (nearest first; beyond the view only those ahead of the way the player
 *   last moved, as flying-squid drops the columns a player leaves behind), so a walking player's
 *   next chunks are already there when flying-squid sends them;
 * - spawns each chunk's initial animals (./animals.ts) the first time the chunk is loaded, on the
 *   ground of the loaded chunk (as vanilla, on top of the highest block that is neither air, a
 *   plant nor leaves: grass for farm animals, grass or sand for rabbits, water for squid);
 * - runs the natural spawner of monsters every tick (./spawner.ts): in caves, and on the surface
 *   at night.
 *
 * flying-squid keeps no entities across restarts, so a world reloaded from its folder gets its
 * chunks' initial animals again.
 */
import { Vec3 } from 'vec3';
import type { ServerPlugin } from '../plugin.ts';
import { spawnMob } from '../services/mobs.ts';
import type { SquidServer, SquidWorld } from '../types.ts';
import { weatherOf } from '../features/weather-time.ts';
import { initialAnimals, type AnimalSpawn } from './animals.ts';
import { newMonsterSpawner, tickMonsters, type MonsterSpawner } from './spawner.ts';
import { chunkKey } from './surface.ts';
import { MIN_Y, WORLD_HEIGHT } from './terrain.ts';
import type { SurvivalWorld } from './world.ts';

/** Columns generated ahead of players per tick, at most. */
export const PREFETCH_PER_TICK = 1;
/** Columns beyond the view distance generated ahead of players. */
export const PREFETCH_MARGIN = 2;

/** What the service keeps per server. */
interface WorldState {
  world: SurvivalWorld;
  viewDistance: number;
  /** Chunks whose initial animals were spawned (or tried). */
  populated: Set<number>;
  /** Entity ids of the initial animals spawned (dead ones are dropped when read). */
  animals: Set<number>;
  /** Columns being loaded ahead of players. */
  loading: Set<number>;
  monsters: MonsterSpawner;
}

const states = new WeakMap<SquidServer, WorldState>();
/** Each player's chunk at the last prefetch, and the way it last changed (−1, 0, 1 on each axis). */
const headings = new WeakMap<object, { x: number; z: number; dx: number; dz: number }>();

/** The survival world a server serves, if it serves one. */
export function survivalWorldOf(serv: SquidServer): SurvivalWorld | undefined {
  return states.get(serv)?.world;
}

/** The survival world service for `world`; `viewDistance` is the server's (chunks). */
export function survivalWorldPlugin(world: SurvivalWorld, viewDistance: number): ServerPlugin {
  return {
    name: 'survival-world',
    requires: ['mobs'],
    install: (serv) => installSurvivalWorld(serv, world, viewDistance),
    // After the mobs' reset removed them: the chunks' initial animals, as a fresh world has them.
    reset: respawnInitialAnimals,
  };
}

function installSurvivalWorld(serv: SquidServer, world: SurvivalWorld, viewDistance: number): void {
  const state: WorldState = {
    world,
    viewDistance,
    populated: new Set(),
    animals: new Set(),
    loading: new Set(),
    monsters: newMonsterSpawner(),
  };
  states.set(serv, state);
  const spawn = new Vec3(world.spawn.x + 0.5, world.spawn.y, world.spawn.z + 0.5);
  (serv as SquidServer & { getSpawnPoint(w: unknown): Promise<Vec3> }).getSpawnPoint = async () => spawn.clone();
  const overworld = serv.overworld as SquidWorld & NodeJS.EventEmitter;
  overworld.on('chunkColumnLoad', (corner: Vec3) => populate(serv, state, corner.x >> 4, corner.z >> 4));
  for (const { chunkX, chunkZ } of overworld.getColumns()) populate(serv, state, Number(chunkX), Number(chunkZ));
  serv.on('tick', () => {
    prefetch(serv, state);
    tickMonsters(serv, state.monsters, world.generator.surfaces, spawn, weatherOf(serv));
  });
}

/**
 * Loads (generating where needed) every column within `radius` chunks of the world spawn's
 * chunk: run once at start-up, so the first players find their surroundings ready. It yields to
 * the event loop between columns: other servers and clients in the process (tests, evaluation
 * workers) keep their ticks and keep-alives meanwhile.
 */
export async function pregenerate(serv: SquidServer, radius: number): Promise<void> {
  const state = states.get(serv);
  if (!state) throw new Error('pregenerate: the server serves no survival world');
  const cx = state.world.spawn.x >> 4;
  const cz = state.world.spawn.z >> 4;
  for (let dz = -radius; dz <= radius; dz++) {
    for (let dx = -radius; dx <= radius; dx++) {
      await serv.overworld.getColumn(cx + dx, cz + dz);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/** Generates up to {@link PREFETCH_PER_TICK} missing columns near the players, nearest first. */
function prefetch(serv: SquidServer, state: WorldState): void {
  const world = serv.overworld as SquidWorld & { getLoadedColumn(x: number, z: number): unknown };
  const radius = state.viewDistance + PREFETCH_MARGIN;
  let budget = PREFETCH_PER_TICK - state.loading.size;
  for (const player of serv.players) {
    if (budget <= 0) return;
    if (player.world !== serv.overworld || !player.position) continue;
    const px = Math.floor(player.position.x) >> 4;
    const pz = Math.floor(player.position.z) >> 4;
    let heading = headings.get(player);
    if (!heading) headings.set(player, (heading = { x: px, z: pz, dx: 0, dz: 0 }));
    if (heading.x !== px || heading.z !== pz) {
      heading.dx = Math.sign(px - heading.x);
      heading.dz = Math.sign(pz - heading.z);
      heading.x = px;
      heading.z = pz;
    }
    for (let r = 0; r <= radius && budget > 0; r++) {
      for (let dz = -r; dz <= r && budget > 0; dz++) {
        for (let dx = -r; dx <= r && budget > 0; dx++) {
          if (Math.max(Math.abs(dx), Math.abs(dz)) !== r) continue;
          // Beyond the view only ahead: along the axis the player last moved on, that way.
          if (Math.abs(dx) > state.viewDistance && Math.sign(dx) !== heading.dx) continue;
          if (Math.abs(dz) > state.viewDistance && Math.sign(dz) !== heading.dz) continue;
          const x = px + dx;
          const z = pz + dz;
          const key = chunkKey(x, z);
          if (state.loading.has(key) || world.getLoadedColumn(x, z)) continue;
          state.loading.add(key);
          budget--;
          world.getColumn(x, z).then(
            () => state.loading.delete(key),
            (err: unknown) => {
              state.loading.delete(key);
              serv.emit('error', err);
            },
          );
        }
      }
    }
  }
}

/** Blocks an animal may stand in: air and plants one walks through (no collision box). */
function passable(serv: SquidServer, stateId: number): boolean {
  return serv.registry.blocksByStateId[stateId]?.boundingBox === 'empty' && stateId !== serv.registry.blocksByName.water!.defaultState;
}

/** Spawns the initial animals of chunk (chunkX, chunkZ) once. */
function populate(serv: SquidServer, state: WorldState, chunkX: number, chunkZ: number): void {
  const key = chunkKey(chunkX, chunkZ);
  if (state.populated.has(key)) return;
  state.populated.add(key);
  for (const animal of initialAnimals(state.world.generator.surfaces, chunkX, chunkZ)) {
    const position = standingPlace(serv, state, animal);
    if (!position) continue;
    try {
      const mob = spawnMob(serv, animal.name, {
        world: serv.overworld,
        position,
        baby: animal.baby,
        yaw: animal.yaw,
        woolColour: animal.woolColour,
      });
      state.animals.add(mob.entity.id);
    } catch (err) {
      // flying-squid's `max-entities` reached: the rest of this chunk's animals are not spawned.
      serv.debug?.(`initial animals of chunk ${chunkX},${chunkZ}: ${String(err)}`);
      return;
    }
  }
}

/** Where an animal of the initial spawn stands: the first of its tries with ground and room, or none. */
function standingPlace(serv: SquidServer, state: WorldState, animal: AnimalSpawn): Vec3 | undefined {
  const world = serv.overworld;
  const names = serv.registry.blocksByStateId;
  for (const { x, z } of animal.tries) {
    const at = new Vec3(x, 0, z);
    if (!world.sync.getColumnAt(at)) continue;
    // The highest block that is not air, a plant or leaves (vanilla MOTION_BLOCKING_NO_LEAVES).
    // From above the tallest tree the generator grows there (blocks a player built higher are not looked at).
    let y = Math.min(MIN_Y + WORLD_HEIGHT - 1, state.world.generator.surfaces.column(x, z).height + 20);
    for (; y > MIN_Y; y--) {
      at.y = y;
      const id = world.sync.getBlockStateId(at);
      const name = names[id]?.name ?? 'air';
      if (name === 'water' || (!passable(serv, id) && !name.endsWith('_leaves'))) break;
    }
    const ground = names[world.sync.getBlockStateId(at)]?.name;
    if (animal.name === 'squid') {
      if (ground === 'water') return new Vec3(x + 0.5, y - 1, z + 0.5);
      continue;
    }
    const fits = ground === 'grass_block' || (animal.name === 'rabbit' && ground === 'sand');
    if (!fits) continue;
    const feet = world.sync.getBlockStateId(new Vec3(x, y + 1, z));
    const head = world.sync.getBlockStateId(new Vec3(x, y + 2, z));
    if (passable(serv, feet) && passable(serv, head)) return new Vec3(x + 0.5, y + 1, z + 0.5);
  }
  return undefined;
}

/**
 * Warm worlds (../../app/warm-world.ts): removes nothing, but spawns the initial animals of every
 * loaded chunk again, as a fresh world has them (call it after removing every mob).
 */
export function respawnInitialAnimals(serv: SquidServer): void {
  const state = states.get(serv);
  if (!state) return;
  state.populated.clear();
  state.animals.clear();
  for (const { chunkX, chunkZ } of serv.overworld.getColumns()) populate(serv, state, Number(chunkX), Number(chunkZ));
}

/** Entity ids of the living monsters the natural spawner spawned (empty for a server without a survival world). */
export function naturalMonsterIds(serv: SquidServer): ReadonlySet<number> {
  const state = states.get(serv);
  if (!state) return new Set();
  for (const id of state.monsters.spawned) if (!serv.entities[id]) state.monsters.spawned.delete(id);
  return state.monsters.spawned;
}

/** Entity ids of the living initial animals (empty for a server without a survival world). */
export function initialAnimalIds(serv: SquidServer): ReadonlySet<number> {
  const state = states.get(serv);
  if (!state) return new Set();
  for (const id of state.animals) if (!serv.entities[id]) state.animals.delete(id);
  return state.animals;
}
