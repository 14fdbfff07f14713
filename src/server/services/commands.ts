/**
 * The command dispatcher every command goes through, for players and the console, answering as
 * vanilla 1.21 does (`Commands.performCommand`): an unknown or disabled command gets the red
 * `command.unknown.command` line and the context line (the command, underlined, then
 * `command.context.here`); flying-squid's legacy string replies and `UserError`s become red text
 * components (no `&` colour codes). {@link runCommand} is also how `/execute … run` runs its
 * command with another executor, position or world.
 */
import type { CommandContext, SquidServer } from '../types.ts';
import { fromLegacy, sendError, translatable, type TextComponent } from './text.ts';

/**
 * Commands that exist in flying-squid but are out of scope or not vanilla: answered like an
 * unknown command, as vanilla answers a command the server does not offer. `ping` stays (tests
 * use it to synchronise).
 */
export const DISABLED_COMMANDS: ReadonlySet<string> = new Set([
  // Out of scope (README: "Out of scope"): nether travel, enchanting.
  'portal',
  'changeworld',
  'enchant',
  // flying-squid's own, not vanilla.
  'modpe',
  'bug',
  'selector',
  'velocity',
  'summonMany',
  'pile',
  'attach',
  'setblockaction',
  'playsoundforall',
  'night',
  'day',
]);

/** How far back the context line shows the command (vanilla `CommandSyntaxException.CONTEXT_AMOUNT`). */
const CONTEXT_AMOUNT = 10;

/** The context line vanilla sends after a syntax error at `cursor` of `input`. */
export function errorContext(input: string, cursor: number): TextComponent {
  const at = Math.min(input.length, Math.max(0, cursor));
  const extra: TextComponent[] = [];
  if (at > CONTEXT_AMOUNT) extra.push({ text: '...' });
  const before = input.slice(Math.max(0, at - CONTEXT_AMOUNT), at);
  if (before) extra.push({ text: before });
  if (at < input.length) extra.push({ text: input.slice(at), color: 'red', underlined: true });
  extra.push(translatable('command.context.here', [], { color: 'red', italic: true }));
  return { text: '', color: 'gray', extra };
}

/** True when `name` (the first word of a command) is a command this server offers. */
export function commandExists(serv: SquidServer, name: string): boolean {
  return !DISABLED_COMMANDS.has(name) && serv.commands.find(name) !== undefined;
}

/** Sends vanilla's unknown-command error for `input` (the command without its slash). */
export function sendUnknownCommand(serv: SquidServer, ctx: CommandContext, input: string): void {
  sendError(serv, ctx, translatable('command.unknown.command'));
  sendError(serv, ctx, errorContext(input, 0));
}

/**
 * Runs one command (without its slash) for `ctx`: unknown and disabled commands get vanilla's
 * error, a reply string or `UserError` of a flying-squid command a red line. Other errors are
 * logged and reported as vanilla's `command.failed`.
 */
export async function runCommand(serv: SquidServer, input: string, ctx: CommandContext): Promise<void> {
  const text = input.replace(/^\//, '').trim();
  const name = text.split(' ')[0] ?? '';
  if (!commandExists(serv, name)) {
    sendUnknownCommand(serv, ctx, text);
    return;
  }
  try {
    const reply = await serv.commands.use(text, ctx, ctx.player ? ctx.player.op !== false : true);
    if (reply) sendError(serv, ctx, stripped(reply));
  } catch (err) {
    const userError = err as { userError?: boolean; message?: string };
    if (userError?.userError) {
      sendError(serv, ctx, stripped(String(userError.message)));
      return;
    }
    serv.err(`command "${text}" failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    sendError(serv, ctx, translatable('command.failed'));
  }
}

/** A legacy reply (`&cUsage: …`) as plain text without its codes (the red comes from the error style). */
function stripped(reply: string): TextComponent {
  const component = fromLegacy(reply);
  if (!component.extra) return component;
  return { text: component.extra.map((part) => (typeof part === 'object' ? (part.text ?? '') : String(part))).join('') };
}
