/**
 * The embedded Minecraft server: flying-squid started in-process, extended by our plugins
 * (the ordered list in ./plugins.ts: services in ./services/, features in ./features/). It lets
 * bots run on a machine with no Minecraft installed.
 */
import { existsSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import { DEFAULT_MINECRAFT_VERSION, SERVER_VERSIONS } from '../game/versions.ts';
import { checkpointPlugins, installPlugins, resetPlugins, validatePlugins, type ServerPlugin } from './plugin.ts';
import { BUILTIN_PLUGINS } from './plugins.ts';
import { registerSuperflat, VANILLA_SUPERFLAT } from './services/superflat.ts';
import type { SquidServer } from './types.ts';
import { pregenerate, survivalWorldPlugin } from './worldgen/plugin.ts';
import { MAX_SEED, MIN_SEED, registerSurvival, SURVIVAL, SurvivalWorld } from './worldgen/world.ts';
import { applyUpstreamFixes } from '../upstream/index.ts';
import { patientReadiness } from './readiness.ts';

export type { ServerPlugin } from './plugin.ts';
export type { SquidServer } from './types.ts';
export { findSpawn, findSpot, treesNear, type Spot, type SpotQuery } from './worldgen/spawn.ts';
export { BIOMES, type BiomeName } from './worldgen/blocks.ts';
export { ANIMAL_NAMES, type AnimalName } from './worldgen/animals.ts';
export { SURVIVAL_BLOCKS, WorldSurvey, type Place } from './worldgen/survey.ts';
export { MAX_SEED, MIN_SEED, SurvivalWorld } from './worldgen/world.ts';

/**
 * The worlds the embedded server generates: `superflat`, vanilla's Classic Flat
 * (./services/superflat.ts), or `survival`, a seeded overworld with biomes, trees, plants, caves,
 * ores and animals (./worldgen/).
 */
export const WORLD_KINDS = ['superflat', 'survival'] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];

/** How long the server may take to load its plugins and listen, in ms (a loaded machine takes seconds). */
const READY_MS = 30_000;
/** The server's view distance, in chunks (flying-squid's `view-distance`). */
const VIEW_DISTANCE = 4;
/** flying-squid's `max-entities` (players, mobs and item drops together) per world kind. */
const MAX_ENTITIES: Record<WorldKind, number> = { superflat: 200, survival: 1000 };

const require = createRequire(import.meta.url);
// flying-squid is CommonJS without types: ./types.ts describes what we use of it.
// flying-squid refuses versions after its own newest (1.21.4); our plugins serve up to the newest
// of SERVER_VERSIONS, which startEmbeddedServer checks itself. Set before flying-squid's index
// reads it.
(require('flying-squid/src/lib/version') as { latestSupportedVersion: string }).latestSupportedVersion = SERVER_VERSIONS.at(-1)!;
patientReadiness(); // before flying-squid's index takes its helper (./readiness.ts)
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
  /** Minecraft version, one of {@link SERVER_VERSIONS} (1.21.1, 1.21.4, 1.21.11); default {@link DEFAULT_MINECRAFT_VERSION}. */
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
  /** The world to generate; default `superflat`. A `worldFolder` keeps the kind it was made with. */
  world?: WorldKind;
  /**
   * Seed of a survival world, a whole number from −2³¹ to 2³¹ − 1; default a random one. A
   * `worldFolder` keeps the seed it was made with (a different one here is an error).
   */
  seed?: number;
}

/** A started embedded server. */
export interface EmbeddedServer {
  /** The flying-squid server, typed as far as our plugins use it. */
  serv: SquidServer;
  host: string;
  port: number;
  version: string;
  /** The world it serves. */
  world: WorldKind;
  /** The world's seed (a survival world's shape; a superflat world ignores it). */
  seed: number;
  /** The survival world's generator and spawn (survival worlds only). */
  survival?: SurvivalWorld;
  /**
   * Takes note of the world as it is now (every plugin's `checkpoint`: the players as they stand,
   * the time, the settings; the block journal starts afresh), for {@link reset}.
   */
  checkpoint(): void;
  /**
   * Puts the world back as at the last {@link checkpoint} (or as it started): every plugin's
   * `reset`, in install order (see ./plugins.ts).
   *
   * @throws Error naming the plugin that could not reset (the world is then not to be reused).
   */
  reset(): Promise<void>;
  /**
   * Stops the server: disconnects every player cleanly (they see "Server closed"), stops the tick
   * loop and closes the port. Resolves within about 2 s; calling it again is a no-op.
   */
  close(): Promise<void>;
}

