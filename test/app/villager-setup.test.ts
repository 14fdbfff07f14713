/**
 * The VillagerBench scenarios set up on the embedded server by real bots (two agents, op), and
 * their judges reading the world as it changes: a blueprint block set by command raises the
 * completion, an item given raises the cooking score, a lever pulled opens an escape room (the
 * judge's effect, typed by agent 0, opens its iron door).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { botStateLookup, play } from '../../src/app/task-play.ts';
import { setUp } from '../../src/app/task-setup.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { loadTask } from '../../src/tasks/loader.ts';
import type { LoadedTask } from '../../src/tasks/schema.ts';
import { validatorFor, type TaskState } from '../../src/tasks/validators.ts';
import { chainRooms } from '../../src/tasks/villager/escape.ts';
import { testSettings } from '../helpers/version.ts';
import { waitUntil } from '../helpers/wait.ts';

const fixture = (name: string) => path.resolve('test/fixtures/villagerbench', name);

let running: RunningBots;
const command = (line: string) => running.server!.serv.handleCommand(line);

beforeAll(async () => {
  running = await startAgents({
    settings: testSettings({ chat_bot_messages: false, goal_idle_ms: 600_000 }),
    profiles: [profileSchema.parse({ name: 'Andy' }), profileSchema.parse({ name: 'Bob' })],
    port: 0,
    log: () => {},
  });
}, 60_000);

afterAll(async () => {
  await running?.close();
});

const options = () => ({ log: () => {}, humansTimeoutMs: 1_000, signal: new AbortController().signal });

/** The state the task runner's judge reads (see `play` in src/app/task-play.ts), without effects. */
function readState(): TaskState {
  const { agents } = running;
  return {
    inventories: () => agents.map((a) => Object.fromEntries(a.bot.inventory.items().map((i) => [i.name, i.count]))),
    lookup: () => undefined,
    states: botStateLookup(agents[0]!.bot),
    agents: agents.map((a) => a.name),
  };
}

async function placed(task: LoadedTask): Promise<LoadedTask> {
  const { task: played } = await setUp(task, running.agents, [], options());
  expect(played).toBeDefined();
  return played!;
}

