/** The Minecraft versions this project plays, as game vocabulary every layer may use. */

/**
 * Default Minecraft version: of the embedded server and of bots whose settings name none (the
 * newest version flying-squid 1.12 supports).
 */
export const DEFAULT_MINECRAFT_VERSION = '1.21.4';
