/**
 * Cooking and construction tasks of the benchmark's own files, run by the task runner on an
 * embedded server the test owns (joined as an external server, as a user's server would be), with
 * the offline oracle and short timeouts. The world is inspected server-side.
 */
import path from 'node:path';
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { nameResolver } from '../../src/game/names.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { blockEntityAt } from '../../src/server/services/block-entities.ts';
import { giveItems } from '../../src/server/services/inventory.ts';
import { allMobs } from '../../src/server/services/mobs.ts';
import { settingsSchema } from '../../src/settings/index.ts';
import { levelCells } from '../../src/tasks/blueprint.ts';
import { loadTask } from '../../src/tasks/loader.ts';
import { loadTaskProfiles, runTask, type TaskReady } from '../../src/app/run-task.ts';
import { groundLevel } from '../../src/app/task-setup.ts';
import { blueprintBox, COOKING_ANIMALS, cookingLayout } from '../../src/tasks/worlds.ts';
import { connectBot, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';

const COOKING = path.resolve('test/fixtures/benchmark/cooking_tasks/require_collab_test_2_items');
const CONSTRUCTION = path.resolve('test/fixtures/benchmark/construction_tasks/custom');

let server: EmbeddedServer;
let builder: Bot;
beforeAll(async () => {
  server = await startTestServer();
  builder = await connectBot(server, 'Builder');
}, 30_000);
afterAll(async () => {
  builder?.quit();
  await server?.close();
});

const settings = () => settingsSchema.parse({ chat_bot_messages: false, server: 'external', host: server.host, port: server.port });
const blockAt = async (x: number, y: number, z: number) => server.serv.overworld.getBlock(new Vec3(x, y, z));

async function run(file: string, id: string, patch: Record<string, unknown>, onReady: (ready: TaskReady) => void | Promise<void>) {
  const task = await loadTask(file, id);
  const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), task.agent_count);
  return runTask({ task: { ...task, ...patch }, settings: settings(), profiles, log: () => {}, onReady });
}

