/**
 * Which Minecraft version to speak to a server: asked of the server itself by a status ping (the
 * server list's "ping", minecraft-protocol `ping`) before any bot joins, so a wrong version is a
 * clear sentence naming both versions and the setting to change, never a protocol stack trace.
 *
 * The bots play every version mineflayer plays from {@link OLDEST_BOT_VERSION} (1.21.1) to its
 * newest (`mineflayer.latestSupportedVersion`); older servers are refused (our skills rely on
 * 1.20.5+ item components and 1.21 blocks), newer ones too (mineflayer cannot read them).
 */
import { createRequire } from 'node:module';
import minecraftData from 'minecraft-data';
import { DEFAULT_MINECRAFT_VERSION, OLDEST_BOT_VERSION } from '../game/versions.ts';
import { findLanWorld } from './lan.ts';

const require = createRequire(import.meta.url);
// CommonJS without ESM typings for these members.
const { ping } = require('minecraft-protocol') as {
  ping(options: { host: string; port: number; closeTimeout?: number; noPongTimeout?: number }): Promise<unknown>;
};
const { latestSupportedVersion } = require('mineflayer') as { latestSupportedVersion: string };

/** What a server's status answer says of its version. */
export interface ServerStatus {
  /** The version name it reports, e.g. `1.21.11` (modded servers: `Paper 1.21.4`). */
  name: string;
  /** Its protocol number, e.g. 774. */
  protocol: number;
}

/** A version the bots cannot speak with this server, or a server that did not answer: the message says what to do. */
export class ServerVersionError extends Error {
  override name = 'ServerVersionError';
}

/** Longest wait for a status answer, in ms. */
export const PING_TIMEOUT_MS = 5_000;

/** minecraft-data's release versions, newest first. */
function releases(): minecraftData.ProtocolVersions {
  return minecraftData.versions.pc.filter((v) => v.releaseType === 'release');
}

function protocolOf(version: string): number | undefined {
  return releases().find((v) => v.minecraftVersion === version)?.version;
}

/** The protocol range the bots play: from {@link OLDEST_BOT_VERSION} to mineflayer's newest. */
function botProtocols(): { oldest: number; newest: number } {
  return { oldest: protocolOf(OLDEST_BOT_VERSION)!, newest: protocolOf(latestSupportedVersion)! };
}

/**
 * Every release version the bots play, oldest first (minecraft-data's releases from
 * {@link OLDEST_BOT_VERSION} through mineflayer's newest).
 */
export function botVersions(): string[] {
  const all = releases(); // newest first
  const { newest } = botProtocols();
  const from = all.findIndex((v) => v.version <= newest); // with the patch releases of mineflayer's newest
  const to = all.findIndex((v) => v.minecraftVersion === OLDEST_BOT_VERSION);
  return all
    .slice(from, to + 1)
    .map((v) => v.minecraftVersion)
    .reverse();
}

/** "1.21.1 to 26.1": the range in words. */
export function botVersionRange(): string {
  return `${OLDEST_BOT_VERSION} to ${latestSupportedVersion}`;
}

/**
 * Checks a version named in settings: the bots must be able to play it.
 *
 * @throws ServerVersionError naming the setting and the range when they cannot.
 */
export function requireBotVersion(version: string): void {
  const protocol = protocolOf(version);
  const { oldest, newest } = botProtocols();
  if (protocol !== undefined && protocol >= oldest && protocol <= newest) return;
  const why =
    protocol === undefined
      ? `is not a Minecraft release minecraft-data knows`
      : protocol < oldest
        ? `is older than the bots play`
        : `is newer than the newest version mineflayer plays (${latestSupportedVersion})`;
  throw new ServerVersionError(
    `"minecraft_version": "${version}" ${why}: the bots play Minecraft ${botVersionRange()}. Set "minecraft_version" to one of ${botVersions().join(', ')}, or "auto" to ask the server.`,
  );
}

