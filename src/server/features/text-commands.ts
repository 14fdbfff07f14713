/**
 * Vanilla 1.21 commands that show text (Minecraft wiki "Commands/tellraw", "Commands/title",
 * "Commands/say", "Commands/me"):
 * - `/tellraw <targets> <component>`: a JSON text component to each target; `selector`
 *   components are resolved to the matching names;
 * - `/title <targets> (clear|reset|title <c>|subtitle <c>|actionbar <c>|times <in> <stay> <out>)`;
 * - `/say <message>`: `chat.type.announcement` to everyone (`[name] message`);
 * - `/me <action>`: `chat.type.emote` to everyone (`* name action`).
 */
import type { CommandContext, SquidPlayer, SquidServer } from '../types.ts';
import { commandAction, parseComponent, parseInteger, restAfter, usageError } from '../services/command-arguments.ts';
import { displayName, resolveComponent, resolvePlayers } from '../services/selectors.ts';
import { broadcastSystemMessage, encodeComponent, sendFeedback, sendSystemMessage, translatable } from '../services/text.ts';

/** Registers `/tellraw`, `/title`, `/say` and `/me`. */
export function installTextCommands(serv: SquidServer): void {
  serv.commands.add({
    base: 'tellraw',
    info: 'Sends a JSON message to players',
    usage: '/tellraw <targets> <message>',
    op: true,
    action: commandAction(serv, (args, ctx, raw) => {
      if (args.length < 2) throw usageError('/tellraw <targets> <message>');
      const targets = resolvePlayers(serv, args[0]!, ctx);
      const component = parseComponent(restAfter(raw, args, 1));
      for (const target of targets)
        sendSystemMessage(serv, target, resolveComponent(serv, component, { ...ctx, player: ctx.player ?? target }));
    }),
  });

  serv.commands.add({
    base: 'title',
    info: 'Shows titles to players',
    usage: '/title <targets> clear|reset|title|subtitle|actionbar <title>|times <fadeIn> <stay> <fadeOut>',
    op: true,
    action: commandAction(serv, (args, ctx, raw) => runTitle(serv, args, ctx, raw)),
  });

  serv.commands.add({
    base: 'say',
    info: 'Sends a message to every player',
    usage: '/say <message>',
    op: true,
    action: commandAction(serv, (args, ctx, raw) => {
      if (args.length === 0) throw usageError('/say <message>');
      broadcastSystemMessage(serv, translatable('chat.type.announcement', [senderName(ctx), raw.trim()]));
    }),
  });

  serv.commands.add({
    base: 'me',
    info: 'Describes an action of yours to every player',
    usage: '/me <action>',
    action: commandAction(serv, (args, ctx, raw) => {
      if (args.length === 0) throw usageError('/me <action>');
      broadcastSystemMessage(serv, translatable('chat.type.emote', [senderName(ctx), raw.trim()]));
    }),
  });
}

/** Who a message command names as its sender: the player, else vanilla's console name "Server". */
function senderName(ctx: CommandContext): string {
  return ctx.player?.username ?? 'Server';
}

function runTitle(serv: SquidServer, args: string[], ctx: CommandContext, raw: string): void {
  const usage = '/title <targets> clear|reset|title|subtitle|actionbar <title>|times <fadeIn> <stay> <fadeOut>';
  if (args.length < 2) throw usageError(usage);
  const targets = resolvePlayers(serv, args[0]!, ctx);
  const action = args[1]!;
  const feedback = (key: string, ...extra: Array<string | number>): void => {
    sendFeedback(
      serv,
      ctx,
      targets.length === 1
        ? translatable(`commands.title.${key}.single`, [...extra, displayName(targets[0]!)])
        : translatable(`commands.title.${key}.multiple`, [...extra, targets.length]),
    );
  };
  const each = (write: (player: SquidPlayer) => void): void => {
    for (const target of targets) if (!target.disconnected) write(target);
  };
  switch (action) {
    case 'clear':
      each((p) => p._client.write('clear_titles', { reset: false }));
      feedback('cleared');
      return;
    case 'reset':
      each((p) => p._client.write('clear_titles', { reset: true }));
      feedback('reset');
      return;
    case 'title':
    case 'subtitle':
    case 'actionbar': {
      if (args.length < 3) throw usageError(usage);
      const component = parseComponent(restAfter(raw, args, 2));
      const packet = action === 'title' ? 'set_title_text' : action === 'subtitle' ? 'set_title_subtitle' : 'action_bar';
      each((p) =>
        p._client.write(packet, { text: encodeComponent(serv, resolveComponent(serv, component, { ...ctx, player: ctx.player ?? p })) }),
      );
      feedback(`show.${action}`);
      return;
    }
    case 'times': {
      if (args.length !== 5) throw usageError(usage);
      const [fadeIn, stay, fadeOut] = args.slice(2).map((a) => parseInteger(a, 0, 2_147_483_647)) as [number, number, number];
      each((p) => p._client.write('set_title_time', { fadeIn, stay, fadeOut }));
      feedback('times');
      return;
    }
    default:
      throw usageError(usage);
  }
}
