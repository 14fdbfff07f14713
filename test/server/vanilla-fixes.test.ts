/**
 * Behaviours a vanilla 1.21 server gets right and flying-squid got wrong, seen by real mineflayer
 * clients: 1.13+ tab completion, the chest lid block action, the sign editor on placement, the
 * look kept through a server-side position resync, /setblock and /fill clearing a replaced
 * container, time updates every 20 ticks (also while the clock stands), note blocks' block events
 * and sounds, and the signs of a saved world arriving with their chunks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, place, roundTrip, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { blockEntities } from '../../src/server/services/block-entities.ts';
import { setSignText } from '../../src/server/features/signs.ts';

let server: EmbeddedServer;
let bot: Bot;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'vanilla-fixes-'));
  server = await startTestServer({ worldFolder: folder });
  bot = await connectBot(server, 'Fixer');
});
afterAll(async () => {
  bot?.quit();
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

/** The ground block under the bot, `dx` and `dz` blocks away. */
function ground(dx: number, dz: number): Vec3 {
  return bot.entity.position.floored().offset(dx, -1, dz);
}

describe('vanilla fixes', () => {
  test('tab completion answers in the 1.13+ shape: commands, their fixed words, targets', async () => {
    const commands = (await bot.tabComplete('/gamer')) as unknown as Array<{ match: string }>;
    expect(commands.map((m) => m.match)).toEqual(['gamerule']);
    const names = (await bot.tabComplete('/tp Fi')) as unknown as Array<{ match: string }>;
    expect(names.map((m) => m.match)).toEqual(['Fixer']);
    const disabled = (await bot.tabComplete('/enchan')) as unknown as Array<{ match: string }>;
    expect(disabled).toEqual([]);
    // An argument of fixed words completes to them (mineflayer's own test asks /weather), sorted.
    expect(await bot.tabComplete('/weather ')).toEqual([
      { match: 'clear', tooltip: undefined },
      { match: 'rain', tooltip: undefined },
      { match: 'thunder', tooltip: undefined },
    ]);
    const setTimes = (await bot.tabComplete('/time set n')) as unknown as Array<{ match: string }>;
    expect(setTimes.map((m) => m.match)).toEqual(['night', 'noon']);
    // Targets: the selectors and the player names when nothing is typed yet; no suggestion for a message.
    const targets = (await bot.tabComplete('/give ')) as unknown as Array<{ match: string }>;
    expect(targets.map((m) => m.match)).toEqual(['@a', '@e', '@p', '@r', '@s', 'Fixer']);
    expect(await bot.tabComplete('/say hel')).toEqual([]);
  });

  test('opening and closing a chest moves its lid (block action 1 with the viewer count)', async () => {
    const chest = await place(server, bot, 'chest', ground(2, 0));
    const lid: number[] = [];
    bot.on('chestLidMove', (_block: unknown, isOpen: number) => {
      lid.push(isOpen);
    });
    const window = await bot.openContainer(chest);
    await waitUntil(() => lid.includes(1), 'the lid opens');
    await window.close();
    await waitUntil(() => lid.includes(0), 'the lid closes');
    expect(lid).toEqual([1, 0]);
  });

  test('/setblock replacing a chest clears its contents; /fill destroy drops them', async () => {
    const at = ground(3, 2).offset(0, 1, 0);
    bot.chat(`/setblock ${at.x} ${at.y} ${at.z} chest`);
    await waitUntil(() => bot.blockAt(at)?.name === 'chest', 'chest set');
    bot.chat(`/item replace block ${at.x} ${at.y} ${at.z} container.0 with diamond 5`);
    await waitUntil(() => blockEntities(server.serv).get(server.serv.overworld, at)?.slots[0]?.count === 5, 'diamonds in the chest');
    bot.chat(`/setblock ${at.x} ${at.y} ${at.z} barrel`);
    await waitUntil(() => bot.blockAt(at)?.name === 'barrel', 'barrel set');
    bot.chat(`/setblock ${at.x} ${at.y} ${at.z} chest`);
    await waitUntil(() => bot.blockAt(at)?.name === 'chest', 'chest set again');
    await roundTrip(bot);
    const entity = blockEntities(server.serv).get(server.serv.overworld, at);
    expect((entity?.slots ?? []).filter(Boolean)).toEqual([]);

    bot.chat(`/item replace block ${at.x} ${at.y} ${at.z} container.0 with diamond 5`);
    await waitUntil(() => blockEntities(server.serv).get(server.serv.overworld, at)?.slots[0]?.count === 5, 'diamonds in the chest');
    bot.chat(`/fill ${at.x} ${at.y} ${at.z} ${at.x} ${at.y} ${at.z} air destroy`);
    await waitUntil(
      () =>
        Object.values(bot.entities).some(
          (e) => e.name === 'item' && e.position.distanceTo(at) < 2 && e.getDroppedItem?.()?.name === 'diamond',
        ),
      'the diamonds drop',
    );
  });

  test('placing a sign opens its editor on the placer, after the sign is there', async () => {
    const opened = new Promise<{ location: { x: number; y: number; z: number } }>((resolve) =>
      bot._client.once('open_sign_entity', (p: { location: { x: number; y: number; z: number } }) => resolve(p)),
    );
    const sign = await place(server, bot, 'birch_sign', ground(-2, 0));
    const packet = await opened;
    expect(packet.location).toEqual({ x: sign.position.x, y: sign.position.y, z: sign.position.z });
    bot.updateSign(sign, 'Hello\nworld');
    await waitUntil(
      () => blockEntities(server.serv).get(server.serv.overworld, sign.position)?.text?.front?.[0] === 'Hello',
      'the text is stored',
    );
  });

  test('a resync of the position after /gamemode keeps the look in degrees', async () => {
    await bot.look(-Math.PI / 2 + 0.01, 0.2, true); // an angle the old byte-angle resync turned
    await roundTrip(bot);
    const yaw = bot.entity.yaw;
    const player = serverPlayer(server, 'Fixer');
    const resynced = new Promise<void>((resolve) => bot._client.once('position', () => resolve()));
    bot.chat('/gamemode creative');
    player.sendSelfPosition();
    await resynced;
    await roundTrip(bot);
    expect(Math.cos(bot.entity.yaw)).toBeCloseTo(Math.cos(yaw), 3);
    expect(Math.sin(bot.entity.yaw)).toBeCloseTo(Math.sin(yaw), 3);
    expect(bot.entity.pitch).toBeCloseTo(0.2, 2);
    bot.chat('/gamemode survival');
    await waitUntil(() => bot.game.gameMode === 'survival', 'back to survival');
  });

  test('time updates come every 20 ticks with the game time, also while the clock stands', async () => {
    /** The next time update the bot gets: its game time, time of day and whether the clock runs. */
    const nextTime = () =>
      new Promise<{ age: number; timeOfDay: number; running: boolean | null }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no time update within 5 s (vanilla sends one a second)')), 5_000);
        bot.once('time', () => {
          clearTimeout(timer);
          resolve({ age: bot.time.age, timeOfDay: bot.time.timeOfDay, running: bot.time.doDaylightCycle });
        });
      });
    const first = await nextTime();
    const second = await nextTime();
    expect(second.age - first.age).toBe(20);
    expect(second.running).toBe(true);
    bot.chat('/gamerule doDaylightCycle false');
    await waitUntil(() => bot.time.doDaylightCycle === false, 'the bot sees the clock stopped');
    const stopped = await nextTime();
    const later = await nextTime();
    expect(later.age - stopped.age).toBe(20);
    expect(later.timeOfDay).toBe(stopped.timeOfDay);
    expect(later.running).toBe(false);
    bot.chat('/gamerule doDaylightCycle true');
    await waitUntil(() => bot.time.doDaylightCycle === true, 'the bot sees the clock running again');
  });

  test('a used note block is tuned up a semitone and plays: the block event and its sound; digging plays it untuned', async () => {
    const at = ground(-3, 3);
    const block = await place(server, bot, 'note_block', at);
    const notes: Array<{ instrument: string; pitch: number }> = [];
    // The raw packets: mineflayer names a sound by minecraft-data's id, one above the registry id the wire carries.
    const sounds: Array<{ soundId: number; soundCategory: string; volume: number; pitch: number }> = [];
    const onSound = (packet: { sound: { soundId: number }; soundCategory: string; volume: number; pitch: number }) => {
      sounds.push({ soundId: packet.sound.soundId, soundCategory: packet.soundCategory, volume: packet.volume, pitch: packet.pitch });
    };
    bot._client.on('sound_effect', onSound);
    bot.on('noteHeard', (_block, instrument: { name: string }, pitch: number) => {
      notes.push({ instrument: instrument.name, pitch });
    });
    await bot.activateBlock(block);
    const harp =
      (bot.registry as unknown as { soundsByName: Record<string, { id: number }> }).soundsByName['block.note_block.harp']!.id - 1;
    await waitUntil(() => notes.length === 1 && sounds.some((s) => s.soundId === harp), 'the bot hears the note');
    expect(Number(bot.blockAt(block.position)?.getProperties().note)).toBe(1);
    expect(notes[0]).toEqual({ instrument: 'harp', pitch: 1 });
    const sound = sounds.find((s) => s.soundId === harp)!;
    expect(sound.soundCategory).toBe('record');
    expect(sound.volume).toBe(3);
    expect(sound.pitch).toBeCloseTo(Math.pow(2, (1 - 12) / 12), 5);
    // A block on top mutes it.
    bot.chat(`/setblock ${at.x} ${at.y + 2} ${at.z} stone`);
    await waitUntil(() => bot.blockAt(at.offset(0, 2, 0))?.name === 'stone', 'the stone is on top');
    await bot.activateBlock(block);
    await waitUntil(() => Number(bot.blockAt(block.position)?.getProperties().note) === 2, 'the note is tuned up');
    await roundTrip(bot);
    expect(notes).toHaveLength(1);
    bot.chat(`/setblock ${at.x} ${at.y + 2} ${at.z} air`);
    await waitUntil(() => bot.blockAt(at.offset(0, 2, 0))?.name === 'air', 'the stone is gone');
    bot._client.write('block_dig', { status: 0, location: block.position, face: 1, sequence: 0 });
    bot._client.write('block_dig', { status: 1, location: block.position, face: 1, sequence: 0 });
    await waitUntil(() => notes.length === 2, 'the bot hears the note of the dig');
    expect(notes[1]).toEqual({ instrument: 'harp', pitch: 2 });
    expect(Number(bot.blockAt(block.position)?.getProperties().note)).toBe(2);
    bot.removeAllListeners('noteHeard');
    bot._client.off('sound_effect', onSound);
  });

  test('the signs of a saved world reach a joining client with their chunks', async () => {
    const at = ground(4, -3).offset(0, 1, 0);
    bot.chat(`/setblock ${at.x} ${at.y} ${at.z} oak_sign`);
    await waitUntil(() => bot.blockAt(at)?.name === 'oak_sign', 'sign set');
    expect(await setSignText(server.serv, server.serv.overworld, at, ['saved', 'sign'])).toBe(true);
    bot.quit();
    await server.close();
    server = await startTestServer({ worldFolder: folder });
    bot = await connectBot(server, 'Fixer');
    // The text came right after its chunk (connectBot waited for the chunks); a round trip makes
    // sure nothing sent later is needed.
    await roundTrip(bot);
    expect(String(bot.blockAt(at)?.signText ?? '')).toContain('saved');
  });
});
