/**
 * One process, all bots: starts the embedded server when the settings ask for it, connects one
 * mineflayer bot per profile, gives each an Agent, and routes chat and bot messages to them.
 * Each bot's connection is a {@link BotSession}: a kicked or disconnected bot rejoins with
 * backoff and keeps its agent (memory, goal, modes); one that gives up stays offline while the
 * others carry on, and {@link RunningBots.lost} settles once every bot has given up.
 */
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { allCommands } from '../commands/index.ts';
import { nameResolver } from '../game/names.ts';
import {
  ChatOutbox,
  CompositeTransport,
  Conversations,
  InProcessHub,
  isEnvelope,
  reachesBot,
  WhisperTransport,
  type Transport,
} from '../conversation/index.ts';
import { gameData } from '../game/data.ts';
import { startEmbeddedServer, type EmbeddedServer } from '../server/embedded.ts';
import { ConfigError, type Profile, type Settings } from '../settings/index.ts';
import { Agent } from '../agent/agent.ts';
import { BotSession, ConnectError, type ReconnectPolicy, type ServerAddress } from '../agent/bot.ts';
import { MemoryStore } from '../agent/memory-store.ts';
import { BotEventBus } from '../agent/events.ts';
import { busSink } from './bot-events.ts';
import { chooseModel, fallbackChatLine, fallbackNotice, requireUsableModels } from '../agent/model-choice.ts';
import type { RunEventSink } from '../tasks/eval/records.ts';
import { recordingCommands, recordingModel, recordingOutbox, recordingTransport } from './recording.ts';
import { completeProfile, mergedProfileSchema, mergeProfiles, unusedProfileKeysNotice, type MergedProfile } from '../settings/profiles.ts';
import { chooseExtraModel, ExampleLibrary, profileModelSpecs, shippedExamples } from './profile-models.ts';
import { NO_BOT_KEY_NOTICE, resolveBotKey } from './bot-key.ts';
import { joinAll } from './join-pool.ts';
import { warmUpAgents } from './warm-up.ts';

export interface StartOptions {
  settings: Settings;
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
  /**
   * Stops one bot: its agent shuts down (memory saved) and it leaves the server. Its profile
   * stays, for {@link restartBot}.
   *
   * @throws ConfigError when no bot of that name is running.
   */
  stopBot(name: string): Promise<void>;
  /**
   * Starts a bot again from its profile with a fresh agent (its memory file restored when
   * `load_memory` is on), stopping it first if it is running.
   *
   * @throws ConfigError for a name no bot has had; ConnectError when it cannot join.
   */
  restartBot(name: string): Promise<Agent>;
  /**
   * Gives every running bot a fresh agent, keeping its connection: each agent is detached (its
   * action, model calls and goal loop stopped, memory saved, conversations and outbox closed,
   * every listener it added to the bot removed) and replaced by a new one built from the same
   * profile, as {@link startAgents} builds them (`init_message` included). The world itself is
   * not touched (see `./warm-world.ts`).
   *
   * @param between runs once the old agents are gone and before the new ones start (a world
   *   reset); its rejection is passed on, after the new agents have started all the same.
   * @returns the new agents, in the order of {@link agents}.
   */
  renewAgents(between?: () => Promise<void>): Promise<Agent[]>;
  /** Disconnects every bot and stops the embedded server. */
  close(): Promise<void>;
}

/** The settings' reconnect policy (see `reconnect_attempts` in `settings/schema.ts`). */
export function reconnectPolicy(settings: Settings): ReconnectPolicy {
  return { attempts: settings.reconnect_attempts, delayMs: settings.reconnect_delay_ms, maxDelayMs: settings.reconnect_max_delay_ms };
}

export { namesBot } from '../conversation/index.ts';

/**
 * Starts the server (if embedded) and every bot of `profiles`.
 *
 * @throws ConnectError when a bot cannot join within the settings' reconnect attempts; ConfigError
 *   when `bot_transport` is `whisper` and no `bot_key` is set; Error when the embedded server
 *   cannot start or the `bot_key` file cannot be read or written.
 */
