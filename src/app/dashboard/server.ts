/**
 * The dashboard: one page that shows every bot live and lets a person act on them, and, during an
 * evaluation, the campaign's progress. Fastify serves the page (`./public/`, its TypeScript
 * modules with types stripped, see `./browser-modules.ts`) and one WebSocket (`/ws`) that carries
 * the protocol of `./public/protocol.ts`: a `hello` with the whole state, then every bot event of
 * the event stream as it happens, the bots' state whenever it changes (sampled on the server
 * every {@link SAMPLE_MS}), the server's players and the campaign. The page never polls.
 *
 * Bound to loopback by default; any other address needs a token, which the page asks for and
 * sends as the `mindcraft_token` cookie (or `?token=`) with the WebSocket, the run records and the
 * 3D views. Bad input from the page (an unknown bot, a malformed command, an invalid profile) is
 * answered with a clear error for the page, never thrown.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import type { Agent } from '../../agent/agent.ts';
import type { BotEvent } from '../../agent/events.ts';
import { ConfigError, profileSchema, type Settings } from '../../settings/index.ts';
import type { RunningBots } from '../start-bots.ts';
import { importMap, pageModules, vendorDirs, PAGE_ENTRY } from './browser-modules.ts';
import type { CampaignBoard } from './campaign.ts';
import {
  CLOSE_BAD_TOKEN,
  clientMessageSchema,
  fieldErrors,
  type BotView,
  type ClientMessage,
  type PlayerView,
  type Reply,
  type ServerMessage,
} from './public/protocol.ts';
import { openViewer, tokenMatches, ViewerUnavailableError, type BotViewer } from './viewer.ts';

/** How often the bots' state is sampled for changes (ms). */
export const SAMPLE_MS = 250;
/** Events kept per bot for pages that connect later. */
export const EVENTS_KEPT = 200;
/** The cookie (or `token` query parameter) that carries the dashboard token. */
export const TOKEN_COOKIE = 'mindcraft_token';

/** The part of the running bots the dashboard reads and controls. */
export type DashboardBots = Pick<
  RunningBots,
  'agents' | 'sessions' | 'bus' | 'server' | 'address' | 'profiles' | 'addBot' | 'stopBot' | 'restartBot'
>;

export interface DashboardOptions {
  /** Address to bind (default 127.0.0.1). Not loopback: `token` is required. */
  host?: string;
  /** Port; 0 = any free port (read it back from {@link Dashboard.port}). */
  port: number;
  /** Secret the page must present; '' or undefined = none (loopback only). */
  token?: string;
  /** The bots to show (`npm start`); without them the page shows the campaign only. */
  bots?: DashboardBots;
  /** The evaluation's progress (`npm run eval`); its `recordsRoot` is served at `/runs/`. */
  campaign?: CampaignBoard;
  /** Offer the 3D view per bot (prismarine-viewer, loaded on first use). */
  viewer?: boolean;
  /** Folder of the bots' memory files, for stopped bots (default `bots`). */
  botsDir?: string;
}

