/**
 * A fleet of bots in one process: each bot's connection ({@link BotSession}), its agent, and
 * the set of running bots, with add, stop, restart, renew and close. A kicked or disconnected
 * bot rejoins with backoff and keeps its agent (paused while offline: memory, goal and modes
 * stay); one that gives up stays offline while the others carry on, and {@link Fleet.lost}
 * settles once every bot has given up.
 */
import type { Bot } from 'mineflayer';
import { Agent } from '../agent/agent.ts';
import { BotSession, ConnectError, type ReconnectPolicy, type ServerAddress } from '../agent/bot.ts';
import { BotEventBus } from '../agent/events.ts';
import { MemoryStore } from '../agent/memory-store.ts';
import { chooseModel, fallbackChatLine, fallbackNotice } from '../agent/model-choice.ts';
import type { CommandContext } from '../commands/context.ts';
import { allCommands } from '../commands/index.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import {
  ChatOutbox,
  CompositeTransport,
  Conversations,
  InProcessHub,
  isEnvelope,
  reachesBot,
  WhisperTransport,
  type ConversationTimings,
  type Transport,
} from '../conversation/index.ts';
import type { GameData } from '../game/data.ts';
import type { ChatModel } from '../models/types.ts';
import type { NameResolver } from '../game/names.ts';
import { ConfigError, type Profile, type Settings } from '../settings/index.ts';
import { completeProfile, type MergedProfile } from '../settings/profiles.ts';
import type { RunEventSink } from '../tasks/eval/records.ts';
import { agentOptionsFrom, blockedForAll } from './agent-options.ts';
import { joinAll } from './join-pool.ts';
import { chooseExtraModel, type ExampleLibrary, profileModelSpecs } from './profile-models.ts';
import { recordingCommands, recordingModel, recordingOutbox, recordingTransport } from './recording.ts';
import { chooseEngine, Voice, type LineSound } from './voice.ts';

/** What every bot of a fleet shares. */
export interface FleetOptions {
  settings: Settings;
  address: ServerAddress;
  data: GameData;
  names: NameResolver;
  bus: BotEventBus;
  /** The run records' taps (see `./recording.ts`), published on the bus too. */
  events: RunEventSink;
  examples: ExampleLibrary;
  /** Folder of the bots' memory files (`<botsDir>/<name>/memory.json`). */
  botsDir: string;
  /** Replaces every profile's model (e.g. `--model` of a task run). */
  model?: Profile['model'];
  env?: NodeJS.ProcessEnv;
  /** Play with the offline oracle when a bot's model cannot be used (see `StartOptions.fallback`). */
  fallback?: boolean;
  /** The key of the whisper transport (bots of other processes), if any. */
  botKey?: string;
  /** How bots reach each other (`bot_transport`, `in-process` without a key). */
  transport: Settings['bot_transport'];
  /** Every command the agents may have (default: all of them, `allCommands`); settings and profiles narrow it. */
  commands?: CommandRegistry<CommandContext>;
  /**
   * A bot's chat model in place of its profile's, or undefined to keep that: an MCP client that
   * is the bot's brain gives a model that never answers (`src/app/mcp/client-brain.ts`).
   */
  chatModel?: (profile: MergedProfile) => ChatModel | undefined;
}

/** The settings' reconnect policy (see `reconnect_attempts` in `settings/schema.ts`). */
export function reconnectPolicy(settings: Settings): ReconnectPolicy {
  return { attempts: settings.reconnect_attempts, delayMs: settings.reconnect_delay_ms, maxDelayMs: settings.reconnect_max_delay_ms };
}

/** The conversation timings of the settings. */
function timingsOf(settings: Settings): ConversationTimings {
  return {
    replyDelayMs: settings.convo_reply_delay_ms,
    busyPartnerDelayMs: settings.convo_busy_partner_delay_ms,
    reminderMs: settings.convo_reminder_ms,
    leaveEndMs: settings.convo_leave_end_ms,
  };
}

/** One bot of the fleet. */
interface Member {
  profile: MergedProfile;
  session: BotSession;
  agent: Agent;
  /** Takes the agent off its bot, keeping the bot (see {@link Fleet.renew}). */
  retire(): Promise<void>;
}

/**
 * The running bots of one process.
 *
 * @example
 * const fleet = new Fleet({ settings, address, data, names, bus, events, examples, botsDir, transport: 'in-process' });
 * await fleet.add(profile);
 * fleet.agents[0]?.receive({ from: 'Steve', text: 'hi', channel: 'whisper' });
 * await fleet.close();
 */