export async function startAgents(options: StartOptions): Promise<RunningBots> {
  const { settings } = options;
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
  const server =
    settings.server === 'embedded'
      ? await startEmbeddedServer({
          port: options.port ?? settings.port,
          version: settings.minecraft_version,
          maxPlayers: settings.max_players,
        })
      : undefined;
  const address: ServerAddress = {
    host: server?.host ?? settings.host,
    port: server?.port ?? settings.port,
    version: settings.minecraft_version,
    auth: settings.auth,
  };
  if (server) log(`Embedded Minecraft ${server.version} server on ${server.host}:${server.port}`);
  const data = gameData(settings.minecraft_version);
  const names = nameResolver(settings.minecraft_version);
  const hub = new InProcessHub();
  const localNames = new Set(options.profiles.map((p) => p.name));
  const known = new Map<string, MergedProfile>();
  const timings = {
    replyDelayMs: settings.convo_reply_delay_ms,
    busyPartnerDelayMs: settings.convo_busy_partner_delay_ms,
    reminderMs: settings.convo_reminder_ms,
    leaveEndMs: settings.convo_leave_end_ms,
  };
  const agents: Agent[] = [];
  const fallbacks: string[] = [];
  const fellBack: string[] = [];
  // Profiles from loadSettings are merged already; others (tests, tasks) get _default and the base now.
  const profiles = await Promise.all(
    options.profiles.map((p) =>
      mergedProfileSchema.safeParse(p).success
        ? mergeProfiles([p], `profile of ${p.name}`)
        : completeProfile(p, { base: settings.base_profile }),
    ),
  );
  const blockedForAll = [...settings.blocked_actions, ...(settings.allow_insecure_coding ? [] : ['!newAction'])];
  const botsDir = path.resolve(options.botsDir ?? 'bots');
  const examples = new ExampleLibrary({ botsDir, env: options.env, log, shipped: await shippedExamples() });
  const unused = unusedProfileKeysNotice(profiles);
  if (unused) log(unused);
  const sessions: BotSession[] = [];
  const warming = new AbortController();
  const close = async () => {
    warming.abort();
    for (const session of sessions) session.close();
    await Promise.all(agents.map((a) => a.shutdown().catch(() => {})));
    await server?.close();
    unforward?.();
  };
  let gaveUp: (error: ConnectError) => void = () => {};
  const lost = new Promise<ConnectError>((resolve) => {
    gaveUp = resolve;
  });
  const checkLost = () => {
    if (sessions.length && sessions.every((s) => s.state === 'down')) {
      gaveUp(
        new ConnectError(
          `Every bot lost ${address.host}:${address.port} and none could rejoin after ${settings.reconnect_attempts} attempts. Is the server running? Start it, or check "host"/"port" in settings.json.`,
        ),
      );
    }
  };
  let key: string | undefined;
  let mode: Settings['bot_transport'] = 'in-process';
  const policy = reconnectPolicy(settings);
  /** How to take each agent off its bot, keeping the bot (see {@link RunningBots.renewAgents}). */
  const retirements = new Map<Agent, () => Promise<void>>();
  /** Joins one bot to the server: its session, the connection kept up. */
  const connect = (profile: MergedProfile): Promise<BotSession> =>
    BotSession.open(profile.name, address, { policy, log: bus.logger(profile.name) });
  /** Connects one bot (unless `opened` is its session already) and gives it an agent; its chat is routed at once. */
  const launch = async (profile: MergedProfile, opened?: BotSession): Promise<Agent> => {
    known.set(profile.name, profile);
    localNames.add(profile.name);
    const publish = bus.publisher(profile.name);
    const session = opened ?? (await connect(profile));
    sessions.push(session);
    publish({ type: 'connection', state: 'online' });
    session.on('disconnected', (why) => publish({ type: 'connection', state: 'reconnecting', detail: why }));
    session.on('reconnected', () => publish({ type: 'connection', state: 'online' }));
    session.on('down', (error) => publish({ type: 'connection', state: 'down', detail: error.message }));
    session.on('down', checkLost);
    const agent = equip(profile, session);
    log(`${agent.name} joined as ${agent.model.id}`);
    return agent;
  };
  /**
   * Gives a connected bot a new agent: transport, conversations, chat outbox, memory, model and
   * modes of its own, its chat routed to it. Every listener this adds to the bot goes through the
   * session's handle, so `session.bot.removeAllListeners()` takes them all off again.
   */
  const equip = (profile: MergedProfile, session: BotSession): Agent => {
    const publish = bus.publisher(profile.name);
    const botLog = bus.logger(profile.name);
    const bot = session.bot;
    // While the bot is offline its lines are dropped, as a disconnected player's would be.
    const outbox = new ChatOutbox(
      (line) => {
        if (session.online) bot.chat(line);
      },
      {
        burst: settings.chat_burst,
        intervalMs: settings.chat_interval_ms,
        maxQueued: settings.chat_queue_limit,
      },
    );
    // Bots of this process talk in-process; any other bot is found and reached by whispers.
    const whisper =
      key && mode !== 'in-process'
        ? new WhisperTransport(bot, outbox, {
            key,
            skip: mode === 'auto' ? (name) => localNames.has(name) : undefined,
            log: botLog,
          })
        : undefined;
    const carrier: Transport = !whisper
      ? hub.endpoint(profile.name)
      : mode === 'whisper'
        ? whisper
        : new CompositeTransport(hub.endpoint(profile.name), whisper);
    const transport = recordingTransport(carrier, profile.name, events);
    const echo = settings.chat_bot_messages ? (to: string, text: string) => outbox.chat(`(to ${to}) ${text}`) : undefined;
    const conversations = new Conversations(profile.name, transport, { timings, echo, log: botLog });
    bot.on('playerJoined', (player) => conversations.presence(player.username, true));
    bot.on('playerLeft', (player) => conversations.presence(player.username, false));
    const specs = profileModelSpecs(profile, options.model);
    const chooseOptions = { fallback: options.fallback, timeoutMs: settings.model_timeout_s * 1000 };
    const profileExamples = examples.forProfile(profile);
    const agent = new Agent({
      bot,
      data,
      names,
      commands: recordingCommands(allCommands.without([...blockedForAll, ...profile.blocked_actions]), profile.name, events),
      conversations,
      outbox: recordingOutbox(outbox, profile.name, events),
      model: (a) => {
        const choice = chooseModel(specs.chat, a, options.env, chooseOptions);
        if (choice.fallback) {
          fallbacks.push(choice.fallback);
          fellBack.push(a.name);
        }
        return recordingModel(choice.model, a.name, events);
      },
      codeModel: (a) => {
        const model = chooseExtraModel('code_model', specs.code, a, options.env, chooseOptions, botLog);
        return model && recordingModel(model, a.name, events);
      },
      visionModel: (a) => {
        const model = chooseExtraModel('vision_model', specs.vision, a, options.env, chooseOptions, botLog);
        return model && recordingModel(model, a.name, events);
      },
      profile,
      examples: profileExamples.conversing,
      codingExamples: profileExamples.coding,
      numExamples: settings.num_examples,
      memory: MemoryStore.forBot(profile.name, botsDir, { load: settings.load_memory, log: botLog }),
      goalIdleMs: settings.goal_idle_ms,
      codeTimeoutMs: settings.code_timeout_s * 1000,
      allowVision: settings.allow_vision,
      ...(profile.image_analysis !== undefined ? { visionPrompt: profile.image_analysis } : {}),
      maxMessages: settings.max_messages,
      maxCommands: settings.max_commands,
      maxRepeats: settings.max_repeats,
      actionTimeoutMs: settings.action_timeout_s * 1000,
      cooldownMs: profile.cooldown ?? profile.cooldown_ms,
      minModelIntervalMs: settings.min_model_interval_ms,
      maxTokensPerHour: settings.max_tokens_per_hour,
      modelTimeoutMs: settings.model_timeout_s * 1000,
      maxChatChars: settings.max_chat_chars,
      disabledCommands: disabledCommands(settings, profile),
      modes: profile.modes,
      log: botLog,
      events: publish,
    });
    agents.push(agent);
    const forget = keepAcrossReconnects(session, agent, whisper);
    agent.actions.subscribe((event) =>
      publish(
        event.type === 'start'
          ? { type: 'action', phase: 'start', label: event.label }
          : {
              type: 'action',
              phase: 'end',
              label: event.label,
              ok: event.result.ok,
              output: event.result.output,
              ms: event.result.durationMs,
            },
      ),
    );
    routeChat(agent, agents, settings, events);
    retirements.set(agent, async () => {
      await agent.detach('the agent is replaced');
      forget();
      bot.removeAllListeners();
      retirements.delete(agent);
    });
    return agent;
  };
  try {
    ({ key } = await resolveBotKey(settings.bot_key, botsDir));
    if (!key && settings.bot_transport === 'whisper') {
      throw new ConfigError(
        '"bot_transport": "whisper" needs a "bot_key": set "bot_key": "auto" (processes on this machine) or the same secret text in every process.',
      );
    }
    if (!key && settings.bot_transport === 'auto') log(NO_BOT_KEY_NOTICE);
    mode = key ? settings.bot_transport : 'in-process';
    // Side by side, `join_concurrency` at a time (./join-pool.ts); agents are made in the profiles' order.
    const joined = await joinAll(profiles, connect, { concurrency: settings.join_concurrency, discard: quitSession });
    for (const [i, profile] of profiles.entries()) await launch(profile, joined[i]);
  } catch (err) {
    await close();
    throw err;
  }
  if (fallbacks.length) {
    log(fallbackNotice(fallbacks));
    // Players do not read the log: the first bot that fell back says it once in chat.
    agents.find((a) => a.name === fellBack[0])?.outbox.chat(fallbackChatLine(fellBack));
  }
  if (settings.init_message) for (const a of agents) a.receive({ from: 'system', text: settings.init_message, channel: 'system' });
  // The first reply as fast as the later ones: each agent's model path warmed in the background (./warm-up.ts).
  void warmUpAgents([...agents], { signal: warming.signal, log });
  const stopBot = async (name: string): Promise<void> => {
    const i = agents.findIndex((a) => a.name === name);
    if (i < 0)
      throw new ConfigError(`There is no running bot named "${name}" (running: ${agents.map((a) => a.name).join(', ') || 'none'}).`);
    const [agent] = agents.splice(i, 1);
    const j = sessions.findIndex((s) => s.username === name);
    const [session] = j < 0 ? [] : sessions.splice(j, 1);
    session?.close();
    await agent!.shutdown().catch(() => {});
    bus.publish({ type: 'connection', bot: name, state: 'closed', detail: 'stopped' });
  };
  return {
    server,
    address,
    agents,
    sessions,
    lost,
    close,
    bus,
    profiles: () => [...known.values()],
    async renewAgents(between) {
      const bots = agents.map((agent) => ({
        agent,
        session: sessions.find((s) => s.username === agent.name)!,
        profile: known.get(agent.name)!,
      }));
      // Every old agent first: their transports leave the hub before the new ones join it.
      for (const { agent } of bots) await retirements.get(agent)?.();
      agents.length = 0;
      try {
        await between?.();
      } finally {
        for (const { session, profile } of bots) equip(profile, session);
        if (settings.init_message) for (const a of agents) a.receive({ from: 'system', text: settings.init_message, channel: 'system' });
      }
      return [...agents];
    },
    async addBot(profile) {
      if (agents.some((a) => a.name === profile.name)) throw new ConfigError(`A bot named "${profile.name}" is running already.`);
      const agent = await launch(await completeProfile(profile, { base: settings.base_profile }));
      if (settings.init_message) agent.receive({ from: 'system', text: settings.init_message, channel: 'system' });
      return agent;
    },
    stopBot,
    async restartBot(name) {
      const profile = known.get(name);
      if (!profile) throw new ConfigError(`There is no bot named "${name}" (bots: ${[...known.keys()].join(', ') || 'none'}).`);
      if (agents.some((a) => a.name === name)) await stopBot(name);
      return launch(profile);
    },
  };
}

