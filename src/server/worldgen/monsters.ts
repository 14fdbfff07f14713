/**
 * The monsters of the survival world's biomes and the light they spawn in: the data and rules the
 * natural spawner (./spawner.ts) follows, pure so that a task's spot (src/app/task-spot.ts) can
 * count on them without a server.
 *
 * - Monster lists by biome (vanilla `BiomeDefaultFeatures.monsters` and `desertSpawns`): weights
 *   and group sizes.
 * - Light (vanilla `Level.updateSkyBrightness`, `DimensionType.timeOfDay`,
 *   `Monster.isDarkEnoughToSpawn`; Minecraft wiki "Light" and "Spawn"): how much the sky darkens
 *   with the time of day and the weather, and whether a place is dark enough for a monster.
 */
import type { SpawnEntry } from './animals.ts';
import { BIOME } from './blocks.ts';

/** Ticks per in-game day. */
const TICKS_PER_DAY = 24_000;

/** One entry of a biome's monster list. */
export type MonsterEntry = SpawnEntry<string>;

/**
 * vanilla `BiomeDefaultFeatures.monsters` (zombie 95, zombie villager 5, skeleton 100): the
 * monster list of the plains, forests, taiga, beaches and rivers. Slimes (which keep to slime
 * chunks and swamps), endermen and witches are drawn with their weights and spawn nothing here
 * (the server has no AI for them).
 */
const COMMON: MonsterEntry[] = [
  { name: 'spider', weight: 100, min: 4, max: 4 },
  { name: 'zombie', weight: 95, min: 4, max: 4 },
  { name: 'zombie_villager', weight: 5, min: 1, max: 1 },
  { name: 'skeleton', weight: 100, min: 4, max: 4 },
  { name: 'creeper', weight: 100, min: 4, max: 4 },
  { name: undefined, weight: 100, min: 4, max: 4 }, // slime
  { name: undefined, weight: 10, min: 1, max: 4 }, // enderman
  { name: undefined, weight: 5, min: 1, max: 1 }, // witch
];
/** vanilla `BiomeDefaultFeatures.desertSpawns`: zombies mostly husks (zombie 19, zombie villager 1, husk 80). */
const DESERT: MonsterEntry[] = COMMON.flatMap((e) =>
  e.name === 'zombie'
    ? [
        { ...e, weight: 19 },
        { name: 'husk', weight: 80, min: 4, max: 4 },
      ]
    : e.name === 'zombie_villager'
      ? [{ ...e, weight: 1 }]
      : [e],
);

/** The monster list of a generator biome code. */
export function monstersOf(biome: number): MonsterEntry[] {
  return biome === BIOME.desert ? DESERT : COMMON;
}

/** Every species the spawner may spawn (minecraft-data entity names). */
export const MONSTER_NAMES: readonly string[] = [...new Set([...COMMON, ...DESERT].flatMap((e) => (e.name ? [e.name] : [])))];

/**
 * How much the sky's light is dimmed (0 at noon – 11 at midnight; rain and thunder dim it more),
 * vanilla `Level.updateSkyBrightness` with `DimensionType.timeOfDay`.
 *
 * @param dayTime ticks (any whole number; the day is 24 000 ticks).
 */
export function skyDarken(dayTime: number, raining = false, thundering = false): number {
  const day = (((dayTime % TICKS_PER_DAY) + TICKS_PER_DAY) % TICKS_PER_DAY) / TICKS_PER_DAY;
  const d = day - 0.25 - Math.floor(day - 0.25);
  const timeOfDay = (d * 2 + (0.5 - Math.cos(d * Math.PI) / 2)) / 3;
  const sun = 0.5 + 2 * Math.min(0.25, Math.max(-0.25, Math.cos(timeOfDay * Math.PI * 2)));
  const rain = raining ? 1 - 5 / 16 : 1;
  const thunder = thundering ? 1 - 5 / 16 : 1;
  return Math.floor((1 - sun * rain * thunder) * 11);
}

/**
 * vanilla `Monster.isDarkEnoughToSpawn` for the overworld (block light limit 0, spawn light test
 * uniform 0–7; in a thunderstorm the sky counts as darkened by 10).
 *
 * @param sky sky light 0–15 at the place; @param block block light 0–15; @param darken {@link skyDarken}.
 */
export function darkEnough(sky: number, block: number, darken: number, thundering: boolean, random: () => number = Math.random): boolean {
  if (sky > Math.floor(random() * 32)) return false;
  if (block > 0) return false;
  const brightness = Math.max(sky - (thundering ? 10 : darken), block);
  return brightness <= Math.floor(random() * 8);
}
