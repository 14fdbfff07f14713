/**
 * The MCP tools: one per command the running bots have, generated from the command registry
 * (`commandTools`: the same parameters, types, ranges and docs a model gets), plus `chat`,
 * `whisper` and `readMessages`. Commands blocked for every bot (`blocked_actions`, `!newAction`
 * without `allow_insecure_coding`) are absent, as they are from a model's tools; a command only
 * some bots lack is listed, and calling it for such a bot says how to enable it. With more than
 * one bot every tool takes a `bot` argument.
 *
 * A call is turned back into the command text a player would write (`toolCallToCommand`) and run
 * through the agent's one path for commands from outside (`Agent.runCommand`): the parser's
 * precise error comes back as a tool error (`isError`), never as a protocol failure; an action
 * interrupts what runs, reports progress while it runs, stops when the call is cancelled (the
 * way `!stop` does) or by its time bound, and a player's `!stop` ends it with a result saying who
 * stopped it.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Agent } from '../../agent/agent.ts';
import type { CommandContext } from '../../commands/context.ts';
import type { CommandDef } from '../../commands/registry.ts';
import { exampleCall, signature } from '../../commands/registry.ts';
import { commandTools } from '../../commands/tools.ts';
import { toolCallToCommand } from '../../models/tools.ts';
import { OUTCOME_CODES } from '../../skills/outcome.ts';
import { Cursors, DEFAULT_READ, MAX_READ, readJournal } from './messages.ts';
import { reportProgress, type Progress } from './progress.ts';

/** The running bots, read at each request (bots may be added or stopped meanwhile). */
export interface McpBots {
  readonly agents: readonly Agent[];
}

/** Settings the tools follow. */
export interface McpToolsOptions {
  /**
   * The name the client's commands and messages are recorded under: the journal's `by`, the
   * history (`mcp: !collectBlocks(...)`), and `... was cancelled by mcp`.
   */
  client: string;
  /** The bots' `action_timeout_s` (seconds), shown in the actions' descriptions. */
  actionTimeoutS: number;
  /** Longest text of one `chat` or `whisper` call (the bots' `max_chat_chars`). */
  maxChatChars: number;
}

/** One tool call, as the session hands it over. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown> | undefined;
  /** Fires when the client cancels the call. */
  signal: AbortSignal;
  /** Sends a progress notification; absent when the client asked for none. */
  progress?: (progress: Progress) => void;
  /** The session's reading positions in the bots' journals. */
  cursors: Cursors;
}

/** A Minecraft player name (vanilla's rule). */
const playerName = z.string().regex(/^\w{3,16}$/, 'a player name: 3–16 letters, digits or _');

/** The result schema of every command tool: the command's typed outcome (`src/skills/outcome.ts`). */
const OUTCOME_SCHEMA: Tool['outputSchema'] = {
  type: 'object',
  properties: {
    bot: { type: 'string', description: 'the bot that ran it' },
    command: { type: 'string', description: 'the command, e.g. !collectBlocks' },
    args: { type: 'object', description: 'its arguments as the parser converted them' },
    ok: { type: 'boolean', description: 'it did what was asked' },
    code: {
      type: 'string',
      enum: Object.keys(OUTCOME_CODES),
      description: 'why, for code to read (ok, not_found, interrupted, timeout, ...)',
    },
    text: { type: 'string', description: 'what happened, for a reader' },
    data: { type: 'object', description: 'facts of the outcome: gained, spent, missing, sought, position, handOver, inventory, ...' },
  },
  required: ['bot', 'command', 'args', 'ok', 'code', 'text'],
};

function failed(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** The errors of a zod parse, one line: `message: expected string, received undefined`. */
function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
}

/**
 * The tools of the running bots and their calls.
 *
 * @example
 * const tools = new McpTools(running, { client: 'mcp', actionTimeoutS: 300, maxChatChars: 1000 });
 * tools.list(); // [{ name: 'stats', ... }, { name: 'collectBlocks', inputSchema: { properties: { type, num } } }, ...]
 * await tools.call({ name: 'collectBlocks', arguments: { type: 'oak_log', num: 3 }, signal, cursors });
 */
