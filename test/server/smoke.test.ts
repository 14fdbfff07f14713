import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectBot, startTestServer } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';

let server: EmbeddedServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

test('a mineflayer bot spawns on the embedded superflat server', async () => {
  const bot = await connectBot(server, 'Smoke');
  expect(bot.blockAt(bot.entity.position.offset(0, -1, 0))?.name).toBe('grass_block');
  bot.quit();
});

test('a port already taken is refused with what to set', async () => {
  await expect(startTestServer({ port: server.port })).rejects.toThrow(
    new RegExp(`Minecraft port ${server.port} on 127\\.0\\.0\\.1 is taken .*"port" in settings\\.json`),
  );
});
