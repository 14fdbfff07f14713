/**
 * A separate agent process for tests: run as `node test/helpers/agent-process.ts` with its
 * configuration ({@link AgentProcessConfig}) as JSON in the `AGENT_PROCESS_CONFIG` environment
 * variable. It starts the named bots with {@link startAgents} on an external server, each on an
 * OpenAI-compatible model at `modelUrl` (API key from `OPENAI_API_KEY`), and reports on stdout,
 * one JSON object a line ({@link AgentProcessReport}):
 * - `{"type":"ready","agents":[…]}` once every bot has joined;
 * - `{"type":"status","agents":[…]}` whenever what it reports of its agents changes;
 * - `{"type":"log","line":"…"}` for each log line of the agents;
 * - `{"type":"error","message":"…"}` before exiting with code 1 on a failure.
 *
 * Importing this module runs nothing: the process starts only when it is the entry point.
 *
 * It exits (after disconnecting its bots) on SIGTERM, when its stdin closes (the parent went
 * away), and in any case after `maxLifetimeMs`, so a test that dies never leaves it running.
 */
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { profileSchema, settingsSchema } from '../../src/settings/index.ts';

/** What the parent passes in `AGENT_PROCESS_CONFIG`. */
export interface AgentProcessConfig {
  /** Server to join. */
  host: string;
  port: number;
  /** Minecraft version of the server. */
  version: string;
  /** One bot per name. */
  names: string[];
  /** Base URL of an OpenAI-compatible chat API (e.g. a fake provider's `url`). */
  modelUrl: string;
  /** Model name sent to that API. */
  model?: string;
  /** More settings (e.g. `bot_transport`, `bot_key`, `convo_leave_end_ms`); `server`, `host` and `port` are set from above. */
  settings?: Record<string, unknown>;
  /** How often the agents' status is checked for changes, in ms (default 100). */
  statusIntervalMs?: number;
  /** The process exits after this long whatever happens, in ms (default 120 000). */
  maxLifetimeMs?: number;
}

/** One agent's conversation view, as the child reports it. */
export interface AgentStatus {
  name: string;
  /** The conversation transport's kind, e.g. `whisper`. */
  transport: string;
  /** Bots this agent can converse with. */
  others: string[];
  /** Partner of the current conversation. */
  active: string | undefined;
  /** Other players the agent's bot sees online, each with whether the agent takes it for a bot. */
  players: Record<string, { bot: boolean; state: string }>;
}

/** One line of the child's stdout. */
export type AgentProcessReport =
  { type: 'ready' | 'status'; agents: AgentStatus[] } | { type: 'log'; line: string } | { type: 'error'; message: string };

/** Environment variable holding the JSON {@link AgentProcessConfig}. */
export const AGENT_PROCESS_CONFIG_ENV = 'AGENT_PROCESS_CONFIG';

function report(line: AgentProcessReport): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function statusOf(running: RunningBots): AgentStatus[] {
  return running.agents.map((agent) => {
    const players: AgentStatus['players'] = {};
    for (const name of Object.keys(agent.bot.players).sort()) {
      if (name !== agent.name) players[name] = { bot: agent.conversations.isBot(name), state: agent.conversations.state(name) };
    }
    return {
      name: agent.name,
      transport: agent.conversations.transportKind,
      others: [...agent.conversations.others()].sort(),
      active: agent.conversations.active,
      players,
    };
  });
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env[AGENT_PROCESS_CONFIG_ENV] ?? '') as AgentProcessConfig;
  const lifetime = setTimeout(() => {
    report({ type: 'error', message: `still running after ${config.maxLifetimeMs ?? 120_000} ms` });
    process.exit(2);
  }, config.maxLifetimeMs ?? 120_000);
  lifetime.unref();

  const settings = settingsSchema.parse({
    ...config.settings,
    server: 'external',
    host: config.host,
    port: config.port,
    minecraft_version: config.version,
  });
  const profiles = config.names.map((name) =>
    profileSchema.parse({ name, model: { model: `openai/${config.model ?? 'gpt-test'}`, url: config.modelUrl } }),
  );
  const running = await startAgents({ settings, profiles, log: (line) => report({ type: 'log', line }) });

  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await running.close().catch(() => {});
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.stdin.on('end', () => void stop(0));
  process.stdin.on('error', () => void stop(0));
  process.stdin.resume();

  let last = JSON.stringify(statusOf(running));
  report({ type: 'ready', agents: JSON.parse(last) as AgentStatus[] });
  setInterval(() => {
    const now = JSON.stringify(statusOf(running));
    if (now === last) return;
    last = now;
    report({ type: 'status', agents: JSON.parse(now) as AgentStatus[] });
  }, config.statusIntervalMs ?? 100);
}

// Only when run as the process's entry point (tests import the types and the constant).
if (import.meta.main) {
  main().catch((err: unknown) => {
    report({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    process.exit(1);
  });
}
