/**
 * The dashboard: one page that shows every bot live and lets a person act on them, and, during an
 * evaluation, the campaign's progress. Fastify serves the page (`./public/`, its TypeScript
 * modules with types stripped, see `./browser-modules.ts`) and one WebSocket (`/ws`) that carries
 * the protocol of `./public/protocol.ts`: a `hello` with the whole state, then every bot event of
 * the event stream as it happens, the bots' state whenever it changes (sampled on the server
 * every {@link SAMPLE_MS}), the server's players and the campaign. The page never polls.
 *
 * Who gets in (see the README's security notes):
 * - every HTTP route and the WebSocket refuse, with 403, a request whose `Host` is not the
 *   dashboard's own address or whose `Origin` is another site (`./origin.ts`): another web page
 *   cannot drive it, and DNS rebinding finds no way in;
 * - the WebSocket, the run records and the 3D views need a token: `dashboard_token` when set
 *   (required beyond loopback), else a random one made at each start, carried by the printed
 *   URL (`/?token=…`), which turns it into an HttpOnly, SameSite=Strict cookie
 *   (`mindcraft_token_<port>`) and drops it from the address bar. So on a shared machine another
 *   user, who can reach loopback too, cannot open the page without the printed URL;
 * - at most {@link MAX_PAGES} pages are connected at once, and each event is cut to
 *   {@link EVENT_TEXT_LIMIT} characters of text before it is kept or sent.
 *
 * Bad input from the page (an unknown bot, a malformed command, an invalid profile) is answered
 * with a clear error for the page, never thrown.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import type { BotEvent } from '../../agent/events.ts';
import { ConfigError, type Settings } from '../../settings/index.ts';
import { importMap, pageModules, vendorDirs, PAGE_ENTRY } from './browser-modules.ts';
import type { CampaignBoard } from './campaign.ts';
import {
  CLOSE_BAD_TOKEN,
  CLOSE_TOO_MANY_PAGES,
  clientMessageSchema,
  fieldErrors,
  tokenCookie,
  type Reply,
  type ServerMessage,
} from './public/protocol.ts';
import { ownHosts, refusal } from './origin.ts';
import { tokenMatches } from './viewer.ts';
import { DashboardActions, PageError } from './actions.ts';
import { botViews, playerViews, type DashboardBots } from './views.ts';

/** How often the bots' state is sampled for changes (ms). */
export const SAMPLE_MS = 250;
/** Events kept per bot for pages that connect later. */
export const EVENTS_KEPT = 200;
/** Bots whose events are kept (bots come and go from the page's form, under new names too). */
export const BOTS_KEPT = 64;
/** Characters of text kept of each string in an event (longer ones are cut, with `…`), kept or sent. */
export const EVENT_TEXT_LIMIT = 4_096;
/** Pages connected at once; one more is closed with {@link CLOSE_TOO_MANY_PAGES}. */
export const MAX_PAGES = 32;

export type { DashboardBots } from './views.ts';

export interface DashboardOptions {
  /** Address to bind (default 127.0.0.1). Not loopback: `token` is required. */
  host?: string;
  /** Port; 0 = any free port (read it back from {@link Dashboard.port}). */
  port: number;
  /**
   * Secret the page must present; '' or undefined: a random one made now (see the module comment),
   * in {@link Dashboard.url}.
   */
  token?: string;
  /** More `Host` values the page may be reached under (`dashboard_allowed_hosts`: `name` or `name:port`). */
  allowedHosts?: readonly string[];
  /** The bots to show (`npm start`); without them the page shows the campaign only. */
  bots?: DashboardBots;
  /** The evaluation's progress (`npm run eval`); its `recordsRoot` is served at `/runs/`. */
  campaign?: CampaignBoard;
  /** Offer the 3D view per bot (prismarine-viewer, loaded on first use). */
  viewer?: boolean;
  /** Folder of the bots' memory files, for stopped bots (default `bots`). */
  botsDir?: string;
  /** Pages connected at once (default {@link MAX_PAGES}). */
  maxPages?: number;
}

