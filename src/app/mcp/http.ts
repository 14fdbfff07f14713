/**
 * The MCP server over Streamable HTTP (the MCP specification's transport, the SDK's
 * `StreamableHTTPServerTransport`), at `/mcp`: one session per client, started by its
 * `initialize` and named by the `Mcp-Session-Id` header the server gives it.
 *
 * Safe by default:
 * - binds loopback; any other address needs a token ({@link McpHttpOptions.token});
 * - every request's `Host`, `Origin` and token are checked first (`./guard.ts`): 403 or 401;
 * - at most {@link DEFAULT_RATE}.max requests per {@link DEFAULT_RATE}.windowMs per session
 *   (per address before a session exists), else 429; bodies over {@link MAX_BODY_BYTES}: 413;
 * - at most {@link MAX_SESSIONS} sessions at once (503 for one more), and a session idle for
 *   {@link SESSION_IDLE_MS} is closed (its client starts a new one);
 * - a session's state (its journal cursors, subscriptions) is its own: another client cannot
 *   reach it without its session id, a random UUID.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '../../settings/index.ts';
import { isLoopback, ownHosts, refusal, type GuardRules } from './guard.ts';
import type { McpHub, McpSession } from './session.ts';

/** Largest request body (bytes). */
export const MAX_BODY_BYTES = 256 * 1024;
/** Sessions open at once. */
export const MAX_SESSIONS = 16;
/** A session without a request for this long is closed (ms). */
export const SESSION_IDLE_MS = 60 * 60 * 1000;
/** Requests per session (or per address, before a session) in a window. */
export const DEFAULT_RATE = { max: 200, windowMs: 10_000 };

/** Options of {@link serveHttp}. */
export interface McpHttpOptions {
  /** Address to bind (default 127.0.0.1). Not loopback: {@link token} is required. */
  host?: string;
  /** Port; 0 = any free port (read it back from {@link McpHttpServer.port}). */
  port: number;
  /** Bearer token every request must carry; '' or undefined: none (loopback only). */
  token?: string;
  /** Browser origins let in besides the server's own, e.g. `http://localhost:6274` (MCP Inspector). */
  allowedOrigins?: readonly string[];
  /** See {@link MAX_SESSIONS}, {@link SESSION_IDLE_MS}, {@link DEFAULT_RATE}, {@link MAX_BODY_BYTES}. */
  maxSessions?: number;
  sessionIdleMs?: number;
  rate?: { max: number; windowMs: number };
  maxBodyBytes?: number;
}

/** A running HTTP MCP server. */
export interface McpHttpServer {
  /** `http://host:port/mcp`: the address clients are given. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Sessions open now. */
  readonly sessions: number;
  /** Closes every session and the port. */
  close(): Promise<void>;
}

interface Open {
  transport: StreamableHTTPServerTransport;
  session: McpSession;
  lastSeen: number;
}

/** A JSON-RPC error body, as the MCP transport answers one. */
function rpcError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/**
 * Serves `hub`'s sessions over Streamable HTTP (see the module comment).
 *
 * @throws ConfigError when `host` is not loopback and no token is given, or the port is taken.
 * @example const http = await serveHttp(hub, { port: 8931, token: process.env.MCP_TOKEN }); log(`MCP: ${http.url}`);
 */
export async function serveHttp(hub: McpHub, options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? '';
  if (!isLoopback(host) && !token)
    throw new ConfigError(`--host ${host} opens the MCP server beyond this machine: give a --token (or MCP_TOKEN) too, or bind 127.0.0.1.`);
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  const rate = options.rate ?? DEFAULT_RATE;
  const sessions = new Map<string, Open>();
  // Known once the port is bound (port 0 = any free port); no request is answered before.
  let rules: GuardRules = { hosts: new Set(), origins: new Set(options.allowedOrigins ?? []), token };

  const app = Fastify({ logger: false, bodyLimit: options.maxBodyBytes ?? MAX_BODY_BYTES });
  await app.register(rateLimit, {
    max: rate.max,
    timeWindow: rate.windowMs,
    keyGenerator: (req) => {
      const id = req.headers['mcp-session-id'];
      return typeof id === 'string' && sessions.has(id) ? `session:${id}` : `address:${req.ip}`;
    },
  });
  app.addHook('onRequest', async (req, reply) => {
    const refused = refusal(req.headers, rules);
    if (refused) {
      if (refused.status === 401) void reply.header('www-authenticate', 'Bearer realm="mindcraft-mcp"');
      return rpcError(reply.header('connection', 'close'), refused.status, `Refused: ${refused.why}.`);
    }
  });

  const open = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (sessions.size >= maxSessions)
      return void rpcError(reply, 503, `Too many sessions (${maxSessions}); close one (DELETE /mcp) or wait for an idle one to expire.`);
    const session = hub.session();
    let id: string | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        id = sessionId;
        sessions.set(sessionId, { transport, session, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (id !== undefined) sessions.delete(id);
      void session.close();
    };
    await session.server.connect(transport);
    reply.hijack();
    await transport.handleRequest(req.raw, reply.raw, req.body);
    if (id === undefined) await session.close(); // initialize failed: no session was made
  };

  const handle = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = req.headers['mcp-session-id'];
    const id = typeof header === 'string' ? header : undefined;
    if (id === undefined) {
      if (req.method === 'POST' && isInitializeRequest(req.body)) return open(req, reply);
      return void rpcError(reply, 400, 'Bad Request: no Mcp-Session-Id header; start a session with an initialize request first.');
    }
    const known = sessions.get(id);
    if (!known) return void rpcError(reply, 404, 'Session not found (it ended or expired): start a new one with initialize.');
    known.lastSeen = Date.now();
    reply.hijack();
    await known.transport.handleRequest(req.raw, reply.raw, req.body);
  };
  app.post('/mcp', handle);
  app.get('/mcp', handle);
  app.delete('/mcp', handle);

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [, s] of sessions) if (now - s.lastSeen > idleMs) void s.transport.close();
    },
    Math.min(idleMs, 60_000),
  ).unref();

  try {
    await app.listen({ host, port: options.port });
  } catch (err) {
    clearInterval(sweep);
    await app.close();
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw new ConfigError(
      `The MCP port ${options.port} on ${host} is taken (another program, or another mindcraft-ts): choose another with --http PORT.`,
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  rules = { ...rules, hosts: ownHosts(host, port) };
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    host,
    port,
    get sessions() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      sessions.clear();
      await app.close();
    },
  };
}
