/**
 * Block commands as on vanilla Java 1.21 (Minecraft wiki "Commands/fill", "Commands/setblock"):
 * `/fill` with its replace/destroy/keep/hollow/outline modes and the 32768-block volume limit,
 * and `/setblock` with replace/destroy/keep; a replaced container's contents vanish (drop with
 * `destroy`). Block arguments (`name[property=value,...]`) are
 * parsed by the command-argument service; block facts (ids, states, loot) come from
 * minecraft-data (`serv.registry`).
 */
import { Vec3 } from 'vec3';
import type { SquidServer, SquidWorld } from '../types.ts';
import { blockOfState, isAir, propertiesOfState } from '../services/blocks.ts';
import {
  callerWorld,
  commandAction,
  CommandError,
  parseBlockArgument,
  parseBlockPos,
  usageError,
  writtenProperties,
  type BlockArgument,
} from '../services/command-arguments.ts';
import { blockEntities } from '../services/block-entities.ts';
import { dropContents, popDrops } from '../services/drops.ts';
import { closeContainer } from '../services/inventory.ts';
import { blockDrops } from '../services/loot.ts';
import { sendFeedback, translatable } from '../services/text.ts';

/** vanilla `commandModificationBlockLimit` game rule default: most blocks one /fill may change. */
export const FILL_VOLUME_LIMIT = 32_768;

/** One block write. */
export interface BlockWrite {
  position: Vec3;
  stateId: number;
}

/**
 * Writes many blocks to `world` and shows them to every player in that world: one
 * `multi_block_change` per 16³ chunk section (one `block_change` for a single block), as vanilla
 * sends section updates. Neighbour updates (flying-squid's `updateBlock`) are not triggered.
 */
export async function writeBlocks(serv: SquidServer, world: SquidWorld, writes: BlockWrite[]): Promise<void> {
  const sections = new Map<string, { x: number; y: number; z: number; records: number[]; last: BlockWrite }>();
  for (const write of writes) {
    await world.setBlockStateId(write.position, write.stateId);
    const sx = Math.floor(write.position.x / 16),
      sy = Math.floor(write.position.y / 16),
      sz = Math.floor(write.position.z / 16);
    const key = `${sx},${sy},${sz}`;
    let section = sections.get(key);
    if (!section) sections.set(key, (section = { x: sx, y: sy, z: sz, records: [], last: write }));
    const lx = write.position.x - sx * 16,
      ly = write.position.y - sy * 16,
      lz = write.position.z - sz * 16;
    // Protocol record: stateId << 12 | x << 8 | z << 4 | y (section-local).
    section.records.push(write.stateId * 4096 + ((lx << 8) | (lz << 4) | ly));
    section.last = write;
  }
  const players = serv.players.filter((p) => p.world === world && !p.disconnected);
  for (const section of sections.values()) {
    for (const player of players) {
      if (section.records.length === 1) player.sendBlock(section.last.position, section.last.stateId);
      else
        player._client.write('multi_block_change', {
          chunkCoordinates: { x: section.x, y: section.y, z: section.z },
          records: section.records,
        });
    }
  }
}

/**
 * Drops what the block of state `stateId` at `position` drops when a command destroys it
 * (vanilla `Level.destroyBlock(pos, true)`: loot without a tool check), as item entities.
 */
function dropDestroyed(serv: SquidServer, world: SquidWorld, position: Vec3, stateId: number): void {
  popDrops(serv, world, position, blockDrops(serv, blockOfState(serv, stateId), 'command'));
}

/**
 * A block entity (chest, barrel, furnace… contents, sign text) whose block a command replaces:
 * windows open on it close and it is forgotten, so the new block starts empty (vanilla
 * `Clearable.tryClear` before `/setblock` and `/fill` write); with `destroy` its contents drop
 * as item entities first (vanilla `Level.destroyBlock` → `Containers.dropContents`).
 */
function replaceBlockEntity(serv: SquidServer, world: SquidWorld, position: Vec3, destroy: boolean): void {
  const store = blockEntities(serv);
  const entity = store.get(world, position);
  if (!entity) return;
  for (const viewer of [...entity.viewers]) closeContainer(viewer);
  store.remove(world, position);
  if (destroy) dropContents(serv, world, position, entity.slots);
}

/** `/fill` modes (vanilla `FillCommand.Mode`). */
export type FillMode = 'replace' | 'destroy' | 'keep' | 'hollow' | 'outline';

/** What {@link fillRegion} fills, and how. */
export interface FillOptions {
  world: SquidWorld;
  /** Two opposite corners, inclusive, in block coordinates (any order). */
  from: Vec3;
  to: Vec3;
  block: BlockArgument;
  mode: FillMode;
  /** `replace` mode only: change only blocks matching this block (and the properties given). */
  filter?: { name: string; properties: Record<string, string> };
}

/**
 * Fills a box as vanilla `/fill` does:
 * - `replace` (default): every block, or only those matching `filter`;
 * - `destroy`: every block, the old ones dropping their no-tool loot as item entities;
 * - `keep`: only air blocks;
 * - `hollow`: the shell gets the block, the inside becomes air;
 * - `outline`: only the shell, the inside is untouched.
 * Blocks already in the target state are not counted (vanilla counts changed blocks only).
 *
 * @returns the number of blocks changed.
 * @throws CommandError `commands.fill.toobig` when the box exceeds {@link FILL_VOLUME_LIMIT} blocks.
 */
