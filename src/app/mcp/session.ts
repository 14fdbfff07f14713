/**
 * The MCP server of the running bots: one {@link McpHub} per process (the tools, the resource
 * watch, the bots), and one SDK `Server` per client session ({@link McpHub.session}), over stdio
 * or Streamable HTTP. A session keeps its own state (its journal cursors, its resource
 * subscriptions, its logging level), so sessions never see each other's.
 *
 * What a session gets, besides `tools/*` and `resources/*`:
 * - `notifications/resources/updated` for the resources it subscribed to, when they change;
 * - `notifications/message` (logging) for every entry of every bot's journal as it is added:
 *   players' chat, bots' lines, commands' outcomes (the bot's model's too), notices, what a bot
 *   said; at level `info`, or `debug` for what the session's own client did (`logging/setLevel`
 *   filters);
 * - `notifications/tools/list_changed` and `notifications/resources/list_changed` when a bot
 *   joins or leaves the fleet (the dashboard's add and stop).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import type { Agent } from '../../agent/agent.ts';
import type { BotEventBus } from '../../agent/events.ts';
import type { JournalEntry } from '../../commands/journal.ts';
import { Cursors, messageView } from './messages.ts';
import { listResources, readResource, ResourceWatch, resourceTemplates, unknownResource } from './resources.ts';
import { McpTools, type McpBots, type McpToolsOptions } from './tools.ts';

/** JSON-RPC error code of a resource that does not exist (the MCP specification's). */
const RESOURCE_NOT_FOUND = -32002;

/** The name and version the server gives in `initialize`. */
export const SERVER_INFO = { name: 'mindcraft-ts', version: '0.1.0' };

/** The running bots as the MCP server sees them: the agents, and their event stream (bots joining or leaving). */
export interface McpFleet extends McpBots {
  readonly bus?: BotEventBus;
}

/** Options of an {@link McpHub}. */
export interface McpHubOptions extends McpToolsOptions {
  /** Whether a bot's own model is off (the client is its brain), for the instructions. */
  modelOff(bot: string): boolean;
  /** Where the bots play, for the instructions, e.g. `127.0.0.1:55916 (Minecraft 1.21.4)`. */
  where: string;
}

/** One client's session: its SDK server (connect it to a transport) and how to end it. */
export interface McpSession {
  readonly server: Server;
  /** Ends the session: its subscriptions and listeners go; the transport is closed. */
  close(): Promise<void>;
}

/**
 * The process's MCP server: what every session shares.
 *
 * @example
 * const hub = new McpHub(running, { client: 'mcp', actionTimeoutS: 300, maxChatChars: 1000, modelOff: () => true, where: '127.0.0.1:55916' });
 * const session = hub.session();
 * await session.server.connect(new StdioServerTransport());
 */
export class McpHub {
  readonly tools: McpTools;
  readonly watch: ResourceWatch;
  readonly #fleet: McpFleet;
  readonly #options: McpHubOptions;
  readonly #sessions = new Set<SessionState>();
  readonly #unsubscribe: (() => void) | undefined;
  #names: string;

  constructor(fleet: McpFleet, options: McpHubOptions) {
    this.#fleet = fleet;
    this.#options = options;
    this.tools = new McpTools(fleet, options);
    this.watch = new ResourceWatch(fleet);
    this.#names = this.#currentNames();
    // Any event may follow a bot joining or leaving: compare the names (cheap) on each.
    this.#unsubscribe = fleet.bus?.subscribe(() => {
      const names = this.#currentNames();
      if (names === this.#names) return;
      this.#names = names;
      for (const session of this.#sessions) session.botsChanged();
    });
  }

  /** Sessions open now. */
  get sessions(): number {
    return this.#sessions.size;
  }

