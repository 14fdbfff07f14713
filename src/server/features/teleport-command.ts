/**
 * Vanilla `/tp` (alias `/teleport`), Minecraft wiki "Commands/teleport":
 * - `/tp <destination>`: the caller to an entity;
 * - `/tp <x> <y> <z>`: the caller to a location;
 * - `/tp <targets> <destination>`: entities to one entity;
 * - `/tp <targets> <x> <y> <z>`: entities to a location.
 * `~` is relative to the caller's position. Rotation/`facing` forms are not supported. Players
 * move through the teleport service (chunks first, confirmed position).
 */
import type { Vec3 } from 'vec3';
import type { CommandContext, SquidEntity, SquidServer } from '../types.ts';
import {
  callerPosition,
  commandAction,
  CommandError,
  isCoordinate,
  parseLocation,
  requirePlayer,
  usageError,
} from '../services/command-arguments.ts';
import { displayName, resolveTargets } from '../services/selectors.ts';
import { sendFeedback, translatable } from '../services/text.ts';

const USAGE = '/tp <destination> | /tp <x> <y> <z> | /tp <targets> <destination> | /tp <targets> <x> <y> <z>';

/** Registers `/tp` and `/teleport` (op only, as in vanilla). */
export function installTeleportCommand(serv: SquidServer): void {
  serv.commands.add({
    base: 'teleport',
    aliases: ['tp'],
    info: 'Teleports entities to a player or to coordinates',
    usage: USAGE,
    op: true,
    action: commandAction(serv, (args, ctx) => runTeleportCommand(serv, args, ctx)),
  });
}

/** Vanilla prints coordinates in feedback with `%f` (six decimals). */
function formatCoordinate(value: number): string {
  return value.toFixed(6);
}

async function teleportAll(targets: SquidEntity[], destination: Vec3): Promise<void> {
  await Promise.all(targets.map((target) => target.teleport(destination.clone())));
}

async function runTeleportCommand(serv: SquidServer, args: string[], ctx: CommandContext): Promise<void> {
  if (args.length === 1 || args.length === 2) {
    const targets = args.length === 1 ? [requirePlayer(ctx)] : resolveTargets(serv, args[0]!, ctx);
    const [destination] = resolveTargets(serv, args[args.length - 1]!, ctx, { single: true }) as [SquidEntity];
    await teleportAll(targets, destination.position);
    sendFeedback(
      serv,
      ctx,
      targets.length === 1
        ? translatable('commands.teleport.success.entity.single', [displayName(targets[0]!), displayName(destination)])
        : translatable('commands.teleport.success.entity.multiple', [targets.length, displayName(destination)]),
    );
    return;
  }
  if (args.length === 3 || args.length === 4) {
    const locationTokens = args.slice(-3);
    if (!locationTokens.every(isCoordinate)) throw new CommandError(translatable('argument.pos3d.incomplete'));
    const targets = args.length === 3 ? [requirePlayer(ctx)] : resolveTargets(serv, args[0]!, ctx);
    const destination = parseLocation(locationTokens, callerPosition(ctx));
    await teleportAll(targets, destination);
    const coordinates = [destination.x, destination.y, destination.z].map(formatCoordinate);
    sendFeedback(
      serv,
      ctx,
      targets.length === 1
        ? translatable('commands.teleport.success.location.single', [displayName(targets[0]!), ...coordinates])
        : translatable('commands.teleport.success.location.multiple', [targets.length, ...coordinates]),
    );
    return;
  }
  throw usageError(USAGE);
}
