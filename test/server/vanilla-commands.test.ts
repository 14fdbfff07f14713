/**
 * Commands with vanilla 1.21 syntax, feedback and packets, driven by real mineflayer clients:
 * /tellraw, /title, /say, /gamerule (and its effects), /weather, /time, /execute.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, roundTrip, serverPlayer, serverTicks, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { feedbackRecorder, type FeedbackMessage } from '../helpers/feedback.ts';
import { gameRule } from '../../src/server/services/game-rules.ts';
import { vanillaText } from '../helpers/version.ts';

type Message = FeedbackMessage;

let server: EmbeddedServer;
let alice: Bot;
let bob: Bot;
const recorder = feedbackRecorder();
const messages = recorder.messages;

beforeAll(async () => {
  server = await startTestServer();
  alice = await connectBot(server, 'Alice');
  bob = await connectBot(server, 'Bob');
  recorder.listen(alice);
});
afterAll(async () => {
  alice?.quit();
  bob?.quit();
  await server?.close();
});

/** Sends `command` as Alice and resolves with the first message after it whose key matches. */
const feedback = (command: string, key: string | RegExp): Promise<Message> => recorder.feedback(alice, command, key);

describe('text commands', () => {
  test('/tellraw sends a JSON component, selector parts resolved; bad JSON is argument.component.invalid', async () => {
    const got = new Promise<Message>((resolve) =>
      bob.on('message', (m) => {
        if (m.toString().startsWith('hi ')) resolve(m);
      }),
    );
    alice.chat('/tellraw @a[name=Bob] ["hi ",{"selector":"@s","color":"gold"},{"text":"!","bold":true}]');
    expect((await got).toString()).toBe('hi Alice!');
    await feedback('/tellraw Bob {not json', 'argument.component.invalid');
  });

  test('/title shows a title, subtitle and action bar with vanilla packets and feedback', async () => {
    const packets: string[] = [];
    for (const name of ['set_title_text', 'set_title_subtitle', 'action_bar', 'set_title_time', 'clear_titles']) {
      bob._client.on(name, () => {
        packets.push(name);
      });
    }
    const title = new Promise<string>((resolve) => bob.once('title', (text: unknown) => resolve(JSON.stringify(text))));
    expect((await feedback('/title Bob title {"text":"Welcome"}', 'commands.title.show.title.single')).toString()).toBe(
      'Showing new title for Bob',
    );
    expect(await title).toContain('Welcome');
    await feedback('/title Bob subtitle "sub"', 'commands.title.show.subtitle.single');
    await feedback('/title @a actionbar "bar"', 'commands.title.show.actionbar.multiple');
    await feedback('/title Bob times 5 40 5', 'commands.title.times.single');
    await feedback('/title Bob clear', 'commands.title.cleared.single');
    await roundTrip(bob);
    expect(packets).toEqual(['set_title_text', 'set_title_subtitle', 'action_bar', 'set_title_time', 'clear_titles']);
  });

  test('/say announces [name] message to everyone', async () => {
    const heard = new Promise<Message>((resolve) =>
      bob.on('message', (m) => {
        if (m.translate === 'chat.type.announcement') resolve(m);
      }),
    );
    alice.chat('/say hello all');
    expect((await heard).toString()).toBe('[Alice] hello all');
  });
});

describe('/gamerule', () => {
  test('queries and sets rules with vanilla feedback; errors for bad rules and values', async () => {
    expect((await feedback('/gamerule keepInventory', 'commands.gamerule.query')).toString()).toBe(
      'Gamerule keepInventory is currently set to: false',
    );
    expect((await feedback('/gamerule keepInventory true', 'commands.gamerule.set')).toString()).toBe(
      'Gamerule keepInventory is now set to: true',
    );
    expect(gameRule(server.serv, 'keepInventory')).toBe(true);
    await feedback('/gamerule keepInventory maybe', 'parsing.bool.invalid');
    await feedback('/gamerule noSuchRule true', 'command.unknown.argument');
    await feedback('/gamerule keepInventory false', 'commands.gamerule.set');
  });

  test('doDaylightCycle false stops the clock; sendCommandFeedback false silences success feedback only', async () => {
    await feedback('/gamerule doDaylightCycle false', 'commands.gamerule.set');
    await feedback('/time set 1000', 'commands.time.set');
    const time = Number(server.serv.time);
    await serverTicks(server, 30);
    expect(Number(server.serv.time)).toBe(time);
    await feedback('/gamerule doDaylightCycle true', 'commands.gamerule.set');
    await waitUntil(() => Number(server.serv.time) > time, 'the clock runs again');

    const from = messages.length;
    alice.chat('/gamerule sendCommandFeedback false'); // its own feedback is already silenced
    alice.chat('/time set 2000');
    await feedback('/nosuch', 'command.unknown.command'); // errors still arrive
    expect(messages.slice(from).some((m) => m.translate === 'commands.time.set')).toBe(false);
    await server.serv.handleCommand('gamerule sendCommandFeedback true');
    await waitUntil(() => gameRule(server.serv, 'sendCommandFeedback'), 'feedback back on');
  });

  test('keepInventory true keeps the inventory through death', async () => {
    await feedback('/gamerule keepInventory true', 'commands.gamerule.set');
    await feedback('/give Alice stone 3', /commands.give.success/);
    await waitUntil(() => alice.inventory.count(alice.registry.itemsByName.stone!.id, null) === 3, 'Alice has stone');
    const died = new Promise<void>((resolve) => alice.once('death', () => resolve()));
    serverPlayer(server, 'Alice').takeDamage({ damage: 40 });
    await died; // mineflayer respawns by itself
    await waitUntil(() => alice.health === 20, 'Alice respawned');
    expect(serverPlayer(server, 'Alice').inventory.slots.filter(Boolean).length).toBe(1);
    await feedback('/gamerule keepInventory false', 'commands.gamerule.set');
    await feedback('/clear Alice', /commands.clear.success/);
  });
});

