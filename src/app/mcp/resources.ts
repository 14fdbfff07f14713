/**
 * Each bot's state as MCP resources, JSON read fresh at each `resources/read`:
 * - `mindcraft://bots/{bot}/state`: position, health, food, inventory, equipment, the current
 *   action, the goal, the conversation partner, modes, the task (`./state.ts`, {@link botState});
 * - `mindcraft://bots/{bot}/surroundings`: block types, players, mobs and dropped items within
 *   16 blocks, nearest first;
 * - `mindcraft://bots/{bot}/memory`: the summarised memory, the goal and the saved places.
 *
 * A resource a session subscribed to is watched ({@link ResourceWatch}): it is read again every
 * {@link WATCH_MS} while anyone listens, and each listener hears once per change (so at most
 * twice a second, however fast a bot walks). Nothing is read for a resource nobody watches.
 */
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Agent } from '../../agent/agent.ts';
import { botMemory, botState, surroundings } from './state.ts';
import type { McpBots } from './tools.ts';

/** How often a watched resource is read again (ms). */
export const WATCH_MS = 500;

const KINDS = {
  state: {
    read: botState,
    describe: (bot: string) => `${bot}'s state: position, health, food, inventory, equipment, current action, goal, partner, modes, task.`,
  },
  surroundings: {
    read: surroundings,
    describe: (bot: string) => `What is around ${bot} within 16 blocks, nearest first: block types, players, bots, mobs, dropped items.`,
  },
  memory: {
    read: botMemory,
    describe: (bot: string) => `What ${bot} remembers: its summarised memory, goal and saved places.`,
  },
} as const satisfies Record<string, { read: (agent: Agent) => unknown; describe: (bot: string) => string }>;

type Kind = keyof typeof KINDS;

const URI = /^mindcraft:\/\/bots\/([^/]+)\/([a-z]+)$/;

/** The URI of one bot's resource: `mindcraft://bots/Andy/state`. */
export function resourceUri(bot: string, kind: Kind): string {
  return `mindcraft://bots/${encodeURIComponent(bot)}/${kind}`;
}

/** The bot name and kind a URI names, or undefined when it names none of ours. */
function parseUri(uri: string): { bot: string; kind: Kind } | undefined {
  const m = URI.exec(uri);
  if (!m || !Object.hasOwn(KINDS, m[2]!)) return undefined;
  try {
    return { bot: decodeURIComponent(m[1]!), kind: m[2] as Kind };
  } catch {
    return undefined;
  }
}

/** Every resource of the running bots, as `resources/list` returns them. */
export function listResources(bots: McpBots): Resource[] {
  return bots.agents.flatMap((agent) =>
    (Object.keys(KINDS) as Kind[]).map((kind) => ({
      uri: resourceUri(agent.name, kind),
      name: `${agent.name} ${kind}`,
      description: KINDS[kind].describe(agent.name),
      mimeType: 'application/json',
    })),
  );
}

/** The URI templates, as `resources/templates/list` returns them. */
export function resourceTemplates(): ResourceTemplate[] {
  return (Object.keys(KINDS) as Kind[]).map((kind) => ({
    uriTemplate: `mindcraft://bots/{bot}/${kind}`,
    name: `bot ${kind}`,
    description: KINDS[kind].describe('the bot'),
    mimeType: 'application/json',
  }));
}

/**
 * The text of a resource now (compact JSON), or undefined for a URI that names no running bot's
 * resource.
 */
export function readResource(bots: McpBots, uri: string): string | undefined {
  const named = parseUri(uri);
  const agent = named && bots.agents.find((a) => a.name === named.bot);
  if (!named || !agent) return undefined;
  return JSON.stringify(KINDS[named.kind].read(agent));
}

/** Why `uri` cannot be read or watched (the running bots' resources listed), for an error. */
export function unknownResource(bots: McpBots, uri: string): string {
  const names = bots.agents.map((a) => a.name);
  return `No resource ${JSON.stringify(uri.slice(0, 200))}: the resources are mindcraft://bots/{bot}/state, /surroundings and /memory, for the bots ${names.join(', ') || '(none running)'}.`;
}

interface Watched {
  listeners: Set<() => void>;
  /** The text last read (listeners hear when it changes). */
  last: string | undefined;
}

/**
 * Watches resources for the sessions that subscribed to them: one read per resource every
 * {@link WATCH_MS}, shared by all its listeners; the timer runs only while something is watched.
 *
 * @example
 * const watch = new ResourceWatch(running);
 * const off = watch.subscribe('mindcraft://bots/Andy/state', () => server.sendResourceUpdated({ uri }));
 * off(); watch.close();
 */
export class ResourceWatch {
  readonly #bots: McpBots;
  readonly #intervalMs: number;
  readonly #watched = new Map<string, Watched>();
  #timer: NodeJS.Timeout | undefined;

  constructor(bots: McpBots, intervalMs = WATCH_MS) {
    this.#bots = bots;
    this.#intervalMs = intervalMs;
  }

  /**
   * Calls `listener` each time the resource's content changes, until the returned function is
   * called. Listeners must not throw.
   *
   * @throws Error (with {@link unknownResource}'s text) for a URI that names no running bot's resource.
   */
  subscribe(uri: string, listener: () => void): () => void {
    const text = readResource(this.#bots, uri);
    if (text === undefined) throw new Error(unknownResource(this.#bots, uri));
    let watched = this.#watched.get(uri);
    if (!watched) {
      watched = { listeners: new Set(), last: text };
      this.#watched.set(uri, watched);
    }
    watched.listeners.add(listener);
    this.#timer ??= setInterval(() => this.#sample(), this.#intervalMs).unref();
    const entry = watched;
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size === 0 && this.#watched.get(uri) === entry) this.#watched.delete(uri);
      if (this.#watched.size === 0) this.#stopTimer();
    };
  }

  /** Stops watching anything. */
  close(): void {
    this.#watched.clear();
    this.#stopTimer();
  }

  #stopTimer(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sample(): void {
    for (const [uri, watched] of this.#watched) {
      let text: string | undefined;
      try {
        text = readResource(this.#bots, uri);
      } catch {
        continue; // a bot mid-reconnect: next time
      }
      if (text === watched.last) continue;
      watched.last = text;
      for (const listener of [...watched.listeners]) {
        try {
          listener();
        } catch {
          // a session's failure does not stop the others
        }
      }
    }
  }
}
