/**
 * `/ban`, `/pardon`, `/banlist` and `/kick` on the embedded server (src/server/features/moderation.ts),
 * driven by a real client acting as an operator (Steve) and bots joining as our agents' bots do
 * (src/agent/bot.ts `connectBot`): a ban holds in offline mode, at every login and in any case of
 * the name, with vanilla's texts; the bot side reads a ban as final, and an empty kick reason as
 * vanilla's "Kicked by an operator".
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { ConnectError, connectBot as joinAsBot, finalRefusal, kickText, type ServerAddress } from '../../src/agent/bot.ts';
import { bansOf } from '../../src/server/features/moderation.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { feedbackRecorder } from '../helpers/feedback.ts';
import { connectBot, startTestServer, waitUntil } from '../helpers/world.ts';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const mc: any = require('minecraft-protocol');

let server: EmbeddedServer;
let steve: Bot;
let address: ServerAddress;
const recorder = feedbackRecorder();

beforeAll(async () => {
  server = await startTestServer();
  address = { host: server.host, port: server.port, version: server.version, auth: 'offline' };
  steve = await connectBot(server, 'Steve');
  recorder.listen(steve);
});
afterAll(async () => {
  steve?.quit();
  await server?.close();
});

/** Joins `name` as an agent's bot does and resolves with how its connection ends, once it does. */
async function joinAndWatch(
  name: string,
): Promise<{ bot: Bot; kicked: Promise<{ text: string; refusal: string | undefined; raw: unknown }> }> {
  const bot = await joinAsBot(name, address);
  const kicked = new Promise<{ text: string; refusal: string | undefined; raw: unknown }>((resolve) =>
    bot.once('kicked', (raw) => resolve({ text: kickText(bot, raw), refusal: finalRefusal(bot, raw), raw })),
  );
  return { bot, kicked };
}

describe('bans in offline mode', () => {
  test('/ban of a player online: it is disconnected with vanilla\'s "banned", and every later login is refused with the reason', async () => {
    const { kicked } = await joinAndWatch('Andy');
    const success = await recorder.feedback(steve, '/ban Andy Too much chatter', 'commands.ban.success');
    expect(success.toString()).toBe('Banned Andy: Too much chatter');
    expect(await kicked).toMatchObject({ text: 'You are banned from this server', refusal: 'banned' });
    await waitUntil(() => !server.serv.players.some((p) => p.username === 'Andy'), 'Andy leaves the player list');

    // The login is refused, before the player exists: a bot reads it as final (no retry makes sense).
    const rejoin = joinAsBot('Andy', address, 10_000);
    await expect(rejoin).rejects.toThrow(ConnectError);
    const error = (await rejoin.catch((e: unknown) => e)) as ConnectError;
    expect(error.failure).toBe('refused');
    expect(error.message).toBe(
      `Andy could not join ${server.host}:${server.port}: banned: You are banned from this server. Reason: Too much chatter`,
    );
    // A raw client reads vanilla's login disconnect itself.
    const raw = mc.createClient({ host: server.host, port: server.port, username: 'Andy', version: server.version, auth: 'offline' });
    raw.on('error', () => {});
    const reason = await new Promise<string>((resolve) => raw.once('disconnect', (packet: { reason: string }) => resolve(packet.reason)));
    expect(JSON.parse(reason)).toEqual({ translate: 'multiplayer.disconnect.banned.reason', with: ['Too much chatter'] });
    expect(server.serv.players.map((p) => p.username)).toEqual(['Steve']);
  });

  test('/ban of a name not online, in another case, holds at its login; a second /ban fails; /banlist lists; /pardon lets it in again', async () => {
    expect((await recorder.feedback(steve, '/ban jill', 'commands.ban.success')).toString()).toBe('Banned jill: Banned by an operator.');
    await expect(joinAsBot('Jill', address, 10_000)).rejects.toThrow(
      /banned: You are banned from this server\. Reason: Banned by an operator\./,
    );
    expect((await recorder.feedback(steve, '/ban Jill', 'commands.ban.failed')).toString()).toBe(
      'Nothing changed. The player is already banned',
    );
    await recorder.feedback(steve, '/banlist', 'commands.banlist.list');
    const isEntry = (m: { translate?: string; toString(): string }) =>
      m.translate === 'commands.banlist.entry' && m.toString().startsWith('jill');
    await waitUntil(() => recorder.messages.some(isEntry), 'the ban list entry of jill');
    const entry = recorder.messages.find(isEntry)!;
    expect(entry.toString()).toBe('jill was banned by Steve: Banned by an operator.');
    expect((await recorder.feedback(steve, '/pardon Jill', 'commands.pardon.success')).toString()).toBe('Unbanned jill');
    expect((await recorder.feedback(steve, '/pardon Jill', 'commands.pardon.failed')).toString()).toBe(
      "Nothing changed. The player isn't banned",
    );
    const jill = await joinAsBot('Jill', address);
    jill.quit();
    await recorder.feedback(steve, '/pardon Andy', 'commands.pardon.success');
    expect(bansOf(server.serv).size).toBe(0);
  });
});

describe('/kick', () => {
  test('without a reason a bot reads vanilla\'s "Kicked by an operator"; with one, the reason; neither is final', async () => {
    const plain = await joinAndWatch('Kim');
    expect((await recorder.feedback(steve, '/kick Kim', 'commands.kick.success')).toString()).toBe('Kicked Kim: Kicked by an operator');
    const kickedPlain = await plain.kicked;
    expect(kickedPlain).toMatchObject({ text: 'Kicked by an operator', refusal: undefined });

    const reasoned = await joinAndWatch('Kim');
    await recorder.feedback(steve, '/kick Kim go to bed', 'commands.kick.success');
    expect(await reasoned.kicked).toMatchObject({ text: 'go to bed', refusal: undefined });
  });

  test("an empty reason from any server reads as vanilla's, never as the raw component", async () => {
    const kim = await joinAsBot('Kim', address);
    const kicked = new Promise<string>((resolve) => kim.once('kicked', (raw) => resolve(kickText(kim, raw))));
    // flying-squid's own kick with an empty text, as a server without our plugin sends it.
    server.serv.players.find((p) => p.username === 'Kim')!._client.end('');
    expect(await kicked).toBe('Kicked by an operator');
  });
});
