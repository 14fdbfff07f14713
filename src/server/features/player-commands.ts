/**
 * Vanilla `/gamemode` and `/difficulty` (Minecraft wiki "Commands/gamemode",
 * "Commands/difficulty"), replacing flying-squid's (numeric modes, English replies):
 * - `/gamemode survival|creative|adventure|spectator [targets]`: `commands.gamemode.success.self`
 *   for the caller, `.other` for others, who are told `gameMode.changed`;
 * - `/difficulty [peaceful|easy|normal|hard]`: query (`commands.difficulty.query`) or set
 *   (`commands.difficulty.success`; `commands.difficulty.failure` when unchanged); every client
 *   gets the `difficulty` packet;
 * - `/list`: `commands.list.players` (count, maximum, names);
 * - `/spawnpoint [targets] [pos] [angle]`: where the targets respawn;
 * - `/setworldspawn [pos] [angle]`: where new players appear (clients get `spawn_position`);
 * - `/seed`: `commands.seed.success` with the world seed;
 * - `/damage <targets> <amount> [damageType] [by <entity>]`: vanilla damage through the damage
 *   service (players) or the mob service (mobs), `commands.damage.success`.
 */
import { Vec3 } from 'vec3';
import type { SquidServer } from '../types.ts';
import { callerPosition, commandAction, CommandError, parseBlockPos, requirePlayer, usageError } from '../services/command-arguments.ts';
import { damageTypes, hurtPlayer } from '../services/damage.ts';
import { displayName, isPlayer, resolvePlayers, resolveTargets } from '../services/selectors.ts';
import { sendFeedback, sendSystemMessage, translatable } from '../services/text.ts';

const GAME_MODES = ['survival', 'creative', 'adventure', 'spectator'];
const DIFFICULTIES = ['peaceful', 'easy', 'normal', 'hard'];

/** An angle argument in degrees (vanilla `AngleArgument`), default 0. */
function parseAngle(token: string | undefined): number {
  if (token === undefined) return 0;
  const n = Number(token);
  if (!Number.isFinite(n)) throw new CommandError(translatable('argument.angle.invalid'));
  return n;
}