export class Fleet {
  readonly #options: FleetOptions;
  readonly #hub = new InProcessHub();
  /** Names of this process's bots, also those started later (whispers skip them). */
  readonly #local = new Set<string>();
  /** Every profile started so far, running or stopped, by name. */
  readonly #known = new Map<string, MergedProfile>();
  readonly #members: Member[] = [];
  /** Every connection opened and not stopped, for {@link lost}. */
  readonly #sessions: BotSession[] = [];
  /** Why each session that gave up did so, for {@link lost}. */
  readonly #downs = new Map<BotSession, ConnectError>();
  /** Why models were replaced by the oracle, and for whom. */
  readonly #fallbacks: { reason: string; bot: string }[] = [];
  /** Reads the speaking bots' public chat aloud (`speak`); made when the first one starts. */
  #voice: Voice | undefined;
  /** Who gets the voice's lines as sound (the dashboard's pages), whether the voice exists yet or not. */
  readonly #voiceListeners = new Set<(sound: LineSound) => void>();
  #gaveUp: (error: ConnectError) => void = () => {};
  /**
   * Settles once every bot has given up rejoining, with a ConnectError naming the server and
   * each bot's real cause: refused for good (a ban, the whitelist: `failure` is `refused`), a
   * server that does not answer (`unreachable`: "Is the server running?"), or kicks and lost
   * connections (`dropped`). Pending while any bot is online or still trying.
   */
  readonly lost: Promise<ConnectError>;

  constructor(options: FleetOptions) {
    this.#options = options;
    this.lost = new Promise<ConnectError>((resolve) => {
      this.#gaveUp = resolve;
    });
  }

  /** The running agents, in start order. */
  get agents(): Agent[] {
    return this.#members.map((m) => m.agent);
  }

  /**
   * Each bot's connection, in the order of {@link agents}; also while {@link renew} has taken the
   * agents off their bots (a world reset reads the bots then).
   */
  get sessions(): BotSession[] {
    return [...this.#sessions];
  }

  /** The (merged) profile of every bot started so far, running or stopped, in start order. */
  profiles(): MergedProfile[] {
    return [...this.#known.values()];
  }

  /** The models replaced by the oracle so far (their reasons), for one notice at start-up. */
  takeFallbacks(): { reasons: string[]; bots: string[] } {
    const taken = this.#fallbacks.splice(0);
    return { reasons: taken.map((f) => f.reason), bots: taken.map((f) => f.bot) };
  }

  /**
   * Connects one bot of `profile` and gives it an agent; its chat is routed at once.
   *
   * @throws ConfigError when a bot of that name is running already; ConnectError when it cannot join.
   */
  async add(profile: MergedProfile, opened?: BotSession): Promise<Agent> {
    if (this.#members.some((m) => m.profile.name === profile.name))
      throw new ConfigError(`A bot named "${profile.name}" is running already.`);
    const { bus } = this.#options;
    this.#known.set(profile.name, profile);
    this.#local.add(profile.name);
    const publish = bus.publisher(profile.name);
    const session = opened ?? (await this.#connect(profile));
    this.#sessions.push(session);
    publish({ type: 'connection', state: 'online' });
    session.on('disconnected', (why) => publish({ type: 'connection', state: 'reconnecting', detail: why }));
    session.on('reconnected', () => publish({ type: 'connection', state: 'online' }));
    session.on('down', (error) => publish({ type: 'connection', state: 'down', detail: error.message }));
    session.on('down', (error) => {
      this.#downs.set(session, error);
      this.#checkLost();
    });
    const agent = this.#equip(profile, session);
    bus.logger('')(`${agent.name} joined as ${agent.model.id}`);
    this.#giveVoice(profile);
    return agent;
  }

  /**
   * Gives every line the bots speak from now on, as sound, to `listener` too (see
   * {@link Voice.listen}).
   *
   * @returns a function that stops listening.
   */
  listenToVoice(listener: (sound: LineSound) => void): () => void {
    this.#voiceListeners.add(listener);
    return () => this.#voiceListeners.delete(listener);
  }

  /** Lets the bot of `profile` speak when `speak` (its own, or the setting) says so. */
  #giveVoice(profile: MergedProfile): void {
    const { settings, bus, env } = this.#options;
    const speak = profile.speak ?? settings.speak;
    if (speak === false) return;
    const outputDir = settings.speak_output_dir || undefined;
    this.#voice ??= new Voice({
      bus,
      log: bus.logger(''),
      limit: settings.speak_queue_limit,
      utteranceTimeoutMs: settings.speak_timeout_s * 1000,
      outputDir,
      choose: (model) => chooseEngine(model, { env: env ?? process.env, toFiles: Boolean(outputDir) }),
      listeners: this.#voiceListeners,
    });
    this.#voice.add(profile.name, typeof speak === 'string' ? speak : (profile.speak_model ?? 'system'));
  }

  /**
   * Connects the bots of `profiles` side by side, `concurrency` at a time (./join-pool.ts), and
   * gives them their agents in the profiles' order. When one cannot join, the ones that joined
   * are quit and its error is thrown.
   *
   * @throws ConfigError / ConnectError as {@link add} does.
   */
  async addAll(profiles: readonly MergedProfile[], concurrency: number): Promise<Agent[]> {
    const sessions = await joinAll(profiles, (profile) => this.#connect(profile), {
      concurrency,
      discard: (session) => {
        session.close();
        session.current.quit();
      },
    });
    const agents: Agent[] = [];
    for (const [i, profile] of profiles.entries()) agents.push(await this.add(profile, sessions[i]));
    return agents;
  }

