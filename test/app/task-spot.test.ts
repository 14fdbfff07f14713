/**
 * A task's spot in the survival world, found from the seed alone (no server): the same task,
 * episode and seed give the same spot; the spot holds what the task's team must gather (logs,
 * stone, sheep for wool, iron ore for ingots), read back from the generated chunks, and counts on
 * the monsters that come in the dark; tasks that hold all they need keep superflat.
 */
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { findTaskSpot, gathersFromWorld, taskServerWorld } from '../../src/app/task-spot.ts';
import { SurvivalGenerator } from '../../src/server/worldgen/generator.ts';
import { WorldSurvey } from '../../src/server/worldgen/survey.ts';
import type { LoadedTask } from '../../src/tasks/schema.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const data = gameData(TEST_VERSION);

function crafting(id: string, target: string, inventories: Record<string, Record<string, number>>, missing: string[] = []): LoadedTask {
  return {
    id,
    file: 'inline',
    type: 'techtree',
    goal: `craft ${target}`,
    agent_count: Object.keys(inventories).length,
    target,
    number_of_target: 1,
    timeout: 300,
    initial_inventory: inventories,
    blocked_actions: {},
    missing_items: missing,
  };
}

describe('task spots', () => {
  test('crafting tasks that need the world play in the survival world; those with all in hand, cooking and construction do not', () => {
    const pinkWool = crafting('pink_wool', 'pink_wool', { 0: { pink_dye: 1 } });
    expect(gathersFromWorld(data, pinkWool)).toBe(true);
    expect(taskServerWorld(data, pinkWool, 7)).toEqual({ world: 'survival', seed: 7 });
    expect(gathersFromWorld(data, crafting('full', 'pink_wool', { 0: { pink_dye: 1 }, 1: { white_wool: 1 } }))).toBe(false);
    expect(gathersFromWorld(data, crafting('listed', 'stick', { 0: { oak_planks: 2 } }, ['oak_planks']))).toBe(true);
    expect(taskServerWorld(data, { ...pinkWool, type: 'cooking' }, 7)).toEqual({ world: 'superflat' });
    expect(taskServerWorld(data, { ...pinkWool, type: 'collection' }, 7)).toEqual({ world: 'survival', seed: 7 });
  });

  test('the same task, episode and seed give the same spot; another episode another', () => {
    const task = crafting('stone_pickaxe', 'stone_pickaxe', { 0: { stick: 2, wooden_pickaxe: 1 } });
    const a = findTaskSpot(new SurvivalGenerator(11), data, task, 1);
    const b = findTaskSpot(new SurvivalGenerator(11), data, task, 1);
    const c = findTaskSpot(new SurvivalGenerator(11), data, task, 2);
    expect(b).toEqual(a);
    expect([c.x, c.z]).not.toEqual([a.x, a.z]);
  });

  test.each([
    // Wool from sheep (pink dye given), cobblestone for a stone pickaxe, iron ore for ingots (a
    // furnace, fuel and a stone pickaxe made on the way).
    ['pink_wool', crafting('pink_wool', 'pink_wool', { 0: { pink_dye: 1 } }), { mob: 'sheep' }],
    ['stone_pickaxe', crafting('stone_pickaxe', 'stone_pickaxe', { 0: { stick: 2, crafting_table: 1 } }), { block: 'stone' }],
    ['iron_ingot', crafting('iron', 'iron_ingot', { 0: {} }, ['raw_iron']), { block: 'iron_ore' }],
    // Milk is no drop: a bucket used on a cow.
    ['milk_bucket', crafting('milk', 'milk_bucket', { 0: { bucket: 1 } }, ['milk_bucket']), { mob: 'cow' }],
  ])('%s: a forest spot that holds what the team must gather', (_, task, wanted) => {
    const generator = new SurvivalGenerator(3);
    const spot = findTaskSpot(generator, data, task, 1);
    expect(spot.holdsNeeds).toBe(true);
    expect(['forest', 'flower_forest', 'birch_forest', 'taiga']).toContain(spot.biome);
    if (!('mob' in wanted)) expect(spot.needs.some((n) => /_log$/.test(n.name))).toBe(true); // for the pickaxes
    const need = spot.needs.find((n) => ('mob' in wanted ? n.name === wanted.mob : n.name.endsWith(wanted.block)));
    expect(need, JSON.stringify(spot.needs)).toBeDefined();
    // Read back from the generated chunks: it is there, within sight (or within reach, for ores).
    const survey = new WorldSurvey(generator);
    const found = 'mob' in wanted ? survey.animalsNear(spot, 24).get(wanted.mob as never) : survey.blocksNear(spot, 56).get(need!.name);
    expect(found ?? 0).toBeGreaterThanOrEqual(need!.count);
    expect(spot.stands).toEqual([{ x: spot.x, y: spot.y, z: spot.z }]);
    // The ores it was chosen for, which the agents are told of (they may lie deeper than a bot sees).
    expect(spot.ores).toEqual(spot.needs.filter((n) => n.kind === 'block' && n.name.endsWith('_ore')).map((n) => n.name));
    if ('block' in wanted && wanted.block.endsWith('_ore')) expect(spot.ores).toContain(need!.name);
  });

  test('monsters come in the dark anywhere: string (spiders) needs no place that holds them, and the agents are told of them', () => {
    const generator = new SurvivalGenerator(3);
    const rod = findTaskSpot(generator, data, crafting('rod', 'fishing_rod', { 0: { string: 1, oak_planks: 2 } }), 1);
    expect(rod.holdsNeeds).toBe(true);
    expect(rod.needs).toContainEqual({ kind: 'mob', name: 'spider', count: 1 });
    expect(rod.mobs).toEqual(['spider']);
    // Animals are told only of a spot that holds them; monsters always.
    const wool = findTaskSpot(generator, data, crafting('wool', 'pink_wool', { 0: { pink_dye: 1 } }), 1);
    expect(wool.mobs).toEqual(['sheep']);
  });

  test('a team of three gets three stands apart; a task the world cannot give gets a forest spot, said so', () => {
    const generator = new SurvivalGenerator(5);
    const team = findTaskSpot(generator, data, crafting('sticks', 'stick', { 0: {}, 1: {}, 2: {} }, ['oak_planks']), 1);
    expect(team.stands).toHaveLength(3);
    const keys = new Set(team.stands.map((s) => `${s.x},${s.z}`));
    expect(keys.size).toBe(3);
    const blaze = findTaskSpot(generator, data, crafting('brewing_stand', 'brewing_stand', { 0: { cobblestone: 3 } }), 1);
    expect(blaze).toMatchObject({ holdsNeeds: false, biome: 'forest' });
  });

  test('a search that has spent its effort (rabbits: none near this point) settles for a forest spot, said so', () => {
    const task = crafting('rabbit_task', 'cooked_rabbit', { 0: {} }, ['rabbit']);
    // The default effort (SPOT_EFFORT) takes 15 to 45 s here, without finding one either.
    const spot = findTaskSpot(new SurvivalGenerator(1), data, task, 1, { looks: 500, chunks: 50 });
    expect(spot).toMatchObject({ holdsNeeds: false, biome: 'forest' });
    expect(spot.needs.map((n) => n.name)).toContain('rabbit');
  });
});
