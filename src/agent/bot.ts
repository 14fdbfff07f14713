/**
 * Creating mineflayer bots with the plugins our skills use, and keeping one connected: a
 * {@link BotSession} rejoins after a kick, a lost connection or a server restart, with bounded
 * exponential backoff, behind a stable bot handle that the agent, its modes, transports and
 * outbox hold for the whole life of the process.
 */
import { EventEmitter } from 'node:events';
import mineflayer, { type Bot } from 'mineflayer';
import pathfinderPkg from 'mineflayer-pathfinder';
import { plugin as collectBlock } from 'mineflayer-collectblock';
import prismarineChat from 'prismarine-chat';
import {
  applyUpstreamFixes,
  doorways,
  digOnTheGround,
  findBlocksInRange,
  furnaceProperties,
  packetsAfterPlugins,
  packetsBeforeEnd,
  playerLookup,
  toolWithoutChests,
  versionFixes,
} from '../upstream/index.ts';
import { waitFor } from '../util/abort.ts';
import { chatIdentity } from './chat-identity.ts';

const { pathfinder, Movements } = pathfinderPkg;
// prismarine-chat is CommonJS (`module.exports = loader`) but its typings declare an ES default export.
const chatLoader = prismarineChat as unknown as typeof prismarineChat.default;

export interface ServerAddress {
  host: string;
  port: number;
  /** Minecraft version to speak, e.g. `1.21.4`. */
  version: string;
  auth: 'offline' | 'microsoft';
}

/**
 * Why a bot is off the server, as far as it can tell: `refused`, the server said no for good (a
 * ban, an IP ban, the whitelist: it holds until an operator lifts it, so retrying is pointless);
 * `unreachable`, nothing answered (connection refused, no such host, no spawn in time); `dropped`,
 * anything else (a kick, a lost connection, a version mismatch).
 */
export type ConnectFailure = 'refused' | 'unreachable' | 'dropped';

/** The bot could not join the server (or rejoin it); the message says why and what to check. */
export class ConnectError extends Error {
  override name = 'ConnectError';
  /** What kind of failure it was (default `dropped`). */
  readonly failure: ConnectFailure;
  /** The cause in a few words, after the bot's name (`was banned: …`); default the message. */
  readonly summary: string;

  constructor(message: string, failure: ConnectFailure = 'dropped', summary = message) {
    super(message);
    this.failure = failure;
    this.summary = summary;
  }
}

/**
 * Connects `username` to the server and resolves once the bot has spawned, its chunks loaded and
 * it has landed (on the ground or in a liquid; at most {@link LAND_MS}).
 * Loads mineflayer-pathfinder (with default movements), mineflayer-collectblock, and
 * {@link chatIdentity} (chat senders from the packets, not from mineflayer's chat patterns).
 *
 * @param timeoutMs give up after this many ms (default 30 000).
 * @throws ConnectError for a refused or timed-out connection, a kick, or a version mismatch.
 */
