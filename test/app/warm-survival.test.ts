/**
 * A warm world (src/app/warm-world.ts) of a survival world: after a run that broke blocks and
 * killed an animal, the reset gives back the seed's blocks and the chunks' initial animals, and
 * the next run gets the same world warm.
 */
import { Vec3 } from 'vec3';
import { afterAll, expect, test } from 'vitest';
import { WarmWorld } from '../../src/app/warm-world.ts';
import { killMob, mobState } from '../../src/server/services/mobs.ts';
import { initialAnimalIds } from '../../src/server/worldgen/plugin.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { waitUntil } from '../helpers/world.ts';

const world = new WarmWorld({ settings: testSettings({ chat_bot_messages: false }) });
const request = {
  profiles: [profileSchema.parse({ name: 'Andy', model: 'oracle' })],
  serverWorld: { world: 'survival' as const, seed: 1 },
  events: { emit: () => {} },
  log: () => {},
};

afterAll(async () => {
  await world.close();
});

test('a survival world is reset warm: its blocks from the seed, its initial animals again', async () => {
  const running = await world.open(request);
  const server = running.server!;
  expect(server.world).toBe('survival');
  const serv = server.serv;
  const animals = initialAnimalIds(serv).size;
  expect(animals).toBeGreaterThan(0);
  // The run: a hole dug beside Andy, an animal killed.
  const andy = running.agents[0]!;
  const feet = andy.bot.entity.position.floored();
  const ground = new Vec3(feet.x + 2, server.survival!.generator.surfaces.column(feet.x + 2, feet.z).height, feet.z);
  const before = (await serv.overworld.getBlock(ground)).name;
  expect(before).not.toBe('air');
  await serv.setBlock(serv.overworld, ground, 0);
  await waitUntil(() => andy.bot.blockAt(ground)?.name === 'air', 'Andy sees the hole');
  const victim = [...initialAnimalIds(serv)][0]!;
  killMob(serv, mobState(serv, serv.entities[victim])!);
  await waitUntil(() => !serv.entities[victim], 'the animal is gone');

  await world.release(running, true);
  const again = await world.open(request);
  expect(again).toBe(running);
  expect(world.stats.warm).toBe(1);
  expect((await serv.overworld.getBlock(ground)).name).toBe(before);
  expect(again.agents[0]!.bot.blockAt(new Vec3(ground.x, ground.y, ground.z))!.name).toBe(before);
  expect(initialAnimalIds(serv).size).toBe(animals);
}, 120_000);
