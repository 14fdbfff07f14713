/**
 * The embedded Minecraft server: flying-squid started in-process, extended by our plugins
 * (the ordered list in ./plugins.ts: services in ./services/, features in ./features/). It lets
 * bots run on a machine with no Minecraft installed.
 */
import { createRequire } from 'node:module';
import { DEFAULT_MINECRAFT_VERSION } from '../game/versions.ts';
import { installPlugins, validatePlugins, type ServerPlugin } from './plugin.ts';
import { BUILTIN_PLUGINS } from './plugins.ts';
import { registerSuperflat, VANILLA_SUPERFLAT } from './services/superflat.ts';
import type { SquidServer } from './types.ts';
import { applyUpstreamFixes } from '../upstream/index.ts';

export type { ServerPlugin } from './plugin.ts';
export type { SquidServer } from './types.ts';

const require = createRequire(import.meta.url);
// flying-squid is CommonJS without types: ./types.ts describes what we use of it.
const flyingSquid = require('flying-squid') as { createMCServer(settings: object): SquidServer };

/**
 * Runs `load` without the console prompt flying-squid's log module opens on stdin/stdout when its
 * plugins are first loaded (it prints "> ", moves the cursor and keeps stdin open); our CLI owns
 * the terminal.
 */
function withoutConsolePrompt<T>(load: () => T): T {
  const readline = require('node:readline') as typeof import('node:readline');
  const patched = readline as { createInterface: unknown; cursorTo: unknown };
  const { createInterface, cursorTo } = patched;
  const silent = {
    setPrompt() {},
    prompt() {},
    on() {
      return silent;
    },
    close() {},
  };
  patched.createInterface = () => silent;
  patched.cursorTo = () => true;
  try {
    return load();
  } finally {
    patched.createInterface = createInterface;
    patched.cursorTo = cursorTo;
  }
}

/** Severity of a flying-squid log line. */
export type ServerLogLevel = 'info' | 'warn' | 'error' | 'log';

/** Callback that receives flying-squid's log lines (text without colours or timestamp). */
export type ServerLogger = (level: ServerLogLevel, message: string) => void;

/** How to start the embedded server. */
export interface EmbeddedServerOptions {
  /** TCP port; 0 picks a free one (read it back from {@link EmbeddedServer.port}). */
  port: number;
  /** Minecraft version, e.g. `1.21.4`; flying-squid supports 1.8.8 – 1.21.4. */
  version?: string;
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Folder to persist the world in; omitted = in memory only. */
  worldFolder?: string;
  /**
   * Print flying-squid's own log lines (INFO/WARN/ERROR) to the console; default false (silent).
   * Ignored when {@link logger} is given. flying-squid's log *files* (`logs/`) are never written.
   */
  logging?: boolean;
  /** Receives flying-squid's log lines instead of the console (e.g. to forward to our own logger). */
  logger?: ServerLogger;
  /**
   * Players online at most (vanilla's `max-players`); one more is refused at login with vanilla's
   * "The server is full!" (`multiplayer.disconnect.server_full`). Default 50.
   */
  maxPlayers?: number;
  /** Mobs, items and other non-player entities at most (players never count); default 200. */
  maxEntities?: number;
  /** Extra plugins to install after ours (./plugins.ts); their `requires` may name ours. */
  plugins?: ServerPlugin[];
}

/** A started embedded server. */
export interface EmbeddedServer {
  /** The flying-squid server, typed as far as our plugins use it. */
  serv: SquidServer;
  host: string;
  port: number;
  version: string;
  /**
   * Stops the server: disconnects every player cleanly (they see "Server closed"), stops the tick
   * loop and closes the port. Resolves within about 2 s; calling it again is a no-op.
   */
  close(): Promise<void>;
}

