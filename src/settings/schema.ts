/**
 * The schemas of settings.json and of profile files (zod), and {@link validate}, whose errors name
 * the file, the key, what was expected and what was found.
 */
import { z } from 'zod';
import { isAllowedKeyEnv, KEY_ENV_RULE } from '../models/presets.ts';

/** `apiKeyEnv` of a model spec: only a provider key variable or a name ending in `_API_KEY` (see {@link isAllowedKeyEnv}). */
const apiKeyEnvSchema = z.string().trim().refine(isAllowedKeyEnv, KEY_ENV_RULE);

/** Minecraft usernames: 3–16 letters, digits or underscores (vanilla rule). */
const usernameSchema = z.string().regex(/^\w{3,16}$/, 'a Minecraft username: 3–16 letters, digits or _');

/**
 * A model: `provider/model` string (prefixes in src/models/presets.ts), a bare name such as
 * `gpt-4o`, `oracle`, or MINDcraft's object `{ api?, model, url?, params?, api_version? }`.
 */
export const modelFieldSchema = z.union([
  z.string().min(1),
  z.strictObject({
    model: z.string().min(1),
    /** MINDcraft's provider field, for a `model` written without a `provider/` prefix. */
    api: z.string().min(1).optional(),
    url: z.url().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    /** Azure OpenAI's `api-version` (MINDcraft's key). */
    api_version: z.string().min(1).optional(),
    apiKeyEnv: apiKeyEnvSchema.optional(),
  }),
]);

/**
 * The embedding model that ranks few-shot examples (MINDcraft's `embedding`): a provider name
 * (`"openai"`: that provider's default embedding model, see src/models/presets.ts), `"none"`,
 * `"provider/model"`, or an object `{ api?, model?, url?, params?, api_version? }`.
 */
export const embeddingFieldSchema = z.union([
  z.string().trim().min(1),
  z.strictObject({
    api: z.string().trim().min(1).optional(),
    model: z.string().trim().min(1).optional(),
    url: z.url().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    api_version: z.string().min(1).optional(),
    apiKeyEnv: apiKeyEnvSchema.optional(),
  }),
]);
export type EmbeddingField = z.infer<typeof embeddingFieldSchema>;

/** One turn of a few-shot example (MINDcraft's format; `system` turns show command output). */
export const exampleTurnSchema = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string() });

/** Few-shot examples: dialogues, each a list of turns, oldest first. */
export const examplesSchema = z.array(z.array(exampleTurnSchema).min(1));