describe('cooking tasks', () => {
  test('the cooking world is built around agent 0: farm at full age, fuelled furnace and smoker, bed, 8 of each animal', async () => {
    let checked = false;
    const result = await run(
      path.join(COOKING, '2_agent.json'),
      'multiagent_cooking_2_1_bread_1_golden_apple',
      { timeout: 2 },
      async ({ agents, origin }) => {
        const l = cookingLayout(origin);
        const wheat = await blockAt(l.crops[0]!.box.min.x, origin.y, l.crops[0]!.box.min.z);
        expect(wheat.name).toBe('wheat');
        expect(String(wheat.getProperties().age)).toBe('7');
        const beet = await blockAt(l.crops[3]!.box.max.x, origin.y, l.crops[3]!.box.max.z);
        expect([beet.name, String(beet.getProperties().age)]).toEqual(['beetroots', '3']);
        expect((await blockAt(l.crops[0]!.box.min.x, origin.y - 1, l.crops[0]!.box.min.z)).name).toBe('farmland');
        expect((await blockAt(origin.x + 3, origin.y - 1, origin.z + 7)).name).toBe('water');
        expect((await blockAt(l.sugarCane[0]!.x, origin.y + 1, l.sugarCane[0]!.z)).name).toBe('sugar_cane');
        expect((await blockAt(l.mushrooms[0]!.pos.x, origin.y, l.mushrooms[0]!.pos.z)).name).toBe('red_mushroom');
        expect((await blockAt(l.craftingTable.x, l.craftingTable.y, l.craftingTable.z)).name).toBe('crafting_table');
        const head = await blockAt(l.bed.head.x, l.bed.head.y, l.bed.head.z);
        expect([head.name, head.getProperties().part]).toEqual(['red_bed', 'head']);
        for (const kind of ['furnace', 'smoker'] as const) {
          const p = l[kind];
          expect((await blockAt(p.x, p.y, p.z)).name).toBe(kind);
          const entity = await blockEntityAt(server.serv, server.serv.overworld, new Vec3(p.x, p.y, p.z));
          expect(entity?.slots[1]).toMatchObject({ name: 'coal', count: 64 });
        }
        const alive = allMobs(server.serv).filter(
          (m) => !m.dead && m.entity.position.distanceTo(new Vec3(origin.x, origin.y, origin.z)) < 30,
        );
        for (const type of COOKING_ANIMALS) expect(alive.filter((m) => m.name === type).length, type).toBeGreaterThanOrEqual(8);
        // Inventories as the task gives them; agent 1 stands beside agent 0.
        expect(
          agents[1]!.bot.inventory
            .items()
            .map((i) => [i.name, i.count])
            .sort(),
        ).toEqual([
          ['apple', 1],
          ['gold_ingot', 5],
        ]);
        expect(serverPlayer(server, agents[1]!.name).position.distanceTo(new Vec3(origin.x + 2.5, origin.y, origin.z + 0.5))).toBeLessThan(
          1.5,
        );
        checked = true;
      },
    );
    expect(result.error).toBeUndefined();
    expect(checked).toBe(true);
    expect(result).toMatchObject({ success: false, score: 0 });
  }, 60_000);

  test("Hell's Kitchen: both dishes in one inventory are not enough; each agent must hold its own", async () => {
    let handedAt = 0;
    let handOver: Promise<void> = Promise.resolve();
    // No ingredients: nobody can cook, only the test hands out dishes.
    const result = await run(
      path.join(COOKING, '2_agent_hells_kitchen.json'),
      'multiagent_cooking_bread_golden_apple_hells_kitchen',
      { timeout: 20, initial_inventory: {} },
      ({ agents }) => {
        const [andy, jill] = agents.map((a) => serverPlayer(server, a.name));
        // Agent 0's dish is bread, agent 1's golden_apple (target[i]).
        giveItems(andy, 'bread', 1);
        giveItems(andy, 'golden_apple', 1);
        // The validator runs on every game tick of agent 0's bot: once that bot holds both dishes,
        // 20 of its ticks go by without success before agent 1 gets its own.
        const bot = agents[0]!.bot;
        const holds = (name: string) => bot.inventory.items().some((i) => i.name === name);
        handOver = (async () => {
          await waitUntil(() => holds('bread') && holds('golden_apple'), 'agent 0 holds both dishes');
          await bot.waitForTicks(20);
          handedAt = Date.now();
          giveItems(jill, 'golden_apple', 1);
        })();
      },
    );
    await handOver;
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ success: true, score: 1 });
    expect(handedAt).toBeGreaterThan(0);
    // The run ended (success) after the hand-out: its end from its own start (not this test's,
    // which comes before the task file and profiles load: 150 ms and more under load), give or
    // take duration_s's rounding to 0.1 s and a tick.
    expect(Date.parse(result.started_at) + result.duration_s * 1000).toBeGreaterThanOrEqual(handedAt - 150);
    expect(result.duration_s).toBeLessThan(20);
  }, 60_000);
});