/**
 * Starts flying-squid in this process: offline mode, vanilla superflat (./services/superflat.ts),
 * every player op.
 *
 * @throws Error when the version is unsupported, the port is taken or cannot be bound within 10 s, or the
 *   plugin list is invalid (a `requires` entry missing or listed after its user); RangeError for a
 *   `maxPlayers` or `maxEntities` that is not a whole number ≥ 1.
 */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const version = options.version ?? DEFAULT_MINECRAFT_VERSION;
  const host = options.host ?? '127.0.0.1';
  const plugins = [...BUILTIN_PLUGINS, ...(options.plugins ?? [])];
  validatePlugins(plugins); // before anything starts: a bad list must not leave a port bound
  for (const [name, value] of [
    ['maxPlayers', options.maxPlayers],
    ['maxEntities', options.maxEntities],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      throw new RangeError(`${name} must be a whole number ≥ 1, got ${value}`);
  }
  // createMCServer does not merge its default settings: pass all of them.
  const settings = {
    motd: 'mindcraft-ts embedded server',
    port: options.port,
    host,
    'max-players': options.maxPlayers ?? 50,
    'online-mode': false,
    // flying-squid's `logging` means "write logs/<time>.log"; console output is routed below.
    logging: false,
    noConsoleOutput: true,
    // Setting `debug` also keeps flying-squid's errorHandler from installing process-wide
    // uncaughtException/unhandledRejection handlers (which call process.exit()).
    debug: () => {},
    gameMode: 0,
    difficulty: 1,
    worldFolder: options.worldFolder,
    // Vanilla 1.21 superflat: bedrock y = -64, dirt -63..-62, grass -61, players at -60.
    generation: { name: VANILLA_SUPERFLAT, options: {} as { seed?: number } },
    kickTimeout: 10_000,
    plugins: {},
    modpe: false,
    'view-distance': 4,
    'player-list-text': { header: { text: 'mindcraft-ts' }, footer: { text: '' } },
    'everybody-op': true,
    // Non-player entities only: ./features/player-limits.ts keeps players out of flying-squid's count.
    'max-entities': options.maxEntities ?? 200,
    // minecraft-protocol would otherwise compile ajv validators for the plugin-channel protocol on
    // every login (a quarter of the server's CPU while bots join, 2 MB of heap per client); the
    // channels' data is still parsed (mineflayer's client turns it off the same way).
    validateChannelProtocol: false,
    // minecraft-protocol's default handler of a client's error prints it and ends the client with
    // the Error itself as the reason, which cannot be serialised into the kick packet: that throws
    // another error, and so on (hundreds of lines when many bots drop at once, EPIPE). The reason
    // goes out as text; the error reaches our log through flying-squid's `clientError`.
    hideErrors: true,
    errorHandler: (client: { end(reason: string): void }, err: Error) => client.end(err.message),
    version,
  };
  registerSuperflat();
  applyUpstreamFixes(); // minecraft-data and minecraft-protocol hot spots (src/upstream/), each skipped once fixed upstream
  // flying-squid's log plugin replaces console.log when stdout is a TTY: keep ours.
  const consoleLog = console.log;
  const serv = withoutConsolePrompt(() => flyingSquid.createMCServer(settings));
  // Each of our plugins listens for new players; more than Node's default warning threshold of 10.
  serv.setMaxListeners(50);
  console.log = consoleLog;
  // Read by our plugins that persist state of their own (./services/block-entities.ts).
  serv.worldFolder = options.worldFolder;
  routeServerLog(serv, options);
  const failed = new Promise<never>((_, reject) =>
    serv.once('error', (err: unknown) =>
      reject(
        (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? new Error(
              `The Minecraft port ${options.port} on ${host} is taken (another server, or another mindcraft-ts): set "port" in settings.json to a free port.`,
            )
          : err,
      ),
    ),
  );
  try {
    await Promise.race([serv.waitForReady(10_000), failed]);
  } catch (err) {
    await closeServer(serv); // its clock and world saving run already
    throw err;
  }
  // flying-squid writes the seed it generated (or read from level.dat) into the generation options.
  serv.seed = (settings.generation.options as { seed?: number }).seed;
  installPlugins(serv, plugins);
  let closing: Promise<void> | undefined;
  return {
    serv,
    host,
    port: serv.listeningPort ?? options.port,
    version,
    close: () => (closing ??= closeServer(serv)),
  };
}

/** Time to wait for each player's disconnect during {@link EmbeddedServer.close}, in ms. */
const DISCONNECT_TIMEOUT_MS = 1_000;

/**
 * Replaces flying-squid's console logger (set up synchronously by `createMCServer`, before its
 * first line is logged) with `options.logger`, the console (`logging: true`) or nothing.
 */
function routeServerLog(serv: SquidServer, options: EmbeddedServerOptions): void {
  const sink: ServerLogger | undefined =
    options.logger ??
    (options.logging
      ? (level, message) => (level === 'error' ? console.error : console.log)(`[${level.toUpperCase()}] ${message}`)
      : undefined);
  const emit =
    (level: ServerLogLevel) =>
    (message: unknown): void => {
      sink?.(level, String(message));
    };
  serv.log = emit('log');
  serv.info = emit('info');
  serv.warn = emit('warn');
  serv.err = emit('error');
}

/**
 * Disconnects players before destroying the server: flying-squid's `destroy()` makes every
 * remaining player's `write` throw "Tried to write to a closed connection", and its disconnect
 * handler (logout.js) then writes to them and crashes asynchronously.
 */
async function closeServer(serv: SquidServer): Promise<void> {
  serv.stopTickInterval?.();
  const players = [...serv.players];
  await Promise.all(
    players.map(
      (player) =>
        new Promise<void>((resolve) => {
          if (player.disconnected) {
            resolve();
            return;
          }
          const timer = setTimeout(resolve, DISCONNECT_TIMEOUT_MS);
          player.once('disconnected', () => {
            clearTimeout(timer);
            resolve();
          });
          player._client.end('Server closed');
        }),
    ),
  );
  await saveWorlds(serv);
  await serv.destroy().catch(() => {});
}

/** Time allowed for writing the world's changed chunks during {@link EmbeddedServer.close}, in ms. */
const SAVE_TIMEOUT_MS = 5_000;

/**
 * Writes every loaded chunk to the world folder and stops prismarine-world's periodic saving
 * (every 1 s, never stopped by flying-squid), so a server started again on the same folder sees
 * every block edit. All loaded chunks are written, not only the queued ones: prismarine-world
 * drops a chunk from its queue when it changes while a periodic save is in flight. No-op for
 * in-memory worlds.
 */
async function saveWorlds(serv: SquidServer): Promise<void> {
  const deadline = Date.now() + SAVE_TIMEOUT_MS;
  for (const world of [serv.overworld, serv.netherworld]) {
    if (!world?.storageProvider) continue;
    if (world.savingInt) clearInterval(world.savingInt);
    while (world.currentlySaving && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const { chunkX, chunkZ } of world.getColumns()) world.queueSaving(Number(chunkX), Number(chunkZ));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      world.saveNow().catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      }),
    ]);
    clearTimeout(timer);
  }
}
