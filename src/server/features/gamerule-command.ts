/**
 * Vanilla `/gamerule <rule> [value]` (Minecraft wiki "Commands/gamerule"): with no value it reports
 * the rule (`commands.gamerule.query`), with one it sets it (`commands.gamerule.set`). Rules live in
 * the game-rules service; the features that apply them read them there (day cycle and weather
 * cycle: ./weather-time.ts; keepInventory: ./player-state.ts; mob spawning: there is no natural
 * spawning; sendCommandFeedback: the text service; doImmediateRespawn: the clients, here).
 */
import type { SquidServer } from '../types.ts';
import { commandAction, CommandError, parseInteger, usageError } from '../services/command-arguments.ts';
import { GAME_RULE_DEFAULTS, gameRule, isGameRule, onGameRuleChange, setGameRule } from '../services/game-rules.ts';
import { sendFeedback, translatable } from '../services/text.ts';

/** Registers `/gamerule` (op only); tells clients about `doImmediateRespawn` as vanilla does. */
export function installGameruleCommand(serv: SquidServer): void {
  onGameRuleChange(serv, (name, value) => {
    if (name !== 'doImmediateRespawn') return;
    for (const player of serv.players)
      if (!player.disconnected) player._client.write('game_state_change', { reason: 'immediate_respawn', gameMode: value ? 1 : 0 });
  });
  serv.commands.add({
    base: 'gamerule',
    info: 'Queries or changes a game rule',
    usage: '/gamerule <rule> [value]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [rule, value] = args;
      if (!rule || args.length > 2) throw usageError('/gamerule <rule> [value]');
      if (!isGameRule(rule)) throw new CommandError(translatable('command.unknown.argument'));
      if (value === undefined) {
        sendFeedback(serv, ctx, translatable('commands.gamerule.query', [rule, String(gameRule(serv, rule))]));
        return;
      }
      let parsed: boolean | number;
      if (typeof GAME_RULE_DEFAULTS[rule] === 'boolean') {
        if (value !== 'true' && value !== 'false') throw new CommandError(translatable('parsing.bool.invalid', [value]));
        parsed = value === 'true';
      } else {
        parsed = parseInteger(value, rule === 'randomTickSpeed' ? 0 : -2_147_483_648, 2_147_483_647);
      }
      setGameRule(serv, rule, parsed);
      sendFeedback(serv, ctx, translatable('commands.gamerule.set', [rule, String(parsed)]));
    }),
  });
}