/** A running dashboard. */
export interface Dashboard {
  /** `http://host:port/`, with `?token=…` when the token was made at this start (print it: it opens the page). */
  readonly url: string;
  /** The token in force: `dashboard_token`, or the one made at this start. */
  readonly token: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** True for an address only this machine reaches. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/**
 * The dashboard options of `settings` (`dashboard_port`, `dashboard_host`, `dashboard_token`,
 * `dashboard_viewer`); undefined when `dashboard_port` is 0 (off). Call it before starting
 * anything, so a bad combination stops start-up at once.
 *
 * @throws ConfigError when the host is not loopback and no token is set.
 */
export function dashboardSettings(
  settings: Pick<Settings, 'dashboard_port' | 'dashboard_host' | 'dashboard_token' | 'dashboard_viewer' | 'dashboard_allowed_hosts'>,
): Pick<DashboardOptions, 'host' | 'port' | 'token' | 'viewer' | 'allowedHosts'> | undefined {
  if (settings.dashboard_port === 0) return undefined;
  if (!isLoopback(settings.dashboard_host) && !settings.dashboard_token) {
    throw new ConfigError(
      `"dashboard_host": "${settings.dashboard_host}" opens the dashboard beyond this machine: set a "dashboard_token" too (the page asks for it), or bind 127.0.0.1.`,
    );
  }
  return {
    host: settings.dashboard_host,
    port: settings.dashboard_port,
    token: settings.dashboard_token,
    viewer: settings.dashboard_viewer,
    allowedHosts: settings.dashboard_allowed_hosts,
  };
}

const PUBLIC_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), 'public');

function cookie(req: FastifyRequest, name: string): string | undefined {
  const found = (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([k]) => k === name);
  return found ? decodeURIComponent(found.slice(1).join('=')) : undefined;
}

function presented(req: FastifyRequest, cookieName: string): string | undefined {
  const query = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof query === 'string' ? query : cookie(req, cookieName);
}

/** `event` with every string longer than {@link EVENT_TEXT_LIMIT} cut (and marked `…`). */
export function cutEvent(event: BotEvent): BotEvent {
  let cut: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(event)) {
    if (typeof value === 'string' && value.length > EVENT_TEXT_LIMIT) {
      cut ??= { ...event };
      cut[key] = `${value.slice(0, EVENT_TEXT_LIMIT)}…`;
    }
  }
  return (cut as BotEvent | undefined) ?? event;
}

