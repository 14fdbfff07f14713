/**
 * Game commands with vanilla 1.21 syntax, feedback and packets, driven by real mineflayer
 * clients: /xp, /effect (with its effects), /team, /bossbar, /playsound, /particle.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, roundTrip, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { feedbackRecorder, type FeedbackMessage } from '../helpers/feedback.ts';

type Message = FeedbackMessage;

let server: EmbeddedServer;
let alice: Bot;
let bob: Bot;
const recorder = feedbackRecorder();

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

describe('/xp', () => {
  test('add and set points and levels; the client follows; query reports', async () => {
    expect((await feedback('/xp add Bob 10 points', 'commands.experience.add.points.success.single')).toString()).toBe(
      'Gave 10 experience points to Bob',
    );
    // 10 points: level 1 (7 points) and 3 of the 9 the next level needs.
    await waitUntil(() => bob.experience.level === 1, 'Bob at level 1');
    expect(bob.experience.points).toBe(10);
    expect(bob.experience.progress).toBeCloseTo(3 / 9, 5);
    await feedback('/xp add Bob 5 levels', 'commands.experience.add.levels.success.single');
    await waitUntil(() => bob.experience.level === 6, 'Bob at level 6');
    await feedback('/xp set Bob 2 levels', 'commands.experience.set.levels.success.single');
    await waitUntil(() => bob.experience.level === 2, 'Bob at level 2');
    expect((await feedback('/xp query Bob levels', 'commands.experience.query.levels')).toString()).toBe('Bob has 2 experience levels');
    await feedback('/xp set Bob 500 points', 'commands.experience.set.points.invalid');
    await feedback('/experience add @a 1 levels', 'commands.experience.add.levels.success.multiple');
  });
});

describe('/effect', () => {
  test('give speed: the client gets the effect; clear removes it', async () => {
    const speed = bob.registry.effectsByName.Speed!.id;
    expect((await feedback('/effect give Bob speed 30 1', 'commands.effect.give.success.single')).toString()).toBe(
      'Applied effect Speed to Bob',
    );
    await waitUntil(() => bob.entity.effects[speed]?.amplifier === 1, 'Bob has Speed II');
    await feedback('/effect clear Bob speed', 'commands.effect.clear.specific.success.single');
    await waitUntil(() => bob.entity.effects[speed] === undefined, 'Speed removed');
    await feedback('/effect clear Bob', 'commands.effect.clear.everything.failed');
    await feedback('/effect give Bob nosuch', 'effect.effectNotFound');
  });

  test('instant_health heals, poison hurts down to 1, regeneration heals, hunger drains food', async () => {
    const player = serverPlayer(server, 'Bob');
    player.food = 17; // no natural regeneration (food < 18) to blur the effects
    player.updateHealth(10);
    await waitUntil(() => bob.health === 10, 'Bob at 10');
    await feedback('/effect give Bob instant_health 1 0', 'commands.effect.give.success.single');
    await waitUntil(() => bob.health === 14, 'instant health +4');
    await feedback('/effect give Bob poison 60 4', 'commands.effect.give.success.single');
    await waitUntil(() => bob.health === 1, 'poisoned to 1 health', 15_000);
    await feedback('/effect clear Bob poison', 'commands.effect.clear.specific.success.single');
    await feedback('/effect give Bob regeneration 60 4', 'commands.effect.give.success.single');
    await waitUntil(() => bob.health === 20, 'regenerated', 15_000);
    expect(bob.food).toBe(17);
    const food = bob.food;
    await feedback('/effect give Bob hunger 60 255', 'commands.effect.give.success.single');
    await waitUntil(() => bob.food < food, 'hunger drains food', 15_000);
    await feedback('/effect clear Bob', 'commands.effect.clear.everything.success.single');
  });

  test('slowness reaches the client with its amplifier', async () => {
    const slowness = bob.registry.effectsByName.Slowness!.id;
    await feedback('/effect give @a slowness infinite 2 true', 'commands.effect.give.success.multiple');
    await waitUntil(() => bob.entity.effects[slowness]?.amplifier === 2, 'Bob slowed');
    await feedback('/effect clear @a slowness', 'commands.effect.clear.specific.success.multiple');
  });
});

describe('/team', () => {
  test('add, modify, join, list, leave and remove: clients get the teams packets', async () => {
    expect((await feedback('/team add reds {"text":"Red Team"}', 'commands.team.add.success')).toString()).toBe('Created team [Red Team]');
    await waitUntil(() => bob.teams.reds !== undefined, 'Bob knows the team');
    await feedback('/team add reds', 'commands.team.add.duplicate');
    await feedback('/team modify reds color red', 'commands.team.option.color.success');
    await feedback('/team join reds Bob', 'commands.team.join.success.single');
    await waitUntil(() => bob.teamMap.Bob?.team === 'reds', 'Bob in reds');
    expect((await feedback('/team list reds', 'commands.team.list.members.success')).toString()).toContain('Bob');
    await feedback('/team leave Bob', 'commands.team.leave.success.single');
    await waitUntil(() => bob.teamMap.Bob === undefined, 'Bob left reds');
    await feedback('/team remove reds', 'commands.team.remove.success');
    await waitUntil(() => bob.teams.reds === undefined, 'team removed');
    await feedback('/team remove reds', 'team.notFound');
  });
});

describe('/bossbar', () => {
  test('add, show to players, set value/max/color/name, get, remove', async () => {
    const created = new Promise<{ title: unknown; health: number }>((resolve) =>
      bob.once('bossBarCreated', (bar: { title: unknown; health: number }) => resolve(bar)),
    );
    await feedback('/bossbar add test:bar {"text":"Boss"}', 'commands.bossbar.create.success');
    await feedback('/bossbar set test:bar players @a', 'commands.bossbar.set.players.success.some');
    const bar = await created;
    expect(String(bar.title)).toContain('Boss');
    const updated = new Promise<{ health: number }>((resolve) =>
      bob.on('bossBarUpdated', (b: { health: number }) => {
        if (b.health === 0.5) resolve(b);
      }),
    );
    await feedback('/bossbar set test:bar value 50', 'commands.bossbar.set.value.success');
    await updated;
    await feedback('/bossbar set test:bar max 200', 'commands.bossbar.set.max.success');
    await feedback('/bossbar set test:bar color red', 'commands.bossbar.set.color.success');
    expect((await feedback('/bossbar get test:bar value', 'commands.bossbar.get.value')).toString()).toBe(
      'Custom bossbar [Boss] has a value of 50',
    );
    await feedback('/bossbar list', 'commands.bossbar.list.bars.some');
    const deleted = new Promise<void>((resolve) => bob.once('bossBarDeleted', () => resolve()));
    await feedback('/bossbar remove test:bar', 'commands.bossbar.remove.success');
    await deleted;
    await feedback('/bossbar get test:bar value', 'commands.bossbar.unknown');
  });
});

describe('/playsound and /particle', () => {
  test('/playsound <sound> <source> <targets> reaches the client as a sound_effect, by registry id', async () => {
    const packet = new Promise<{ sound: { soundId: number }; soundCategory: string; volume: number; pitch: number }>((resolve) =>
      bob._client.once('sound_effect', resolve),
    );
    expect(
      (
        await feedback(
          '/execute at Bob run playsound minecraft:entity.zombie.ambient hostile Bob ~ ~ ~ 0.5 1.5',
          'commands.playsound.success.single',
        )
      ).toString(),
    ).toBe('Played sound minecraft:entity.zombie.ambient to Bob');
    // minecraft-data numbers sounds from 1: the registry id is one less.
    expect(await packet).toMatchObject({
      sound: {
        soundId:
          (bob.registry as unknown as { soundsByName: Record<string, { id: number }> }).soundsByName['entity.zombie.ambient']!.id - 1,
      },
      soundCategory: 'hostile',
      volume: 0.5,
      pitch: 1.5,
    });
    await feedback('/playsound entity.zombie.ambient nosuchsource Bob', /Usage|command/);
    await feedback('/playsound entity.zombie.ambient hostile Bob 100000 0 0', 'commands.playsound.failed');
  });

  test('/particle sends world_particles with vanilla arguments', async () => {
    type Particles = { particle: { type: string }; amount: number };
    const seen: Record<'Alice' | 'Bob', Particles[]> = { Alice: [], Bob: [] };
    alice._client.on('world_particles', (p: Particles) => {
      seen.Alice.push(p);
    });
    bob._client.on('world_particles', (p: Particles) => {
      seen.Bob.push(p);
    });
    // At Bob: players spawn up to 42 blocks apart, beyond the 32 blocks a normal particle reaches;
    // what the server knows is printed if he sees none.
    await feedback('/execute at Bob run particle minecraft:flame ~ ~1 ~ 0.5 0.5 0.5 0.01 10', 'commands.particle.success');
    await waitUntil(() => seen.Bob.length > 0, 'Bob gets the particles', {
      state: () => ({
        received: { Alice: seen.Alice.length, Bob: seen.Bob.length },
        server: ['Alice', 'Bob'].map((name) => {
          const p = server.serv.players.find((q) => q.username === name);
          return p
            ? { name, position: p.position.toString(), disconnected: p.disconnected, world: p.world === server.serv.overworld }
            : { name, gone: true };
        }),
      }),
    });
    const packet = seen.Bob[0]!;
    expect(packet.particle.type).toBe('flame');
    expect(packet.amount).toBe(10);
    await feedback('/particle block stone ~ ~ ~', 'commands.particle.success');
    await feedback('/particle nosuch', 'particle.notFound');
    await roundTrip(bob);
  });
});
