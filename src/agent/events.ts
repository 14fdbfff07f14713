/**
 * The one event stream of the bots: what each bot hears and says, what it asks its model and
 * what the model answers (with token counts), the commands it runs and their outputs, its actions,
 * mode switches, connection changes and its log lines. Publishers (the agent, the composition
 * root's decorators in `./observe.ts`) push {@link BotEvent}s into a {@link BotEventBus}; the
 * terminal and `bots/<name>/log.jsonl` (pino, `src/app/logging.ts`), the dashboard page and the
 * run records subscribe to the same bus.
 *
 * The schemas are zod so the dashboard's page validates the events it receives with the very
 * declarations the server publishes: this module must stay browser-safe (it imports zod only,
 * everything else as types).
 */
import { z } from 'zod';

/** Tokens one model call used, as the provider reported them (see `TokenUsage` in models/types.ts). */
export const tokenUsageSchema = z.object({
  input: z.number(),
  cachedInput: z.number(),
  cacheWriteInput: z.number(),
  output: z.number(),
});

const common = {
  /** When it happened, ms since the epoch. */
  t: z.number(),
  /** The bot's name. */
  bot: z.string(),
};

/** A line of chat or a bot-to-bot message, heard (`in`) or said (`out`) by the bot. */
export const chatEventSchema = z.object({
  ...common,
  type: z.literal('chat'),
  direction: z.enum(['in', 'out']),
  /** `bot`: a message between two of our bots; `system`: the agent's own prompts and notices. */
  channel: z.enum(['whisper', 'public', 'bot', 'system']),
  /** The other side: a player's or bot's name; `*` for public chat said to everyone. */
  peer: z.string(),
  text: z.string(),
});

/** One model call, reported when it ends. */
export const modelEventSchema = z.object({
  ...common,
  type: z.literal('model'),
  /** `provider/model` or `oracle`. */
  model: z.string(),
  /** What the call was for (`conversing`, `respond`, `memory`, `coding`), `other` when unsaid. */
  purpose: z.string(),
  /** The reply as the agent got it (tool calls rendered as command text). */
  reply: z.string().optional(),
  /** Why the call failed (`aborted` when it was cancelled). */
  error: z.string().optional(),
  usage: tokenUsageSchema.optional(),
  /** Duration of the call, ms. */
  ms: z.number(),
  /** The request in full (system prompt and turns); subscribers that keep only a summary drop it. */
  request: z
    .object({
      system: z.string(),
      turns: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })),
      tools: z.array(z.string()).optional(),
      maxTokens: z.number().optional(),
    })
    .optional(),
});

/** One command run by the bot (asked by its model or by a player), reported when it ends. */
export const commandEventSchema = z.object({
  ...common,
  type: z.literal('command'),
  /** The call as text, e.g. `!collectBlocks("oak_log", 3)`. */
  command: z.string(),
  kind: z.enum(['query', 'action']),
  /** False when it failed, timed out or was interrupted. */
  ok: z.boolean(),
  /** Its outcome code: one of `OUTCOME_CODES` in `src/skills/outcome.ts` (`ok`, `not_found`, ...). */
  code: z.string().optional(),
  /** Its report, or what went wrong. */
  output: z.string(),
  /** ms. */
  ms: z.number(),
});

/** An action (a command's or a mode's, labelled `mode:<name>`) starting or ending. */
export const actionEventSchema = z.object({
  ...common,
  type: z.literal('action'),
  phase: z.enum(['start', 'end']),
  label: z.string(),
  ok: z.boolean().optional(),
  output: z.string().optional(),
  ms: z.number().optional(),
});

/** A mode switched on or off (`!setMode`, a restart, a profile). */
export const modeEventSchema = z.object({
  ...common,
  type: z.literal('mode'),
  mode: z.string(),
  on: z.boolean(),
});

/** The bot's connection changed (see `SessionState` in `./bot.ts`; `closed`: left on purpose). */
export const connectionEventSchema = z.object({
  ...common,
  type: z.literal('connection'),
  state: z.enum(['online', 'reconnecting', 'down', 'closed']),
  detail: z.string().optional(),
});

/** A free-text log line of the bot (or, with `bot` empty, of the process). */
export const logEventSchema = z.object({
  ...common,
  type: z.literal('log'),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  text: z.string(),
});

/** Every kind of bot event, told apart by `type`. */
export const botEventSchema = z.discriminatedUnion('type', [
  chatEventSchema,
  modelEventSchema,
  commandEventSchema,
  actionEventSchema,
  modeEventSchema,
  connectionEventSchema,
  logEventSchema,
]);
export type BotEvent = z.infer<typeof botEventSchema>;
export type ChatEvent = z.infer<typeof chatEventSchema>;
export type ModelEvent = z.infer<typeof modelEventSchema>;
export type CommandEvent = z.infer<typeof commandEventSchema>;
export type ActionEvent = z.infer<typeof actionEventSchema>;
export type ModeEvent = z.infer<typeof modeEventSchema>;
export type ConnectionEvent = z.infer<typeof connectionEventSchema>;
export type LogEvent = z.infer<typeof logEventSchema>;

