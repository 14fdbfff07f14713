/**
 * One process, all bots: starts the embedded server when the settings ask for it, connects one
 * mineflayer bot per profile, gives each an Agent, and routes chat and bot messages to them.
 */
import type { Bot } from 'mineflayer';
import { allCommands } from '../commands/index.ts';
import { nameResolver } from '../commands/names.ts';
import { Conversations, InProcessTransport } from '../conversation/index.ts';
import { gameData } from '../game/data.ts';
import { startEmbeddedServer, type EmbeddedServer } from '../server/embedded.ts';
import type { Profile, Settings } from '../settings/index.ts';
import { Agent, chunk } from './agent.ts';
import { connectBot, type ServerAddress } from './bot.ts';
import { chooseModel, fallbackNotice } from './model-choice.ts';

export interface StartOptions {
  settings: Settings;
  profiles: Profile[];
  /** Replaces every profile's model (e.g. `--model` of a task run). */
  model?: Profile['model'];
  /** Embedded server port; default `settings.port` (0 = any free port). */
  port?: number;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface RunningBots {
  server?: EmbeddedServer;
  address: ServerAddress;
  agents: Agent[];
  /** Disconnects every bot and stops the embedded server. */
  close(): Promise<void>;
}

/** Public chat reaches a bot when it names the bot as a word (or when only one bot runs). */
export function namesBot(text: string, name: string): boolean {
  return new RegExp(`(^|[^\\w])${name}([^\\w]|$)`, 'i').test(text);
}

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
  const transport = new InProcessTransport();
  const agents: Agent[] = [];
  const fallbacks: string[] = [];
  const close = async () => {
    await Promise.all(agents.map((a) => a.shutdown().catch(() => {})));
    await server?.close();
  };
  try {
    for (const profile of options.profiles) {
      const bot = await connectBot(profile.name, address);
      const echo = settings.chat_bot_messages
        ? (to: string, text: string) => { for (const line of chunk(`(to ${to}) ${text}`, 250)) bot.chat(line); }
        : undefined;
      const agent = new Agent({
        bot,
        data,
        names,
        commands: allCommands.without([...settings.blocked_actions, ...profile.blocked_actions]),
        conversations: new Conversations(profile.name, transport, echo),
        model: (a) => {
          const choice = chooseModel(options.model ?? profile.model, a, options.env);
          if (choice.fallback) fallbacks.push(choice.fallback);
          return choice.model;
        },
        persona: profile.persona,
        maxMessages: settings.max_messages,
        maxCommands: settings.max_commands,
        actionTimeoutMs: settings.action_timeout_s * 1000,
        cooldownMs: profile.cooldown_ms,
        log,
      });
      transport.register(agent.name, (m) => agent.receiveFromBot(m));
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

/** Sends players' whispers and public chat to the agent, under the settings' rules. */
function routeChat(agent: Agent, agents: Agent[], settings: Settings): void {
  const bot: Bot = agent.bot;
  const ours = new Set(agents.map((a) => a.name));
  const allowed = (from: string) => !ours.has(from) && (settings.only_chat_with.length === 0 || settings.only_chat_with.includes(from));
  bot.on('whisper', (from, text) => {
    if (allowed(from)) agent.receive({ from, text, channel: 'whisper' });
  });
  bot.on('chat', (from, text) => {
    if (!allowed(from)) return;
    if (agents.length === 1 || namesBot(text, agent.name)) agent.receive({ from, text, channel: 'public' });
  });
}