/**
 * Starts the dashboard (see the module comment).
 *
 * @throws ConfigError when `host` is not loopback and no `token` is set, or when the port is taken.
 * @example
 * const dashboard = await startDashboard({ port: 8080, bots: running });
 * log(`Dashboard: ${dashboard.url}`);
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.token) {
    throw new ConfigError(
      `"dashboard_host": "${host}" opens the dashboard beyond this machine: set a "dashboard_token" too (the page asks for it), or bind 127.0.0.1.`,
    );
  }
  // No configured token: one made now, for this start only (the printed URL carries it).
  const perStart = !options.token;
  const token = options.token || randomBytes(18).toString('base64url');
  const { bots, campaign } = options;
  const botsDir = path.resolve(options.botsDir ?? 'bots');
  const modules = pageModules();
  const app = Fastify({ logger: false });
  const sockets = new Set<WebSocket>();
  const cleanups: (() => void)[] = [];
  // Known once the server listens (port 0 = any free port); no request comes before.
  let hosts = new Set<string>();
  let cookieName = tokenCookie(options.port);
  const authorised = (req: FastifyRequest) => tokenMatches(token, presented(req, cookieName));

  await app.register(fastifyWebsocket, { options: { maxPayload: 256 * 1024 } });
  // Every route, the WebSocket's upgrade included: only the dashboard's own address and page. Added
  // after the WebSocket plugin, whose own hooks then close a refused upgrade's socket.
  app.addHook('onRequest', async (req, reply) => {
    const why = refusal(req.headers, hosts);
    if (why) return reply.code(403).header('connection', 'close').type('text/plain; charset=utf-8').send(`Refused: ${why}.`);
  });
  await app.register(fastifyStatic, {
    root: PUBLIC_DIR,
    prefix: '/',
    index: false,
    serve: true,
    wildcard: false,
    allowedPath: (p) => /\.(css|svg|png)$/.test(p),
  });
  for (const [name, dir] of Object.entries(vendorDirs())) {
    await app.register(fastifyStatic, {
      root: dir,
      prefix: `/vendor/${name}/`,
      decorateReply: false,
      allowedPath: (p) => /\.(m?js)$/.test(p),
    });
  }
  if (campaign?.recordsRoot) {
    const root = campaign.recordsRoot;
    await app.register(async (scope) => {
      scope.addHook('onRequest', async (req, reply) => {
        if (!authorised(req)) await reply.code(401).send('The run records need the dashboard token.');
      });
      await scope.register(fastifyStatic, {
        root,
        prefix: '/runs/',
        decorateReply: false,
        index: false,
        list: {
          format: 'html',
          render: (dirs, files) =>
            `<!doctype html><meta charset="utf-8"><title>Run records</title><ul>${[
              ...dirs.map((d) => `<li><a href="${encodeURIComponent(d.name)}/">${escapeHtml(d.name)}/</a></li>`),
              ...files.map((f) => `<li><a href="${encodeURIComponent(f.name)}">${escapeHtml(f.name)}</a></li>`),
            ].join('')}</ul>`,
        },
      });
    });
  }

  const indexHtml = (await readFile(path.join(PUBLIC_DIR, 'index.html'), 'utf8'))
    .replace('<!--IMPORT_MAP-->', `<script type="importmap">${JSON.stringify(importMap())}</script>`)
    .replace('<!--ENTRY-->', `<script type="module" src="/src/${PAGE_ENTRY}"></script>`);
  app.get('/', async (req, reply) => {
    // The printed URL's token becomes a cookie the page's scripts cannot read, and leaves the address bar.
    const query = (req.query as Record<string, unknown> | undefined)?.token;
    if (typeof query === 'string' && tokenMatches(token, query)) {
      return reply
        .header('set-cookie', `${cookieName}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`)
        .header('cache-control', 'no-store')
        .redirect('/', 303);
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(indexHtml);
  });
  app.get('/src/*', async (req, reply) => {
    const rel = (req.params as { '*': string })['*'];
    const code = modules.get(rel);
    if (code === undefined) return reply.code(404).type('text/plain').send(`${rel} is not one of the page's modules`);
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(code);
  });

  // State: recent events per bot, the page's actions, the last views sent.
  const recent = new Map<string, BotEvent[]>();
  const actions = new DashboardActions({
    bots,
    botsDir,
    viewer: options.viewer === true,
    host,
    token,
    cookie: () => cookieName,
    allowedHosts: options.allowedHosts ?? [],
  });
  const keep = (event: BotEvent) => {
    const list = recent.get(event.bot) ?? [];
    list.push(event);
    if (list.length > EVENTS_KEPT) list.splice(0, list.length - EVENTS_KEPT);
    // The bot heard from last goes to the end; past BOTS_KEPT names the one quiet longest is forgotten.
    recent.delete(event.bot);
    recent.set(event.bot, list);
    if (recent.size > BOTS_KEPT) recent.delete(recent.keys().next().value!);
  };
  const broadcast = (message: ServerMessage) => {
    const text = JSON.stringify(message);
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(text);
  };

  if (bots) {
    cleanups.push(
      bots.bus.subscribe((event) => {
        if (event.type === 'connection') actions.connection(event.bot, event.state, event.detail);
        const shown = cutEvent(event.type === 'model' ? { ...event, request: undefined } : event);
        keep(shown);
        broadcast({ type: 'event', event: shown });
      }),
    );
  }
  let lastBots = '';
  let lastPlayers = '';
  const sample = () => {
    const views = bots ? botViews(bots) : [];
    const text = JSON.stringify(views);
    if (text !== lastBots) {
      lastBots = text;
      broadcast({ type: 'bots', bots: views });
    }
    const players = bots ? playerViews(bots) : [];
    const ptext = JSON.stringify(players);
    if (ptext !== lastPlayers) {
      lastPlayers = ptext;
      broadcast({ type: 'players', players });
    }
  };
  const sampler = setInterval(() => {
    try {
      sample();
    } catch {
      /* a bot mid-reconnect; next time */
    }
  }, SAMPLE_MS);
  sampler.unref();
  cleanups.push(() => clearInterval(sampler));
  if (campaign) cleanups.push(campaign.subscribe((view) => broadcast({ type: 'campaign', campaign: view })));

  // Pages that play the bots' voices: the voice hands its lines over only while one is open.
  const voicePages = new Set<WebSocket>();
  let stopHearing: (() => void) | undefined;
  const setVoice = (socket: WebSocket, on: boolean) => {
    if (on && bots) voicePages.add(socket);
    else voicePages.delete(socket);
    if (voicePages.size && !stopHearing)
      stopHearing = bots!.listenToVoice(({ bot, text, mime, data }) => {
        const message: ServerMessage = { type: 'voice', bot, text, mime, data: data.toString('base64') };
        const frame = JSON.stringify(message);
        for (const page of voicePages) if (page.readyState === page.OPEN) page.send(frame);
      });
    else if (!voicePages.size && stopHearing) {
      stopHearing();
      stopHearing = undefined;
    }
  };
  cleanups.push(() => stopHearing?.());

  app.get('/ws', { websocket: true }, (socket, req) => {
    if (!authorised(req)) {
      socket.close(CLOSE_BAD_TOKEN, 'token required');
      return;
    }
    if (sockets.size >= (options.maxPages ?? MAX_PAGES)) {
      socket.close(CLOSE_TOO_MANY_PAGES, 'too many pages open');
      return;
    }
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      setVoice(socket, false);
    });
    const events = [...recent.values()].flat().sort((a, b) => a.t - b.t);
    const hello: ServerMessage = {
      type: 'hello',
      bots: bots ? botViews(bots) : [],
      players: bots ? playerViews(bots) : [],
      events,
      campaign: campaign?.view() ?? null,
      viewer: options.viewer === true,
      server: bots ? { version: bots.address.version, address: `${bots.address.host}:${bots.address.port}` } : null,
    };
    socket.send(JSON.stringify(hello));
    socket.on('message', (data: Buffer) => {
      let raw: unknown;
      try {
        raw = JSON.parse(data.toString());
      } catch {
        raw = undefined;
      }
      const id = typeof (raw as { id?: unknown })?.id === 'number' ? (raw as { id: number }).id : 0;
      const send = (reply: Reply) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(reply));
      };
      const parsed = clientMessageSchema.safeParse(raw);
      if (!parsed.success) {
        const fields = fieldErrors(parsed.error.issues);
        send({
          type: 'reply',
          id,
          ok: false,
          error: `The request was not understood: ${Object.entries(fields)
            .map(([k, v]) => (k ? `${k}: ${v}` : v))
            .join('; ')}`,
          fields,
        });
        return;
      }
      if (parsed.data.type === 'voice') {
        if (!bots) return send({ type: 'reply', id, ok: false, error: 'This dashboard shows an evaluation; it has no voices to play.' });
        setVoice(socket, parsed.data.on);
        return send({
          type: 'reply',
          id,
          ok: true,
          text: parsed.data.on ? "The bots' voices play on this page." : 'This page is silent.',
        });
      }
      actions.handle(parsed.data).then(
        (done) => send({ type: 'reply', id, ok: true, ...done }),
        (err: unknown) =>
          send(
            err instanceof PageError
              ? { type: 'reply', id, ok: false, error: err.message, ...(err.fields ? { fields: err.fields } : {}) }
              : { type: 'reply', id, ok: false, error: (err as Error).message },
          ),
      );
    });
  });

  try {
    await app.listen({ host, port: options.port });
  } catch (err) {
    await app.close();
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw new ConfigError(
      `The dashboard's port ${options.port} on ${host} is taken (another program, or another mindcraft-ts): set "dashboard_port" in settings.json to a free port, or to 0 for no dashboard.`,
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  hosts = ownHosts(host, port, options.allowedHosts);
  cookieName = tokenCookie(port);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/${perStart ? `?token=${token}` : ''}`,
    token,
    host,
    port,
    async close() {
      for (const cleanup of cleanups) cleanup();
      actions.close();
      for (const socket of sockets) socket.terminate();
      await app.close();
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