/** Registers `/gamemode`, `/difficulty`, `/spawnpoint`, `/setworldspawn`, `/damage` (op only), `/list` and `/seed`. */
export function installPlayerCommands(serv: SquidServer): void {
  const withSpawn = serv as SquidServer & { getSpawnPoint(world: unknown): Promise<Vec3> };
  serv.commands.add({
    base: 'setworldspawn',
    info: 'Sets the world spawn',
    usage: '/setworldspawn [<x> <y> <z>] [angle]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      if (args.length !== 0 && args.length !== 3 && args.length !== 4) throw usageError('/setworldspawn [<x> <y> <z>] [angle]');
      const pos = args.length >= 3 ? parseBlockPos(args.slice(0, 3), ctx) : callerPosition(ctx).floored();
      const angle = parseAngle(args[3]);
      const spawn = new Vec3(pos.x + 0.5, pos.y, pos.z + 0.5);
      withSpawn.getSpawnPoint = async () => spawn.clone();
      for (const player of serv.players) if (!player.disconnected) player._client.write('spawn_position', { location: pos, angle });
      sendFeedback(serv, ctx, translatable('commands.setworldspawn.success', [pos.x, pos.y, pos.z, angle]));
    }),
  });

  serv.commands.add({
    base: 'spawnpoint',
    info: 'Sets where players respawn',
    usage: '/spawnpoint [targets] [<x> <y> <z>] [angle]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      if (args.length > 5 || args.length === 2 || args.length === 3) throw usageError('/spawnpoint [targets] [<x> <y> <z>] [angle]');
      const targets = args[0] === undefined ? [requirePlayer(ctx)] : resolvePlayers(serv, args[0], ctx);
      const pos = args.length >= 4 ? parseBlockPos(args.slice(1, 4), ctx) : callerPosition(ctx).floored();
      const angle = parseAngle(args[4]);
      for (const target of targets) target.spawnPoint = new Vec3(pos.x + 0.5, pos.y, pos.z + 0.5);
      const where = [pos.x, pos.y, pos.z, angle, 'minecraft:overworld'];
      sendFeedback(
        serv,
        ctx,
        targets.length === 1
          ? translatable('commands.spawnpoint.success.single', [...where, displayName(targets[0]!)])
          : translatable('commands.spawnpoint.success.multiple', [...where, targets.length]),
      );
    }),
  });

  serv.commands.add({
    base: 'seed',
    info: 'Shows the world seed',
    usage: '/seed',
    action: commandAction(serv, (_args, ctx) => {
      const seed = String(serv.seed ?? 0);
      sendFeedback(
        serv,
        ctx,
        translatable('commands.seed.success', [translatable('chat.square_brackets', [{ text: seed, color: 'green' }])]),
      );
    }),
  });

  serv.commands.add({
    base: 'damage',
    info: 'Damages entities',
    usage: '/damage <targets> <amount> [damageType] [by <entity>]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const usage = '/damage <targets> <amount> [damageType] [by <entity>]';
      const [selector, amountToken, typeToken = 'minecraft:generic', by, attackerSelector] = args;
      if (!selector || !amountToken || (by !== undefined && (by !== 'by' || !attackerSelector)) || args.length > 5) throw usageError(usage);
      const amount = Number(amountToken);
      if (!Number.isFinite(amount)) throw new CommandError(translatable('parsing.float.invalid', [amountToken]));
      if (amount < 0) throw new CommandError(translatable('argument.float.low', [0, amount]));
      const type = typeToken.replace(/^minecraft:/, '');
      if (!damageTypes(serv).has(type))
        throw new CommandError(translatable('argument.resource.not_found', [typeToken, 'minecraft:damage_type']));
      const [target] = resolveTargets(serv, selector, ctx, { single: true });
      const attacker = attackerSelector ? resolveTargets(serv, attackerSelector, ctx, { single: true })[0] : undefined;
      if (isPlayer(target!)) {
        if (hurtPlayer(serv, target, amount, { type, attacker }) <= 0) throw new CommandError(translatable('commands.damage.invulnerable'));
      } else if (target!.takeDamage) {
        target!.takeDamage({ damage: amount, attacker: attacker && isPlayer(attacker) ? attacker : undefined });
      } else throw new CommandError(translatable('commands.damage.invulnerable'));
      sendFeedback(serv, ctx, translatable('commands.damage.success', [amount, displayName(target!)]));
    }),
  });

  serv.commands.add({
    base: 'list',
    info: 'Lists the players online',
    usage: '/list',
    action: commandAction(serv, (_args, ctx) => {
      const max = (serv as SquidServer & { _server?: { maxPlayers?: number } })._server?.maxPlayers ?? serv.players.length;
      sendFeedback(
        serv,
        ctx,
        translatable('commands.list.players', [serv.players.length, max, serv.players.map((p) => p.username).join(', ')]),
      );
    }),
  });

  serv.commands.add({
    base: 'gamemode',
    info: 'Sets game modes',
    usage: '/gamemode survival|creative|adventure|spectator [targets]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [modeName, selector] = args;
      const mode = GAME_MODES.indexOf(modeName ?? '');
      if (mode < 0 || args.length > 2) throw usageError('/gamemode survival|creative|adventure|spectator [targets]');
      const targets = selector === undefined ? [requirePlayer(ctx)] : resolvePlayers(serv, selector, ctx);
      const modeText = translatable(`gameMode.${modeName}`);
      for (const target of targets) {
        if (target.gameMode === mode) continue;
        (target as typeof target & { setGameMode(mode: number): void }).setGameMode(mode);
        if (target === ctx.player) {
          sendFeedback(serv, ctx, translatable('commands.gamemode.success.self', [modeText]));
        } else {
          sendSystemMessage(serv, target, translatable('gameMode.changed', [modeText]));
          sendFeedback(serv, ctx, translatable('commands.gamemode.success.other', [target.username, modeText]));
        }
      }
    }),
  });

  serv.commands.add({
    base: 'difficulty',
    info: 'Sets or queries the difficulty',
    usage: '/difficulty [peaceful|easy|normal|hard]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const [name] = args;
      if (name === undefined) {
        sendFeedback(
          serv,
          ctx,
          translatable('commands.difficulty.query', [translatable(`options.difficulty.${DIFFICULTIES[serv.difficulty] ?? 'easy'}`)]),
        );
        return;
      }
      const difficulty = DIFFICULTIES.indexOf(name);
      if (difficulty < 0 || args.length > 1) throw usageError('/difficulty [peaceful|easy|normal|hard]');
      if (serv.difficulty === difficulty)
        throw new CommandError(translatable('commands.difficulty.failure', [translatable(`options.difficulty.${name}`)]));
      serv.difficulty = difficulty;
      for (const player of serv.players)
        if (!player.disconnected) player._client.write('difficulty', { difficulty: name, difficultyLocked: false });
      sendFeedback(serv, ctx, translatable('commands.difficulty.success', [translatable(`options.difficulty.${name}`)]));
    }),
  });
}
