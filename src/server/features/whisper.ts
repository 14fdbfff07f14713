/**
 * Private messages: `/msg`, `/tell`, `/w` (vanilla `/msg <targets> <message>`, Minecraft wiki
 * "Commands/msg"). Each recipient gets `commands.message.display.incoming` ("Alice whispers to you:
 * hi") and the sender gets `commands.message.display.outgoing` ("You whisper to Bob: hi"), both
 * grey italic as in vanilla. mineflayer's default `whisper` chat pattern matches the incoming line,
 * so `bot.on('whisper', (username, message) => …)` fires, and `bot.whisper()` (which sends
 * `/tell <name> <text>`) works.
 */
import type { SquidServer } from '../types.ts';
import { commandAction, usageError } from '../services/command-arguments.ts';
import { resolvePlayers } from '../services/selectors.ts';
import { sendFeedback, sendSystemMessage, translatable } from '../services/text.ts';

const WHISPER_STYLE = { color: 'gray', italic: true } as const;
const USAGE = '/msg <targets> <message>';

/** Registers `/msg` with aliases `/tell` and `/w` (op not required, as in vanilla). */
export function installWhisperCommands(serv: SquidServer): void {
  serv.commands.add({
    base: 'msg',
    aliases: ['tell', 'w'],
    info: 'Sends a private message to one or more players',
    usage: USAGE,
    op: false,
    action: commandAction(serv, (args, ctx, raw) => {
      const selector = args[0];
      // The message is a greedy string: keep the caller's spacing after the target.
      const message = selector ? raw.trimStart().slice(selector.length).trim() : '';
      if (!selector || message === '') throw usageError(USAGE);
      const recipients = resolvePlayers(serv, selector, ctx);
      const senderName = ctx.player?.username ?? 'Server';
      for (const recipient of recipients) {
        sendSystemMessage(serv, recipient, translatable('commands.message.display.incoming', [senderName, message], WHISPER_STYLE));
        sendFeedback(serv, ctx, translatable('commands.message.display.outgoing', [recipient.username, message], WHISPER_STYLE));
      }
    }),
  });
}
