/**
 * One process, all bots: starts the embedded server when the settings ask for it, connects one
 * mineflayer bot per profile, gives each an Agent, and routes chat and bot messages to them.
 */
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { allCommands } from '../commands/index.ts';
import { nameResolver } from '../game/names.ts';
import { ChatOutbox, CompositeTransport, Conversations, InProcessHub, isEnvelope, reachesBot, WhisperTransport, type Transport } from '../conversation/index.ts';
import { gameData } from '../game/data.ts';
import { ExampleSelector, EXAMPLES_DIR } from '../models/prompts/examples.ts';
import { startEmbeddedServer, type EmbeddedServer } from '../server/embedded.ts';
import type { Profile, Settings } from '../settings/index.ts';
import { Agent } from '../agent/agent.ts';
import { connectBot, type ServerAddress } from '../agent/bot.ts';
import { MemoryStore } from '../agent/memory-store.ts';
import { chooseModel, fallbackNotice } from '../agent/model-choice.ts';
import { completeProfile, mergeProfiles } from '../settings/profiles.ts';

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
  log?: (line: string) => void;
}

let sharedExamples: Promise<ExampleSelector> | undefined;

/**
 * The conversing examples, loaded once per process and shared by every agent (ranked by word
 * overlap: no embedder is configured).
 */
export function conversingExamples(): Promise<ExampleSelector> {
  sharedExamples ??= ExampleSelector.load(path.join(EXAMPLES_DIR, 'conversing.json')).catch((err: unknown) => {
    sharedExamples = undefined;
    throw err;
  });
  return sharedExamples;
}

export interface RunningBots {
  server?: EmbeddedServer;
  address: ServerAddress;
  agents: Agent[];
  /** Disconnects every bot and stops the embedded server. */
  close(): Promise<void>;
}

export { namesBot } from '../conversation/index.ts';

/**
 * Starts the server (if embedded) and every bot of `profiles`.
 *
 * @throws ConnectError when a bot cannot join; Error when the embedded server cannot start.
 */
export async function startAgents(options: StartOptions): Promise<RunningBots> {
  const { settings } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const server = settings.server === 'embedded'
    ? await startEmbeddedServer({ port: options.port ?? settings.port, version: settings.minecraft_version })
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
  const timings = {
    replyDelayMs: settings.convo_reply_delay_ms,
    busyPartnerDelayMs: settings.convo_busy_partner_delay_ms,
    reminderMs: settings.convo_reminder_ms,
    leaveEndMs: settings.convo_leave_end_ms,
  };
  const agents: Agent[] = [];
  const fallbacks: string[] = [];
  const examples = await conversingExamples();
  // Profiles from loadSettings are merged already; others (tests, tasks) get _default and the base now.
  const profiles = await Promise.all(options.profiles.map((p) => p.conversing && p.coding && p.saving_memory && p.bot_responder && p.modes
    ? mergeProfiles([p], `profile of ${p.name}`)
    : completeProfile(p, { base: settings.base_profile })));
  const blockedForAll = [...settings.blocked_actions, ...(settings.allow_insecure_coding ? [] : ['!newAction'])];
  const botsDir = path.resolve(options.botsDir ?? 'bots');
  const close = async () => {
    await Promise.all(agents.map((a) => a.shutdown().catch(() => {})));
    await server?.close();
  };
  try {
    for (const profile of profiles) {
      const bot = await connectBot(profile.name, address);
      const outbox = new ChatOutbox((line) => bot.chat(line), { burst: settings.chat_burst, intervalMs: settings.chat_interval_ms });
      // Bots of this process talk in-process; any other bot is found and reached by whispers.
      const whisper = () => new WhisperTransport(bot, outbox, {
        key: settings.bot_key,
        skip: settings.bot_transport === 'auto' ? (name) => localNames.has(name) : undefined,
        log,
      });
      const transport: Transport = settings.bot_transport === 'in-process' ? hub.endpoint(profile.name)
        : settings.bot_transport === 'whisper' ? whisper()
          : new CompositeTransport(hub.endpoint(profile.name), whisper());
      const echo = settings.chat_bot_messages ? (to: string, text: string) => outbox.chat(`(to ${to}) ${text}`) : undefined;
      const conversations = new Conversations(profile.name, transport, { timings, echo, log });
      bot.on('playerJoined', (player) => conversations.presence(player.username, true));
      bot.on('playerLeft', (player) => conversations.presence(player.username, false));
      const agent = new Agent({
        bot,
        data,
        names,
        commands: allCommands.without([...blockedForAll, ...profile.blocked_actions]),
        conversations,
        outbox,
        model: (a) => {
          const choice = chooseModel(options.model ?? profile.model, a, options.env);
          if (choice.fallback) fallbacks.push(choice.fallback);
          return choice.model;
        },
        profile,
        examples,
        numExamples: settings.num_examples,
        memory: MemoryStore.forBot(profile.name, botsDir, { load: settings.load_memory, log }),
        goalIdleMs: settings.goal_idle_ms,
        codeTimeoutMs: settings.code_timeout_s * 1000,
        maxMessages: settings.max_messages,
        maxCommands: settings.max_commands,
        actionTimeoutMs: settings.action_timeout_s * 1000,
        cooldownMs: profile.cooldown_ms,
        modes: profile.modes,
        log,
      });
      agents.push(agent);
      log(`${agent.name} joined as ${agent.model.id}`);
    }
  } catch (err) {
    await close();
    throw err;
  }
  if (fallbacks.length) log(fallbackNotice(fallbacks));
  for (const agent of agents) routeChat(agent, agents, settings);
  if (settings.init_message) for (const a of agents) a.receive({ from: 'system', text: settings.init_message, channel: 'system' });
  return { server, address, agents, close };
}

/**
 * Sends players' whispers and public chat to the agent, under the settings' rules
 * ({@link reachesBot}); bot envelopes belong to the whisper transport, never to the agent.
 */
function routeChat(agent: Agent, agents: Agent[], settings: Settings): void {
  const bot: Bot = agent.bot;
  const ours = new Set(agents.map((a) => a.name));
  const rules = () => ({
    self: agent.name,
    botCount: new Set([...ours, ...agent.conversations.others()]).size,
    onlyChatWith: settings.only_chat_with,
    isBot: (name: string) => ours.has(name) || agent.conversations.isBot(name),
  });
  bot.on('whisper', (from, text) => {
    if (!isEnvelope(text) && reachesBot(rules(), from, text, 'whisper')) agent.receive({ from, text, channel: 'whisper' });
  });
  bot.on('chat', (from, text) => {
    if (reachesBot(rules(), from, text, 'public')) agent.receive({ from, text, channel: 'public' });
  });
}
