/**
 * Player state (src/server/features/hunger.ts, player-state.ts) end to end: hunger, eating,
 * regeneration, death drops and respawn, game modes, with real mineflayer bots.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { botCount, connectBot, countTicks, give, serverPlayer, serverTicks, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { hungerOf } from '../../src/server/services/food.ts';
import { configureMechanics } from '../../src/server/services/game-rules.ts';
import { itemById, itemByName } from '../../src/game/data.ts';

/** Ticks between two starvation hits (vanilla: 80, as for slow regeneration). */
const STARVATION_TICKS = 80;

describe('player state', () => {
  let server: EmbeddedServer;
  const bots: Bot[] = [];

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    configureMechanics(server.serv, { exhaustionMultiplier: 1 });
    for (const bot of bots.splice(0)) bot.quit();
    await waitUntil(() => server.serv.players.length === 0, 'bots to leave', 5_000);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function join(name: string): Promise<Bot> {
    const bot = await connectBot(server, name);
    bots.push(bot);
    return bot;
  }

  test('bot.consume() eats bread after 32 ticks: food +5, saturation +6, one bread used', async () => {
    const bot = await join('Eater');
    const player = serverPlayer(server, 'Eater');
    player.foodSaturation = 0;
    player.updateFood(10);
    await waitUntil(() => bot.food === 10 && bot.foodSaturation === 0, 'bot is hungry');
    await give(server, bot, 'bread', 3);
    await bot.equip(itemByName(bot.registry, 'bread').id, 'hand');
    // Counted in the server's ticks, not the wall clock's: a server that fell behind catches up
    // by running its late ticks at once (src/server/features/tick-loop.ts).
    const clock = countTicks(server);
    await bot.consume();
    clock.stop();
    expect(clock.ticks).toBeGreaterThanOrEqual(32 - 1);
    await waitUntil(() => bot.food === 15, 'food 15');
    expect(bot.foodSaturation).toBe(6);
    expect(player.food).toBe(15);
    await waitUntil(() => botCount(bot, 'bread') === 2, 'one bread eaten');
  });

  test('sprinting and jumping cause exhaustion (walking does not); food drains once saturation is gone', async () => {
    const bot = await join('Runner');
    const player = serverPlayer(server, 'Runner');
    const start = player.position.clone();
    bot.setControlState('forward', true);
    await waitUntil(() => player.position.distanceTo(start) > 3, 'the server sees the bot walk 3 blocks', { state: () => player.position });
    bot.setControlState('forward', false);
    expect(hungerOf(player).exhaustion).toBe(0); // walking costs nothing on Java Edition
    bot.setControlState('jump', true);
    await waitUntil(() => hungerOf(player).exhaustion > 0, 'jumping to cost exhaustion');
    bot.setControlState('jump', false);

    configureMechanics(server.serv, { exhaustionMultiplier: 50 });
    bot.setControlState('sprint', true);
    bot.setControlState('forward', true);
    await waitUntil(() => bot.food < 20, 'food drops after saturation', 10_000);
    bot.clearControlStates();
    configureMechanics(server.serv, { exhaustionMultiplier: 1 });
    expect(bot.foodSaturation).toBe(0);
    // The server can take one more point for the sprint ticks it had not yet run when the bot
    // read 19; what it sends is what the bot ends up with.
    await waitUntil(() => player.food === bot.food, 'the bot told its food', { timeoutMs: 2_000, state: () => [player.food, bot.food] });
    expect(player.food).toBeLessThan(20);
  });

  test('full food with saturation regenerates health; food 0 starves (easy: down to 10)', async () => {
    const bot = await join('Healer');
    const player = serverPlayer(server, 'Healer');
    player.foodSaturation = 5;
    player.food = 20;
    // Every health the bot is sent: a server catching up on late ticks can regenerate a point
    // before a poll of bot.health would see the 12.
    const seen: number[] = [];
    const onHealth = (): void => void seen.push(bot.health);
    bot.on('health', onHealth);
    player.updateHealth(12);
    await waitUntil(() => seen.includes(12), 'bot hurt');
    bot.off('health', onHealth);
    await waitUntil(() => bot.health >= 13, 'health regenerates', 3_000);
    expect(bot.foodSaturation).toBeLessThan(5);

    player.foodSaturation = 0;
    player.food = 0;
    player.updateHealth(11);
    await waitUntil(() => bot.health === 10, 'starvation hurts', 6_000);
    // A whole starvation interval later, the server has had its turn to hurt again, and did not.
    await serverTicks(server, STARVATION_TICKS + 2);
    expect(player.health).toBe(10); // easy difficulty stops at 10 HP
    expect(bot.health).toBe(10);
  });

  test('dying drops the whole inventory as item entities, then the bot respawns', async () => {
    const bot = await join('Mortal');
    await give(server, bot, 'dirt', 10);
    await give(server, bot, 'wooden_pickaxe', 1);
    const player = serverPlayer(server, 'Mortal');
    const where = player.position.clone();
    const died = new Promise<void>((resolve) => bot.once('death', () => resolve()));
    player.takeDamage({ damage: 20 });
    await died;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const items = Object.values(server.serv.entities as Record<string, any>).filter(
      (e) => e.itemId !== undefined && e.position.distanceTo(where) < 3,
    );
    const reg = server.serv.registry;
    expect(items.map((e) => `${itemById(reg, e.itemId).name}x${e.itemCount}`).sort()).toEqual(['dirtx10', 'wooden_pickaxex1']);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    expect(player.inventory.slots.filter((s: any) => s)).toHaveLength(0);
    await waitUntil(() => bot.health === 20, 'bot respawned');
    await waitUntil(() => botCount(bot, 'dirt') === 0 || botCount(bot, 'dirt') === 10, 'inventory consistent');
  });

  test('/gamemode creative|adventure|survival [player] is followed by bot.game.gameMode', async () => {
    const bot = await join('Mode');
    const other = await join('Other');
    bot.chat('/gamemode creative');
    await waitUntil(() => bot.game.gameMode === 'creative', 'creative');
    bot.chat(`/gamemode adventure ${other.username}`);
    await waitUntil(() => other.game.gameMode === 'adventure', 'other adventure');
    expect(bot.game.gameMode).toBe('creative');
    bot.chat('/gamemode spectator');
    await waitUntil(() => bot.game.gameMode === 'spectator', 'spectator');
    bot.chat('/gamemode survival');
    await waitUntil(() => bot.game.gameMode === 'survival', 'survival');
    expect(serverPlayer(server, 'Mode').gameMode).toBe(0);
  });
});
