/**
 * One process, all bots: starts the embedded server when the settings ask for it, and connects
 * one mineflayer bot per profile with an agent each, as a {@link Fleet} (./fleet.ts): its chat
 * routed, its connection kept across kicks and disconnects, the set of running bots.
 */
import path from 'node:path';
import { nameResolver } from '../game/names.ts';
import { gameData } from '../game/data.ts';
import type { EmbeddedServer, WorldKind } from '../server/embedded.ts';
import { ConfigError, type Profile, type Settings } from '../settings/index.ts';
import type { Agent } from '../agent/agent.ts';
import type { CommandContext } from '../commands/context.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import type { BotSession, ConnectError, ServerAddress } from '../agent/bot.ts';
import { BotEventBus } from '../agent/events.ts';
import { busSink } from './bot-events.ts';
import { requireUsableModels } from '../agent/model-choice.ts';
import type { RunEventSink } from '../tasks/eval/records.ts';
import { mergedProfileSchema, mergeProfiles, unusedProfileKeysNotice, type MergedProfile } from '../settings/profiles.ts';
import { ExampleLibrary, profileModelSpecs, shippedExamples } from './profile-models.ts';
import { NO_BOT_KEY_NOTICE, resolveBotKey } from './bot-key.ts';
import { announceFallbacks, completed, Fleet, type FleetOptions } from './fleet.ts';
import type { LineSound } from './voice.ts';
import { resolveServer } from '../client/server-version.ts';
import { warmUpAgents } from './warm-up.ts';

/** The world an embedded server generates, and its seed (see `settings.world` and `settings.seed`). */
export interface ServerWorldChoice {
  world: WorldKind;
  /** A survival world's seed; omitted = `settings.seed`, else random. */
  seed?: number;
}

export interface StartOptions {
  settings: Settings;
  /**
   * The embedded server's world; default the settings' (`world`, `seed`). Task runs ask for
   * superflat here.
   */
  serverWorld?: ServerWorldChoice;
  profiles: Profile[];
  /** Replaces every profile's model (e.g. `--model` of a task run). */
  model?: Profile['model'];
  /** Embedded server port; default `settings.port` (0 = any free port). */
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** Folder of the bots' memory files (`<botsDir>/<name>/memory.json`); default `bots`. */
  botsDir?: string;
  /**
   * Receives the text of every log line, the process's and each bot's (as before the event
   * stream). Default: stderr, unless `bus` is given (its subscribers then decide).
   */
  log?: (line: string) => void;
  /**
   * The bots' event stream (`src/agent/events.ts`): chat, model calls with token counts,
   * commands and their outputs, actions, mode switches, connection changes and log lines of
   * every bot. Default: a new bus, returned in {@link RunningBots.bus}.
   */
  bus?: BotEventBus;
  /**
   * Play with the offline oracle when a bot's model cannot be used (default true: `npm start`,
   * which then says so in chat once). False for task runs and evaluations: a model that cannot
   * be used is a ConfigError before any bot joins.
   */
  fallback?: boolean;
  /**
   * Receives every bot's model calls, commands and messages (see `src/app/recording.ts`); task
   * runs record them.
   */
  events?: RunEventSink;
  /** Every command the agents may have (default: all of them); settings and profiles narrow it. */
  commands?: CommandRegistry<CommandContext>;
  /** See {@link FleetOptions.chatModel}: a bot's chat model in place of its profile's. */
  chatModel?: FleetOptions['chatModel'];
}

export interface RunningBots {
  server?: EmbeddedServer;
  address: ServerAddress;
  agents: Agent[];
  /** Each agent's connection, in the order of {@link agents}. */
  sessions: BotSession[];
  /**
   * Settles with a ConnectError (naming the server and the attempts) once every bot has given
   * up rejoining; pending while any bot is online or still trying.
   */
  lost: Promise<ConnectError>;
  /** The event stream of every bot (the `bus` option, or the one made here). */
  bus: BotEventBus;
  /** The (merged) profile of every bot started so far, running or stopped, in start order. */
  profiles(): MergedProfile[];
  /**
   * Starts one more bot from `profile` (completed over `_default` and the base profile like the
   * others), e.g. from the dashboard's form.
   *
   * @throws ConfigError when a bot of that name is running already; ConnectError when it cannot join.
   */
  addBot(profile: Profile): Promise<Agent>;
  /** See {@link Fleet.stop}. */
  stopBot(name: string): Promise<void>;
  /** See {@link Fleet.restart}. */
  restartBot(name: string): Promise<Agent>;
  /** See {@link Fleet.renew}. */
  renewAgents(between?: () => Promise<void>): Promise<Agent[]>;
  /** See {@link Fleet.listenToVoice}. */
  listenToVoice(listener: (sound: LineSound) => void): () => void;
  /** Disconnects every bot and stops the embedded server. */
  close(): Promise<void>;
}

export { reconnectPolicy } from './fleet.ts';

/** The world an embedded server serves, for log lines: `survival world, seed 42, spawn 8 68 -8` or `superflat world`. */
export function describeWorld(server: EmbeddedServer): string {
  if (!server.survival) return `${server.world} world`;
  const { x, y, z, biome } = server.survival.spawn;
  return `survival world, seed ${server.seed}, spawn ${x} ${y} ${z} (${biome})`;
}

export { namesBot } from '../conversation/index.ts';