describe('construction tasks', () => {
  test('the site is cleared, agents stand on level 0, !checkBlueprint lists what is missing, and building it ends the run at 100', async () => {
    const task = await loadTask(path.join(CONSTRUCTION, 'pyramid.json'), 'pyramid');
    // The embedded world is vanilla superflat (surface y = -61): the blueprint (written for level 0
    // at y = -60) is used as it is.
    const expected = task.blueprint!;
    const box = blueprintBox(expected);
    builder.chat(`/fill ${box.min.x} ${box.min.y} ${box.min.z} ${box.min.x + 3} ${box.min.y + 2} ${box.min.z + 3} stone`);
    await waitUntil(async () => (await blockAt(box.min.x + 1, box.min.y + 1, box.min.z + 1)).name === 'stone', 'the stone filled in');

    let report = '';
    let builtAt = 0;
    let building: Promise<void> = Promise.resolve();
    const result = await run(path.join(CONSTRUCTION, 'pyramid.json'), 'pyramid', { timeout: 45 }, async ({ agents, blueprint }) => {
      expect(blueprint).toEqual(expected);
      for (let x = box.min.x; x <= box.min.x + 3; x++)
        for (let y = box.min.y; y <= box.min.y + 2; y++) {
          expect((await blockAt(x, y, box.min.z + 1)).name).toBe('air');
        }
      const [x0, y0, z0] = expected.levels[0]!.coordinates;
      agents.forEach((a, i) => {
        expect(serverPlayer(server, a.name).position.distanceTo(new Vec3(x0 + 2 * i + 0.5, y0, z0 + 0.5))).toBeLessThan(1.5);
      });
      const parsed = parseCommand('!checkBlueprint', agents[0]!.commands, nameResolver('1.21.4'));
      if (parsed.kind !== 'command') throw new Error(`!checkBlueprint did not parse: ${parsed.kind}`);
      report = await agents[0]!.execute(parsed);
      // Build it block by block from the builder (an op player), after the run has started.
      const lines: string[] = [];
      for (const level of expected.levels) {
        const cells = levelCells(level).filter((c) => c.block !== 'air');
        for (const c of cells) lines.push(`/setblock ${c.x} ${c.y} ${c.z} ${c.block}`);
      }
      // Once the run is under way (the goals are handed out right after this callback):
      building = waitUntil(() => agents[0]!.task !== undefined, 'the run to hand out its tasks').then(() => {
        builtAt = Date.now();
        for (const line of lines) builder.chat(line);
      });
    });
    await building;
    expect(result.error).toBeUndefined();
    expect(report).toMatch(/^Level 0 needs \d+ changes:\nPlace \w+ at \(-60, -60, 6\)/);
    expect(report).toMatch(/Construction score: 0%\.$/);
    expect(result).toMatchObject({ success: true, score: 1 });
    expect(builtAt).toBeGreaterThan(0);
    expect(Date.parse(result.started_at) + result.duration_s * 1000).toBeGreaterThan(builtAt);
    expect(result.duration_s).toBeLessThan(45);
  }, 90_000);

  test('a construction run that times out reports the fraction built', async () => {
    const task = await loadTask(path.join(CONSTRUCTION, 'pyramid.json'), 'pyramid');
    const level0 = task.blueprint!.levels[0]!;
    const cells = levelCells(level0).filter((c) => c.block !== 'air');
    const result = await run(path.join(CONSTRUCTION, 'pyramid.json'), 'pyramid', { timeout: 4 }, () => {
      // Only level 0's first row.
      for (const c of cells.filter((c) => c.z === level0.coordinates[2])) builder.chat(`/setblock ${c.x} ${c.y} ${c.z} ${c.block}`);
    });
    expect(result.success).toBe(false);
    expect(result.score).toBeGreaterThan(0);
    expect(result.score).toBeLessThan(0.2);
    expect(result.error).toBeUndefined();
  }, 60_000);

  test('the site rests on the natural ground, also when agent 0 stands on a building (players spawn on top of whatever is there)', async () => {
    const at = builder.entity.position.floored().offset(40, 0, 0);
    const ground = -60; // the embedded superflat world's surface (grass at y = -61)
    builder.chat(`/fill ${at.x - 2} ${ground} ${at.z - 2} ${at.x + 2} ${ground + 2} ${at.z + 2} oak_planks`);
    builder.chat(`/tp Builder ${at.x + 0.5} ${ground + 3} ${at.z + 0.5}`);
    await waitUntil(
      () => builder.blockAt(new Vec3(at.x, ground + 2, at.z))?.name === 'oak_planks' && builder.entity.position.y === ground + 3,
      'the builder stands on the building',
    );
    const feet = builder.entity.position.floored();
    expect(feet.y).toBe(ground + 3);
    expect(groundLevel(builder, feet)).toBe(ground);
    builder.chat(`/fill ${at.x - 2} ${ground} ${at.z - 2} ${at.x + 2} ${ground + 2} ${at.z + 2} air`);
    await waitUntil(() => builder.blockAt(new Vec3(at.x, ground, at.z))?.name === 'air', 'the building is gone');
  });
});