export async function fillRegion(serv: SquidServer, options: FillOptions): Promise<number> {
  const { world, from, to, block, mode, filter } = options;
  const min = new Vec3(Math.min(from.x, to.x), Math.min(from.y, to.y), Math.min(from.z, to.z));
  const max = new Vec3(Math.max(from.x, to.x), Math.max(from.y, to.y), Math.max(from.z, to.z));
  const volume = (max.x - min.x + 1) * (max.y - min.y + 1) * (max.z - min.z + 1);
  if (volume > FILL_VOLUME_LIMIT) throw new CommandError(translatable('commands.fill.toobig', [FILL_VOLUME_LIMIT, volume]));
  const air = serv.registry.blocksByName.air!.defaultState;
  const isAirState = (stateId: number): boolean => isAir(serv.registry.blocksByStateId[stateId]?.name);
  const writes: BlockWrite[] = [];
  const destroyed: Array<{ position: Vec3; stateId: number }> = [];
  for (let x = min.x; x <= max.x; x++) {
    for (let y = min.y; y <= max.y; y++) {
      for (let z = min.z; z <= max.z; z++) {
        const position = new Vec3(x, y, z);
        const shell = x === min.x || x === max.x || y === min.y || y === max.y || z === min.z || z === max.z;
        if (mode === 'outline' && !shell) continue;
        const current = await world.getBlockStateId(position);
        let target = block.stateId;
        if (mode === 'hollow' && !shell) target = air;
        if (mode === 'keep' && !isAirState(current)) continue;
        if (filter) {
          const currentBlock = serv.registry.blocksByStateId[current];
          if (currentBlock?.name !== filter.name) continue;
          const props = propertiesOfState(serv, current);
          if (Object.entries(filter.properties).some(([k, v]) => props[k] !== v)) continue;
        }
        if (current === target) continue;
        if (mode === 'destroy' && !isAirState(current)) destroyed.push({ position, stateId: current });
        replaceBlockEntity(serv, world, position, mode === 'destroy');
        writes.push({ position, stateId: target });
      }
    }
  }
  await writeBlocks(serv, world, writes);
  for (const d of destroyed) dropDestroyed(serv, world, d.position, d.stateId);
  return writes.length;
}

/** Registers `/fill` and `/setblock` (both op-only, as in vanilla), replacing flying-squid's `/setblock`. */
export function installBlockCommands(serv: SquidServer): void {
  const fillUsage = '/fill <from> <to> <block> [replace [<filter>]|destroy|keep|hollow|outline]';
  serv.commands.add({
    base: 'fill',
    info: 'Fills a region with a block',
    usage: fillUsage,
    op: true,
    action: commandAction(serv, async (args, ctx) => {
      if (args.length < 7 || args.length > 9) throw usageError(fillUsage);
      const from = parseBlockPos(args.slice(0, 3), ctx);
      const to = parseBlockPos(args.slice(3, 6), ctx);
      const block = parseBlockArgument(serv, args[6]!);
      const mode = (args[7] ?? 'replace') as FillMode;
      if (!['replace', 'destroy', 'keep', 'hollow', 'outline'].includes(mode)) throw usageError(fillUsage);
      if (args[8] !== undefined && mode !== 'replace') throw usageError(fillUsage);
      let filter: FillOptions['filter'];
      if (args[8] !== undefined) {
        const parsed = parseBlockArgument(serv, args[8]);
        // Only the properties written in the filter must match (vanilla BlockPredicateArgument).
        filter = { name: parsed.name, properties: writtenProperties(parsed, args[8]) };
      }
      const count = await fillRegion(serv, { world: callerWorld(serv, ctx), from, to, block, mode, filter });
      if (count === 0) throw new CommandError(translatable('commands.fill.failed'));
      sendFeedback(serv, ctx, translatable('commands.fill.success', [count]));
    }),
  });

  const setblockUsage = '/setblock <pos> <block> [destroy|keep|replace]';
  serv.commands.add({
    base: 'setblock',
    info: 'Changes a block',
    usage: setblockUsage,
    op: true,
    action: commandAction(serv, async (args, ctx) => {
      if (args.length < 4 || args.length > 5) throw usageError(setblockUsage);
      const position = parseBlockPos(args.slice(0, 3), ctx);
      const block = parseBlockArgument(serv, args[3]!);
      const mode = args[4] ?? 'replace';
      if (!['replace', 'destroy', 'keep'].includes(mode)) throw usageError(setblockUsage);
      const world = callerWorld(serv, ctx);
      const current = await world.getBlockStateId(position);
      const wasAir = isAir(serv.registry.blocksByStateId[current]?.name);
      if ((mode === 'keep' && !wasAir) || current === block.stateId) throw new CommandError(translatable('commands.setblock.failed'));
      replaceBlockEntity(serv, world, position, mode === 'destroy');
      await serv.setBlock(world, position, block.stateId);
      if (mode === 'destroy' && !wasAir) dropDestroyed(serv, world, position, current);
      sendFeedback(serv, ctx, translatable('commands.setblock.success', [position.x, position.y, position.z]));
    }),
  });
}
