/**
 * A bot's-eye 3D view with prismarine-viewer (an optional dependency, ~400 MB with its textures):
 * loaded with `require` only when the first view is opened, so a process whose page never asks
 * for one never loads it. Each view is prismarine-viewer's own page and socket.io stream (its
 * bundled client), on a small HTTP server of its own bound to the dashboard's address on a free
 * port, the same as prismarine-viewer's `mineflayer()` helper but bound to that address,
 * refusing requests without the dashboard's token (its cookie, which the browser also sends to
 * this port, or `?token=`), and refusing, as the dashboard does, a `Host` or `Origin` that is not
 * its own (`./origin.ts`).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Bot } from 'mineflayer';
import { ViewerWorld } from '../../skills/viewer-world.ts';
import { ownHosts, refusal } from './origin.ts';

/** An open 3D view. */
export interface BotViewer {
  /** The view's port (its page is `/` there; append `?token=` when the dashboard has one). */
  readonly port: number;
  close(): void;
}

/** prismarine-viewer is not installed (`npm install --omit=optional`). */
export class ViewerUnavailableError extends Error {
  override name = 'ViewerUnavailableError';
}

/** The token cookie a view's page gets once its URL carried the right token. */
const COOKIE = 'mindcraft_viewer_token';

/** True when `given` equals `token`, compared in constant time. */
export function tokenMatches(token: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(token);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: IncomingMessage, name = COOKIE): string | undefined {
  const found = (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([k]) => k === name);
  return found ? decodeURIComponent(found.slice(1).join('=')) : undefined;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- prismarine-viewer and its express/socket.io ship no types we load */
type Loaded = {
  express: any;
  SocketServer: any;
  setupRoutes: (app: any, prefix?: string) => void;
  WorldView: any;
  getVersion: (version: string) => string;
};
let loaded: Loaded | undefined;

function load(): Loaded {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  let root: string;
  try {
    root = path.dirname(require.resolve('prismarine-viewer/package.json'));
  } catch {
    throw new ViewerUnavailableError(
      'The 3D view needs prismarine-viewer, an optional dependency that is not installed: run `npm install prismarine-viewer`.',
    );
  }
  const fromViewer = createRequire(path.join(root, 'package.json'));
  loaded = {
    express: fromViewer('express'),
    SocketServer: fromViewer('socket.io').Server,
    setupRoutes: fromViewer('./lib/common').setupRoutes,
    // Only the world stream: the rest of './viewer' renders in Node and needs the native canvas package.
    WorldView: fromViewer('./viewer/lib/worldView').WorldView,
    getVersion: fromViewer('./viewer/lib/version').getVersion,
  };
  return loaded;
}

/**
 * Opens a 3D view of what `bot` sees (third person, following it).
 *
 * @param options `host` to bind; `token`: required of every request when not empty, as `?token=`,
 *   this view's cookie or the dashboard's `cookie`; `allowedHosts`: `dashboard_allowed_hosts`;
 *   `viewDistance` in chunks (default 6).
 * @throws ViewerUnavailableError when prismarine-viewer is not installed.
 */
export async function openViewer(
  bot: Bot,
  options: { host: string; token?: string; cookie?: string; allowedHosts?: readonly string[]; viewDistance?: number },
): Promise<BotViewer> {
  const { express, SocketServer, setupRoutes, WorldView, getVersion } = load();
  const token = options.token ?? '';
  // Known once the server listens (on a free port); no request comes before.
  let hosts = new Set<string>();
  const hasToken = (req: IncomingMessage) =>
    tokenMatches(token, cookieToken(req)) || (options.cookie !== undefined && tokenMatches(token, cookieToken(req, options.cookie)));
  const app = express();
  app.use((req: any, res: any, next: () => void) => {
    const why = refusal(req.headers, hosts);
    if (why) res.status(403).send(`Refused: ${why}.`);
    else next();
  });
  if (token) {
    app.use((req: any, res: any, next: () => void) => {
      const given = typeof req.query?.token === 'string' ? req.query.token : undefined;
      if (tokenMatches(token, given)) {
        res.setHeader('Set-Cookie', `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`);
        next();
      } else if (hasToken(req)) {
        next();
      } else {
        res.status(401).send('This view needs the dashboard token.');
      }
    });
  }
  setupRoutes(app, '');
  const http = createServer(app);
  const io = new SocketServer(http, {
    path: '/socket.io',
    allowRequest: (req: IncomingMessage, done: (err: string | null, ok: boolean) => void) =>
      done(null, refusal(req.headers, hosts) === undefined && (!token || hasToken(req))),
  });
  io.on('connection', (socket: any) => {
    // The world shifted to y >= 0 and in the state ids of the version the page draws it as.
    const world = new ViewerWorld(bot, getVersion(bot.version));
    socket.emit('version', bot.version);
    const view = new WorldView(world, options.viewDistance ?? 6, bot.entity.position, socket);
    void view.init(bot.entity.position);
    const follow = () => {
      socket.emit('position', { pos: world.up(bot.entity.position), yaw: bot.entity.yaw, addMesh: true });
      view.updatePosition(bot.entity.position);
    };
    bot.on('move', follow);
    const unlisten = world.listen(
      (event, data) => socket.emit(event, data),
      (pos) => void view.loadChunk(pos),
    );
    socket.on('disconnect', () => {
      bot.off('move', follow);
      unlisten();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, options.host, () => resolve());
  });
  hosts = ownHosts(options.host, (http.address() as AddressInfo).port, options.allowedHosts);
  return {
    port: (http.address() as AddressInfo).port,
    close() {
      io.close();
      http.close();
    },
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