/**
 * Starts flying-squid in this process: offline mode, every player op, and the world of
 * `options.world`: vanilla superflat (./services/superflat.ts) or a seeded survival world
 * (./worldgen/), whose spawn is in a forest and whose surroundings are generated before it
 * accepts players.
 *
 * @throws Error when the version is not one of {@link SERVER_VERSIONS}, the port is taken or cannot be bound within {@link READY_MS}, the
 *   plugin list is invalid (a `requires` entry missing or listed after its user), the seed is not a
 *   32-bit whole number, or `worldFolder` holds another kind of world or another seed; RangeError
 *   for a `maxPlayers` or `maxEntities` that is not a whole number ≥ 1.
 */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const version = options.version ?? DEFAULT_MINECRAFT_VERSION;
  if (!(SERVER_VERSIONS as readonly string[]).includes(version))
    throw new Error(
      `The embedded server plays Minecraft ${SERVER_VERSIONS.join(', ')}, not "${version}": set "minecraft_version" to one of them (or "auto" for ${DEFAULT_MINECRAFT_VERSION}), or join a server of that version with "server": "external".`,
    );
  const host = options.host ?? '127.0.0.1';
  const kind = options.world ?? 'superflat';
  if (!WORLD_KINDS.includes(kind)) throw new Error(`world "${String(kind)}" is not one of ${WORLD_KINDS.join(', ')}`);
  if (options.seed !== undefined && (!Number.isInteger(options.seed) || options.seed < MIN_SEED || options.seed > MAX_SEED))
    throw new Error(`seed ${options.seed} is not a whole number from ${MIN_SEED} to ${MAX_SEED}`);
  const seed = await worldSeed(kind, version, options);
  const survival = kind === 'survival' ? new SurvivalWorld(seed) : undefined;
  const plugins = [...BUILTIN_PLUGINS, ...(survival ? [survivalWorldPlugin(survival, VIEW_DISTANCE)] : []), ...(options.plugins ?? [])];
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
    // Vanilla 1.21 superflat: bedrock y = -64, dirt -63..-62, grass -61, players at -60. Our
    // generators take the seed from here (flying-squid replaces a 0 with a random one, so the
    // survival world carries its own).
    generation: survival
      ? { name: SURVIVAL, options: { seed, survival } as { seed?: number; survival: SurvivalWorld } }
      : { name: VANILLA_SUPERFLAT, options: { seed } as { seed?: number } },
    kickTimeout: 10_000,
    plugins: {},
    modpe: false,
    'view-distance': VIEW_DISTANCE,
    'player-list-text': { header: { text: 'mindcraft-ts' }, footer: { text: '' } },
    'everybody-op': true,
    // Non-player entities only: ./features/player-limits.ts keeps players out of flying-squid's count.
    'max-entities': options.maxEntities ?? MAX_ENTITIES[kind],
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
  registerSurvival();
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
    await Promise.race([serv.waitForReady(READY_MS), failed]);
  } catch (err) {
    await closeServer(serv); // its clock and world saving run already
    throw err;
  }
  serv.seed = seed;
  installPlugins(serv, plugins);
  if (survival) {
    try {
      // The spawn's surroundings, as far as the first players are sent (the service generates
      // further ahead of them as they move).
      await pregenerate(serv, VIEW_DISTANCE);
    } catch (err) {
      await closeServer(serv);
      throw err;
    }
  }
  let closing: Promise<void> | undefined;
  return {
    serv,
    host,
    port: serv.listeningPort ?? options.port,
    version,
    world: kind,
    seed,
    survival,
    checkpoint: () => checkpointPlugins(serv, plugins),
    reset: () => resetPlugins(serv, plugins),
    close: () => (closing ??= closeServer(serv)),
  };
}

/** level.dat's `generatorName` for each world kind (vanilla's names: `flat`, `default`). */
const GENERATOR_NAMES: Record<WorldKind, string> = { superflat: 'flat', survival: 'default' };

/**
 * The world's seed: from `worldFolder`'s level.dat when there is one (checked against the kind
 * and seed asked for), else `options.seed`, else a random one. A new survival world's level.dat is
 * written here, with vanilla's generator name (flying-squid would write `customized`).
 *
 * @throws Error when the folder holds another kind of world or another seed.
 */
async function worldSeed(kind: WorldKind, version: string, options: EmbeddedServerOptions): Promise<number> {
  const seed = options.seed ?? randomInt(MIN_SEED, MAX_SEED);
  if (!options.worldFolder) return seed;
  const { level } = require('prismarine-provider-anvil') as {
    level: {
      readLevel(file: string): Promise<{ RandomSeed: [number, number]; generatorName?: string }>;
      writeLevel(file: string, value: object): Promise<void>;
    };
  };
  const file = path.join(options.worldFolder, 'level.dat');
  if (!existsSync(file)) {
    if (kind === 'survival') {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(options.worldFolder, { recursive: true });
      await level.writeLevel(file, { RandomSeed: [seed, 0], Version: { Name: version }, generatorName: GENERATOR_NAMES.survival });
    }
    return seed;
  }
  const data = await level.readLevel(file);
  const stored = data.RandomSeed[0];
  const storedKind = data.generatorName === GENERATOR_NAMES.superflat ? 'superflat' : 'survival';
  if (storedKind !== kind)
    throw new Error(
      `The world folder ${options.worldFolder} holds a ${storedKind} world, not a ${kind} one: set "world": "${storedKind}", or use another folder for a ${kind} world.`,
    );
  if (options.seed !== undefined && options.seed !== stored)
    throw new Error(
      `The world folder ${options.worldFolder} holds the world of seed ${stored}, not ${options.seed}: drop "seed" to reopen it, or use another folder for seed ${options.seed}.`,
    );
  return stored;
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