export async function connectBot(username: string, address: ServerAddress, timeoutMs = 30_000): Promise<Bot> {
  const where = `${address.host}:${address.port}`;
  applyUpstreamFixes(); // before createBot: its plugins make the block classes (src/upstream/)
  await toolWithoutChests(); // mineflayer-tool's endless retrieval from no chests (src/upstream/mineflayer-tool.ts)
  const bot = mineflayer.createBot({
    username,
    host: address.host,
    port: address.port,
    version: address.version,
    auth: address.auth,
    hideErrors: true,
    logErrors: false,
  });
  packetsBeforeEnd(bot); // a kick or refusal read before the end, not after it (src/upstream/minecraft-protocol.ts)
  packetsAfterPlugins(bot); // … and read once mineflayer's plugins listen (src/upstream/mineflayer.ts)
  bot.loadPlugin(playerLookup); // library hot spots (src/upstream/), each skipped once upstream has its fix
  bot.loadPlugin(versionFixes); // mineflayer on 1.21.6+ (src/upstream/mineflayer-versions.ts)
  bot.loadPlugin(furnaceProperties); // furnace properties read with the window (src/upstream/mineflayer.ts)
  bot.loadPlugin(digOnTheGround); // a dig started in the air waits to land (src/upstream/mineflayer.ts)
  bot.loadPlugin(findBlocksInRange); // findBlocks over its whole distance (src/upstream/mineflayer.ts)
  bot.loadPlugin(pathfinder);
  bot.loadPlugin(collectBlock);
  bot.loadPlugin(chatIdentity);
  // An 'error' event without a listener would throw out of the socket's handler: keep one for good.
  bot.on('error', () => {});
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string, failure: ConnectFailure = 'dropped') => {
        clearTimeout(timer);
        reject(new ConnectError(`${username} could not join ${where}: ${why}`, failure));
      };
      const timer = setTimeout(
        () =>
          fail(`no spawn within ${Math.round(timeoutMs / 1000)} s. Is a Minecraft ${address.version} server running there?`, 'unreachable'),
        timeoutMs,
      );
      bot.once('spawn', () => {
        clearTimeout(timer);
        resolve();
      });
      bot.once('error', (err: NodeJS.ErrnoException) =>
        fail(
          err.code === 'ECONNREFUSED'
            ? `connection refused. Start the server, or set "host"/"port" in settings.json (or use "server": "embedded").`
            : err.message,
          UNREACHABLE_CODES.has(err.code ?? '') ? 'unreachable' : 'dropped',
        ),
      );
      bot.once('kicked', (reason) => {
        const refusal = finalRefusal(bot, reason);
        fail(refusal ? `${refusal}: ${kickText(bot, reason)}` : `kicked: ${kickText(bot, reason)}`, refusal ? 'refused' : 'dropped');
      });
      bot.once('end', (reason) => fail(`disconnected (${reason})`));
    });
    // minecraft-protocol keeps a client's last 1,024 chat messages (made at login) as evidence for
    // Microsoft's chat reports, about 0.9 MB a bot once full: a bot in offline mode can send none.
    const history = (bot._client as unknown as { _lastChatHistory?: { capacity: number; length: number } })._lastChatHistory;
    if (address.auth === 'offline' && history) {
      history.capacity = 0;
      history.length = 0;
    }
    await bot.waitForChunksToLoad();
    // A bot's physics starts in the air (onGround false) and lands a tick or two later; an action
    // taken before reads the air: a dig takes five times as long (vanilla's off-ground penalty).
    await waitFor(() => bot.entity.onGround || isInLiquid(bot), LAND_MS);
  } catch (err) {
    bot.end();
    throw err;
  }
  const movements = new Movements(bot);
  movements.allowSprinting = true;
  movements.allowParkour = true;
  doorways(bot); // open doors walked through, none dug, with every Movements (src/upstream/mineflayer-pathfinder.ts)
  bot.pathfinder.setMovements(movements);
  return bot;
}

/** The longest a joined bot is given to land before {@link connectBot} resolves (ms); one that falls farther resolves falling. */
const LAND_MS = 2_000;

/** Whether the bot is in water or lava (mineflayer's physics flags; not in its types). */
function isInLiquid(bot: Bot): boolean {
  const entity = bot.entity as { isInWater?: boolean; isInLava?: boolean };
  return !!(entity.isInWater || entity.isInLava);
}

/** Socket errors that mean nothing answered at that address. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/**
 * Vanilla's kick reason when an operator gives none (`KickCommand`: `/kick <targets>` without a
 * reason kicks with `multiplayer.disconnect.kicked`).
 */
export const KICKED_BY_OPERATOR = 'multiplayer.disconnect.kicked';

