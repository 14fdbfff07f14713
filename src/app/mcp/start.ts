/**
 * `npm run mcp`: the bots of settings.json (on the embedded server by default, or the configured
 * external one) served to one MCP client over stdio, or to several over Streamable HTTP. Each
 * bot's own model is off unless its `mcp_model` (profile, else settings) is `on`: the client is
 * its brain (`./client-brain.ts`).
 */
import type { Writable } from 'node:stream';
import type { BotEventBus } from '../../agent/events.ts';
import type { Profile, Settings } from '../../settings/index.ts';
import { startAgents, type RunningBots } from '../start-bots.ts';
import { ClientBrain } from './client-brain.ts';
import { serveHttp, type McpHttpOptions, type McpHttpServer } from './http.ts';
import { McpHub } from './session.ts';
import { serveStdio } from './stdio.ts';

export { takeStdout } from './stdio.ts';
export { isLoopback } from './guard.ts';

/** The name an MCP client's commands are recorded under unless `--as` names another. */
export const DEFAULT_CLIENT_NAME = 'mcp';

/** Options of {@link startMcp}. */
export interface McpStartOptions {
  settings: Settings;
  profiles: Profile[];
  /** The bots' event stream (the process's logging listens to it). */
  bus: BotEventBus;
  /** The embedded server's port (0: any free one); default the settings' `port`. */
  port?: number;
  /** Folder of the bots' memory files; default `bots`. */
  botsDir?: string;
  /** stdio (the protocol's stream: `takeStdout()`), or HTTP. */
  transport: { kind: 'stdio'; out: Writable } | ({ kind: 'http' } & McpHttpOptions);
  /** See `McpToolsOptions.client` (default {@link DEFAULT_CLIENT_NAME}). */
  client?: string;
  log(line: string): void;
}

/** A running MCP server and its bots. */
export interface RunningMcp {
  running: RunningBots;
  hub: McpHub;
  /** The HTTP server, with `--http`. */
  http?: McpHttpServer;
  /** Resolves when the stdio client ends the session (never with HTTP). */
  ended: Promise<void>;
  /** Closes the sessions, the HTTP port, the bots and the embedded server. */
  close(): Promise<void>;
}

/** Whether `profile`'s bot runs with its own model off under MCP (its `mcp_model`, else the settings'). */
export function modelOff(settings: Pick<Settings, 'mcp_model'>, profile: Pick<Profile, 'mcp_model'>): boolean {
  return (profile.mcp_model ?? settings.mcp_model) === 'off';
}

/**
 * Starts the bots and serves them over MCP.
 *
 * @throws what `startAgents` throws (ConnectError, ConfigError), and ConfigError from `serveHttp`
 *   (a port taken, a host beyond loopback without a token); nothing is left running then.
 */
export async function startMcp(options: McpStartOptions): Promise<RunningMcp> {
  const { settings, log } = options;
  const running = await startAgents({
    settings,
    profiles: options.profiles,
    bus: options.bus,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.botsDir !== undefined ? { botsDir: options.botsDir } : {}),
    chatModel: (profile) => (modelOff(settings, profile) ? new ClientBrain() : undefined),
  });
  const off = (bot: string) => {
    const profile = running.profiles().find((p) => p.name === bot);
    return profile ? modelOff(settings, profile) : settings.mcp_model === 'off';
  };
  const { host, port, version } = running.address;
  const hub = new McpHub(running, {
    client: options.client ?? DEFAULT_CLIENT_NAME,
    actionTimeoutS: settings.action_timeout_s,
    maxChatChars: settings.max_chat_chars,
    modelOff: off,
    where: `${host}:${port} (Minecraft ${version})`,
  });
  let http: McpHttpServer | undefined;
  let ended: Promise<void>;
  try {
    if (options.transport.kind === 'http') {
      const { kind: _, ...httpOptions } = options.transport;
      http = await serveHttp(hub, httpOptions);
      ended = new Promise(() => {});
    } else ended = (await serveStdio(hub, options.transport.out)).closed;
  } catch (err) {
    await hub.close();
    await running.close();
    throw err;
  }
  const names = running.agents.map((a) => a.name);
  const brains = names.filter(off);
  if (options.transport.kind === 'http' && !options.transport.token)
    log(
      'The MCP server asks for no token: any program on this machine can drive the bots. Set MCP_TOKEN (or --token) on a shared machine.',
    );
  log(
    `MCP server ${http ? `on ${http.url}${options.transport.kind === 'http' && options.transport.token ? ' (bearer token required)' : ''}` : 'on stdio'} for ${names.join(', ')}` +
      (brains.length
        ? `; the client is the brain of ${brains.join(', ')} (their own model is off: "mcp_model")`
        : '; the bots keep their own model ("mcp_model": "on")'),
  );
  return {
    running,
    hub,
    http,
    ended,
    async close() {
      await http?.close();
      await hub.close();
      await running.close();
    },
  };
}
