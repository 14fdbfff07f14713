/**
 * Finding a LAN world by the game's announcements (`[MOTD]…[/MOTD][AD]port[/AD]` over UDP), sent
 * here on loopback the way the game repeats them, for an embedded server the bots then join with
 * `"port": -1` and `"minecraft_version": "auto"`.
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, test } from 'vitest';
import { findLanWorld, LAN_GROUP, LAN_PORT, LanError, parseLanAnnouncement } from '../../src/client/lan.ts';
import { resolveServer } from '../../src/client/server-version.ts';
import { connectBot } from '../../src/agent/bot.ts';
import { startTestServer } from '../helpers/world.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];
afterEach(() => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const socket of sockets.splice(0)) socket.close();
});

/** A free UDP port on loopback (the tests listen there rather than on the shared 4445). */
async function freeUdpPort(): Promise<number> {
  const probe = createSocket('udp4');
  await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Announces `text` to 127.0.0.1:`port` now and every 100 ms, as the game repeats it (every 1.5 s). */
function announce(text: string, port: number): void {
  const socket = createSocket('udp4');
  sockets.push(socket);
  const send = () => socket.send(text, port, '127.0.0.1');
  send();
  timers.push(setInterval(send, 100));
}

describe('LAN announcements', () => {
  test('the game announces to 224.0.2.60:4445', () => {
    expect([LAN_GROUP, LAN_PORT]).toEqual(['224.0.2.60', 4445]);
  });

  test('an announcement gives the world, its port and the sender as host', () => {
    expect(parseLanAnnouncement('[MOTD]Steve - New World[/MOTD][AD]51234[/AD]', '192.168.1.20')).toEqual({
      motd: 'Steve - New World',
      host: '192.168.1.20',
      port: 51234,
    });
    expect(parseLanAnnouncement('[MOTD]x[/MOTD][AD]10.0.0.5:25565[/AD]', '192.168.1.20')).toEqual({
      motd: 'x',
      host: '10.0.0.5',
      port: 25565,
    });
    expect(parseLanAnnouncement('[MOTD]no port[/MOTD]', '1.2.3.4')).toBeUndefined();
    expect(parseLanAnnouncement('[MOTD]x[/MOTD][AD]70000[/AD]', '1.2.3.4')).toBeUndefined();
    expect(parseLanAnnouncement('hello', '1.2.3.4')).toBeUndefined();
  });

  test('the first world announced on loopback is found', async () => {
    const port = await freeUdpPort();
    const found = findLanWorld({ port, timeoutMs: 5_000 });
    announce('junk', port);
    announce('[MOTD]Alex - Island[/MOTD][AD]40123[/AD]', port);
    expect(await found).toEqual({ motd: 'Alex - Island', host: '127.0.0.1', port: 40123 });
  });

  test('worlds of other hosts are passed over when a host is set; nothing announced is an error saying what to do', async () => {
    const port = await freeUdpPort();
    announce('[MOTD]elsewhere[/MOTD][AD]40123[/AD]', port);
    const missing = findLanWorld({ port, host: '10.9.8.7', timeoutMs: 400 });
    await expect(missing).rejects.toThrow(LanError);
    await expect(missing).rejects.toThrow(
      /No LAN world was announced within 0\.4 s from 10\.9\.8\.7\. In Minecraft, open the world to LAN/,
    );
  });

  test('listening stops when aborted', async () => {
    const port = await freeUdpPort();
    const controller = new AbortController();
    const found = findLanWorld({ port, signal: controller.signal });
    controller.abort(new Error('stopped'));
    await expect(found).rejects.toThrow('stopped');
  });

  test('"port": -1 with "auto": the announced world is joined with its own version', async () => {
    const server = await startTestServer();
    try {
      const lanPort = await freeUdpPort();
      announce(`[MOTD]Steve - LAN[/MOTD][AD]${server.port}[/AD]`, lanPort);
      const target = await resolveServer({ server: 'external', minecraft_version: 'auto', host: '127.0.0.1', port: -1 }, { lanPort });
      expect(target).toEqual({
        host: '127.0.0.1',
        port: server.port,
        version: TEST_VERSION,
        how: 'LAN world "Steve - LAN", asked the server',
      });
      const bot = await connectBot('Lan', { host: target.host, port: target.port, version: target.version, auth: 'offline' });
      expect(bot.entity).toBeDefined();
      bot.quit();
    } finally {
      await server.close();
    }
  });
});
