/**
 * The embedded world is vanilla 1.21 superflat as a vanilla client sees it: bedrock at y = −64,
 * dirt at −63 and −62, grass_block at −61, the player standing at −60, min y −64, height 384.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, startTestServer } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';

let server: EmbeddedServer;
let bot: Bot;
beforeAll(async () => {
  server = await startTestServer();
  bot = await connectBot(server, 'Layout');
});
afterAll(async () => {
  bot?.quit();
  await server?.close();
});

describe('world layout', () => {
  test('the client gets a 1.18+ overworld of 384 blocks from y = -64, flagged flat', () => {
    const game = bot.game as typeof bot.game & { minY: number; height: number };
    expect(game.minY).toBe(-64);
    expect(game.height).toBe(384);
    expect(bot.game.levelType).toBe('flat');
  });

  test('the layers are vanilla superflat and the player stands at y = -60', () => {
    const { x, z } = bot.entity.position.floored();
    const column = [-64, -63, -62, -61, -60, -59].map((y) => bot.blockAt(new Vec3(x, y, z))?.name ?? null);
    expect(column).toEqual(['bedrock', 'dirt', 'dirt', 'grass_block', 'air', 'air']);
    expect(bot.entity.position.y).toBe(-60);
  });

  test('the server world agrees', async () => {
    const feet = bot.entity.position.floored();
    expect((await server.serv.overworld.getBlock(feet.offset(0, -1, 0))).name).toBe('grass_block');
    expect((await server.serv.overworld.getBlock(feet.offset(0, -4, 0))).name).toBe('bedrock');
  });
});