describe('/weather and /time', () => {
  test('/weather rain starts rain and /weather clear stops it (mineflayer isRaining)', async () => {
    const rain = new Promise<void>((resolve) => bob.once('rain', () => resolve()));
    expect((await feedback('/weather rain', 'commands.weather.set.rain')).toString()).toBe('Set the weather to rain');
    await rain;
    expect(bob.isRaining).toBe(true);
    const clear = new Promise<void>((resolve) => bob.once('rain', () => resolve()));
    await feedback('/weather clear 600', 'commands.weather.set.clear');
    await clear;
    expect(bob.isRaining).toBe(false);
    await feedback('/weather thunder', 'commands.weather.set.thunder');
    await waitUntil(() => bob.thunderState === 1, 'thunder');
    await feedback('/weather clear', 'commands.weather.set.clear');
  });

  test('/time set names and /time query', async () => {
    expect((await feedback('/time set noon', 'commands.time.set')).toString()).toBe('Set the time to 6000');
    await waitUntil(() => bob.time.timeOfDay >= 6000 && bob.time.timeOfDay < 6100, 'Bob sees noon');
    expect((await feedback('/time query day', 'commands.time.query')).toString()).toMatch(/^The time is \d+$/);
  });

  test('a time set on the tick the clock advances holds (a night skipped by sleeping is not undone)', async () => {
    await feedback('/time set 14000', 'commands.time.set');
    // Set on a tick where the day cycle steps (every 20th), after its listener: as the bed feature
    // skips the night.
    const serv = server.serv as unknown as NodeJS.EventEmitter;
    const setOnStep = new Promise<void>((resolve) => {
      const onTick = (_delta: number, count: number) => {
        if (count % 20 !== 0) return;
        serv.off('tick', onTick);
        server.serv.setTime(1000);
        resolve();
      };
      serv.on('tick', onTick);
    });
    await setOnStep;
    await serverTicks(server, 3);
    expect(Number(server.serv.time)).toBeGreaterThanOrEqual(1000);
    expect(Number(server.serv.time)).toBeLessThan(1100);
    await waitUntil(() => bob.time.timeOfDay >= 1000 && bob.time.timeOfDay < 1100, 'Bob sees the morning');
  });
});

describe('/execute', () => {
  test('as/at/positioned/in … run, with selectors resolved for the executor', async () => {
    const feet = bob.entity.position.floored();
    await feedback('/execute as Bob at @s run setblock ~ ~-1 ~ gold_block', 'commands.setblock.success');
    await waitUntil(() => bob.blockAt(feet.offset(0, -1, 0))?.name === 'gold_block', 'gold block under Bob');
    await feedback(
      `/execute positioned ${feet.x + 2} ${feet.y} ${feet.z} in minecraft:overworld run setblock ~ ~ ~ stone`,
      'commands.setblock.success',
    );
    await waitUntil(() => bob.blockAt(feet.offset(2, 0, 0))?.name === 'stone', 'stone beside Bob');
    const told = new Promise<Message>((resolve) =>
      bob.on('message', (m) => {
        if (m.toString() === 'from Bob') resolve(m);
      }),
    );
    alice.chat('/execute as @a[name=Bob] run tellraw @s {"text":"from ","extra":[{"selector":"@s"}]}');
    await told;
  });

  test('if/unless conditions report like vanilla', async () => {
    expect((await feedback('/execute if entity @a', 'commands.execute.conditional.pass_count')).toString()).toBe(
      vanillaText('commands.execute.conditional.pass_count', 2),
    );
    await feedback('/execute if entity @e[type=cow]', 'commands.execute.conditional.fail');
    await feedback('/execute unless entity @e[type=cow]', 'commands.execute.conditional.pass');
    const feet = bob.entity.position.floored();
    await feedback(`/execute if block ${feet.x} ${feet.y - 1} ${feet.z} gold_block`, 'commands.execute.conditional.pass');
  });

  test("forks stop at the game rule maxCommandForkCount with vanilla's command.forkLimit, before anything runs", async () => {
    const told: string[] = [];
    bob.on('message', (m) => {
      if (m.toString().startsWith('fork ')) told.push(m.toString());
    });
    // Two players: seventeen `as @a` would make 2^17 = 131,072 contexts, past the default 65,536.
    const chain = Array(17).fill('as @a').join(' ');
    expect((await feedback(`/execute ${chain} run tellraw Bob "fork 1"`, 'command.forkLimit')).toString()).toBe(
      'Maximum number of contexts (65536) reached',
    );
    await feedback('/gamerule maxCommandForkCount 3', 'commands.gamerule.set');
    expect(gameRule(server.serv, 'maxCommandForkCount')).toBe(3);
    expect((await feedback('/execute as @a at @a run tellraw Bob "fork 2"', 'command.forkLimit')).toString()).toBe(
      'Maximum number of contexts (3) reached',
    );
    // Within the limit it runs, once per context.
    alice.chat('/execute as @a run tellraw Bob "fork 3"');
    await roundTrip(alice);
    await roundTrip(bob);
    expect(told).toEqual(['fork 3', 'fork 3']);
    await feedback('/gamerule maxCommandForkCount 65536', 'commands.gamerule.set');
  });
});