export class McpTools {
  readonly #bots: McpBots;
  readonly #options: McpToolsOptions;
  readonly #extras: Record<string, { description: string; schema: z.ZodObject; readOnly: boolean }>;

  constructor(bots: McpBots, options: McpToolsOptions) {
    this.#bots = bots;
    this.#options = options;
    const text = z.string().min(1).max(options.maxChatChars);
    this.#extras = {
      chat: {
        description:
          'Say a line in public chat as the bot (every player hears it). A line starting with / is said, never run as a server command.',
        schema: z.strictObject({ message: text.describe('what the bot says') }),
        readOnly: false,
      },
      whisper: {
        description: 'Whisper a line to one player as the bot.',
        schema: z.strictObject({ player: playerName.describe('who hears it'), message: text.describe('what the bot whispers') }),
        readOnly: false,
      },
      readMessages: {
        description:
          "What the bot heard and did since this session's last read, oldest first: players' chat and whispers that reached it, its conversation partners' lines, the outcomes of commands (by its own model, a player or a client), conversation notices and what it said. Keeps a cursor per bot for this session; `since` reads from another point (a `seq`).",
        schema: z.strictObject({
          since: z.number().int().min(0).optional().describe('read the entries after this seq (default: where this session left off)'),
          limit: z.number().int().min(1).max(MAX_READ).optional().describe(`entries at most (default ${DEFAULT_READ})`),
        }),
        readOnly: true,
      },
    };
  }

  /** The bots' commands, each once, in the first bot's order (a command only later bots have comes after). */
  #commands(): Map<string, CommandDef<CommandContext>> {
    const defs = new Map<string, CommandDef<CommandContext>>();
    for (const agent of this.#bots.agents) for (const def of agent.commands.list()) if (!defs.has(def.name)) defs.set(def.name, def);
    return defs;
  }

  /** The `bot` property, when more than one bot runs. */
  #botProperty(): { schema: Record<string, unknown>; names: string[] } | undefined {
    const names = this.#bots.agents.map((a) => a.name);
    if (names.length < 2) return undefined;
    return { names, schema: { type: 'string', enum: names, description: `the bot: ${names.join(', ')}` } };
  }

  /** How a command runs, added to its description. */
  #kindNote(def: CommandDef<CommandContext>): string {
    if (def.kind === 'query') return 'Query: reads state, never moves the bot.';
    if (def.alongside) return 'Runs at once, beside the current action.';
    const bound = def.timeBound ? 'runs until stopped or its own end' : `stopped after ${this.#options.actionTimeoutS} s at most`;
    return `Action: one at a time per bot (a newer action replaces it); ${bound}; cancelling the call stops it, as a player's !stop does. Progress is reported while it runs.`;
  }

  /** Every tool, as `tools/list` returns them. */
  list(): Tool[] {
    const bot = this.#botProperty();
    const withBot = (schema: { properties?: unknown; required?: unknown }): Tool['inputSchema'] => {
      const properties = (schema.properties ?? {}) as Record<string, object>;
      const required = (schema.required ?? []) as string[];
      return {
        type: 'object',
        properties: bot ? { bot: bot.schema, ...properties } : properties,
        required: bot ? ['bot', ...required] : required,
        additionalProperties: false,
      };
    };
    const tools: Tool[] = [];
    for (const def of this.#commands().values()) {
      const [spec] = commandTools([def]);
      if (!spec) continue;
      tools.push({
        name: spec.name,
        description: `${def.description} ${this.#kindNote(def)} As a command: ${signature(def)}.`,
        inputSchema: withBot(spec.parameters),
        outputSchema: OUTCOME_SCHEMA,
        annotations: { title: def.name, readOnlyHint: def.kind === 'query', openWorldHint: true },
      });
    }
    for (const [name, extra] of Object.entries(this.#extras)) {
      const schema = z.toJSONSchema(extra.schema) as { properties?: unknown; required?: unknown };
      tools.push({
        name,
        description: extra.description,
        inputSchema: withBot(schema),
        annotations: { readOnlyHint: extra.readOnly, openWorldHint: true },
      });
    }
    return tools;
  }

  /**
   * Runs one tool call. Bad arguments, an unknown bot, a malformed or disabled command are tool
   * errors (`isError`, the text says what was wrong and how to call it right).
   *
   * @throws McpError (InvalidParams) for a tool that does not exist.
   */
  async call(call: ToolCall): Promise<CallToolResult> {
    const args = { ...call.arguments };
    const extra = this.#extras[call.name];
    const def = extra ? undefined : this.#commands().get(`!${call.name}`);
    if (!extra && !def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${call.name}": tools/list names the tools.`);
    const agent = this.#agent(args.bot);
    if (typeof agent === 'string') return failed(agent);
    delete args.bot;
    if (extra) {
      const parsed = extra.schema.safeParse(args);
      if (!parsed.success) return failed(`${call.name}: ${issues(parsed.error)}.`);
      return this.#extra(call.name, agent, parsed.data, call.cursors);
    }
    return this.#command(def!, agent, args, call);
  }

  /** The bot a call names, or what is wrong with the name. */
  #agent(name: unknown): Agent | string {
    const agents = this.#bots.agents;
    if (agents.length === 0) return 'No bot is running.';
    const names = agents.map((a) => a.name).join(', ');
    if (name === undefined) {
      if (agents.length === 1) return agents[0]!;
      return `Name the bot: "bot" must be one of ${names}.`;
    }
    return agents.find((a) => a.name === name) ?? `"bot" must be one of ${names}, got ${JSON.stringify(name)}.`;
  }

  async #command(def: CommandDef<CommandContext>, agent: Agent, args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult> {
    const unknown = Object.keys(args).filter((k) => !Object.hasOwn(def.params, k));
    if (unknown.length) {
      const params = Object.keys(def.params);
      return failed(
        `${def.name} has no parameter ${unknown.map((k) => `"${k}"`).join(', ')}; ${params.length ? `its parameters: ${params.join(', ')}` : 'it takes none'}. Usage: ${signature(def)}. Example: ${exampleCall(def)}`,
      );
    }
    const [spec] = commandTools([def]);
    const text = toolCallToCommand({ name: call.name, arguments: args }, spec ? [spec] : []);
    const acts = def.kind === 'action' && !def.alongside;
    let stopProgress: (() => void) | undefined;
    if (acts && call.progress) {
      let bound: number | 'until stopped' | undefined;
      try {
        bound = def.timeBound?.(args as never);
      } catch {
        bound = undefined;
      }
      const boundS = bound === 'until stopped' ? undefined : bound === undefined ? this.#options.actionTimeoutS : Math.round(bound / 1000);
      stopProgress = reportProgress(agent, def.name, args, boundS, call.progress);
    }
    try {
      const run = await agent.runCommand({ from: this.#options.client, text, channel: 'whisper', via: 'mcp' }, call.signal);
      if (run.kind === 'error') return failed(run.error);
      if (run.kind === 'dropped') return failed(`${agent.name} did not take it: ${run.reason}.`);
      const { outcome } = run;
      return {
        isError: !outcome.ok,
        content: [{ type: 'text', text: outcome.text }],
        structuredContent: { bot: agent.name, ...outcome },
      };
    } finally {
      stopProgress?.();
    }
  }

  #extra(name: string, agent: Agent, args: Record<string, unknown>, cursors: Cursors): CallToolResult {
    if (name === 'chat') {
      const message = args.message as string;
      agent.outbox.chat(message);
      agent.journal.add({ kind: 'said', to: '*', text: message });
      return { content: [{ type: 'text', text: `${agent.name} says in public chat: ${message}` }] };
    }
    if (name === 'whisper') {
      const player = args.player as string;
      const message = args.message as string;
      agent.outbox.whisper(player, message);
      agent.journal.add({ kind: 'said', to: player, text: message });
      return { content: [{ type: 'text', text: `${agent.name} whispers to ${player}: ${message}` }] };
    }
    const since = typeof args.since === 'number' ? args.since : cursors.get(agent.name);
    const read = readJournal(agent.name, agent.journal, since, typeof args.limit === 'number' ? args.limit : DEFAULT_READ);
    cursors.set(agent.name, read.cursor);
    return { content: [{ type: 'text', text: JSON.stringify(read) }], structuredContent: { ...read } };
  }
}
