/**
 * The plugin contract of the embedded server, after mineflayer's: a plugin is one capability
 * installed on the server object; plugins never import each other's internals. Two kinds:
 *
 * - services (`./services/`): shared machinery — inventory sessions and menus, block entities,
 *   drops, text, selectors, command arguments, movement, teleports, mobs' state. They may import
 *   other services.
 * - features (`./features/`): game behaviour and commands — crafting, containers, smelting,
 *   digging, placing, crops, beds, hunger, mobs… They import services, never other features,
 *   and talk to each other through server events (`ServerEvents` in ./types.ts).
 *
 * Every plugin that installs something is one entry of the ordered list in `./plugins.ts`; its
 * `requires` names the entries it builds on, and {@link installPlugins} checks them at start-up. A
 * plugin that keeps per-server state a run changes (mobs, block entities, players, the time) says
 * how to go back on it (`checkpoint`, `reset`): the embedded server's `reset()` is theirs, in order.
 */
import type { SquidServer } from './types.ts';

/** One entry of the install list. */
export interface ServerPlugin {
  /** Unique name, e.g. 'inventory' or 'smelting'. */
  name: string;
  /**
   * Plugins that must be installed before this one (it wraps their packet listeners, or uses
   * state they set up when a player joins).
   */
  requires: readonly string[];
  /** Installs the plugin on a started server, before any player joins. */
  install(serv: SquidServer): void;
  /**
   * Takes note of the plugin's per-server state worth going back to (the players as they are now,
   * the time of day...), for {@link reset}. Absent: the plugin has nothing to note.
   */
  checkpoint?(serv: SquidServer): void;
  /**
   * Puts the plugin's per-server state back as it was at the last checkpoint (or as a fresh
   * server's: no mob, no block entity...). Absent: the plugin keeps no state a run changes.
   * Resets run in install order, so a plugin's reset may rely on those it `requires`.
   */
  reset?(serv: SquidServer): void | Promise<void>;
}

/**
 * Checks an install list: names are unique and every `requires` entry appears earlier.
 *
 * @throws Error naming the plugin and the missing or misplaced requirement.
 */
export function validatePlugins(plugins: readonly ServerPlugin[]): void {
  const installed = new Set<string>();
  const all = new Set(plugins.map((plugin) => plugin.name));
  for (const plugin of plugins) {
    if (installed.has(plugin.name)) throw new Error(`server plugin "${plugin.name}" is listed twice`);
    for (const required of plugin.requires) {
      if (installed.has(required)) continue;
      throw new Error(
        all.has(required)
          ? `server plugin "${plugin.name}" requires "${required}", which is listed after it: move "${required}" up`
          : `server plugin "${plugin.name}" requires "${required}", which is not in the plugin list`,
      );
    }
    installed.add(plugin.name);
  }
}

/** Every plugin's {@link ServerPlugin.checkpoint}, in order. */
export function checkpointPlugins(serv: SquidServer, plugins: readonly ServerPlugin[]): void {
  for (const plugin of plugins) plugin.checkpoint?.(serv);
}

/**
 * Every plugin's {@link ServerPlugin.reset}, in install order.
 *
 * @throws Error naming the plugin whose reset failed (the resets after it do not run).
 */
export async function resetPlugins(serv: SquidServer, plugins: readonly ServerPlugin[]): Promise<void> {
  for (const plugin of plugins) {
    try {
      await plugin.reset?.(serv);
    } catch (err) {
      throw new Error(`server plugin "${plugin.name}" could not reset: ${(err as Error).message}`, { cause: err });
    }
  }
}

/**
 * Validates the list ({@link validatePlugins}), then installs every plugin in order.
 *
 * @throws Error for an invalid list, before anything is installed.
 */
export function installPlugins(serv: SquidServer, plugins: readonly ServerPlugin[]): void {
  validatePlugins(plugins);
  for (const plugin of plugins) plugin.install(serv);
}