/** Prices of one model in US dollars per million tokens (the table is in src/tasks/eval/prices.ts). */
export const modelPriceSchema = z.strictObject({
  /** Uncached prompt tokens. */
  input: z.number().min(0),
  /** Prompt tokens read from the prompt cache (default: `input`). */
  cached_input: z.number().min(0).optional(),
  /** Prompt tokens written to the prompt cache (Anthropic; default: `input`). */
  cache_write_input: z.number().min(0).optional(),
  /** Generated tokens. */
  output: z.number().min(0),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/**
 * How a team of bots works together on a task (the four systems this project comes from):
 * `chat`, MINDcraft's pairwise conversations; `dag`, VillagerAgent's task graph; `causal`,
 * CausalMACE's causally checked graph; `tree`, S-Agents' tree of agents, with its alternatives
 * `chain` (a fixed relay) and `graph` (fully connected, guarded against command cycles). See
 * `src/coordination/`.
 */
export const COORDINATIONS = ['chat', 'dag', 'causal', 'tree', 'chain', 'graph'] as const;
export type Coordination = (typeof COORDINATIONS)[number];

export const settingsSchema = z.strictObject({
  /**
   * Minecraft version the bots speak (and the embedded server runs). `auto`: the embedded server's
   * default version, or the version an external server reports when asked (a status ping before
   * any bot joins; src/client/server-version.ts).
   */
  minecraft_version: z.string().min(1).default('auto'),
  /** `embedded`: start our flying-squid server in-process; `external`: join host:port. */
  server: z.enum(['embedded', 'external']).default('embedded'),
  /**
   * The embedded server's world: `survival`, a seeded overworld (biomes, trees, plants, caves,
   * ores, animals; players spawn in a forest), or `superflat`, vanilla's Classic Flat (grass at
   * y −61). Task runs use superflat whatever this says.
   */
  world: z.enum(['survival', 'superflat']).default('survival'),
  /** The survival world's seed (a 32-bit whole number); omitted = a new random world each start. */
  seed: z.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
  host: z.string().min(1).default('127.0.0.1'),
  /** The server's port; -1 (external servers): the first LAN world announced on this network (src/client/lan.ts). */
  port: z
    .number()
    .int()
    .min(-1)
    .max(65535)
    .refine((port) => port !== 0, { message: 'a port from 1 to 65535, or -1 for a LAN world' })
    .default(55916),
  auth: z.enum(['offline', 'microsoft']).default('offline'),
  /**
   * Players the embedded server holds at most, bots and people together (vanilla's
   * `max-players`); one more is refused at login with "The server is full!" and the server carries
   * on. Ignored with `"server": "external"` (that server has its own).
   */
  max_players: z.number().int().min(1).default(50),
  /**
   * Bots of this process that join the server at the same time at start-up (the rest wait for a
   * place); 1 joins them one after the other.
   */
  join_concurrency: z.number().int().min(1).default(8),
  /** Profile files, relative to settings.json; one bot each. */
  profiles: z.array(z.string()).min(1).default(['./profiles/andy.json']),
  /** When non-empty, only these players may talk to and command the bots. */
  only_chat_with: z.array(z.string()).default([]),
  /** Commands removed for every bot (`!stop`, `!stats`, `!inventory`, `!goal` cannot be). */
  blocked_actions: z.array(z.string()).default([]),
  /**
   * Commands a bot's model may run for one message (or one goal-loop step) before the loop stops
   * and the model is told so; -1 = no limit (a model repeating itself then runs until the token
   * budget is spent).
   */
  max_commands: z.number().int().min(-1).default(20),
  /** The same command with the same output this many times in a row ends a model loop (the model is told why). */
  max_repeats: z.number().int().min(1).default(3),
  /**
   * Minimum time between two model calls a bot makes on its own (a goal-loop step, the follow-up
   * after a command's output), in ms. Calls answering a player or a bot are not held back.
   */
  min_model_interval_ms: z.number().int().min(0).default(1_000),
  /**
   * Model tokens (prompt + generated, as the provider reports them) one bot may use per hour;
   * 0 = no limit. On reaching it the bot says so once in chat and stops calling its model until
   * the hour is over or a player writes to it (each player message allows another hour's worth).
   */
  max_tokens_per_hour: z.number().int().min(0).default(1_000_000),
  /**
   * Time bound of one model call, retries included, in seconds. A bot whose model fails or does
   * not answer in time says once in chat that its model is down, and keeps running commands.
   */
  model_timeout_s: z.number().positive().max(600).default(60),
  /** Longest chat reply of a bot, in characters; the rest is cut with "…" (the bot's log keeps it whole). */
  max_chat_chars: z.number().int().min(20).default(1_000),
  /**
   * Chat packets a bot holds back at most (its rate limit spaces them); past it the oldest
   * ordinary lines are dropped and one line says how many. Urgent lines (a stop
   * acknowledgement, an error for the player who asked) always go first.
   */
  chat_queue_limit: z.number().int().min(2).default(30),
  /** Echo bot-to-bot messages publicly as "(to X) ..." so people see the collaboration. */
  chat_bot_messages: z.boolean().default(true),
  /** Message each bot's model gets once it has spawned; empty = none. */
  init_message: z.string().default(''),
  /**
   * How the bots of a task work together (`npm run task -- --coordination`, `npm run eval --
   * --coordination chat,dag`): `chat` (default, MINDcraft's pairwise chat), `dag` (VillagerAgent's
   * task graph) or `causal` (CausalMACE's causal graph). Task set-up, validators and scoring are
   * the same for all.
   */
  coordination: z.enum(COORDINATIONS).default('chat'),
  /**
   * The graph strategies check every proposed dependency against the game's own rules (recipes,
   * blocks resting on the ones below) at no token cost: edges the rules refute are dropped, edges
   * they require are added. Off: the graph is the planner's alone (as in the papers).
   */
  rule_checked_edges: z.boolean().default(true),
  /** Turns kept in a bot's history; older ones are summarised (in the background) into its memory. */
  max_messages: z.number().int().min(2).default(15),
  /** Restore each bot's memory, recent turns, goal, places and modes from `bots/<name>/memory.json` at start-up (the file is always written). */
  load_memory: z.boolean().default(false),
  /** Few-shot examples in each conversing prompt. */
  num_examples: z.number().int().min(0).max(10).default(2),
  /** Idle time after which a bot with a goal (`!goal`) prompts itself again, in ms. */
  goal_idle_ms: z.number().int().min(0).default(2_000),
  /** Base profile every bot profile is merged over: `survival`, `creative`, `god_mode` (profiles/defaults/), or a path to a JSON file relative to settings.json. */
  base_profile: z.string().min(1).default('survival'),
  /** Upper bound for one action, in seconds. */
  action_timeout_s: z.number().positive().default(300),
  /**
   * Offer `!newAction`: the model writes JavaScript that runs in an SES sandbox (a worker thread in
   * a child process whose whole memory is capped, see src/sandbox/runner.ts) against the skill
   * functions only. Off by default: the code is still model-written.
   */
  allow_insecure_coding: z.boolean().default(false),
  /**
   * Time limit of one whole `!newAction`, in seconds: every model call and every run of its
   * attempts. When it runs out the code is stopped (its process killed) and not tried again.
   */
  code_timeout_s: z.number().positive().default(300),
  /**
   * Let `!lookAtPlayer` and `!lookAtPosition` render the bot's view headlessly and have the
   * profile's `vision_model` (else its `model`; it must take images) describe it, with the
   * profile's `image_analysis` prompt (MINDcraft's setting; off by default). Needs
   * `npm run setup:vision` and an X display or Xvfb (see src/skills/camera.ts).
   */
  allow_vision: z.boolean().default(false),
  /**
   * Whose hands a bot is in while `npm run mcp` serves it. `off` (default): the MCP client is its
   * brain; the bot's own model is not called (a player's plain chat reaches the client, not a
   * model), while players' `!commands` and the bot's modes still work. `on`: the bot's model keeps
   * answering players and running its goal too, sharing the bot with the client one action at a
   * time (the newer action replaces the running one); the client reads what the model did from
   * the bot's messages. A profile's `mcp_model` wins over this. `npm start` ignores it.
   */
  mcp_model: z.enum(['off', 'on']).default('off'),
  /**
   * How bots reach each other. `auto`: bots of this process directly (no chat traffic) and bots of
   * other processes or machines by whispers, found by a whispered handshake (each player sees one
   * short `mcb|hello|…` whisper from each bot); `in-process`: only bots of this process, no
   * whispers at all; `whisper`: every bot, even of this process, by whispers.
   */
  bot_transport: z.enum(['auto', 'in-process', 'whisper']).default('auto'),
  /**
   * Shared secret of our bots for finding each other across processes by whispers: a whispering
   * bot proves it knows the key before it counts as a bot (and before its words stop counting as
   * a player's). There is no built-in key. `""` (default): no key, so bots of other processes are
   * not discovered (bots of this process still talk in-process; start-up says so once).
   * `"auto"`: a random key made once per installation and kept in `bots/.bot_key` (mode 0600),
   * shared by every process on this machine that uses the same `bots/` folder. Any other text:
   * that key; give every process of one team, on any machine, the same one.
   */
  bot_key: z.string().default(''),
  /**
   * Attempts to rejoin after a bot is kicked or loses its connection (a server restart), and to
   * join at start-up, before giving up; 0 = never retry. A bot that gives up stays offline while
   * the others carry on; when every bot has given up, `npm start` exits with code 1.
   */
  reconnect_attempts: z.number().int().min(0).default(8),
  /** Wait before the first rejoin attempt, in ms; it doubles with each attempt. */
  reconnect_delay_ms: z.number().int().min(0).default(1_000),
  /** Longest wait between two rejoin attempts, in ms (defaults: 1, 2, 4, 8, 16, 30, 30, 30 s). */
  reconnect_max_delay_ms: z.number().int().min(0).default(30_000),
  /** Wait before a bot answers a bot when neither is acting, in ms (lines arriving meanwhile are answered together). */
  convo_reply_delay_ms: z.number().int().min(0).default(200),
  /** Wait before answering a bot whose message came with a command (it is acting), in ms. */
  convo_busy_partner_delay_ms: z.number().int().min(0).default(5_000),
  /** A silent conversation partner triggers a reminder after this long, in ms; each next one after twice as long. */
  convo_reminder_ms: z.number().int().min(1).default(30_000),
  /** A partner who left the server ends the conversation after this long, in ms, unless back by then. */
  convo_leave_end_ms: z.number().int().min(0).default(10_000),
  /**
   * Chat messages (public lines, whispers, commands) a bot may send back to back. Vanilla adds 20
   * per message to a counter that drops 1 per tick and kicks non-operators above 200, so keep
   * this under 10.
   */
  chat_burst: z.number().int().min(1).max(10).default(6),
  /** Sustained spacing of a bot's chat messages, in ms; vanilla's spam limit breaks even at 1000. */
  chat_interval_ms: z.number().int().min(0).default(1_000),
  /**
   * Model prices for the cost in task results and evaluation summaries, keyed by
   * `provider/model`, over the built-in table (src/tasks/eval/prices.ts), e.g.
   * `{ "openai/gpt-4o": { "input": 2.5, "cached_input": 1.25, "output": 10 } }`.
   */
  model_prices: z.record(z.string(), modelPriceSchema).default({}),
  /**
   * Port of the dashboard page `npm start` (and `npm run eval`) serves: the bots live, their logs,
   * controls and the evaluation's progress; 0 turns it off.
   */
  dashboard_port: z.number().int().min(0).max(65535).default(8080),
  /**
   * Address the dashboard binds. Loopback (`127.0.0.1`, `::1`, `localhost`) by default; any other
   * address (e.g. `0.0.0.0` for the whole network) also needs a `dashboard_token`.
   */
  dashboard_host: z.string().min(1).default('127.0.0.1'),
  /**
   * Secret the page asks for before it shows or controls anything; required when
   * `dashboard_host` is not loopback. Empty: a random token is made at each start and carried by
   * the printed URL (open that URL: it sets the page's cookie).
   */
  dashboard_token: z.string().default(''),
  /**
   * More addresses the page may be reached under, as a browser writes them in `Host`: `name` or
   * `name:port` (a DNS name for the machine, a reverse proxy's address). The dashboard refuses
   * (403) any request whose `Host` or `Origin` is not its own address (the bound one and
   * loopback with its port; every address of the machine with `0.0.0.0`) or one of these.
   */
  dashboard_allowed_hosts: z.array(z.string().trim().min(1)).default([]),
  /**
   * Offer a bot's-eye 3D view per bot on the dashboard (prismarine-viewer, an optional dependency:
   * about 400 MB; it is loaded only when a view is first opened).
   */
  dashboard_viewer: z.boolean().default(false),
  /**
   * Read each bot's public chat aloud (MINDcraft's `speak`), with its profile's `speak_model`; a
   * profile's own `speak` wins. Speaking never delays chat: see src/app/voice.ts.
   */
  speak: z.boolean().default(false),
  /** Lines waiting to be spoken at most (one queue per process); more are dropped and counted in the log. */
  speak_queue_limit: z.number().int().min(1).default(20),
  /** Longest one spoken line may take, in seconds; it is cut off then. */
  speak_timeout_s: z.number().positive().max(600).default(30),
  /** Write each spoken line to `<dir>/<bot>-<n>.wav` (`.aiff` with macOS `say`) instead of playing it; `''` plays it. */
  speak_output_dir: z.string().default(''),
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * Short texts the agent gives its model (as SYSTEM turns or prompt lines) or says in chat, each a
 * template filled with `$VARIABLES` like the prompts (see profiles/defaults/_default.json for the
 * variables each one gets).
 */
export const agentMessagesSchema = z.strictObject({
  /** SYSTEM turn when a conversation partner is silent: `$PARTNER`, `$SECONDS`. */
  partner_silent: z.string(),
  /** SYSTEM turn when a message's model loop hits `max_commands`: `$MAX_COMMANDS`. */
  command_limit: z.string(),
  /** `$SELF_PROMPT` while the goal loop runs: `$GOAL`. */
  goal: z.string(),
  /** `$SELF_PROMPT` while the goal loop waits for a conversation to end: `$GOAL`. */
  goal_paused: z.string(),
  /** `$SELF_PROMPT` with a task's goal and no goal loop: `$GOAL`. */
  task_goal: z.string(),
  /** The user turn of a `saving_memory` request: `$MAX_CHARS`. */
  summary_request: z.string(),
  /** `$COMMAND_DOCS` with native tool calling (the commands travel as tools). */
  native_tools: z.string(),
  /** SYSTEM turn when `max_repeats` ends a loop: `$COMMAND`, `$COUNT`. */
  repeated_command: z.string(),
  /** Said once in chat when `max_tokens_per_hour` is reached: `$TOKENS`, `$TIME` (when it resets, HH:MM). */
  token_budget: z.string(),
  /** Said once in chat when the model fails or times out: `$MODEL`, `$ERROR`. */
  model_down: z.string(),
  /** The answer to a disabled command: `$NAME`, `$COMMAND`, `$HOW` (how to enable it). */
  command_disabled: z.string(),
});
export type AgentMessages = z.infer<typeof agentMessagesSchema>;

export const profileSchema = z.strictObject({
  name: usernameSchema,
  /** `oracle` (offline rule-based policy) or `provider/model`, e.g. `anthropic/claude-sonnet-4-5`. */
  model: modelFieldSchema.default('oracle'),
  /** Extra persona text added to the system prompt. */
  persona: z.string().default(''),
  /** Commands removed for this bot only. */
  blocked_actions: z.array(z.string()).default([]),
  /** Minimum spacing between two model calls of this bot, in ms. */
  cooldown_ms: z.number().int().min(0).default(0),
  /**
   * How the model issues commands: `text` (writes `!name(args)` in its reply, docs in the prompt)
   * or `native` (the provider's tool calling; tool calls are turned back into command text).
   */
  tool_calling: z.enum(['text', 'native']).default('text'),
  /** This bot's `mcp_model` (see the setting): whether its model answers while an MCP client drives it. */
  mcp_model: z.enum(['off', 'on']).optional(),
  /** Prompt templates overriding the base profile's (see profiles/defaults/_default.json and src/settings/profiles.ts). */
  conversing: z.string().optional(),
  coding: z.string().optional(),
  saving_memory: z.string().optional(),
  bot_responder: z.string().optional(),
  /** Agent texts overriding the base profile's, key by key (see {@link agentMessagesSchema}). */
  messages: agentMessagesSchema.partial().optional(),
  /** Mode switches overriding the base profile's, e.g. `{ "hunting": false }`. */
  modes: z.record(z.string(), z.boolean()).optional(),

  // MINDcraft's profile keys (its andy.json and task profiles load unchanged).
  /** The model that writes `!newAction` code; default `model`. */
  code_model: modelFieldSchema.optional(),
  /** The model that describes the bot's view (`!lookAtPlayer`, `!lookAtPosition`); default `model`. */
  vision_model: modelFieldSchema.optional(),
  /** The embedding model ranking few-shot examples; without one they are ranked by full-text search (BM25). */
  embedding: embeddingFieldSchema.optional(),
  /** MINDcraft's name of {@link cooldown_ms} (ms); when given it is used instead. */
  cooldown: z.number().int().min(0).optional(),
  /** Few-shot examples for the conversing prompt, replacing the shipped ones (profiles/examples/conversing.json). */
  conversation_examples: examplesSchema.optional(),
  /** Few-shot examples for the coding prompt, replacing the shipped ones (profiles/examples/coding.json). */
  coding_examples: examplesSchema.optional(),
  /** Prompt for describing a screenshot of the bot's view (MINDcraft's vision). */
  image_analysis: z.string().optional(),
  /** MINDcraft's MCP tool prompt (`$MCP_TOOL_USAGE`); accepted, not acted on. */
  mcp_tool_usage: z.string().optional(),
  /** Whether this bot reads its public chat aloud (the `speak` setting when absent); a string is taken as its `speak_model`. */
  speak: z.union([z.boolean(), z.string()]).optional(),
  /**
   * The voice (MINDcraft's name): `system` (espeak-ng, or `say` on macOS; the default),
   * `openai/<model>/<voice>`, e.g. `openai/tts-1/alloy` (needs OPENAI_API_KEY), or
   * `google/<model>/<voice>`, e.g. `google/gemini-2.5-flash-preview-tts/Kore` (needs GEMINI_API_KEY).
   */
  speak_model: z
    .string()
    .regex(
      /^(system|(openai|google)\/[^/]+\/[^/]+)$/,
      'expected "system", "openai/<model>/<voice>" (e.g. "openai/tts-1/alloy") or "google/<model>/<voice>" (e.g. "google/gemini-2.5-flash-preview-tts/Kore")',
    )
    .optional(),
  /** MINDcraft's `max_tokens` profile key; accepted, not acted on (put `max_tokens` in the model's `params`). */
  max_tokens: z.number().int().positive().optional(),
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * Profile keys accepted for MINDcraft's profiles that this project does not act on; start-up
 * names the ones a profile sets, once (see `unusedProfileKeys` in ./profiles.ts). Remove a key
 * here when a feature starts acting on it.
 */
export const UNUSED_PROFILE_KEYS = ['mcp_tool_usage', 'max_tokens'] as const satisfies readonly (keyof Profile)[];

/** A settings or profile file that failed validation. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array (${JSON.stringify(value).slice(0, 60)})`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function valueAt(data: unknown, keys: PropertyKey[]): unknown {
  let v: unknown = data;
  for (const k of keys) v = v != null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/**
 * Validates `data` against `schema`, turning zod issues into one readable message.
 *
 * @throws ConfigError naming the file, each wrong key, what was expected and what was found.
 */
export function validate<S extends z.ZodType>(schema: S, data: unknown, file: string): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(top level)';
    if (issue.code === 'unrecognized_keys') {
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${issue.path.length ? ` in "${key}"` : ''}: remove or correct ${issue.keys.length > 1 ? 'them' : 'it'}`;
    }
    if (issue.code === 'invalid_key') {
      // A record's key failed its own schema (e.g. `initial_inventory` keyed by item instead of agent).
      const parent = issue.path.slice(0, -1).join('.') || '(top level)';
      const wanted = issue.issues.map((i) => i.message.replace(/^Invalid string: /, '')).join(', ');
      return `key "${parent}": "${String(issue.path.at(-1))}" is not ${wanted}`;
    }
    const expected =
      issue.code === 'invalid_type'
        ? issue.expected
        : issue.message.replace(/^(Invalid input|Too small|Too big|Invalid option): /, '').replace(/^expected /, '');
    return `key "${key}": expected ${expected}, found ${describeValue(valueAt(data, issue.path))}`;
  });
  throw new ConfigError(`${file}: ${lines.join('; ')}`);
}
