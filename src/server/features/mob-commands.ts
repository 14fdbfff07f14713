/**
 * Entity commands as vanilla Java 1.21 (Minecraft wiki "Commands/summon", "Commands/kill"):
 * `/summon <entity> [<x> <y> <z>] [<nbt>]` for every entity of minecraft-data (living ones
 * through the mob service; `Age` < 0 or `IsBaby:1` makes a baby), and `/kill [<targets>]`: our
 * mobs die with loot, players die, anything else is removed.
 */
import type { SquidEntity, SquidServer } from '../types.ts';
import {
  callerPosition,
  callerWorld,
  commandAction,
  CommandError,
  parseLocation,
  requirePlayer,
  usageError,
} from '../services/command-arguments.ts';
import { hurtPlayer } from '../services/damage.ts';
import { killMob, LIVING_TYPES, mobState, spawnMob, type SpawnMobOptions } from '../services/mobs.ts';
import { displayName, isPlayer, resolveTargets } from '../services/selectors.ts';
import { isCompound, parseSnbt, type NbtValue } from '../services/snbt.ts';
import type { Profession, VillagerType } from '../../game/villagers.ts';
import { sendFeedback, translatable } from '../services/text.ts';

/**
 * Vanilla `/kill` on one entity: our mobs die with loot, players die (`generic_kill`, which
 * creative players take too: "was killed"), anything else is removed.
 */
function killEntity(serv: SquidServer, entity: SquidEntity): void {
  const mob = mobState(serv, entity);
  if (mob) {
    killMob(serv, mob);
    return;
  }
  if (isPlayer(entity)) {
    if (entity.health > 0) hurtPlayer(serv, entity, Infinity, { type: 'generic_kill' });
    return;
  }
  entity.destroy();
}

/**
 * A villager's `VillagerData` NBT (`{profession:"minecraft:farmer",level:2,type:"minecraft:plains"}`),
 * as the spawn options of the mob service; values it does not know make `/summon` fail.
 */
function villagerData(nbt: NbtValue | undefined): SpawnMobOptions['villager'] {
  if (!isCompound(nbt)) return {};
  const name = (value: NbtValue | undefined) => (typeof value === 'string' ? value.replace(/^minecraft:/, '') : undefined);
  const profession = name(nbt.profession) as Profession | undefined;
  const type = name(nbt.type) as VillagerType | undefined;
  return {
    ...(profession !== undefined ? { profession } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(typeof nbt.level === 'number' ? { level: nbt.level } : {}),
  };
}

/** Registers `/summon` and `/kill` (op only, as in vanilla); needs the mob service. */
export function installMobCommands(serv: SquidServer): void {
  const summonUsage = '/summon <entity> [<x> <y> <z>] [<nbt>]';
  serv.commands.add({
    base: 'summon',
    info: 'Summons an entity',
    usage: summonUsage,
    op: true,
    action: commandAction(serv, (args, ctx) => {
      if (args.length !== 1 && args.length !== 4 && args.length !== 5) throw usageError(summonUsage);
      const name = args[0]!.replace(/^minecraft:/, '');
      const info = serv.registry.entitiesByName[name];
      if (!info) throw new CommandError(translatable('argument.resource.not_found', [args[0]!, 'minecraft:entity_type']));
      const origin = callerPosition(ctx);
      const position = args.length >= 4 ? parseLocation(args.slice(1, 4), origin) : origin;
      const nbt = args[4] === undefined ? {} : parseSnbt(args[4]);
      const data = isCompound(nbt) ? nbt : {};
      const world = callerWorld(serv, ctx);
      if (info.type === 'player') throw new CommandError(translatable('commands.summon.failed'));
      try {
        if (LIVING_TYPES.has(info.type)) {
          const baby = (typeof data.Age === 'number' && data.Age < 0) || data.IsBaby === 1;
          spawnMob(serv, name, { world, position, baby, ...(name === 'villager' ? { villager: villagerData(data.VillagerData) } : {}) });
        } else {
          serv.spawnObject(info.id, world, position, {});
        }
      } catch (err) {
        serv.debug?.(`summon ${name} failed: ${String(err)}`);
        throw new CommandError(translatable('commands.summon.failed'));
      }
      sendFeedback(serv, ctx, translatable('commands.summon.success', [info.displayName ?? name]));
    }),
  });

  const killUsage = '/kill [<targets>]';
  serv.commands.add({
    base: 'kill',
    info: 'Kills entities',
    usage: killUsage,
    op: true,
    action: commandAction(serv, (args, ctx) => {
      if (args.length > 1) throw usageError(killUsage);
      const targets = (args[0] === undefined ? [requirePlayer(ctx)] : resolveTargets(serv, args[0], ctx)).filter(
        (entity) => !mobState(serv, entity)?.dead,
      );
      if (targets.length === 0) throw new CommandError(translatable('argument.entity.notfound.entity'));
      for (const entity of targets) killEntity(serv, entity);
      sendFeedback(
        serv,
        ctx,
        targets.length === 1
          ? translatable('commands.kill.success.single', [displayName(targets[0]!)])
          : translatable('commands.kill.success.multiple', [targets.length]),
      );
    }),
  });
}
