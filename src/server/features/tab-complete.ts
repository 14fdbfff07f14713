/**
 * Command suggestions as a 1.13+ server answers them (`ServerboundCommandSuggestionPacket` →
 * `ClientboundCommandSuggestionsPacket`): the reply echoes the request's transaction id and gives
 * the range of text it replaces (`start`, `length`) and the matches. flying-squid answered in the
 * pre-1.13 shape (`matches` as plain strings), which 1.21.4 cannot encode, so every request
 * (mineflayer `bot.tabComplete`, and the barrier mineflayer's chat queue runs after a command)
 * went unanswered.
 *
 * Suggestions, as vanilla's command tree (brigadier) gives them, sorted ignoring case:
 * - the first word completes to the names of the commands on offer;
 * - an argument that is one of fixed words (`/weather clear|rain|thunder`, `/time set|add|query`,
 *   a game rule's name, …: {@link ARGUMENTS}) completes to those words;
 * - an argument naming players or entities completes to online player names and the selectors
 *   (all of them when nothing is typed yet, as vanilla's `EntitySelectorParser`);
 * - any other argument (a message, a number, a position) gets no suggestion.
 */
import type { SquidServer } from '../types.ts';
import { commandExists } from '../services/commands.ts';
import { GAME_RULE_DEFAULTS } from '../services/game-rules.ts';

const SELECTORS = ['@a', '@e', '@p', '@r', '@s'];

/** What an argument completes to: fixed words, or `targets` (player names and selectors). */
type Argument = readonly string[] | 'targets';
/** The next argument's suggestions, from the arguments typed before it. */
type Arguments = (typed: readonly string[]) => Argument | undefined;

/** Fixed words at each position, then nothing. */
const positional =
  (...positions: Argument[]): Arguments =>
  (typed) =>
    positions[typed.length];

/**
 * The arguments of the vanilla commands this server has that complete (vanilla 1.21 command
 * syntax, Minecraft wiki "Commands/<name>"); the arguments of commands not listed complete as
 * targets.
 */
const ARGUMENTS: Record<string, Arguments> = {
  weather: positional(['clear', 'rain', 'thunder']),
  time: (typed) =>
    typed.length === 0
      ? ['add', 'query', 'set']
      : typed.length === 1 && typed[0] === 'set'
        ? ['day', 'midnight', 'night', 'noon']
        : typed.length === 1 && typed[0] === 'query'
          ? ['day', 'daytime', 'gametime']
          : undefined,
  gamemode: positional(['adventure', 'creative', 'spectator', 'survival'], 'targets'),
  difficulty: positional(['easy', 'hard', 'normal', 'peaceful']),
  gamerule: positional(Object.keys(GAME_RULE_DEFAULTS)),
  give: positional('targets'),
  clear: positional('targets'),
  kill: positional('targets'),
  teleport: positional('targets', 'targets'),
  tp: positional('targets', 'targets'),
  msg: positional('targets'),
  tell: positional('targets'),
  w: positional('targets'),
  title: positional('targets', ['actionbar', 'clear', 'reset', 'subtitle', 'times', 'title']),
  effect: positional(['clear', 'give'], 'targets'),
  experience: positional(['add', 'query', 'set'], 'targets'),
  xp: positional(['add', 'query', 'set'], 'targets'),
  tellraw: positional('targets'),
  spawnpoint: positional('targets'),
  say: () => undefined,
  me: () => undefined,
};

/** Brigadier's order of suggestions (`Suggestion.compareToIgnoreCase`): by character codes, case folded. */
function byTextIgnoringCase(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The candidates of the argument after `typed` (the words of the command typed so far, its name first). */
function argumentCandidates(serv: SquidServer, words: readonly string[], partial: string): string[] {
  const [name = '', ...typed] = words;
  const argumentsOf = ARGUMENTS[name.replace(/^minecraft:/, '')];
  const argument = argumentsOf ? argumentsOf(typed) : 'targets';
  if (argument === undefined) return [];
  if (argument !== 'targets') return [...argument];
  const names = serv.players.map((p) => p.username);
  return partial === '' || partial.startsWith('@') ? [...SELECTORS, ...names] : names;
}

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
        candidates = argumentCandidates(serv, command.slice(0, lastSpace).split(' ').filter(Boolean), partial);
      }
      const matches = [...new Set(candidates)]
        .filter((name) => name.toLowerCase().startsWith(partial.toLowerCase()))
        .sort(byTextIgnoringCase)
        .map((match) => ({ match, tooltip: undefined }));
      if (player.disconnected) return;
      client.write('tab_complete', { transactionId: transactionId ?? 0, start: slash + lastSpace + 1, length: partial.length, matches });
    });
  });
}
