/**
 * `"minecraft_version": "auto"` and version checks before joining: the server is asked its version
 * by a status ping (embedded servers of every version we serve, and bare minecraft-protocol servers
 * standing in for other versions and for modded servers' names); a mismatch or an unplayable
 * version is one sentence naming both versions and the setting to change.
 */
import { createRequire } from 'node:module';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_MINECRAFT_VERSION, SERVER_VERSIONS } from '../../src/game/versions.ts';
import {
  botVersions,
  requireBotVersion,
  resolveServer,
  ServerUnreachableError,
  ServerVersionError,
} from '../../src/client/server-version.ts';
import { connectBot } from '../../src/agent/bot.ts';
import { startTestServer } from '../helpers/world.ts';

const require = createRequire(import.meta.url);
const mc = require('minecraft-protocol') as {
  createServer(options: object): {
    on(event: 'listening', listener: () => void): void;
    socketServer: { address(): { port: number } };
    close(): void;
  };
};
const { latestSupportedVersion } = require('mineflayer') as { latestSupportedVersion: string };

const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** A server that only answers status pings, as a server of `version` named `name` would. */
async function statusServer(version: string, name?: string): Promise<number> {
  const server = mc.createServer({
    host: '127.0.0.1',
    port: 0,
    'online-mode': false,
    version,
    ...(name ? { beforePing: (response: { version: { name: string } }) => ({ ...response, version: { ...response.version, name } }) } : {}),
  });
  closers.push(() => server.close());
  await new Promise<void>((resolve) => server.on('listening', resolve));
  return server.socketServer.address().port;
}

const external = (port: number, minecraft_version = 'auto') => ({
  server: 'external' as const,
  minecraft_version,
  host: '127.0.0.1',
  port,
});

describe('"auto" asks the server', () => {
  test.each(SERVER_VERSIONS)('an embedded %s server: its version, and a bot joins with it', async (version) => {
    const server = await startTestServer({ version });
    closers.push(() => server.close());
    const target = await resolveServer(external(server.port));
    expect(target).toMatchObject({ version, host: '127.0.0.1', port: server.port, how: 'asked the server' });
    const bot = await connectBot('Auto', { host: target.host, port: target.port, version: target.version, auth: 'offline' });
    try {
      expect(bot.version).toBe(version);
      expect(bot.entity.position.y).toBe(-60);
    } finally {
      bot.quit();
    }
  });

  test('versions the embedded server does not serve: the one reported, or the release of its protocol that a modded server names', async () => {
    expect((await resolveServer(external(await statusServer('1.21.8')))).version).toBe('1.21.8');
    // 1.21.7 and 1.21.8 share protocol 772, 1.21.9 and 1.21.10 protocol 773: the name decides.
    expect((await resolveServer(external(await statusServer('1.21.8', 'Paper 1.21.7')))).version).toBe('1.21.7');
    expect((await resolveServer(external(await statusServer('1.21.9', '1.21.10')))).version).toBe('1.21.10');
    // A name that is no version (a proxy's): the newest release of the protocol.
    expect((await resolveServer(external(await statusServer('1.21.9', 'Velocity 3.4.0')))).version).toBe('1.21.10');
  });

  test('a server older than 1.21.1 is refused with both versions and what to do', async () => {
    const port = await statusServer('1.20.4');
    const refused = resolveServer(external(port));
    await expect(refused).rejects.toThrow(ServerVersionError);
    await expect(refused).rejects.toThrow(
      `The server at 127.0.0.1:${port} runs Minecraft 1.20.4 (protocol 765); the bots play 1.21.1 to ${latestSupportedVersion}. Update the server to 1.21.1 or newer.`,
    );
  });

  test('a server that does not answer is asked again under the reconnect policy, then refused saying why', async () => {
    const server = await startTestServer();
    const port = server.port;
    await server.close();
    const lines: string[] = [];
    const failed = resolveServer(external(port), { attempts: 2, delayMs: 20, maxDelayMs: 30, log: (line) => lines.push(line) });
    await expect(failed).rejects.toThrow(ServerUnreachableError);
    await expect(failed).rejects.toThrow(
      `Nothing accepts connections at 127.0.0.1:${port}: start the server (or open the world to LAN), or set "host" and "port" in settings.json. Gave up after 3 attempts; "minecraft_version": "auto" needs the server's answer.`,
    );
    expect(lines).toEqual([
      expect.stringMatching(/Asking again in 20 ms \(retry 1 of 2\)\.$/),
      expect.stringMatching(/Asking again in 30 ms \(retry 2 of 2\)\.$/),
    ]);
  });
});

describe('a version named in the settings', () => {
  test('is checked with the server: a mismatch names both versions and the setting, in one line', async () => {
    const server = await startTestServer({ version: '1.21.11' });
    closers.push(() => server.close());
    expect((await resolveServer(external(server.port, '1.21.11'))).version).toBe('1.21.11');
    const mismatch = await resolveServer(external(server.port, '1.21.4')).catch((err: unknown) => err as Error);
    expect(mismatch).toBeInstanceOf(ServerVersionError);
    expect((mismatch as Error).message).toBe(
      `The server at 127.0.0.1:${server.port} runs Minecraft 1.21.11, but settings.json says "minecraft_version": "1.21.4". Set "minecraft_version" to "1.21.11" (or "auto" to ask the server each time).`,
    );
  });

  test('a server that does not answer leaves the named version to the bots own joins', async () => {
    const server = await startTestServer();
    const port = server.port;
    await server.close();
    expect(await resolveServer(external(port, '1.21.4'))).toMatchObject({
      version: '1.21.4',
      how: expect.stringMatching(/did not answer/),
    });
  });

  test('must be one the bots play: 1.21.1 to the newest mineflayer plays', () => {
    expect(botVersions()[0]).toBe('1.21.1');
    expect(botVersions()).toEqual(expect.arrayContaining(['1.21.4', '1.21.5', '1.21.8', '1.21.10', '1.21.11', latestSupportedVersion]));
    expect(botVersions()).not.toContain('1.20.4');
    for (const version of botVersions()) expect(() => requireBotVersion(version)).not.toThrow();
    expect(() => requireBotVersion('1.20.4')).toThrow(
      /^"minecraft_version": "1\.20\.4" is older than the bots play: the bots play Minecraft 1\.21\.1 to .*\. Set "minecraft_version" to one of 1\.21\.1, .*, or "auto" to ask the server\.$/,
    );
    expect(() => requireBotVersion('1.21.99')).toThrow(/"1\.21\.99" is not a Minecraft release minecraft-data knows/);
  });

  test('the embedded server takes "auto" as its default and refuses a LAN port', async () => {
    const embedded = { server: 'embedded' as const, minecraft_version: 'auto', host: '127.0.0.1', port: 55916 };
    expect(await resolveServer(embedded)).toMatchObject({ version: DEFAULT_MINECRAFT_VERSION, how: 'the default' });
    await expect(resolveServer({ ...embedded, port: -1 })).rejects.toThrow(/"port": -1 finds a LAN world, with "server": "external"/);
  });
});