/**
 * The version the bots speak to a server that reports `status`: the release of that protocol
 * whose name the server reports (`1.21.10` and `1.21.9` share protocol 773), else the newest
 * release of that protocol.
 *
 * @throws ServerVersionError when the bots cannot play that protocol, naming the server's version and the range.
 */
export function botVersionFor(status: ServerStatus, where: string): string {
  const { oldest, newest } = botProtocols();
  const same = releases().filter((v) => v.version === status.protocol);
  const named = same.find((v) => status.name === v.minecraftVersion || status.name.endsWith(` ${v.minecraftVersion}`));
  const version = (named ?? same[0])?.minecraftVersion;
  if (version && status.protocol >= oldest && status.protocol <= newest) return version;
  const advice =
    status.protocol < oldest
      ? `Update the server to ${OLDEST_BOT_VERSION} or newer`
      : `Run the server on ${latestSupportedVersion} or older, or update mineflayer`;
  throw new ServerVersionError(
    `The server at ${where} runs Minecraft ${status.name} (protocol ${status.protocol}); the bots play ${botVersionRange()}. ${advice}.`,
  );
}

/**
 * Asks the server at `host:port` its version (a status ping; no login).
 *
 * @param timeoutMs give up after this long (default {@link PING_TIMEOUT_MS}).
 * @throws ServerUnreachableError when nothing answers in time or the connection is refused;
 *   ServerVersionError when the answer has no version.
 */
