/**
 * Warm worlds (src/app/warm-world.ts): a task played on a world kept from an earlier run, reset
 * in between, gives the same result as on a fresh world: the same score and the same commands
 * from the oracle. The earlier run leaves a crafting table it used, blocks, a furnace, a mob and
 * items on the ground behind; the reset is checked on the server and on the bots, and a world
 * whose reset does not hold gets replaced by a fresh one.
 */
import path from 'node:path';
import { Vec3 } from 'vec3';
import { afterAll, expect, test } from 'vitest';
import { loadTaskProfiles, runTask, type TaskReady, type TaskRunOptions } from '../../src/app/run-task.ts';
import { WarmWorld } from '../../src/app/warm-world.ts';
import { loadTask } from '../../src/tasks/loader.ts';
import { testSettings } from '../helpers/version.ts';
import { waitUntil } from '../helpers/world.ts';

const TASKS = path.resolve('test/fixtures/minecollab/crafting_2_agents.json');
const COMPASS = 'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0';
const BANNER = 'multiagent_crafting_purple_banner_full_plan_requires_ctable__depth_0';
const settings = testSettings({ chat_bot_messages: false });
const world = new WarmWorld({ settings: { ...settings, server: 'embedded' } });
afterAll(() => world.close());

async function play(id: string, more: Partial<TaskRunOptions> = {}) {
  const task = await loadTask(TASKS, id);
  const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), task.agent_count);
  return runTask({ task, settings, profiles, model: 'oracle', log: () => {}, ...more });
}

/** Leaves a mess next to the team: blocks, a furnace, a mob, items on the ground, an effect, experience. */
async function litter({ agents, origin }: TaskReady): Promise<void> {
  const bot = agents[0]!.bot;
  const { x, y, z } = origin;
  for (const line of [
    `/setblock ${x + 3} ${y} ${z + 3} stone`,
    `/fill ${x - 4} ${y} ${z - 4} ${x - 3} ${y + 1} ${z - 3} oak_planks`,
    `/setblock ${x + 3} ${y} ${z - 3} furnace`,
    `/summon pig ${x + 5} ${y} ${z}`,
    `/give ${agents[1]!.name} cobblestone 5`,
    `/effect give ${agents[0]!.name} slowness 600`,
    `/xp add ${agents[0]!.name} 3 levels`,
  ])
    bot.chat(line);
  await waitUntil(
    () =>
      bot.blockAt(new Vec3(x + 3, y, z - 3))?.name === 'furnace' &&
      Object.values(bot.entities).some((e) => e.name === 'pig') &&
      Object.keys(bot.entity.effects).length > 0 &&
      bot.experience.level === 3,
    'the mess is there',
  );
  await agents[1]!.bot.toss(agents[1]!.bot.registry.itemsByName.cobblestone!.id, null, 5);
  await waitUntil(() => Object.values(bot.entities).some((e) => e.name === 'item'), 'the tossed items lie on the ground');
}

test('the same task on a reset warm world and on a fresh one: the same score and the same oracle commands; a reset that does not hold is not used', async () => {
  const fresh = await play(BANNER);
  expect(fresh).toMatchObject({ success: true, score: 1 });

  // A first run on the warm world places a crafting table (Jill crafts the compass) and leaves a
  // mess; the same world then plays the banner task, whose plan depends on the tables in sight.
  const first = await play(COMPASS, { world, onReady: litter });
  expect(first.success).toBe(true);
  expect(world.stats).toMatchObject({ fresh: 1, warm: 0, failedResets: 0 });
  let bot: TaskReady['agents'][number]['bot'] | undefined;
  const warm = await play(BANNER, {
    world,
    onReady: ({ agents }) => {
      bot = agents[0]!.bot;
    },
  });
  expect(world.stats).toMatchObject({ fresh: 1, warm: 1, failedResets: 0 });

  expect(warm.score).toBe(fresh.score);
  expect(warm.success).toBe(fresh.success);
  expect(warm.commands).toEqual(fresh.commands);
  // Nothing of the earlier run shows: no history carried over, the same goals.
  expect(warm.goals).toEqual(fresh.goals);

  // After the reset, something changes the world behind its back (the bot stays connected while
  // the world is kept): the next run notices and gets a fresh world.
  const pos = bot!.entity.position.floored().offset(6, 0, 6);
  bot!.chat(`/setblock ${pos.x} ${pos.y} ${pos.z} stone`);
  await waitUntil(() => bot!.blockAt(pos)?.name === 'stone', 'the stray block is there');
  const next = await play(COMPASS, { world });
  expect(next.success).toBe(true);
  expect(world.stats).toMatchObject({ fresh: 2, warm: 1, failedResets: 1 });
}, 180_000);
