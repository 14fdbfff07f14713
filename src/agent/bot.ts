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
import { applyUpstreamFixes, playerLookup, versionFixes } from '../upstream/index.ts';
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

/** The bot could not join the server; the message says why and what to check. */
export class ConnectError extends Error {
  override name = 'ConnectError';
}

/**
 * Connects `username` to the server and resolves once the bot has spawned and its chunks loaded.
 * Loads mineflayer-pathfinder (with default movements), mineflayer-collectblock, and
 * {@link chatIdentity} (chat senders from the packets, not from mineflayer's chat patterns).
 *
 * @param timeoutMs give up after this many ms (default 30 000).
 * @throws ConnectError for a refused or timed-out connection, a kick, or a version mismatch.
 */
export async function connectBot(username: string, address: ServerAddress, timeoutMs = 30_000): Promise<Bot> {
  const where = `${address.host}:${address.port}`;
  applyUpstreamFixes(); // before createBot: its plugins make the block classes (src/upstream/)
  const bot = mineflayer.createBot({
    username,
    host: address.host,
    port: address.port,
    version: address.version,
    auth: address.auth,
    hideErrors: true,
    logErrors: false,
  });
  bot.loadPlugin(playerLookup); // library hot spots (src/upstream/), each skipped once upstream has its fix
  bot.loadPlugin(versionFixes); // mineflayer on 1.21.6+ (src/upstream/mineflayer-versions.ts)
  bot.loadPlugin(pathfinder);
  bot.loadPlugin(collectBlock);
  bot.loadPlugin(chatIdentity);
  // An 'error' event without a listener would throw out of the socket's handler: keep one for good.
  bot.on('error', () => {});
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        reject(new ConnectError(`${username} could not join ${where}: ${why}`));
      };
      const timer = setTimeout(
        () => fail(`no spawn within ${Math.round(timeoutMs / 1000)} s. Is a Minecraft ${address.version} server running there?`),
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
        ),
      );
      bot.once('kicked', (reason) => fail(`kicked: ${kickText(bot, reason)}`));
      bot.once('end', (reason) => fail(`disconnected (${reason})`));
    });
    await bot.waitForChunksToLoad();
  } catch (err) {
    bot.end();
    throw err;
  }
  const movements = new Movements(bot);
  movements.allowSprinting = true;
  movements.allowParkour = true;
  bot.pathfinder.setMovements(movements);
  return bot;
}

/**
 * A kick reason as plain text. Servers send a chat component: JSON text before 1.20.3, NBT after;
 * prismarine-chat reads both and resolves translation keys (`multiplayer.disconnect.kicked` →
 * "Kicked by an operator").
 */
export function kickText(bot: Bot, reason: unknown): string {
  try {
    const ChatMessage = chatLoader(bot.registry as never); // accepts a registry too (typed as a version string only)
    const text = ChatMessage.fromNotch(reason as string)
      .toString()
      .trim();
    if (text) return text;
  } catch {
    // fall through to the raw value
  }
  return typeof reason === 'string' ? reason : JSON.stringify(reason);
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

/** A connection that lasted this long resets the count of failed attempts (ms). */
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
  /** The connection was lost (`why`: "was kicked: …", "lost its connection (…)"); a rejoin follows. */
  disconnected: [why: string];
  /** A new connection is up after `attempt` attempts; the handle now reaches it. */
  reconnected: [attempt: number];
  /** Every attempt failed; the bot stays offline. */
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
 * line in the log. A bot quitting on purpose (`bot.quit()`, {@link close}) is not rejoined.
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
  /** Failed attempts since the last connection that lasted {@link STABLE_CONNECTION_MS}. */
  #failures = 0;
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
        if (attempt > policy.attempts) {
          throw new ConnectError(policy.attempts > 0 ? `${message} Gave up after ${attempt} attempts.` : message);
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
    bot.on('error', (err) => {
      error = err.message;
    });
    bot.once('kicked', (reason) => {
      kicked = kickText(bot, reason);
    });
    bot.once('end', (reason) => {
      if (bot !== this.#current) return;
      clearTimeout(this.#stableTimer);
      if (this.#state === 'closed' || reason === 'disconnect.quitting') {
        this.#state = 'closed';
        return;
      }
      const why = kicked !== undefined ? `was kicked: ${kicked}` : `lost its connection (${reason}${error ? `: ${error}` : ''})`;
      this.#state = 'reconnecting';
      this.emit('disconnected', why);
      void this.#rejoin(why);
    });
    clearTimeout(this.#stableTimer);
    this.#stableTimer = setTimeout(() => {
      this.#failures = 0;
    }, STABLE_CONNECTION_MS);
    this.#stableTimer.unref();
  }

  async #rejoin(why: string): Promise<void> {
    const where = `${this.address.host}:${this.address.port}`;
    let lastFailure: string | undefined;
    for (;;) {
      if (this.#closed()) return;
      const attempt = ++this.#failures;
      if (attempt > this.#policy.attempts) {
        this.#state = 'down';
        const tries = `${this.#policy.attempts} attempt${this.#policy.attempts === 1 ? '' : 's'}`;
        const error = new ConnectError(
          `${this.username} ${why}, and could not rejoin ${where} in ${tries}${lastFailure ? ` (last: ${lastFailure})` : ''}. It stays offline; the other bots carry on.`,
        );
        this.#log(error.message);
        this.emit('down', error);
        return;
      }
      const wait = backoffDelay(this.#policy, attempt);
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

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
