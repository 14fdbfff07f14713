/**
 * Finding a single-player world opened to LAN without typing its port. The game announces such a
 * world every 1.5 s by UDP multicast to 224.0.2.60, port 4445, with the text
 * `[MOTD]<world description>[/MOTD][AD]<port>[/AD]`; the world's address is the sender's IP and
 * that port (vanilla `LanServerPinger` / `LanServerDetection`; minecraft.wiki "Server List Ping",
 * "Ping via LAN"). Listening is all it takes: nothing is sent.
 */
import { createSocket, type Socket } from 'node:dgram';

/** The multicast group the game announces LAN worlds to. */
export const LAN_GROUP = '224.0.2.60';
/** The UDP port of LAN announcements. */
export const LAN_PORT = 4445;
/** How long to listen by default: three announcement intervals (vanilla announces every 1.5 s), in ms. */
export const LAN_TIMEOUT_MS = 5_000;

/** One announced LAN world. */
export interface LanWorld {
  /** The world's description as the game shows it (`Steve - New World`). */
  motd: string;
  /** The announcing machine's address. */
  host: string;
  port: number;
}

/** How to listen. */
export interface LanOptions {
  /** Only worlds announced from this address (default: the first world heard). */
  host?: string;
  /** Give up after this long, in ms (default {@link LAN_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** UDP port to listen on (default {@link LAN_PORT}; tests use another). */
  port?: number;
  signal?: AbortSignal;
}

/** An announcement that found no world, or listening that could not start. */
export class LanError extends Error {
  override name = 'LanError';
}

/**
 * Reads one announcement: `[MOTD]text[/MOTD][AD]port[/AD]` (the `AD` part may also be
 * `host:port`). Returns undefined for anything else.
 */
export function parseLanAnnouncement(text: string, sender: string): LanWorld | undefined {
  const motd = /\[MOTD\](.*?)\[\/MOTD\]/s.exec(text)?.[1];
  const ad = /\[AD\](.*?)\[\/AD\]/s.exec(text)?.[1]?.trim();
  if (motd === undefined || !ad) return undefined;
  const colon = ad.lastIndexOf(':');
  const host = colon > 0 ? ad.slice(0, colon) : sender;
  const port = Number(colon > 0 ? ad.slice(colon + 1) : ad);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { motd, host, port };
}

/**
 * Listens for LAN announcements and resolves with the first world heard (from `options.host`
 * when given).
 *
 * @throws LanError when no world is announced within the timeout (saying how to open one) or the
 *   port cannot be bound; the signal's reason when aborted.
 */
export async function findLanWorld(options: LanOptions = {}): Promise<LanWorld> {
  const timeoutMs = options.timeoutMs ?? LAN_TIMEOUT_MS;
  const port = options.port ?? LAN_PORT;
  options.signal?.throwIfAborted();
  const socket: Socket = createSocket({ type: 'udp4', reuseAddr: true });
  return new Promise<LanWorld>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (error: unknown, world?: LanWorld): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.close();
      if (world) resolve(world);
      else reject(error instanceof Error ? error : new LanError(String(error)));
    };
    const onAbort = (): void => finish(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (err) => finish(new LanError(`Cannot listen for LAN worlds on UDP port ${port}: ${err.message}`)));
    socket.on('message', (message, sender) => {
      const world = parseLanAnnouncement(message.toString('utf8'), sender.address);
      if (!world || (options.host !== undefined && sender.address !== options.host && world.host !== options.host)) return;
      finish(undefined, world);
    });
    socket.bind(port, () => {
      try {
        socket.addMembership(LAN_GROUP);
      } catch {
        // No multicast route (a machine without a network): announcements sent to this host still arrive.
      }
      timer = setTimeout(
        () =>
          finish(
            new LanError(
              `No LAN world was announced within ${timeoutMs / 1000} s${options.host ? ` from ${options.host}` : ''}. In Minecraft, open the world to LAN (Esc → Open to LAN) on this network, or set "port" to the port it prints.`,
            ),
          ),
        timeoutMs,
      );
    });
  });
}