/**
 * Starts the server (if embedded) and every bot of `profiles`, as one {@link Fleet}.
 *
 * @throws ServerUnreachableError / ServerVersionError / LanError (src/client/) when an "auto"
 *   server does not answer, plays a version the bots cannot, or differs from `minecraft_version`,
 *   or no LAN world is announced;
 *   ConnectError when a bot cannot join within the settings' reconnect attempts; ConfigError
 *   when `bot_transport` is `whisper` and no `bot_key` is set; Error when the embedded server
 *   cannot start or the `bot_key` file cannot be read or written.
 */
export async function startAgents(options: StartOptions): Promise<RunningBots> {
  const { settings: stated } = options;
  const bus = options.bus ?? new BotEventBus();
  // The run records' taps report into the bus, and to the run's own sink when there is one.
  const events = busSink(bus, options.events);
  const lines =
    options.log ??
    (options.bus
      ? undefined
      : (line: string) => {
          process.stderr.write(`${line}\n`);
        });
  const unforward =
    lines &&
    bus.subscribe((event) => {
      if (event.type === 'log') lines(event.text);
    });
  const log = bus.logger('');
  // "auto" versions, an external server's own version and LAN worlds, before anything starts.
  const target = await resolveServer(
    { ...stated, port: options.port ?? stated.port },
    { attempts: stated.reconnect_attempts, delayMs: stated.reconnect_delay_ms, maxDelayMs: stated.reconnect_max_delay_ms, log },
  ).catch((err: unknown) => {
    unforward?.();
    throw err;
  });
  const settings: Settings = { ...stated, minecraft_version: target.version };
  if (options.fallback === false) {
    requireUsableModels(
      options.profiles.flatMap((p) => {
        const specs = profileModelSpecs(p, options.model);
        const owner = options.model ? '--model' : `profile "${p.name}"`;
        return [
          { owner, spec: specs.chat },
          ...(specs.code !== undefined ? [{ owner: `${owner} (code_model)`, spec: specs.code }] : []),
          ...(specs.vision !== undefined ? [{ owner: `${owner} (vision_model)`, spec: specs.vision }] : []),
        ];
      }),
      options.env,
    );
  }
  const world = options.serverWorld ?? { world: settings.world, seed: settings.seed };
  let server: EmbeddedServer | undefined;
  if (settings.server === 'embedded') {
    // Imported here: bots that join another server never load flying-squid and our plugins.
    const { startEmbeddedServer } = await import('../server/embedded.ts');
    server = await startEmbeddedServer({
      port: options.port ?? settings.port,
      version: settings.minecraft_version,
      world: world.world,
      seed: world.seed ?? settings.seed,
      maxPlayers: settings.max_players,
    });
  }
  const address: ServerAddress = {
    host: server?.host ?? target.host,
    port: server?.port ?? target.port,
    version: settings.minecraft_version,
    auth: settings.auth,
  };
  if (server) log(`Embedded Minecraft ${server.version} server on ${server.host}:${server.port}: ${describeWorld(server)}`);
  else log(`Minecraft ${target.version} server at ${target.host}:${target.port} (${target.how})`);
  const botsDir = path.resolve(options.botsDir ?? 'bots');
  let fleet: Fleet | undefined;
  const warming = new AbortController();
  const close = async () => {
    warming.abort();
    await fleet?.close();
    await server?.close();
    unforward?.();
  };
  try {
    // Profiles from loadSettings are merged already; others (tests, tasks) get _default and the base now.
    const profiles = await Promise.all(
      options.profiles.map((p) =>
        mergedProfileSchema.safeParse(p).success ? mergeProfiles([p], `profile of ${p.name}`) : completed(p, settings),
      ),
    );
    const unused = unusedProfileKeysNotice(profiles);
    if (unused) log(unused);
    const { key } = await resolveBotKey(settings.bot_key, botsDir);
    if (!key && settings.bot_transport === 'whisper') {
      throw new ConfigError(
        '"bot_transport": "whisper" needs a "bot_key": set "bot_key": "auto" (processes on this machine) or the same secret text in every process.',
      );
    }
    if (!key && settings.bot_transport === 'auto') log(NO_BOT_KEY_NOTICE);
    fleet = new Fleet({
      settings,
      address,
      data: gameData(settings.minecraft_version),
      names: nameResolver(settings.minecraft_version),
      bus,
      events,
      examples: new ExampleLibrary({ botsDir, env: options.env, log, shipped: await shippedExamples() }),
      botsDir,
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.fallback !== undefined ? { fallback: options.fallback } : {}),
      ...(key ? { botKey: key } : {}),
      transport: key ? settings.bot_transport : 'in-process',
      ...(options.commands ? { commands: options.commands } : {}),
      ...(options.chatModel ? { chatModel: options.chatModel } : {}),
    });
    await fleet.addAll(profiles, settings.join_concurrency);
  } catch (err) {
    await close();
    throw err;
  }
  const running = fleet;
  announceFallbacks(running, log);
  // The first reply as fast as the later ones: each agent's model path warmed in the background (./warm-up.ts).
  void warmUpAgents([...running.agents], { signal: warming.signal, log });
  return {
    server,
    address,
    bus,
    close,
    lost: running.lost,
    get agents() {
      return running.agents;
    },
    get sessions() {
      return running.sessions;
    },
    profiles: () => running.profiles(),
    renewAgents: (between) => running.renew(between),
    addBot: async (profile) => running.add(await completed(profile, settings)),
    stopBot: (name) => running.stop(name),
    restartBot: (name) => running.restart(name),
    listenToVoice: (listener) => running.listenToVoice(listener),
  };
}