describe('VillagerBench on the embedded server', () => {
  test('construction: the site is cleared and the materials chest stands; completion rises block by block, orientation included', async () => {
    const task = await placed(await loadTask(fixture('construction.json'), 'stair_hut'));
    const spec = task.villager!;
    if (spec.scenario !== 'construction') throw new Error('not construction');
    const bot = running.agents[0]!.bot;
    expect(task.goal).toMatch(/materials are in the chest\(s\) at \[/);
    const chest = /chest\(s\) at \[(-?\d+) (-?\d+) (-?\d+)\]/
      .exec(task.goal as string)!
      .slice(1)
      .map(Number);
    const chestBlock = bot.blockAt(new Vec3(chest[0]!, chest[1]!, chest[2]!))!;
    expect(chestBlock.name).toBe('chest');
    // The agents stand two blocks from it: agent 0 opens it and finds one of each block to place.
    const window = await bot.openContainer(chestBlock);
    const contents = Object.fromEntries(window.containerItems().map((i) => [i.name, i.count]));
    await window.close();
    expect(contents).toEqual({ oak_planks: 1, oak_stairs: 1, oak_log: 1, glass: 1 });
    const validate = validatorFor(task)!;
    const state = readState();
    await waitUntil(() => validate(state).metrics?.completion === 0, 'the judge reads the cleared site');
    const [planks, stairs, log, glass] = spec.blocks;
    await command(`setblock ${planks!.x} ${planks!.y} ${planks!.z} oak_planks`);
    await waitUntil(() => validate(state).score === 0.25, 'completion 1/4 after the planks');
    // Stairs facing east where west is wanted: no credit; then west.
    await command(`setblock ${stairs!.x} ${stairs!.y} ${stairs!.z} oak_stairs[facing=east]`);
    await waitUntil(() => bot.blockAt(new Vec3(stairs!.x, stairs!.y, stairs!.z))?.name === 'oak_stairs', 'the bot sees the stairs');
    expect(validate(state).score).toBe(0.25);
    await command(`setblock ${stairs!.x} ${stairs!.y} ${stairs!.z} oak_stairs[facing=west]`);
    await waitUntil(() => validate(state).score === 0.5, 'completion 2/4 with the stairs facing west');
    await command(`setblock ${log!.x} ${log!.y} ${log!.z} oak_log[axis=y]`);
    await command(`setblock ${glass!.x} ${glass!.y} ${glass!.z} glass`);
    await waitUntil(() => validate(state).success, 'the hut complete');
    expect(validate(state).metrics).toMatchObject({ completion: 1, vhr: 1, blocks: 4 });
  }, 60_000);

  test('cooking: the farm and chest are built; checkpoints count as the agents come to hold their items', async () => {
    const bot = running.agents[0]!.bot;
    const feet = bot.entity.position.floored();
    const task = await placed(await loadTask(fixture('cooking.json'), 'cake_farm'));
    // From agent 0's spot: the crafting table at (0, 0, 6), the chest at (−1, 0, 6), the cane farm from (3, 0, 4).
    expect(bot.blockAt(feet.offset(0, 0, 6))?.name).toBe('crafting_table');
    expect(bot.blockAt(feet.offset(-1, 0, 6))?.name).toBe('chest');
    expect(bot.blockAt(feet.offset(4, 0, 4))?.name).toBe('sugar_cane');
    const validate = validatorFor(task)!;
    const state = readState();
    expect(validate(state).score).toBe(0);
    await command('give Andy hay_block 1');
    await waitUntil(() => validate(state).score === 0.15, 'the hay checkpoint (15)');
    await command('give Bob egg 1');
    await waitUntil(() => validate(state).score === 0.25, 'hay and egg (25)');
    expect(validate(state).metrics).toMatchObject({ acr: 1, checkpoints: 2 });
    await command('give Andy cake 1');
    await waitUntil(() => validate(state).success, 'the cake held');
    expect(validate(state).metrics).toMatchObject({ points: 100, checkpoints: 1 });
  }, 60_000);

  test('cooking: every kind of structure stands where the task puts it, with its animals', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'vb-farm-'));
    const file = path.join(dir, 'farm.json');
    const structure = (name: string, position: number[]) => ({ name, type: 'structure', position });
    await writeFile(
      file,
      JSON.stringify([
        {
          name: 'rabbit_stew_yard',
          target: 'rabbit_stew',
          cooked_rabbit: 'rabbit in pasture',
          baked_potato: 'potato in farm',
          component: [
            structure('rabbit_pasture', [3, 0, 4]),
            structure('potato_and_carrot_farm', [-8, 0, 4]),
            structure('house', [3, 0, 14]),
            structure('material_factory', [-8, 0, 14]),
          ],
          check_point: [{ name: 'rabbit_stew', count: 1, score: 100 }],
        },
      ]),
    );
    const bot = running.agents[0]!.bot;
    const feet = bot.entity.position.floored();
    // The set-up waits for each structure's last block and for the four rabbits.
    await placed(await loadTask(file, 'rabbit_stew_yard'));
    const at = (dx: number, dy: number, dz: number) => bot.blockAt(feet.offset(dx, dy, dz))?.name;
    expect(at(3 + 2, 0, 4)).toBe('oak_fence_gate');
    expect([at(-8 + 1, 0, 4), at(-8 + 3, 0, 4)]).toEqual(['potatoes', 'carrots']);
    expect(at(-8 + 2, -1, 4)).toBe('water');
    expect(at(3 + 5, 0, 14 + 1)).toBe('furnace');
    expect(at(-8 + 2, 0, 14 + 2)).toBe('coal_ore');
    expect(Object.values(bot.entities).filter((e) => e.name === 'rabbit').length).toBeGreaterThanOrEqual(4);
  }, 60_000);

  test('escape: the room is built around the team; a pulled lever opens its iron door through the judge, and the run succeeds', async () => {
    // A one-room run whose room is the lever-and-door atom (index 2 of the fixture).
    const atoms = (await loadTask(fixture('escape.json'), 'escape_1_0')).villager;
    if (atoms?.scenario !== 'escape') throw new Error('not escape');
    const seed = [...Array(50).keys()].find((s) => chainRooms(atoms.atoms, 1, s, 2, { x: 0, y: 0, z: 0 }).rooms[0]!.atom === 2)!;
    const task = await placed(await loadTask(fixture('escape.json'), `escape_1_${seed}`));
    const spec = task.villager!;
    if (spec.scenario !== 'escape' || !spec.chain) throw new Error('no chain');
    const room = spec.chain.rooms[0]!;
    const bot = running.agents[0]!.bot;
    const door = new Vec3(room.exit.x, room.exit.y, room.exit.z);
    expect(bot.blockAt(door)?.name).toBe('iron_door');
    expect(bot.blockAt(door)?.getProperties().open).toBe(false);
    expect(task.goal).toMatch(/Room 1 .*lever\[powered=true\] at \[/);
    // Both agents stand in the room, which gave them its in-items.
    for (const agent of running.agents)
      expect(agent.bot.entity.position.distanceTo(new Vec3(room.centre.x, room.centre.y, room.centre.z))).toBeLessThan(5);
    const validate = validatorFor(task)!;
    const signal = new AbortController();
    const ending = play(task, running.agents, running, validate, { missingAgentMs: 30_000, signal: signal.signal, onCheck: () => {} });
    const lever = room.conditions[0]!.at;
    await command(`setblock ${lever.x} ${lever.y} ${lever.z} lever[face=floor,facing=north,powered=true]`);
    const end = await ending;
    expect(end.reason).toBe('success');
    expect(end.outcome).toMatchObject({ score: 1, metrics: { rooms_done: 1, rooms: 1 } });
    await waitUntil(() => bot.blockAt(door)?.getProperties().open === true, 'the iron door opened by the judge');
    expect(bot.blockAt(door.offset(0, 1, 0))?.getProperties()).toMatchObject({ half: 'upper', open: true });
  }, 60_000);
});