/**
 * Vanilla's refusals that hold until an operator lifts them, by translation key: a ban seen as
 * the kick of `/ban` (`BanPlayerCommands`: `multiplayer.disconnect.banned`) or at login, and an IP
 * ban or the whitelist at login (`PlayerList.canPlayerLogin`).
 */
const FINAL_REFUSALS: Readonly<Record<string, 'banned' | 'not white-listed'>> = {
  'multiplayer.disconnect.banned': 'banned',
  'multiplayer.disconnect.banned.reason': 'banned',
  'multiplayer.disconnect.banned_ip.reason': 'banned',
  'multiplayer.disconnect.ip_banned': 'banned',
  'multiplayer.disconnect.not_whitelisted': 'not white-listed',
};

/** The parsed chat component of a kick reason (JSON text before 1.20.3, NBT after), or undefined. */
function kickMessage(bot: Bot, reason: unknown): { translate?: string; toString(): string } | undefined {
  try {
    const ChatMessage = chatLoader(bot.registry as never); // accepts a registry too (typed as a version string only)
    return ChatMessage.fromNotch(reason as string);
  } catch {
    return undefined;
  }
}

/**
 * A kick reason as plain text. Servers send a chat component: JSON text before 1.20.3, NBT after;
 * prismarine-chat reads both and resolves translation keys (`multiplayer.disconnect.kicked` →
 * "Kicked by an operator"). An empty reason reads as vanilla's default, "Kicked by an operator"
 * ({@link KICKED_BY_OPERATOR}, its text from minecraft-data's language file).
 */
export function kickText(bot: Bot, reason: unknown): string {
  const message = kickMessage(bot, reason);
  if (!message) return typeof reason === 'string' ? reason : JSON.stringify(reason);
  // One line: vanilla's ban texts break the line before the reason.
  const text = message
    .toString()
    .trim()
    .replace(/\s*\n\s*/g, ' ');
  if (text) return text;
  const language = (bot.registry as { language?: Record<string, string> } | undefined)?.language;
  return language?.[KICKED_BY_OPERATOR] ?? 'Kicked by an operator';
}

/**
 * Whether a kick reason is a refusal that holds until an operator lifts it: `banned` or
 * `not white-listed` (see {@link FINAL_REFUSALS}); undefined for any other kick. Read from the
 * component's translation key, or, for servers that send plain text, from its words: vanilla's
 * English texts of those keys (minecraft-data's language file) and Bukkit's "You are not
 * whitelisted on this server!".
 */
export function finalRefusal(bot: Bot, reason: unknown): 'banned' | 'not white-listed' | undefined {
  const message = kickMessage(bot, reason);
  const key = message?.translate;
  if (key && FINAL_REFUSALS[key]) return FINAL_REFUSALS[key];
  const text = (message?.toString() ?? (typeof reason === 'string' ? reason : '')).trim();
  if (!text) return undefined;
  const language = (bot.registry as { language?: Record<string, string> } | undefined)?.language ?? {};
  for (const [k, refusal] of Object.entries(FINAL_REFUSALS)) {
    // The fixed start of the text, before its first argument or line break.
    const start = language[k]?.split(/%s|\n/)[0]?.trim();
    if (start && text.startsWith(start)) return refusal;
  }
  return /\bnot white-?listed\b/i.test(text) ? 'not white-listed' : undefined;
}

/** Stops everything the bot is doing with its body: pathfinding, digging, held keys. */
export function releaseControls(bot: Bot): void {
  try {
    bot.pathfinder?.stop();
    bot.pathfinder?.setGoal(null);
    bot.stopDigging();
    bot.clearControlStates();
  } catch {
    // the bot may already be disconnected
  }
}

/**
 * How a {@link BotSession} retries: after a failed join or a lost connection it waits
 * `delayMs`, then twice as long before each next attempt, at most `maxDelayMs`, and gives up
 * after `attempts` attempts in a row (the settings `reconnect_attempts`, `reconnect_delay_ms`,
 * `reconnect_max_delay_ms`).
 */