  #currentNames(): string {
    return this.#fleet.agents.map((a) => a.name).join('\n');
  }

  /** What the client is told at `initialize`: the bots, whose hands they are in, the tools and resources. */
  instructions(): string {
    const agents = this.#fleet.agents;
    const off = agents.filter((a) => this.#options.modelOff(a.name)).map((a) => a.name);
    const on = agents.filter((a) => !this.#options.modelOff(a.name)).map((a) => a.name);
    return [
      `Minecraft bots on ${this.#options.where}: ${agents.map((a) => a.name).join(', ') || 'none yet'}.`,
      off.length
        ? `You are the brain of ${off.join(', ')}: the bot's own model is off, so players' chat to it waits in readMessages for you to answer (chat, whisper); goal and conversations with other bots need the bot's own model and do nothing here.`
        : '',
      on.length
        ? `${on.join(', ')} keep their own model on: it answers players and may act too; you share the bot one action at a time, and readMessages shows what it did (outcomes by "model").`
        : '',
      "Each command is a tool: queries read, actions move the bot. One action at a time per bot; a newer action replaces the running one; cancelling a call stops its action; a player's !stop stops it too (the result says so). Failed commands come back as errors that say why and what to do.",
      "Resources mindcraft://bots/{bot}/state, /surroundings and /memory hold each bot's state as JSON; subscribe to hear when they change. Chat heard by the bots: readMessages (a cursor per session) and log notifications.",
    ]
      .filter(Boolean)
      .join('\n');
  }

  /** A new session for one client (connect `server` to its transport). */
  session(): McpSession {
    const state = new SessionState(this, this.#fleet, this.#options.client);
    this.#sessions.add(state);
    return {
      server: state.server,
      close: async () => {
        this.#sessions.delete(state);
        await state.close();
      },
    };
  }

  /** Ends every session and the watch. */
  async close(): Promise<void> {
    this.#unsubscribe?.();
    await Promise.all([...this.#sessions].map((s) => s.close()));
    this.#sessions.clear();
    this.watch.close();
  }
}

/** One session's SDK server and the state it keeps of its own. */
class SessionState {
  readonly server: Server;
  readonly #hub: McpHub;
  readonly #fleet: McpFleet;
  readonly #client: string;
  readonly #cursors = new Cursors();
  /** Resource subscriptions: uri → how to end it. */
  readonly #subscriptions = new Map<string, () => void>();
  /** Journal listeners: agent → how to remove it. */
  readonly #journals = new Map<Agent, () => void>();
  #closed = false;

  constructor(hub: McpHub, fleet: McpFleet, client: string) {
    this.#hub = hub;
    this.#fleet = fleet;
    this.#client = client;
    this.server = new Server(SERVER_INFO, {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        logging: {},
      },
      instructions: hub.instructions(),
    });
    this.#handle();
    this.#listenToJournals();
  }

  #handle(): void {
    const { server } = this;
    const hub = this.#hub;
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: hub.tools.list() }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const token = request.params._meta?.progressToken;
      return hub.tools.call({
        name: request.params.name,
        arguments: request.params.arguments,
        signal: extra.signal,
        cursors: this.#cursors,
        ...(token !== undefined
          ? {
              progress: ({ progress, message }) =>
                void extra
                  .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } })
                  .catch(() => {}),
            }
          : {}),
      });
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: listResources(this.#fleet) }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: resourceTemplates() }));
    server.setRequestHandler(ReadResourceRequestSchema, ({ params: { uri } }) => {
      const text = readResource(this.#fleet, uri);
      if (text === undefined) throw new McpError(RESOURCE_NOT_FOUND, unknownResource(this.#fleet, uri));
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    });
    server.setRequestHandler(SubscribeRequestSchema, ({ params: { uri } }) => {
      if (this.#subscriptions.has(uri)) return {};
      try {
        const off = hub.watch.subscribe(uri, () => void server.sendResourceUpdated({ uri }).catch(() => {}));
        this.#subscriptions.set(uri, off);
      } catch (err) {
        throw new McpError(ErrorCode.InvalidParams, (err as Error).message);
      }
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, ({ params: { uri } }) => {
      this.#subscriptions.get(uri)?.();
      this.#subscriptions.delete(uri);
      return {};
    });
  }

  /** Every bot's journal as log notifications (see the module comment). */
  #listenToJournals(): void {
    const agents = new Set(this.#fleet.agents);
    for (const [agent, off] of this.#journals) {
      if (agents.has(agent)) continue;
      off();
      this.#journals.delete(agent);
    }
    for (const agent of agents) {
      if (this.#journals.has(agent)) continue;
      this.#journals.set(
        agent,
        agent.journal.subscribe((entry) => this.#log(agent.name, entry)),
      );
    }
  }

  #log(bot: string, entry: JournalEntry): void {
    if (this.#closed) return;
    const own =
      (entry.kind === 'outcome' && entry.by === this.#client) ||
      (entry.kind === 'message' && entry.message.via === 'mcp' && entry.message.from === this.#client);
    const level: LoggingLevel = own ? 'debug' : 'info';
    void this.server.sendLoggingMessage({ level, logger: bot, data: messageView(entry) }).catch(() => {});
  }

  /** A bot joined or left: the lists changed, and its journal is listened to (or no more). */
  botsChanged(): void {
    if (this.#closed) return;
    this.#listenToJournals();
    void this.server.sendToolListChanged().catch(() => {});
    void this.server.sendResourceListChanged().catch(() => {});
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const off of this.#subscriptions.values()) off();
    this.#subscriptions.clear();
    for (const off of this.#journals.values()) off();
    this.#journals.clear();
    await this.server.close().catch(() => {});
  }
}
