/**
 * Experience as vanilla 1.21 (Minecraft wiki "Experience", "Commands/experience"; vanilla
 * `Player.giveExperiencePoints`, `giveExperienceLevels`, `getXpNeededForNextLevel`):
 * `/xp` (alias `/experience`) `add|set <targets> <amount> [points|levels]` and
 * `query <target> points|levels`, with vanilla feedback and the `experience` packet (progress
 * bar, level, total), so mineflayer's `bot.experience` follows.
 */
import type { CommandContext, SquidPlayer, SquidServer } from '../types.ts';
import { commandAction, CommandError, parseInteger, usageError } from '../services/command-arguments.ts';
import { gameRule } from '../services/game-rules.ts';
import { displayName, resolvePlayers } from '../services/selectors.ts';
import { sendFeedback, translatable } from '../services/text.ts';

/** A player's experience (vanilla `experienceLevel`, `experienceProgress`, `totalExperience`). */
interface Experience {
  level: number;
  progress: number;
  total: number;
}

const experience = new WeakMap<SquidPlayer, Experience>();

function experienceOf(player: SquidPlayer): Experience {
  let xp = experience.get(player);
  if (!xp) {
    xp = { level: 0, progress: 0, total: 0 };
    experience.set(player, xp);
  }
  return xp;
}

/** Points needed to go from `level` to the next (vanilla `Player.getXpNeededForNextLevel`). */
export function pointsForNextLevel(level: number): number {
  if (level >= 30) return 112 + (level - 30) * 9;
  if (level >= 15) return 37 + (level - 15) * 5;
  return 7 + level * 2;
}

function send(player: SquidPlayer, xp: Experience): void {
  if (!player.disconnected) player._client.write('experience', { experienceBar: xp.progress, level: xp.level, totalExperience: xp.total });
}

/** vanilla `giveExperiencePoints`. */
function addPoints(xp: Experience, points: number): void {
  xp.progress += points / pointsForNextLevel(xp.level);
  xp.total = Math.max(0, Math.min(2_147_483_647, xp.total + points));
  while (xp.progress < 0) {
    const removed = xp.progress * pointsForNextLevel(xp.level);
    if (xp.level > 0) {
      addLevels(xp, -1);
      xp.progress = 1 + removed / pointsForNextLevel(xp.level);
    } else {
      addLevels(xp, -1);
      xp.progress = 0;
    }
  }
  while (xp.progress >= 1) {
    xp.progress = (xp.progress - 1) * pointsForNextLevel(xp.level);
    addLevels(xp, 1);
    xp.progress /= pointsForNextLevel(xp.level);
  }
}

/** vanilla `giveExperienceLevels`. */
function addLevels(xp: Experience, levels: number): void {
  xp.level += levels;
  if (xp.level < 0) {
    xp.level = 0;
    xp.progress = 0;
    xp.total = 0;
  }
}

/** Registers `/xp` and `/experience` (op only). */
export function installExperience(serv: SquidServer): void {
  // vanilla: death loses the experience unless the game rule keepInventory is on.
  serv.on('playerDied', (player) => {
    if (!gameRule(serv, 'keepInventory')) experience.set(player, { level: 0, progress: 0, total: 0 });
  });
  serv.on('newPlayer', (player) => player.once('spawned', () => send(player, experienceOf(player))));
  serv.commands.add({
    base: 'experience',
    aliases: ['xp'],
    info: 'Adds, sets or queries experience',
    usage: '/xp add|set <targets> <amount> [points|levels] | /xp query <target> points|levels',
    op: true,
    action: commandAction(serv, (args, ctx) => runXp(serv, args, ctx)),
  });
}

function runXp(serv: SquidServer, args: string[], ctx: CommandContext): void {
  const usage = '/xp add|set <targets> <amount> [points|levels] | /xp query <target> points|levels';
  const [action, selector, third, fourth] = args;
  if (!action || !selector || !third || args.length > 4) throw usageError(usage);
  if (action === 'query') {
    if (third !== 'points' && third !== 'levels') throw usageError(usage);
    const [target] = resolvePlayers(serv, selector, ctx, { single: true }) as [SquidPlayer];
    const xp = experienceOf(target);
    const value = third === 'levels' ? xp.level : Math.floor(xp.progress * pointsForNextLevel(xp.level));
    sendFeedback(serv, ctx, translatable(`commands.experience.query.${third}`, [displayName(target), value]));
    return;
  }
  if (action !== 'add' && action !== 'set') throw usageError(usage);
  const unit = fourth ?? 'points';
  if (unit !== 'points' && unit !== 'levels') throw usageError(usage);
  const amount = parseInteger(third, action === 'set' ? 0 : -2_147_483_648, 2_147_483_647);
  const targets = resolvePlayers(serv, selector, ctx);
  for (const target of targets) {
    const xp = experienceOf(target);
    if (action === 'add') {
      if (unit === 'points') addPoints(xp, amount);
      else addLevels(xp, amount);
    } else if (unit === 'levels') {
      xp.level = amount;
    } else {
      if (amount > pointsForNextLevel(xp.level)) throw new CommandError(translatable('commands.experience.set.points.invalid'));
      xp.progress = amount / pointsForNextLevel(xp.level);
    }
    send(target, xp);
  }
  const key = `commands.experience.${action}.${unit}.success`;
  sendFeedback(
    serv,
    ctx,
    targets.length === 1
      ? translatable(`${key}.single`, [amount, displayName(targets[0]!)])
      : translatable(`${key}.multiple`, [amount, targets.length]),
  );
}

/** Every player back to no experience (the warm world's reset), the clients told. */
export function resetExperience(serv: SquidServer): void {
  for (const player of serv.players) {
    const xp = { level: 0, progress: 0, total: 0 };
    experience.set(player, xp);
    send(player, xp);
  }
}