export interface ReconnectPolicy {
  /** Attempts after a failure before giving up; 0 = never retry. */
  attempts: number;
  /** Wait before the first attempt, in ms. */
  delayMs: number;
  /** Longest wait between two attempts, in ms. */
  maxDelayMs: number;
}

/** 1, 2, 4, 8, 16, 30, 30, 30 s: about two minutes for a server to come back. */
export const DEFAULT_RECONNECT: ReconnectPolicy = { attempts: 8, delayMs: 1_000, maxDelayMs: 30_000 };

/**
 * A rejoined connection that ends sooner than this (ms) makes the next waits longer, as if its
 * attempts had failed (a server that kicks a bot right after each rejoin is not hammered); one
 * that lasts this long clears that.
 */
export const STABLE_CONNECTION_MS = 30_000;

/** The wait before attempt `attempt` (1-based) under `policy`, in ms. */
export function backoffDelay(policy: ReconnectPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.delayMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * `online`: connected and spawned; `reconnecting`: lost, waiting for or making an attempt;
 * `down`: gave up after the policy's attempts; `closed`: {@link BotSession.close} was called or
 * the bot quit on purpose.
 */
export type SessionState = 'online' | 'reconnecting' | 'down' | 'closed';

/** What a {@link BotSession} tells its owner. */
export interface BotSessionEvents {
  /** The connection was lost (`why`: "was kicked: …", "lost its connection (…)"); a rejoin follows unless the server banned it. */
  disconnected: [why: string];
  /** A new connection is up after `attempt` attempts; the handle now reaches it. */
  reconnected: [attempt: number];
  /**
   * The bot stays offline: every attempt failed, or the server refused it for good (a ban, the
   * whitelist: `error.failure` is `refused`, and no attempt is made).
   */
  down: [error: ConnectError];
}

export interface BotSessionOptions {
  policy?: ReconnectPolicy;
  log?: (line: string) => void;
  /** Joins once (default {@link connectBot}); tests may count or fail attempts. */
  connect?: (username: string, address: ServerAddress) => Promise<Bot>;
}

interface TrackedListener {
  event: string | symbol;
  listener: (...args: unknown[]) => unknown;
  /** What is attached to the live bot: the listener, or its run-once wrapper. */
  fn: (...args: unknown[]) => unknown;
  /** Added with `prependListener`: stays ahead of the bot's own listeners on a new bot too. */
  prepend: boolean;
  /** The raw bot `fn` is attached to now. */
  on: Bot;
}

/** The EventEmitter methods the handle implements itself, to track its listeners. */
type ListenerMethod =
  'on' | 'addListener' | 'prependListener' | 'once' | 'prependOnceListener' | 'off' | 'removeListener' | 'removeAllListeners';

/**
 * One bot's connection, kept up for the life of the process.
 *
 * {@link BotSession.bot} is a stable handle to whichever mineflayer Bot is live: reads, writes
 * and method calls reach the current bot, and listeners added through the handle (`on`, `once`,
 * `off`, ...) are moved to the new bot on every reconnect. So the agent, its modes, the whisper
 * transport and the chat outbox keep one reference and need not know about reconnects.
 * Plugins are loaded per bot (`connectBot` loads pathfinder and collectblock; skills load the
 * rest lazily); state kept on the old Bot object (its entity, inventory, windows) is the
 * server's and arrives again with the new one.
 *
 * After a kick or a lost connection the session logs the reason, emits `disconnected`, and
 * rejoins under its {@link ReconnectPolicy}: `reconnected` on success, else `down` with a clear
 * line in the log. The count of attempts starts again once the bot has spawned again (a bot
 * kicked nine times, rejoining each time, is not given up on); a rejoined connection that ends
 * within {@link STABLE_CONNECTION_MS} keeps the waits growing. A ban or a whitelist refusal is
 * final ({@link finalRefusal}): `down` at once, with the server's reason, and no attempt. A bot
 * quitting on purpose (`bot.quit()`, {@link close}) is not rejoined.
 *
 * @example
 * const session = await BotSession.open('Andy', address, { log: console.error });
 * session.bot.on('chat', (from, text) => ...); // survives reconnects
 * session.on('reconnected', () => ...);
 */
export class BotSession extends EventEmitter<BotSessionEvents> {
  readonly username: string;
  readonly address: ServerAddress;
  /** The stable handle (see the class comment); type it as the Bot it stands for. */
  readonly bot: Bot;
  readonly #policy: ReconnectPolicy;
  readonly #log: (line: string) => void;
  readonly #connect: (username: string, address: ServerAddress) => Promise<Bot>;
  readonly #listeners: TrackedListener[] = [];
  #current: Bot;
  #state: SessionState = 'online';
  /** Rejoined connections in a row that ended within {@link STABLE_CONNECTION_MS}: each makes the waits longer. */
  #shortLived = 0;
  /** Whether the live connection is a rejoin (the first one is not: its end never counts as short-lived). */
  #rejoined = false;
  #stableTimer: NodeJS.Timeout | undefined;
  #waitTimer: NodeJS.Timeout | undefined;
  #wake: (() => void) | undefined;

  private constructor(bot: Bot, username: string, address: ServerAddress, options: BotSessionOptions) {
    super();
    this.username = username;
    this.address = address;
    this.#policy = options.policy ?? DEFAULT_RECONNECT;
    this.#log = options.log ?? (() => {});
    this.#connect = options.connect ?? ((name, where) => connectBot(name, where));
    this.#current = bot;
    this.bot = this.#handle();
    this.#watch(bot);
  }

  /**
   * Joins `username` to the server, retrying under `options.policy` (each failure is logged with
   * the wait before the next attempt).
   *
   * @throws ConnectError once every attempt failed; the message says why and how often it tried.
   */
  static async open(username: string, address: ServerAddress, options: BotSessionOptions = {}): Promise<BotSession> {
    const policy = options.policy ?? DEFAULT_RECONNECT;
    const log = options.log ?? (() => {});
    const connect = options.connect ?? ((name: string, where: ServerAddress) => connectBot(name, where));
    for (let attempt = 1; ; attempt++) {
      try {
        return new BotSession(await connect(username, address), username, address, options);
      } catch (err) {
        const message = (err as Error).message;
        const failure = err instanceof ConnectError ? err.failure : 'dropped';
        // A ban or the whitelist holds until an operator lifts it: no retry.
        if (failure === 'refused') throw new ConnectError(`${message} The server refused it for good: no retry.`, failure);
        if (attempt > policy.attempts) {
          throw new ConnectError(policy.attempts > 0 ? `${message} Gave up after ${attempt} attempts.` : message, failure);
        }
        const wait = backoffDelay(policy, attempt);
        log(`${message} Retrying in ${seconds(wait)} (retry ${attempt} of ${policy.attempts}).`);
        await new Promise((resolve) => setTimeout(resolve, wait)); // kept referenced: the process waits for it
      }
    }
  }

  /** The live mineflayer Bot (replaced on every reconnect); most code should hold {@link bot}. */
  get current(): Bot {
    return this.#current;
  }

  get state(): SessionState {
    return this.#state;
  }

  /** Connected and spawned. */
  get online(): boolean {
    return this.#state === 'online';
  }

  /** Stops rejoining (a pending attempt is cancelled); the caller quits the bot itself. */
  close(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    clearTimeout(this.#stableTimer);
    clearTimeout(this.#waitTimer);
    this.#wake?.();
  }

  /** Read through a method: the state changes while `#rejoin` awaits. */
  #closed(): boolean {
    return this.#state === 'closed';
  }

  /** Watches one live bot for the end of its connection. */
  #watch(bot: Bot): void {
    let kicked: string | undefined;
    let error: string | undefined;
    let refusal: ReturnType<typeof finalRefusal>;
    bot.on('error', (err) => {
      error = err.message;
    });
    bot.once('kicked', (reason) => {
      kicked = kickText(bot, reason);
      refusal = finalRefusal(bot, reason);
    });
    let stable = false;
    bot.once('end', (reason) => {
      if (bot !== this.#current) return;
      clearTimeout(this.#stableTimer);
      if (this.#state === 'closed' || reason === 'disconnect.quitting') {
        this.#state = 'closed';
        return;
      }
      if (this.#rejoined && !stable) this.#shortLived++;
      const why =
        kicked === undefined
          ? `lost its connection (${reason}${error ? `: ${error}` : ''})`
          : refusal
            ? `was ${refusal}: ${kicked}`
            : `was kicked: ${kicked}`;
      this.#state = 'reconnecting';
      this.emit('disconnected', why);
      if (refusal) this.#giveUp(new ConnectError(`${this.username} ${why}. ${FINAL}`, 'refused', why));
      else void this.#rejoin(why);
    });
    clearTimeout(this.#stableTimer);
    this.#stableTimer = setTimeout(() => {
      stable = true;
      this.#shortLived = 0;
    }, STABLE_CONNECTION_MS);
    this.#stableTimer.unref();
  }

  /** Stays offline for good: logs why and emits `down`. */
  #giveUp(error: ConnectError): void {
    this.#state = 'down';
    this.#log(error.message);
    this.emit('down', error);
  }

  async #rejoin(why: string): Promise<void> {
    const where = `${this.address.host}:${this.address.port}`;
    let lastFailure: string | undefined;
    let lastKind: ConnectFailure = 'dropped';
    // The attempts of this outage only: a bot that spawned again starts from 1.
    for (let attempt = 1; ; attempt++) {
      if (this.#closed()) return;
      if (attempt > this.#policy.attempts) {
        const tries = `${this.#policy.attempts} attempt${this.#policy.attempts === 1 ? '' : 's'}`;
        const summary = `${why}, and could not rejoin in ${tries}${lastFailure ? ` (last: ${lastFailure})` : ''}`;
        this.#giveUp(
          new ConnectError(
            `${this.username} ${why}, and could not rejoin ${where} in ${tries}${lastFailure ? ` (last: ${lastFailure})` : ''}. It stays offline; the other bots carry on.`,
            lastKind,
            summary,
          ),
        );
        return;
      }
      const wait = backoffDelay(this.#policy, attempt + this.#shortLived);
      const next = `in ${seconds(wait)} (attempt ${attempt} of ${this.#policy.attempts})`;
      this.#log(
        lastFailure === undefined
          ? `${this.username} ${why}. Rejoining ${where} ${next}.`
          : `${this.username} could not rejoin ${where}: ${lastFailure} Trying again ${next}.`,
      );
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        this.#waitTimer = setTimeout(resolve, wait); // referenced: a process with only lost bots waits for the attempt
      });
      this.#wake = undefined;
      if (this.#closed()) return;
      let bot: Bot;
      try {
        bot = await this.#connect(this.username, this.address);
      } catch (err) {
        lastFailure = (err as Error).message.replace(`${this.username} could not join ${where}: `, '');
        lastKind = err instanceof ConnectError ? err.failure : 'dropped';
        if (lastKind === 'refused') {
          this.#giveUp(
            new ConnectError(
              `${this.username} ${why}, and ${where} refused it when it tried to rejoin: ${lastFailure} ${FINAL}`,
              'refused',
              `${why}, then was refused: ${lastFailure}`,
            ),
          );
          return;
        }
        continue;
      }
      if (this.#closed()) {
        bot.quit();
        return;
      }
      this.#swap(bot);
      this.#log(`${this.username} is back on ${where} (attempt ${attempt}).`);
      this.emit('reconnected', attempt);
      return;
    }
  }

  /** Makes `bot` the live one: the handle's listeners move over to it. */
  #swap(bot: Bot): void {
    const old = this.#current;
    // In the order they were added: prepending each again rebuilds the same order at the front.
    for (const l of this.#listeners) {
      old.removeListener(l.event as never, l.fn as never);
      if (l.prepend) bot.prependListener(l.event as never, l.fn as never);
      else bot.on(l.event as never, l.fn as never);
      l.on = bot;
    }
    this.#current = bot;
    this.#state = 'online';
    this.#rejoined = true;
    this.#watch(bot);
  }

  #handle(): Bot {
    const handle: Bot = new Proxy(Object.create(null) as Bot, {
      get: (_, prop) => (methods.has(prop) ? methods.get(prop) : Reflect.get(this.#current, prop)),
      set: (_, prop, value) => Reflect.set(this.#current, prop, value),
      has: (_, prop) => Reflect.has(this.#current, prop),
      deleteProperty: (_, prop) => Reflect.deleteProperty(this.#current, prop),
      defineProperty: (_, prop, descriptor) => Reflect.defineProperty(this.#current, prop, descriptor),
      ownKeys: () => Reflect.ownKeys(this.#current),
      // Reported configurable: the proxy's own (empty) target must not contradict it.
      getOwnPropertyDescriptor: (_, prop) => {
        const d = Reflect.getOwnPropertyDescriptor(this.#current, prop);
        return d && { ...d, configurable: true };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(this.#current),
    });
    type Listener = (...args: unknown[]) => unknown;
    const add = (event: string | symbol, listener: Listener, once: boolean, prepend: boolean): Bot => {
      const entry: TrackedListener = { event, listener, fn: listener, prepend, on: this.#current };
      if (once) {
        const tracked = this.#listeners;
        const wrapper = function (this: unknown, ...args: unknown[]) {
          const i = tracked.indexOf(entry);
          if (i >= 0) tracked.splice(i, 1);
          entry.on.removeListener(event as never, wrapper as never);
          return listener.apply(this, args);
        };
        Object.assign(wrapper, { listener });
        entry.fn = wrapper;
      }
      this.#listeners.push(entry);
      if (prepend) this.#current.prependListener(event as never, entry.fn as never);
      else this.#current.on(event as never, entry.fn as never);
      return handle;
    };
    const remove = (event: string | symbol, listener: Listener): Bot => {
      for (let i = this.#listeners.length - 1; i >= 0; i--) {
        const l = this.#listeners[i]!;
        if (l.event === event && (l.listener === listener || l.fn === listener)) {
          this.#listeners.splice(i, 1);
          l.on.removeListener(event as never, l.fn as never);
          break;
        }
      }
      return handle;
    };
    const removeAll = (event?: string | symbol): Bot => {
      // Only the handle's own listeners: the plugins' listeners on the live bot stay.
      for (const l of this.#listeners.filter((x) => event === undefined || x.event === event)) remove(l.event, l.fn);
      return handle;
    };
    const impl: Record<ListenerMethod, unknown> = {
      on: (e: string | symbol, l: Listener) => add(e, l, false, false),
      addListener: (e: string | symbol, l: Listener) => add(e, l, false, false),
      prependListener: (e: string | symbol, l: Listener) => add(e, l, false, true),
      once: (e: string | symbol, l: Listener) => add(e, l, true, false),
      prependOnceListener: (e: string | symbol, l: Listener) => add(e, l, true, true),
      off: remove,
      removeListener: remove,
      removeAllListeners: removeAll,
    };
    const methods = new Map<string | symbol, unknown>(Object.entries(impl));
    return handle;
  }
}

/** The end of the log line of a bot refused for good. */
const FINAL =
  'A ban or the whitelist holds until an operator lifts it (/pardon, /whitelist add): it stays offline; the other bots carry on.';

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
