/** The Minecraft versions this project plays, as game vocabulary every layer may use. */

/**
 * The versions the embedded server serves, oldest first: each runs the server-mechanics,
 * command, mode and task tests of the test matrix (vitest.config.ts). flying-squid 1.12 itself
 * stops at 1.21.4; the server's plugins carry it to the newest (src/server/services/wire-shapes.ts
 * and the README's "Minecraft versions" say what differs and how each difference is handled).
 */
export const SERVER_VERSIONS = ['1.21.1', '1.21.4', '1.21.11'] as const;

/**
 * Default Minecraft version: of the embedded server and of bots whose settings name none (the
 * newest version that passes the whole test matrix).
 */
export const DEFAULT_MINECRAFT_VERSION = '1.21.11';

/** The oldest version bots join on an external server (mineflayer plays older ones; our skills do not). */
export const OLDEST_BOT_VERSION = '1.21.1';
