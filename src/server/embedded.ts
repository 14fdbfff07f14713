/**
 * The embedded Minecraft server: flying-squid started in-process, extended by our plugins
 * (see `./plugins/`). It lets bots run on a machine with no Minecraft installed.
 */
import { createRequire } from 'node:module';
import { builtinPlugins } from './plugins/index.ts';

const require = createRequire(import.meta.url);
// flying-squid is CommonJS without types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const flyingSquid: any = require('flying-squid');

/** Default Minecraft version of the embedded server (the newest flying-squid 1.12 supports). */
export const DEFAULT_SERVER_VERSION = '1.21.4';

/** A flying-squid server object (untyped upstream). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SquidServer = any;

/** Plugin installed on a started flying-squid server (our own mechanics). */
export type ServerPlugin = (serv: SquidServer) => void;

export interface EmbeddedServerOptions {
  /** TCP port; 0 picks a free one (read it back from {@link EmbeddedServer.port}). */
  port: number;
  /** Minecraft version, e.g. `1.21.4`; flying-squid supports 1.8.8 – 1.21.4. */
  version?: string;
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Folder to persist the world in; omitted = in memory only. */
  worldFolder?: string;
  /** Print flying-squid's own log lines; default false. */
  logging?: boolean;
  /** Maximum simultaneous players; default 50. */
  maxPlayers?: number;
  /** Extra plugins to install after ours (`./plugins/index.ts`). */
  plugins?: ServerPlugin[];
}

export interface EmbeddedServer {
  serv: SquidServer;
  host: string;
  port: number;
  version: string;
  /** Stops the server and disconnects everyone; resolves within about 1 s. */
  close(): Promise<void>;
}

/**
 * Starts flying-squid in this process: offline mode, superflat, every player op.
 *
 * @throws Error when the version is unsupported, or the port cannot be bound within 10 s.
 */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const version = options.version ?? DEFAULT_SERVER_VERSION;
  const host = options.host ?? '127.0.0.1';
  // createMCServer does not merge its default settings: pass all of them.
  const settings = {
    motd: 'mindcraft-ts embedded server',
    port: options.port,
    host,
    'max-players': options.maxPlayers ?? 50,
    'online-mode': false,
    logging: options.logging ?? false,
    gameMode: 0,
    difficulty: 1,
    worldFolder: options.worldFolder,
    generation: { name: 'superflat', options: { worldHeight: 80 } },
    kickTimeout: 10_000,
    plugins: {},
    modpe: false,
    'view-distance': 4,
    'player-list-text': { header: { text: 'mindcraft-ts' }, footer: { text: '' } },
    'everybody-op': true,
    'max-entities': 200,
    version,
  };
  const serv: SquidServer = flyingSquid.createMCServer(settings);
  // flying-squid's errorHandler plugin installs process-wide handlers that call process.exit();
  // it skips them when serv.debug is set. We log through our own code instead.
  serv.debug ??= () => {};
  const failed = new Promise<never>((_, reject) => serv.once('error', reject));
  await Promise.race([serv.waitForReady(10_000), failed]);
  for (const plugin of [...builtinPlugins, ...(options.plugins ?? [])]) plugin(serv);
  return {
    serv,
    host,
    port: serv.listeningPort ?? options.port,
    version,
    async close() {
      await serv.destroy().catch(() => {});
    },
  };
}