/** Takes a joined bot without an agent off the server (a start-up that failed for another bot). */
function quitSession(session: BotSession): void {
  session.close();
  session.current.quit();
}

/**
 * Keeps the agent whole across its bot's reconnects: while offline its action is stopped and
 * its goal loop paused (goal, memory and modes stay); once back, an action started while
 * offline is stopped too, the whisper transport proves itself to every player again, players
 * online are marked present, and the goal loop resumes.
 */
function keepAcrossReconnects(session: BotSession, agent: Agent, whisper: WhisperTransport | undefined): () => void {
  const disconnected = (why: string) => {
    agent.selfPrompter.pause();
    void agent.actions.stop(`${agent.name} ${why}`).then(() => {
      if (!session.online) agent.selfPrompter.pause();
    });
  };
  const reconnected = () => {
    if (agent.actions.current) void agent.actions.stop('the bot rejoined the server');
    whisper?.rejoined();
    for (const name of Object.keys(session.bot.players)) if (name !== agent.name) agent.conversations.presence(name, true);
    agent.selfPrompter.idle();
  };
  session.on('disconnected', disconnected);
  session.on('reconnected', reconnected);
  return () => {
    session.off('disconnected', disconnected);
    session.off('reconnected', reconnected);
  };
}

/**
 * The commands a bot lacks by configuration, each with how to enable it (told to a player or
 * the model who names one).
 */
