/**
 * `/data merge block <pos> <nbt>` and `/data get block <pos> [<path>]` (Minecraft wiki
 * "Commands/data") on the block entities of chests, barrels, furnaces, smokers and blast
 * furnaces: `Items` sets the slots, a furnace's burn and cook numbers (both 1.21.4's
 * `lit_time_remaining` … and the older `BurnTime`, `CookTime`, `CookTimeTotal`) drive the real
 * furnace. NBT keys the store does not model (e.g. `CustomName`, `Lock`) are accepted and
 * ignored, as vanilla ignores unknown keys when it loads a block entity.
 */
import type { SquidServer } from '../types.ts';
import { blockEntityAt } from '../services/block-entities.ts';
import { blockEntityNbt, loadBlockEntityNbt } from '../services/block-entity-nbt.ts';
import { callerWorld, commandAction, CommandError, parseBlockPos, usageError } from '../services/command-arguments.ts';
import { formatSnbt, isCompound, mergeCompound, nbtAtPath, parseSnbt, type NbtValue } from '../services/snbt.ts';
import { sendFeedback, translatable } from '../services/text.ts';

const USAGE = '/data merge block <pos> <nbt> | /data get block <pos> [<path>]';

/** Registers `/data` (op only, as in vanilla; block targets only). */
export function installDataCommand(serv: SquidServer): void {
  serv.commands.add({
    base: 'data',
    info: 'Gets or merges block entity data',
    usage: USAGE,
    op: true,
    action: commandAction(serv, async (args, ctx) => {
      const [verb, target] = args;
      if (target !== 'block' || (verb !== 'merge' && verb !== 'get'))
        throw new CommandError({ text: `Usage: ${USAGE} (entity and storage targets are not supported)` });
      if (verb === 'merge' ? args.length !== 6 : args.length < 5 || args.length > 6) throw usageError(USAGE);
      const position = parseBlockPos(args.slice(2, 5), ctx);
      const patch = verb === 'merge' ? parseSnbt(args[5]!) : undefined;
      if (patch !== undefined && !isCompound(patch)) throw new CommandError(translatable('parsing.expected', ['{']));
      const entity = await blockEntityAt(serv, callerWorld(serv, ctx), position);
      if (!entity) throw new CommandError(translatable('commands.data.block.invalid'));
      const current = blockEntityNbt(serv, entity);
      if (patch) {
        // vanilla DataCommands.mergeData: fails when merging changes nothing.
        if (formatSnbt(mergeCompound(structuredClone(current), patch)) === formatSnbt(current))
          throw new CommandError(translatable('commands.data.merge.failed'));
        loadBlockEntityNbt(serv, entity, patch);
        sendFeedback(serv, ctx, translatable('commands.data.block.modified', [position.x, position.y, position.z]));
        return;
      }
      const path = args[5];
      const value: NbtValue | undefined = path === undefined ? current : nbtAtPath(current, path);
      if (value === undefined) throw new CommandError(translatable('arguments.nbtpath.nothing_found', [path!]));
      sendFeedback(serv, ctx, translatable('commands.data.block.query', [position.x, position.y, position.z, formatSnbt(value)]));
    }),
  });
}