describe('player commands', () => {
  test('/gamemode, /difficulty and /list answer as vanilla', async () => {
    expect((await feedback('/gamemode creative', 'commands.gamemode.success.self')).toString()).toBe('Set own game mode to Creative Mode');
    await waitUntil(() => alice.game.gameMode === 'creative', 'Alice in creative');
    const told = new Promise<Message>((resolve) =>
      bob.on('message', (m) => {
        if (m.translate === 'gameMode.changed') resolve(m);
      }),
    );
    expect((await feedback('/gamemode adventure Bob', 'commands.gamemode.success.other')).toString()).toBe(
      "Set Bob's game mode to Adventure Mode",
    );
    expect((await told).toString()).toBe('Your game mode has been updated to Adventure Mode');
    await feedback('/gamemode survival @a', 'commands.gamemode.success.self');
    await feedback('/gamemode 1', /Usage/);
    expect((await feedback('/difficulty', 'commands.difficulty.query')).toString()).toBe('The difficulty is Easy');
    const packet = new Promise<{ difficulty: unknown }>((resolve) => bob._client.once('difficulty', resolve));
    expect((await feedback('/difficulty hard', 'commands.difficulty.success')).toString()).toBe('The difficulty has been set to Hard');
    expect((await packet).difficulty).toBe('hard'); // the protocol's name (mineflayer 4.39 expects an index here)
    await feedback('/difficulty hard', 'commands.difficulty.failure');
    await feedback('/difficulty easy', 'commands.difficulty.success');
    expect((await feedback('/list', 'commands.list.players')).toString()).toMatch(
      /^There are 2 of a max of \d+ players online: (Alice, Bob|Bob, Alice)$/,
    );
  });
});

describe('spawn, seed and damage commands', () => {
  test('/spawnpoint, /setworldspawn, /seed and /damage answer as vanilla', async () => {
    const feet = bob.entity.position.floored();
    expect((await feedback(`/spawnpoint Bob ${feet.x} ${feet.y} ${feet.z}`, 'commands.spawnpoint.success.single')).toString()).toBe(
      `Set spawn point to ${feet.x}, ${feet.y}, ${feet.z} [0] in minecraft:overworld for Bob`,
    );
    expect(serverPlayer(server, 'Bob').spawnPoint.floored()).toEqual(feet);
    // 1.21.9+ sends the position with its dimension (`globalPos`).
    type SpawnPacket = { location?: { x: number }; globalPos?: { dimensionName: string; location: { x: number } } };
    const spawnPacket = new Promise<SpawnPacket>((resolve) => bob._client.once('spawn_position', resolve));
    expect((await feedback(`/setworldspawn ${feet.x} ${feet.y} ${feet.z}`, 'commands.setworldspawn.success')).toString()).toBe(
      `Set the world spawn point to ${feet.x}, ${feet.y}, ${feet.z} [0]`,
    );
    const packet = await spawnPacket;
    expect((packet.globalPos?.location ?? packet.location)?.x).toBe(feet.x);
    if (packet.globalPos) expect(packet.globalPos.dimensionName).toBe('minecraft:overworld');
    expect((await feedback('/seed', 'commands.seed.success')).toString()).toMatch(/^Seed: \[-?\d+\]$/);
    expect((await feedback('/damage Bob 3 minecraft:magic', 'commands.damage.success')).toString()).toBe('Applied 3 damage to Bob');
    await waitUntil(() => bob.health === 17, 'Bob took 3');
    await feedback('/damage Bob 3 minecraft:nosuch', 'argument.resource.not_found');
    serverPlayer(server, 'Bob').updateHealth(20);
  });
});
