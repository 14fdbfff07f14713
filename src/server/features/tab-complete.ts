/**
 * Command suggestions as a 1.13+ server answers them (`ServerboundCommandSuggestionPacket` →
 * `ClientboundCommandSuggestionsPacket`): the reply echoes the request's transaction id and gives
 * the range of text it replaces (`start`, `length`) and the matches. flying-squid answered in the
 * pre-1.13 shape (`matches` as plain strings), which 1.21.4 cannot encode, so every request
 * (mineflayer `bot.tabComplete`, and the barrier mineflayer's chat queue runs after a command)
 * went unanswered.
 *
 * Suggestions: the first word completes to the names of the commands on offer; later words to
 * online player names, and selectors for text starting with `@`.
 */
import type { SquidServer } from '../types.ts';
import { commandExists } from '../services/commands.ts';

const SELECTORS = ['@a', '@e', '@p', '@r', '@s'];

/** Installs the suggestion handler. */
export function installTabComplete(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    const client = player._client;
    client.removeAllListeners('tab_complete');
    client.on('tab_complete', ({ transactionId, text }: { transactionId?: number; text?: string }) => {
      const input = text ?? '';
      const slash = input.startsWith('/') ? 1 : 0;
      const command = input.slice(slash);
      const lastSpace = command.lastIndexOf(' ');
      const partial = command.slice(lastSpace + 1);
      let candidates: string[];
      if (lastSpace < 0) {
        candidates = Object.keys(serv.commands.uniqueHash)
          .flatMap((name) => [name, ...(serv.commands.uniqueHash[name]?.params.aliases ?? [])])
          .filter((name) => commandExists(serv, name));
      } else {
        candidates = [...serv.players.map((p) => p.username), ...(partial.startsWith('@') ? SELECTORS : [])];
      }
      const matches = [...new Set(candidates)]
        .filter((name) => name.toLowerCase().startsWith(partial.toLowerCase()))
        .sort()
        .map((match) => ({ match, tooltip: undefined }));
      if (player.disconnected) return;
      client.write('tab_complete', { transactionId: transactionId ?? 0, start: slash + lastSpace + 1, length: partial.length, matches });
    });
  });
}