  /** Joins one bot to the server: its session, the connection kept up. */
  #connect(profile: MergedProfile): Promise<BotSession> {
    const { bus, address, settings } = this.#options;
    return BotSession.open(profile.name, address, { policy: reconnectPolicy(settings), log: bus.logger(profile.name) });
  }

  /**
   * Stops one bot: its agent shuts down (memory saved) and it leaves the server. Its profile
   * stays, for {@link restart}.
   *
   * @throws ConfigError when no bot of that name is running.
   */
  async stop(name: string): Promise<void> {
    const i = this.#members.findIndex((m) => m.profile.name === name);
    if (i < 0)
      throw new ConfigError(`There is no running bot named "${name}" (running: ${this.agents.map((a) => a.name).join(', ') || 'none'}).`);
    const [member] = this.#members.splice(i, 1);
    if (!member) return;
    this.#forgetSession(member.session);
    member.session.close();
    this.#voice?.remove(name);
    await member.agent.shutdown().catch(() => {});
    this.#options.bus.publish({ type: 'connection', bot: name, state: 'closed', detail: 'stopped' });
  }

  /**
   * Starts a bot again from its profile with a fresh agent (its memory file restored when
   * `load_memory` is on), stopping it first if it is running.
   *
   * @throws ConfigError for a name no bot has had; ConnectError when it cannot join.
   */
  async restart(name: string): Promise<Agent> {
    const profile = this.#known.get(name);
    if (!profile) throw new ConfigError(`There is no bot named "${name}" (bots: ${[...this.#known.keys()].join(', ') || 'none'}).`);
    if (this.#members.some((m) => m.profile.name === name)) await this.stop(name);
    return this.add(profile);
  }

  /**
   * Gives every running bot a fresh agent, keeping its connection: each agent is detached (its
   * action, model calls and goal loop stopped, memory saved, conversations and outbox closed,
   * every listener it added to the bot removed) and replaced by a new one built from the same
   * profile. The world itself is not touched (see `./warm-world.ts`).
   *
   * @param between runs once the old agents are gone and before the new ones start (a world
   *   reset); its rejection is passed on, after the new agents have started all the same.
   * @returns the new agents, in the order of {@link agents}.
   */
  async renew(between?: () => Promise<void>): Promise<Agent[]> {
    const old = this.#members.splice(0);
    // Every old agent first: their transports leave the hub before the new ones join it.
    for (const member of old) await member.retire();
    try {
      await between?.();
    } finally {
      for (const { profile, session } of old) this.#equip(profile, session);
    }
    return this.agents;
  }

  /** Disconnects every bot (their agents shut down, memories saved). */
  async close(): Promise<void> {
    const members = this.#members.splice(0);
    for (const session of this.#sessions.splice(0)) session.close();
    await Promise.all([...members.map((m) => m.agent.shutdown().catch(() => {})), this.#voice?.close()]);
  }

  #forgetSession(session: BotSession): void {
    const j = this.#sessions.indexOf(session);
    if (j >= 0) this.#sessions.splice(j, 1);
    this.#downs.delete(session);
  }

  #checkLost(): void {
    const { address, settings } = this.#options;
    if (!this.#sessions.length || !this.#sessions.every((s) => s.state === 'down')) return;
    const downs = this.#sessions.map((s) => ({ bot: s.username, error: this.#downs.get(s) }));
    this.#gaveUp(lostError(`${address.host}:${address.port}`, downs, settings.reconnect_attempts));
  }

  /**
   * Gives a connected bot a new agent: transport, conversations, chat outbox, memory, model and
   * modes of its own, its chat routed to it. Every listener this adds to the bot goes through the
   * session's handle, so `session.bot.removeAllListeners()` takes them all off again.
   */
  #equip(profile: MergedProfile, session: BotSession): Agent {
    const { settings, bus, events, data, names, env, fallback, botKey, transport: mode } = this.#options;
    const publish = bus.publisher(profile.name);
    const botLog = bus.logger(profile.name);
    const bot = session.bot;
    // While the bot is offline its lines are dropped, as a disconnected player's would be.
    const outbox = new ChatOutbox(
      (line) => {
        if (session.online) bot.chat(line);
      },
      { burst: settings.chat_burst, intervalMs: settings.chat_interval_ms, maxQueued: settings.chat_queue_limit },
    );
    // Bots of this process talk in-process; any other bot is found and reached by whispers.
    const whisper =
      botKey && mode !== 'in-process'
        ? new WhisperTransport(bot, outbox, {
            key: botKey,
            skip: mode === 'auto' ? (name) => this.#local.has(name) : undefined,
            log: botLog,
          })
        : undefined;
    const carrier: Transport = !whisper
      ? this.#hub.endpoint(profile.name)
      : mode === 'whisper'
        ? whisper
        : new CompositeTransport(this.#hub.endpoint(profile.name), whisper);
    const echo = settings.chat_bot_messages ? (to: string, text: string) => outbox.chat(`(to ${to}) ${text}`) : undefined;
    const conversations = new Conversations(profile.name, recordingTransport(carrier, profile.name, events), {
      timings: timingsOf(settings),
      echo,
      log: botLog,
    });
    bot.on('playerJoined', (player) => conversations.presence(player.username, true));
    bot.on('playerLeft', (player) => conversations.presence(player.username, false));
    const specs = profileModelSpecs(profile, this.#options.model);
    const chooseOptions = { fallback, timeoutMs: settings.model_timeout_s * 1000 };
    const extra = (role: 'code_model' | 'vision_model', spec: typeof specs.code) => {
      const model = chooseExtraModel(role, spec, profile.name, env, chooseOptions, botLog);
      return model && recordingModel(model, profile.name, events);
    };
    const codeModel = extra('code_model', specs.code);
    const visionModel = extra('vision_model', specs.vision);
    const examples = this.#options.examples.forProfile(profile);
    const agent = new Agent({
      ...agentOptionsFrom(settings, profile),
      bot,
      data,
      names,
      commands: recordingCommands(
        (this.#options.commands ?? allCommands).without([...blockedForAll(settings), ...profile.blocked_actions]),
        profile.name,
        events,
      ),
      conversations,
      outbox: recordingOutbox(outbox, profile.name, events),
      model: (view) => {
        const given = this.#options.chatModel?.(profile);
        if (given) return recordingModel(given, view.name, events);
        const choice = chooseModel(specs.chat, view, env, chooseOptions);
        if (choice.fallback) this.#fallbacks.push({ reason: choice.fallback, bot: view.name });
        return recordingModel(choice.model, view.name, events);
      },
      ...(codeModel ? { codeModel } : {}),
      ...(visionModel ? { visionModel } : {}),
      examples: examples.conversing,
      codingExamples: examples.coding,
      memory: MemoryStore.forBot(profile.name, this.#options.botsDir, { load: settings.load_memory, log: botLog }),
      log: botLog,
      events: publish,
      onMessage: ({ channel, from, text, lines }) => {
        if (channel === 'system') return; // the agent's own prompts and notices are not messages
        for (const line of lines ?? [text])
          events.emit({ type: 'message', t: Date.now(), agent: profile.name, direction: 'received', peer: from, channel, text: line });
      },
    });
    const forget = keepAcrossReconnects(session, agent, whisper);
    const unsubscribe = agent.actions.subscribe((event) =>
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
    routeChat(agent, () => this.agents, settings);
    const member: Member = {
      profile,
      session,
      agent,
      retire: async () => {
        await agent.detach('the agent is replaced');
        forget();
        unsubscribe();
        bot.removeAllListeners();
      },
    };
    this.#members.push(member);
    if (settings.init_message) agent.receive({ from: 'system', text: settings.init_message, channel: 'system' });
    return agent;
  }
}

/**
 * The error of a fleet whose every bot gave up, naming the real causes: the server's refusal
 * (ban, whitelist) with its reason, "Is the server running?" only when nothing answered, and
 * the kicks or lost connections otherwise.
 */
export function lostError(
  where: string,
  downs: readonly { bot: string; error: ConnectError | undefined }[],
  attempts: number,
): ConnectError {
  const kinds = new Set(downs.map((d) => d.error?.failure ?? 'dropped'));
  if (kinds.size === 1 && kinds.has('unreachable'))
    return new ConnectError(
      `Every bot lost ${where} and none could rejoin after ${attempts} attempts. Is the server running? Start it, or check "host"/"port" in settings.json.`,
      'unreachable',
    );
  const causes = downs.map((d) => `${d.bot} ${d.error?.summary ?? 'gave up'}`).join('; ');
  const hints = [
    ...(kinds.has('refused') ? ['A ban or the whitelist holds until an operator lifts it (/pardon <name>, /whitelist add <name>).'] : []),
    ...(kinds.has('unreachable') ? [`Is the server running? Start it, or check "host"/"port" in settings.json.`] : []),
  ];
  const failure = kinds.size === 1 && kinds.has('refused') ? 'refused' : kinds.has('unreachable') ? 'unreachable' : 'dropped';
  return new ConnectError(`Every bot is off ${where} for good: ${causes}.${hints.length ? ` ${hints.join(' ')}` : ''}`, failure);
}

/**
 * Keeps the agent whole across its bot's reconnects: while offline the agent is paused (its
 * action and model call stop, its goal loop holds and messages wait; goal, memory and modes
 * stay); once back, the whisper transport proves itself to every player again, players online
 * are marked present, and the agent resumes (the goal loop goes on by itself).
 */
function keepAcrossReconnects(session: BotSession, agent: Agent, whisper: WhisperTransport | undefined): () => void {
  const disconnected = (why: string) => void agent.pause(`offline: ${why}`);
  const reconnected = () => {
    whisper?.rejoined();
    for (const name of Object.keys(session.bot.players)) if (name !== agent.name) agent.conversations.presence(name, true);
    agent.resume();
  };
  session.on('disconnected', disconnected);
  session.on('reconnected', reconnected);
  return () => {
    session.off('disconnected', disconnected);
    session.off('reconnected', reconnected);
  };
}

/**
 * Sends players' whispers and public chat to the agent, under the settings' rules
 * ({@link reachesBot}); bot envelopes belong to the whisper transport, never to the agent.
 *
 * @param agents the fleet's agents now (read at each message: bots may be added or stopped).
 */
function routeChat(agent: Agent, agents: () => readonly Agent[], settings: Settings): void {
  const bot: Bot = agent.bot;
  const ours = () => new Set(agents().map((a) => a.name));
  const rules = () => {
    const all = [...new Set([...ours(), ...agent.conversations.others()])].sort();
    return {
      self: agent.name,
      botCount: all.length,
      onlyChatWith: settings.only_chat_with,
      isBot: (name: string) => ours().has(name) || agent.conversations.isBot(name),
      // The first bot by name answers a bare `!help` for them all.
      speaksForAll: all[0] === agent.name,
    };
  };
  bot.on('whisper', (from, text) => {
    if (!isEnvelope(text) && reachesBot(rules(), from, text, 'whisper')) agent.receive({ from, text, channel: 'whisper' });
  });
  bot.on('chat', (from, text) => {
    if (reachesBot(rules(), from, text, 'public')) agent.receive({ from, text, channel: 'public' });
  });
}

/** Notices for the models that fell back to the oracle: a log line and one line in chat (players do not read the log). */
export function announceFallbacks(fleet: Fleet, log: (line: string) => void): void {
  const { reasons, bots } = fleet.takeFallbacks();
  if (!reasons.length) return;
  log(fallbackNotice(reasons));
  fleet.agents.find((a) => a.name === bots[0])?.outbox.chat(fallbackChatLine(bots));
}

/** `profile` completed over `_default` and the settings' base profile. */
export function completed(profile: Profile, settings: Settings): Promise<MergedProfile> {
  return completeProfile(profile, { base: settings.base_profile });
}
