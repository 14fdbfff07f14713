/**
 * The schemas of settings.json and of profile files (zod), and {@link validate}, whose errors name
 * the file, the key, what was expected and what was found.
 */
import { z } from 'zod';
import { DEFAULT_MINECRAFT_VERSION } from '../game/versions.ts';

/** Minecraft usernames: 3–16 letters, digits or underscores (vanilla rule). */
const usernameSchema = z.string().regex(/^\w{3,16}$/, 'a Minecraft username: 3–16 letters, digits or _');

/** `provider/model` string, `oracle`, or an object with a base URL and parameters. */
export const modelFieldSchema = z.union([
  z.string().min(1),
  z.strictObject({
    model: z.string().min(1),
    url: z.url().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    apiKeyEnv: z.string().optional(),
  }),
]);

export const settingsSchema = z.strictObject({
  /** Minecraft version the bots speak (and the embedded server runs). */
  minecraft_version: z.string().default(DEFAULT_MINECRAFT_VERSION),
  /** `embedded`: start our flying-squid server in-process; `external`: join host:port. */
  server: z.enum(['embedded', 'external']).default('embedded'),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(1).max(65535).default(55916),
  auth: z.enum(['offline', 'microsoft']).default('offline'),
  /** Profile files, relative to settings.json; one bot each. */
  profiles: z.array(z.string()).min(1).default(['./profiles/andy.json']),
  /** When non-empty, only these players may talk to and command the bots. */
  only_chat_with: z.array(z.string()).default([]),
  /** Commands removed for every bot (`!stop`, `!stats`, `!inventory`, `!goal` cannot be). */
  blocked_actions: z.array(z.string()).default([]),
  /** Maximum consecutive command replies per message; -1 = no limit. */
  max_commands: z.number().int().min(-1).default(-1),
  /** Echo bot-to-bot messages publicly as "(to X) ..." so people see the collaboration. */
  chat_bot_messages: z.boolean().default(true),
  /** Message each bot's model gets once it has spawned; empty = none. */
  init_message: z.string().default(''),
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
   * Offer `!newAction`: the model writes JavaScript that runs in an SES sandbox in a worker thread
   * against the skill functions only. Off by default: the code is still model-written.
   */
  allow_insecure_coding: z.boolean().default(false),
  /** Time limit for one run of `!newAction` code, in seconds (the worker is terminated after it). */
  code_timeout_s: z.number().positive().default(300),
  /**
   * How bots reach each other. `auto`: bots of this process directly (no chat traffic) and bots of
   * other processes or machines by whispers, found by a whispered handshake (each player sees one
   * short `mcb|hello|…` whisper from each bot); `in-process`: only bots of this process, no
   * whispers at all; `whisper`: every bot, even of this process, by whispers.
   */
  bot_transport: z.enum(['auto', 'in-process', 'whisper']).default('auto'),
  /**
   * Shared secret of our bots: a whispering bot proves it knows it before it counts as a bot.
   * Empty = a built-in key, enough among friends; set your own where untrusted players could
   * read this code. Every process of one team needs the same key.
   */
  bot_key: z.string().default(''),
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
});
export type Settings = z.infer<typeof settingsSchema>;

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
  /** Prompt templates overriding the base profile's (see profiles/defaults/_default.json and src/settings/profiles.ts). */
  conversing: z.string().optional(),
  coding: z.string().optional(),
  saving_memory: z.string().optional(),
  bot_responder: z.string().optional(),
  /** Mode switches overriding the base profile's, e.g. `{ "hunting": false }`. */
  modes: z.record(z.string(), z.boolean()).optional(),
});
export type Profile = z.infer<typeof profileSchema>;

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
    const expected = issue.code === 'invalid_type'
      ? issue.expected
      : issue.message.replace(/^(Invalid input|Too small|Too big|Invalid option): /, '').replace(/^expected /, '');
    return `key "${key}": expected ${expected}, found ${describeValue(valueAt(data, issue.path))}`;
  });
  throw new ConfigError(`${file}: ${lines.join('; ')}`);
}