/** A running dashboard. */
export interface Dashboard {
  /** `http://host:port/`. */
  readonly url: string;
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
  settings: Pick<Settings, 'dashboard_port' | 'dashboard_host' | 'dashboard_token' | 'dashboard_viewer'>,
): Pick<DashboardOptions, 'host' | 'port' | 'token' | 'viewer'> | undefined {
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

function presented(req: FastifyRequest): string | undefined {
  const query = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof query === 'string' ? query : cookie(req, TOKEN_COOKIE);
}

function rounded(n: number): number {
  return Math.round(n * 10) / 10;
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
  const token = options.token ?? '';
  if (!isLoopback(host) && !token) {
    throw new ConfigError(
      `"dashboard_host": "${host}" opens the dashboard beyond this machine: set a "dashboard_token" too (the page asks for it), or bind 127.0.0.1.`,
    );
  }
  const { bots, campaign } = options;
  const botsDir = path.resolve(options.botsDir ?? 'bots');
  const modules = pageModules();
  const app = Fastify({ logger: false });
  const sockets = new Set<WebSocket>();
  const viewers = new Map<string, Promise<BotViewer>>();
  const cleanups: (() => void)[] = [];
  const authorised = (req: FastifyRequest) => !token || tokenMatches(token, presented(req));

  await app.register(fastifyWebsocket, { options: { maxPayload: 256 * 1024 } });
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
  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(indexHtml));
  app.get('/src/*', async (req, reply) => {
    const rel = (req.params as { '*': string })['*'];
    const code = modules.get(rel);
    if (code === undefined) return reply.code(404).type('text/plain').send(`${rel} is not one of the page's modules`);
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(code);
  });

  // State: recent events per bot, action start times, last views sent.
  const recent = new Map<string, BotEvent[]>();
  const stopped = new Set<string>();
  const keep = (event: BotEvent) => {
    const list = recent.get(event.bot) ?? [];
    list.push(event);
    if (list.length > EVENTS_KEPT) list.splice(0, list.length - EVENTS_KEPT);
    recent.set(event.bot, list);
  };
  const broadcast = (message: ServerMessage) => {
    const text = JSON.stringify(message);
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(text);
  };
  const findAgent = (name: string): Agent | undefined => bots?.agents.find((a) => a.name === name);
  const noBot = (name: string) => {
    const known = bots ? bots.profiles().map((p) => p.name) : [];
    return stopped.has(name)
      ? `${name} is stopped: restart it first.`
      : `There is no bot named "${name}"${known.length ? ` (bots: ${known.join(', ')})` : ''}.`;
  };

  const botViews = (): BotView[] => {
    if (!bots) return [];
    const views: BotView[] = [];
    for (const profile of bots.profiles()) {
      const agent = findAgent(profile.name);
      if (!agent) {
        views.push({
          name: profile.name,
          model: typeof profile.model === 'string' ? profile.model : profile.model.model,
          status: 'stopped',
          health: null,
          food: null,
          position: null,
          action: null,
          goal: { state: 'stopped', text: '' },
          partner: null,
          inventory: {},
          modes: {},
        });
        continue;
      }
      const session = bots.sessions.find((s) => s.username === agent.name);
      const online = session ? session.online : true;
      const status = agent.status();
      views.push({
        name: status.name,
        model: status.model,
        status: session?.state ?? 'online',
        health: online ? status.health : null,
        food: online ? status.food : null,
        position: online ? status.position : null,
        action: status.action,
        goal: status.goal,
        partner: status.partner,
        inventory: online ? status.inventory : {},
        modes: status.modes,
      });
    }
    return views;
  };

  const playerViews = (): PlayerView[] => {
    if (!bots) return [];
    const ours = new Set(bots.profiles().map((p) => p.name));
    const players = new Map<string, PlayerView>();
    // The embedded server knows every player and where it is; otherwise the bots' tab lists.
    const serv = bots.server?.serv as { players?: { username: string; position?: { x: number; y: number; z: number } }[] } | undefined;
    if (serv?.players) {
      for (const p of serv.players) {
        players.set(p.username, {
          name: p.username,
          bot: ours.has(p.username),
          position: p.position ? { x: rounded(p.position.x), y: rounded(p.position.y), z: rounded(p.position.z) } : null,
        });
      }
    } else {
      for (const agent of bots.agents) {
        for (const [name, player] of Object.entries(agent.bot.players ?? {})) {
          const pos = player.entity?.position;
          if (!players.has(name) || pos)
            players.set(name, {
              name,
              bot: ours.has(name),
              position: pos ? { x: rounded(pos.x), y: rounded(pos.y), z: rounded(pos.z) } : null,
            });
        }
      }
    }
    return [...players.values()].sort((a, b) => a.name.localeCompare(b.name));
  };

  if (bots) {
    cleanups.push(
      bots.bus.subscribe((event) => {
        if (event.type === 'connection') {
          if (event.state === 'closed' && event.detail === 'stopped') stopped.add(event.bot);
          if (event.state === 'online') stopped.delete(event.bot);
        }
        const shown = event.type === 'model' ? { ...event, request: undefined } : event;
        keep(shown);
        broadcast({ type: 'event', event: shown });
      }),
    );
  }
  let lastBots = '';
  let lastPlayers = '';
  const sample = () => {
    const views = botViews();
    const text = JSON.stringify(views);
    if (text !== lastBots) {
      lastBots = text;
      broadcast({ type: 'bots', bots: views });
    }
    const players = playerViews();
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

  const handle = async (message: ClientMessage): Promise<{ text: string; data?: unknown }> => {
    if (message.type === 'addBot') {
      if (!bots) throw new PageError('This dashboard has no bots to add to (an evaluation runs its own).');
      const parsed = profileSchema.safeParse(message.profile);
      if (!parsed.success) throw new PageError('The profile is not valid: see the fields marked.', fieldErrors(parsed.error.issues));
      if (bots.agents.some((a) => a.name === parsed.data.name))
        throw new PageError(`A bot named "${parsed.data.name}" is running already.`, { name: 'a bot of this name is running already' });
      const agent = await bots.addBot(parsed.data);
      stopped.delete(agent.name);
      return { text: `${agent.name} joined as ${agent.model.id}.` };
    }
    if (!bots) throw new PageError('This dashboard shows an evaluation; it has no bots to control.');
    if (message.type === 'restartBot') {
      if (!bots.profiles().some((p) => p.name === message.bot)) throw new PageError(noBot(message.bot));
      const agent = await bots.restartBot(message.bot);
      stopped.delete(agent.name);
      return { text: `${agent.name} restarted.` };
    }
    if (message.type === 'memory' && !findAgent(message.bot)) {
      if (!bots.profiles().some((p) => p.name === message.bot)) throw new PageError(noBot(message.bot));
      return { text: 'memory.json', data: await memoryFile(path.join(botsDir, message.bot, 'memory.json')) };
    }
    const agent = findAgent(message.bot);
    if (!agent) throw new PageError(noBot(message.bot));
    switch (message.type) {
      case 'say': {
        const received = agent.receive({ from: message.from, text: message.text, channel: 'whisper', via: 'dashboard' });
        if (received.kind === 'dropped') throw new PageError(`${agent.name} dropped your message: ${received.reason}.`);
        return { text: `${agent.name} got your message as ${message.from}'s whisper.` };
      }
      case 'command': {
        if (!message.text.trim().startsWith('!')) throw new PageError(`"${message.text}" is not a command. !help lists them.`);
        const received = agent.receive({ from: message.from, text: message.text, channel: 'whisper', via: 'dashboard' });
        if (received.kind === 'error') throw new PageError(received.error);
        if (received.kind === 'dropped') throw new PageError(`${agent.name} dropped it: ${received.reason}.`);
        if (received.kind === 'chat') throw new PageError(`"${message.text}" is not a command ${agent.name} knows. !help lists them.`);
        return { text: `${agent.name} runs ${received.command}; its output follows in the log.` };
      }
      case 'stop':
        await agent.stop('stopped from the dashboard');
        return { text: `${agent.name} stopped its action and goal.` };
      case 'goal':
        return { text: agent.setGoal(message.goal) };
      case 'endGoal':
        return { text: agent.endGoal() };
      case 'stopBot':
        await bots.stopBot(agent.name);
        stopped.add(agent.name);
        viewers.get(agent.name)?.then(
          (v) => v.close(),
          () => {},
        );
        viewers.delete(agent.name);
        return { text: `${agent.name} left the server. Restart brings it back.` };
      case 'memory':
        return {
          text: 'memory.json',
          data: agent.memoryStore.file ? await memoryFile(agent.memoryStore.file) : { memory: agent.memory, turns: agent.history },
        };
      case 'viewer': {
        if (!options.viewer) throw new PageError('The 3D view is off: set "dashboard_viewer": true in settings.json.');
        let viewer = viewers.get(agent.name);
        if (!viewer) {
          viewer = openViewer(agent.bot, { host, token });
          viewers.set(agent.name, viewer);
          viewer.catch(() => viewers.delete(agent.name));
        }
        const { port } = await viewer.catch((err: unknown) => {
          throw new PageError(
            err instanceof ViewerUnavailableError ? err.message : `The 3D view could not start: ${(err as Error).message}`,
          );
        });
        return { text: `3D view of ${agent.name}`, data: { port } };
      }
    }
  };

  app.get('/ws', { websocket: true }, (socket, req) => {
    if (!authorised(req)) {
      socket.close(CLOSE_BAD_TOKEN, 'token required');
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const events = [...recent.values()].flat().sort((a, b) => a.t - b.t);
    const hello: ServerMessage = {
      type: 'hello',
      bots: botViews(),
      players: playerViews(),
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
      handle(parsed.data).then(
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
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    host,
    port,
    async close() {
      for (const cleanup of cleanups) cleanup();
      for (const viewer of viewers.values())
        viewer.then(
          (v) => v.close(),
          () => {},
        );
      for (const socket of sockets) socket.terminate();
      await app.close();
    },
  };
}

/** An error the page shows as it is (with form errors by field). */
class PageError extends Error {
  readonly fields: Record<string, string> | undefined;

  constructor(message: string, fields?: Record<string, string>) {
    super(message);
    this.fields = fields;
  }
}

async function memoryFile(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (err) {
    throw new PageError(
      (err as NodeJS.ErrnoException).code === 'ENOENT'
        ? `No memory file yet (${file}): it is written once the bot has something to remember.`
        : `${file}: ${(err as Error).message}`,
    );
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
