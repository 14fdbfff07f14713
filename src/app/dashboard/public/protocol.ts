/**
 * The dashboard's wire protocol, declared once: the server (`../server.ts`) validates what the
 * page sends with these schemas and builds what it sends from their types; the page (`./app.ts`)
 * loads this very module (the server strips its types) and validates what it receives.
 *
 * One WebSocket (`/ws`, `?token=` when the dashboard has a token) carries JSON text frames: the
 * server sends {@link ServerMessage}s (a `hello` first, then changes as they happen, no polling),
 * the page sends {@link ClientMessage}s, each with an `id` that the server's `reply` repeats.
 *
 * Browser-safe: imports zod and other browser-safe modules only.
 */
import { z } from 'zod';
import { botEventSchema } from '../../../agent/events.ts';

/** A block position, in blocks (x east, y up, z south). */
export const positionSchema = z.object({ x: z.number(), y: z.number(), z: z.number() });

/** One bot as the page shows it. */
export const botViewSchema = z.object({
  name: z.string(),
  /** `provider/model` or `oracle`. */
  model: z.string(),
  /** `stopped`: stopped from the dashboard (its profile stays for a restart). */
  status: z.enum(['online', 'reconnecting', 'down', 'closed', 'stopped']),
  /** Health points 0–20 (half hearts); null while unknown (offline). */
  health: z.number().nullable(),
  /** Food points 0–20; null while unknown. */
  food: z.number().nullable(),
  position: positionSchema.nullable(),
  /** The running action, with when it started (ms since the epoch). */
  action: z.object({ label: z.string(), since: z.number() }).nullable(),
  /** The goal loop (`!goal`): its state and goal text ('' when none was set). */
  goal: z.object({ state: z.enum(['active', 'paused', 'stopped']), text: z.string() }),
  /** The bot it is talking to, if any. */
  partner: z.string().nullable(),
  /** Item name → count, summed over stacks. */
  inventory: z.record(z.string(), z.number()),
  /** Mode switches (`!setMode`). */
  modes: z.record(z.string(), z.boolean()),
});
export type BotView = z.infer<typeof botViewSchema>;

/** One player on the server (bots included). */
export const playerViewSchema = z.object({
  name: z.string(),
  /** One of this process's bots. */
  bot: z.boolean(),
  position: positionSchema.nullable(),
});
export type PlayerView = z.infer<typeof playerViewSchema>;

/** A running graph strategy's graph, as the campaign view shows it. */
export const campaignGraphSchema = z.object({
  version: z.number(),
  /** What changed last. */
  change: z.string(),
  nodes: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      status: z.string(),
      assigned: z.array(z.string()),
      predecessors: z.array(z.string()),
    }),
  ),
  /** Edges by origin: active (`llm`, `algorithm`, `rule_added`) and removed (`rule_removed`, `ate_removed`). */
  edges: z.record(z.string(), z.number()),
  /** S-Agents' strategies: who may command whom (`commander→subordinate`). */
  commands: z.array(z.string()).optional(),
});
export type CampaignGraph = z.infer<typeof campaignGraphSchema>;

/** An evaluation's progress (`npm run eval`). */
export const campaignViewSchema = z.object({
  title: z.string(),
  /** When the campaign began (ms since the epoch). */
  startedAt: z.number(),
  total: z.number(),
  done: z.number(),
  running: z.number(),
  left: z.number(),
  successes: z.number(),
  /** Per task file: runs finished, successes among them, runs planned. */
  files: z.array(z.object({ file: z.string(), done: z.number(), successes: z.number(), total: z.number() })),
  /** Runs in progress. */
  active: z.array(
    z.object({
      runId: z.string(),
      taskId: z.string(),
      file: z.string(),
      /** How the run's team works together (`chat`, `dag`, `causal`). */
      coordination: z.string().optional(),
      agents: z.array(z.string()),
      /** The validator's last score (0–1), null before the first check. */
      score: z.number().nullable(),
      startedAt: z.number(),
      /** When the task's timeout ends it (ms since the epoch). */
      deadline: z.number(),
      /** A graph strategy's graph now (its last version), null before the first. */
      graph: campaignGraphSchema.nullable().optional(),
    }),
  ),
  /** Finished runs, newest first, each with the link to its records. */
  finished: z.array(
    z.object({
      runId: z.string(),
      taskId: z.string(),
      file: z.string(),
      coordination: z.string().optional(),
      success: z.boolean(),
      score: z.number(),
      endReason: z.string(),
      /** Dashboard path of the run's folder listing, e.g. `/runs/crafting_0_1/`; null when not served. */
      link: z.string().nullable(),
    }),
  ),
});
export type CampaignView = z.infer<typeof campaignViewSchema>;

