/**
 * Command plumbing shared by our commands: target resolution (player names and `@a/@p/@r/@s/@e`
 * selectors, via flying-squid's selector engine) and vanilla-style error reporting.
 */
import type { SquidServer } from '../embedded.ts';
import { sendError, translatable, type TextComponent } from './text.ts';
import type { CommandContext, SquidEntity, SquidPlayer } from './types.ts';

/** A command failure reported to the caller as a red line (vanilla `CommandSyntaxException`). */
export class CommandError extends Error {
  readonly component: TextComponent;
  constructor(component: TextComponent) {
    super(component.translate ?? component.text ?? 'command failed');
    this.component = component;
  }
}

/**
 * Wraps a command action: a thrown {@link CommandError} becomes a red feedback line for the caller
 * (or a log line for the console); the action's own feedback is sent by the action itself.
 */
export function commandAction(
  serv: SquidServer,
  action: (args: string[], ctx: CommandContext, raw: string) => void | Promise<void>,
): (raw: string, ctx: CommandContext) => Promise<void> {
  return async (raw, ctx) => {
    try {
      await action(splitArguments(raw), ctx, raw ?? '');
    } catch (err) {
      if (err instanceof CommandError) sendError(serv, ctx.player, err.component);
      else throw err;
    }
  };
}

/** Splits a command's argument string on whitespace, dropping empty parts. */
export function splitArguments(raw: string | undefined): string[] {
  return (raw ?? '').trim().split(/\s+/).filter((part) => part.length > 0);
}

export interface ResolveOptions {
  /** Keep only players. */
  playersOnly?: boolean;
  /** At most one match allowed (vanilla `argument.entity.toomany` / `argument.player.toomany`). */
  single?: boolean;
}

/**
 * Resolves a player name or selector relative to the caller.
 *
 * @returns the matching entities, never empty.
 * @throws CommandError "No player was found" / "No entity was found" when nothing matches, for an
 *   invalid selector, or when `single` is set and several match.
 */
export function resolveTargets(serv: SquidServer, selector: string, ctx: CommandContext, options: ResolveOptions = {}): SquidEntity[] {
  const noneFound = translatable(options.playersOnly ? 'argument.entity.notfound.player' : 'argument.entity.notfound.entity');
  let found: SquidEntity[];
  try {
    const caller = ctx.player;
    found = serv.selectorString(selector, caller?.position, caller?.world, true, caller?.id) ?? [];
  } catch {
    // flying-squid throws a TypeError for selector letters it does not know (e.g. `@x`).
    throw new CommandError(translatable('argument.entity.invalid'));
  }
  if (options.playersOnly) found = found.filter((entity) => entity.type === 'player');
  if (found.length === 0) throw new CommandError(noneFound);
  if (options.single && found.length > 1) {
    throw new CommandError(translatable(options.playersOnly ? 'argument.player.toomany' : 'argument.entity.toomany'));
  }
  return found;
}

/** Resolves to players only (see {@link resolveTargets}). */
export function resolvePlayers(serv: SquidServer, selector: string, ctx: CommandContext, options: Omit<ResolveOptions, 'playersOnly'> = {}): SquidPlayer[] {
  return resolveTargets(serv, selector, ctx, { ...options, playersOnly: true }) as SquidPlayer[];
}

/** The calling player, or a CommandError for the console (vanilla `permissions.requires.player`). */
export function requirePlayer(ctx: CommandContext): SquidPlayer {
  if (!ctx.player) throw new CommandError(translatable('permissions.requires.player'));
  return ctx.player;
}

/** The name vanilla shows for an entity in command feedback. */
export function displayName(entity: SquidEntity): string {
  return entity.type === 'player' ? String(entity.username) : String(entity.name ?? `entity ${entity.id}`);
}
