/**
 * The animals a chunk starts with, as vanilla spawns them when a chunk is generated
 * (`NaturalSpawner.spawnMobsForChunkGeneration`): while a draw is under the biome's creature
 * probability (0.1, vanilla `MobSpawnSettings` default), one group of a species drawn by weight
 * from the biome's creature list, at a random column of the chunk, each next member a few blocks
 * from the last (`x += nextInt(5) − nextInt(5)`, up to 4 tries each). Members after the first are
 * babies one time in twenty (`AgeableMob.AgeableMobGroupData`, baby chance 0.05). A sheep's fleece
 * is white 81.836 %, black, gray and light gray 5 % each, brown 3 %, pink 0.164 %
 * (`Sheep.getRandomSheepColor`).
 *
 * Creature lists (vanilla `BiomeDefaultFeatures`, weight and group size): farm animals — sheep
 * 12 (4), pig 10 (4), chicken 10 (4), cow 8 (4) — in plains, forests and taiga; rabbits 4 (2–3)
 * in flower forest, taiga and desert. Horses, donkeys, wolves, foxes, camels and turtles are in the
 * lists with their weights but not spawned here (the server has no AI for them).
 *
 * Rivers get squid, groups of 1–4 in one chunk in ten: vanilla spawns them in rivers (weight 2,
 * 1–4) by its natural spawner during play, which this server does not run; they are the world's
 * only ink sacs (black dye).
 *
 * This module is pure: it says which animals and where across the chunk; the world service
 * (./plugin.ts) finds the ground under them in the loaded chunk and spawns them.
 */
import { BIOME } from './blocks.ts';
import { chunkRandom, nextBetween, nextInt, pickByWeight, SALT, type Random } from './random.ts';
import type { Surfaces } from './surface.ts';

/** Species the generator spawns (minecraft-data entity names). */
export type AnimalName = 'sheep' | 'pig' | 'chicken' | 'cow' | 'rabbit' | 'squid';

/** One animal to spawn: candidate columns (tried in order: the first with room wins). */
export interface AnimalSpawn {
  name: AnimalName;
  /** World columns to try, in order. */
  tries: ReadonlyArray<{ x: number; z: number }>;
  baby: boolean;
  /** Degrees. */
  yaw: number;
  /** Sheep: the fleece colour index (../services/mobs.ts `WOOL_COLOURS`). */
  woolColour?: number;
}

/** One entry of a biome's spawn list (vanilla `MobSpawnSettings.SpawnerData`): a species, its weight and group size. */
export interface SpawnEntry<Name extends string = AnimalName> {
  /** undefined: in vanilla's list, not spawned here. */
  name: Name | undefined;
  weight: number;
  min: number;
  max: number;
}

const FARM: SpawnEntry[] = [
  { name: 'sheep', weight: 12, min: 4, max: 4 },
  { name: 'pig', weight: 10, min: 4, max: 4 },
  { name: 'chicken', weight: 10, min: 4, max: 4 },
  { name: 'cow', weight: 8, min: 4, max: 4 },
];
const RABBIT: SpawnEntry = { name: 'rabbit', weight: 4, min: 2, max: 3 };

/** Creature spawn lists by biome code (vanilla `BiomeDefaultFeatures` / `OverworldBiomes`). */
const CREATURES: Partial<Record<number, SpawnEntry[]>> = {
  [BIOME.plains]: [...FARM, { name: undefined, weight: 5, min: 2, max: 6 }, { name: undefined, weight: 1, min: 1, max: 3 }],
  [BIOME.sunflower_plains]: [...FARM, { name: undefined, weight: 5, min: 2, max: 6 }, { name: undefined, weight: 1, min: 1, max: 3 }],
  [BIOME.forest]: [...FARM, { name: undefined, weight: 5, min: 4, max: 4 }],
  [BIOME.birch_forest]: [...FARM],
  [BIOME.flower_forest]: [...FARM, RABBIT],
  [BIOME.taiga]: [...FARM, { name: undefined, weight: 8, min: 4, max: 4 }, RABBIT, { name: undefined, weight: 8, min: 2, max: 4 }],
  [BIOME.desert]: [RABBIT, { name: undefined, weight: 1, min: 1, max: 1 }],
  [BIOME.beach]: [{ name: undefined, weight: 5, min: 2, max: 5 }],
  [BIOME.river]: [{ name: 'squid', weight: 2, min: 1, max: 4 }],
};
/** The animals the generator spawns, in the order of the creature lists. */
export const ANIMAL_NAMES: readonly AnimalName[] = [
  ...new Set(
    Object.values(CREATURES)
      .flat()
      .flatMap((e) => (e?.name ? [e.name] : [])),
  ),
];
/** vanilla `MobSpawnSettings.creatureGenerationProbability` default. */
const CREATURE_PROBABILITY = 0.1;
/** vanilla `AgeableMob.AgeableMobGroupData` default baby chance. */
const BABY_CHANCE = 0.05;
/** Tries per member (vanilla: 4). */
const TRIES = 4;

/** vanilla `Sheep.getRandomSheepColor`: the fleece colour index. */
export function sheepColour(random: Random): number {
  const i = nextInt(random, 100);
  if (i < 5) return 15; // black
  if (i < 10) return 7; // gray
  if (i < 15) return 8; // light gray
  if (i < 18) return 12; // brown
  return nextInt(random, 500) === 0 ? 6 : 0; // pink, else white
}

/** The animals chunk (chunkX, chunkZ) starts with (see the module comment). */
export function initialAnimals(surfaces: Surfaces, chunkX: number, chunkZ: number): AnimalSpawn[] {
  const seed = surfaces.terrain.seed;
  const surface = surfaces.of(chunkX, chunkZ);
  const list = CREATURES[surface.cells[2 * 4 + 2]!]; // the biome at the chunk's centre
  if (!list) return [];
  const random = chunkRandom(seed, SALT.animals, chunkX, chunkZ);
  const x0 = chunkX * 16;
  const z0 = chunkZ * 16;
  const out: AnimalSpawn[] = [];
  while (random() < CREATURE_PROBABILITY) {
    const entry = pickByWeight(list, random);
    const size = nextBetween(random, entry.min, entry.max);
    const ox = x0 + nextInt(random, 16);
    const oz = z0 + nextInt(random, 16);
    let x = ox;
    let z = oz;
    for (let member = 0; member < size; member++) {
      const tries: Array<{ x: number; z: number }> = [];
      for (let t = 0; t < TRIES; t++) {
        tries.push({ x, z });
        x += nextInt(random, 5) - nextInt(random, 5);
        z += nextInt(random, 5) - nextInt(random, 5);
        while (x < x0 || x >= x0 + 16 || z < z0 || z >= z0 + 16) {
          x = ox + nextInt(random, 5) - nextInt(random, 5);
          z = oz + nextInt(random, 5) - nextInt(random, 5);
        }
      }
      const baby = member > 0 && random() <= BABY_CHANCE;
      const yaw = random() * 360;
      const woolColour = entry.name === 'sheep' ? sheepColour(random) : undefined;
      if (entry.name) out.push({ name: entry.name, tries, baby: baby && entry.name !== 'squid', yaw, woolColour });
    }
  }
  return out;
}