/** Distributes `Omit` over the union (each member keeps its own fields). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What a publisher passes: an event without its time (the bus stamps it). */
export type BotEventInput = DistributiveOmit<BotEvent, 't'> & { t?: number };

/** What one bot's publisher passes: an event without its time and bot name. */
export type BotEventOf = DistributiveOmit<BotEvent, 't' | 'bot'>;

/** Publishes one bot's events (see {@link BotEventBus.publisher}). */
export type BotPublisher = (event: BotEventOf) => void;

/**
 * A typed publish/subscribe channel of {@link BotEvent}s, in process. Listeners run synchronously
 * in subscription order; a listener that throws is skipped (the others and the publisher carry on).
 *
 * @example
 * const bus = new BotEventBus();
 * const off = bus.subscribe((e) => { if (e.type === 'command') seen.push(`${e.bot}: ${e.command}`); });
 * bus.publish({ type: 'command', bot: 'Andy', command: '!stats', kind: 'query', ok: true, output: '…', ms: 2 });
 * off();
 */
export class BotEventBus {
  readonly #listeners = new Set<(event: BotEvent) => void>();

  /** Stamps `event` with the time (unless it has one) and hands it to every listener. */
  publish(event: BotEventInput): BotEvent {
    const stamped = { ...event, t: event.t ?? Date.now() };
    for (const listener of [...this.#listeners]) {
      try {
        listener(stamped);
      } catch {
        // one failing listener must not silence the others or break the bot
      }
    }
    return stamped;
  }

  /**
   * Calls `listener` with every event published from now on.
   *
   * @returns a function that removes the listener.
   */
  subscribe(listener: (event: BotEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** A publisher that fills in `bot`. */
  publisher(bot: string): BotPublisher {
    return (event) => {
      this.publish({ ...event, bot });
    };
  }

  /** A `log` callback (as the agent's parts take) that publishes `info` log events of `bot`. */
  logger(bot: string): (line: string) => void {
    return (text) => {
      this.publish({ type: 'log', bot, level: 'info', text });
    };
  }
}

/** Longest model reply or command output shown in a one-line description, in characters. */
const SHOWN_CHARS = 300;

function short(text: string, max = SHOWN_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * One readable line for `event`, without the time or the bot's name (the terminal and the page
 * show those beside it). A log line's own `[name] ` prefix is dropped.
 *
 * @example describeEvent({ type: 'command', t: 0, bot: 'Andy', command: '!stats', kind: 'query', ok: true, output: 'Health 20', ms: 3 })
 * // '!stats → Health 20 (3 ms)'
 */
export function describeEvent(event: BotEvent): string {
  switch (event.type) {
    case 'chat': {
      const where =
        event.channel === 'public'
          ? 'in chat'
          : event.channel === 'bot'
            ? '(bot message)'
            : event.channel === 'system'
              ? '(system)'
              : '(whisper)';
      return event.direction === 'in'
        ? `${event.peer} ${where}: ${short(event.text)}`
        : `says${event.peer === '*' ? '' : ` to ${event.peer}`} ${where}: ${short(event.text)}`;
    }
    case 'model': {
      const tokens = event.usage ? `, ${event.usage.input}+${event.usage.output} tokens` : '';
      const head = `${event.model} (${event.purpose}, ${seconds(event.ms)}${tokens})`;
      return event.error ? `${head} failed: ${short(event.error)}` : `${head}: ${short(event.reply ?? '')}`;
    }
    case 'command':
      return `${event.command} → ${short(event.output)} (${event.ok ? '' : 'failed, '}${seconds(event.ms)})`;
    case 'action':
      return event.phase === 'start'
        ? `starts ${event.label}`
        : `${event.label} ended${event.ok ? '' : ' (not ok)'}${event.ms === undefined ? '' : ` after ${seconds(event.ms)}`}`;
    case 'mode':
      return `mode ${event.mode} switched ${event.on ? 'on' : 'off'}`;
    case 'connection':
      return `connection ${event.state}${event.detail ? `: ${short(event.detail)}` : ''}`;
    case 'log':
      return event.bot && event.text.startsWith(`[${event.bot}] `) ? event.text.slice(event.bot.length + 3) : event.text;
  }
}

/** The pino level of `event`: failures warn, connection losses and log errors are errors, actions are debug. */
export function eventLevel(event: BotEvent): 'debug' | 'info' | 'warn' | 'error' {
  switch (event.type) {
    case 'log':
      return event.level;
    case 'model':
      return event.error ? 'warn' : 'info';
    case 'connection':
      return event.state === 'down' ? 'error' : event.state === 'online' || event.state === 'closed' ? 'info' : 'warn';
    // Commands' actions are reported by their command event; modes' actions are news.
    case 'action':
      return event.label.startsWith('mode:') ? 'info' : 'debug';
    case 'chat':
    case 'command':
    case 'mode':
      return 'info';
  }
}
