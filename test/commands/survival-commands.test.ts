/**
 * An agent in the default world of `npm start`, a survival world: `!collectBlocks("oak_log", 3)`
 * works as soon as it has joined (the spawn is in a forest with oaks within reach), and
 * `!searchForEntity` digs its way to a mob in a cave below (where monsters live).
 */
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { spawnMob } from '../../src/server/services/mobs.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { give, waitUntil } from '../helpers/world.ts';
import { count, run } from './agent-world.ts';

let running: RunningBots;

beforeAll(async () => {
  running = await startAgents({
    settings: testSettings({ chat_bot_messages: false, world: 'survival', seed: 1 }),
    profiles: [profileSchema.parse({ name: 'Andy', model: 'oracle' })],
    port: 0,
    log: () => {},
  });
}, 60_000);

afterAll(async () => {
  await running?.close();
});

test('right after start-up in a survival world, !collectBlocks("oak_log", 3) gets three oak logs', async () => {
  const andy = running.agents[0]!;
  expect(running.server!.world).toBe('survival');
  const out = await run(andy, '!collectBlocks("oak_log", 3)');
  expect(out).toMatch(/oak_log/);
  expect(count(andy, 'oak_log')).toBeGreaterThanOrEqual(3);
  // 30–45 s alone; beside the rest of the suite on two cores, the walks and digs took over 120 s.
}, 240_000);

test('!searchForEntity digs its way down to a mob in a cave below, out of any path', async () => {
  const andy = running.agents[0]!;
  const serv = running.server!.serv;
  await give(running.server!, andy.bot, 'stone_pickaxe', 1);
  // A dark cave cell 28–50 blocks below Andy with a floor and headroom, the highest such: deeper
  // than one path search finds a way to in its time.
  const world = serv.overworld.sync;
  const feet = andy.bot.entity.position.floored();
  const free = (p: Vec3) => serv.registry.blocksByStateId[world.getBlockStateId(p)]?.boundingBox === 'empty';
  let cave: Vec3 | undefined;
  for (let dy = 28; dy <= 50 && !cave; dy++) {
    for (let dx = -10; dx <= 10 && !cave; dx++) {
      for (let dz = -10; dz <= 10 && !cave; dz++) {
        const p = feet.offset(dx, -dy, dz);
        if (world.getColumnAt(p) && world.getSkyLight(p) === 0 && free(p) && free(p.offset(0, 1, 0)) && !free(p.offset(0, -1, 0))) cave = p;
      }
    }
  }
  expect(cave, 'a cave under the spawn of seed 1').toBeDefined();
  // A mooshroom: no other in this world (its animals and monsters are other kinds).
  const mooshroom = spawnMob(serv, 'mooshroom', { world: serv.overworld, position: cave!.offset(0.5, 0, 0.5) });
  await waitUntil(() => Object.values(andy.bot.entities).some((e) => e.name === 'mooshroom'), 'Andy knows of the mooshroom');
  const out = await run(andy, '!searchForEntity("mooshroom", 64)');
  expect(out).toMatch(/^Found a mooshroom/);
  expect(andy.bot.entity.position.distanceTo(mooshroom.entity.position)).toBeLessThan(4);
}, 240_000);