export async function pingServer(host: string, port: number, timeoutMs = PING_TIMEOUT_MS): Promise<ServerStatus> {
  const where = `${host}:${port}`;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ServerUnreachableError(`No Minecraft server answered at ${where} within ${timeoutMs / 1000} s.`)),
      timeoutMs,
    );
  });
  try {
    const answer = await Promise.race([ping({ host, port, closeTimeout: timeoutMs }), timeout]);
    const version = (answer as { version?: { name?: unknown; protocol?: unknown } }).version;
    if (typeof version?.protocol !== 'number')
      throw new ServerVersionError(`The server at ${where} answered without its version (a Minecraft server older than 1.7?).`);
    return { name: typeof version.name === 'string' ? version.name : String(version.protocol), protocol: version.protocol };
  } catch (err) {
    if (err instanceof ServerVersionError || err instanceof ServerUnreachableError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ServerUnreachableError(
      code === 'ECONNREFUSED'
        ? `Nothing accepts connections at ${where}: start the server (or open the world to LAN), or set "host" and "port" in settings.json.`
        : `Could not ask the server at ${where} its version: ${(err as Error).message}`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The server did not answer (refused, timed out, closed): it may come up later. */
export class ServerUnreachableError extends Error {
  override name = 'ServerUnreachableError';
}

/**
 * The version to join an external server with: `setting` itself, checked against the server's
 * answer, or (for `"auto"`) the server's own version.
 *
 * @throws ServerVersionError for a version the bots cannot play or a setting that differs from
 *   the server's version (naming both and the setting to change); ServerUnreachableError when
 *   the server does not answer.
 */
export async function externalServerVersion(setting: string, host: string, port: number, timeoutMs = PING_TIMEOUT_MS): Promise<string> {
  if (setting !== 'auto') requireBotVersion(setting);
  const where = `${host}:${port}`;
  const status = await pingServer(host, port, timeoutMs);
  const version = botVersionFor(status, where);
  if (setting === 'auto' || protocolOf(setting) === status.protocol) return setting === 'auto' ? version : setting;
  throw new ServerVersionError(
    `The server at ${where} runs Minecraft ${status.name}, but settings.json says "minecraft_version": "${setting}". Set "minecraft_version" to "${version}" (or "auto" to ask the server each time).`,
  );
}

/** Where and how the bots join: the settings' `server`, `minecraft_version`, `host` and `port`. */
export interface ServerChoice {
  server: 'embedded' | 'external';
  minecraft_version: string;
  host: string;
  /** -1: the first LAN world announced (from `host`, unless that is the default loopback). */
  port: number;
}

/** The server the bots join, with the version to speak. */
export interface ServerTarget {
  host: string;
  port: number;
  version: string;
  /** How the version was chosen, for the start-up line (`asked the server`, `LAN world "…"`). */
  how: string;
}

/** How {@link resolveServer} waits for a server that does not answer yet (the settings' reconnect policy). */
export interface ResolveOptions {
  /** Each ping's time limit, in ms (default {@link PING_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Further pings after the first when the version is `"auto"` and nothing answers (default 0). */
  attempts?: number;
  /** Wait before the first retry, doubled before each next one up to `maxDelayMs` (ms). */
  delayMs?: number;
  maxDelayMs?: number;
  /** Receives one line per retry. */
  log?: (line: string) => void;
  /** UDP port for LAN announcements (tests). */
  lanPort?: number;
}

/**
 * Resolves the settings into the server to join: for the embedded server the version named, or
 * {@link DEFAULT_MINECRAFT_VERSION} for `"auto"`; for an external one, a LAN world found by its
 * announcement when `port` is -1, then the version by {@link externalServerVersion}. A server that
 * does not answer is asked again under `options` when the version is `"auto"` (it is needed to
 * join); a version named in the settings is then used unchecked, and the bots' own joins report
 * the unreachable server.
 *
 * @throws ServerVersionError / LanError with what to change in settings.json;
 *   ServerUnreachableError when an `"auto"` server never answered.
 */
export async function resolveServer(choice: ServerChoice, options: ResolveOptions = {}): Promise<ServerTarget> {
  if (choice.server === 'embedded') {
    if (choice.port === -1)
      throw new ServerVersionError(
        '"port": -1 finds a LAN world, with "server": "external"; the embedded server needs a port from 1 to 65535 (default 55916).',
      );
    const version = choice.minecraft_version === 'auto' ? DEFAULT_MINECRAFT_VERSION : choice.minecraft_version;
    return { host: choice.host, port: choice.port, version, how: choice.minecraft_version === 'auto' ? 'the default' : 'settings.json' };
  }
  let { host, port } = choice;
  const auto = choice.minecraft_version === 'auto';
  let how = auto ? 'asked the server' : 'settings.json, checked with the server';
  if (port === -1) {
    const world = await findLanWorld({
      ...(host !== '127.0.0.1' && host !== 'localhost' ? { host } : {}),
      ...(options.lanPort !== undefined ? { port: options.lanPort } : {}),
    });
    ({ host, port } = world);
    how = `LAN world "${world.motd}", ${how}`;
  }
  const attempts = auto ? (options.attempts ?? 0) : 0;
  for (let attempt = 1; ; attempt++) {
    try {
      const version = await externalServerVersion(choice.minecraft_version, host, port, options.timeoutMs);
      return { host, port, version, how };
    } catch (err) {
      if (!(err instanceof ServerUnreachableError)) throw err;
      if (!auto)
        return { host, port, version: choice.minecraft_version, how: 'settings.json (the server did not answer the version check)' };
      if (attempt > attempts)
        throw new ServerUnreachableError(
          `${err.message} ${attempts > 0 ? `Gave up after ${attempt} attempts; ` : ''}"minecraft_version": "auto" needs the server's answer.`,
        );
      const wait = Math.min(options.maxDelayMs ?? Infinity, (options.delayMs ?? 1_000) * 2 ** (attempt - 1));
      options.log?.(
        `${err.message} Asking again in ${wait < 1000 ? `${wait} ms` : `${Math.round(wait / 100) / 10} s`} (retry ${attempt} of ${attempts}).`,
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * `settings` with an `"auto"` version made concrete (see {@link resolveServer}), for what is
 * checked before bots join (a task's items for its version). `server` overrides the address.
 */
export async function withServerVersion<S extends ServerChoice>(settings: S, server?: { host: string; port: number }): Promise<S> {
  if (settings.minecraft_version !== 'auto') return settings;
  const target = await resolveServer({ ...settings, ...(server ?? {}) });
  return { ...settings, minecraft_version: target.version };
}