function disabledCommands(settings: Settings, profile: Profile): Record<string, string> {
  const how: Record<string, string> = {};
  const bang = (name: string) => `!${name.replace(/^!/, '')}`;
  for (const name of profile.blocked_actions) how[bang(name)] = `remove it from "blocked_actions" in the profile of ${profile.name}`;
  for (const name of settings.blocked_actions) how[bang(name)] = 'remove it from "blocked_actions" in settings.json';
  if (!settings.allow_insecure_coding)
    how['!newAction'] = 'set "allow_insecure_coding": true in settings.json (the model\'s code then runs in a sandbox)';
  for (const name of Object.keys(how)) if (!allCommands.get(name)) delete how[name];
  return how;
}

/**
 * Sends players' whispers and public chat to the agent, under the settings' rules
 * ({@link reachesBot}); bot envelopes belong to the whisper transport, never to the agent.
 */
function routeChat(agent: Agent, agents: Agent[], settings: Settings, events?: RunEventSink): void {
  const bot: Bot = agent.bot;
  // Read at each message: bots may be added or stopped (the dashboard) while this one runs.
  const ours = () => new Set(agents.map((a) => a.name));
  const rules = () => ({
    self: agent.name,
    botCount: new Set([...ours(), ...agent.conversations.others()]).size,
    onlyChatWith: settings.only_chat_with,
    isBot: (name: string) => ours().has(name) || agent.conversations.isBot(name),
  });
  const heard = (from: string, text: string, channel: 'whisper' | 'public') => {
    events?.emit({ type: 'message', t: Date.now(), agent: agent.name, direction: 'received', peer: from, channel, text });
    agent.receive({ from, text, channel });
  };
  bot.on('whisper', (from, text) => {
    if (!isEnvelope(text) && reachesBot(rules(), from, text, 'whisper')) heard(from, text, 'whisper');
  });
  bot.on('chat', (from, text) => {
    if (reachesBot(rules(), from, text, 'public')) heard(from, text, 'public');
  });
}