/** The answer to one {@link ClientMessage}. */
export const replySchema = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('reply'), id: z.number(), ok: z.literal(true), text: z.string(), data: z.unknown().optional() }),
  z.object({
    type: z.literal('reply'),
    id: z.number(),
    ok: z.literal(false),
    /** What went wrong and what to do, for a person. */
    error: z.string(),
    /** Form errors by field name (the add-bot form shows each beside its field). */
    fields: z.record(z.string(), z.string()).optional(),
  }),
]);
export type Reply = z.infer<typeof replySchema>;

/** What the server sends. */
export const serverMessageSchema = z.union([
  z.object({
    type: z.literal('hello'),
    bots: z.array(botViewSchema),
    players: z.array(playerViewSchema),
    /** Recent events of every bot, oldest first (`request` bodies left out). */
    events: z.array(botEventSchema),
    campaign: campaignViewSchema.nullable(),
    /** The 3D view is offered (`dashboard_viewer`). */
    viewer: z.boolean(),
    /** Minecraft version and address of the server the bots play on; null without bots. */
    server: z.object({ version: z.string(), address: z.string() }).nullable(),
  }),
  z.object({ type: z.literal('bots'), bots: z.array(botViewSchema) }),
  z.object({ type: z.literal('players'), players: z.array(playerViewSchema) }),
  z.object({ type: z.literal('event'), event: botEventSchema }),
  z.object({ type: z.literal('campaign'), campaign: campaignViewSchema }),
  /** A line a bot spoke, as sound, to a page that plays the voices (`{ type: 'voice', on: true }`). */
  z.object({
    type: z.literal('voice'),
    bot: z.string(),
    text: z.string(),
    /** `audio/wav`, or `audio/aiff`. */
    mime: z.string(),
    /** The sound, base64. */
    data: z.string(),
  }),
  replySchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** A Minecraft username: 3–16 letters, digits or `_` (vanilla's rule). */
export const playerNameSchema = z.string().regex(/^\w{3,16}$/, 'a Minecraft username: 3–16 letters, digits or _');

const request = { id: z.number().int() };
const botName = z.string().min(1, 'a bot name');

/** What the page sends. */
export const clientMessageSchema = z.discriminatedUnion('type', [
  /** A message to the bot as the named player: it enters the bot's inbox like that player's whisper. */
  z.object({
    ...request,
    type: z.literal('say'),
    bot: botName,
    from: playerNameSchema,
    text: z.string().trim().min(1, 'some text').max(1000),
  }),
  /** A `!command` run as the named player's whisper would run it. */
  z.object({
    ...request,
    type: z.literal('command'),
    bot: botName,
    from: playerNameSchema,
    text: z.string().trim().regex(/^!\w+/, 'a command starting with !, e.g. !stats or !goToPlayer("Steve", 2)'),
  }),
  /** Stops the bot's action, model loop and goal loop (like a player's `!stop`). */
  z.object({ ...request, type: z.literal('stop'), bot: botName }),
  z.object({ ...request, type: z.literal('goal'), bot: botName, goal: z.string().trim().min(1, 'a goal').max(1000) }),
  z.object({ ...request, type: z.literal('endGoal'), bot: botName }),
  z.object({ ...request, type: z.literal('stopBot'), bot: botName }),
  z.object({ ...request, type: z.literal('restartBot'), bot: botName }),
  /** A new bot from a profile (validated with the profile schema of `settings/schema.ts`). */
  z.object({ ...request, type: z.literal('addBot'), profile: z.unknown() }),
  /** The bot's `memory.json`, as `data` of the reply. */
  z.object({ ...request, type: z.literal('memory'), bot: botName }),
  /** Starts (once) the bot's 3D view; the reply's `data` is `{ url }`. */
  z.object({ ...request, type: z.literal('viewer'), bot: botName }),
  /** Plays the bots' voices on this page from now on (`on`), or no more. A page starts silent. */
  z.object({ ...request, type: z.literal('voice'), on: z.boolean() }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
/** A {@link ClientMessage} about the bots (every one but `voice`, which is about the page). */
export type BotRequest = Exclude<ClientMessage, { type: 'voice' }>;

/** Close code of a WebSocket refused for a missing or wrong token. */
export const CLOSE_BAD_TOKEN = 4401;

/** Close code of a WebSocket refused because too many pages are open already. */
export const CLOSE_TOO_MANY_PAGES = 4429;

/**
 * The cookie that carries the token of the dashboard on `port` (cookies do not tell ports apart:
 * two dashboards on one machine each keep their own).
 */
export function tokenCookie(port: number | string): string {
  return `mindcraft_token_${port}`;
}

/**
 * Form errors by field from zod issues: the first issue of each top-level key, as text.
 *
 * @example fieldErrors(profileSchema.safeParse({ name: 'x' }).error!.issues) // { name: 'a Minecraft username: …' }
 */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length ? String(issue.path[0]) : issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : '';
    out[key] ??= issue.code === 'unrecognized_keys' ? `unknown field "${issue.keys.join('", "')}"` : issue.message;
  }
  return out;
}
